"""``GET /api/games/{id}/seating/``: who sits where with the server's signature, so a seat checks
from the API alone (``games.seating.published_problem``) that nobody changed a name at the
table, or what it counts for, behind the server's back."""

import copy

import pytest
from rest_framework.test import APIClient

from games import seating
from games.models import Seat
from tests.games.api_support import create_game, seats, url, user_client

pytestmark = pytest.mark.django_db


@pytest.fixture
def table():
    referee = user_client()
    game = create_game(referee)
    return game, referee, seats(game)


def keys(client) -> dict[str, str]:
    answer = client.get("/api/chain/keys/").json()
    return {key["id"]: key["public_key"] for key in answer["keys"]}


def test_a_seat_checks_who_sits_where_from_the_api_alone(table):
    game, referee, (ann, bob, _) = table

    answer = bob.get(url(game, "seating/"))

    assert answer.status_code == 200
    signed = answer.json()
    assert signed["game"] == game["id"]
    assert signed["seats"] == [
        {"seat": 0, "player": "Ann", "bot": False},
        {"seat": 1, "player": "Bob", "bot": False},
        {"seat": 2, "player": "Cy", "bot": False},
    ]
    assert (signed["season"], signed["counts_for"]) == (None, [])
    detail = ann.get(url(game)).json()
    assert seating.published_problem(signed, keys(ann), game=detail) is None
    assert referee.get(url(game, "seating/")).json() == signed


def test_a_name_changed_in_the_database_fails_the_seats_check(table):
    game, _, (ann, _, _) = table
    Seat.objects.filter(game_id=game["id"], seat=2).update(player="Dee")

    signed = ann.get(url(game, "seating/")).json()
    detail = ann.get(url(game)).json()

    assert signed["seats"][2]["player"] == "Dee"  # the answer shows what the rows say now
    assert seating.published_problem(signed, keys(ann), game=detail) == (
        "who sat where is not what the server signed (a name, a seat or its table changed)"
    )


@pytest.mark.parametrize(
    "change",
    [
        lambda a: a["seats"][0].update(player="Bob"),
        lambda a: a["seats"][1].update(bot=True),
        lambda a: a.update(season=3),
        lambda a: a["counts_for"].append(["league", 3, 1, [1, 2, 3]]),
        lambda a: a["seats"].pop(),
        lambda a: a.update(game="00000000-0000-0000-0000-000000000001"),
    ],
    ids=["name", "bot", "season", "counts for", "seat left out", "game"],
)
def test_an_answer_changed_on_its_way_does_not_verify(table, change):
    game, _, (ann, _, _) = table
    signed = ann.get(url(game, "seating/")).json()
    changed = copy.deepcopy(signed)
    change(changed)

    assert seating.published_problem(signed, keys(ann)) is None
    assert seating.published_problem(changed, keys(ann)) == (
        "who sat where is not what the server signed (a name, a seat or its table changed)"
    )


def test_the_game_shown_with_other_names_than_the_signed_ones_is_named(table):
    game, _, (ann, _, _) = table
    signed = ann.get(url(game, "seating/")).json()
    detail = ann.get(url(game)).json()
    detail["seats"][1]["player"] = "Eve"

    assert seating.published_problem(signed, keys(ann), game=detail) == (
        "the game shows 'Eve' at seat 1, where the server signed 'Bob'"
    )
    other = {**detail, "id": "00000000-0000-0000-0000-000000000002"}
    assert "not " + game["id"] in seating.published_problem(signed, keys(ann), game=other)


def test_an_answer_not_given_in_full_cannot_be_read(table):
    game, _, (ann, _, _) = table
    signed = ann.get(url(game, "seating/")).json()

    for broken in (
        {k: v for k, v in signed.items() if k != "signature"},
        {**signed, "seats": [{"seat": 0}]},
        {**signed, "game": "not a game"},
        {**signed, "signature": None},
    ):
        assert seating.published_problem(broken, keys(ann)).startswith("the seating cannot be read")


def test_only_the_tables_seats_and_referees_see_it(table):
    game, _, _ = table
    other = create_game(user_client("other-referee"))

    assert APIClient().get(url(game, "seating/")).status_code == 401
    assert seats(other)[0].get(url(game, "seating/")).status_code == 403
    assert user_client("passer-by").get(url(game, "seating/")).status_code == 403
    missing = "00000000-0000-0000-0000-00000000000f"
    assert user_client("lost").get(f"/api/games/{missing}/seating/").status_code == 404


def test_the_schema_says_how_the_seating_is_checked():
    schema = APIClient().get("/api/schema/", {"format": "json"}).json()
    operation = schema["paths"]["/api/games/{game_id}/seating/"]["get"]
    signature = schema["components"]["schemas"]["Seating"]["properties"]["signature"]

    assert "published_problem" in operation["description"]
    assert "uno-seating-v1" in signature["description"]
