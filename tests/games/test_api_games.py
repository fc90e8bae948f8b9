"""POST /api/games/ and GET /api/games/{id}/: creating a game and seeing it as a seat or a
referee."""

import pytest
from django.test import Client

from games.models import Game
from tests.games.api_support import arranged_deck, create_game, seats, url, user_client

pytestmark = pytest.mark.django_db

HANDS = {
    1: ["R1", "R2", "R3", "R4", "R5", "R6", "R7"],
    2: ["G1", "G2", "G3", "G4", "G5", "G6", "G7"],
    0: ["B1", "B2", "B3", "B4", "B5", "B6", "B7"],
}


def test_it_creates_a_seeded_game_with_a_secret_for_each_seat():
    response = user_client().post(
        "/api/games/",
        {
            "variant": "classic",
            "players": ["Ann", "Bob", "Cy"],
            "scoring": "standard",
            "target": 500,
            "seed": 42,
        },
        format="json",
    )

    assert response.status_code == 201
    body = response.json()
    assert set(body) == {"id", "version", "seats", "lobby"}
    assert body["version"] >= 4  # started, dealer chosen, dealt, starter turned, ...
    assert [(s["seat"], s["player"]) for s in body["seats"]] == [(0, "Ann"), (1, "Bob"), (2, "Cy")]
    secrets = [s["secret"] for s in body["seats"]]
    assert len(set(secrets)) == 3 and all(len(s) >= 20 for s in secrets)
    game = Game.objects.get(pk=body["id"])
    assert (game.variant, game.scoring, game.target, game.version) == (
        "classic",
        "standard",
        500,
        body["version"],
    )


def test_the_answer_gives_each_seats_private_link_and_the_lobby_that_open_as_such():
    referee = user_client()
    body = create_game(referee)
    game_id = body["id"]

    assert body["lobby"] == f"http://testserver/table/{game_id}/lobby/"
    page = Client()
    page.force_login(referee.user)
    lobby = page.get(body["lobby"])
    assert lobby.status_code == 200
    for row in body["seats"]:
        assert row["link"] == f"http://testserver/table/{game_id}/seat/{row['secret']}/"
        assert row["link"] in lobby.content.decode()  # the lobby hands out the same links
    # Opening Bob's link seats the browser as Bob: his table, his cards, nobody else's.
    bob = Client()
    table = bob.get(body["seats"][1]["link"], follow=True)
    assert table.status_code == 200
    assert table.context["viewer"].seat == 1
    assert "Your hand" in table.content.decode()
    assert bob.get(f"/table/{game_id}/lobby/").status_code == 403  # a seat is not a referee


def test_the_same_seed_deals_the_same_game():
    referee = user_client()
    first, second = create_game(referee, seed=42), create_game(referee, seed=42)

    hands = [referee.get(url(game)).json()["seats"] for game in (first, second)]

    assert [row["hand"] for row in hands[0]] == [row["hand"] for row in hands[1]]


def test_a_referee_deals_an_explicit_deck_by_the_dealing_contract():
    referee = user_client()
    deck = arranged_deck(3, HANDS, starter="Y9", dealer=0)

    game = create_game(referee, deck=deck, dealer=0, seed=None)

    view = referee.get(url(game)).json()
    assert [row["hand"] for row in view["seats"]] == [HANDS[0], HANDS[1], HANDS[2]]
    assert (view["top_card"], view["dealer"], view["turn"]) == ("Y9", 0, 1)
    assert view["draw_pile"] == deck[22:]


def test_it_takes_the_sheet_flag_and_options():
    referee = user_client()
    body = create_game(referee, sheet=True, options={})

    assert Game.objects.get(pk=body["id"]).sheet is True
    assert referee.get(url(body)).status_code == 200


def test_an_unknown_season_is_named():
    response = user_client().post(
        "/api/games/", {"players": ["A", "B"], "season": 404}, format="json"
    )

    assert response.status_code in (400, 404)
    assert "season" in str(response.json()["detail"])
    assert Game.objects.count() == 0


def test_it_defaults_to_classic_standard_scoring_and_500():
    response = user_client().post("/api/games/", {"players": ["A", "B"]}, format="json")

    assert response.status_code == 201
    game = Game.objects.get(pk=response.json()["id"])
    assert (game.variant, game.scoring, game.target) == ("classic", "standard", 500)


@pytest.mark.parametrize(
    "body, field",
    [
        ({}, "players"),
        ({"players": ["Ann"]}, "players"),
        ({"players": "Ann, Bob"}, "players"),
        ({"players": ["Ann", 7]}, "players"),
        ({"players": ["A", "B"], "target": "500"}, "target"),
        ({"players": ["A", "B"], "target": 0}, "target"),
        ({"players": ["A", "B"], "variant": "uno-deluxe"}, "variant"),
        ({"players": ["A", "B"], "scoring": "golf"}, "scoring"),
        ({"players": ["A", "B"], "seed": 4.5}, "seed"),
        ({"players": ["A", "B"], "dealer": 2}, "dealer"),
        ({"players": ["A", "B"], "sheet": "yes"}, "sheet"),
        ({"players": ["A", "B"], "colour": "R"}, "colour"),
        ({"players": ["A", "B"], "deck": ["R1"]}, "deck"),
    ],
)
def test_malformed_games_are_400_naming_the_field(body, field):
    response = user_client().post("/api/games/", body, format="json")

    assert response.status_code == 400, response.content
    assert response.json()["error"] == "invalid"
    assert field in response.json()["detail"]
    assert Game.objects.count() == 0


def test_an_unknown_card_in_the_deck_is_named():
    deck = arranged_deck(3, HANDS, starter="Y9")
    deck[30] = "Z9"

    response = user_client().post(
        "/api/games/", {"players": ["A", "B", "C"], "deck": deck, "dealer": 0}, format="json"
    )

    assert response.status_code == 400
    assert "Z9" in response.json()["detail"]["deck"]


def test_a_seat_sees_its_own_hand_the_counts_of_the_others_and_its_legal_commands():
    game = create_game(user_client())
    for seat, client in enumerate(seats(game)):
        view = client.get(url(game)).json()

        assert view["id"] == game["id"]
        assert [row["player"] for row in view["seats"]] == ["Ann", "Bob", "Cy"]
        assert [row["card_count"] for row in view["seats"]] == [7, 7, 7]
        assert [("hand" in row) for row in view["seats"]] == [s == seat for s in range(3)]
        assert all("secret" not in row for row in view["seats"])
        assert "draw_pile" not in view
        if view["turn"] == seat:
            assert {"type": "draw"} in view["legal"]
        else:
            assert view["legal"] == []


def test_a_referee_sees_every_hand_and_every_seats_secret():
    referee = user_client()
    game = create_game(referee)

    view = referee.get(url(game)).json()

    assert [row["secret"] for row in view["seats"]] == [s["secret"] for s in game["seats"]]
    assert all(len(row["hand"]) == 7 for row in view["seats"])
    assert view["legal"] == []
    for key in (
        "variant",
        "version",
        "status",
        "hand_number",
        "dealer",
        "turn",
        "direction",
        "top_card",
        "colour",
        "draw_pile_count",
        "pending",
        "seats",
        "legal",
        "winner",
    ):
        assert key in view
    assert view["status"] == "playing"


def test_a_name_given_twice_is_refused_naming_the_players():
    """Two players called Ann could not tell whose turn it is ("Waiting for Ann")."""
    referee = user_client()
    response = referee.post(
        "/api/games/", {"players": ["Ann", "Bob", "ann "], "seed": 7}, format="json"
    )
    assert response.status_code == 400
    assert "Ann is named twice" in response.json()["detail"]["players"]
    assert not Game.objects.exists()


def test_an_empty_deck_is_refused_rather_than_taken_for_no_deck():
    response = user_client().post(
        "/api/games/", {"players": ["Ann", "Bob"], "deck": []}, format="json"
    )
    assert response.status_code == 400
    assert "an empty deck" in response.json()["detail"]["deck"]
    assert not Game.objects.exists()
