"""What a referee does through the API: undo, and disputes with their rulings."""

import pytest

from tests.games.api_support import arranged_deck, create_game, event_count, seats, url, user_client

pytestmark = pytest.mark.django_db

HANDS = {
    1: ["Y1", "R2", "R3", "R4", "R5", "R6", "R7"],
    2: ["G1", "G2", "G3", "G4", "G5", "G6", "G7"],
    0: ["B1", "B2", "B3", "B4", "B5", "B6", "B7"],
}


@pytest.fixture
def referee():
    return user_client()


@pytest.fixture
def game(referee):
    game = create_game(referee, deck=arranged_deck(3, HANDS, starter="Y9"), dealer=0)
    response = seats(game)[1].post(
        url(game, "commands/"), {"type": "play", "card": "Y1"}, format="json"
    )
    assert response.status_code == 201
    game["played"] = response.json()["version"]
    return game


def test_undo_rewinds_the_game_and_it_goes_on_from_there(game, referee):
    before = event_count(game)

    response = referee.post(
        url(game, "undo/"), {"to_version": game["version"], "reason": "misplay"}, format="json"
    )

    assert response.status_code == 201
    assert response.json() == {"version": before + 1}
    view = referee.get(url(game)).json()
    assert (view["top_card"], view["turn"], view["version"]) == ("Y9", 1, before + 1)
    assert view["seats"][1]["hand"] == HANDS[1]
    rewound = referee.get(url(game, f"events/?after={before}")).json()[0]
    assert rewound["type"] == "rewound"
    assert rewound["data"]["reason"] == "misplay"
    assert rewound["actor"] == f"user:{referee.user.pk}"
    again = seats(game)[1].post(url(game, "commands/"), {"type": "draw"}, format="json")
    assert again.status_code == 201


def test_a_seat_may_not_undo(game):
    before = event_count(game)

    response = seats(game)[1].post(
        url(game, "undo/"), {"to_version": game["version"], "reason": "oops"}, format="json"
    )

    assert response.status_code == 403
    assert response.json()["error"] == "forbidden"
    assert event_count(game) == before


def test_another_user_may_not_undo(game):
    response = user_client("stranger").post(
        url(game, "undo/"), {"to_version": 5, "reason": "x"}, format="json"
    )

    assert response.status_code == 403


@pytest.mark.parametrize(
    "body, field",
    [
        ({"reason": "x"}, "to_version"),
        ({"to_version": "5", "reason": "x"}, "to_version"),
        ({"to_version": 5}, "reason"),
        ({"to_version": 999, "reason": "x"}, "to_version"),
        ({"to_version": 1, "reason": "x"}, "to_version"),  # before the first hand was dealt
        ({"to_version": 5, "reason": "x", "expected_version": "9"}, "expected_version"),
        ({"to_version": 5, "reason": "x", "expected_version": -1}, "expected_version"),
        ({"to_version": 5, "reason": "x", "expected_version": True}, "expected_version"),
        ({"to_version": 5, "reason": "x", "expected_version": 2**40}, "expected_version"),
        ({"to_version": 5, "reason": "x", "key": ""}, "key"),
        ({"to_version": 5, "reason": "x", "key": "  "}, "key"),
        ({"to_version": 5, "reason": "x", "key": 7}, "key"),
        ({"to_version": 5, "reason": "x", "key": "k" * 201}, "key"),
        ({"to_version": 5, "reason": "x", "key": "a\x00b"}, "key"),
        ({"to_version": 5, "reason": "x", "keys": "k"}, "keys"),
    ],
)
def test_a_bad_undo_is_400_and_appends_nothing(game, referee, body, field):
    before = event_count(game)

    response = referee.post(url(game, "undo/"), body, format="json")

    assert response.status_code == 400, response.content
    assert field in response.json()["detail"]
    assert event_count(game) == before


def undo(referee, game, **body):
    body = {"to_version": game["version"], "reason": "misplay", **body}
    return referee.post(url(game, "undo/"), body, format="json")


def play_y1_again(game):
    """Bob plays the yellow 1 the undo gave back to him."""
    response = seats(game)[1].post(
        url(game, "commands/"), {"type": "play", "card": "Y1"}, format="json"
    )
    assert response.status_code == 201, response.content
    return response.json()["version"]


def test_an_undo_sent_again_after_a_seat_moved_answers_the_first_and_the_move_stands(game, referee):
    first = undo(referee, game, expected_version=game["played"], key="undo-1")
    assert first.status_code == 201, first.content
    moved = play_y1_again(game)
    count = event_count(game)

    again = undo(referee, game, expected_version=game["played"], key="undo-1")

    assert again.status_code == 201, again.content
    assert again.json() == first.json()
    assert event_count(game) == count
    view = referee.get(url(game)).json()
    assert (view["top_card"], view["turn"], view["version"]) == ("Y1", 2, moved)


def test_an_undo_sent_again_with_its_key_alone_answers_the_first(game, referee):
    first = undo(referee, game, key="undo-2")
    play_y1_again(game)
    count = event_count(game)

    again = undo(referee, game, key="undo-2")

    assert (again.status_code, again.json()) == (201, first.json())
    assert event_count(game) == count


def test_an_undo_from_a_version_the_game_has_moved_on_from_is_stale_and_undoes_nothing(
    game, referee
):
    assert undo(referee, game, expected_version=game["played"]).status_code == 201
    moved = play_y1_again(game)

    again = undo(referee, game, expected_version=game["played"])

    assert again.status_code == 409, again.content
    body = again.json()
    assert (body["error"], body["version"]) == ("stale", moved)
    assert "expected_version" in body["detail"] and "nothing was undone" in body["detail"]
    assert event_count(game) == moved


def test_an_undo_at_the_version_the_referee_saw_is_made(game, referee):
    response = undo(referee, game, expected_version=game["played"], key=None)

    assert response.status_code == 201, response.content
    assert response.json() == {"version": game["played"] + 1}


def test_the_same_key_with_another_undo_is_a_key_clash_and_undoes_nothing(game, referee):
    first = undo(referee, game, key="undo-3").json()["version"]
    play_y1_again(game)
    count = event_count(game)

    clash = undo(referee, game, to_version=first, key="undo-3")

    assert clash.status_code == 409, clash.content
    assert clash.json()["error"] == "key_clash"
    assert "undo-3" in clash.json()["detail"]
    assert event_count(game) == count


def test_an_undo_sent_again_after_it_was_itself_undone_is_told_so(game, referee):
    assert undo(referee, game, key="undo-4").status_code == 201
    assert (
        undo(referee, game, to_version=game["played"], reason="the play stood").status_code == 201
    )
    count = event_count(game)

    again = undo(referee, game, key="undo-4")

    assert again.status_code == 409, again.content
    assert again.json()["error"] == "illegal"
    assert "was undone" in again.json()["detail"]
    assert event_count(game) == count
    assert referee.get(url(game)).json()["top_card"] == "Y1"


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_on_postgres_an_undo_sent_again_after_a_seat_moved_undoes_nothing_more(referee):
    game = create_game(referee, deck=arranged_deck(3, HANDS, starter="Y9"), dealer=0)
    played = play_y1_again(game)
    body = {"expected_version": played, "key": "undo-pg"}
    first = undo(referee, game, **body)
    assert first.status_code == 201, first.content
    moved = play_y1_again(game)
    count = event_count(game)

    again = undo(referee, game, **body)
    stale = undo(referee, game, expected_version=played)
    clash = undo(referee, game, to_version=first.json()["version"], key="undo-pg")

    assert again.status_code == 201, again.content
    assert again.json() == first.json()
    assert (stale.status_code, stale.json()["error"]) == (409, "stale")
    assert (clash.status_code, clash.json()["error"]) == (409, "key_clash")
    assert event_count(game) == count == moved
    view = referee.get(url(game)).json()
    assert (view["top_card"], view["turn"], view["version"]) == ("Y1", 2, moved)


def test_a_seat_opens_a_dispute_and_everyone_at_the_table_can_list_it(game, referee):
    response = seats(game)[2].post(
        url(game, "disputes/"),
        {"version": game["played"], "claim": "Bob played out of turn"},
        format="json",
    )

    assert response.status_code == 201
    dispute = response.json()
    assert (dispute["version"], dispute["claim"], dispute["status"], dispute["opened_by"]) == (
        game["played"],
        "Bob played out of turn",
        "open",
        "seat:2",
    )
    assert referee.get(url(game, "disputes/")).json() == [dispute]
    assert seats(game)[0].get(url(game, "disputes/")).json() == [dispute]


def test_a_referee_may_open_a_dispute_too(game, referee):
    response = referee.post(
        url(game, "disputes/"), {"version": 1, "claim": "check the deal"}, format="json"
    )

    assert response.status_code == 201
    assert response.json()["opened_by"] == f"user:{referee.user.pk}"


@pytest.mark.parametrize(
    "body, field",
    [
        ({"claim": "x"}, "version"),
        ({"version": 0, "claim": "x"}, "version"),
        ({"version": 999, "claim": "x"}, "version"),
        ({"version": 2}, "claim"),
    ],
)
def test_a_bad_dispute_is_400(game, body, field):
    response = seats(game)[2].post(url(game, "disputes/"), body, format="json")

    assert response.status_code == 400
    assert field in response.json()["detail"]


def send_as(game, seat, command):
    response = seats(game)[seat].post(url(game, "commands/"), command, format="json")
    assert response.status_code == 201, response.content
    return response.json()["version"]


def open_dispute(game):
    response = seats(game)[2].post(
        url(game, "disputes/"), {"version": game["played"], "claim": "wrong"}, format="json"
    )
    return response.json()["id"]


def test_an_upheld_ruling_may_undo(game, referee):
    dispute = open_dispute(game)
    before = event_count(game)

    response = referee.post(
        url(game, f"disputes/{dispute}/ruling/"),
        {"decision": "upheld", "note": "out of turn", "undo_to": game["version"]},
        format="json",
    )

    assert response.status_code == 201
    body = response.json()
    assert (body["status"], body["note"], body["undo_to"]) == (
        "upheld",
        "out of turn",
        game["version"],
    )
    assert event_count(game) == before + 1
    assert referee.get(url(game)).json()["top_card"] == "Y9"


def test_a_rejected_ruling_changes_nothing_in_the_game(game, referee):
    dispute = open_dispute(game)
    before = event_count(game)

    response = referee.post(
        url(game, f"disputes/{dispute}/ruling/"), {"decision": "rejected"}, format="json"
    )

    assert response.status_code == 201
    assert response.json()["status"] == "rejected"
    assert event_count(game) == before


def test_ruling_twice_is_409(game, referee):
    dispute = open_dispute(game)
    ruling = url(game, f"disputes/{dispute}/ruling/")
    referee.post(ruling, {"decision": "rejected"}, format="json")

    response = referee.post(ruling, {"decision": "upheld"}, format="json")

    assert response.status_code == 409
    assert response.json()["error"] == "illegal"
    assert response.json()["version"] == event_count(game)


def test_only_a_referee_rules(game):
    dispute = open_dispute(game)

    response = seats(game)[1].post(
        url(game, f"disputes/{dispute}/ruling/"), {"decision": "rejected"}, format="json"
    )

    assert response.status_code == 403


def test_a_ruling_names_a_bad_decision(game, referee):
    dispute = open_dispute(game)

    response = referee.post(
        url(game, f"disputes/{dispute}/ruling/"), {"decision": "maybe"}, format="json"
    )

    assert response.status_code == 400
    assert "decision" in response.json()["detail"]


def rule(referee, game, dispute, **body):
    body = {"decision": "upheld", "note": "out of turn", "undo_to": game["version"], **body}
    return referee.post(url(game, f"disputes/{dispute}/ruling/"), body, format="json")


def dispute_status(referee, game, dispute):
    disputes = referee.get(url(game, "disputes/")).json()
    return next(d["status"] for d in disputes if d["id"] == dispute)


def test_a_ruling_that_undoes_at_the_version_the_referee_saw_is_made(game, referee):
    dispute = open_dispute(game)

    response = rule(referee, game, dispute, expected_version=game["played"])

    assert response.status_code == 201, response.content
    assert (response.json()["status"], response.json()["undo_to"]) == ("upheld", game["version"])
    assert event_count(game) == game["played"] + 1
    assert referee.get(url(game)).json()["top_card"] == "Y9"


def test_a_ruling_that_undoes_after_the_game_moved_on_is_stale_and_rules_nothing(game, referee):
    dispute = open_dispute(game)
    seen = game["played"]
    moved = send_as(game, 2, {"type": "play", "card": "G1"})

    response = rule(referee, game, dispute, expected_version=seen)

    assert response.status_code == 409, response.content
    body = response.json()
    assert (body["error"], body["version"]) == ("stale", moved)
    assert f"expected_version {seen}" in body["detail"]
    assert "nothing was ruled or undone" in body["detail"]
    assert event_count(game) == moved
    assert dispute_status(referee, game, dispute) == "open"
    assert referee.get(url(game)).json()["top_card"] == "G1"


def test_a_ruling_that_undoes_nothing_does_not_compare_the_version(game, referee):
    dispute = open_dispute(game)
    seen = game["played"]
    moved = send_as(game, 2, {"type": "play", "card": "G1"})

    response = rule(
        referee, game, dispute, decision="rejected", undo_to=None, expected_version=seen
    )

    assert response.status_code == 201, response.content
    assert response.json()["status"] == "rejected"
    assert event_count(game) == moved


@pytest.mark.parametrize("value", ["9", -1, 1.5, True, 2**31, [9], {"version": 9}])
@pytest.mark.parametrize("decision", ["upheld", "rejected"])
def test_a_ruling_with_a_bad_expected_version_is_400_naming_it_and_rules_nothing(
    game, referee, value, decision
):
    dispute = open_dispute(game)
    undo_to = game["version"] if decision == "upheld" else None

    response = rule(
        referee, game, dispute, decision=decision, undo_to=undo_to, expected_version=value
    )

    assert response.status_code == 400, response.content
    assert response.json()["error"] == "invalid"
    assert list(response.json()["detail"]) == ["expected_version"]
    assert event_count(game) == game["played"]
    assert dispute_status(referee, game, dispute) == "open"


@pytest.mark.parametrize("undo_to", [0, 999, "mid-batch"])
def test_a_ruling_that_cannot_undo_to_there_is_400_naming_undo_to_and_rules_nothing(
    game, referee, undo_to
):
    dispute = open_dispute(game)
    if undo_to == "mid-batch":
        undo_to = game["played"] - 1  # Bob's play and the turn it began are one batch

    response = rule(referee, game, dispute, undo_to=undo_to)

    assert response.status_code == 400, response.content
    assert list(response.json()["detail"]) == ["undo_to"]
    assert event_count(game) == game["played"]
    assert dispute_status(referee, game, dispute) == "open"


def test_a_ruling_with_expected_version_null_is_one_without_it(game, referee):
    dispute = open_dispute(game)

    response = rule(referee, game, dispute, expected_version=None)

    assert response.status_code == 201, response.content
    assert event_count(game) == game["played"] + 1


def test_a_dispute_of_another_game_is_404(game, referee):
    other = create_game(referee, seed=99)
    dispute = open_dispute(game)

    response = referee.post(
        url(other, f"disputes/{dispute}/ruling/"), {"decision": "rejected"}, format="json"
    )

    assert response.status_code == 404
