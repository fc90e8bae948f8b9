"""In the browser, at a desktop's size and a phone's: a person signs in from the tournaments
page, creates a tournament with the form (a wrong setting first, shown on its field), enters a
player, starts it and follows it on its page, which updates itself, to its winner. The games
are played by bots through the services between the browser's steps; everything else is
clicks. No page is wider than the screen, and nothing is loaded from another host."""

from __future__ import annotations

import re

import pytest

from tests.tournaments.brackets.support import play_round
from tests.web.browser import screenshot
from tournaments.brackets import views as tournament_views
from tournaments.brackets.models import Entry, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
}


@pytest.fixture(params=list(SIZES))
def browser_page(request, chromium, live_server):
    """A fresh browser at the size named by the parameter, recording every request that
    leaves the site."""
    context = chromium.new_context(**SIZES[request.param])
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.size_name = request.param
    page.elsewhere = []
    page.on(
        "request",
        lambda r: (
            page.elsewhere.append(r.url)
            if not r.url.startswith((live_server.url, "data:", "blob:"))
            else None
        ),
    )
    yield page
    context.close()


# The innermost elements that reach past the screen's right edge, to say what is too wide.
WIDE_ELEMENTS = """(width) => [...document.querySelectorAll("body *")]
  .filter((e) => e.getBoundingClientRect().right > width + 0.5)
  .filter((e) => ![...e.children].some((c) => c.getBoundingClientRect().right > width + 0.5))
  .slice(0, 5)
  .map((e) => {
    const right = Math.round(e.getBoundingClientRect().right);
    return `${e.tagName.toLowerCase()}.${e.className} ${right}px`;
  })"""


def fits(page, what: str) -> None:
    """The page does not scroll sideways, and it loaded nothing from another host."""
    page.wait_for_load_state("load")  # its stylesheets applied
    width = page.viewport_size["width"]
    scroll = page.evaluate("document.documentElement.scrollWidth")
    if scroll > width:
        wide = page.evaluate(WIDE_ELEMENTS, width)
        pytest.fail(f"{what} is {scroll}px wide on a {width}px screen: {wide}")
    assert not page.elsewhere, f"{what} loaded from another host: {page.elsewhere}"


@pytest.fixture
def olga(django_user_model):
    return django_user_model.objects.create_user("olga", password="pw-olga-123")


def test_a_tournament_is_created_started_and_followed_to_its_end(
    browser_page, live_server, olga, eager_tasks, monkeypatch
):
    monkeypatch.setattr(tournament_views, "POLL_SECONDS", 1)
    page = browser_page
    size = page.size_name

    page.goto(live_server.url + "/")
    fits(page, "the home page")
    page.get_by_role("link", name="The tournaments").click()
    page.wait_for_url("**/tournaments/")
    assert page.get_by_role("heading", name="Tournaments", exact=True).is_visible()
    fits(page, "the tournaments page")

    page.get_by_role("link", name="Sign in to create a tournament").click()
    page.wait_for_url("**/accounts/login/**")
    fits(page, "the sign-in page")
    page.get_by_label("Username").fill("olga")
    page.get_by_label("Password").fill("pw-olga-123")
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url("**/tournaments/new/")
    fits(page, "the new-tournament page")

    page.get_by_label("Name").fill(f"Spring Cup ({size})")
    page.get_by_label("Elimination", exact=False).check()
    page.get_by_label("Players at a table (at most)").fill("2")
    page.get_by_label("Players going on from each table").fill("2")  # not fewer than 2
    page.get_by_label("Rules").select_option(label="Classic UNO")
    page.get_by_label("Scoring").select_option("none")
    page.get_by_label("Seconds for a turn").fill("600")
    page.get_by_label("Players, one a line").fill("Ann\nBob\nCid")
    page.get_by_label("In the order the players are listed", exact=False).check()
    page.get_by_role("button", name="Create the tournament").click()

    error = page.locator("#id_advance_error")
    assert "A whole number from 1 to 9" not in error.text_content()
    assert "at most 1 with tables of 2" in error.text_content()
    assert page.get_by_label("Players going on from each table").get_attribute("aria-invalid")
    assert not Tournament.objects.exists()
    fits(page, "the new-tournament page with an error")
    screenshot(page, f"tournament-create-error-{size}")

    page.get_by_label("Players going on from each table").fill("1")
    page.get_by_role("button", name="Create the tournament").click()
    page.wait_for_url("**/tournaments/*/")
    tournament = Tournament.objects.get()
    assert tournament.organiser == olga and tournament.format == "elimination"
    assert (tournament.table_size, tournament.advance, tournament.scoring) == (2, 1, "none")
    assert tournament.turn_seconds == 600
    assert page.get_by_text("The tournament is created.").is_visible()
    assert page.get_by_text("Taking entries: not started yet.").is_visible()
    fits(page, "the new tournament's page")

    page.get_by_label("Player's name").fill("Dee")
    page.get_by_role("button", name="Enter the player").click()
    page.wait_for_selector("text=Dee is entered.")
    entries = page.locator("ol.entries li")
    assert entries.all_text_contents() == ["Ann", "Bob", "Cid", "Dee"]
    assert list(Entry.objects.values_list("player", flat=True)) == ["Ann", "Bob", "Cid", "Dee"]

    page.get_by_label("Player's name").fill("Ann")
    page.get_by_role("button", name="Enter the player").click()
    assert "Ann is already entered" in page.locator("#id_player_error").text_content()
    assert Entry.objects.count() == 4
    fits(page, "the tournament page with an entry error")
    screenshot(page, f"tournament-entries-{size}")

    page.get_by_role("button", name="Start the tournament: seat round 1").click()
    page.wait_for_selector("text=Started.")
    assert page.get_by_role("heading", name="Round 1 (being played)").is_visible()
    assert page.locator("svg.bracket").is_visible()
    fits(page, "the started tournament's page")
    screenshot(page, f"tournament-round-1-{size}")

    # The games are played by bots; the open page follows by itself, with no reload.
    tournament.refresh_from_db()
    play_round(tournament)
    page.get_by_role("heading", name="Final table (being played)").wait_for()
    fits(page, "the tournament page at the final")
    play_round(tournament)
    winner = page.locator(".winner")
    winner.wait_for()
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert winner.text_content() == f"Winner: {tournament.winner}"
    assert page.get_by_text("Finished.").is_visible()
    fits(page, "the finished tournament's page")
    screenshot(page, f"tournament-finished-{size}")
    assert page.locator("#live").get_attribute("hx-trigger") is None  # no more polling
    # The director's tools were brought up to date with the page: nothing left to seat.
    assert page.get_by_text("The tournament is over").is_visible()
    assert page.get_by_role("button", name="Seat the next round").count() == 0

    text = page.locator("main").inner_text()
    for word in ("seat:", "draft", "docs/"):
        assert word not in text, f"the page shows {word!r}"

    page.get_by_role("link", name="Replay the game of table 1, final table").click()
    page.wait_for_url("**/replay/**")
    assert page.get_by_role("heading", name="Replay", exact=False).first.is_visible()
    fits(page, "the final table's replay")


def test_redoc_and_the_favicon_come_from_the_site(browser_page, live_server):
    page = browser_page
    page.goto(live_server.url + "/api/redoc/")
    logo = page.locator("a[href='https://redocly.com/redoc/'] img")
    logo.wait_for(state="attached")  # in the side menu, folded away on a phone
    assert logo.get_attribute("src").startswith("/static/")
    page.wait_for_function(
        "(img) => img.complete && img.naturalWidth > 0", arg=logo.element_handle()
    )
    assert page.get_by_role("heading", name="UNO club API", exact=False).first.is_visible()
    fits(page, "ReDoc")
    assert page.goto(live_server.url + "/favicon.ico").status == 200


def test_a_tournament_is_added_in_the_admin(browser_page, live_server, django_user_model):
    django_user_model.objects.create_superuser("boss", "boss@example.org", "pw-boss-123")
    page = browser_page
    page.goto(live_server.url + "/admin/")
    page.get_by_label("Username").fill("boss")
    page.get_by_label("Password").fill("pw-boss-123")
    page.get_by_role("button", name="Log in").click()
    page.locator("a[href$='/tournaments/tournament/add/']").first.click()
    page.wait_for_url("**/tournament/add/")
    fits(page, "the admin's add tournament")
    page.get_by_label("Name").fill("Admin Cup")
    page.get_by_role("radio", name=re.compile("^Swiss")).check()
    page.get_by_label("Players at a table (at most)").fill("3")
    page.get_by_label("Players, one a line").fill("Ann\nBob\nCid\nDee")
    page.get_by_label("In the order the players are listed", exact=False).check()
    page.get_by_role("button", name="Save").click()
    page.get_by_text("Admin Cup is created, with you as its organiser").wait_for()
    tournament = Tournament.objects.get(name="Admin Cup")
    assert tournament.format == "swiss" and tournament.organiser.username == "boss"
    assert tournament.entries.count() == 4
    fits(page, "the admin's tournament page")


@pytest.fixture
def signed_in_page(browser_page, live_server, olga):
    """The browser signed in as Olga (the sign-in itself is walked in the test above)."""
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(olga)
    browser_page.context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": live_server.url,
            }
        ]
    )
    return browser_page


def test_a_swiss_tournament_with_check_in_and_a_late_entry(
    signed_in_page, live_server, eager_tasks, monkeypatch
):
    monkeypatch.setattr(tournament_views, "POLL_SECONDS", 1)
    page = signed_in_page
    page.goto(live_server.url + "/tournaments/")
    page.get_by_role("link", name="Create a tournament").click()
    page.get_by_label("Name").fill("Club Swiss")
    page.get_by_role("radio", name=re.compile("^Swiss")).check()
    page.get_by_label("Players at a table (at most)").fill("3")
    page.get_by_label("Rounds", exact=True).fill("2")
    page.get_by_label("Scoring").select_option("none")
    page.get_by_label("Players, one a line").fill("Ann\nBob\nCid\nDee")
    page.get_by_role("button", name="Create the tournament").click()
    page.get_by_text("The tournament is created.").wait_for()
    tournament = Tournament.objects.get(name="Club Swiss")
    assert (tournament.format, tournament.rounds, tournament.table_size) == ("swiss", 2, 3)

    for name in ("Ann", "Bob", "Cid"):  # Dee does not come
        page.get_by_role("button", name=f"Check in {name}").click()
        page.get_by_text("Checked in.").wait_for()
    fits(page, "the tournament page at check-in")
    page.get_by_role("button", name="Start the tournament: seat round 1").click()
    page.get_by_role("heading", name="Round 1 (being played)").wait_for()
    assert Entry.objects.get(tournament=tournament, player="Dee").dropped
    assert "Dee (dropped)" in page.locator("#live").inner_text()

    page.get_by_label("Player's name").fill("Eve")  # late: plays from round 2
    page.get_by_role("button", name="Enter the player").click()
    page.get_by_text("Eve is entered.").wait_for()
    assert "A late entry plays from the next round on." in page.locator("#director").inner_text()

    play_round(tournament)
    page.get_by_role("heading", name="Round 2 (being played)").wait_for()
    assert "Eve" in page.locator("section[aria-labelledby='round-2']").inner_text()
    play_round(tournament)
    page.locator(".winner").wait_for()
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED and tournament.winner
    fits(page, "the finished Swiss tournament's page")
    screenshot(page, f"tournament-swiss-finished-{page.size_name}")
