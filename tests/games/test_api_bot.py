"""A bot plays a whole game through the API, choosing only from the ``legal`` list it GETs."""

import pytest

from tests.games.api_support import bot_command, create_game, seats, url, user_client

pytestmark = pytest.mark.django_db

MOST_COMMANDS = 1500  # a two-player hand is far shorter; this only stops a runaway loop


@pytest.mark.parametrize("seed", [1, 2026])
def test_a_bot_plays_a_two_player_game_to_the_end(seed):
    referee = user_client()
    game = create_game(referee, players=["Ann", "Bob"], scoring="none", seed=seed)
    clients = seats(game)
    sent = 0

    while sent < MOST_COMMANDS:
        views = [client.get(url(game)).json() for client in clients]
        if views[0]["status"] == "finished":
            break
        seat = next(s for s, view in enumerate(views) if view["legal"])
        command = bot_command(views[seat]["legal"])
        response = clients[seat].post(
            url(game, "commands/"),
            {**command, "expected_version": views[seat]["version"]},
            format="json",
        )
        assert response.status_code == 201, (command, response.content)
        sent += 1

    final = clients[0].get(url(game)).json()
    assert final["status"] == "finished", f"not over after {sent} commands"
    assert final["winner"] in (0, 1)
    assert final["seats"][final["winner"]]["card_count"] == 0
    assert final["legal"] == []
    assert all("hand" in row for row in final["seats"])
    assert referee.get(url(game)).json()["version"] == final["version"]
    over = clients[1].post(url(game, "commands/"), {"type": "draw"}, format="json")
    assert over.status_code == 409
    assert over.json()["error"] == "illegal"
