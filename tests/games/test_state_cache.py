"""Deciding a command starts from the state this process last saw committed: no loading when the
caller expects that version, and never a decision on a state that is behind the log."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import services, state_cache, store
from games.errors import Stale
from games.models import Event
from rules import legal_commands
from rules.commands import DrawCard


@pytest.fixture(autouse=True)
def _empty_cache():
    store.forget_all()
    yield
    store.forget_all()


def next_command(state):
    seat = state.pending[1]
    return seat, legal_commands(state, seat)[0]


def test_a_command_at_the_cached_version_reads_no_snapshot_and_no_events(
    make_game, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        game = make_game()
    seat, command = next_command(store.load(game.pk)[0])

    with CaptureQueriesContext(connection) as queries:
        result = services.apply_command(
            game_id=game.pk, command=command, actor="s", expected_version=game.version
        )

    reads = [q["sql"] for q in queries if q["sql"].startswith("SELECT")]
    assert len(reads) == 1 and "games_game" in reads[0]  # the lock, with the head's hash
    assert result.version > game.version


def test_a_cached_state_behind_the_log_is_brought_up_to_date_before_deciding(
    make_game, play, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        game = make_game()
    cached = store.current(game.pk)
    # Another process moves the game on: this one never hears of it.
    with django_capture_on_commit_callbacks(execute=False):
        play(game, commands=3)
    head = store.load(game.pk)[0]
    assert cached.version < head.version
    seat, command = next_command(head)

    result = services.apply_command(game_id=game.pk, command=command, actor="s")

    assert result.events[0].version == head.version + 1
    assert store.load(game.pk)[0].version == result.version


def test_expecting_the_cached_version_when_the_log_moved_on_is_stale(
    make_game, play, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        game = make_game()
    cached = store.current(game.pk)
    with django_capture_on_commit_callbacks(execute=False):
        play(game, commands=2)
    head = store.load(game.pk)[0].version
    count = Event.objects.count()
    seat, legal_then = next_command(cached)
    not_then = DrawCard((cached.pending[1] + 1) % 3)  # illegal at the cached version

    for command in (legal_then, not_then):
        with pytest.raises(Stale) as excinfo:
            services.apply_command(
                game_id=game.pk, command=command, actor="s", expected_version=cached.version
            )
        assert excinfo.value.current_version == head
    assert Event.objects.count() == count


def test_states_of_a_transaction_that_rolls_back_are_not_cached(make_game, play):
    # The test's transaction never commits (pytest-django rolls it back).
    game = make_game()
    play(game, commands=2)

    assert state_cache.state(game.pk) is None
