"""The league API: leagues, seasons, season games, score sheets, standings (JSON and CSV) and
players, with API.md's error shapes."""

import csv
import io

import pytest
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.models import Game, GameReferee
from rules import IllegalCommand
from rules.variants import get_variant
from tournaments.leagues import services
from tournaments.leagues.models import Player, SeasonSeat

pytestmark = pytest.mark.django_db


def client_for(username):
    user = get_user_model().objects.create_user(username, password="pw")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    client.user = user
    return client


@pytest.fixture
def olga():
    return client_for("olga")


@pytest.fixture
def club(olga):
    response = olga.post(
        "/api/leagues/",
        {"name": "Thursday Club", "variant": "classic", "scoring": "standard", "target": 500},
        format="json",
    )
    assert response.status_code == 201, response.content
    return response.json()


@pytest.fixture
def autumn(olga, club):
    response = olga.post(
        f"/api/leagues/{club['id']}/seasons/", {"name": "Autumn 2026"}, format="json"
    )
    assert response.status_code == 201, response.content
    return response.json()


def sheet_game(client, season, players=("Ann", "Bob", "Cy"), **body):
    response = client.post(
        "/api/games/",
        {"players": list(players), "season": season["id"], "sheet": True, **body},
        format="json",
    )
    assert response.status_code == 201, response.content
    return response.json()


def record(client, game, body):
    return client.post(f"/api/games/{game['id']}/hands/", body, format="json")


# Leagues and seasons ------------------------------------------------------------------------


def test_the_user_who_opens_a_league_organises_it(olga, club):
    assert club["name"] == "Thursday Club"
    assert (club["variant"], club["scoring"], club["target"]) == ("classic", "standard", 500)
    assert services.is_organiser(olga.user, club["id"])


def test_opening_a_league_needs_a_user():
    response = APIClient().post("/api/leagues/", {"name": "X"}, format="json")
    assert response.status_code == 401
    assert response.json()["error"] == "forbidden"


@pytest.mark.parametrize(
    "body, field",
    [
        ({}, "name"),
        ({"name": "X", "variant": "uno-deluxe"}, "variant"),
        ({"name": "X", "target": "500"}, "target"),
        ({"name": "X", "colour": "R"}, "colour"),
    ],
)
def test_a_malformed_league_is_refused_naming_the_field(olga, body, field):
    response = olga.post("/api/leagues/", body, format="json")
    assert response.status_code == 400
    assert response.json()["error"] == "invalid"
    assert field in response.json()["detail"]


def test_a_league_shows_its_seasons_and_players_to_anyone(club, autumn):
    response = APIClient().get(f"/api/leagues/{club['id']}/")
    assert response.status_code == 200
    body = response.json()
    assert [s["name"] for s in body["seasons"]] == ["Autumn 2026"]
    assert body["seasons"][0]["scoring"] == "standard"


def test_an_unknown_league_is_404():
    response = APIClient().get("/api/leagues/999/")
    assert response.status_code == 404
    assert response.json()["error"] == "not_found"


def test_only_an_organiser_opens_a_season(club):
    response = client_for("mallory").post(
        f"/api/leagues/{club['id']}/seasons/", {"name": "Mine"}, format="json"
    )
    assert response.status_code == 403
    assert response.json()["error"] == "forbidden"


def test_a_season_may_override_the_league_settings_and_set_standings_options(olga, club):
    response = olga.post(
        f"/api/leagues/{club['id']}/seasons/",
        {
            "name": "Lowball",
            "scoring": "alternative",
            "target": 250,
            "best_nights": 8,
            "attendance_points": 1,
        },
        format="json",
    )
    assert response.status_code == 201
    body = response.json()
    assert (body["variant"], body["scoring"], body["target"]) == ("classic", "alternative", 250)
    assert body["overrides"] == {"scoring": "alternative", "target": 250}
    assert (body["best_nights"], body["attendance_points"]) == (8, 1)


def test_two_seasons_of_a_league_cannot_share_a_name(olga, club, autumn):
    response = olga.post(
        f"/api/leagues/{club['id']}/seasons/", {"name": "Autumn 2026"}, format="json"
    )
    assert response.status_code == 400
    assert "name" in response.json()["detail"]


def test_an_organiser_registers_players_without_accounts(olga, club):
    response = olga.post(f"/api/leagues/{club['id']}/players/", {"name": "Ann"}, format="json")
    assert response.status_code == 201
    again = olga.post(f"/api/leagues/{club['id']}/players/", {"name": "Ann"}, format="json")
    assert again.json()["id"] == response.json()["id"]
    assert Player.objects.get(pk=response.json()["id"]).user is None


# Games of a season --------------------------------------------------------------------------


def test_an_organiser_renames_a_player_and_links_their_account(olga, club):
    ann = olga.post(f"/api/leagues/{club['id']}/players/", {"name": "Anm"}, format="json").json()
    olga.post(f"/api/leagues/{club['id']}/players/", {"name": "Bob"}, format="json")
    client_for("ann")
    base = f"/api/players/{ann['id']}/"

    assert olga.post(base + "rename/", {"name": "bob"}, format="json").status_code == 400
    renamed = olga.post(base + "rename/", {"name": "Ann"}, format="json")
    assert renamed.status_code == 200 and renamed.json()["name"] == "Ann"
    assert olga.post(base + "account/", {"username": "ghost"}, format="json").status_code == 400
    linked = olga.post(base + "account/", {"username": "ann"}, format="json")
    assert linked.status_code == 200, linked.content
    assert olga.post(base + "account/", {"username": ""}, format="json").status_code == 200
    assert (
        client_for("mallory").post(base + "rename/", {"name": "X"}, format="json").status_code
        == 403
    )
    assert olga.post("/api/players/999999/rename/", {"name": "X"}, format="json").status_code == 404


def test_a_season_game_takes_the_seasons_settings_and_records_its_seats(olga, club):
    season = olga.post(
        f"/api/leagues/{club['id']}/seasons/",
        {"name": "Short", "scoring": "alternative", "target": 250},
        format="json",
    ).json()
    game = sheet_game(olga, season, players=["Ann", "Bob"])

    stored = Game.objects.get(pk=game["id"])
    assert (stored.variant, stored.scoring, stored.target) == ("classic", "alternative", 250)
    assert stored.season_id == season["id"]
    seats = SeasonSeat.objects.filter(season_game_id=game["id"]).order_by("seat")
    assert [s.player.name for s in seats] == ["Ann", "Bob"]


def test_a_single_game_may_override_the_season(olga, autumn):
    game = sheet_game(olga, autumn, target=100, scoring="alternative")
    stored = Game.objects.get(pk=game["id"])
    assert (stored.scoring, stored.target) == ("alternative", 100)


def test_only_an_organiser_adds_games_to_a_season(autumn):
    response = client_for("mallory").post(
        "/api/games/", {"players": ["A", "B"], "season": autumn["id"]}, format="json"
    )
    assert response.status_code == 403
    assert not Game.objects.exists()


def test_an_unknown_season_is_refused_naming_the_field(olga):
    response = olga.post("/api/games/", {"players": ["A", "B"], "season": 999}, format="json")
    assert response.status_code == 400
    assert "season" in response.json()["detail"]


def test_a_game_that_counts_refuses_a_chosen_seed_naming_the_field(olga, autumn):
    response = olga.post(
        "/api/games/", {"players": ["A", "B"], "season": autumn["id"], "seed": 42}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["error"] == "invalid"
    assert "seed" in response.json()["detail"]
    assert not Game.objects.exists() and not Player.objects.exists()


@pytest.mark.parametrize(
    ("chosen", "words"),
    [
        ({"deck": list(get_variant("classic").deck)}, "its cards are shuffled"),
        ({"dealer": 1}, "its dealer is drawn"),
    ],
)
def test_a_game_that_counts_refuses_a_deck_or_dealer_chosen_naming_the_field(
    olga, autumn, chosen, words
):
    """A deck set up card by card (or the dealer chosen) would stack a game that counts."""
    body = {"players": ["A", "B"], "season": autumn["id"], **chosen}
    response = olga.post("/api/games/", body, format="json")
    assert response.status_code == 400
    (field,) = chosen
    assert words in response.json()["detail"][field]
    assert not Game.objects.exists() and not Player.objects.exists()


def test_a_referee_cannot_deal_a_game_that_counts_from_a_deck_set_up(olga, autumn):
    """The API takes no referee's deal; the services refuse one with a deck set up all the
    same, in a game that counts (a practice game's referee may: a reconstruction)."""
    from games import services as game_services
    from rules.commands import DealHand

    game = olga.post(
        "/api/games/", {"players": ["A", "B"], "season": autumn["id"]}, format="json"
    ).json()
    before = olga.get(f"/api/games/{game['id']}/").json()["version"]
    with pytest.raises(IllegalCommand, match="dealt a shuffled deck"):
        game_services.apply_command(
            game_id=game["id"],
            command=DealHand(None, get_variant("classic").deck),
            actor=game_services.user_actor(olga.user),
        )
    assert olga.get(f"/api/games/{game['id']}/").json()["version"] == before


def test_a_game_that_counts_draws_its_own_seed(olga, autumn):
    game = olga.post(
        "/api/games/", {"players": ["A", "B"], "season": autumn["id"]}, format="json"
    ).json()
    assert olga.get(f"/api/games/{game['id']}/").json()["seed_chosen"] is False
    started = olga.get(f"/api/games/{game['id']}/events/").json()[0]["data"]
    assert len(started["seed"]) == 32 and "seed_chosen" not in started


def test_every_organiser_of_the_league_referees_its_season_games(olga, club, autumn):
    game = sheet_game(olga, autumn)
    colleague = client_for("carl")
    services.add_organiser(league=services.get_league(club["id"]), user=colleague.user)
    assert not GameReferee.objects.exists()

    response = record(colleague, game, {"out": 0, "points": {"1": 5, "2": 7}})

    assert response.status_code == 201
    detail = colleague.get(f"/api/games/{game['id']}/").json()
    assert all("secret" in seat for seat in detail["seats"])


# Score sheets -------------------------------------------------------------------------------


def test_a_referee_records_a_hand_by_cards_or_points(olga, autumn):
    game = sheet_game(olga, autumn)

    response = record(olga, game, {"out": 2, "remaining": {"0": ["R7", "W4"]}, "points": {"1": 2}})

    assert response.status_code == 201, response.content
    body = response.json()
    types = [e["type"] for e in body["events"]]
    assert types[:2] == ["hand_recorded", "hand_ended"]
    assert body["events"][1]["data"]["scores"] == [0, 0, 59]
    assert body["version"] == body["events"][-1]["version"]


def test_a_seat_cannot_record_hands(olga, autumn):
    game = sheet_game(olga, autumn)
    seat = APIClient()
    seat.credentials(HTTP_AUTHORIZATION=f"Seat {game['seats'][0]['secret']}")
    assert record(seat, game, {"out": 0, "points": {"1": 1, "2": 1}}).status_code == 403
    assert record(APIClient(), game, {"out": 0, "points": {"1": 1, "2": 1}}).status_code == 401


@pytest.mark.parametrize(
    "body, field",
    [
        ({"out": 0, "remaining": {"1": ["R77"]}, "points": {"2": 1}}, "remaining.1"),
        ({"out": 0, "remaining": {"1": ["W4"] * 5}, "points": {"2": 1}}, "remaining"),
        ({"out": 0, "remaining": {"1": ["P7"]}, "points": {"2": 1}}, "remaining.1"),
        ({"out": 0, "points": {"1": 3}}, "remaining.2"),
        ({"out": 7, "points": {"1": 3, "2": 1}}, "out"),
        ({"out": 0, "points": {"1": -3, "2": 1}}, "points"),
        ({"out": "0", "points": {"1": 3, "2": 1}}, "out"),
        ({"out": 0, "points": {"1": 3, "2": 1}, "winner": 0}, "winner"),
    ],
)
def test_a_wrong_hand_is_refused_naming_the_field_and_appends_nothing(olga, autumn, body, field):
    game = sheet_game(olga, autumn)
    before = Game.objects.get(pk=game["id"]).version

    response = record(olga, game, body)

    assert response.status_code == 400, response.content
    assert response.json()["error"] == "invalid"
    assert field in response.json()["detail"], response.json()
    assert Game.objects.get(pk=game["id"]).version == before


def test_a_game_played_with_the_apps_cards_has_no_score_sheet(olga, autumn):
    response = olga.post(
        "/api/games/", {"players": ["A", "B"], "season": autumn["id"]}, format="json"
    )
    game = response.json()
    response = record(olga, game, {"out": 0, "points": {"1": 3}})
    assert response.status_code == 409
    assert response.json()["error"] == "illegal"


def test_a_hand_is_recorded_once_per_key(olga, autumn):
    game = sheet_game(olga, autumn)
    body = {"out": 0, "points": {"1": 3, "2": 4}, "key": "hand-1"}
    first = record(olga, game, body).json()
    second = record(olga, game, body).json()
    assert first["version"] == second["version"]


def test_a_hand_sent_again_after_the_next_one_was_recorded_gets_the_first_answer(olga, autumn):
    game = sheet_game(olga, autumn)
    version = Game.objects.get(pk=game["id"]).version
    body = {"out": 0, "points": {"1": 3, "2": 4}, "expected_version": version, "key": "hand-1"}
    first = record(olga, game, body)
    assert first.status_code == 201, first.content
    assert record(olga, game, {"out": 1, "points": {"0": 5, "2": 6}}).status_code == 201
    recorded = Game.objects.get(pk=game["id"]).version

    again = record(olga, game, body)

    assert again.status_code == 201, again.content
    assert again.json() == first.json()
    assert Game.objects.get(pk=game["id"]).version == recorded


# Standings and players ----------------------------------------------------------------------


def play_out(client, game, out, points):
    """Hands with the same result until the game is over."""
    while True:
        body = record(client, game, {"out": out, "points": points}).json()
        if body["events"][-1]["type"] == "game_ended":
            return


def test_the_standings_come_from_the_games_with_their_tie_breakers(olga, autumn):
    first = sheet_game(olga, autumn, players=["Ann", "Bob", "Cy"], target=100)
    play_out(olga, first, 0, {"1": 30, "2": 10})
    second = sheet_game(olga, autumn, players=["Bob", "Cy"], target=100)
    play_out(olga, second, 0, {"1": 25})

    response = APIClient().get(f"/api/seasons/{autumn['id']}/standings/")

    assert response.status_code == 200
    body = response.json()
    assert body["tie_breakers"] == ["wins", "points", "average_placing", "hands_won"]
    assert len(body["tie_breaker_notes"]) >= 5
    table = {row["player"]: row for row in body["rows"]}
    # Ann and Bob won once each; Ann scored 120 to Bob's 100.
    assert [row["player"] for row in body["rows"]] == ["Ann", "Bob", "Cy"]
    assert [row["rank"] for row in body["rows"]] == [1, 2, 3]
    assert table["Bob"]["games"] == 2 and table["Bob"]["wins"] == 1
    assert table["Ann"]["points"] == 120 and table["Bob"]["points"] == 100
    assert table["Bob"]["placings"] == [1, 1] and table["Bob"]["average_placing"] == 1.5
    assert table["Cy"]["placings"] == [0, 2] and table["Cy"]["hands_won"] == 0
    assert table["Ann"]["hands_won"] == 3 and table["Bob"]["hands_won"] == 4
    assert table["Ann"]["rating"] > 25


def test_the_standings_export_as_csv(olga, autumn):
    game = sheet_game(olga, autumn, players=["=cmd()", "Bob"], target=50)
    play_out(olga, game, 0, {"1": 30})

    response = APIClient().get(f"/api/seasons/{autumn['id']}/standings.csv")

    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    assert "attachment" in response["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0][:3] == ["rank", "player", "nights"]
    assert rows[1][1] == "'=cmd()"  # never a formula in a spreadsheet
    assert rows[2][1] == "Bob"


def test_standings_of_an_unknown_season_are_404():
    assert APIClient().get("/api/seasons/999/standings/").status_code == 404
    assert APIClient().get("/api/seasons/999/standings.csv").status_code == 404


def test_a_season_lists_its_nights_and_games(olga, autumn):
    game = sheet_game(olga, autumn, players=["Ann", "Bob"], target=50)
    play_out(olga, game, 1, {"0": 60})
    sheet_game(olga, autumn, players=["Ann", "Cy"])

    detail = APIClient().get(f"/api/seasons/{autumn['id']}/").json()
    games = APIClient().get(f"/api/seasons/{autumn['id']}/games/?night=1").json()

    assert detail["nights"][0]["number"] == 1
    assert (detail["games"], detail["finished"]) == (2, 1)
    assert [g["status"] for g in games] == ["finished", "playing"]
    assert games[0]["seats"][1] == {
        "seat": 1,
        "player_id": games[0]["seats"][1]["player_id"],
        "player": "Bob",
        "rank": 1,
        "score": 60,
        "won": True,
    }


def test_a_player_shows_their_games_and_rating_history(olga, autumn):
    for _ in range(2):
        game = sheet_game(olga, autumn, players=["Ann", "Bob"], target=50)
        play_out(olga, game, 0, {"1": 60})
    ann = Player.objects.get(name="Ann")

    body = APIClient().get(f"/api/players/{ann.pk}/").json()

    assert body["name"] == "Ann" and body["has_account"] is False
    assert len(body["games"]) == 2
    history = body["seasons"][0]["rating_history"]
    assert len(history) == 2
    assert history[1]["rating_before"] == history[0]["rating"]
    assert history[1]["rating"] > history[0]["rating"] > 25
