"""In the browser: a quick game of each edition, with its own table furniture and actions."""

import pytest

from tests.web.browser import screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Each edition's furniture on the board. The bots (seeded by the game's id, new each run) may
# act before the page is read: a bot may already have slapped the VETO on a player or grabbed
# the U tower, so either way of showing it counts.
EDITIONS = {
    "mod": ("UNO Mod", ()),
    "veto": ("UNO VETO", ("The VETO card lies in the middle.", "VETO on ")),
    "spin": ("UNO Spin", ()),
    "power_grab": ("UNO Power Grab", ("U tower: ",)),
}


def quick_game(page, live_server, variant):
    page.goto(f"{live_server.url}/play/")
    page.select_option("select[name=variant]", variant)
    page.fill("input[name=bots]", "3")
    page.fill("input[name=seed]", f"edition-{variant}")
    with page.expect_navigation(wait_until="load"):  # htmx binds as the page loads
        page.click("button:has-text('Deal the cards')")
    page.wait_for_selector("#board")


@pytest.mark.parametrize("variant", EDITIONS)
def test_a_page_of_each_edition(page, live_server, eager_tasks, variant):
    title, furniture = EDITIONS[variant]

    quick_game(page, live_server, variant)

    assert page.locator("h1").inner_text().startswith(title)
    if furniture:
        shown = page.locator("#board .edition").inner_text()
        assert any(words in shown for words in furniture), shown
    assert page.locator("#hand .card").count() >= 1
    # Every card shows its number or symbol beside its colour, never its code.
    for card in page.locator("#hand .card").all():
        corner = card.locator(".card-corner").inner_text()
        assert corner and corner != card.get_attribute("data-card")
    screenshot(page, f"table-{variant}")


def test_the_veto_is_slapped_from_the_table(page, live_server, eager_tasks):
    quick_game(page, live_server, "veto")

    page.click("#actions button:has-text('Slap the VETO on Ada (bot)')")

    page.wait_for_selector("#log :text('slapped the VETO on Ada (bot)')")
    assert "VETO on them" in page.locator(".seat:has-text('Ada (bot)')").inner_text()


def test_an_editions_options_show_while_that_edition_is_chosen(page, live_server):
    page.goto(f"{live_server.url}/play/")
    veto = page.locator('.edition-options[data-edition="veto"]')
    assert veto.count() == 1
    assert not veto.is_visible()  # classic is chosen
    page.select_option("select[name=variant]", "veto")
    assert veto.is_visible()
    page.select_option("select[name=variant]", "spin")
    assert not veto.is_visible()
