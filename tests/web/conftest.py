"""Fixtures for the page tests: games made through the services, a browser that holds a seat,
an empty event log after each transactional test (browser tests use the live server)."""

from __future__ import annotations

import pytest

from games import services
from games.models import Seat
from games.testing import erase_event_log_for_tests
from tournaments.brackets.testing import erase_rulings_for_tests


@pytest.fixture(autouse=True)
def _empty_event_log_after_transactional_tests(request):
    # Runs before pytest-django's flush, which the log's and the rulings' triggers would refuse.
    yield
    marker = request.node.get_closest_marker("django_db")
    if (
        (marker and marker.kwargs.get("transaction"))
        or "transactional_db" in request.fixturenames
        or "live_server" in request.fixturenames
    ):
        erase_event_log_for_tests()
        erase_rulings_for_tests()


@pytest.fixture(autouse=True)
def _no_listening_connection_left(request):
    # A table page opened in a browser starts the process's listening connection (games.live,
    # on PostgreSQL): closed after the test, or the test database could not be dropped.
    yield
    if "live_server" in request.fixturenames:
        from games import live

        live.hub.stop()


@pytest.fixture
def make_game(db):
    """``make_game(players=..., **create_game arguments)``: a seeded classic game by default."""

    def make(players=("Ann", "Bob", "Cy"), **kwargs):
        options = {"variant": "classic", "scoring": "standard", "target": 500, "seed": "table-1"}
        options.update(kwargs)
        return services.create_game(players=list(players), **options)

    return make


@pytest.fixture
def play():
    """``play(game, commands=N)``: the waiting seat sends its first legal command, N times."""
    from games import store
    from rules import legal_commands

    def play(game, commands):
        for _ in range(commands):
            state, _ = store.load(game.pk)
            seat = state.pending[1]
            command = legal_commands(state, seat)[0]
            services.apply_command(game_id=game.pk, command=command, actor=f"seat:{seat}")

    return play


def seat_client(client, game, seat: int):
    """``client`` holding ``seat`` of ``game``: it opened the seat's private link."""
    secret = Seat.objects.get(game=game, seat=seat).secret
    response = client.get(f"/table/{game.pk}/seat/{secret}/")
    assert response.status_code == 302
    return client


from tests.web.browser import chromium, eager_tasks, page  # noqa: E402, F401  (fixtures)
