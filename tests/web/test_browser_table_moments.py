"""In the browser, on a phone (390 px) and a desktop: a player disputes a moment of an earlier
hand with the keyboard alone, the claim typed first kept while the choice looks further back."""

import pytest

from games import services
from games.models import Dispute, Event, Seat
from tests.web.browser import screenshot
from tests.web.table_support import drive

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 900}}


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_moment_of_an_earlier_hand_is_disputed_by_keyboard_at_both_sizes(
    chromium, live_server, size
):
    game = services.create_game(
        variant="classic", players=["Ann", "Bob"], scoring="standard", target=500, seed="look-1"
    )
    drive(game, until=lambda s: s.hand_number >= 2 and s.pending[0] == "turn", seed="m")
    early = Event.objects.filter(game=game, type="card_played").order_by("version").first().version
    context = chromium.new_context(viewport=SIZES[size], is_mobile=size == "phone")
    page = context.new_page()
    page.set_default_timeout(15_000)
    secret = Seat.objects.get(game=game, seat=0).secret
    with page.expect_navigation(wait_until="load"):  # htmx binds as the page loads
        page.goto(f"{live_server.url}/table/{game.pk}/seat/{secret}/")
    choice = page.locator("#dispute-version")
    assert choice.locator(f"option[value='{early}']").count() == 0  # not among the latest

    page.locator("#dispute-claim").fill("Bob played before his turn")
    page.locator("#dispute-hand").focus()
    page.keyboard.press("ArrowDown")  # "hand 1", the first after "a hand…"
    assert page.locator("#dispute-hand").input_value() == "1"
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent") == "Show them"
    page.keyboard.press("Enter")

    # The choice now holds every moment of hand 1, and has the keyboard's focus.
    page.wait_for_selector(f"#dispute-version option[value='{early}']", state="attached")
    page.wait_for_function("document.activeElement.id === 'dispute-version'")
    assert page.locator("#dispute-version optgroup[label='Hand 1, newest first']").count() == 1
    page.select_option("#dispute-version", str(early))
    assert page.locator("#dispute-claim").input_value() == "Bob played before his turn"
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["width"]
    page.locator("#dispute").scroll_into_view_if_needed()
    screenshot(page, f"dispute-earlier-hand-{size}")

    page.locator("#dispute-claim").focus()
    page.keyboard.press("Tab")  # to "File the dispute"
    page.keyboard.press("Enter")
    page.wait_for_selector("#dispute .ok")
    dispute = Dispute.objects.get()
    assert (dispute.version, dispute.claim) == (early, "Bob played before his turn")
    assert "Bob played before his turn" in page.locator("#disputes").inner_text()
    context.close()
