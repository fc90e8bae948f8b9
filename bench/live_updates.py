"""The figures of docs/decisions/0010-live-updates.md, measured against a running server.

    DATABASE_URL=postgres://... .venv/bin/python bench/live_updates.py --url http://127.0.0.1:8752
    SQLITE_PATH=/tmp/db.sqlite3 .venv/bin/python bench/live_updates.py --url http://127.0.0.1:8000

The server must use the same database as this script (it creates the tables it measures).
Prints one JSON object:

* ``latency_ms``: a move pressed in one tab until the other tab shows it (Playwright with
  Debian's chromium, two browser contexts at one table of two people, both clocks the
  browser's), median and max over ``--moves`` moves;
* ``requests_per_idle_minute``: what a tab asks for in a minute while nothing moves, shown and
  hidden;
* ``database_connections``: on PostgreSQL, the connections to the database while ``--tables``
  tables have two open streams each (a page per seat), by application name, besides this
  script's own.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# This folder off the path: bench/http.py would stand in for the standard library's http.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
sys.path.insert(0, str(ROOT))

import argparse  # noqa: E402
import http.client  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import statistics  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402
from urllib.parse import urlsplit  # noqa: E402

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's loop beside the ORM

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402

from games import services  # noqa: E402
from games.models import Seat  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
FALLBACKS = ["pass", "call_uno", "choose_colour", "accept", "draw", "deal", "catch"]
WATCH = """() => {
  window.seen = [];
  new MutationObserver(() => {
    const board = document.querySelector('#board');
    const at = performance.timeOrigin + performance.now();
    if (board) window.seen.push([Number(board.dataset.version), at]);
  }).observe(document.querySelector('.table-grid'), {childList: true});
}"""
PRESS = """() => {
  let button = document.querySelector('#actions .pick button')
    || document.querySelector('#hand button.card.playable');
  for (const kind of KINDS) {
    if (button) break;
    button = document.querySelector('#actions button.action-' + kind);
  }
  if (!button) return null;
  const at = performance.timeOrigin + performance.now();
  button.click();
  return at;
}""".replace("KINDS", json.dumps(FALLBACKS))
HIDE = """() => {
  Object.defineProperty(document, 'visibilityState', {configurable: true, get: () => 'hidden'});
  Object.defineProperty(document, 'hidden', {configurable: true, get: () => true});
  document.dispatchEvent(new Event('visibilitychange'));
}"""


def new_table(seed: str):
    game = services.create_game(
        players=["Ann", "Bob"], variant="classic", scoring="none", target=500, seed=seed
    )
    secrets = list(Seat.objects.filter(game=game).order_by("seat").values_list("secret", flat=True))
    return game, secrets


def open_stream(base: str, game_id, secret: str, opened: threading.Event, stop: threading.Event):
    """A seat's stream, held open (as a page would) until ``stop``."""
    parts = urlsplit(base)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    conn.request("GET", f"/table/{game_id}/seat/{secret}/")
    response = conn.getresponse()
    response.read()
    cookie = response.getheader("Set-Cookie", "").split(";")[0]
    conn.request("GET", f"/table/{game_id}/live/", headers={"Cookie": cookie})
    response = conn.getresponse()
    assert response.status == 200, response.status
    response.fp.readline()
    opened.set()
    while not stop.is_set():
        try:
            response.fp.readline()
        except TimeoutError:
            continue
    conn.close()


def database_connections() -> dict[str, int]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT coalesce(nullif(application_name, ''), '(django)'), count(*)"
            " FROM pg_stat_activity WHERE datname = current_database()"
            " AND pid <> pg_backend_pid() GROUP BY 1"
        )
        return dict(cursor.fetchall())


def latency(browser, base: str, moves: int) -> dict[str, float]:
    game, secrets = new_table("bench-live-latency")
    pages = {}
    for seat, secret in enumerate(secrets):
        context = browser.new_context(viewport={"width": 390, "height": 844})
        page = context.new_page()
        page.goto(f"{base}/table/{game.pk}/seat/{secret}/", wait_until="load")
        page.wait_for_selector("#board")
        page.evaluate(WATCH)
        pages[seat] = page
    time.sleep(1)  # both streams open
    taken = []
    for _ in range(moves):
        state = services.load_game(game_id=game.pk)
        if state.finished:
            break
        seat = state.pending[1]
        mover, other = pages[seat], pages[1 - seat]
        mover.wait_for_function(
            "v => document.querySelector('#board').dataset.version == v", arg=str(state.version)
        )
        pressed = mover.evaluate(PRESS)
        mover.wait_for_function(
            "v => document.querySelector('#board').dataset.version != v"
            " || document.querySelector('#actions .pick')",
            arg=str(state.version),
        )
        if mover.locator("#actions .pick button").count():
            pressed = mover.evaluate(PRESS)
            mover.wait_for_function(
                "v => document.querySelector('#board').dataset.version != v",
                arg=str(state.version),
            )
        shown = int(mover.locator("#board").get_attribute("data-version"))
        other.wait_for_function("v => window.seen.some(([x]) => x >= v)", arg=shown)
        seen = other.evaluate("v => window.seen.find(([x]) => x >= v)[1]", shown)
        taken.append(seen - pressed)
    for page in pages.values():
        page.context.close()
    return {
        "moves": len(taken),
        "median": round(statistics.median(taken), 1),
        "max": round(max(taken), 1),
    }


def idle_requests(browser, base: str, seconds: float) -> dict[str, int]:
    out = {}
    for name in ("shown", "hidden"):
        game, secrets = new_table(f"bench-live-idle-{name}")
        context = browser.new_context()
        page = context.new_page()
        page.goto(f"{base}/table/{game.pk}/seat/{secrets[0]}/", wait_until="load")
        page.wait_for_selector("#board")
        time.sleep(1)
        if name == "hidden":
            page.evaluate(HIDE)
        asked: list[str] = []
        page.on("request", lambda request, asked=asked: asked.append(request.url))
        page.wait_for_timeout(seconds * 1000)
        out[name] = len(asked)
        context.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument("--idle-seconds", type=float, default=60)
    args = parser.parse_args()
    base = args.url.rstrip("/")
    figures: dict[str, object] = {"database": connection.vendor}

    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=["--headless", "--no-sandbox", "--disable-gpu"]
        )
        figures["latency_ms"] = latency(browser, base, args.moves)
        figures["requests_per_idle_minute"] = idle_requests(browser, base, args.idle_seconds)
        browser.close()

    if connection.vendor == "postgresql":
        before = database_connections()
        stop = threading.Event()
        threads = []
        for n in range(args.tables):
            game, secrets = new_table(f"bench-live-{n}")
            for secret in secrets:
                opened = threading.Event()
                thread = threading.Thread(
                    target=open_stream, args=(base, game.pk, secret, opened, stop), daemon=True
                )
                thread.start()
                opened.wait(10)
                threads.append(thread)
        time.sleep(1)
        figures["database_connections"] = {
            "before": before,
            "streams": len(threads),
            "with_streams_open": database_connections(),
        }
        stop.set()
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
