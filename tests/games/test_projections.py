"""Projections rebuilt from the log equal the ones built append by append."""

from io import StringIO

import pytest
from django.core.management import call_command
from django.forms.models import model_to_dict

from games import rebuild, services
from games.models import Event, TableView


def table_views():
    return {
        view.game_id: model_to_dict(view, exclude=["updated_at"])
        for view in TableView.objects.order_by("game_id")
    }


@pytest.fixture
def several_games(make_game, play):
    finished = make_game(scoring="none", seed="quick")
    play(finished)
    rewound = make_game(seed="rewound")
    results = play(rewound, commands=12)
    services.undo(game_id=rewound.pk, to_version=results[4].version, reason="misdeal", by="user:1")
    play(rewound, commands=3)
    long = make_game(players=["A", "B", "C", "D"], seed="long")
    play(long, until_version=260)
    fresh = make_game(players=["A", "B"], seed="fresh")
    # Interleave the games' appends, as a club night would.
    for _ in range(5):
        for game in (fresh, long, rewound):
            play(game, commands=1)
    return [finished, rewound, long, fresh]


def test_rebuilt_table_views_equal_the_incremental_ones(several_games):
    incremental = table_views()
    TableView.objects.all().delete()

    read = rebuild.rebuild()

    assert read == Event.objects.count()
    assert table_views() == incremental
    assert len(incremental) == 4


def test_rebuild_replaces_a_wrong_projection(several_games):
    incremental = table_views()
    TableView.objects.update(version=0, winner=3, top_card="W")

    rebuild.rebuild()

    assert table_views() == incremental


def test_rebuild_hands_each_projector_every_batch_in_order(several_games):
    seen = []

    class Recorder:
        def apply(self, game, rows, state):
            seen.append((game.pk, rows[0].batch, [row.version for row in rows], state.version))

        def reset(self):
            seen.clear()

    rebuild.rebuild([Recorder()])

    batches = {}
    for game_id, batch, versions, version in seen:
        assert versions[0] == batch and versions[-1] == version
        assert versions == list(range(batch, version + 1))
        assert batches.get(game_id, 0) == batch - 1  # no batch missed or repeated
        batches[game_id] = version
    assert batches == {game.pk: game.events.count() for game in several_games}


def test_the_rebuild_command_shows_progress_and_a_summary(several_games):
    incremental = table_views()
    out, err = StringIO(), StringIO()

    call_command("rebuild_projections", stdout=out, stderr=err)

    total = Event.objects.count()
    assert f"[{'#' * 30}] {total}/{total} events" in err.getvalue()
    assert f"from {total} events" in out.getvalue()
    assert table_views() == incremental
