"""The table's stream of server-sent events (games.pages.live): only for whoever may see the
table, only "the version changed" (never a card), bad requests answered with a clear 4xx."""

from __future__ import annotations

import re
import threading
import uuid

import pytest

from games import live, services, store
from games.pages import live as live_view
from rules import legal_commands
from tests.web.conftest import seat_client
from tests.web.table_support import drive

pytestmark = pytest.mark.django_db(transaction=True)

EVENT = re.compile(r"event: version\ndata: (\d*)\n\n")


@pytest.fixture(autouse=True)
def _short_streams(monkeypatch):
    monkeypatch.setattr(live_view, "KEEPALIVE_SECONDS", 0.3)
    monkeypatch.setattr(live_view, "STREAM_SECONDS", 3.0)
    yield
    live.hub.stop()  # no listening connection left to the test database


def send_next(game):
    state, version = store.load(game.pk)
    seat = state.pending[1]
    command = legal_commands(state, seat)[0]
    return services.apply_command(
        game_id=game.pk, command=command, actor=f"seat:{seat}", expected_version=version
    )


def test_a_seat_hears_the_version_first_and_then_each_move(client, make_game):
    game = make_game()
    seat_client(client, game, 0)

    response = client.get(f"/table/{game.pk}/live/")

    assert response.status_code == 200
    assert response["Content-Type"] == "text/event-stream"
    assert response["Cache-Control"] == "no-store"
    chunks = iter(response.streaming_content)
    head = next(chunks).decode()
    assert head.startswith("retry: ")
    assert EVENT.search(head).group(1) == str(game.version)
    said = ""
    while ":\n\n" not in said:  # quiet until the first comment (on PostgreSQL the process's
        said += next(chunks).decode()  # new listening connection may first say "catch up")
    result = send_next(game)
    for chunk in chunks:
        said += chunk.decode()
        if str(result.version) in EVENT.findall(said):
            break
    else:
        raise AssertionError(f"the move was never told: {said!r}")
    # What a stream says: versions, and comments that keep it open. Never a card.
    assert re.fullmatch(r"(:\n\n|event: version\ndata: \d*\n\n)+", said), said
    response.close()
    assert live.hub.stream_count(game.pk) == 0


def test_a_stream_ends_after_a_while_and_the_browser_opens_a_new_one(client, make_game):
    game = make_game()
    seat_client(client, game, 1)
    response = client.get(f"/table/{game.pk}/live/")
    said = b"".join(response.streaming_content).decode()  # STREAM_SECONDS, then the end
    assert said.count(":\n\n") >= 2  # the comments that keep a quiet stream open
    assert live.hub.stream_count(game.pk) == 0


def test_the_stream_of_a_private_table_is_refused_to_a_stranger(client, make_game):
    game = make_game()
    response = client.get(f"/table/{game.pk}/live/")
    assert response.status_code == 403
    assert "private" in response.text
    assert live.hub.stream_count(game.pk) == 0


def test_anyone_may_follow_a_finished_game_that_is_shown(client, make_game):
    game = make_game(scoring="none")
    drive(game, until=lambda s: s.finished)
    response = client.get(f"/table/{game.pk}/live/")
    assert response.status_code == 200
    response.close()


def test_an_unknown_game_is_not_found_and_a_bad_id_or_method_is_refused(client, make_game):
    response = client.get(f"/table/{uuid.uuid4()}/live/")
    assert response.status_code == 404
    assert response.text == "There is no such game."
    assert client.get("/table/not-a-game/live/").status_code == 404
    game = make_game()
    seat_client(client, game, 0)
    assert client.post(f"/table/{game.pk}/live/").status_code == 405
    # A query string it does not read changes nothing.
    response = client.get(f"/table/{game.pk}/live/?v=%00&x=<script>")
    assert response.status_code == 200
    response.close()
    assert live.hub.stream_count(game.pk) == 0


def test_under_an_asgi_server_a_stream_is_a_coroutine(client, async_client, make_game):
    from asgiref.sync import async_to_sync

    game = make_game()
    seat_client(client, game, 0)
    async_client.cookies = client.cookies

    async def first_event():
        response = await async_client.get(f"/table/{game.pk}/live/")
        chunks = aiter(response.streaming_content)
        head = await anext(chunks)
        response.close()
        return response, head

    # On a thread of its own: a browser test may have left an event loop running in this one.
    got = []
    thread = threading.Thread(target=lambda: got.append(async_to_sync(first_event)()))
    thread.start()
    thread.join(30)
    response, head = got[0]
    assert response.status_code == 200
    assert response.is_async  # served by the event loop, not a thread per stream
    assert EVENT.search(head.decode()).group(1) == str(game.version)
    assert live.hub.stream_count(game.pk) == 0
