"""Scaled out, nothing is lost, doubled or reordered: two web processes (gunicorn) and two
Celery workers on one PostgreSQL and a real Redis broker. Bots play a tournament's tables
through both web processes at once (each command sent to one of them in turn); the workers
advance the bracket. Every round is seated exactly once, every game's log is whole and in
order (``verify_events``), and the tournament's winner is its final's."""

from __future__ import annotations

import json
import os
import socket
import sys
import threading
import urllib.error
import urllib.request

import pytest
from django.conf import settings
from django.core.management import call_command

from games.models import Event, Game
from tournaments.brackets.models import Round, Table, Tournament

from . import test_worker
from .support import cup_of_eight
from .test_worker import BROKER, ROOT, database_url, drained, wait_for

# The real broker and workers of the worker tests.
broker = test_worker.broker
workers = test_worker.workers

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def web_processes(processes):
    """Two gunicorn processes of one worker each, with production settings (rate limits off)."""
    env = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "CELERY_BROKER_URL": BROKER,
        "DATABASE_CONN_MAX_AGE": "0",
        "DJANGO_ENV": "production",
        "SECRET_KEY": "scale-out-test-secret-key-of-enough-length-0123456789",
        "ALLOWED_HOSTS": "127.0.0.1",
        "CHAIN_SIGNING_KEY": settings.CHAIN_SIGNING_KEY,
        "SECURE_SSL_REDIRECT": "0",
        "SECURE_HSTS_SECONDS": "0",
        "SESSION_COOKIE_SECURE": "0",
        "CSRF_COOKIE_SECURE": "0",
        "SECURE_PROXY_SSL_HEADER": "off",
        "LOG_LEVEL": "WARNING",
        **{f"THROTTLE_{s}": "off" for s in ("TOKEN", "SEAT", "COMMANDS", "SEAT_FAILURES")},
    }
    gunicorn = os.path.join(os.path.dirname(sys.executable), "gunicorn")
    bases = []
    for n in range(2):
        port = free_port()
        command = [gunicorn, "config.wsgi", "--bind", f"127.0.0.1:{port}", "--workers", "1"]
        processes.start(f"web{n}", command, env, ROOT)
        bases.append(f"http://127.0.0.1:{port}")
    for base in bases:
        wait_for(lambda base=base: _up(base), timeout=60, what="gunicorn")
    return bases


def _up(base: str) -> bool:
    try:
        with urllib.request.urlopen(base + "/healthz", timeout=5) as answer:
            return answer.status == 200
    except OSError:
        return False


def call(base, method, path, body=None, auth=None):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, data=data, method=method)
    request.add_header("Authorization", auth)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


def play_through(bases: list[str], table: Table, failures: list[str]) -> None:
    """Bots at one table, each request to the next web process in turn."""
    secrets = [f"Seat {s.secret}" for s in table.game.seats.order_by("seat")]
    path = f"/api/games/{table.game_id}/"
    for n in range(3000):
        base = bases[n % len(bases)]
        status, view = call(base, "GET", path, auth=secrets[0])
        if view.get("status") == "finished":
            return
        seat = view["pending"]["seat"]
        status, view = call(base, "GET", path, auth=secrets[seat])
        if not view.get("legal"):
            continue
        plays = [c for c in view["legal"] if c["type"] == "play"]
        command = {**(plays or view["legal"])[0], "expected_version": view["version"]}
        command["key"] = f"{seat}:{view['version']}"
        status, answer = call(base, "POST", path + "commands/", command, auth=secrets[seat])
        if status >= 500 or status not in (201, 409):
            failures.append(f"{status} {answer}")
    failures.append(f"game {table.game_id} did not end")


def play_round(bases, tournament, number):
    tables = list(Table.objects.filter(round__tournament=tournament, round__number=number))
    failures: list[str] = []
    threads = [threading.Thread(target=play_through, args=(bases, t, failures)) for t in tables]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(300)
    assert not failures, failures[:3]
    return tables


def test_two_web_processes_and_two_workers_lose_double_or_reorder_nothing(
    organiser, broker, workers, web_processes
):
    client, _ = broker
    workers("one")
    workers("two")
    tournament = cup_of_eight(organiser, "Scale Cup")

    play_round(web_processes, tournament, 1)
    wait_for(lambda: Round.objects.filter(tournament=tournament, number=2).exists(), 90)
    play_round(web_processes, tournament, 2)
    wait_for(
        lambda: Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.FINISHED,
        90,
        "the tournament to end",
    )
    wait_for(lambda: drained(client), what="the queue to drain")

    rounds = Round.objects.filter(tournament=tournament).order_by("number")
    assert [r.number for r in rounds] == [1, 2]
    assert [r.tables.count() for r in rounds] == [2, 1]
    assert Game.objects.count() == 3
    assert all(t.status == "finished" for t in Table.objects.filter(round__tournament=tournament))
    for game in Game.objects.all():
        versions = list(
            Event.objects.filter(game=game).order_by("position").values_list("version", flat=True)
        )
        assert versions == list(range(1, game.version + 1))  # whole, once each, in order
        keys = list(Event.objects.filter(game=game, key__isnull=False).values_list("actor", "key"))
        assert len(keys) == len(set(keys))
    assert "every chain intact" in _verified()
    final = Table.objects.get(round__tournament=tournament, round__number=2)
    tournament.refresh_from_db()
    assert tournament.winner == final.placings[0]
    first = Table.objects.filter(round__tournament=tournament, round__number=1)
    assert {p for t in first for p in t.placings[:2]} == set(final.placings)


def _verified() -> str:
    from io import StringIO

    out = StringIO()
    call_command("verify_events", stdout=out)
    return out.getvalue()
