"""Tournament advancement through a REAL Redis broker and REAL Celery workers: the last two
tables of a round reported at the same moment (and each twice) seat the next round exactly once,
and a worker killed in the middle of seating leaves nothing behind, the retry seating it whole.

The workers are ``celery -A config worker -P solo`` subprocesses pointed at this test run's
PostgreSQL database (the test database's name, passed in DATABASE_URL) and at Redis database 15,
so they see what the test commits (``transaction=True``). The worker to be killed runs through
``seating_pause_worker.py``, which hooks a pause into the seating from outside (the service
has no test hook). Redis must be up: CI starts it (.ci/run); here a missing Redis fails the
test rather than skipping it.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path
from urllib.parse import quote

import pytest
import redis
from django.db import connection
from kombu import Producer

from config.celery import app
from games import registry
from games.models import Game
from tournaments.brackets import listeners
from tournaments.brackets.models import Round, Table

from .support import cup_of_eight, play_game

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

BROKER = os.environ.get("TOURNAMENTS_TEST_BROKER", "redis://127.0.0.1:6379/15")
ROOT = Path(__file__).resolve().parents[3]
VISIBILITY = 3  # seconds before Redis hands a dead worker's message to another worker
# A worker that sleeps in the middle of seating a round, after its first table is written.
PAUSING_WORKER = "tests.tournaments.brackets.seating_pause_worker"


@pytest.fixture
def broker():
    client = redis.Redis.from_url(BROKER)
    client.ping()  # no Redis: fail loudly (CI starts it)
    client.flushdb()
    # The project's app, sending over a connection to this broker (its own broker may be
    # another: CELERY_BROKER_URL in the environment wins over any app's setting).
    connection = app.connection_for_write(BROKER)
    producer = Producer(connection)

    def send(name, *args):
        app.send_task(name, args=list(args), producer=producer)

    yield client, send
    connection.release()
    client.flushdb()


@pytest.fixture
def quiet_tables(monkeypatch):
    """Games end without the listener enqueueing anything: the test sends the tasks itself."""
    monkeypatch.setattr(
        registry,
        "on_game_event",
        [f for f in registry.on_game_event if f is not listeners.after_append],
    )


def database_url() -> str:
    db = connection.settings_dict
    auth = quote(db["USER"] or "")
    if db.get("PASSWORD"):
        auth += ":" + quote(db["PASSWORD"])
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


@pytest.fixture
def workers(processes):
    def start(name: str, *, module: str = "celery", **extra: str):
        """A worker named ``name``: Celery's own, or ``module``'s (a wrapper that starts it)."""
        env = {
            **os.environ,
            "DATABASE_URL": database_url(),
            "CELERY_BROKER_URL": BROKER,
            "CELERY_VISIBILITY_TIMEOUT": str(VISIBILITY),
            "DATABASE_CONN_MAX_AGE": "0",
            **extra,
        }
        command = [
            sys.executable,
            "-m",
            *([module, "-A", "config"] if module == "celery" else [module]),
            *("worker", "-P", "solo", "--loglevel=warning", "-n", f"{name}@%h"),
            *("--without-gossip", "--without-mingle", "--without-heartbeat"),
        ]
        return processes.start(name, command, env, ROOT)

    return start


def wait_for(check, timeout=60.0, what="the workers"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


def drained(client) -> bool:
    return client.llen("celery") == 0 and client.hlen("unacked") == 0


def first_round_played(organiser):
    """An elimination of eight at tables of four (two tables, then a final table), with both
    first-round games played to the end."""
    tournament = cup_of_eight(organiser, "Worker Cup")
    tables = list(Table.objects.filter(round__tournament=tournament).order_by("number"))
    assert len(tables) == 2
    for table in tables:
        play_game(table.game_id)
    return tournament, tables


def test_the_last_two_tables_at_once_seat_the_next_round_exactly_once(
    organiser, broker, workers, quiet_tables
):
    client, send = broker
    tournament, tables = first_round_played(organiser)
    games_before = Game.objects.count()
    workers("one")
    workers("two")
    for _ in range(2):  # each table reported twice: duplicates and a race
        for table in tables:
            send("tournaments.tasks.table_finished", str(table.game_id))
    wait_for(lambda: Round.objects.filter(tournament=tournament, number=2).exists())
    wait_for(lambda: drained(client), what="the queue to drain")
    time.sleep(1)
    assert Round.objects.filter(tournament=tournament).count() == 2
    final = Round.objects.get(tournament=tournament, number=2)
    assert final.kind == "final"
    assert final.tables.count() == 1
    assert Game.objects.count() == games_before + 1
    assert all(
        t.status == "finished"
        for t in Table.objects.filter(round__number=1, round__tournament=tournament)
    )


def test_a_worker_killed_while_seating_leaves_nothing_and_the_retry_seats_the_round(
    organiser, broker, workers, quiet_tables, tmp_path
):
    client, send = broker
    tournament, tables = first_round_played(organiser)
    games_before = Game.objects.count()
    marker = tmp_path / "seating"
    doomed = workers(
        "doomed",
        module=PAUSING_WORKER,
        SEATING_PAUSE_SECONDS="60",
        SEATING_PAUSE_MARKER=str(marker),
    )
    send("tournaments.tasks.table_finished", str(tables[-1].game_id))
    wait_for(marker.exists, what="the worker to be in the middle of seating")
    killed_at = time.monotonic()
    doomed.send_signal(signal.SIGKILL)
    doomed.wait(10)

    # The dying transaction had seated the round (and recorded the table): none of it stayed.
    wait_for(lambda: not _locks_held(), what="PostgreSQL to roll the dead worker back")
    assert Round.objects.filter(tournament=tournament).count() == 1
    assert Game.objects.count() == games_before
    assert client.hlen("unacked") == 1  # taken, never acknowledged

    # Once the message is visible again, a new worker runs the task again and it finishes.
    time.sleep(max(0.0, VISIBILITY + 0.5 - (time.monotonic() - killed_at)))
    workers("rescuer")
    wait_for(lambda: Round.objects.filter(tournament=tournament, number=2).exists())
    wait_for(lambda: drained(client), what="the queue to drain")
    assert Round.objects.filter(tournament=tournament).count() == 2
    assert Round.objects.get(tournament=tournament, number=2).tables.count() == 1
    assert Game.objects.count() == games_before + 1
    assert set(
        Table.objects.filter(round__number=1, round__tournament=tournament).values_list(
            "status", flat=True
        )
    ) == {"finished"}


def _locks_held() -> bool:
    """Whether another session still holds a transaction open on this database."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND pid <> pg_backend_pid() AND state LIKE 'idle in transaction%%'"
        )
        return cursor.fetchone()[0] > 0
