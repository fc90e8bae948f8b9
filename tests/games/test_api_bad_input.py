"""Input that once made the API answer a server error: every case is 400 (413 for a body over
the limit) in the API's error shape, names what is wrong, and appends nothing."""

import json

import pytest
from django.conf import settings
from django.test import Client

from games.models import Dispute, Game
from tests.games.api_support import create_game, seats, url, user_client
from tournaments.models import League, Season, Tournament

pytestmark = pytest.mark.django_db

DEEP = "[" * 100_000 + "]" * 100_000


def version(game):
    return Game.objects.get(pk=game["id"]).version


def assert_invalid(response, field=None, status=400):
    assert response.status_code == status, response.content
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert body["error"] == "invalid"
    if field is not None:
        assert field in body["detail"], body


@pytest.fixture
def referee():
    return user_client()


@pytest.fixture
def game(referee):
    return create_game(referee)


@pytest.fixture
def waiting(game):
    """The client of the seat the game waits for."""
    clients = seats(game)
    state = clients[0].get(url(game)).json()
    return clients[state["pending"]["seat"]]


# Cards that are not strings ---------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["play", "discard", "keep", "keep_card"])
@pytest.mark.parametrize("card", [["R7"], [1], {"code": "R7"}])
def test_a_card_given_as_a_list_or_an_object_is_refused_naming_the_card(game, waiting, kind, card):
    before = version(game)

    response = waiting.post(url(game, "commands/"), {"type": kind, "card": card}, format="json")

    assert_invalid(response, "card")
    assert "must be a string" in response.json()["detail"]["card"]
    assert version(game) == before


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"type": "wheel_discard", "card": ["R7"]}, "card"),
        ({"type": "wheel_discard", "cards": [["R7"]]}, "cards"),
        ({"type": "wheel_discard", "cards": [{"code": "R7"}]}, "cards"),
    ],
)
def test_a_wheel_discard_of_lists_or_objects_is_refused_naming_the_field(
    game, waiting, body, field
):
    before = version(game)

    response = waiting.post(url(game, "commands/"), body, format="json")

    assert_invalid(response, field)
    assert version(game) == before


# Bodies too deep or too large -------------------------------------------------------------------


def test_json_nested_a_hundred_thousand_deep_is_refused_on_every_write(referee, game, waiting):
    before = (version(game), Game.objects.count(), League.objects.count())

    for client, path in [
        (waiting, url(game, "commands/")),
        (referee, "/api/games/"),
        (referee, "/api/leagues/"),
        (referee, url(game, "undo/")),
        (referee, "/api/tournaments/"),
    ]:
        response = client.post(path, DEEP, content_type="application/json")
        assert_invalid(response, "non_field_errors")
        assert "nested" in response.json()["detail"]["non_field_errors"]

    assert (version(game), Game.objects.count(), League.objects.count()) == before


def test_json_nested_deeper_than_the_limit_inside_an_object_names_the_field(referee):
    deep = "text"
    for _ in range(25):
        deep = [deep]
    options = {"customizable": deep}

    response = referee.post(
        "/api/games/", {"players": ["Ann", "Bob"], "options": options}, format="json"
    )

    assert_invalid(response, "options")
    assert Game.objects.count() == 0


def test_a_body_over_the_size_limit_is_413_in_the_api_error_shape(game, waiting):
    before = version(game)
    filler = "x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1)

    response = waiting.post(url(game, "commands/"), {"type": "draw", "key": filler}, format="json")

    assert_invalid(response, "non_field_errors", status=413)
    assert "limit" in response.json()["detail"]["non_field_errors"]
    assert version(game) == before


def test_a_form_with_too_many_fields_for_a_token_is_400_in_the_api_error_shape():
    fields = "&".join(f"f{i}=1" for i in range(settings.DATA_UPLOAD_MAX_NUMBER_FIELDS + 1))

    response = Client().post(
        "/api/auth/token/", fields, content_type="application/x-www-form-urlencoded"
    )

    assert_invalid(response, "non_field_errors")


# Numbers beyond what the columns hold -----------------------------------------------------------


@pytest.mark.parametrize("target", [0, 100_001, 2**31, 2**63])
def test_a_game_target_out_of_range_is_refused_naming_it(referee, target):
    response = referee.post(
        "/api/games/", {"players": ["Ann", "Bob"], "target": target}, format="json"
    )

    assert_invalid(response, "target")
    assert Game.objects.count() == 0


def test_the_largest_target_is_taken(referee):
    create_game(referee, target=100_000)


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"seed": 2**63}, "seed"),
        ({"seed": -1}, "seed"),
        ({"seed": "s" * 101}, "seed"),
        ({"dealer": 10}, "dealer"),
        ({"season": 2**31}, "season"),
        ({"deck": [["R7"]]}, "deck"),
    ],
)
def test_other_numbers_and_shapes_out_of_range_when_creating_a_game_are_refused(
    referee, body, field
):
    response = referee.post("/api/games/", {"players": ["Ann", "Bob"], **body}, format="json")

    assert_invalid(response, field)
    assert Game.objects.count() == 0


def test_a_league_target_out_of_range_is_refused_naming_it(referee):
    response = referee.post("/api/leagues/", {"name": "Club", "target": 2**31}, format="json")

    assert_invalid(response, "target")
    assert League.objects.count() == 0


@pytest.mark.parametrize("field", ["attendance_points", "best_nights", "target"])
def test_season_settings_out_of_range_are_refused_naming_them(referee, field):
    league = referee.post("/api/leagues/", {"name": "Club"}, format="json").json()

    response = referee.post(
        f"/api/leagues/{league['id']}/seasons/", {"name": "Autumn", field: 2**20}, format="json"
    )

    assert_invalid(response, field)
    assert Season.objects.count() == 0


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"target": 2**31}, "target"),
        ({"table_size": 2**31}, "table_size"),
        ({"rounds": 2**20}, "rounds"),
        ({"turn_seconds": 2**40}, "turn_seconds"),
        ({"players": [0]}, "players"),
        ({"players": [""]}, "players"),
        ({"name": 7}, "name"),
        ({"final_table": "yes"}, "final_table"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_tournament_settings_out_of_range_or_of_the_wrong_type_are_refused(referee, body, field):
    settings = {"name": "Open", "format": "swiss", "table_size": 4, **body}

    response = referee.post("/api/tournaments/", settings, format="json")

    assert_invalid(response, field)
    assert Tournament.objects.count() == 0


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"out": 0, "points": {"1": 2**62}}, "points"),
        ({"out": 0, "points": {"1": 10_001}}, "points"),
        ({"out": 0, "points": {"1_0": 1}}, "points"),
        ({"out": 2**31, "points": {"1": 1}}, "out"),
        ({"out": 0, "remaining": {" 1": ["R7"]}}, "remaining"),
        ({"out": 0, "points": {"1": 1}, "expected_version": 2**31}, "expected_version"),
    ],
)
def test_score_sheet_hands_out_of_range_are_refused_naming_the_field(referee, body, field):
    sheet = create_game(referee, players=["Ann", "Bob"], sheet=True)
    before = version(sheet)

    response = referee.post(url(sheet, "hands/"), body, format="json")

    assert_invalid(response, field)
    assert version(sheet) == before


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("commands/", {"type": "draw", "expected_version": 2**31}, "expected_version"),
        ("disputes/", {"version": 2**31, "claim": "x"}, "version"),
    ],
)
def test_versions_beyond_the_column_are_refused(game, waiting, path, body, field):
    before = version(game)

    assert_invalid(waiting.post(url(game, path), body, format="json"), field)
    assert version(game) == before


@pytest.mark.parametrize("query", ["after=2147483648", "after=99999999999999999999999"])
def test_an_event_query_beyond_the_column_is_refused(referee, game, query):
    assert_invalid(referee.get(url(game, f"events/?{query}")), "after")


# Text the database cannot store ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("disputes/", {"version": 1, "claim": "she\x00cheated"}, "claim"),
        ("commands/", {"type": "draw", "key": "k\x00"}, "key"),
        ("commands/", {"type": "draw", "key": "k\ud800"}, "key"),
    ],
)
def test_a_null_character_or_a_lone_surrogate_in_text_is_refused_naming_the_field(
    game, waiting, path, body, field
):
    before = (version(game), Dispute.objects.count())

    response = waiting.post(url(game, path), json.dumps(body), content_type="application/json")

    assert_invalid(response, field)
    assert (version(game), Dispute.objects.count()) == before


@pytest.mark.parametrize(
    "body",
    [
        {"players": ["Ann\x00", "Bob"]},
        {"players": ["Ann", "Bob"], "variant": "veto", "options": {"a\x00": 1}},
        {
            "players": ["Ann", "Bob"],
            "variant": "veto",
            "options": {"customizable": [{"text": "sing\x00"}]},
        },
    ],
)
def test_a_null_character_anywhere_in_a_new_game_is_refused(referee, body):
    response = referee.post("/api/games/", json.dumps(body), content_type="application/json")

    assert_invalid(response)
    assert Game.objects.count() == 0


# Errors of other apps through the same handler ---------------------------------------------------


def test_a_refusal_outside_a_game_carries_no_version(referee):
    tournament = referee.post(
        "/api/tournaments/",
        {"name": "Open", "format": "swiss", "table_size": 2, "players": ["Ann", "Bob"]},
        format="json",
    ).json()
    assert referee.post(f"/api/tournaments/{tournament['id']}/start/").status_code == 200

    response = referee.post(f"/api/tournaments/{tournament['id']}/start/")

    assert response.status_code == 409
    assert response.json() == {"error": "illegal", "detail": "the tournament has already started"}


def test_a_seat_of_a_score_sheet_cannot_record_its_own_hand_through_commands():
    referee = user_client("sheet-referee")
    game = create_game(referee, sheet=True, seed=None)
    seat = seats(game)[1]
    before = Game.objects.get(pk=game["id"]).version

    answer = seat.post(url(game, "commands/"), {"type": "record_hand", "out": 1}, format="json")

    assert answer.status_code == 409
    assert "only the referee records a hand" in answer.json()["detail"]
    assert Game.objects.get(pk=game["id"]).version == before


def test_a_nul_in_a_seat_secret_or_a_token_is_refused_not_a_server_error(referee, game):
    from rest_framework.test import APIClient

    for header in ("Seat abc\x00def", "Token abc\x00def"):
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=header)
        answer = client.get(url(game))
        assert answer.status_code in (401, 403), (header, answer.status_code)
        assert answer.json()["error"] == "forbidden"


@pytest.mark.parametrize(
    ("path", "field"), [("events/?after={}", "after"), ("replay/?version={}", "version")]
)
@pytest.mark.parametrize("number", ["%D9%A3", "%EF%BC%93", "1_0", "%2B3", "%203"])
def test_a_number_in_a_query_is_plain_digits(referee, game, path, field, number):
    # Arabic-Indic 3, full-width 3, an underscore, a plus sign, a space: int() reads them all.
    assert_invalid(referee.get(url(game, path.format(number))), field)
