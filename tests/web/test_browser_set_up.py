"""In the browser, on a phone: a referee rebuilds a moment of a game played with cards by
filling in the "Set up a position" form (no notation), is told in words what is wrong, puts it
right and lands on the replay of the game set up."""

import pytest

from games import services
from games.models import Game
from tests.web.browser import screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def test_a_referee_describes_a_moment_on_a_phone_and_replays_it(
    chromium, live_server, django_user_model
):
    django_user_model.objects.create_user("ref", password="pw-ref-123")
    context = chromium.new_context(viewport=PHONE)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{live_server.url}/accounts/login/?next=/play/")
    page.fill("input[name=username]", "ref")
    page.fill("input[name=password]", "pw-ref-123")
    with page.expect_navigation(wait_until="load"):
        page.click("button:has-text('Sign in')")

    page.get_by_role("link", name="Set up a position").click()
    page.select_option("select[name=variant]", label="UNO Power Grab")
    for n, (name, cards) in enumerate(
        [
            ("Ann", "red 5 (U icon), blue draw one"),
            ("Bob", "green 2, yellow skip"),
            ("Cy", "wild grab a tower"),
        ],
        start=1,
    ):
        page.fill(f"input[name=name_{n}]", name)
        page.fill(f"input[name=cards_{n}]", cards)
    page.fill("input[name=top]", "wild draw 4")
    page.select_option("select[name=turn]", label="Player 3")
    page.select_option("select[name=power_grab_tower_o]", label="Player 3")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    with page.expect_navigation():
        page.get_by_role("button", name="Set up the game", exact=True).click()

    # A Wild Draw 4 on top needs the colour it called: said on the field, nothing created.
    assert "choose the colour in play" in page.locator("#id_colour-error").inner_text()
    assert page.input_value("input[name=name_3]") == "Cy"  # what was typed is kept
    assert Game.objects.count() == 0
    screenshot(page, "set-up-refused-phone")

    page.select_option("select[name=colour]", label="Green")
    with page.expect_navigation():
        page.get_by_role("button", name="Set up the game", exact=True).click()

    game = Game.objects.get()
    assert page.url.endswith(f"/table/{game.pk}/replay/")
    assert "Cy" in page.inner_text("main")
    state = services.current_state(game=game)
    assert state.hands == (("R5:U", "BD1"), ("G2", "YS"), ("WG",))
    assert (state.discard, state.colour, state.pending) == (("W4",), "G", ("turn", 2))
    assert state.extra.towers == (None, None, 2, None)
    context.close()
