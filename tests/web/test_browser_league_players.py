"""In the browser at a phone's size: an organiser adds players on the league's page by typing
their names and pressing the button, a name too long is refused by the field with what was
typed kept; on a player's page, a refused correction keeps what was typed. No page is wider
than the screen."""

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from tests.web.browser import screenshot
from tournaments.leagues import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def phone(chromium, live_server):
    context = chromium.new_context(viewport=PHONE)
    page = context.new_page()
    page.set_default_timeout(20_000)
    yield page
    context.close()


@pytest.fixture
def olga(db):
    return get_user_model().objects.create_user("olga", password="Tables-at-8", first_name="Olga")


def fits(page):
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"{page.url} is {width} px wide"


def press(page, form, button):
    """Press a form's button, wait for the page it leads to, and check that page fits."""
    with page.expect_navigation(wait_until="load"):
        page.locator(form).get_by_role("button", name=button).click()
    fits(page)


def sign_in(page, base, next_url):
    page.goto(f"{base}/accounts/login/?next={next_url}")
    page.get_by_label("Username").fill("olga")
    page.get_by_label("Password").fill("Tables-at-8")
    press(page, "main form", "Sign in")


def test_an_organiser_adds_players_on_the_league_page_at_a_phones_size(phone, live_server, olga):
    league = services.open_league(name="Thursday Club", created_by=olga)
    page, base = phone, live_server.url
    sign_in(page, base, f"/leagues/{league.pk}/")
    players = page.locator("#players")
    expect(players).to_contain_text("No players yet.")

    page.get_by_label("Their names").fill("Ann, Bob\nCy")
    press(page, "form.add-players", "Add them")

    expect(players.locator(".section-status")).to_have_text(
        "Ann, Bob and Cy are now players of Thursday Club."
    )
    expect(players.locator(".section-status")).to_be_in_viewport()
    expect(page.locator(".status")).to_have_count(1)  # the page's own, for the other forms
    expect(players.get_by_role("link")).to_have_text(["Ann", "Bob", "Cy"])
    screenshot(page, "league-players-added-phone")

    # A name too long: said by the field, in view, what was typed kept, nobody added.
    typed = "Dee\n" + "x" * 101
    page.get_by_label("Their names").fill(typed)
    press(page, "form.add-players", "Add them")
    error = page.locator("#id_names_error")
    expect(error).to_contain_text("The 2nd name (“xxxxxxxxxxxxxxxxxxxx…”) has 101 characters")
    expect(error).to_be_in_viewport()
    expect(page.get_by_label("Their names")).to_have_value(typed)
    screenshot(page, "league-players-refused-phone")
    assert sorted(league.players.values_list("name", flat=True)) == ["Ann", "Bob", "Cy"]

    # Ann again, in other capitals, with someone new: Ann is the same player.
    page.get_by_label("Their names").fill("ann, Dee")
    press(page, "form.add-players", "Add them")
    expect(players.locator(".section-status")).to_have_text(
        "Dee is now a player of Thursday Club. Ann was a player of Thursday Club already."
    )
    expect(players.get_by_role("link")).to_have_text(["Ann", "Bob", "Cy", "Dee"])


def test_a_refused_correction_on_a_players_page_keeps_what_was_typed_at_a_phones_size(
    phone, live_server, olga
):
    league = services.open_league(name="Thursday Club", created_by=olga)
    services.register_player(league=league, name="Ann", by=olga)
    bea = services.register_player(league=league, name="Baa", by=olga)
    page, base = phone, live_server.url
    sign_in(page, base, f"/players/{bea.pk}/")

    page.get_by_text("Correct Baa's name or account").click()
    page.locator("#player-name").fill("ann")
    press(page, "#player-settings form:has(#player-name)", "Rename")

    error = page.locator("#player-name_error")
    expect(error).to_have_text("Error: Ann is another player of Thursday Club.")
    expect(error).to_be_in_viewport()
    expect(page.locator("#player-name")).to_have_value("ann")

    page.get_by_label("Plays signed in as").fill("nobody")
    press(page, "#player-settings form:has(#player-username)", "Save the account")
    error = page.locator("#player-username_error")
    expect(error).to_have_text("Error: Nobody signs in as 'nobody'.")
    expect(error).to_be_in_viewport()
    expect(page.get_by_label("Plays signed in as")).to_have_value("nobody")
    screenshot(page, "player-correction-refused-phone")
    bea.refresh_from_db()
    assert (bea.name, bea.user) == ("Baa", None)
