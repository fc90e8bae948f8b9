"""In the browser: a referee sets up a table of three people from the pages and opens its lobby;
two players join by their links and a third by scanning the QR code (decoded here from a
screenshot of the code, as a phone's camera would); each sees only their own hand; they play the
hand to its end by clicking; a second device on a seat is told so; the rematch keeps the seats."""

from __future__ import annotations

import pytest

from games import services
from games.models import Game
from tests.web.browser import screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
# What a simple player presses when no card of theirs can be played, in order.
FALLBACKS = ["pass", "choose_colour", "accept", "draw", "deal"]


@pytest.fixture
def browsers(chromium):
    """``browsers(viewport)``: a new browser context (its own cookies: another person's phone)
    and a page in it."""
    opened = []

    def new(viewport):
        context = chromium.new_context(viewport=viewport)
        opened.append(context)
        page = context.new_page()
        page.set_default_timeout(15_000)
        return page

    yield new
    for context in opened:
        context.close()


def fits_a_phone(page, name: str) -> None:
    """The page, at a 390 px wide phone's size, is no wider than the screen."""
    size = page.viewport_size
    page.set_viewport_size(PHONE)
    width = page.evaluate("document.documentElement.scrollWidth")
    screenshot(page, name)
    page.set_viewport_size(size)
    assert width <= PHONE["width"], f"{page.url} is {width}px wide on a 390px phone"


def decode_qr(png: bytes) -> str:
    """The text of the QR code in a PNG image, read as a phone's camera app reads it: frame
    after frame until one decodes. Here the frames are the screenshot in black and white at a
    few sizes, each given to OpenCV's two detectors. (One detector on the screenshot alone
    missed about one code in a hundred: the page draws a module 4.8 pixels wide, so the
    modules come out 4 or 5 pixels. In 1,240 screenshots of codes, these frames read every one.)"""
    import cv2
    import numpy as np

    image = cv2.imdecode(np.frombuffer(png, dtype=np.uint8), cv2.IMREAD_GRAYSCALE)
    _, image = cv2.threshold(image, 128, 255, cv2.THRESH_BINARY)
    for detector in (cv2.QRCodeDetector(), cv2.QRCodeDetectorAruco()):
        for size in (None, 300, 400, 512):
            frame = image
            if size is not None:
                frame = cv2.resize(image, (size, size), interpolation=cv2.INTER_AREA)
            text, _, _ = detector.detectAndDecode(frame)
            if text:
                return text
    raise AssertionError("no QR code could be read from the lobby's image")


def settle(page) -> None:
    page.wait_for_function(
        "!document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"
    )


def version(page) -> int:
    return int(page.locator("#board").get_attribute("data-version"))


def catch_up(page, target: int) -> None:
    """Until the page shows the game at ``target`` (its own updates; a reload if they lag)."""
    try:
        page.wait_for_function(
            "v => Number(document.querySelector('#board').dataset.version) >= v",
            arg=target,
            timeout=4_000,
        )
    except Exception:  # noqa: BLE001  (Playwright's timeout: look again)
        page.reload(wait_until="load")
    settle(page)


def press(page) -> bool:
    """Press what a simple player would: a way to play a picked card, a playable card, or the
    first fallback button; then wait for the answer. False when there was nothing to press or
    no answer came (the press fell on a part of the page being swapped by an update)."""
    before = version(page)
    options = page.locator("#actions .pick button")
    cards = page.locator("#hand button.card")
    if options.count():
        options.first.click()
    elif cards.count():
        cards.first.click()
    else:
        buttons = [page.locator(f"#actions button.action-{kind}") for kind in FALLBACKS]
        pressable = [b for b in buttons if b.count()]
        if not pressable:
            return False
        pressable[0].first.click()
    try:
        page.wait_for_function(
            "v => document.querySelector('#board').dataset.version != v"
            " || document.querySelector('#actions .error, #actions .pick')",
            arg=str(before),
            timeout=5_000,
        )
    except Exception:  # noqa: BLE001  (a click lost to a swap of the page's parts: look again)
        return False
    return True


def hand_codes(page) -> list[str]:
    return sorted(page.locator("#hand .card").evaluate_all("els => els.map(e => e.dataset.card)"))


def assert_sees_only_own_hand(page, game: Game, seat: int) -> None:
    state = services.load_game(game_id=game.pk)
    catch_up(page, state.version)
    assert hand_codes(page) == sorted(state.hands[seat])
    assert page.locator(".mini-hand").count() == 0  # no other hand while the game is on
    others = {c for s, hand in enumerate(state.hands) if s != seat for c in hand}
    html = page.content()
    for code in others - set(state.hands[seat]) - set(state.discard):
        assert f'data-card="{code}"' not in html


def test_three_people_join_by_link_and_qr_code_play_a_hand_and_rematch(
    browsers, live_server, django_user_model
):
    django_user_model.objects.create_user("rita", password="pw-rita-123")
    referee = browsers(DESKTOP)
    referee.goto(f"{live_server.url}/accounts/login/?next=/play/")
    referee.fill("input[name=username]", "rita")
    referee.fill("input[name=password]", "pw-rita-123")
    with referee.expect_navigation(wait_until="load"):
        referee.click("button:has-text('Sign in')")

    fits_a_phone(referee, "new-game-phone")

    # The referee sets up the table from the pages and lands on its lobby.
    referee.select_option("select[name=variant]", "classic")
    referee.select_option("select[name=scoring]", "none")
    referee.fill("input[name=seed]", "join-by-qr-1")
    referee.fill("textarea[name=players]", "Ann\nBob\nCy")
    with referee.expect_navigation(wait_until="load"):
        referee.click("button:has-text('Set up the table and its seat links')")
    assert referee.url.endswith("/lobby/")
    game = Game.objects.get()
    assert referee.locator(".seat-link .qr svg").count() == 3
    # One code at a time: none shows until asked for, and the next hides the last.
    assert not referee.locator(".seat-link .qr svg:visible").count()
    referee.get_by_text("Show Ann's code").click()
    referee.get_by_text("Show Cy's code").click()
    assert referee.locator(".seat-link .qr svg:visible").count() == 1
    screenshot(referee, "lobby")
    fits_a_phone(referee, "lobby-phone")

    links = {
        name: referee.locator(f'a.private-link[data-player="{name}"]').get_attribute("href")
        for name in ("Ann", "Bob")
    }
    code = referee.locator('.seat-link[data-player="Cy"] .qr svg')
    scanned = decode_qr(code.screenshot())
    assert scanned.startswith(f"{live_server.url}/table/{game.pk}/seat/")
    assert scanned == game.seats.get(seat=2).secret.join(
        [f"{live_server.url}/table/{game.pk}/seat/", "/"]
    )

    # Two join by their links, one (on a phone) by the scanned code; nobody has an account.
    ann, bob, cy = browsers(DESKTOP), browsers(DESKTOP), browsers(PHONE)
    for page, url, name in (
        (ann, links["Ann"], "Ann"),
        (bob, links["Bob"], "Bob"),
        (cy, scanned, "Cy"),
    ):
        page.goto(url, wait_until="load")
        page.wait_for_selector("#board")
        assert "/seat/" not in page.url, "the secret must not stay in the address bar"
        assert page.locator(".seat-you .seat-name strong").inner_text() == name
    width = cy.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the table is {width}px wide on a 390px phone"
    screenshot(cy, "joined-by-qr-phone")

    players = [ann, bob, cy]
    for seat, page in enumerate(players):
        assert_sees_only_own_hand(page, game, seat)

    # The referee's lobby now says every seat is taken.
    referee.reload(wait_until="load")
    assert referee.locator(".joined:has-text('Seated')").count() == 3

    # A second device opening Ann's link is told plainly, and may play for her too.
    second = browsers(PHONE)
    second.goto(links["Ann"], wait_until="load")
    assert second.url.endswith("/second-device/")
    assert "already open on another device" in second.locator("h1").inner_text()
    with second.expect_navigation(wait_until="load"):
        second.click("a:has-text('Go to Ann')")
    assert second.locator(".seat-you .seat-name strong").inner_text() == "Ann"
    assert ann.locator(".seat-you .seat-name strong").inner_text() == "Ann"  # not put out

    # They play the hand to its end, each clicking on their own page when it is their move.
    idle = 0
    for _ in range(600):
        state = services.load_game(game_id=game.pk)
        kind, seat = state.pending
        if kind == "over":
            break
        page = players[seat]
        catch_up(page, state.version)
        if press(page):
            idle = 0
            continue
        # The page (or the state read here) was a step behind: look again.
        idle += 1
        assert idle < 5, page.locator("#board .status").inner_text()
        page.reload(wait_until="load")
        settle(page)
    else:
        raise AssertionError("the hand did not end")
    for page in players:
        catch_up(page, services.load_game(game_id=game.pk).version)
        page.wait_for_selector(".result")
    screenshot(ann, "hand-over")

    # The referee starts the rematch from the finished table; each player goes to their seat.
    referee.goto(f"{live_server.url}/table/{game.pk}/", wait_until="load")
    with referee.expect_navigation(wait_until="load"):
        referee.click("#start-rematch")
    rematch = Game.objects.get(rematch_of=game)
    assert referee.url.endswith(f"/table/{rematch.pk}/")
    assert [s.player for s in rematch.seats.all()] == ["Ann", "Bob", "Cy"]
    for seat, page in enumerate(players):
        go = page.locator("#go-rematch")
        go.wait_for(timeout=10_000)  # the finished page asks every few seconds
        with page.expect_navigation(wait_until="load"):
            go.click()
        assert page.url.endswith(f"/table/{rematch.pk}/")
        assert (
            page.locator(".seat-you .seat-name strong").inner_text() == ["Ann", "Bob", "Cy"][seat]
        )
        assert_sees_only_own_hand(page, rematch, seat)
    screenshot(cy, "rematch-phone")
