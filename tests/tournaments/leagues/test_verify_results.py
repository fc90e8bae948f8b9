"""`manage.py verify_events` compares each season game's recorded results (score sheets
included) with its game: a result edited in the database alone (here through the ORM, as psql
would) is reported by season, night and game, and the command exits 1."""

import pytest

from tests.games.tampering import reported, verify
from tournaments.leagues import services
from tournaments.leagues.models import GameResult

from ..conftest import finish, hand

pytestmark = pytest.mark.django_db


@pytest.fixture
def sheets(season, organiser):
    """Two score sheets of the season: one over (Ann won), one still being played."""
    over = services.start_season_game(
        season=season, players=["Ann", "Bob", "Cy"], created_by=organiser, sheet=True, target=100
    )
    finish(over, winner=0, seats=3)
    playing = services.start_season_game(
        season=season, players=["Ann", "Bob"], created_by=organiser, sheet=True, target=500
    )
    hand(playing, 1, {0: 20})
    return over, playing


def test_season_games_verify_with_their_results(sheets):
    out = verify()

    assert (
        "the results of 2 season games and the night rows, standings and ratings of 1 season "
        "match their games"
    ) in out
    assert GameResult.objects.filter(game=sheets[0]).count() == 3


def test_a_result_edited_in_the_database_is_reported(sheets, season):
    over, _ = sheets
    GameResult.objects.filter(game=over, seat=1).update(won=True, rank=1)

    message = reported()

    assert f"season {season.pk} (Thursday Club, Autumn) night 1 game {over.pk}" in message
    assert (
        "seat 1 is recorded with rank 1, won True, but its game gives rank 2, won False" in message
    )


def test_a_result_moved_to_another_player_is_reported(sheets):
    over, _ = sheets
    ann, bob = (GameResult.objects.get(game=over, seat=seat).player_id for seat in (0, 1))
    GameResult.objects.filter(game=over, seat=0).update(player_id=bob)
    GameResult.objects.filter(game=over, seat=1).update(player_id=ann)

    message = reported()

    assert f"game {over.pk}: seat 0 is recorded with player_id {bob}" in message


def test_results_taken_away_or_given_to_a_game_not_over_are_reported(sheets):
    over, playing = sheets
    kept = GameResult.objects.get(game=over, seat=0)
    GameResult.objects.filter(game=over).delete()
    kept.pk, kept.game_id = None, playing.pk
    kept.save()

    message = reported()

    assert "2 recorded results disagree with the games" in message
    assert (
        f"game {over.pk}: 0 results recorded, but its game gives one for each of its 3" in message
    )
    assert f"game {playing.pk}: 1 results recorded, but its game is not over" in message
