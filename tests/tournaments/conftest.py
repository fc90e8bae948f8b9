"""Fixtures for league tests: an organiser, a league and a season, and helpers that play a
score-sheet game hand by hand through the services."""

import random

import pytest
from django.contrib.auth import get_user_model

from games.testing import erase_event_log_for_tests
from tournaments.brackets.testing import erase_rulings_for_tests
from tournaments.leagues import services


@pytest.fixture(autouse=True)
def _empty_event_log_after_transactional_tests(request):
    # Runs before pytest-django's flush, which the log's and the rulings' triggers would refuse.
    yield
    marker = request.node.get_closest_marker("django_db")
    if (marker and marker.kwargs.get("transaction")) or "transactional_db" in request.fixturenames:
        erase_event_log_for_tests()
        erase_rulings_for_tests()


@pytest.fixture
def organiser(db):
    return get_user_model().objects.create_user("olga", password="pw")


@pytest.fixture
def league(organiser):
    return services.open_league(name="Thursday Club", created_by=organiser)


@pytest.fixture
def season(league, organiser):
    return services.open_season(league=league, name="Autumn", by=organiser)


@pytest.fixture
def night_won(season, organiser):
    """Night 1 of the season: Ann beats Bob at a score-sheet table."""
    night = services.open_night(season=season)
    game = services.start_season_game(
        season=season,
        players=["Ann", "Bob"],
        night=night,
        created_by=organiser,
        sheet=True,
        target=100,
    )
    finish(game, winner=0, seats=2)
    return game, night


def hand(game, out, points=None, remaining=None, actor="user:1"):
    """Record one hand of ``game``'s score sheet; ``points`` maps seat numbers to points."""
    return services.record_hand(
        game_id=game.pk,
        out=out,
        points={str(k): v for k, v in (points or {}).items()} or None,
        remaining={str(k): v for k, v in (remaining or {}).items()} or None,
        actor=actor,
    )


def ended(result):
    """Whether an append (an AppendResult) ended the game."""
    return any(row.type == "game_ended" for row in result.events)


def finish(game, *, winner, seats, points=100):
    """Hands until ``game`` is over: ``winner`` goes out every hand; the others hold ``points``
    each (less seat by seat, so totals differ)."""
    while not ended(
        hand(game, winner, {s: max(points - 10 * s, 1) for s in range(seats) if s != winner})
    ):
        pass


def random_hands(game, seats, rng: random.Random, *, limit=None):
    """Random hands (points only, sometimes cards) until the game is over or ``limit`` hands
    were recorded. Returns the number of hands and whether the game is over."""
    count = 0
    while limit is None or count < limit:
        out = rng.randrange(seats)
        others = [s for s in range(seats) if s != out]
        if rng.random() < 0.2:
            result = hand(
                game,
                out,
                {s: rng.randrange(0, 30) for s in others[1:]},
                remaining={others[0]: rng.sample(CARDS, rng.randrange(0, 4))},
            )
        else:
            result = hand(game, out, {s: rng.randrange(0, 30) for s in others})
        count += 1
        if ended(result):
            return count, True
    return count, False


CARDS = ["R1", "G5", "B9", "YS", "RD2", "W", "W4", "GV", "Y0"]
