"""Advancement survives the broker, the database and a worker going away, with a REAL Redis
broker, REAL Celery workers and a REAL beat (``celery -A config beat``) sending the sweeps.

- The broker is down when the command that ends a round's last table is sent: the command
  answers 201 and logs a warning; once Redis is back, the round is seated exactly once.
- The database goes away in the middle of seating (the worker reaches PostgreSQL through a proxy
  this test closes for a while): the task's retries and the sweeps fail meanwhile; once it is
  back, the round is seated exactly once.
- A worker is killed in the middle of seating with the shipped visibility timeout (900 s): the
  round is seated by the sweeper long before the message comes back.

Each test states its bound. Redis here is a ``redis-server`` each test starts on a free port
(never the shared one, so no other test run shares its queue); the database is this run's test
database only.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import redis
from django.db import connection

from games import registry, seating
from games import services as game_services
from games.bots import next_bot_move
from games.chain import server_public_keys
from games.models import Game, Seat
from rules import decide
from tests.proxy import Proxy, free_port
from tournaments.brackets import listeners, services
from tournaments.brackets.models import Round, Table

from .support import clock_cup, cup_of_eight, play_game
from .test_worker import PAUSING_WORKER, ROOT, database_url, wait_for

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

# SWEEP_SECONDS for these tests' beat (30 when shipped; the bounds below scale with it).
SWEEP = int(os.environ.get("TOURNAMENTS_TEST_SWEEP_SECONDS", "2"))
# How long a worker may take to notice Redis is back: kombu retries the connection every
# 2, 4, 6 ... seconds, at most 30 apart.
RECONNECT = 30


class OwnRedis:
    """A redis-server of this test's own, on a free port, stopped and started at will."""

    def __init__(self, tmp_path: Path):
        self.port = free_port()
        self.dir = tmp_path
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                *("redis-server", "--port", str(self.port), "--bind", "127.0.0.1"),
                *("--save", "", "--appendonly", "no", "--dir", str(self.dir)),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        client = redis.Redis(port=self.port)
        wait_for(lambda: _answers(client), timeout=10, what="redis-server to start")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)
        self.process = None


def _answers(client: redis.Redis) -> bool:
    try:
        return bool(client.ping())
    except redis.ConnectionError:
        return False


@pytest.fixture
def own_redis(tmp_path):
    if shutil.which("redis-server") is None:
        pytest.fail("redis-server is needed (CI installs it)")
    server = OwnRedis(tmp_path)
    server.start()
    yield server
    server.stop()


@pytest.fixture
def quiet_tables(monkeypatch):
    """Games ended in this process enqueue nothing: the scenario sends what it needs."""
    monkeypatch.setattr(
        registry,
        "on_game_event",
        [f for f in registry.on_game_event if f is not listeners.after_append],
    )


@pytest.fixture
def celery(processes, tmp_path):
    """Start Celery processes: ``celery("worker", name, ...)`` or ``celery("beat", name, ...)``,
    with the test database and the given broker; keyword arguments are extra environment."""

    def start(kind, name, *, broker, db_url=None, module="celery", **extra):
        env = {
            **os.environ,
            "DATABASE_URL": db_url or database_url(),
            "CELERY_BROKER_URL": broker,
            "DATABASE_CONN_MAX_AGE": "0",
            "SWEEP_SECONDS": str(SWEEP),
            # The shipped visibility timeout unless a test says otherwise.
            "CELERY_VISIBILITY_TIMEOUT": "",
            **extra,
        }
        if kind == "worker":
            args = ["worker", "-P", "solo", "-n", f"{name}@%h", "--without-gossip"]
            args += ["--without-mingle", "--without-heartbeat"]
        else:
            args = ["beat", "-s", str(tmp_path / f"{name}-schedule")]
        command = [sys.executable, "-m"]
        command += [module, "-A", "config"] if module == "celery" else [module]
        return processes.start(name, [*command, *args, "--loglevel=info"], env, ROOT)

    return start


def cup(organiser):
    """An elimination of eight at tables of four: two tables, then a final table."""
    tournament = cup_of_eight(organiser, "Outage Cup")
    tables = list(Table.objects.filter(round__tournament=tournament).order_by("number"))
    assert len(tables) == 2
    return tournament, tables


def up_to_the_last_move(game_id):
    """Bots play the game until the next command would end it; returns (seat, command)."""
    for _ in range(5000):
        state = game_services.load_game(game_id=game_id)
        seat, command = next_bot_move(state, frozenset(range(state.players)), str(game_id))
        if any(event.to_dict()["type"] == "game_ended" for event in decide(state, command)):
            return seat, command
        game_services.apply_command(
            game_id=game_id,
            command=command,
            actor=game_services.seat_actor(seat),
            expected_version=state.version,
        )
    raise AssertionError("the game did not come to its end")


SEND_COMMAND = """
import json, logging, sys
import django
django.setup()
from django.test import Client
game_id, secret, body = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
response = Client().post(
    f"/api/games/{game_id}/commands/", body, content_type="application/json",
    HTTP_AUTHORIZATION=f"Seat {secret}", HTTP_HOST="localhost",
)
print("STATUS", response.status_code)
"""


def seated_exactly_once(tournament, games_before, *, after: float, within: float) -> float:
    """Wait until round 2 is seated, at most ``within`` seconds after ``after`` (a monotonic
    time); then, two sweeps later, it is still the only one. Returns the seconds it took."""
    wait_for(
        lambda: Round.objects.filter(tournament=tournament, number=2).exists(),
        timeout=max(0.0, after + within - time.monotonic()),
        what=f"round 2 within {within:.0f} s",
    )
    took = time.monotonic() - after
    time.sleep(2 * SWEEP + 1)
    assert Round.objects.filter(tournament=tournament).count() == 2
    assert Round.objects.get(tournament=tournament, number=2).tables.count() == 1
    assert Game.objects.count() == games_before + 1
    assert set(
        Table.objects.filter(round__tournament=tournament, round__number=1).values_list(
            "status", flat=True
        )
    ) == {"finished"}
    # Who sits at every table is as the server signed it: a seating cut off midway left no
    # table unsigned, and the retry signed the one it seated.
    games = list(
        Table.objects.filter(round__tournament=tournament).values_list(
            "game_id", "game__seating_signature"
        )
    )
    signed = seating.seatings([game_id for game_id, _ in games])
    keys = server_public_keys()
    assert [seating.problem(g, signed[g], signature, keys) for g, signature in games] == [
        None
    ] * len(games)
    return took


def test_broker_down_when_the_last_table_ends_then_up_seats_the_round_once(
    organiser, own_redis, celery, quiet_tables, capsys
):
    tournament, (first, last) = cup(organiser)
    play_game(first.game_id)
    services.table_finished(game_id=first.game_id)  # the first table went as usual
    seat, command = up_to_the_last_move(last.game_id)
    games_before = Game.objects.count()
    celery("worker", "worker", broker=own_redis.url)
    celery("beat", "beat", broker=own_redis.url)
    time.sleep(3)  # both connected and running

    own_redis.stop()
    secret = Seat.objects.get(game_id=last.game_id, seat=seat).secret
    web = subprocess.run(
        [
            sys.executable,
            "-c",
            SEND_COMMAND,
            str(last.game_id),
            secret,
            json.dumps(command.to_dict()),
        ],
        cwd=ROOT,
        env={
            **os.environ,
            "DATABASE_URL": database_url(),
            "CELERY_BROKER_URL": own_redis.url,
            "SECURE_SSL_REDIRECT": "0",
        },
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert "STATUS 201" in web.stdout, web.stdout + web.stderr
    assert "WARNING tournaments.brackets.listeners: could not enqueue the result" in web.stderr
    assert Game.objects.get(pk=last.game_id).status == Game.Status.FINISHED
    time.sleep(SWEEP + 1)  # beat's sweeps fail meanwhile: nothing moves
    assert Table.objects.get(pk=last.pk).status == Table.Status.PLAYING
    assert Round.objects.filter(tournament=tournament).count() == 1

    own_redis.start()
    back = time.monotonic()
    took = seated_exactly_once(tournament, games_before, after=back, within=RECONNECT + SWEEP + 10)
    with capsys.disabled():
        print(f"\nbroker outage: round seated {took:.1f} s after Redis was back")


def test_database_away_in_the_middle_of_seating_then_back_seats_the_round_once(
    organiser, own_broker, celery, quiet_tables, tmp_path, capsys
):
    tournament, tables = cup(organiser)
    for table in tables:
        play_game(table.game_id)
    games_before = Game.objects.count()
    db = connection.settings_dict
    proxy = Proxy((db["HOST"] or "127.0.0.1", int(db["PORT"] or 5432)))
    proxy.up()
    through_proxy = database_url().replace(f":{db['PORT'] or 5432}/", f":{proxy.port}/")
    marker = tmp_path / "seating"
    url, send = own_broker
    celery(
        "worker",
        "worker",
        broker=url,
        db_url=through_proxy,
        module=PAUSING_WORKER,
        SEATING_PAUSE_SECONDS="2",
        SEATING_PAUSE_MARKER=str(marker),
    )
    celery("beat", "beat", broker=url)
    send("tournaments.tasks.table_finished", str(tables[-1].game_id))
    try:
        wait_for(marker.exists, what="the worker to be in the middle of seating")
        proxy.down()  # the worker's connection is cut and no new one gets through
        time.sleep(10)
        assert Round.objects.filter(tournament=tournament).count() == 1
    finally:
        proxy.up()
    back = time.monotonic()
    took = seated_exactly_once(tournament, games_before, after=back, within=SWEEP + 15)
    with capsys.disabled():
        print(f"\ndatabase outage: round seated {took:.1f} s after PostgreSQL was back")
    proxy.down()


def test_a_worker_killed_while_seating_with_the_shipped_visibility_timeout(
    organiser, own_broker, celery, quiet_tables, tmp_path, capsys
):
    tournament, tables = cup(organiser)
    for table in tables:
        play_game(table.game_id)
    games_before = Game.objects.count()
    marker = tmp_path / "seating"
    url, send = own_broker
    doomed = celery(
        "worker",
        "doomed",
        broker=url,
        module=PAUSING_WORKER,
        SEATING_PAUSE_SECONDS="60",
        SEATING_PAUSE_MARKER=str(marker),
    )
    send("tournaments.tasks.table_finished", str(tables[-1].game_id))
    wait_for(marker.exists, what="the worker to be in the middle of seating")
    doomed.send_signal(signal.SIGKILL)
    doomed.wait(10)
    killed = time.monotonic()
    celery("worker", "rescuer", broker=url)
    celery("beat", "beat", broker=url)
    took = seated_exactly_once(tournament, games_before, after=killed, within=SWEEP + 15)
    # The dead worker's message is still waiting out the visibility timeout (900 s): it was
    # the sweep that seated the round. When it comes back it will find the round seated.
    # (Sweeps the rescuer has taken but not yet run are in the hash too: count the result's.)
    unacked = redis.Redis.from_url(url).hvals("unacked")
    assert sum(b"tournaments.tasks.table_finished" in message for message in unacked) == 1
    with capsys.disabled():
        print(f"\nkilled worker: round seated {took:.1f} s after the kill")


@pytest.fixture
def own_broker(own_redis):
    """A broker of the test's own (a redis-server on a free port, so no other test run shares
    its queue), and a way to send a task to it."""
    from kombu import Producer

    from config.celery import app

    conn = app.connection_for_write(own_redis.url)
    producer = Producer(conn)

    def send(name, *args):
        app.send_task(name, args=list(args), producer=producer)

    yield own_redis.url, send
    conn.release()


def test_a_turn_timer_lost_with_the_broker_fires_and_the_chain_goes_on(
    organiser, own_redis, celery, quiet_tables, capsys
):
    table = clock_cup(organiser, turn_seconds=5)
    state = game_services.load_game(game_id=table.game_id)
    seat, command = next_bot_move(state, frozenset(range(state.players)), str(table.game_id))
    celery("worker", "worker", broker=own_redis.url)
    celery("beat", "beat", broker=own_redis.url)
    time.sleep(3)

    own_redis.stop()
    secret = Seat.objects.get(game_id=table.game_id, seat=seat).secret
    web = subprocess.run(
        [
            *(sys.executable, "-c", SEND_COMMAND, str(table.game_id), secret),
            json.dumps(command.to_dict()),
        ],
        cwd=ROOT,
        env={
            **os.environ,
            "DATABASE_URL": database_url(),
            "CELERY_BROKER_URL": own_redis.url,
            "SECURE_SSL_REDIRECT": "0",
        },
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert "STATUS 201" in web.stdout, web.stdout + web.stderr
    assert "could not enqueue the turn timer" in web.stderr
    version = game_services.load_game(game_id=table.game_id).version

    own_redis.start()
    back = time.monotonic()

    def system_batches():
        rows = game_services.replay_events(game_id=table.game_id, after=version)
        return len({row.batch for row in rows if row.actor == "system"})

    # The lost timer fires (the sweep), then the next ones follow from the appends it makes.
    wait_for(lambda: system_batches() >= 1, timeout=5 + RECONNECT + SWEEP + 10, what="the timer")
    took = time.monotonic() - back
    wait_for(lambda: system_batches() >= 2, timeout=2 * (5 + SWEEP) + 10, what="the next timer")
    with capsys.disabled():
        print(f"\nlost turn timer: fired {took:.1f} s after Redis was back (turn time 5 s)")
