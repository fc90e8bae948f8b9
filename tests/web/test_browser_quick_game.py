"""In the browser: a visitor starts a quick game against bots and plays a whole hand through
the table page, with the mouse and the keyboard."""

import pytest

from games.models import Game
from tests.web.browser import screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Which button a simple player presses when it holds no playable card, in order.
FALLBACKS = ["pass", "call_uno", "choose_colour", "accept", "draw", "deal", "catch"]


def version(page) -> int:
    return int(page.locator("#board").get_attribute("data-version"))


def wait_for_move(page, before: int) -> None:
    """Until the board shows another version (the command's answer), the ways to play a card,
    or an error."""
    page.wait_for_function(
        "v => document.querySelector('#board').dataset.version != v"
        " || document.querySelector('#actions .error, #actions .pick')",
        arg=str(before),
    )


def settle(page) -> None:
    """Until htmx has no request in flight and nothing left to swap."""
    page.wait_for_function(
        "!document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"
    )


def take_a_turn(page, use_keyboard: bool) -> bool:
    """Press what a simple player would; False when there is nothing to press."""
    settle(page)
    options = page.locator("#actions .pick button")
    if options.count():
        options.first.click()
        return True
    cards = page.locator("#hand button.card")
    if cards.count():
        if use_keyboard:
            cards.first.focus()
            page.keyboard.press("Enter")
        else:
            cards.first.click()
        return True
    for kind in FALLBACKS:
        button = page.locator(f"#actions button.action-{kind}")
        if button.count():
            button.first.click()
            return True
    return False


def test_a_visitor_plays_a_whole_hand_against_bots(page, live_server, eager_tasks):
    page.goto(f"{live_server.url}/play/")
    page.select_option("select[name=variant]", "classic")
    page.fill("input[name=bots]", "2")
    page.fill("input[name=player]", "Tess")
    page.select_option("select[name=scoring]", "none")
    page.fill("input[name=seed]", "browser-hand-1")
    with page.expect_navigation(wait_until="load"):  # htmx binds as the page loads
        page.click("button:has-text('Deal the cards')")

    page.wait_for_selector("#board")
    assert "/seat/" not in page.url, "the seat's secret must not stay in the address bar"
    assert page.locator(".seat-you .seat-name strong").inner_text() == "Tess"
    screenshot(page, "table-classic-start")

    presses = 0
    for _ in range(300):
        if page.locator("#board").get_attribute("data-pending") == "over":
            break
        before = version(page)
        if take_a_turn(page, use_keyboard=presses % 2 == 1):
            presses += 1
            wait_for_move(page, before)
        else:
            # Waiting for the bots: the stream brings their moves without a reload.
            page.wait_for_function(
                "v => document.querySelector('#board').dataset.version != v", arg=str(before)
            )
    screenshot(page, "table-classic-end")

    game = Game.objects.get()
    assert game.status == Game.Status.FINISHED
    assert presses > 0
    assert "Game over" in page.locator("#board .status").inner_text()
    assert page.locator(".result li").count() == 3
