"""A small league for the page tests, made through the services: an organiser, a season of two
nights with finished score-sheet games (so standings, ratings and rating histories are real),
and helpers to read the pages' HTML."""

import re
from html import unescape

import pytest
from django.contrib.auth import get_user_model

from tournaments.leagues import services


def record(game, out, points=None, remaining=None):
    """Record one hand of ``game`` through the services (seat numbers as ints)."""
    return services.record_hand(
        game_id=game.pk,
        out=out,
        points={str(k): v for k, v in (points or {}).items()} or None,
        remaining={str(k): v for k, v in (remaining or {}).items()} or None,
        actor="system",
    )


@pytest.fixture
def olga(db):
    return get_user_model().objects.create_user("olga", password="pw", first_name="Olga")


@pytest.fixture
def league(olga):
    return services.open_league(name="Thursday Club", target=100, created_by=olga)


@pytest.fixture
def season(league, olga):
    return services.open_season(league=league, name="Autumn", by=olga)


@pytest.fixture
def played(season, olga):
    """Two nights of finished score-sheet games (target 100, standard scoring):

    night 1: Ann 1st (scores 120), Bob, Cy; then Dee 1st (150), Bob, Cy
    night 2: Cy 1st (105) over Ann and Dee, in two hands
    """
    night1 = services.open_night(season=season)
    night2 = services.open_night(season=season)

    def game(names, night):
        return services.start_season_game(
            season=season, players=names, night=night, created_by=olga, sheet=True
        )

    first = game(["Ann", "Bob", "Cy"], night1)
    record(first, 0, {1: 70, 2: 50})
    second = game(["Dee", "Bob", "Cy"], night1)
    record(second, 0, {1: 100, 2: 50})
    third = game(["Ann", "Dee", "Cy"], night2)
    record(third, 2, {0: 30, 1: 20})
    record(third, 2, {0: 25, 1: 30})
    return season


@pytest.fixture
def sheet(season, olga):
    """An open score-sheet game of three at the season's first night."""
    return services.start_season_game(
        season=season, players=["Ann", "Bob", "Cy"], created_by=olga, sheet=True
    )


PLAYER_ROW = re.compile(r'<th scope="row" class="player"><a href="[^"]+">([^<]+)</a></th>')


def player_order(html):
    """The players' names in the standings table, top to bottom."""
    return [unescape(name) for name in PLAYER_ROW.findall(html)]


def htmx(client, url, **params):
    return client.get(url, params, HTTP_HX_REQUEST="true")
