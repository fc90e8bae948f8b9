"""The director's endpoints: the tournament's organiser only (401 anonymous, 403 anyone else,
before the body is looked at), every bad input a 400 naming the field, the rulings in the
tournament's detail and the endpoints in the OpenAPI schema with examples."""

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from tournaments.brackets import services as tournament_services

from .support import play_game

pytestmark = pytest.mark.django_db

PLAYERS = ["Ann", "Bob", "Cid", "Dee"]


@pytest.fixture
def tournament(organiser):
    tournament = tournament_services.create_tournament(
        name="Cup",
        organiser=organiser,
        format="elimination",
        table_size=2,
        scoring="none",
        players=PLAYERS,
    )
    return tournament_services.start_tournament(tournament_id=tournament.pk, by=organiser)


@pytest.fixture
def director(organiser):
    api = APIClient()
    api.force_authenticate(organiser)
    return api


@pytest.fixture
def stranger():
    api = APIClient()
    api.force_authenticate(get_user_model().objects.create_user("sam", password="pw"))
    return api


def table_one(client, tid):
    return client.get(f"/api/tournaments/{tid}/").json()["rounds"][0]["tables"][0]


ENDPOINTS = [
    ("entries/", {"player": "Zed"}),
    ("entries/drop/", {"player": "Ann"}),
    ("entries/check-in/", {"player": "Ann"}),
    ("entries/check-out/", {"player": "Ann"}),
    ("entries/undrop/", {"player": "Ann"}),
    ("advance/", None),
    ("repair/", {"reason": "Dee went home"}),
    ("rounds/1/tables/1/reopen/", {"reason": "wrong deal"}),
    ("rounds/1/tables/1/award/", {"kind": "forfeit", "placings": ["Ann"], "reason": "x"}),
    ("rounds/1/tables/1/call-time/", {"reason": "time"}),
    ("rounds/1/tables/1/result/", {"placings": ["Ann", "Dee"]}),
]


@pytest.mark.parametrize("path,body", ENDPOINTS)
def test_only_the_organiser_directs(tournament, stranger, path, body):
    url = f"/api/tournaments/{tournament.pk}/{path}"
    assert APIClient().post(url, body, format="json").status_code == 401
    refused = stranger.post(url, body, format="json")
    assert refused.status_code == 403 and refused.json()["error"] == "forbidden"
    # Even a malformed body: the stranger is told no, not what was wrong.
    assert stranger.post(url, {"nonsense": 1}, format="json").status_code == 403


def test_a_director_awards_a_result_and_the_detail_shows_the_ruling(tournament, director):
    table = table_one(director, tournament.pk)
    loser, winner = table["players"]
    answer = director.post(
        f"/api/tournaments/{tournament.pk}/rounds/1/tables/1/award/",
        {"kind": "disqualification", "placings": [winner, loser], "reason": "marked cards"},
        format="json",
    )
    assert answer.status_code == 200, answer.json()
    body = answer.json()
    decided = body["rounds"][0]["tables"][0]
    assert decided["status"] == "finished" and decided["decided_by"] == "award"
    assert decided["placings"] == [winner, loser]
    [ruling] = body["rulings"]
    assert ruling["kind"] == "disqualification" and ruling["reason"] == "marked cards"
    assert ruling["players"] == [winner, loser] and ruling["against"] == [loser]
    assert ruling["round"] == 1 and ruling["table"] == 1


@pytest.mark.parametrize(
    "body,field",
    [
        ({"kind": "bribe", "placings": ["Ann", "Dee"], "reason": "x"}, "kind"),
        ({"kind": "forfeit", "placings": "Ann", "reason": "x"}, "placings"),
        ({"kind": "forfeit", "placings": ["Ann"], "reason": "x"}, "placings"),
        ({"kind": "forfeit", "placings": ["Ann", "Dee"], "reason": " "}, "reason"),
        ({"kind": "forfeit", "placings": ["Ann", "Dee"]}, "reason"),
        ({"kind": "forfeit", "placings": ["Ann", "Dee"], "reason": "x", "extra": 1}, "extra"),
    ],
)
def test_a_bad_award_is_a_400_naming_the_field(tournament, director, body, field):
    answer = director.post(
        f"/api/tournaments/{tournament.pk}/rounds/1/tables/1/award/", body, format="json"
    )
    assert answer.status_code == 400, answer.json()
    assert field in answer.json()["detail"]


def test_no_such_table_is_a_404(tournament, director):
    answer = director.post(
        f"/api/tournaments/{tournament.pk}/rounds/1/tables/9/call-time/",
        {"reason": "time"},
        format="json",
    )
    assert answer.status_code == 404


def test_reopen_and_advance_through_the_api(tournament, director):
    tid = tournament.pk
    for table in director.get(f"/api/tournaments/{tid}/").json()["rounds"][0]["tables"]:
        play_game(table["game"])
    advanced = director.post(f"/api/tournaments/{tid}/advance/")
    assert advanced.status_code == 200
    assert len(advanced.json()["rounds"]) == 2
    assert director.post(f"/api/tournaments/{tid}/advance/").status_code == 409

    reopened = director.post(
        f"/api/tournaments/{tid}/rounds/1/tables/1/reopen/", {"reason": "wrong deal"}, format="json"
    )
    assert reopened.status_code == 200
    body = reopened.json()
    assert len(body["rounds"]) == 1 and body["rounds"][0]["tables"][0]["status"] == "playing"
    assert body["rulings"][-1]["kind"] == "reopened"


def test_check_in_before_the_start_only(organiser, director):
    tournament = tournament_services.create_tournament(
        name="Cup", organiser=organiser, format="swiss", table_size=2, players=PLAYERS
    )
    url = f"/api/tournaments/{tournament.pk}/entries/check-in/"
    answer = director.post(url, {"player": "Ann"}, format="json")
    assert answer.status_code == 200
    assert [e["checked_in"] for e in answer.json()["entries"]] == [True, False, False, False]
    unknown = director.post(url, {"player": "Zed"}, format="json")
    assert unknown.status_code == 400 and "player" in unknown.json()["detail"]
    # One player checked in cannot start: the others would be dropped, leaving one.
    assert director.post(f"/api/tournaments/{tournament.pk}/start/").status_code == 409
    director.post(url, {"player": "Cid"}, format="json")
    started = director.post(f"/api/tournaments/{tournament.pk}/start/").json()
    assert [e["dropped"] for e in started["entries"]] == [False, True, False, True]
    assert director.post(url, {"player": "Bob"}, format="json").status_code == 409


def test_a_check_in_is_taken_back_before_the_start(organiser, director):
    tournament = tournament_services.create_tournament(
        name="Cup", organiser=organiser, format="swiss", table_size=2, players=PLAYERS
    )
    base = f"/api/tournaments/{tournament.pk}/entries/"
    director.post(base + "check-in/", {"player": "Ann"}, format="json")
    answer = director.post(base + "check-out/", {"player": "Ann"}, format="json")
    assert answer.status_code == 200
    assert not any(e["checked_in"] for e in answer.json()["entries"])
    again = director.post(base + "check-out/", {"player": "Ann"}, format="json")
    assert again.status_code == 409 and "not checked in" in again.json()["detail"]


def test_a_drop_is_taken_back_before_the_start(organiser, director):
    tournament = tournament_services.create_tournament(
        name="Cup", organiser=organiser, format="swiss", table_size=2, players=PLAYERS
    )
    base = f"/api/tournaments/{tournament.pk}/entries/"
    director.post(base + "drop/", {"player": "Ann"}, format="json")
    answer = director.post(base + "undrop/", {"player": "Ann"}, format="json")
    assert answer.status_code == 200
    ann = next(e for e in answer.json()["entries"] if e["player"] == "Ann")
    assert not ann["dropped"] and not ann["checked_in"]
    again = director.post(base + "undrop/", {"player": "Ann"}, format="json")
    assert again.status_code == 409 and "Ann is not dropped" in again.json()["detail"]


def test_a_drop_names_the_player_as_entries_do(organiser, director):
    tournament = tournament_services.create_tournament(
        name="Cup", organiser=organiser, format="swiss", table_size=2, players=PLAYERS
    )
    base = f"/api/tournaments/{tournament.pk}/entries/"

    unknown = director.post(base + "drop/", {"player": "Zed"}, format="json")
    assert unknown.status_code == 400
    assert unknown.json()["detail"] == {"player": "Zed is not entered"}
    # Without capitals, as a late entry of "ann" is refused for Ann already entered.
    answer = director.post(base + "drop/", {"player": "ann"}, format="json")
    assert answer.status_code == 200
    assert next(e for e in answer.json()["entries"] if e["player"] == "Ann")["dropped"]


def test_the_schema_describes_the_directors_endpoints_with_examples(client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    paths = schema["paths"]
    award = paths[
        "/api/tournaments/{tournament_id}/rounds/{round_number}/tables/{table_number}/award/"
    ]
    post = award["post"]
    assert set(post["responses"]) >= {"200", "400", "401", "403", "404", "409"}
    assert post["requestBody"]["content"]["application/json"]["examples"]
    for path in ("advance/", "repair/", "entries/check-in/"):
        assert f"/api/tournaments/{{tournament_id}}/{path}" in paths


def test_the_organisers_undo_through_the_game_api_is_refused_once_a_round_depends_on_it(
    tournament, director
):
    from games.services import _first_hand_start

    tid = tournament.pk
    tables = director.get(f"/api/tournaments/{tid}/").json()["rounds"][0]["tables"]
    for table in tables:
        play_game(table["game"])
    director.post(f"/api/tournaments/{tid}/advance/")
    game = tables[0]["game"]
    undo = {"to_version": _first_hand_start(game), "reason": "misdeal", "reopen": True}
    answer = director.post(f"/api/games/{game}/undo/", undo, format="json")
    assert answer.status_code == 409
    assert "reopens the table" in answer.json()["detail"]

    director.post(
        f"/api/tournaments/{tid}/rounds/1/tables/1/reopen/", {"reason": "misdeal"}, format="json"
    )
    assert director.post(f"/api/games/{game}/undo/", undo, format="json").status_code == 201
    body = director.get(f"/api/tournaments/{tid}/").json()
    assert body["rounds"][0]["tables"][0]["status"] == "playing"
    assert len(body["rounds"]) == 1


def test_an_award_on_a_table_whose_game_is_over_is_a_409_saying_to_reopen_it(tournament, director):
    table = table_one(director, tournament.pk)
    play_game(table["game"])  # its result not recorded yet
    answer = director.post(
        f"/api/tournaments/{tournament.pk}/rounds/1/tables/1/award/",
        {"kind": "no_show", "placings": table["players"], "reason": "left"},
        format="json",
    )
    assert answer.status_code == 409, answer.json()
    assert "game is over and its result is being recorded" in answer.json()["detail"]
    after = director.get(f"/api/tournaments/{tournament.pk}/").json()
    assert after["rulings"] == [] and after["rounds"][0]["tables"][0]["status"] == "playing"


def test_a_director_enters_the_result_of_a_table_played_with_cards(tournament, director):
    table = table_one(director, tournament.pk)
    second, first = table["players"]
    answer = director.post(
        f"/api/tournaments/{tournament.pk}/rounds/1/tables/1/result/",
        {"placings": [first, second]},
        format="json",
    )
    assert answer.status_code == 200, answer.json()
    decided = answer.json()["rounds"][0]["tables"][0]
    assert decided["decided_by"] == "cards" and decided["placings"] == [first, second]
    [ruling] = answer.json()["rulings"]
    assert ruling["kind"] == "cards" and ruling["reason"] == "played with cards"
    assert ruling["players"] == [first, second] and ruling["against"] == []


@pytest.mark.parametrize(
    "body,field",
    [
        ({"placings": "Ann"}, "placings"),
        ({"placings": ["Ann"]}, "placings"),
        ({"placings": ["Ann", "Ann"]}, "placings"),
        ({"placings": ["Ann", "Dee"], "reason": " "}, "reason"),
        ({"placings": ["Ann", "Dee"], "kind": "forfeit"}, "kind"),
    ],
)
def test_a_bad_result_is_a_400_naming_the_field(tournament, director, body, field):
    answer = director.post(
        f"/api/tournaments/{tournament.pk}/rounds/1/tables/1/result/", body, format="json"
    )
    assert answer.status_code == 400, answer.json()
    assert field in answer.json()["detail"]
    assert table_one(director, tournament.pk)["status"] == "playing"
