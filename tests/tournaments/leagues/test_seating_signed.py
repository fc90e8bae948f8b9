"""Who sat at a league's table is signed with the game's seats (``games.seating``): a win handed
to another player by swapping their seats in the database, even with the standings rebuilt to
match, is found by ``manage.py verify_events``; the league's own services (seating a table,
moving it, taking it off, renaming a player, linking an account) sign it again."""

from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse

from games import seating
from games.models import Game
from tests.games.tampering import reported, tamper, verify
from tournaments.leagues import services
from tournaments.leagues.models import Season, SeasonGame, SeasonSeat, StandingRow

pytestmark = pytest.mark.django_db


def wins(season) -> dict[str, int]:
    return {row.player.name: row.wins for row in StandingRow.objects.filter(season=season)}


def test_a_season_table_signs_its_night_and_the_league_players_at_its_seats(night_won, season):
    game, night = night_won
    ann, bob = (season.league.players.get(name=name) for name in ("Ann", "Bob"))

    signed = seating.seatings([game.pk])[game.pk]

    assert signed[1] == season.pk
    assert signed[2] == [["league", season.pk, night.pk, [ann.pk, bob.pk]]]
    assert "who sat where as signed" in verify()


def test_a_win_handed_over_by_swapping_seats_and_rebuilding_the_standings_is_found(
    night_won, season
):
    game, _ = night_won
    assert wins(season) == {"Ann": 1, "Bob": 0}
    seats = {s.seat: s for s in SeasonSeat.objects.filter(season_game__game=game)}
    # Swapped through a free seat number, as psql would, then the tables made again from the
    # log: every table now adds up to what the games and the (changed) seating give.
    tamper(
        "UPDATE tournaments_seasonseat SET seat = 9 WHERE id = %s",
        [seats[0].pk],
        "tournaments_seasonseat",
    )
    tamper(
        "UPDATE tournaments_seasonseat SET seat = 0 WHERE id = %s",
        [seats[1].pk],
        "tournaments_seasonseat",
    )
    tamper(
        "UPDATE tournaments_seasonseat SET seat = 1 WHERE id = %s",
        [seats[0].pk],
        "tournaments_seasonseat",
    )
    call_command("rebuild_projections", stdout=StringIO(), stderr=StringIO())
    assert wins(season) == {"Ann": 0, "Bob": 1}

    message = reported()

    assert f"game {game.pk}: who sat where is not what the server signed" in message
    assert "recorded result" not in message  # the tables add up: only the signature finds it


def test_a_table_moved_to_another_night_in_the_database_is_found(night_won, season):
    game, _ = night_won
    other = services.open_night(season=season)
    SeasonGame.objects.filter(game=game).update(night=other)

    assert f"game {game.pk}: who sat where is not what the server signed" in reported()


def test_a_game_put_in_another_season_in_the_database_is_found(night_won, season, organiser):
    game, _ = night_won
    other = services.open_season(league=season.league, name="Winter", by=organiser)
    Game.objects.filter(pk=game.pk).update(season_id=other.pk)

    assert f"game {game.pk}: who sat where is not what the server signed" in reported()


def test_the_league_services_sign_again_what_they_change(night_won, season, organiser):
    game, _ = night_won
    later = services.open_night(season=season)
    services.move_table(game_id=game.pk, night=later, by=organiser)
    ann = season.league.players.get(name="Ann")
    services.rename_player(player=ann, name="Anne", by=organiser)
    services.link_account(player=ann, username="olga", by=organiser)
    mistaken = services.start_season_game(
        season=season, players=["Cy", "Dee"], night=later, created_by=organiser
    )
    services.take_table_off(night=later, game_id=mistaken.pk, reason="wrong players", by=organiser)

    assert seating.seatings([game.pk])[game.pk][2][0][2] == later.pk
    assert seating.seatings([mistaken.pk])[mistaken.pk][1:] == [None, []]
    assert "who sat where as signed" in verify()


def test_a_season_whose_tables_were_seated_is_not_deleted_in_the_admin(
    admin_client, night_won, season
):
    # Deleting it would take its tables with it, and their games would no longer be what the
    # server signed they count for: its nights, which its tables were played on, keep it.
    page = reverse("admin:tournaments_season_delete", args=[season.pk])

    asked = admin_client.get(page).content.decode()
    admin_client.post(page, {"post": "yes"})
    admin_client.post(
        reverse("admin:tournaments_league_delete", args=[season.league.pk]), {"post": "yes"}
    )

    assert "Cannot delete season" in asked
    assert Season.objects.filter(pk=season.pk).exists()
    assert "who sat where as signed" in verify()
    # A season with no table yet goes as before.
    empty = services.open_season(league=season.league, name="Spare", by=season.league.created_by)
    admin_client.post(reverse("admin:tournaments_season_delete", args=[empty.pk]), {"post": "yes"})
    assert not Season.objects.filter(pk=empty.pk).exists()


def test_the_organiser_checks_a_tables_night_and_players_from_the_api(night_won, organiser):
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    game, night = night_won
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=organiser).key}")
    keys = {k["id"]: k["public_key"] for k in client.get("/api/chain/keys/").json()["keys"]}

    signed = client.get(f"/api/games/{game.pk}/seating/").json()
    SeasonGame.objects.filter(game=game).update(night=services.open_night(season=night.season))
    moved = client.get(f"/api/games/{game.pk}/seating/").json()

    players = [p.pk for p in (night.season.league.players.get(name=n) for n in ("Ann", "Bob"))]
    assert signed["counts_for"] == [["league", night.season_id, night.pk, players]]
    assert seating.published_problem(signed, keys) is None
    assert seating.published_problem(moved, keys).startswith("who sat where is not what")


def test_a_table_moved_after_a_seat_was_changed_behind_the_servers_back_stays_found(
    night_won, season, organiser, caplog
):
    # Cy put at Ann's seat in the database, then the table moved to another night by its
    # organiser: the move is kept, and signs nothing over Cy's seat.
    game, _ = night_won
    cy = services.register_player(league=season.league, name="Cy", by=organiser)
    tamper(
        "UPDATE tournaments_seasonseat SET player_id = %s WHERE seat = 0",
        [cy.pk],
        "tournaments_seasonseat",
    )
    later = services.open_night(season=season)

    with caplog.at_level("ERROR", logger="games.seating"):
        services.move_table(game_id=game.pk, night=later, by=organiser)

    assert SeasonGame.objects.get(game=game).night == later
    assert f"game {game.pk}: who sat where is not what the server signed" in reported()
    assert "was not signed again" in caplog.text
