"""Seeds: without one the server draws 128 bits from ``secrets``; a seed chosen for a practice
game is recorded as chosen, in the game's view and its log."""

import re

import pytest

from games.models import Game
from tests.games.api_support import create_game, url, user_client

pytestmark = pytest.mark.django_db


def started(referee, game):
    log = referee.get(url(game, "events/")).json()
    assert log[0]["type"] == "game_started"
    return log[0]["data"]


def test_a_practice_game_with_a_chosen_seed_says_so():
    referee = user_client()
    game = create_game(referee, seed=42)

    assert referee.get(url(game)).json()["seed_chosen"] is True
    assert Game.objects.get(pk=game["id"]).seed_chosen
    assert started(referee, game)["seed_chosen"] is True


def test_without_a_seed_the_server_draws_one_of_128_bits():
    referee = user_client()
    first, second = create_game(referee, seed=None), create_game(referee, seed=None)

    assert referee.get(url(first)).json()["seed_chosen"] is False
    seeds = [started(referee, g)["seed"] for g in (first, second)]
    assert all(re.fullmatch(r"[0-9a-f]{32}", seed) for seed in seeds)
    assert seeds[0] != seeds[1]
    assert "seed_chosen" not in started(referee, first)
