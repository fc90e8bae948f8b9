"""Benchmark of the HTTP path against the store under it, in one run.

On a scratch database beside DATABASE_URL's (created, migrated and dropped), it measures:
  - the store-only command rate: games.services.apply_command in this process, one writer, as
    bench/store.py does;
  - the HTTP command rate and latencies through gunicorn (config.gunicorn, production settings,
    rate limits off), with 1 and with 8 concurrent clients, each client playing its own game
    as a bot does: GET the game as the waiting seat, POST the first legal command;
  - the median and 99th percentile of a seat's GET of the game and of a command;
and prints the ratio HTTP/store (one client). See bench/README.md.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/unoclub_dev .venv/bin/python bench/http.py
"""

from __future__ import annotations

import sys
from pathlib import Path

# Run as a script, this file's folder comes first on the path, and this file would stand in for
# the standard library's http package: take the folder off, put the project on.
ROOT = Path(__file__).resolve().parent.parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
sys.path.insert(0, str(ROOT))

import argparse  # noqa: E402
import http.client  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import socket  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402

from bench.store import admin_sql, drive, new_game, scratch_url, setup_django  # noqa: E402

KEY = "ab" * 32  # the scratch database's chain signing key


def server_env(url: str) -> dict[str, str]:
    """Production settings on plain HTTP, rate limits off, quiet logs."""
    return {
        **{k: v for k, v in os.environ.items() if not k.startswith(("THROTTLE_", "CELERY_"))},
        "DATABASE_URL": url,
        "DJANGO_ENV": "production",
        "SECRET_KEY": "bench-only-secret",
        "ALLOWED_HOSTS": "127.0.0.1",
        "CHAIN_SIGNING_KEY": KEY,
        "SECURE_SSL_REDIRECT": "0",
        "SECURE_HSTS_SECONDS": "0",
        "SESSION_COOKIE_SECURE": "0",
        "CSRF_COOKIE_SECURE": "0",
        "SECURE_PROXY_SSL_HEADER": "off",
        "LOG_LEVEL": "WARNING",
        **{f"THROTTLE_{s}": "off" for s in ("TOKEN", "SEAT", "COMMANDS", "SEAT_FAILURES")},
    }


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_gunicorn(env: dict[str, str], workers: int) -> tuple[subprocess.Popen, int]:
    port = free_port()
    gunicorn = Path(sys.executable).with_name("gunicorn")
    proc = subprocess.Popen(
        [
            str(gunicorn),
            *("-c", "python:config.gunicorn", "config.wsgi"),
            *("--bind", f"127.0.0.1:{port}", "--workers", str(workers)),
            *("--access-logfile", "/dev/null"),
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    for _ in range(200):
        try:
            status, _ = request(port, "GET", "/healthz")
            if status == 200:
                return proc, port
        except OSError:
            time.sleep(0.05)
    proc.kill()
    raise SystemExit("gunicorn did not start: " + proc.stderr.read().decode()[-2000:])


def request(port: int, method: str, path: str, body=None, auth=None) -> tuple[int, bytes]:
    """One request on its own connection (gunicorn's sync workers close each one)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    headers = {"Authorization": auth} if auth else {}
    payload = None
    if body is not None:
        payload = json.dumps(body)
        headers["Content-Type"] = "application/json"
    conn.request(method, path, body=payload, headers=headers)
    response = conn.getresponse()
    data = response.read()
    conn.close()
    return response.status, data


def seat_secrets(game) -> list[str]:
    return [f"Seat {s.secret}" for s in game.seats.order_by("seat")]


def client(port: int, game_id: str, secrets: list[str], seconds: float, out: dict, go) -> None:
    """A bot at one table: GET as the waiting seat, POST its first legal command."""
    gets, posts = [], []
    seat = None
    path = f"/api/games/{game_id}/"
    go.wait()
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        if seat is None:
            status, data = request(port, "GET", path, auth=secrets[0])
            seat = json.loads(data)["pending"]["seat"]
        started = time.perf_counter()
        status, data = request(port, "GET", path, auth=secrets[seat])
        gets.append(time.perf_counter() - started)
        view = json.loads(data)
        if status != 200 or view["pending"]["seat"] != seat or not view["legal"]:
            seat = None  # the game moved on for someone else (a catch window): look again
            continue
        command = {**view["legal"][0], "expected_version": view["version"]}
        started = time.perf_counter()
        status, data = request(port, "POST", path + "commands/", command, auth=secrets[seat])
        posts.append(time.perf_counter() - started)
        if status != 201:
            out.setdefault("errors", []).append((status, data[:200]))
        seat = None
    out["gets"], out["posts"] = gets, posts


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def bench_http(port: int, games: list, seconds: float) -> dict:
    outs = [{} for _ in games]
    go = threading.Event()
    threads = [
        threading.Thread(target=client, args=(port, str(g.pk), seat_secrets(g), seconds, out, go))
        for g, out in zip(games, outs, strict=True)
    ]
    for thread in threads:
        thread.start()
    started = time.perf_counter()
    go.set()
    for thread in threads:
        thread.join()
    wall = time.perf_counter() - started
    gets = [t for out in outs for t in out["gets"]]
    posts = [t for out in outs for t in out["posts"]]
    errors = [e for out in outs for e in out.get("errors", [])]
    ms = 1000
    return {
        "clients": len(games),
        "commands": len(posts),
        # Commands a second of the clients together, their GETs between commands included.
        "commands_per_second": round(len(posts) / wall, 1),
        # Commands a second one client gets from the POSTs alone (their time, back to back):
        # what compares with the store-only rate, which has no GET either.
        "post_commands_per_second": round(len(posts) / sum(posts), 1),
        "get_median_ms": round(statistics.median(gets) * ms, 2),
        "get_p99_ms": round(percentile(gets, 99) * ms, 2),
        "command_median_ms": round(statistics.median(posts) * ms, 2),
        "command_p99_ms": round(percentile(posts, 99) * ms, 2),
        "errors": len(errors),
        "first_errors": [f"{s} {b!r}" for s, b in errors[:3]],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=8.0, help="duration of each run")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    parser.add_argument("--keep", action="store_true", help="keep the scratch database")
    args = parser.parse_args()
    base = os.environ.get("DATABASE_URL")
    if not base:
        raise SystemExit("DATABASE_URL must point at PostgreSQL (a scratch database is made)")
    url, name = scratch_url(base, "_http_bench")
    admin_sql(base, f'DROP DATABASE IF EXISTS "{name}"', f'CREATE DATABASE "{name}"')
    env = server_env(url)
    try:
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True
        )
        os.environ.update(env)
        setup_django(url)

        store_game = new_game("http-bench-store")
        drive(store_game, commands=200, label="warm")
        sent, _, busy = drive(store_game, seconds=args.seconds, label="store")
        store_rate = sent / busy

        games = [new_game(f"http-bench-{i}") for i in range(8)]
        from django.db import connections

        connections.close_all()
        proc, port = start_gunicorn(env, args.workers)
        try:
            bench_http(port, games[:1], 2)  # warm the workers (their caches, prepared plans)
            one = bench_http(port, games[:1], args.seconds)
            eight = bench_http(port, games, args.seconds)
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    finally:
        if not args.keep:
            from django.db import connections

            connections.close_all()
            admin_sql(base, f'DROP DATABASE IF EXISTS "{name}"')

    ratio = one["post_commands_per_second"] / store_rate
    rows = [
        ("store only: commands/s, 1 writer", f"{store_rate:.0f}", "services.apply_command"),
        ("HTTP: commands/s, 1 client, POSTs", f"{one['post_commands_per_second']:.0f}", ""),
        ("HTTP: commands/s, 1 client", f"{one['commands_per_second']:.0f}", "GET + POST each"),
        ("HTTP: commands/s, 8 clients", f"{eight['commands_per_second']:.0f}", "8 games"),
        ("HTTP: GET game median, 1 client", f"{one['get_median_ms']} ms", "target <= 2 ms"),
        ("HTTP: GET game p99, 1 client", f"{one['get_p99_ms']} ms", ""),
        ("HTTP: command median, 1 client", f"{one['command_median_ms']} ms", "target <= 3 ms"),
        ("HTTP: command p99, 1 client", f"{one['command_p99_ms']} ms", ""),
        ("HTTP: GET game median, 8 clients", f"{eight['get_median_ms']} ms", ""),
        ("HTTP: GET game p99, 8 clients", f"{eight['get_p99_ms']} ms", ""),
        ("HTTP: command median, 8 clients", f"{eight['command_median_ms']} ms", ""),
        ("HTTP: command p99, 8 clients", f"{eight['command_p99_ms']} ms", ""),
    ]
    print(f"{'measure':<36}  {'figure':>10}  note")
    print(f"{'-' * 36}  {'-' * 10}  {'-' * 24}")
    for measure, figure, note in rows:
        print(f"{measure:<36}  {figure:>10}  {note}")
    print(f"\nHTTP commands/s (1 client, POSTs) / store-only commands/s: {ratio:.2f} (aim > 0.5)")
    if one["errors"] or eight["errors"]:
        print("errors:", one["first_errors"] + eight["first_errors"])
    print(
        json.dumps(
            {"store_commands_per_second": round(store_rate, 1), "one": one, "eight": eight},
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
