"""Who may call the game API: tokens, seat secrets bound to their game, referees."""

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from tests.games.api_support import create_game, event_count, seat_client, seats, url, user_client

pytestmark = pytest.mark.django_db


def test_a_user_exchanges_username_and_password_for_a_token_that_works():
    get_user_model().objects.create_user("ann", password="s3cret-pw")
    client = APIClient()

    response = client.post(
        "/api/auth/token/", {"username": "ann", "password": "s3cret-pw"}, format="json"
    )

    assert response.status_code == 200
    client.credentials(HTTP_AUTHORIZATION=f"Token {response.json()['token']}")
    assert client.post("/api/games/", {"players": ["A", "B"]}, format="json").status_code == 201


def test_a_wrong_password_gets_no_token():
    get_user_model().objects.create_user("ann", password="s3cret-pw")

    response = APIClient().post(
        "/api/auth/token/", {"username": "ann", "password": "nope"}, format="json"
    )

    assert response.status_code == 400
    assert response.json()["error"] == "invalid"


def test_a_session_user_may_create_a_game():
    user = get_user_model().objects.create_user("ann", password="pw")
    client = APIClient()
    client.force_login(user)

    response = client.post("/api/games/", {"players": ["A", "B"], "seed": 1}, format="json")

    assert response.status_code == 201


@pytest.mark.parametrize(
    "method, tail",
    [
        ("get", ""),
        ("post", "commands/"),
        ("get", "events/"),
        ("get", "replay/"),
        ("post", "undo/"),
        ("get", "disputes/"),
        ("post", "disputes/"),
    ],
)
def test_no_credentials_is_401_on_every_game_endpoint(method, tail):
    game = create_game(user_client())
    before = event_count(game)

    response = getattr(APIClient(), method)(url(game, tail), {}, format="json")

    assert response.status_code == 401
    assert response.json()["error"] == "forbidden"
    assert response.headers["WWW-Authenticate"]
    assert event_count(game) == before


def test_creating_a_game_needs_a_user():
    response = APIClient().post("/api/games/", {"players": ["A", "B"]}, format="json")

    assert response.status_code == 401
    assert response.json()["error"] == "forbidden"


def test_a_seat_cannot_create_a_game():
    game = create_game(user_client())

    response = seats(game)[0].post("/api/games/", {"players": ["A", "B"]}, format="json")

    assert response.status_code == 403
    assert response.json()["error"] == "forbidden"


def test_a_bad_token_is_401():
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token not-a-token")

    response = client.post("/api/games/", {"players": ["A", "B"]}, format="json")

    assert response.status_code == 401
    assert response.json()["error"] == "forbidden"


def test_another_games_seat_secret_is_refused():
    referee = user_client()
    game, other = create_game(referee), create_game(referee, seed=8)
    intruder = seats(other)[0]
    before = event_count(game)

    for response in (
        intruder.get(url(game)),
        intruder.get(url(game, "events/")),
        intruder.post(url(game, "commands/"), {"type": "draw"}, format="json"),
    ):
        assert response.status_code in (403, 404)
        assert response.json()["error"] in ("forbidden", "not_found")
    assert event_count(game) == before


def test_an_unknown_seat_secret_is_403():
    game = create_game(user_client())

    response = seat_client("made-up-secret").get(url(game))

    assert response.status_code == 403
    assert response.json() == {
        "error": "forbidden",
        "detail": "This seat secret is not for this game.",
    }


def test_a_missing_game_is_404():
    response = user_client().get(url("00000000-0000-0000-0000-000000000000"))

    assert response.status_code == 404
    assert response.json()["error"] == "not_found"


def test_a_seat_secret_for_a_missing_game_is_404():
    game = create_game(user_client())

    response = seats(game)[0].get(url("00000000-0000-0000-0000-000000000000"))

    assert response.status_code == 404


def test_a_user_who_is_not_a_referee_may_not_look():
    game = create_game(user_client("organiser"))
    stranger = user_client("stranger")

    for response in (
        stranger.get(url(game)),
        stranger.get(url(game, "events/")),
        stranger.get(url(game, "replay/")),
        stranger.get(url(game, "disputes/")),
    ):
        assert response.status_code == 403
        assert response.json()["error"] == "forbidden"


def test_a_user_listed_as_referee_may_look():
    from games.models import Game, GameReferee

    game = create_game(user_client("organiser"))
    helper = user_client("helper")
    GameReferee.objects.create(game=Game.objects.get(pk=game["id"]), user=helper.user)

    response = helper.get(url(game))

    assert response.status_code == 200
    assert all("hand" in row for row in response.json()["seats"])


def test_a_referee_cannot_send_a_seats_command():
    referee = user_client()
    game = create_game(referee)
    before = event_count(game)

    response = referee.post(url(game, "commands/"), {"type": "draw"}, format="json")

    assert response.status_code == 403
    assert event_count(game) == before
