"""Who is told when a game moves: one hub per web process, between the appends and the table
pages' event streams (games.pages.live). docs/decisions/0010-live-updates.md.

A stream learns only that a game's version changed (and the new version): never a card. The
page then fetches its fragments through the table's own authorised view, so what a seat may see
is decided where it always was.

Where the news comes from:

* PostgreSQL: every append sends ``NOTIFY`` on ``CHANNEL`` with ``"<game id> <version>"``, in
  the append's own statement or transaction (games.store_pg, games.store), so it is delivered
  at commit and only if the append committed, to every process. Each web process holds ONE
  listening connection (a daemon thread started with the first stream), shared by all its
  streams. When that connection drops, the thread reconnects and then tells every stream to
  catch up (the page re-fetches by version): a move made while it was down is never missed.
* Anything else (the embedded SQLite default: one process, ``runserver``): the append's
  after-commit listener (``publish_committed``) tells the hub directly.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from uuid import UUID

from django.conf import settings
from django.db import connections

log = logging.getLogger(__name__)

CHANNEL = "unoclub_table"
APPLICATION_NAME = "unoclub-live"  # the listening connection, as pg_stat_activity names it
CATCH_UP = None  # what a stream is told when it may have missed something: fetch by version

# How long the listening thread waits before connecting again after the connection failed
# (doubling from the first to the last).
RECONNECT_SECONDS = (0.2, 5.0)
CHECK_SECONDS = 10.0  # a quiet listening connection is checked this often


def game_key(game_id: UUID | str) -> str:
    """One spelling of a game's id (a UUID's canonical text; anything else as it is)."""
    if isinstance(game_id, UUID):
        return str(game_id)
    try:
        return str(UUID(game_id))
    except ValueError:
        return game_id


def notify_payload(game_id: UUID | str, version: int) -> str:
    return f"{game_key(game_id)} {version}"


def uses_notify() -> bool:
    """Whether appends say NOTIFY (PostgreSQL) or the hub is told in-process (SQLite)."""
    return connections["default"].vendor == "postgresql"


class Subscriber:
    """One open stream's mailbox: the newest version it has not sent yet, or "catch up".

    Filled from any thread (the appends, the listening thread); emptied by the stream, either
    a thread (WSGI: ``wait``) or a coroutine on an event loop (ASGI: ``next``), bound at its
    first call. What arrives while nobody reads is kept (coalesced), never dropped."""

    def __init__(self, game_id: str) -> None:
        self.game_id = game_id
        self._lock = threading.Lock()
        self._ready = threading.Condition(self._lock)
        self._version: int | None = None
        self._catch_up = False
        self._loop: asyncio.AbstractEventLoop | None = None
        self._event: asyncio.Event | None = None

    def wake(self, version: int | None) -> None:
        with self._lock:
            if version is CATCH_UP:
                self._catch_up = True
            else:
                self._version = version if self._version is None else max(self._version, version)
            self._ready.notify_all()
            loop, event = self._loop, self._event
        if loop is not None and event is not None:
            try:
                loop.call_soon_threadsafe(event.set)
            except RuntimeError:  # the loop has closed: the stream is gone
                pass

    def _take(self) -> str | None:
        """What to send ("" = catch up, else the version), or None when nothing came."""
        if self._catch_up:
            self._catch_up, self._version = False, None
            return ""
        if self._version is not None:
            version, self._version = self._version, None
            return str(version)
        return None

    def wait(self, timeout: float) -> str | None:
        """From a thread: the next news, or None after ``timeout`` seconds without any."""
        with self._lock:
            got = self._take()
            if got is None:
                self._ready.wait(timeout)
                got = self._take()
            return got

    async def next(self, timeout: float) -> str | None:
        """From a coroutine: the next news, or None after ``timeout`` seconds without any."""
        with self._lock:
            if self._event is None:
                self._loop = asyncio.get_running_loop()
                self._event = asyncio.Event()
            event = self._event
            got = self._take()
        if got is not None:
            return got
        try:
            await asyncio.wait_for(event.wait(), timeout)
        except TimeoutError:
            pass
        event.clear()
        with self._lock:
            return self._take()


class Hub:
    """The process's streams by game, and the one listening connection that feeds them."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._by_game: dict[str, set[Subscriber]] = {}
        self._listener: Listener | None = None

    @contextmanager
    def subscription(self, game_id: UUID | str) -> Iterator[Subscriber]:
        subscriber = self.subscribe(game_id)
        try:
            yield subscriber
        finally:
            self.unsubscribe(subscriber)

    def subscribe(self, game_id: UUID | str) -> Subscriber:
        """A mailbox for ``game_id``'s news from now on (subscribe first, then read the
        version to start from: nothing falls between the two)."""
        subscriber = Subscriber(game_key(game_id))
        with self._lock:
            self._by_game.setdefault(subscriber.game_id, set()).add(subscriber)
        if uses_notify():
            self._ensure_listener()
        return subscriber

    def unsubscribe(self, subscriber: Subscriber) -> None:
        with self._lock:
            streams = self._by_game.get(subscriber.game_id)
            if streams is not None:
                streams.discard(subscriber)
                if not streams:
                    del self._by_game[subscriber.game_id]

    def publish(self, game_id: UUID | str, version: int | None) -> None:
        with self._lock:
            streams = list(self._by_game.get(game_key(game_id), ()))
        for subscriber in streams:
            subscriber.wake(version)

    def publish_all(self, version: int | None = CATCH_UP) -> None:
        """Every stream of the process catches up (the listening connection was lost)."""
        with self._lock:
            streams = [s for group in self._by_game.values() for s in group]
        for subscriber in streams:
            subscriber.wake(version)

    def stream_count(self, game_id: UUID | str | None = None) -> int:
        """The open streams of the process (of one game)."""
        with self._lock:
            if game_id is not None:
                return len(self._by_game.get(game_key(game_id), ()))
            return sum(len(group) for group in self._by_game.values())

    def _ensure_listener(self) -> None:
        with self._lock:
            if self._listener is None or not self._listener.is_alive():
                self._listener = Listener(self)
                self._listener.start()

    @property
    def listener(self) -> Listener | None:
        return self._listener

    def stop(self) -> None:
        """Stop the listening thread (tests)."""
        with self._lock:
            listener, self._listener = self._listener, None
        if listener is not None:
            listener.stop()


class Listener(threading.Thread):
    """The process's one ``LISTEN`` connection: each notification wakes its game's streams;
    after a lost connection, once listening again, every stream catches up."""

    def __init__(self, hub: Hub) -> None:
        super().__init__(name="unoclub-live-listener", daemon=True)
        self.hub = hub
        self._stop = threading.Event()
        self.connection: Any = None
        self.connected = threading.Event()
        self.connects = 0  # how many times it connected (tests: a reconnect happened)

    def stop(self) -> None:
        self._stop.set()
        self.join(timeout=3)

    def run(self) -> None:
        delay = RECONNECT_SECONDS[0]
        while not self._stop.is_set():
            try:
                self._listen()
                delay = RECONNECT_SECONDS[0]
            except Exception as exc:  # noqa: BLE001 - any failure: connect again
                self.connected.clear()
                if self._stop.is_set():
                    break
                log.warning(
                    "live updates: listening connection lost (%s); again in %ss", exc, delay
                )
                self._stop.wait(delay)
                delay = min(delay * 2, RECONNECT_SECONDS[1])

    def _listen(self) -> None:
        import psycopg

        with psycopg.connect(**listening_params(), autocommit=True) as connection:
            self.connection = connection
            connection.execute(f"LISTEN {CHANNEL}")
            self.connects += 1
            self.connected.set()
            # Moves made while the connection was down (or before it first listened) were
            # never heard: every stream tells its page to fetch by version.
            self.hub.publish_all(CATCH_UP)
            checked = time.monotonic()
            while not self._stop.is_set():
                for note in connection.notifies(timeout=1.0):
                    game_id, _, version = note.payload.partition(" ")
                    self.hub.publish(game_id, int(version) if version.isdigit() else CATCH_UP)
                if time.monotonic() - checked > CHECK_SECONDS:
                    # A quiet connection is checked now and then: a dead one raises here.
                    connection.execute("SELECT 1")
                    checked = time.monotonic()
        self.connection = None


def listening_params() -> dict[str, Any]:
    """How the listening connection connects: ``LIVE_DATABASE_URL`` when set (past a
    transaction-mode pooler, straight to PostgreSQL), else as the database's connections do."""
    database = connections["default"]
    url = settings.LIVE_DATABASE_URL
    if url:
        params: dict[str, Any] = {"conninfo": url}
        if database.settings_dict.get("PASSWORD") and not _has_password(url):
            params["password"] = database.settings_dict["PASSWORD"]
    else:
        params = database.get_connection_params()
        for name in ("cursor_factory", "context", "prepare_threshold", "server_side_binding"):
            params.pop(name, None)
    params["application_name"] = APPLICATION_NAME
    return params


def _has_password(url: str) -> bool:
    from urllib.parse import urlsplit

    return bool(urlsplit(url).password)


hub = Hub()


def publish_committed(game: Any, rows: list[Any]) -> None:
    """``registry.on_game_event`` on the embedded default (no NOTIFY): after an append
    commits, tell this process's streams."""
    if rows and not uses_notify():
        hub.publish(game.pk, rows[-1].version)


def wait_until_listening(timeout: float = 5.0) -> bool:
    """Tests and the stream: True once the listening connection is up (PostgreSQL)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        listener = hub.listener
        if listener is not None and listener.connected.wait(0.05):
            return True
    return False
