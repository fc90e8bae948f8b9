"""Pages that follow something by asking now and then ask nothing while their tab is hidden: a
finished table waiting for a rematch (once shown again it asks within a few seconds and offers
the rematch the referee started meanwhile) and the organiser's night page.

The league fixtures are imported from their support module; pytest passes them in by name."""

# ruff: noqa: F811

import pytest

from games import services
from games.models import Game, Seat
from tests.web.league_pages_support import league, olga, season  # noqa: F401 (fixtures)
from tests.web.table_support import drive
from tests.web.test_live_browser import HIDE
from tournaments.leagues import services as league_services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_hidden_finished_table_asks_nothing_and_catches_up_when_shown(
    chromium, live_server, django_user_model
):
    referee = django_user_model.objects.create_user("rita", password="x")
    game = services.create_game(
        players=["Ann", "Bob"], variant="classic", scoring="none", target=500, seed="idle-1"
    )
    drive(game, until=lambda s: s.finished)
    context = chromium.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.set_default_timeout(15_000)
    secret = Seat.objects.get(game=game, seat=0).secret
    page.goto(f"{live_server.url}/table/{game.pk}/seat/{secret}/", wait_until="load")
    page.wait_for_selector("#rematch .subtle")  # waiting for the referee to start one

    page.evaluate(HIDE, True)
    # Heard from here on: a fetch the shown tab had sent just before (a stream's catch-up, say)
    # is reported a moment later, and is not the hidden tab's.
    page.wait_for_timeout(500)
    asked = []
    page.on("request", lambda request: asked.append(request.url))
    services.rematch(game_id=game.pk, by=referee)
    page.wait_for_timeout(12_000)  # more than two of the shown tab's rounds
    hidden_requests = list(asked)

    page.evaluate(HIDE, False)
    page.locator("#go-rematch").wait_for(timeout=8_000)
    context.close()

    assert hidden_requests == []
    assert Game.objects.filter(rematch_of=game).exists()


def test_a_hidden_night_page_asks_nothing_until_shown_again(chromium, live_server, season, olga):
    """The organiser's night page follows its tables while shown, and only then."""
    night = league_services.open_night(season=season)
    context = chromium.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=username]", "olga")
    page.fill("input[name=password]", "pw")
    with page.expect_navigation():
        page.get_by_role("button", name="Sign in").click()
    page.goto(f"{live_server.url}/nights/{night.pk}/", wait_until="load")

    asked = []
    page.on("request", lambda request: asked.append(request.url))
    page.evaluate(HIDE, True)
    page.wait_for_timeout(12_000)
    hidden_requests = list(asked)
    page.evaluate(HIDE, False)
    with page.expect_request(lambda request: f"/nights/{night.pk}/" in request.url, timeout=8_000):
        pass
    context.close()

    assert hidden_requests == []
