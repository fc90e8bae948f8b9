"""In the browser at a phone's width (390 px): the tournament page draws its bracket, which
scrolls sideways inside its box while the page itself does not, and the director awards a
result from the page. The part that updates itself keeps the keyboard's focus."""

import pytest
from django.conf import settings
from django.test import Client

from tests.tournaments.brackets.support import play_game, play_round
from tests.web.browser import screenshot
from tournaments.brackets import services as tournament_services
from tournaments.brackets import tasks
from tournaments.brackets.models import Ruling, Table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def organiser(django_user_model):
    return django_user_model.objects.create_user("olga", password="pw-olga-123")


@pytest.fixture
def phone(chromium, live_server, organiser):
    """A phone-sized browser signed in as the tournament's organiser."""
    client = Client()
    client.force_login(organiser)
    context = chromium.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": live_server.url,
            }
        ]
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


def test_the_bracket_and_the_directors_tools_at_phone_width(phone, live_server, organiser):
    players = [f"Player {n}" for n in range(1, 10)]
    tournament = tournament_services.create_tournament(
        name="Phone Cup",
        organiser=organiser,
        format="elimination",
        table_size=2,
        scoring="none",
        players=players,
    )
    tournament_services.start_tournament(tournament_id=tournament.pk, by=organiser)
    play_round(tournament)

    phone.goto(f"{live_server.url}/tournaments/{tournament.pk}/")
    bracket = phone.locator("svg.bracket")
    assert bracket.is_visible()
    assert bracket.get_attribute("role") == "img"
    assert "Round 2" in bracket.text_content()
    page_width = phone.evaluate("document.documentElement.scrollWidth")
    assert page_width <= PHONE["width"], f"the page scrolls sideways: {page_width}px"
    box = phone.locator(".bracket-scroll").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    screenshot(phone, "tournament-bracket-phone")

    table = Table.objects.get(round__tournament=tournament, round__number=2, number=1)
    loser = table.players[1]
    details = phone.locator("details", has_text=f"Round 2, table 1: {', '.join(table.players)}")
    details.locator("summary").click()
    form = details.locator("form", has_text="Award the result")
    form.locator("select[name=kind]").select_option("forfeit")
    form.locator("select[name=player]").select_option(loser)
    form.locator("input[name=reason]").fill("felt unwell")
    form.locator("button").click()
    phone.wait_for_selector("text=Result awarded.")
    assert phone.locator("text=felt unwell").first.is_visible()
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    table.refresh_from_db()
    assert table.placings[-1] == loser and table.decided_by == "award"
    screenshot(phone, "tournament-award-phone")


def test_the_bracket_following_the_tables_leaves_the_keyboard_focus_where_it_is(
    phone, live_server, organiser
):
    """The part of the page that updates itself is not redrawn under the keyboard's focus (a
    table's link, tabbed to, would lose it); it catches up once the focus has left it."""
    tournament = tournament_services.create_tournament(
        name="Keys Cup",
        organiser=organiser,
        format="swiss",
        table_size=2,
        scoring="none",
        players=["Ann", "Bob", "Cy", "Dee"],
    )
    tournament_services.start_tournament(tournament_id=tournament.pk, by=organiser)
    first, second = Table.objects.filter(round__tournament=tournament).order_by("number")
    url = f"/tournaments/{tournament.pk}/"
    phone.goto(live_server.url + url)
    link = phone.locator("#live a", has_text="Open the table").first
    link.focus()
    name = link.evaluate("a => a.textContent")

    play_game(second.game_id)  # a table ends: the part that updates itself has news
    tasks.table_finished(str(second.game_id))
    phone.wait_for_timeout(6_500)  # longer than its 5 s

    assert phone.evaluate("document.activeElement.textContent") == name
    phone.locator("h1").click()  # the focus leaves
    phone.locator("#live .placings").first.wait_for(timeout=10_000)
    first.refresh_from_db()
    assert first.status == Table.Status.PLAYING  # the other table plays on


def test_a_reason_being_typed_stays_while_the_next_round_is_seated(phone, live_server, organiser):
    """The director types why a decided table is reopened when the round's last table ends and
    the next round is seated: the tools follow (the new round's tables are there) without the
    page being loaded again, and the box stays open with the reason typed and the focus in it,
    so that the director finishes it and sends it."""
    tournament = tournament_services.create_tournament(
        name="Reason Cup",
        organiser=organiser,
        format="elimination",
        table_size=2,
        scoring="none",
        players=["Ann", "Bob", "Cy", "Dee"],
    )
    tournament_services.start_tournament(tournament_id=tournament.pk, by=organiser)
    first, second = Table.objects.filter(round__tournament=tournament).order_by("number")
    play_game(first.game_id)
    tasks.table_finished(str(first.game_id))
    phone.goto(f"{live_server.url}/tournaments/{tournament.pk}/")
    phone.evaluate("window.notReloaded = true")
    box = phone.locator(
        "#director details", has_text=f"Round 1, table 1: {', '.join(first.players)}"
    )
    box.locator("summary").click()
    box.get_by_label("Why").press_sequentially("Ann's score was")

    play_game(second.game_id)  # the round's last table ends: the next round is seated
    tasks.table_finished(str(second.game_id))
    assert Table.objects.filter(round__tournament=tournament, round__number=2).exists()
    phone.locator("#director summary", has_text="Final table").wait_for(timeout=15_000)

    assert phone.evaluate("window.notReloaded === true")
    box = phone.locator(
        "#director details", has_text=f"Round 1, table 1: {', '.join(first.players)}"
    )
    assert box.evaluate("d => d.open")
    assert box.get_by_label("Why").input_value() == "Ann's score was"
    assert phone.evaluate("document.activeElement.name") == "reason"
    phone.keyboard.type(" misread")
    with phone.expect_navigation(wait_until="load"):
        box.get_by_role("button", name="Reopen the table").click()
    assert "The table is reopened." in phone.locator(".status").inner_text()
    ruling = Ruling.objects.get(tournament=tournament, kind=Ruling.Kind.REOPENED)
    assert ruling.reason.startswith("Ann's score was misread")
