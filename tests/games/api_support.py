"""Helpers for the game API tests: users and seats as HTTP clients, games made through the
API, deals set up card by card, and a walk over every string of a JSON answer."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.models import Event
from rules.variants import get_variant


def user_client(username: str = "referee") -> APIClient:
    """A client for a (new) user account, authenticated with its API token."""
    user = get_user_model().objects.create_user(username, password="pw")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    client.user = user
    return client


def seat_client(secret: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Seat {secret}")
    return client


def create_game(referee: APIClient, **body: Any) -> dict[str, Any]:
    """POST /api/games/ (a seeded 3-player classic game unless ``body`` says otherwise)."""
    body = {
        "players": ["Ann", "Bob", "Cy"],
        "scoring": "standard",
        "target": 500,
        "seed": 7,
        **body,
    }
    response = referee.post("/api/games/", body, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def seats(game: dict[str, Any]) -> list[APIClient]:
    """One client per seat of a game created through the API, in seat order."""
    return [seat_client(row["secret"]) for row in game["seats"]]


def url(game: dict[str, Any] | str, tail: str = "") -> str:
    game_id = game["id"] if isinstance(game, dict) else game
    return f"/api/games/{game_id}/{tail}"


def event_count(game: dict[str, Any]) -> int:
    return Event.objects.filter(game_id=game["id"]).count()


def arranged_deck(
    players: int, hands: dict[int, list[str]], starter: str, dealer: int = 0
) -> list[str]:
    """A complete classic deck (top first) that deals ``hands`` (every seat, 7 cards each) and
    turns up ``starter``; the draw pile is the rest in the deck's fixed order."""
    left = Counter(get_variant("classic").deck)
    left.subtract([card for hand in hands.values() for card in hand] + [starter])
    assert all(n >= 0 for n in left.values()), "more copies than the deck has"
    order = [hands[(dealer + 1 + k) % players][i] for i in range(7) for k in range(players)]
    return order + [starter] + [card for card in get_variant("classic").deck if _take(left, card)]


def _take(left: Counter[str], card: str) -> bool:
    if left[card] > 0:
        left[card] -= 1
        return True
    return False


def strings(value: Any) -> Iterator[str]:
    """Every string in a JSON value, keys included."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)


def bot_command(legal: list[dict[str, Any]]) -> dict[str, Any]:
    """What a simple bot sends, chosen from the ``legal`` list of GET /api/games/{id}/ only:
    play when it can (calling UNO when the play allows it), else the first thing offered."""
    plays = [c for c in legal if c["type"] == "play"]
    if plays:
        return next((c for c in plays if c.get("uno")), plays[0])
    for kind in ("call_uno", "catch", "choose_colour", "accept", "deal", "draw", "pass"):
        for command in legal:
            if command["type"] == kind:
                return command
    return legal[0]


def play_one(game: dict[str, Any], clients: list[APIClient]) -> tuple[int, dict[str, Any]] | None:
    """Let the seat the game waits for send its bot command; None once the game is over."""
    view = clients[0].get(url(game)).json()
    if view["status"] == "finished":
        return None
    seat = view["pending"]["seat"]
    legal = clients[seat].get(url(game)).json()["legal"]
    response = clients[seat].post(url(game, "commands/"), bot_command(legal), format="json")
    assert response.status_code == 201, response.content
    return seat, response.json()
