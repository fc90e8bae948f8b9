"""Many browsers at once against the tests' live server: each request thread has a database
connection of its own (config/settings.py gives SQLite tests a file, not a shared in-memory
database), so requests at the same moment never meet in one connection."""

from concurrent.futures import ThreadPoolExecutor
from urllib.request import Request, urlopen

import pytest
from django.db import connection

from games import services as game_services
from games.models import Seat
from tournaments.leagues import services

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_test_database_is_not_one_connection_shared_by_threads():
    if connection.vendor == "sqlite":
        assert not connection.is_in_memory_db()


def test_pages_asked_for_at_the_same_moment_all_answer(live_server):
    league = services.open_league(name="Thursday Club", target=100)
    season = services.open_season(league=league, name="Autumn")
    pages = [f"/leagues/{league.pk}/", f"/seasons/{season.pk}/", "/leagues/", "/tournaments/"]
    urls = [live_server.url + page for page in pages] * 12

    def status(url: str) -> int:
        try:
            with urlopen(url, timeout=30) as response:
                return response.status
        except OSError as exc:  # an HTTPError (a 500) or a dropped connection
            return getattr(exc, "code", 0)

    with ThreadPoolExecutor(max_workers=8) as pool:
        statuses = list(pool.map(status, urls))

    assert statuses == [200] * len(urls), statuses


def test_seats_of_several_tables_reading_at_the_same_moment_all_answer(live_server):
    """Seats' reads of their games (the game row, the seats, the cached state, the events)
    from many threads at once, as open tables ask after every move."""
    asks = []
    for n in range(4):
        game = game_services.create_game(
            players=["Ann", "Bob", "Cy"],
            variant="classic",
            scoring="standard",
            target=500,
            seed=f"at-once-{n}",
        )
        for seat in Seat.objects.filter(game=game):
            asks.append((f"{live_server.url}/api/games/{game.pk}/", seat.secret))
            asks.append((f"{live_server.url}/api/games/{game.pk}/events/", seat.secret))

    def status(ask: tuple[str, str]) -> int:
        url, secret = ask
        request = Request(url, headers={"Authorization": f"Seat {secret}"})
        try:
            with urlopen(request, timeout=30) as response:
                return response.status
        except OSError as exc:
            return getattr(exc, "code", 0)

    with ThreadPoolExecutor(max_workers=8) as pool:
        statuses = list(pool.map(status, asks * 4))

    assert statuses == [200] * len(asks) * 4, statuses
