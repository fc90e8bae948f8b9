"""The embedded default holds a club night: on an SQLite file (as `config/dev.py run` serves it),
eight tables of four played at once through the API, with players' table pages polled beside
them, get no server error ("database is locked" was one) and every chain verifies after."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

BASE_DIR = Path(__file__).resolve().parents[2]
TABLES = 8
SEATS = 4
COMMANDS_PER_TABLE = 60


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def call(base, method, path, body=None, auth=None):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    if auth:
        request.add_header("Authorization", auth)
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


@pytest.fixture
def sqlite_server(tmp_path):
    """`manage.py runserver` (threaded, as `dev.py run`) on a fresh SQLite file."""
    env = {
        **{k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "CELERY_BROKER_URL"}},
        "SQLITE_PATH": str(tmp_path / "club.sqlite3"),
        "CHAIN_KEY_PATH": str(tmp_path / "chain-key"),
        "DJANGO_SUPERUSER_PASSWORD": "night-out-2026",
        "LOG_LEVEL": "WARNING",
    }
    manage = [sys.executable, str(BASE_DIR / "manage.py")]
    subprocess.run([*manage, "migrate", "-v0"], env=env, check=True, cwd=BASE_DIR)
    subprocess.run(
        [*manage, "createsuperuser", "--noinput", "--username", "org", "--email", "o@x.org"],
        env=env,
        check=True,
        cwd=BASE_DIR,
        capture_output=True,
    )
    port = free_port()
    log = open(tmp_path / "server.log", "w")  # noqa: SIM115
    server = subprocess.Popen(
        [*manage, "runserver", f"127.0.0.1:{port}", "--noreload"],
        env=env,
        cwd=BASE_DIR,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    for _ in range(100):
        try:
            if call(base, "GET", "/healthz")[0] == 200:
                break
        except OSError:
            time.sleep(0.1)
    else:
        server.kill()
        pytest.fail("the server did not start: " + (tmp_path / "server.log").read_text())
    yield base, env, tmp_path / "server.log"
    server.terminate()
    server.wait(timeout=30)
    log.close()


def test_eight_tables_of_four_at_once_on_sqlite_get_no_server_error(sqlite_server):
    base, env, log_path = sqlite_server
    status, body = call(
        base, "POST", "/api/auth/token/", {"username": "org", "password": "night-out-2026"}
    )
    assert status == 200, body
    token = "Token " + json.loads(body)["token"]
    games = []
    for table in range(TABLES):
        players = [f"P{table}-{seat}" for seat in range(SEATS)]
        status, body = call(base, "POST", "/api/games/", {"players": players}, auth=token)
        assert status == 201, body
        games.append(json.loads(body))

    answers: list[int] = []
    failures: list[str] = []

    def play(game):
        secrets = [f"Seat {s['secret']}" for s in game["seats"]]
        sent = 0
        while sent < COMMANDS_PER_TABLE:
            status, body = call(base, "GET", f"/api/games/{game['id']}/", auth=secrets[0])
            answers.append(status)
            view = json.loads(body)
            if view["status"] == "finished":
                return
            seat = view["pending"]["seat"]
            status, body = call(base, "GET", f"/api/games/{game['id']}/", auth=secrets[seat])
            legal = json.loads(body)["legal"]
            plays = [c for c in legal if c["type"] == "play"]
            command = plays[0] if plays else legal[0]
            status, body = call(
                base,
                "POST",
                f"/api/games/{game['id']}/commands/",
                {**command, "key": f"{seat}-{sent}"},
                auth=secrets[seat],
            )
            answers.append(status)
            if status >= 500:
                failures.append(body.decode()[:300])
            sent += 1

    def watch(game):
        # A player at the table's page beside the play: it is read while the others write.
        browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
        seat_link = f"{base}/table/{game['id']}/seat/{game['seats'][0]['secret']}/"
        for url in (
            [seat_link]
            + [f"{base}/table/{game['id']}/"] * 5
            + [f"{base}/table/{game['id']}/version/?v=0"] * 15
        ):
            try:
                with browser.open(url, timeout=60) as response:
                    answers.append(response.status)
            except urllib.error.HTTPError as error:
                answers.append(error.code)
            time.sleep(0.05)

    threads = [threading.Thread(target=play, args=(g,)) for g in games]
    threads += [threading.Thread(target=watch, args=(g,)) for g in games[:4]]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)

    assert not failures, failures[:3]
    assert not [s for s in answers if s >= 500]
    assert answers.count(201) >= TABLES * 20
    assert "database is locked" not in log_path.read_text()
    verified = subprocess.run(
        [sys.executable, str(BASE_DIR / "manage.py"), "verify_events"],
        env=env,
        cwd=BASE_DIR,
        capture_output=True,
        text=True,
    )
    assert verified.returncode == 0, verified.stderr
