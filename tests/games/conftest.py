"""Fixtures for the event store tests: games made through the services, a simple player that
drives a game forward, and an empty log after each transactional test."""

import hashlib

import pytest

from games import services, store
from games.testing import erase_event_log_for_tests
from rules import legal_commands


@pytest.fixture(autouse=True)
def _empty_event_log_after_transactional_tests(request):
    # Runs before pytest-django's flush, which the log's triggers would refuse.
    yield
    marker = request.node.get_closest_marker("django_db")
    if (marker and marker.kwargs.get("transaction")) or "transactional_db" in request.fixturenames:
        erase_event_log_for_tests()


@pytest.fixture
def make_game(db):
    """``make_game(players=..., **create_game arguments)``: a seeded classic game by default."""

    def make(players=("Ann", "Bob", "Cy"), **kwargs):
        options = {"variant": "classic", "scoring": "standard", "target": 500, "seed": "table-1"}
        options.update(kwargs)
        if options.get("season_id") is not None and "seed" not in kwargs:
            # A season's game may not have a chosen seed: the same deal comes from a drawn one.
            options["drawn_seed"] = hashlib.sha256(options.pop("seed").encode()).hexdigest()
        return services.create_game(players=list(players), **options)

    return make


def first_legal_command(state):
    """What a simple player does: the first legal command of the seat the game waits for."""
    seat = state.pending[1]
    return seat, legal_commands(state, seat)[0]


@pytest.fixture
def play():
    """``play(game, commands=N, until_version=V)``: send the waiting seat's first legal command
    through the services until N commands were sent, version V is passed, or the game is over.
    Returns the AppendResults."""

    def play(game, commands=None, until_version=None):
        results = []
        while commands is None or len(results) < commands:
            state, version = store.load(game.pk)
            if state.finished or (until_version is not None and version >= until_version):
                break
            seat, command = first_legal_command(state)
            results.append(
                services.apply_command(
                    game_id=game.pk, command=command, actor=services.seat_actor(seat)
                )
            )
        return results

    return play
