"""What a club typed in, and what the standings are read through, is signed by the server
(``games.records``): a league's name and defaults, a player's name, a season's standings
settings, a night's number and date, a tournament's settings. Someone who can write to the
database but does not hold the signing key cannot swap two players' names (handing one's wins
to the other) or change how a season is added up, even with the standings rebuilt to match,
without ``manage.py verify_events`` naming the record; the services, the pages and the admin
sign again what they change."""

from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse

from games import records
from games.chain import server_public_keys, signer_for
from tests.games.tampering import reported, tamper, verify
from tournaments.brackets.models import Entry, Tournament
from tournaments.leagues import services
from tournaments.leagues.models import League, Night, Player, Season, StandingRow

from ..brackets.support import cup_of_eight

pytestmark = pytest.mark.django_db


def wins(season) -> dict[str, int]:
    return {row.player.name: row.wins for row in StandingRow.objects.filter(season=season)}


def league_points(season) -> dict[str, int]:
    rows = StandingRow.objects.filter(season=season)
    return {row.player.name: row.league_points for row in rows}


def problems() -> list[str]:
    return [problem for _, problem in records.checked(server_public_keys()) if problem]


def change(sql: str, params) -> None:
    """``UPDATE <table> ...`` run as someone who can write to the database would."""
    tamper(sql, params, sql.split()[1])


def rebuild() -> None:
    call_command("rebuild_projections", stdout=StringIO(), stderr=StringIO())


def test_every_record_the_services_write_is_signed_and_verify_events_says_so(
    night_won, season, organiser
):
    cup_of_eight(organiser)

    said = verify()

    assert problems() == []
    counted = League.objects.count() + Player.objects.count() + Season.objects.count()
    counted += Night.objects.count() + Tournament.objects.count() + Entry.objects.count()
    kinds = "leagues, players, seasons, nights, tournaments, entries"
    assert f"{counted} records ({kinds}) as signed" in said
    signature = Player.objects.get(name="Ann").signature
    assert signature.partition(":")[0] == signer_for_settings().id


def signer_for_settings():
    from django.conf import settings

    return signer_for(settings.CHAIN_SIGNING_KEY)


def test_two_players_names_swapped_in_the_database_are_found(night_won, season):
    ann, bob = (Player.objects.get(name=name) for name in ("Ann", "Bob"))
    assert wins(season) == {"Ann": 1, "Bob": 0}
    # Through a free name, as psql would (names are unique in a league).
    for pk, name in ((ann.pk, "x"), (bob.pk, "Ann"), (ann.pk, "Bob")):
        change("UPDATE tournaments_player SET name = %s WHERE id = %s", [name, pk])
    rebuild()
    assert wins(season) == {"Ann": 0, "Bob": 1}  # the standings now credit the wrong player

    message = reported()

    assert "2 records are not as the server signed them" in message
    assert f"player {ann.pk} ('Bob'): not what the server signed (its league or name changed)" in (
        message
    )
    assert f"player {bob.pk} ('Ann'): not what the server signed" in message
    assert "who sat where" not in message and "recorded result" not in message


def test_names_swapped_with_their_signatures_are_found_too(night_won, season):
    ann, bob = (Player.objects.get(name=name) for name in ("Ann", "Bob"))
    for pk, name, signature in (
        (ann.pk, "x", ""),
        (bob.pk, "Ann", ann.signature),
        (ann.pk, "Bob", bob.signature),
    ):
        change(
            "UPDATE tournaments_player SET name = %s, signature = %s WHERE id = %s",
            [name, signature, pk],
        )

    message = reported()

    assert f"player {ann.pk} ('Bob')" in message and f"player {bob.pk} ('Ann')" in message


def test_a_player_moved_to_another_league_is_found(night_won, organiser):
    other = services.open_league(name="Friday Club", created_by=organiser)
    bob = Player.objects.get(name="Bob")
    change("UPDATE tournaments_player SET league_id = %s WHERE id = %s", [other.pk, bob.pk])

    assert f"player {bob.pk} ('Bob'): not what the server signed" in reported()


def test_a_seasons_standings_settings_changed_and_rebuilt_to_match_are_found(night_won, season):
    assert league_points(season) == {"Ann": 1, "Bob": 0}
    change("UPDATE tournaments_season SET attendance_points = 50 WHERE id = %s", [season.pk])
    rebuild()
    # Every table now adds up to the changed settings: 50 points for coming.
    assert league_points(season) == {"Ann": 51, "Bob": 50}

    message = reported()

    assert f"season {season.pk} ('Autumn'): not what the server signed (its league, name, " in (
        message
    )
    assert "best nights or attendance points changed)" in message
    assert "recorded result" not in message


def test_a_night_renumbered_or_given_another_date_is_found(night_won, season):
    _, night = night_won
    change("UPDATE tournaments_night SET number = 7 WHERE id = %s", [night.pk])

    assert f"night {night.pk} (number 7 of season {season.pk}): not what the server" in (reported())

    change("UPDATE tournaments_night SET number = 1, date = '2026-01-02' WHERE id = %s", [night.pk])
    assert f"night {night.pk} (number 1 of season {season.pk}): not what" in reported()


def test_a_leagues_or_a_tournaments_settings_changed_are_found(night_won, season, organiser):
    cup = cup_of_eight(organiser)
    change("UPDATE tournaments_tournament SET advance = 1 WHERE id = %s", [cup.pk])
    change("UPDATE tournaments_league SET target = 200 WHERE id = %s", [season.league.pk])

    message = reported()

    assert f"tournament {cup.pk} ('Cup'): not what the server signed" in message
    assert f"league {season.league.pk} ('Thursday Club'): not what the server signed" in message


def test_a_record_never_signed_or_signed_by_a_key_the_server_does_not_know_is_named(night_won):
    ann, bob = (Player.objects.get(name=name) for name in ("Ann", "Bob"))
    stranger = signer_for("11" * 32)
    forged = stranger.sign_message(records.message("tournaments.player", bob.pk, {}))
    change("UPDATE tournaments_player SET signature = '' WHERE id = %s", [ann.pk])
    change("UPDATE tournaments_player SET signature = %s WHERE id = %s", [forged, bob.pk])

    message = reported()

    assert f"player {ann.pk} ('Ann'): never signed by the server" in message
    assert f"player {bob.pk} ('Bob'): signed by key {stranger.id}, which this server" in message


def test_the_services_sign_again_what_they_change(night_won, season, organiser):
    ann = Player.objects.get(name="Ann")
    services.rename_player(player=ann, name="Anne", by=organiser)
    services.link_account(player=ann, username="olga", by=organiser)
    services.set_standings_options(season=season, best_nights=3, attendance_points=2, by=organiser)
    services.open_night(season=season)

    assert problems() == []
    assert "records (leagues, players, seasons, nights) as signed" in verify()


def test_a_save_signs_the_row_as_stored_not_as_the_caller_last_read_it(night_won, organiser):
    # The standings options set from a page loaded before the season was renamed (in the
    # admin): the save writes the options only, and signs them with the name the row holds.
    season = Season.objects.get(name="Autumn")
    read_before = Season.objects.get(pk=season.pk)
    season.name = "Fall"
    season.save()

    services.set_standings_options(
        season=read_before, best_nights=2, attendance_points=1, by=organiser
    )

    assert problems() == []
    stored = Season.objects.get(pk=season.pk)
    assert (stored.name, stored.best_nights, stored.attendance_points) == ("Fall", 2, 1)


def test_a_name_corrected_in_the_admin_is_signed(admin_client, night_won):
    bob = Player.objects.get(name="Bob")
    page = reverse("admin:tournaments_player_change", args=[bob.pk])
    form = {"league": bob.league_id, "name": "Robert", "user": ""}

    answer = admin_client.post(page, form)

    assert answer.status_code == 302
    assert Player.objects.get(pk=bob.pk).name == "Robert"
    assert problems() == []


def test_an_edit_after_a_change_behind_the_servers_back_does_not_sign_the_change(
    night_won, season, organiser, caplog
):
    # The attendance points raised in the database; the organiser then changes the best
    # nights in the page, which saves the season: its signature is not made again over the
    # raised points, and the operator is told.
    change("UPDATE tournaments_season SET attendance_points = 50 WHERE id = %s", [season.pk])
    season.refresh_from_db()

    with caplog.at_level("ERROR", logger="games.records"):
        services.set_standings_options(
            season=season, best_nights=2, attendance_points=50, by=organiser
        )

    assert Season.objects.get(pk=season.pk).best_nights == 2  # the edit is kept
    assert f"season {season.pk} ('Autumn'): not what the server signed" in reported()
    assert f"season {season.pk} was saved but not signed again: before the save it was not" in (
        caplog.text
    )
    # An operator who has checked the row signs it as it stands.
    Season.objects.get(pk=season.pk).sign()
    assert problems() == []


def test_a_club_checks_its_leagues_name_and_players_from_the_api(night_won, season):
    from rest_framework.test import APIClient

    from tournaments.leagues.verification import published_problems

    client = APIClient()
    keys = {k["id"]: k["public_key"] for k in client.get("/api/chain/keys/").json()["keys"]}
    page = f"/api/leagues/{season.league.pk}/"
    answer = client.get(page).json()
    ann, bob = (Player.objects.get(name=name) for name in ("Ann", "Bob"))

    assert published_problems(answer, keys) == []
    assert [p["signature"] for p in answer["players"]] == [ann.signature, bob.signature]

    # The answer changed on its way (or by a server that does not hold the key): each field.
    shown = {**answer, "players": [{**answer["players"][0], "name": "Bob"}, answer["players"][1]]}
    assert published_problems(shown, keys) == [
        f"player {ann.pk} ('Bob'): not what the server signed (its league or name changed)"
    ]
    for field, value in (("name", "Other Club"), ("target", 1), ("options", {"x": 1})):
        assert published_problems({**answer, field: value}, keys)[0].startswith(
            "the league: not what the server signed"
        ), field
    moved = {**answer, "id": answer["id"] + 1}
    assert len(published_problems(moved, keys)) == 3  # the league and both its players
    assert published_problems({**answer, "players": [{"id": 1}]}, keys)[0].startswith(
        "the league cannot be read: KeyError('name')"
    )
    assert published_problems({**answer, "signature": None}, keys) == [
        "the league cannot be read: TypeError('a signature is not text')"
    ]

    # Names swapped in the database: the API shows them as stored, and the check finds it.
    for pk, name in ((ann.pk, "x"), (bob.pk, "Ann"), (ann.pk, "Bob")):
        change("UPDATE tournaments_player SET name = %s WHERE id = %s", [name, pk])
    found = published_problems(client.get(page).json(), keys)
    assert f"player {ann.pk} ('Bob'): not what the server signed (its league or name changed)" in (
        found
    )
    assert len(found) == 2


def test_the_schema_gives_the_signatures_of_a_league_and_its_players(client):
    schema = client.get("/api/schema/?format=json").json()["components"]["schemas"]

    assert "signature" in schema["League"]["required"]
    assert "signature" in schema["PlayerSummary"]["required"]
    assert (
        "GET /api/chain/keys/" in schema["PlayerSummary"]["properties"]["signature"]["description"]
    )


def test_a_save_that_writes_no_signed_field_reads_and_signs_nothing(
    night_won, organiser, django_assert_num_queries
):
    # Closing a night or finishing a tournament writes its status only: one UPDATE, no read
    # of the row and no new signature (it would be the same).
    _, night = night_won
    signature = night.signature
    night.closed_at = night.date  # any value: the column is not signed
    with django_assert_num_queries(1):
        night.save(update_fields=["closed_at"])

    assert Night.objects.get(pk=night.pk).signature == signature
    assert problems() == []
    # A field named by its column is signed as it is by its name.
    season = Season.objects.get(name="Autumn")
    season.league_id = services.open_league(name="Other", created_by=organiser).pk
    season.save(update_fields=["league_id"])
    assert problems() == []
