"""The tables' live updates behind the stream (games.live): every append tells the process's
hub, on PostgreSQL by a NOTIFY that rides in the append and is heard by one listening
connection per process, which reconnects and then tells every stream to catch up."""

from __future__ import annotations

import asyncio
import threading
import time

import psycopg
import pytest
from django.db import connection

from games import live, services, store
from games.errors import Stale
from rules import legal_commands


@pytest.fixture(autouse=True)
def _no_listener_left():
    """The process's listening connection is closed after each test (the test database is
    dropped at the end, and a connection to it would stop that)."""
    yield
    live.hub.stop()


@pytest.fixture
def hub(monkeypatch):
    """A hub of its own, told in-process (no listening connection)."""
    monkeypatch.setattr(live, "uses_notify", lambda: False)
    return live.Hub()


def send_next(game_id, *, expected=None):
    state, version = store.load(game_id)
    seat = state.pending[1]
    return services.apply_command(
        game_id=game_id,
        command=legal_commands(state, seat)[0],
        actor=f"seat:{seat}",
        expected_version=version if expected is None else expected,
    )


# The hub ------------------------------------------------------------------------------------


def test_a_stream_hears_its_own_games_news_only_and_the_newest_version_once(hub):
    game_a = "00000000-0000-0000-0000-00000000000a"
    ours = hub.subscribe(game_a)
    theirs = hub.subscribe("00000000-0000-0000-0000-00000000000b")
    for version in (5, 7, 6):
        hub.publish(game_a, version)
    assert ours.wait(0.1) == "7"  # what came while it was busy: the newest, once
    assert ours.wait(0.05) is None
    assert theirs.wait(0.05) is None
    hub.unsubscribe(ours)
    hub.publish(game_a, 8)
    assert hub.stream_count() == 1


def test_catch_up_wins_over_a_version_and_reaches_every_stream(hub):
    first, second = hub.subscribe("g-1"), hub.subscribe("g-2")
    hub.publish("g-1", 4)
    hub.publish_all(live.CATCH_UP)
    assert first.wait(0.1) == "" and second.wait(0.1) == ""


def test_a_coroutine_is_woken_from_another_thread(hub):
    subscriber = hub.subscribe("g")

    async def listen():
        nothing = await subscriber.next(0.05)
        threading.Timer(0.05, hub.publish, args=("g", 12)).start()
        started = time.monotonic()
        news = await subscriber.next(5)
        return nothing, news, time.monotonic() - started

    # On a thread of its own: a browser test may have left an event loop running in this one.
    got = []
    thread = threading.Thread(target=lambda: got.append(asyncio.run(listen())))
    thread.start()
    thread.join(10)
    nothing, news, waited = got[0]
    assert nothing is None and news == "12" and waited < 1


def test_a_uuid_and_its_text_are_one_game(hub):
    import uuid

    game = uuid.uuid4()
    subscriber = hub.subscribe(str(game).upper())
    hub.publish(game, 3)
    assert subscriber.wait(0.1) == "3"


# Appends tell the hub -------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_an_append_reaches_the_hub_once_committed(make_game):
    game = make_game()
    with live.hub.subscription(game.pk) as subscriber:
        if live.uses_notify():
            assert live.wait_until_listening()
            subscriber.wait(1)  # the first connection tells every stream to catch up
        result = send_next(game.pk)
        assert subscriber.wait(3) == str(result.version)
        with pytest.raises(Stale):
            send_next(game.pk, expected=result.version - 1)
        assert subscriber.wait(0.5) is None  # refused: nothing appended, nothing said


# PostgreSQL: NOTIFY and the listening connection ---------------------------------------------


def listen_elsewhere():
    """A connection of its own listening on the channel, as another process would."""
    params = connection.get_connection_params()
    for name in ("cursor_factory", "context", "prepare_threshold"):
        params.pop(name, None)
    other = psycopg.connect(**params, autocommit=True)
    other.execute(f"LISTEN {live.CHANNEL}")
    return other


def notes(other, timeout=1.0):
    return [n.payload for n in other.notifies(timeout=timeout, stop_after=None)]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_both_ways_of_appending_say_notify_in_the_append_and_only_when_it_appended(make_game):
    game = make_game()
    other = listen_elsewhere()
    try:
        first = send_next(game.pk)  # the locked path (the process learns the log's end)
        second = send_next(game.pk)  # one self-committing statement
        heard = notes(other)
        assert heard == [f"{game.pk} {first.version}", f"{game.pk} {second.version}"]
        with pytest.raises(Stale):
            send_next(game.pk, expected=first.version)
        assert notes(other, 0.3) == []
    finally:
        other.close()


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_one_listening_connection_serves_every_stream_of_the_process(make_game):
    games = [make_game(seed=f"t-{n}") for n in range(3)]
    subscribers = [live.hub.subscribe(g.pk) for g in games for _ in range(5)]
    try:
        assert live.wait_until_listening()
        # One backend listens (one that a listener stopped before was closing may linger a
        # moment in pg_stat_activity).
        deadline = time.monotonic() + 5
        while True:
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT pid, backend_start, query FROM pg_stat_activity"
                    " WHERE application_name = %s AND datname = current_database()",
                    [live.APPLICATION_NAME],
                )
                listening = cursor.fetchall()
            if len(listening) == 1 or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        assert len(listening) == 1, listening
        for s in subscribers:
            s.wait(0.5)
        result = send_next(games[1].pk)
        for i, s in enumerate(subscribers):
            assert s.wait(2 if 5 <= i < 10 else 0.05) == (
                str(result.version) if 5 <= i < 10 else None
            )
    finally:
        for s in subscribers:
            live.hub.unsubscribe(s)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_lost_listening_connection_reconnects_and_every_stream_catches_up(make_game):
    game = make_game()
    with live.hub.subscription(game.pk) as subscriber:
        assert live.wait_until_listening()
        listener = live.hub.listener
        subscriber.wait(0.5)
        connects = listener.connects
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE application_name = %s AND datname = current_database()",
                [live.APPLICATION_NAME],
            )
        # A move while nobody listens is not heard as such: the stream is told to catch up.
        result = send_next(game.pk)
        deadline = time.monotonic() + 15
        heard = []
        while time.monotonic() < deadline and "" not in heard:
            news = subscriber.wait(0.5)
            if news is not None:
                heard.append(news)
        assert "" in heard
        assert listener.connects > connects
        later = send_next(game.pk)
        assert later.version > result.version
        assert subscriber.wait(3) == str(later.version)


def test_the_listening_connection_may_have_a_url_of_its_own(settings, monkeypatch):
    settings.LIVE_DATABASE_URL = "postgres://unoclub@postgres:5432/unoclub"
    database = live.connections["default"]
    monkeypatch.setitem(database.settings_dict, "PASSWORD", "from-the-secret-file")
    params = live.listening_params()
    assert params["conninfo"] == "postgres://unoclub@postgres:5432/unoclub"
    assert params["password"] == "from-the-secret-file"  # the URL carries none
    assert params["application_name"] == live.APPLICATION_NAME
    settings.LIVE_DATABASE_URL = "postgres://unoclub:own@postgres:5432/unoclub"
    assert "password" not in live.listening_params()
    settings.LIVE_DATABASE_URL = ""
    assert "conninfo" not in live.listening_params()
