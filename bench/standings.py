"""Standings at club scale: a season of 2,000 games and about 40,000 hands.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/unoclub_dev .venv/bin/python bench/standings.py
    [--games 2000] [--requests 200] [--keep] [--json]

Runs in a database of its own next to DATABASE_URL's, ``<name>_standings_bench`` (never the
test suite's ``test_<name>`` or another bench's, which someone may be using), created and
dropped, or kept with ``--keep`` and reused when it already holds the season. It measures:

- **rebuild**: ``games.rebuild.rebuild`` of the standings projection (results, night rows,
  standing rows, ratings) from the whole log, in events read per second (the median and the
  best of three rebuilds; also per second of this process's CPU time, as on a busy machine the
  wall clock counts waiting for a CPU too, and the load average is printed); the full
  ``rebuild_projections`` (every projector, the table views too) is measured as well.
- **standings API**: ``GET /api/seasons/{id}/standings/`` (and ``.csv``) through Django's test
  client, median and 95th percentile over ``--requests`` requests.
- **a hand through the services**: ``tournaments.leagues.services.record_hand`` on a season
  game, so the cost of the projection on the write path is visible.

The season is written the fast way: each game is decided by the engine (``new_game`` and
``step`` with score-sheet hands, players of different strength so ratings spread), and its
events are inserted with the store's own hash chain (``store.row_hash``) and batches, one
batch per hand, as the services would append them; ``verify_events`` accepts the log. Playing
40,000 hands through the services one transaction at a time would take many minutes and
measure the store, not the standings. Targets (issue 5): median standings answer under 50 ms,
rebuild at least 50,000 events per second.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# Run as a script, bench/ comes first on the path, where bench/http.py would stand in for the
# standard library's http package: take the folder off, put the project on.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402
from django.utils import timezone  # noqa: E402

from games import rebuild, store  # noqa: E402
from games.models import Event, Game, Seat  # noqa: E402
from rules import command_from_dict, new_game, step  # noqa: E402
from tournaments.leagues import services  # noqa: E402
from tournaments.leagues.models import Season, SeasonGame, SeasonSeat  # noqa: E402
from tournaments.leagues.projections import standings_projector  # noqa: E402

LEAGUE = "Bench Club"
PLAYERS = 40
GAMES_PER_NIGHT = 50
TARGET = 500
MAX_POINTS = 45  # points left in a hand: 0..44, so a game to 500 lasts about 20 hands


def build_season(games: int, seed: int = 2026) -> Season:
    """A season of ``games`` score-sheet games, their events inserted as the store would."""
    organiser = get_user_model().objects.create_user("bench-organiser")
    league = services.open_league(name=LEAGUE, created_by=organiser)
    season = services.open_season(league=league, name="Season 1", by=organiser)
    players = [
        services.register_player(league=league, name=f"Player {i:02}") for i in range(PLAYERS)
    ]
    strength = {p.pk: 0.5 + random.Random(p.name).random() for p in players}
    rng = random.Random(seed)
    nights = {}
    hands = 0
    started = time.perf_counter()
    for first in range(0, games, 200):
        with transaction.atomic():
            chunk_games, chunk_seats, chunk_season, chunk_season_seats, chunk_events = (
                [],
                [],
                [],
                [],
                [],
            )
            for i in range(first, min(first + 200, games)):
                number = i // GAMES_PER_NIGHT + 1
                if number not in nights:
                    nights[number] = services.open_night(season=season)
                table = rng.sample(players, rng.choice([3, 4, 4, 5]))
                game = Game(
                    variant="classic",
                    scoring="standard",
                    target=TARGET,
                    sheet=True,
                    season_id=season.pk,
                    created_by=organiser,
                    status=Game.Status.FINISHED,
                )
                state, start = new_game(
                    players=len(table), target=TARGET, seed=f"bench:{i}", sheet=True
                )
                batches = [(start, f"user:{organiser.pk}")]
                weights = [strength[p.pk] for p in table]
                while not state.finished:
                    out = rng.choices(range(len(table)), weights=weights)[0]
                    points = {
                        str(s): rng.randrange(MAX_POINTS) for s in range(len(table)) if s != out
                    }
                    command = command_from_dict(
                        None, {"type": "record_hand", "out": out, "points": points}
                    )
                    state, events = step(state, command)
                    batches.append((events, f"user:{organiser.pk}"))
                    hands += 1
                game.version = state.version
                chunk_games.append(game)
                chunk_seats += [Seat(game=game, seat=s, player=p.name) for s, p in enumerate(table)]
                season_game = SeasonGame(game=game, season=season, night=nights[number])
                chunk_season.append(season_game)
                chunk_season_seats += [
                    SeasonSeat(season_game=season_game, seat=s, player=p)
                    for s, p in enumerate(table)
                ]
                chunk_events += _event_rows(game, batches)
            Game.objects.bulk_create(chunk_games)
            Seat.objects.bulk_create(chunk_seats)
            SeasonGame.objects.bulk_create(chunk_season)
            SeasonSeat.objects.bulk_create(chunk_season_seats)
            Event.objects.bulk_create(chunk_events, batch_size=5000)
        print(
            f"\r  built {min(first + 200, games)}/{games} games, {hands} hands "
            f"({time.perf_counter() - started:.0f} s)",
            end="",
            file=sys.stderr,
        )
    print(file=sys.stderr)
    return season


def _event_rows(game: Game, batches: list) -> list[Event]:
    rows = []
    prev = store.GENESIS
    version = 0
    now = timezone.now()
    for events, actor in batches:
        batch = version + 1
        for event in events:
            version += 1
            row = Event(
                game=game,
                version=version,
                batch=batch,
                type=event.type,
                data=store.stored_data(event),
                actor=actor,
                key=None,
                recorded_at=now,
                prev_hash=prev,
            )
            row.hash = prev = store.row_hash(row)
            rows.append(row)
    return rows


def timed(fn, *args, **kwargs):
    started = time.perf_counter()
    result = fn(*args, **kwargs)
    return result, time.perf_counter() - started


def rebuilds(projectors, runs: int = 3) -> dict[str, float]:
    """The median of ``runs`` rebuilds: wall seconds, and this process's CPU seconds (on a
    busy machine the wall clock also counts waiting for a CPU, and for PostgreSQL)."""
    walls, cpus = [], []
    for _ in range(runs):
        cpu = time.process_time()
        count, wall = timed(rebuild.rebuild, projectors)
        walls.append(wall)
        cpus.append(time.process_time() - cpu)
    wall, cpu = statistics.median(walls), statistics.median(cpus)
    return {"events": count, "wall": wall, "best": min(walls), "cpu": cpu}


def latencies(client: Client, url: str, requests: int) -> dict[str, float]:
    for _ in range(5):  # warm up: the first requests build caches (URLs, serializers)
        assert client.get(url).status_code == 200
    samples = []
    for _ in range(requests):
        started = time.perf_counter()
        response = client.get(url)
        samples.append((time.perf_counter() - started) * 1000)
        assert response.status_code == 200
    samples.sort()
    return {
        "median_ms": round(statistics.median(samples), 2),
        "p95_ms": round(samples[int(len(samples) * 0.95) - 1], 2),
        "requests": requests,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--keep", action="store_true", help="keep (and reuse) the bench database")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    if connection.vendor != "postgresql":
        parser.error("set DATABASE_URL to PostgreSQL (the bench runs in <name>_standings_bench)")

    setup_test_environment()
    connection.settings_dict["TEST"]["NAME"] = f"{connection.settings_dict['NAME']}_standings_bench"
    creation = connection.creation
    name = creation.create_test_db(verbosity=0, autoclobber=True, keepdb=args.keep)
    try:
        season = Season.objects.filter(league__name=LEAGUE).first()
        if season is None:
            print(f"building a season of {args.games} games in {name} ...", file=sys.stderr)
            season = build_season(args.games)
        figures = run(season, args)
    finally:
        if not args.keep:
            creation.destroy_test_db(name, verbosity=0)
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        for key, value in figures.items():
            print(f"{key:>24}: {value}")
    ok = figures["standings_median_ms"] < 50 and figures["rebuild_events_per_s"] >= 50_000
    return 0 if ok else 1


def run(season: Season, args: argparse.Namespace) -> dict:
    games = SeasonGame.objects.filter(season=season).count()
    events = Event.objects.count()
    hands = Event.objects.filter(type="hand_recorded").count()

    standings = rebuilds([standings_projector])
    everything = rebuilds(None)

    client = Client()
    api = latencies(client, f"/api/seasons/{season.pk}/standings/", args.requests)
    csv = latencies(client, f"/api/seasons/{season.pk}/standings.csv", args.requests // 4)
    rows = len(client.get(f"/api/seasons/{season.pk}/standings/").json()["rows"])

    # A few hands through the services (the projection included), on a game of a season of
    # its own, so a kept database's bench season stays as built.
    organiser = get_user_model().objects.get(username="bench-organiser")
    players = list(season.league.players.all()[:4])
    writes, _ = Season.objects.get_or_create(league=season.league, name="Write path")
    game = services.start_season_game(
        season=writes, players=players, created_by=organiser, sheet=True, target=10**6
    )
    samples = []
    for i in range(50):
        out = i % 4
        points = {str(s): 10 for s in range(4) if s != out}
        _, took = timed(
            services.record_hand, game_id=game.pk, out=out, points=points, actor="user:0"
        )
        samples.append(took * 1000)

    return {
        "games": games,
        "hands": hands,
        "events": events,
        "players": rows,
        "rebuild_events": standings["events"],
        "rebuild_seconds": round(standings["wall"], 2),
        "rebuild_events_per_s": round(standings["events"] / standings["wall"]),
        "rebuild_best_events_per_s": round(standings["events"] / standings["best"]),
        "rebuild_cpu_seconds": round(standings["cpu"], 2),
        "rebuild_events_per_cpu_s": round(standings["events"] / standings["cpu"]),
        "rebuild_all_seconds": round(everything["wall"], 2),
        "rebuild_all_events_per_s": round(everything["events"] / everything["wall"]),
        "standings_median_ms": api["median_ms"],
        "standings_p95_ms": api["p95_ms"],
        "standings_csv_median_ms": csv["median_ms"],
        "record_hand_median_ms": round(statistics.median(samples), 2),
        "load_average": round(os.getloadavg()[0], 2),
        "cpus": os.cpu_count(),
    }


if __name__ == "__main__":
    sys.exit(main())
