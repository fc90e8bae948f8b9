"""The store: loading from snapshots, the snapshot policy, appending with a version check."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import projections, registry, services, store
from games.errors import Stale
from games.models import Event, Game, Snapshot, TableView
from rules import ENGINE_VERSION, GameState, legal_commands, replay
from rules.events import Rewound


def full_replay(game):
    """The engine's own fold of the whole log (the reference the store must agree with)."""
    return replay(
        row.to_rules_event() for row in Event.objects.filter(game=game).order_by("version")
    )


@pytest.fixture
def spy_events_between(monkeypatch):
    """Record which versions the store reads from the log: (after, upto, versions read)."""
    calls = []
    real = store.events_between

    def spy(game_id, after, upto=None):
        events = real(game_id, after, upto)
        calls.append((after, upto, len(events)))
        return events

    monkeypatch.setattr(store, "events_between", spy)
    return calls


def test_loading_reads_only_the_events_after_the_newest_snapshot(
    make_game, play, spy_events_between
):
    game = make_game()
    play(game, until_version=250)
    newest = Snapshot.objects.filter(game=game).order_by("-version").first()
    spy_events_between.clear()

    with CaptureQueriesContext(connection) as queries:
        state, version = store.load(game.pk)

    assert newest.version >= 200
    assert spy_events_between == [(newest.version, None, version - newest.version)]
    assert len(queries) == 2  # the snapshot, the events after it: however long the log
    assert state == full_replay(game)
    assert version == Game.objects.get(pk=game.pk).version


def test_a_snapshot_written_by_another_engine_version_is_ignored_and_rebuilt(make_game, play):
    game = make_game()
    play(game, until_version=120)
    head = Game.objects.get(pk=game.pk).version
    Snapshot.objects.filter(game=game).delete()
    bogus = GameState()
    bogus.version = head
    Snapshot.objects.create(
        game=game, version=head, engine_version=ENGINE_VERSION - 1, state=bogus.to_dict()
    )

    state, version = store.load(game.pk)

    assert version == head
    assert state == full_replay(game)
    rebuilt = Snapshot.objects.get(game=game, engine_version=ENGINE_VERSION)
    assert rebuilt.version == head
    assert GameState.from_dict(rebuilt.state) == state


def test_snapshots_are_taken_every_hundred_events_and_at_the_end_of_the_game(make_game, play):
    game = make_game(scoring="none", seed="one-long-hand")
    results = play(game)
    versions = list(
        Snapshot.objects.filter(game=game).order_by("version").values_list("version", flat=True)
    )
    final = results[-1].version

    assert Game.objects.get(pk=game.pk).status == Game.Status.FINISHED
    assert versions[-1] == final
    # Besides the last: one snapshot per hundred crossed, at the end of the append crossing it.
    crossed = versions[:-1]
    assert [v // 100 for v in crossed] == list(range(1, len(crossed) + 1))
    assert len(crossed) >= final // 100 - 1
    for v in crossed:
        batch = Event.objects.get(game=game, version=v).batch
        assert (batch - 1) // 100 < v // 100


def test_a_rewind_is_snapshotted_so_loading_never_reads_events_before_it(
    make_game, play, spy_events_between
):
    game = make_game()
    results = play(game, commands=12)
    to_version = results[4].version
    head = results[-1].version

    rows = store.append(game, head, [Rewound(to_version, "user:1", "misdeal")], actor="user:1")
    spy_events_between.clear()
    state, version = store.load(game.pk)

    assert version == rows[0].version == head + 1
    assert Snapshot.objects.filter(game=game, version=version).exists()
    assert spy_events_between == [(version, None, 0)]
    expected = store.state_at(game.pk, to_version).copy()
    expected.version = version
    assert state == expected == full_replay(game)


def test_state_at_starts_from_the_newest_snapshot_at_or_below_the_version(
    make_game, play, spy_events_between
):
    game = make_game()
    play(game, until_version=230)
    snapshot = Snapshot.objects.filter(game=game, version__lte=215).order_by("-version").first()
    spy_events_between.clear()

    state = store.state_at(game.pk, 215)

    assert spy_events_between == [(snapshot.version, 215, 215 - snapshot.version)]
    events = [
        row.to_rules_event()
        for row in Event.objects.filter(game=game, version__lte=215).order_by("version")
    ]
    assert state == replay(events)


def test_a_stale_expected_version_is_refused_and_appends_nothing(make_game, play):
    game = make_game()
    results = play(game, commands=3)
    state, version = store.load(game.pk)
    count = Event.objects.count()

    with pytest.raises(Stale) as excinfo:
        store.append(game, version - 1, [Rewound(5, "user:1", "late")], actor="user:1")

    assert excinfo.value.current_version == version == results[-1].version
    assert Event.objects.count() == count
    assert Game.objects.get(pk=game.pk).version == version


def test_a_version_collision_in_the_database_is_reported_as_stale(make_game):
    # Something wrote version 6 without going through the store (so without the game's lock
    # and without moving its header): the unique (game, version) constraint still holds.
    game = make_game()
    head = Game.objects.get(pk=game.pk).version
    last = Event.objects.get(game=game, version=head)
    Event.objects.create(
        game=game,
        version=head + 1,
        batch=head + 1,
        type="rewound",
        data={"to_version": head, "by": "x", "reason": "forged"},
        actor="x",
        hash="f" * 64,
        prev_hash=last.hash,
    )

    with pytest.raises(Stale):
        store.append(game, head, [Rewound(head, "user:1", "real")], actor="user:1")

    assert Event.objects.filter(game=game, version=head + 1).get().actor == "x"


def test_each_event_is_chained_to_the_previous_one_by_its_hash(make_game, play):
    game = make_game()
    play(game, commands=5)
    rows = list(Event.objects.filter(game=game).order_by("version"))

    assert [row.version for row in rows] == list(range(1, len(rows) + 1))
    assert rows[0].prev_hash == store.GENESIS
    for before, row in zip(rows, rows[1:], strict=False):
        assert row.prev_hash == before.hash
    assert all(row.hash == store.row_hash(row) for row in rows)


def test_a_command_stores_its_key_once_and_its_events_as_one_batch(make_game, play):
    game = make_game()
    play(game, commands=1)
    state, version = store.load(game.pk)
    seat = state.pending[1]

    result = services.apply_command(
        game_id=game.pk, command=legal_commands(state, seat)[0], actor=f"seat:{seat}", key="k-1"
    )
    rows = result.events

    assert [row.batch for row in rows] == [version + 1] * len(rows)
    assert [row.key for row in rows] == ["k-1"] + [None] * (len(rows) - 1)
    assert store.batch_of_key(game.pk, f"seat:{seat}", "k-1") == rows


def test_the_projection_is_written_in_the_appends_transaction(make_game, play):
    game = make_game()
    play(game, commands=2)
    before = (Event.objects.count(), TableView.objects.get(game=game).version)

    class Broken:
        def apply(self, game, rows, state):
            raise RuntimeError("projection failed")

        def reset(self):
            pass

    broken = projections.register(Broken())
    try:
        with pytest.raises(RuntimeError, match="projection failed"):
            play(game, commands=1)
    finally:
        projections._projectors.remove(broken)

    assert (Event.objects.count(), TableView.objects.get(game=game).version) == before


def test_the_table_view_follows_the_game(make_game, play):
    game = make_game(scoring="none", seed="quick")
    play(game)
    view = TableView.objects.get(game=game)
    state = full_replay(game)

    assert view.status == "finished" and view.winner == state.winner is not None
    assert view.version == state.version
    assert view.card_counts == [len(hand) for hand in state.hands]
    assert view.top_card == state.top


def test_listeners_hear_of_an_append_only_after_it_commits(
    make_game, django_capture_on_commit_callbacks
):
    heard = []

    def listener(game, rows):
        heard.append((game.version, [row.version for row in rows]))

    registry.on_game_event.append(listener)
    try:
        with django_capture_on_commit_callbacks() as callbacks:
            game = make_game()
            assert heard == []
        for callback in callbacks:
            callback()
    finally:
        registry.on_game_event.remove(listener)

    assert heard == [(game.version, list(range(1, game.version + 1)))]
