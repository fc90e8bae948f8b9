"""The table page's live updates: a stream of server-sent events saying that the game's version
changed (docs/decisions/0010-live-updates.md).

``GET /table/<game>/live/`` answers ``text/event-stream``: first the game's version, then one
``version`` event each time the game moves (the new version; empty when the stream may have
missed something and the page must look again), and a comment now and then so that a dead
connection is noticed. Nothing else: never a card. The page (htmx's SSE extension) then asks
the table's authorised view (``table_version``) for its fragments, so a seat's stream tells it
no more than its page may show.

The stream holds no database connection: one check of who is asking, then only the process's
hub (games.live), fed by PostgreSQL's NOTIFY or, on the embedded default, by the appends
themselves. Under an ASGI server (the container: gunicorn with uvicorn's worker) a stream is a
coroutine; under a WSGI server (``runserver``, the tests' live server) it is a thread.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Iterator
from uuid import UUID

from django.core.handlers.asgi import ASGIRequest
from django.db import connection
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.views.decorators.http import require_GET

from games import live
from games.models import Game
from games.pages.viewers import viewer_of
from games.visibility import is_revealed

# A comment line this often keeps proxies from closing a quiet stream and lets a WSGI server
# notice a closed tab; after STREAM_SECONDS the stream ends and the browser opens a new one
# (once every few minutes), which is also when the page checks its version again.
KEEPALIVE_SECONDS = 20.0
STREAM_SECONDS = 600.0
RETRY_MS = 1000  # how soon the browser reconnects after the stream ended or broke


def event(version: str) -> bytes:
    return f"event: version\ndata: {version}\n\n".encode()


@require_GET
def table_live(request: HttpRequest, game_id: UUID) -> HttpResponse:
    """The table's stream of versions, for whoever may see the table (403 otherwise)."""
    # Subscribe first, then read the version to start from: a move between the two is told
    # twice at worst, never missed.
    subscriber = live.hub.subscribe(game_id)
    try:
        if live.uses_notify():
            live.wait_until_listening(timeout=2.0)
        game = Game.objects.filter(pk=game_id).first()
        if game is None:
            live.hub.unsubscribe(subscriber)
            return _refused(404, "There is no such game.")
        viewer = viewer_of(request, game)
        if not (viewer.player or viewer.referee or is_revealed(game)):
            live.hub.unsubscribe(subscriber)
            return _refused(403, "This table is private: open it with your seat's link.")
    except BaseException:
        live.hub.unsubscribe(subscriber)
        raise
    if connection.vendor == "postgresql" and not connection.in_atomic_block:
        # The stream may stay open for minutes: it gives its connection back now.
        connection.close()
    head = f"retry: {RETRY_MS}\n".encode() + event(str(game.version))
    body: _Body | _AsyncBody
    if isinstance(request, ASGIRequest):
        body = _AsyncBody(_async_stream(subscriber, head), subscriber)
    else:
        body = _Body(_stream(subscriber, head), subscriber)
    response = StreamingHttpResponse(body, content_type="text/event-stream")
    response["Cache-Control"] = "no-store"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response


def _refused(status: int, reason: str) -> HttpResponse:
    return HttpResponse(reason, status=status, content_type="text/plain; charset=utf-8")


class _Body:
    """A stream's body that ends its subscription when the response is closed, even if the
    server never began to send it (a generator that never started runs no ``finally``)."""

    def __init__(self, stream: Iterator[bytes], subscriber: live.Subscriber) -> None:
        self.stream, self.subscriber = stream, subscriber

    def __iter__(self) -> Iterator[bytes]:
        return self.stream

    def close(self) -> None:
        live.hub.unsubscribe(self.subscriber)
        close = getattr(self.stream, "close", None)
        if close is not None:
            close()


class _AsyncBody:
    """``_Body`` for an ASGI server."""

    def __init__(self, stream: AsyncIterator[bytes], subscriber: live.Subscriber) -> None:
        self.stream, self.subscriber = stream, subscriber

    def __aiter__(self) -> AsyncIterator[bytes]:
        return self.stream

    def close(self) -> None:
        live.hub.unsubscribe(self.subscriber)


def _stream(subscriber: live.Subscriber, head: bytes) -> Iterator[bytes]:
    try:
        yield head
        ends = time.monotonic() + STREAM_SECONDS
        while (left := ends - time.monotonic()) > 0:
            news = subscriber.wait(min(KEEPALIVE_SECONDS, left))
            yield b":\n\n" if news is None else event(news)
    finally:
        live.hub.unsubscribe(subscriber)


async def _async_stream(subscriber: live.Subscriber, head: bytes) -> AsyncIterator[bytes]:
    try:
        yield head
        ends = time.monotonic() + STREAM_SECONDS
        while (left := ends - time.monotonic()) > 0:
            news = await subscriber.next(min(KEEPALIVE_SECONDS, left))
            yield b":\n\n" if news is None else event(news)
    finally:
        live.hub.unsubscribe(subscriber)
