"""POST /api/games/set-up/: a referee starts a game from a position (docs/POSITION.md); the
game is marked set up, never counts, and each seat sees only its own hand."""

import pytest

from games.models import Event, Game
from tests.games.api_support import seats, url, user_client

pytestmark = pytest.mark.django_db

POSITION = (
    "classic|players=3|hand=1|dealer=0|pending=turn:1|dir=+|colour=R|discard=G7,R7"
    "|pile=*|hands=R1,G2/B3,R5,YS/W4|scores=120,0,35|won=1,0,0"
)


def set_up(client, **body):
    return client.post(
        "/api/games/set-up/", {"players": ["Ann", "Bob", "Cy"], **body}, format="json"
    )


def test_a_referee_sets_up_a_position_and_the_game_is_marked_set_up():
    referee = user_client()

    response = set_up(referee, position=POSITION)

    assert response.status_code == 201, response.content
    body = response.json()
    assert body["version"] == 1
    assert [s["player"] for s in body["seats"]] == ["Ann", "Bob", "Cy"]
    game = Game.objects.get(pk=body["id"])
    assert game.set_up and game.season_id is None and game.created_by == referee.user
    assert list(Event.objects.filter(game=game).values_list("type", flat=True)) == [
        "position_set_up"
    ]
    view = referee.get(url(body)).json()
    assert view["set_up"] is True
    assert (view["pending"]["type"], view["pending"]["seat"]) == ("turn", 1)
    assert [s["score"] for s in view["seats"]] == [120, 0, 35]
    assert [s["hand"] for s in view["seats"]] == [["R1", "G2"], ["B3", "R5", "YS"], ["W4"]]


def test_the_game_plays_on_from_the_position():
    game = set_up(user_client(), position=POSITION).json()
    bob = seats(game)[1]

    response = bob.post(url(game, "commands/"), {"type": "play", "card": "R5"}, format="json")

    assert response.status_code == 201, response.content
    assert bob.get(url(game)).json()["pending"]["seat"] == 2


def test_a_seat_sees_only_its_own_hand_of_the_position():
    game = set_up(user_client(), position=POSITION).json()
    bob = seats(game)[1]

    (event,) = bob.get(url(game, "events/")).json()
    view = bob.get(url(game)).json()

    assert "hands=#2/B3,R5,YS/#1" in event["data"]["position"]
    assert "seed=#" in event["data"]["position"]
    assert [s.get("hand") for s in view["seats"]] == [None, ["B3", "R5", "YS"], None]


def test_an_impossible_position_is_refused_naming_the_field():
    referee = user_client()

    response = set_up(referee, position=POSITION.replace("hands=R1", "hands=R7,R7,R1"))

    assert response.status_code == 400
    detail = response.json()["detail"]["position"]
    assert detail.startswith("cards: R7 is there 3 times")
    assert Game.objects.count() == 0


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (("discard=G7,R7", "discard="), "discard: a hand being played has a card"),
        (
            (
                "pending=turn:1|dir=+|colour=R|discard=G7,R7",
                "pending=drawn:1|dir=+|colour=R|discard=",
            ),
            "discard: a hand being played has a card",
        ),
        (("pending=turn:1", "pending=start"), "pending: a game set up from a position starts"),
        (("|hand=1", "|seed=%zz|hand=1"), "seed: '%zz' is no percent escape"),
        # Before, set up and then a 500 on the seat's GET: a score sheet has no cards in play.
        (("|hand=1", "|sheet=1|hand=1"), "pending: a score sheet's game waits only"),
        (("|hand=1", "|seed=%C3|hand=1"), "seed: its percent escapes are not UTF-8"),
    ],
)
def test_a_position_with_no_card_in_play_or_before_the_game_is_400_not_500(change, words):
    response = set_up(user_client(), position=POSITION.replace(*change))

    assert response.status_code == 400, response.content
    assert response.json()["detail"]["position"].startswith(words)
    assert Game.objects.count() == 0


def test_a_season_is_refused_a_set_up_game():
    response = set_up(user_client(), position=POSITION, season=1)

    assert response.status_code == 400
    assert "never counts" in response.json()["detail"]["season"]


def test_the_players_must_fill_the_positions_seats():
    response = user_client().post(
        "/api/games/set-up/", {"players": ["Ann", "Bob"], "position": POSITION}, format="json"
    )

    assert response.status_code == 400
    assert "3 seats" in response.json()["detail"]["players"]


def test_a_seat_cannot_set_up_a_position():
    game = set_up(user_client(), position=POSITION).json()

    response = set_up(seats(game)[0], position=POSITION)

    assert response.status_code in (401, 403)


def test_the_schema_documents_setting_up_a_position():
    schema = user_client().get("/api/schema/", {"format": "json"}).json()

    operation = schema["paths"]["/api/games/set-up/"]["post"]
    assert operation["operationId"] == "games_set_up"
    assert "position" in str(operation["requestBody"])


@pytest.mark.parametrize(
    ("position", "words"),
    [
        # A seat off the table in the edition's state (a server error before it was checked).
        (POSITION.replace("classic|", "spin|") + '|extra={"out":9}', "extra: out names seat 9"),
        (POSITION.replace("classic|", "spin|") + '|extra={"spins":"a"}', 'spins is "a"'),
        # A choice the edition never waits for.
        (POSITION.replace("pending=turn:1", "pending=spin:1"), "never waits for 'spin'"),
        # A block no game reaches: a Skip that went out ends the hand (taking it was a 500).
        (
            "power_grab|players=3|hand=1|dealer=0|pending=block:1|dir=+|colour=R|discard=G7,RS"
            '|pile=*|hands=/R5,G2/B9|extra={"threat":["RS",0,true],"towers":[null,null,null,1]}',
            "extra: RS was the last card: the hand is over, nothing to block",
        ),
        # Scores the game would have ended on.
        (
            POSITION.replace("scores=120,0,35", "scores=120,0,535"),
            "scores: seat 2 has 535 points, the target is 500: with standard scoring the game "
            "would be over",
        ),
        # A player with no cards while the hand goes on, a colour the top card does not have.
        (POSITION.replace("/W4|", "/|"), "hands: seat 2 holds no cards while the hand goes on"),
        (
            POSITION.replace("colour=R", "colour=B"),
            "colour: R7 is on top, so the colour in play is red, not blue",
        ),
        (
            POSITION.replace("pending=turn:1", "pending=drawn:1") + "|drawn=B3",
            "drawn: seat 1 drew B3, which cannot be played on R7 with red in play",
        ),
    ],
)
def test_an_edition_state_or_choice_that_cannot_be_is_400_naming_it(position, words):
    response = set_up(user_client(), position=position)

    assert response.status_code == 400, response.content
    assert words in response.json()["detail"]["position"]
    assert Game.objects.count() == 0


def test_the_cards_an_almost_uno_spinner_keeps_stay_hidden_from_the_other_seats():
    position = (
        "spin|players=3|hand=1|dealer=0|pending=almost_uno_top:1|dir=+|colour=R|discard=R3~"
        '|pile=*|hands=R1,G2/B3,R5,Y6,G8,B9/W4,G4|extra={"kept":["B3","R5"]}'
    )
    game = set_up(user_client(), position=position).json()
    clients = seats(game)

    seen = {
        seat: clients[seat].get(url(game, "events/")).json()[0]["data"]["position"]
        for seat in range(3)
    }

    assert '"kept":["B3","R5"]' in seen[1]
    assert '"kept":["#","#"]' in seen[0] and '"kept":["#","#"]' in seen[2]
    assert "B3" not in seen[0] + seen[2]


def test_a_discard_colour_is_listed_a_card_at_a_time_through_the_api():
    # Twelve different red cards: every set with each card on top would be over 24,000
    # commands in the seat's legal list.
    position = (
        "spin|players=3|hand=1|dealer=0|pending=discard_colour:1|dir=+|colour=R|discard=R3~"
        "|pile=*|hands=G1,G2/R0,R1,R2,R4,R5,R6,R7,R8,R9,RS,RV,RD2,G3/W4,G4"
    )
    game = set_up(user_client(), position=position).json()
    bob = seats(game)[1]

    legal = bob.get(url(game)).json()["legal"]
    assert len(legal) == 25
    assert {"type": "wheel_lay", "card": "RS"} in legal

    laid = bob.post(url(game, "commands/"), {"type": "wheel_lay", "card": "RS"}, format="json")
    assert laid.status_code == 201, laid.content
    view = bob.get(url(game)).json()
    assert (view["pending"]["type"], view["top_card"]) == ("discard_colour_more", "RS")
    wrong = bob.post(url(game, "commands/"), {"type": "wheel_lay", "card": "G3"}, format="json")
    assert wrong.status_code == 409 and "red, the colour on top" in wrong.json()["detail"]
    missing = bob.post(url(game, "commands/"), {"type": "wheel_lay"}, format="json")
    assert missing.status_code == 400 and "card" in str(missing.json())
    assert bob.get(url(game)).json()["version"] == view["version"]
    done = bob.post(
        url(game, "commands/"), {"type": "wheel_discard", "cards": ["R7", "R9"]}, format="json"
    )
    assert done.status_code == 201, done.content
    view = bob.get(url(game)).json()
    assert (view["pending"]["type"], view["top_card"]) == ("turn", "R9")


@pytest.mark.parametrize(
    "change,words",
    [
        ("hand=1|", "hand=99999999999999999999|"),
        ("hand=1|", "hand=2147483648|"),  # past a PostgreSQL integer
        ("hand=1|", "hand=" + "9" * 5000 + "|"),  # past what int() reads
        ("|won=1,0,0", "|won=1,0,0|target=2147483648"),
        ("dealer=0", "dealer=١"),  # another script's digit
        ("hand=1|", "hand=1_0|"),
        ("hand=1|", "hand=+1|"),
    ],
)
def test_a_number_past_any_game_or_not_plain_digits_is_400_naming_the_part(change, words):
    referee = user_client()
    before = Event.objects.count()

    response = set_up(referee, position=POSITION.replace(change, words))

    assert response.status_code == 400, response.content
    assert "position" in response.json()["detail"]
    assert len(str(response.json()["detail"])) < 300  # the number is not echoed whole
    assert Event.objects.count() == before
