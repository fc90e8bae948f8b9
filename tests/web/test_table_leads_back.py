"""A table of a league night or a tournament leads back to it from the table page itself, by
its name, as its lobby does: a player who opened their seat's link, or the referee, gets back to
the night's tables or the tournament's rounds in one click. The way back is looked up for the
whole page only, not for the fragments the page fetches as the game moves."""

import html
import re

import pytest
from django.contrib.auth import get_user_model

from games import registry
from tests.tournaments.brackets.support import cup_table
from tests.web.conftest import seat_client
from tests.web.table_support import HTMX, night_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser():
    return get_user_model().objects.create_user("olga", password="pw")


def way_back(response) -> str | None:
    """The table page's link back to its event, as "<address> <words>", or None."""
    found = re.search(r'<a href="([^"]+)" id="table-event">([^<]+)</a>', response.text)
    return f"{found.group(1)} {html.unescape(found.group(2))}" if found else None


def test_a_league_table_leads_its_players_back_to_the_night_by_name(client, organiser):
    game, night = night_table(organiser)

    seat_client(client, game, 1)
    response = client.get(f"/table/{game.pk}/")

    assert response.status_code == 200
    assert way_back(response) == f"/nights/{night.pk}/ Night 2 of Spring"
    # The night's page is open to the player who follows the link.
    assert client.get(f"/nights/{night.pk}/").status_code == 200


def test_a_tournament_table_leads_back_to_the_tournament(client, organiser):
    game, cup = cup_table(organiser)

    client.force_login(organiser)  # the director, who referees the cup's tables
    response = client.get(f"/table/{game.pk}/")

    assert response.status_code == 200
    assert way_back(response) == f"/tournaments/{cup.pk}/ Autumn <Open>"


def test_a_table_of_no_night_or_tournament_has_no_way_back(client, make_game):
    game = make_game()
    seat_client(client, game, 0)

    response = client.get(f"/table/{game.pk}/")

    assert response.status_code == 200 and way_back(response) is None


def test_the_way_back_is_looked_up_for_the_whole_page_only(client, organiser, monkeypatch):
    game, night = night_table(organiser)
    asked: list[str] = []
    pages = list(registry.event_pages)

    def counted(g):
        asked.append(str(g.pk))
        return next((page for page in (check(g) for check in pages) if page), None)

    monkeypatch.setattr(registry, "event_pages", [counted])
    seat_client(client, game, 0)

    assert way_back(client.get(f"/table/{game.pk}/")) == f"/nights/{night.pk}/ Night 2 of Spring"
    assert asked == [str(game.pk)]
    # The fragments the page fetches as the game moves (the poll, the actions) do without it.
    assert client.get(f"/table/{game.pk}/version/", {"v": 0}, **HTMX).status_code == 200
    assert client.get(f"/table/{game.pk}/", **HTMX).status_code == 200
    assert asked == [str(game.pk)]
