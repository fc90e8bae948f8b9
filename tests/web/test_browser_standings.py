"""In the browser, at a phone's and a desktop's size: the season's standings show the column that
decides the order (league points, in a season that gives attendance points) beside the players'
names without scrolling, and the rank and the player's name stay in view while the rest of the
table scrolls sideways."""

import pytest
from django.contrib.auth import get_user_model

from tests.web.browser import screenshot
from tournaments.leagues import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1366, "height": 900}}

# Each box as the page draws it, left and right, beside the table's scroll box.
BOXES = """(w) => {
  const box = w.getBoundingClientRect();
  const at = (e) => { const r = e.getBoundingClientRect();
                      return {left: r.left - box.left, right: r.right - box.left}; };
  return {
    width: w.clientWidth,
    scrolls: w.scrollWidth > w.clientWidth,
    headings: Object.fromEntries([...w.querySelectorAll('thead th')]
      .map(th => [th.innerText.replace(/[▲▼]/g, '').trim(), at(th)])),
    players: [...w.querySelectorAll('tbody th.player')].map(th => ({
      ...at(th), name: th.innerText,
      // What is drawn where the name is: the name itself, not a cell scrolled over it.
      shown: th.contains(document.elementFromPoint(
        th.getBoundingClientRect().left + 8, th.getBoundingClientRect().top + 8)),
    })),
    ranks: [...w.querySelectorAll('tbody td.rank')].map(at),
  };
}"""


@pytest.fixture
def season_with_attendance(db):
    olga = get_user_model().objects.create_user("olga", password="pw")
    league = services.open_league(name="Thursday Club", target=100, created_by=olga)
    season = services.open_season(league=league, name="Autumn", attendance_points=2, by=olga)
    for players in (["Annabel Whitcombe", "Bob", "Cy"], ["Dee", "Bob", "Maximilian Fairweather"]):
        night = services.open_night(season=season)
        game = services.start_season_game(
            season=season, players=players, night=night, created_by=olga, sheet=True
        )
        services.record_hand(game_id=game.pk, out=0, points={"1": 70, "2": 50}, actor="system")
    return season


@pytest.mark.parametrize("size", list(SIZES))
def test_the_league_points_are_seen_beside_the_names_and_the_names_stay_when_scrolled(
    chromium, live_server, season_with_attendance, size
):
    context = chromium.new_context(viewport=SIZES[size])
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/seasons/{season_with_attendance.pk}/")
        wrap = page.locator("#standings")
        wrap.scroll_into_view_if_needed()

        seen = wrap.evaluate(BOXES)
        league_points = seen["headings"]["League points"]
        assert 0 <= league_points["left"] and league_points["right"] <= seen["width"], seen
        screenshot(page, f"standings-{size}")

        # The rest of the table is further right, even on a desktop with these long names.
        assert seen["scrolls"], seen
        wrap.evaluate("w => w.scrollTo({left: w.scrollWidth})")
        page.wait_for_timeout(100)
        assert wrap.evaluate("w => w.scrollLeft") > 0
        scrolled = wrap.evaluate(BOXES)
        for cell in scrolled["players"] + scrolled["ranks"]:
            assert 0 <= cell["left"] and cell["right"] <= scrolled["width"], scrolled
        assert all(player["shown"] for player in scrolled["players"]), scrolled
        screenshot(page, f"standings-{size}-scrolled")
    finally:
        context.close()
