"""The audit log and the replay: GET /api/games/{id}/events/ and /replay/."""

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
    game = create_game(referee, deck=arranged_deck(3, HANDS, starter="Y9"), dealer=0, seed="log")
    assert (
        seats(game)[1]
        .post(url(game, "commands/"), {"type": "play", "card": "Y1"}, format="json")
        .status_code
        == 201
    )
    return game


def test_the_log_lists_every_event_in_order(game, referee):
    events = referee.get(url(game, "events/")).json()

    assert [e["version"] for e in events] == list(range(1, event_count(game) + 1))
    assert events[0]["type"] == "game_started"
    assert events[0]["data"]["seed"] == "log"
    assert all(len(e["hash"]) == 64 for e in events)


def test_after_gives_only_the_newer_events(game, referee):
    events = referee.get(url(game, "events/?after=3")).json()

    assert events[0]["version"] == 4
    assert referee.get(url(game, f"events/?after={event_count(game)}")).json() == []


@pytest.mark.parametrize("after", ["x", "-1", "1.5"])
def test_a_bad_after_is_400(game, referee, after):
    response = referee.get(url(game, f"events/?after={after}"))

    assert response.status_code == 400
    assert "after" in response.json()["detail"]


def test_a_seat_sees_the_deal_without_other_hands_or_the_pile_order(game):
    events = seats(game)[2].get(url(game, "events/")).json()

    started = next(e for e in events if e["type"] == "game_started")
    dealt = next(e for e in events if e["type"] == "hand_dealt")
    assert "seed" not in started["data"]
    assert dealt["data"]["deck"] is None
    assert dealt["data"]["your_cards"] == HANDS[2]


def test_the_referee_sees_the_whole_deck(game, referee):
    events = referee.get(url(game, "events/")).json()

    dealt = next(e for e in events if e["type"] == "hand_dealt")
    assert dealt["data"]["deck"] == arranged_deck(3, HANDS, starter="Y9")


def test_the_referee_replays_any_version_with_every_hand(game, referee):
    response = referee.get(url(game, "replay/?version=1"))
    assert response.status_code == 200
    assert response.json()["version"] == 1

    at_start = referee.get(url(game, f"replay/?version={game['version']}")).json()
    now = referee.get(url(game, "replay/")).json()

    assert [row["hand"] for row in at_start["seats"]] == [HANDS[0], HANDS[1], HANDS[2]]
    assert [row["player"] for row in at_start["seats"]] == ["Ann", "Bob", "Cy"]
    assert at_start["top_card"] == "Y9" and now["top_card"] == "Y1"
    assert now["seats"][1]["hand"] == HANDS[1][1:]
    assert len(now["draw_pile"]) == now["draw_pile_count"]
    assert all("secret" not in row for row in now["seats"])


@pytest.mark.parametrize("version", ["-1", "999", "x"])
def test_a_version_out_of_range_is_400(game, referee, version):
    response = referee.get(url(game, f"replay/?version={version}"))

    assert response.status_code == 400
    assert "version" in response.json()["detail"]


def test_a_seat_may_not_replay_a_game_in_progress(game):
    response = seats(game)[1].get(url(game, "replay/"))

    assert response.status_code == 403
    assert response.json()["error"] == "forbidden"
