"""`manage.py verify_events` compares a league's night rows, standings and ratings with what its
games add up to: a row edited in the database alone (here through the ORM, as psql would) is
named by league, season, player and night, with what is stored and what the games give, and the
command exits 1. It changes nothing it checks."""

import threading

import pytest
from django.core.management import CommandError
from django.db import connection
from django.forms.models import model_to_dict

from games import registry
from games import services as game_services
from games.registry import Verified
from tests.games.tampering import verify
from tournaments.leagues import services
from tournaments.leagues.models import GameResult, NightRow, RatingHistory, StandingRow

from ..conftest import finish, hand

pytestmark = pytest.mark.django_db


@pytest.fixture
def league_played(season, organiser):
    """Two nights: Ann wins night 1's table; on night 2 Bob's win is undone and played again,
    and a table is still playing."""
    first = services.open_night(season=season)
    a = services.start_season_game(
        season=season,
        players=["Ann", "Bob", "Cy"],
        night=first,
        created_by=organiser,
        sheet=True,
        target=100,
    )
    finish(a, winner=0, seats=3)
    second = services.open_night(season=season)
    b = services.start_season_game(
        season=season, players=["Ann", "Bob"], night=second, created_by=organiser, sheet=True
    )
    rested = hand(b, 1, {0: 300})
    hand(b, 1, {0: 300})  # Bob reaches 500
    game_services.undo(game_id=b.pk, to_version=rested.version, reason="typo", by="user:1")
    hand(b, 1, {0: 250})
    c = services.start_season_game(
        season=season, players=["Cy", "Dee"], night=second, created_by=organiser, sheet=True
    )
    hand(c, 0, {1: 20})
    return a, b, c


def stored_tables():
    return {
        model.__name__: sorted(
            (model_to_dict(row) for row in model.objects.all()), key=lambda row: row["id"]
        )
        for model in (GameResult, NightRow, StandingRow, RatingHistory)
    }


def reported() -> str:
    before = stored_tables()
    with pytest.raises(CommandError) as excinfo:
        verify()
    assert excinfo.value.returncode == 1
    assert stored_tables() == before  # nothing checked was changed, the tampering included
    return str(excinfo.value)


def test_a_league_as_its_games_left_it_verifies(league_played):
    before = stored_tables()

    out = verify()

    assert "the night rows, standings and ratings of 1 season match their games" in out
    assert stored_tables() == before
    assert NightRow.objects.count() == 5 and RatingHistory.objects.count() == 5


def test_a_night_row_edited_in_the_database_is_named(league_played):
    NightRow.objects.filter(player__name="Ann", night__number=1).update(wins=2, points=999)

    message = reported()

    assert "1 recorded result disagrees with the games" in message
    assert (
        "Thursday Club, Autumn: Ann's row for night 1 is stored with 2 wins, 999 points, but "
        "the games give 1 win, 170 points"
    ) in message


def test_a_standing_edited_in_the_database_is_named(league_played):
    bob = StandingRow.objects.get(player__name="Bob")
    StandingRow.objects.filter(pk=bob.pk).update(wins=0, rating=40.0, placings=[2])

    message = reported()

    assert (
        "Thursday Club, Autumn: Bob's line in the standings is stored with 0 wins, "
        f"placed 1st twice, rating 40.00, but the games give 1 win, placed 1st once, 2nd once, "
        f"rating {bob.rating:.2f}"
    ) in message


def test_a_rating_nudged_below_what_a_page_shows_is_still_found(league_played):
    ann = StandingRow.objects.get(player__name="Ann")
    StandingRow.objects.filter(pk=ann.pk).update(rating=ann.rating + 1e-6)

    message = reported()

    assert f"Ann's line in the standings is stored with rating {ann.rating + 1e-6!r}" in message


def test_rows_taken_away_or_made_up_are_named(league_played, season):
    a, b, _ = league_played
    NightRow.objects.filter(player__name="Cy", night__number=1).delete()
    RatingHistory.objects.filter(player__name="Ann", game=b).delete()
    dee = StandingRow.objects.get(player__name="Ann")
    dee.pk, dee.player = None, season.league.players.get(name="Dee")
    dee.save()

    message = reported()

    assert "3 recorded results disagree with the games" in message
    assert "Thursday Club, Autumn: Cy's row for night 1 is missing, but the games give one" in (
        message
    )
    assert (
        f"Thursday Club, Autumn: Ann's rating through game {b.pk} (night 2) is missing, but the "
        "games give one"
    ) in message
    assert (
        "Thursday Club, Autumn: Dee's line in the standings is stored, but the games give none"
        in (message)
    )


def test_a_rating_history_step_edited_is_named(league_played):
    a, _, _ = league_played
    RatingHistory.objects.filter(player__name="Cy", game=a).update(rank=1)

    message = reported()

    assert (
        f"Cy's rating through game {a.pk} (night 1) is stored with place 1, but the games give "
        "place 2"
    ) in message


def test_a_result_moved_to_another_night_or_finish_is_named(league_played):
    a, b, _ = league_played
    night_one = GameResult.objects.filter(game=a).first().night_id
    GameResult.objects.filter(game=b).update(night_id=night_one)
    truly = GameResult.objects.get(game=a, seat=0).finished_at
    GameResult.objects.filter(game=a).update(finished_at=truly + 10_000)

    message = reported()

    assert (
        f"Bob's result in game {b.pk} is stored on night 1, but the game is played on night 2"
        in (message)
    )
    assert (
        f"Ann's result in game {a.pk} is stored as finished at log position {truly + 10_000}, "
        f"but its game's log finishes it at {truly}"
    ) in message


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_table_ending_while_the_check_runs_is_not_reported(season, organiser, monkeypatch):
    game = services.start_season_game(
        season=season, players=["Ann", "Bob"], created_by=organiser, sheet=True, target=50
    )
    hand(game, 0, {1: 30})

    def meanwhile(state_of):
        # The last hand is recorded (another connection) after the logs were read.
        def last_hand():
            try:
                hand(game, 0, {1: 30})
            finally:
                connection.close()

        thread = threading.Thread(target=last_hand)
        thread.start()
        thread.join()
        return Verified(checked=())

    monkeypatch.setattr(registry, "verify_checks", [meanwhile, *registry.verify_checks])

    out = verify()

    assert "the night rows, standings and ratings of 1 season match their games" in out
    assert GameResult.objects.filter(game=game).count() == 2  # it did end meanwhile
    monkeypatch.setattr(registry, "verify_checks", registry.verify_checks[1:])
    assert "the results of 1 season game and the night rows" in verify()
