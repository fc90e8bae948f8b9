"""The referee's "Set up a position" page: a position typed in starts a game marked set up
and opens its replay; each problem with the position is told in players' words."""

import pytest

from games.models import Game

pytestmark = pytest.mark.django_db

POSITION = (
    "classic|players=3|hand=1|dealer=0|pending=turn:1|dir=+|colour=R|discard=G7,R7"
    "|pile=*|hands=R1,G2/B3,R5,YS/W4"
)


@pytest.fixture
def referee(client, django_user_model):
    client.force_login(django_user_model.objects.create_user("rita", password="pw"))
    return client


def test_the_quick_game_page_links_to_setting_up_a_position(referee):
    assert 'href="/play/set-up/"' in referee.get("/play/").text


def test_a_visitor_is_asked_to_sign_in(client):
    response = client.get("/play/set-up/")

    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_a_referee_sets_up_a_position_and_lands_on_its_replay(referee):
    assert "<textarea" in referee.get("/play/set-up/").text

    response = referee.post("/play/set-up/", {"position": POSITION, "players": "Ann, Bob, Cy"})

    game = Game.objects.get()
    assert game.set_up and game.season_id is None
    assert [s.player for s in game.seats.all()] == ["Ann", "Bob", "Cy"]
    assert response.status_code == 302
    assert response["Location"] == f"/table/{game.pk}/replay/"
    assert referee.get(response["Location"]).status_code == 200


def test_seats_are_named_for_the_referee_when_no_names_are_given(referee):
    referee.post("/play/set-up/", {"position": POSITION})

    assert [s.player for s in Game.objects.get().seats.all()] == [
        "Player 1",
        "Player 2",
        "Player 3",
    ]


@pytest.mark.parametrize(
    ("position", "words"),
    [
        (
            POSITION.replace("hands=R1", "hands=R7,R7,R1"),
            "The cards do not add up: red 7 is there 3",
        ),
        (
            POSITION.replace("pending=turn:1", "pending=turn:7"),
            "Whose turn it is: there is no player 8",
        ),
        (POSITION.replace("colour=R", "colour=Q"), "The colour in play: unknown colour"),
        (POSITION.replace("/W4", ""), "The hands: 2 hands for 3 players"),
        ("", "Paste or type the position"),
        (
            POSITION.replace("classic|", "spin|") + '|extra={"out":9}',
            "The edition&#x27;s own state: out names player 10, not at this table of 3",
        ),
        (POSITION.replace("pending=turn:1", "pending=spin:1"), "Classic UNO never waits for"),
        (
            POSITION.replace("|hand=1", "|seed=%zz|hand=1"),
            "The seed: &#x27;%zz&#x27; is no percent escape: write % as %25",
        ),
    ],
)
def test_each_problem_is_told_in_players_words(referee, position, words):
    response = referee.post("/play/set-up/", {"position": position})

    assert response.status_code == 400
    assert words in response.text
    assert Game.objects.count() == 0


def test_the_players_must_fill_the_seats(referee):
    response = referee.post("/play/set-up/", {"position": POSITION, "players": "Ann, Bob"})

    assert response.status_code == 400
    assert "3 seats but 2 players" in response.text
