"""Benchmark of the event store against PostgreSQL, beside the `eventsourcing` library's.

Measures, in one run, on a scratch database it creates next to DATABASE_URL's (and drops):
  - commands per second through games.services.apply_command (the API's path: a key and an
    expected version on every command), with one writer and with four writer processes, each
    on its own game;
  - the time to load a 300-event and a 2,000-event game, with the snapshot policy and cold
    (every event folded, no snapshot);
  - eventsourcing 9.5 on the same PostgreSQL: events per second appending one event per
    transaction with one writer, and the time to rebuild a 300-event aggregate.
Prints a table and the figures as JSON. See bench/README.md for how to run it.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import platform
import statistics
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
# Run as a script, bench/ comes first on the path, where bench/http.py would stand in for the
# standard library's http package: take the folder off, put the project on.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
sys.path.insert(0, str(ROOT))


def scratch_url(url: str, suffix: str = "_bench") -> tuple[str, str]:
    """DATABASE_URL pointed at a scratch database beside it, and that database's name."""
    parts = urlsplit(url)
    name = parts.path.lstrip("/") + suffix
    return urlunsplit(parts._replace(path="/" + name)), name


def admin_sql(url: str, *statements: str) -> None:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        for statement in statements:
            conn.execute(statement)


def setup_django(url: str) -> None:
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    import django

    django.setup()


# Our store ---------------------------------------------------------------------------------


def new_game(seed: str, players: int = 4):
    from games import services

    names = [f"P{i}" for i in range(players)]
    # A target no game reaches, so a game goes on for as many events as a run needs.
    return services.create_game(
        variant="classic", players=names, scoring="standard", target=1_000_000, seed=seed
    )


def drive(game, seconds: float | None = None, commands: int | None = None, *, label: str = "w"):
    """Send the waiting seat's first legal command, as the API would (key, expected version),
    following the state from the events appended. Returns (commands, events, busy seconds)."""
    from games import services, store
    from rules import legal_commands
    from rules.engine import replay

    state, version = store.load(game.pk)
    sent = events = 0
    busy = 0.0
    deadline = time.perf_counter() + seconds if seconds else None
    while (commands is None or sent < commands) and (
        deadline is None or time.perf_counter() < deadline
    ):
        seat = state.pending[1]
        command = legal_commands(state, seat)[0]
        started = time.perf_counter()
        result = services.apply_command(
            game_id=game.pk,
            command=command,
            actor=f"seat:{seat}",
            expected_version=version,
            key=f"{label}-{sent}",
        )
        busy += time.perf_counter() - started
        state = replay([row.to_rules_event() for row in result.events], state)
        version = result.version
        sent += 1
        events += len(result.events)
    return sent, events, busy


def _writer_process(url: str, seed: str, seconds: float, queue, go, bare: bool) -> None:
    setup_django(url)
    if bare:
        # The store alone: without the hooks other apps register (bots, standings).
        from games import projections, registry

        registry.on_game_event.clear()
        projections._projectors[:] = [projections.table_views]
    game = new_game(seed)
    queue.put("ready")
    go.wait()
    started = time.perf_counter()
    sent, events, _ = drive(game, seconds=seconds, label=seed)
    queue.put((sent, events, time.perf_counter() - started))


def bench_writers(url: str, writers: int, seconds: float, bare: bool = False) -> dict:
    """``writers`` processes, each with its own connection and game, started together."""
    from django.db import connections

    connections.close_all()  # a forked child must not share the parent's connection
    ctx = multiprocessing.get_context("fork")
    queue, go = ctx.Queue(), ctx.Event()
    procs = [
        ctx.Process(target=_writer_process, args=(url, f"writer-{i}", seconds, queue, go, bare))
        for i in range(writers)
    ]
    for proc in procs:
        proc.start()
    for _ in procs:
        assert queue.get(timeout=120) == "ready"
    wall = time.perf_counter()
    go.set()
    results = [queue.get(timeout=seconds + 120) for _ in procs]
    wall = time.perf_counter() - wall
    for proc in procs:
        proc.join()
    commands = sum(r[0] for r in results)
    events = sum(r[1] for r in results)
    return {
        "writers": writers,
        "commands": commands,
        "events": events,
        "seconds": round(wall, 2),
        "commands_per_second": round(commands / wall, 1),
        "events_per_second": round(events / wall, 1),
    }


def game_of(events: int, seed: str):
    game = new_game(seed, players=3)
    grow(game, lambda version: version >= events)
    return game


def grow(game, done) -> int:
    """Play ``game`` on until ``done(version)``; returns the version."""
    from games import services, store
    from rules import legal_commands

    while True:
        state, version = store.load(game.pk)
        if done(version):
            return version
        seat = state.pending[1]
        services.apply_command(
            game_id=game.pk, command=legal_commands(state, seat)[0], actor=f"seat:{seat}"
        )


def timed(fn, repeat: int) -> dict:
    fn()  # warm up
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return {
        "median_ms": round(statistics.median(times) * 1000, 3),
        "min_ms": round(min(times) * 1000, 3),
        "runs": repeat,
    }


def bench_loads(size: int, repeat: int) -> dict:
    """Loading a game of ``size`` events: as the snapshot policy left it, cold (no snapshot),
    and at the policy's worst (90 or more events after the newest snapshot)."""
    from games import store
    from games.models import Snapshot
    from rules import GameState

    def newest_snapshot(game) -> int:
        return (
            Snapshot.objects.filter(game=game)
            .order_by("-version")
            .values_list("version", flat=True)[0]
        )

    def cold(game):
        # What load does without any snapshot: every event from the log, folded.
        return lambda: store.fold(game.pk, GameState(), store.events_between(game.pk, 0))

    game = game_of(size, seed=f"load-{size}")
    version = store.load(game.pk)[1]
    assert cold(game)() == store.load(game.pk)[0]
    figures = {
        "events": version,
        "newest_snapshot": newest_snapshot(game),
        "with_snapshots": timed(lambda: store.load(game.pk), repeat),
        "cold": timed(cold(game), max(5, repeat // 5)),
    }
    # The same game played on to 90+ events past its newest snapshot: the most a load folds.
    worst = grow(game, lambda v: v - newest_snapshot(game) >= 90)
    figures["worst_case"] = {
        "events": worst,
        "newest_snapshot": newest_snapshot(game),
        **timed(lambda: store.load(game.pk), repeat),
    }
    return figures


# eventsourcing -----------------------------------------------------------------------------


class EventsourcingBench:
    """The `eventsourcing` library on the same PostgreSQL: an aggregate whose events are a
    seat and a card, saved one event per transaction (what its POSTGRES persistence does)."""

    def __init__(self, dbname: str) -> None:
        from eventsourcing.application import Application
        from eventsourcing.domain import Aggregate, event

        class Table(Aggregate):
            @event("Created")
            def __init__(self) -> None:
                self.plays: list[tuple[int, str]] = []

            @event("CardPlayed")
            def play(self, seat: int, card: str) -> None:
                self.plays.append((seat, card))

        parts = urlsplit(os.environ["DATABASE_URL"])
        self.env = {
            "PERSISTENCE_MODULE": "eventsourcing.postgres",
            "POSTGRES_DBNAME": dbname,
            "POSTGRES_HOST": parts.hostname or "127.0.0.1",
            "POSTGRES_PORT": str(parts.port or 5432),
            "POSTGRES_USER": parts.username or "postgres",
            "POSTGRES_PASSWORD": parts.password or "",
        }
        self.app = Application(env=self.env)
        self.Table = Table
        self.table = Table()
        self.app.save(self.table)

    def append_for(self, seconds: float) -> dict:
        """One writer appending one event per transaction for ``seconds``."""
        appends = 0
        started = time.perf_counter()
        deadline = started + seconds
        while time.perf_counter() < deadline:
            self.table.play(appends % 4, "R7")
            self.app.save(self.table)
            appends += 1
        elapsed = time.perf_counter() - started
        return {
            "appends": appends,
            "seconds": round(elapsed, 2),
            "events_per_second": round(appends / elapsed, 1),
        }

    def rebuild_300(self, repeat: int) -> dict:
        """Rebuild a 300-event aggregate (created + 299 plays) from its events."""
        big = self.Table()
        for i in range(299):
            big.play(i % 4, "R7")
        self.app.save(big)
        rebuilt = self.app.repository.get(big.id)
        assert len(rebuilt.plays) == 299 and rebuilt.version == 300
        return timed(lambda: self.app.repository.get(big.id), repeat)

    def close(self) -> None:
        self.app.close()


def _version(package: str) -> str:
    from importlib.metadata import version

    return version(package)


# The run -----------------------------------------------------------------------------------


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=8.0, help="duration of each write run")
    parser.add_argument("--rounds", type=int, default=3, help="alternating write rounds")
    parser.add_argument("--repeat", type=int, default=50, help="timed repetitions of a load")
    parser.add_argument("--keep", action="store_true", help="keep the scratch database")
    args = parser.parse_args()

    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        print("bench/store.py: set DATABASE_URL to a PostgreSQL database", file=sys.stderr)
        return 2
    bench_url, dbname = scratch_url(url)
    admin_sql(url, f'DROP DATABASE IF EXISTS "{dbname}"', f'CREATE DATABASE "{dbname}"')
    try:
        setup_django(bench_url)
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        figures = {
            "machine": {
                "python": platform.python_version(),
                "cpus": os.cpu_count(),
                "load_average_at_start": [round(x, 2) for x in os.getloadavg()],
            },
            "eventsourcing": {"version": _version("eventsourcing")},
        }
        es = EventsourcingBench(dbname)
        # The write runs alternate, ours and theirs, so a machine that is busier at one moment
        # than another weighs on both; each is reported as the median of its rounds.
        rounds = []
        for _ in range(args.rounds):
            ours_one = bench_writers(bench_url, 1, args.seconds)
            theirs = es.append_for(args.seconds)
            rounds.append({"ours_one_writer": ours_one, "eventsourcing_one_writer": theirs})
            print(
                f"round {len(rounds)}: ours {ours_one['commands_per_second']:.0f} commands/s, "
                f"eventsourcing {theirs['events_per_second']:.0f} events/s",
                file=sys.stderr,
            )
        four = bench_writers(bench_url, 4, args.seconds)
        bare = bench_writers(bench_url, 1, args.seconds, bare=True)
        figures["rounds"] = rounds
        figures["ours"] = {
            "one_writer_commands_per_second": statistics.median(
                r["ours_one_writer"]["commands_per_second"] for r in rounds
            ),
            "one_writer_events_per_second": statistics.median(
                r["ours_one_writer"]["events_per_second"] for r in rounds
            ),
            "four_writers": four,
            "one_writer_store_only": bare,
            "load_300": bench_loads(300, args.repeat),
            "load_2000": bench_loads(2000, args.repeat),
        }
        figures["eventsourcing"].update(
            {
                "one_writer_events_per_second": statistics.median(
                    r["eventsourcing_one_writer"]["events_per_second"] for r in rounds
                ),
                "rebuild_300": es.rebuild_300(args.repeat),
            }
        )
        es.close()
        figures["machine"]["load_average_at_end"] = [round(x, 2) for x in os.getloadavg()]
    finally:
        from django.db import connections

        connections.close_all()
        if not args.keep:
            admin_sql(url, f'DROP DATABASE IF EXISTS "{dbname}" WITH (FORCE)')
    report(figures)
    return 0


def report(f: dict) -> None:
    ours, es = f["ours"], f["eventsourcing"]
    four, bare = ours["four_writers"], ours["one_writer_store_only"]
    rows = [
        (
            "ours: commands/s, 1 writer",
            f"{ours['one_writer_commands_per_second']:.0f}",
            f"{ours['one_writer_events_per_second']:.0f} events/s; median of {len(f['rounds'])}",
        ),
        (
            "ours: commands/s, 4 writers",
            f"{four['commands_per_second']:.0f}",
            f"{four['events_per_second']:.0f} events/s; 4 processes, 4 games",
        ),
        (
            "ours: commands/s, 1 writer, store only",
            f"{bare['commands_per_second']:.0f}",
            f"{bare['events_per_second']:.0f} events/s; no other app's hooks",
        ),
        (
            "eventsourcing: appends/s, 1 writer",
            f"{es['one_writer_events_per_second']:.0f}",
            f"1 event per transaction; median of {len(f['rounds'])}",
        ),
    ]
    for size in ("300", "2000"):
        load = ours[f"load_{size}"]
        worst = load["worst_case"]
        rows += [
            (
                f"ours: load {load['events']} events",
                f"{load['with_snapshots']['median_ms']:.2f} ms",
                f"snapshot at v{load['newest_snapshot']}",
            ),
            (
                f"ours: load {worst['events']} events, worst case",
                f"{worst['median_ms']:.2f} ms",
                f"{worst['events'] - worst['newest_snapshot']} events after the snapshot",
            ),
            (
                f"ours: load {load['events']} events cold",
                f"{load['cold']['median_ms']:.2f} ms",
                "no snapshot: every event folded",
            ),
        ]
    rows.append(
        (
            "eventsourcing: rebuild 300 events",
            f"{es['rebuild_300']['median_ms']:.2f} ms",
            f"eventsourcing {es['version']}",
        )
    )
    width = max(len(r[0]) for r in rows)
    print()
    print(f"{'measure'.ljust(width)}  {'figure':>10}  note")
    print(f"{'-' * width}  {'-' * 10}  {'-' * 30}")
    for name, figure, note in rows:
        print(f"{name.ljust(width)}  {figure:>10}  {note}")
    rate = ours["one_writer_commands_per_second"] / es["one_writer_events_per_second"]
    load = es["rebuild_300"]["median_ms"] / ours["load_300"]["worst_case"]["median_ms"]
    print()
    print(f"our command rate / eventsourcing's append rate: {rate:.2f}x (target >= 1)")
    print(
        f"eventsourcing's 300-event rebuild / our worst 300-event load: {load:.2f}x (target >= 2)"
    )
    print()
    print(json.dumps(f, indent=2))


if __name__ == "__main__":
    sys.exit(main())
