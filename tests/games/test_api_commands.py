"""POST /api/games/{id}/commands/: a seat's command, its errors, and idempotent retries.

The deal is set up card by card: dealer 0, so seat 1 plays first, on a yellow 9."""

import pytest

from tests.games.api_support import arranged_deck, create_game, event_count, seats, url, user_client

pytestmark = pytest.mark.django_db

HANDS = {
    1: ["Y1", "R2", "R3", "R4", "R5", "R6", "R7"],
    2: ["G1", "G2", "G3", "G4", "G5", "G6", "G7"],
    0: ["B1", "B2", "B3", "B4", "B5", "B6", "B7"],
}


@pytest.fixture
def game():
    return create_game(user_client(), deck=arranged_deck(3, HANDS, starter="Y9"), dealer=0)


def send(game, seat, body):
    return seats(game)[seat].post(url(game, "commands/"), body, format="json")


def test_a_seat_plays_a_card_and_gets_the_events_it_caused(game):
    version = game["version"]

    response = send(game, 1, {"type": "play", "card": "Y1"})

    assert response.status_code == 201
    body = response.json()
    events = body["events"]
    assert body["version"] == events[-1]["version"] > version
    assert [e["version"] for e in events] == list(range(version + 1, body["version"] + 1))
    assert events[0]["type"] == "card_played"
    assert events[0]["data"] == {
        "type": "card_played",
        "seat": 1,
        "card": "Y1",
        "colour": None,
        "uno": False,
    }
    assert events[-1]["data"] == {"type": "turn_began", "seat": 2}
    assert {e["actor"] for e in events} == {"seat:1"}
    assert all(
        set(e)
        == {"version", "batch", "type", "data", "actor", "recorded_at", "hash", "commitment"}
        | {"salt", "key", "signature"}
        for e in events
    )
    assert event_count(game) == body["version"]
    view = seats(game)[1].get(url(game)).json()
    assert (view["top_card"], view["turn"], view["version"]) == ("Y1", 2, body["version"])


def test_the_legal_list_is_what_the_seat_may_send(game):
    legal = seats(game)[1].get(url(game)).json()["legal"]

    assert legal == [{"type": "play", "card": "Y1"}, {"type": "draw"}]
    for command in legal[:1]:
        assert send(game, 1, command).status_code == 201


def test_a_draw_shows_the_drawn_card_to_the_drawer_only(game):
    response = send(game, 1, {"type": "draw"})

    assert response.status_code == 201
    drawn = response.json()["events"][0]
    assert drawn["type"] == "cards_drawn" and len(drawn["data"]["cards"]) == 1
    seen_by_seat_2 = (
        seats(game)[2].get(url(game, f"events/?after={drawn['version'] - 1}")).json()[0]
    )
    assert seen_by_seat_2["data"]["cards"] is None and seen_by_seat_2["data"]["count"] == 1


@pytest.mark.parametrize(
    "body, field, words",
    [
        ({"type": "play", "card": "X9"}, "card", "X9"),
        ({"type": "play", "card": "R17"}, "card", "R17"),
        ({"type": "play"}, "card", "card"),
        ({"type": "play", "card": 7}, "card", "7"),
        ({"type": "play", "card": "Y1", "uno": "yes"}, "uno", "uno"),
        ({"type": "play", "card": "W", "colour": "Q"}, "colour", "Q"),
        ({"type": "dance"}, "type", "dance"),
        ({"card": "Y1"}, "type", "type"),
        ({"type": "draw", "foo": 1}, "foo", "foo"),
        ({"type": "catch"}, "target", "target"),
        ({"type": "catch", "target": "2"}, "target", "seat number"),
        ({"type": "catch", "target": 2, "seat": 0}, "target", "differ"),
        ({"type": "draw", "expected_version": "9"}, "expected_version", "number"),
        ({"type": "draw", "key": 5}, "key", "string"),
    ],
)
def test_malformed_commands_are_400_naming_the_field_and_append_nothing(game, body, field, words):
    before = event_count(game)

    response = send(game, 1, body)

    assert response.status_code == 400, response.content
    assert response.json()["error"] == "invalid"
    assert words.lower() in response.json()["detail"][field].lower()
    assert event_count(game) == before


@pytest.mark.parametrize("body", [[{"type": "draw"}], "draw", 3])
def test_a_command_must_be_a_json_object(game, body):
    response = send(game, 1, body)

    assert response.status_code == 400
    assert response.json()["error"] == "invalid"


def test_malformed_json_is_400(game):
    response = seats(game)[1].post(
        url(game, "commands/"), "{not json", content_type="application/json"
    )

    assert response.status_code == 400
    assert response.json()["error"] == "invalid"


def test_a_catch_names_its_target_as_target_or_by_its_former_name_seat(game):
    answers = [
        send(game, 1, {"type": "catch", name: 2}).json()["detail"] for name in ("target", "seat")
    ]
    assert answers == ["seat 2 cannot be caught now"] * 2


@pytest.mark.parametrize("name", ["target", "seat"])
@pytest.mark.parametrize(("value", "words"), [(99, "no seat 99 to catch"), ("x", "")])
def test_a_bad_catch_target_is_400_naming_the_field_as_sent(game, name, value, words):
    response = send(game, 1, {"type": "catch", name: value})

    assert response.status_code == 400, response.content
    assert list(response.json()["detail"]) == [name]
    assert words in response.json()["detail"][name]


def test_a_play_with_another_editions_field_is_400_naming_it(game):
    response = send(game, 1, {"type": "play", "card": "Y1", "give": "G"})

    assert response.status_code == 400, response.content
    assert response.json()["detail"] == {"give": "give is only for the Mod card"}


def test_a_command_out_of_turn_is_409_illegal_with_the_version(game):
    before = event_count(game)

    response = send(game, 2, {"type": "draw"})

    assert response.status_code == 409
    assert response.json() == {
        "error": "illegal",
        "detail": response.json()["detail"],
        "version": game["version"],
    }
    assert "seat 1" in response.json()["detail"]
    assert event_count(game) == before


@pytest.mark.parametrize(
    "body",
    [
        {"type": "play", "card": "G5"},  # not in the hand
        {"type": "play", "card": "R2"},  # does not match a yellow 9
        {"type": "pass"},  # nothing drawn
        {"type": "call_uno"},
        {"type": "catch", "target": 2},
        {"type": "catch", "seat": 2},  # the target's former name, still taken
        {"type": "catch", "target": 2, "seat": 2},
    ],
)
def test_commands_the_rules_refuse_are_409_and_append_nothing(game, body):
    before = event_count(game)

    response = send(game, 1, body)

    assert response.status_code == 409, response.content
    assert response.json()["error"] == "illegal"
    assert response.json()["version"] == game["version"]
    assert event_count(game) == before


def test_a_stale_expected_version_is_409_with_the_current_version(game):
    current = game["version"]
    before = event_count(game)

    response = send(game, 1, {"type": "draw", "expected_version": current - 1})

    assert response.status_code == 409
    assert response.json()["error"] == "stale"
    assert response.json()["version"] == current
    assert event_count(game) == before


def test_the_current_expected_version_is_accepted(game):
    response = send(game, 1, {"type": "draw", "expected_version": game["version"]})

    assert response.status_code == 201


def test_the_same_key_again_answers_as_the_first_time_and_appends_nothing(game):
    command = {
        "type": "play",
        "card": "Y1",
        "uno": False,
        "expected_version": game["version"],
        "key": "c-81f2",
    }
    first = send(game, 1, command)
    count = event_count(game)

    again = send(game, 1, command)

    assert (first.status_code, again.status_code) == (201, 201)
    assert again.json() == first.json()
    assert event_count(game) == count


def test_a_retry_after_the_game_moved_on_still_gets_the_first_answer(game):
    command = {"type": "play", "card": "Y1", "key": "retry-1"}
    first = send(game, 1, command)
    assert send(game, 2, {"type": "play", "card": "G1"}).status_code == 201
    count = event_count(game)

    again = send(game, 1, command)

    assert again.status_code == 201
    assert again.json() == first.json()
    assert event_count(game) == count


def test_a_retry_naming_the_version_it_was_sent_at_gets_the_first_answer_once_play_moved_on(
    game,
):
    command = {"type": "play", "card": "Y1", "expected_version": game["version"], "key": "r-2"}
    first = send(game, 1, command)
    assert send(game, 2, {"type": "play", "card": "G1"}).status_code == 201
    count = event_count(game)

    again = send(game, 1, command)

    assert again.status_code == 201, again.content
    assert again.json() == first.json()
    assert event_count(game) == count


def test_a_retry_after_a_referee_undid_the_command_is_told_it_no_longer_stands():
    referee = user_client()
    game = create_game(referee, deck=arranged_deck(3, HANDS, starter="Y9"), dealer=0)
    command = {"type": "draw", "key": "undone-1"}
    assert send(game, 1, command).status_code == 201
    undo = referee.post(
        url(game, "undo/"), {"to_version": game["version"], "reason": "misdeal"}, format="json"
    )
    assert undo.status_code in (200, 201), undo.content
    count = event_count(game)

    again = send(game, 1, command)

    assert again.status_code == 409, again.content
    assert again.json()["error"] == "illegal"
    assert "was undone" in again.json()["detail"]
    assert f"to version {game['version']}" in again.json()["detail"]
    assert event_count(game) == count  # nothing appended: the seat still waits to play or draw


def test_a_retry_after_the_undo_of_the_command_was_itself_undone_gets_the_first_answer():
    referee = user_client()
    game = create_game(referee, deck=arranged_deck(3, HANDS, starter="Y9"), dealer=0)
    command = {"type": "draw", "key": "restored-1"}
    first = send(game, 1, command)
    drawn = first.json()["version"]
    for to_version, reason in ((game["version"], "misdeal"), (drawn, "the draw was right")):
        undo = {"to_version": to_version, "reason": reason}
        assert referee.post(url(game, "undo/"), undo, format="json").status_code == 201
    count = event_count(game)

    again = send(game, 1, command)

    assert again.status_code == 201, again.content
    assert again.json() == first.json()
    assert event_count(game) == count


def test_a_retry_names_the_last_undo_that_took_the_command_back_after_it_stood_again():
    referee = user_client()
    game = create_game(referee, deck=arranged_deck(3, HANDS, starter="Y9"), dealer=0)
    command = {"type": "draw", "key": "undone-twice"}
    drawn = send(game, 1, command).json()["version"]
    for to_version in (game["version"], drawn, game["version"]):
        undo = {"to_version": to_version, "reason": "back and forth"}
        assert referee.post(url(game, "undo/"), undo, format="json").status_code == 201
    count = event_count(game)

    again = send(game, 1, command)

    assert again.status_code == 409, again.content
    assert "was undone" in again.json()["detail"]
    assert f"(at version {count})" in again.json()["detail"]
    assert event_count(game) == count


def test_a_different_key_is_a_different_command(game):
    assert send(game, 1, {"type": "draw", "key": "k-1"}).status_code == 201
    count = event_count(game)

    response = send(game, 1, {"type": "draw", "key": "k-2"})

    assert response.status_code == 409  # seat 1 drew already: it may play the drawn card or pass
    assert event_count(game) == count
