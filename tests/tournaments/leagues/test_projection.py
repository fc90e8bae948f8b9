"""The standings follow the log: a game counts when it ends, undo takes it back, and every
number comes from the games' events (never typed in)."""

import pytest

from games import services as game_services
from tournaments.leagues import services
from tournaments.leagues.models import GameResult, NightRow, RatingHistory, StandingRow

from ..conftest import finish, hand

pytestmark = pytest.mark.django_db


def rows(season):
    return {
        r.player.name: r for r in StandingRow.objects.filter(season=season).select_related("player")
    }


def test_a_game_counts_in_the_standings_once_it_is_over(season, organiser):
    game = services.start_season_game(
        season=season, players=["Ann", "Bob", "Cy"], created_by=organiser, sheet=True, target=100
    )
    hand(game, 0, {1: 30, 2: 20})
    assert not StandingRow.objects.exists()

    hand(game, 0, {1: 40, 2: 25})

    table = rows(season)
    assert table["Ann"].wins == 1 and table["Ann"].points == 115 and table["Ann"].games == 1
    assert table["Ann"].hands_won == 2 and table["Ann"].placings == [1]
    assert table["Bob"].wins == 0 and table["Bob"].placings == [0, 1]
    assert table["Cy"].placings == [0, 1]  # Bob and Cy both scored 0: they share second
    assert table["Ann"].rating > 25 > table["Bob"].rating
    assert table["Bob"].rating == table["Cy"].rating


def test_undoing_the_last_hand_takes_the_game_out_of_the_standings(season, organiser):
    game = services.start_season_game(
        season=season, players=["Ann", "Bob"], created_by=organiser, sheet=True, target=50
    )
    first = hand(game, 0, {1: 30})
    hand(game, 0, {1: 30})
    assert rows(season)["Ann"].wins == 1

    game_services.undo(game_id=game.pk, to_version=first.version, reason="typo", by="user:1")

    assert not StandingRow.objects.exists()
    assert not GameResult.objects.exists() and not NightRow.objects.exists()
    assert not RatingHistory.objects.exists()

    hand(game, 1, {0: 60})
    table = rows(season)
    assert table["Bob"].wins == 1 and table["Ann"].wins == 0
    assert RatingHistory.objects.count() == 2


def test_ratings_follow_the_order_games_finished_in(season, organiser):
    a = services.start_season_game(
        season=season, players=["Ann", "Bob"], created_by=organiser, sheet=True, target=50
    )
    b = services.start_season_game(  # (another night: a player sits at one table a night)
        season=season,
        players=["Ann", "Bob"],
        created_by=organiser,
        sheet=True,
        target=50,
        night=services.open_night(season=season),
    )
    finish(a, winner=0, seats=2)
    finish(b, winner=1, seats=2)
    history = list(RatingHistory.objects.filter(player__name="Ann").order_by("finished_at"))
    assert [h.game_id for h in history] == [a.pk, b.pk]
    assert history[1].rating_before == history[0].rating
