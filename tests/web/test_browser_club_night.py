"""In the browser, at a desktop's and a phone's size, as people use the site: an organiser
signs in, opens a league, a season and a night, seats a table on the site and one on paper,
records a paper hand (an impossible one is refused first), follows the night as its tables
finish, closes it and sees the standings move. A referee named on the league's page finds a
Wild Draw 4 from the season page and rules on the dispute about it. No page is wider than the
screen."""

import re

import pytest
from django.contrib.auth import get_user_model

from games import services as game_services
from games.models import Dispute, Event, Game
from rules import legal_commands
from tests.web.browser import screenshot
from tests.web.table_support import deck_with
from tournaments.leagues import services
from tournaments.leagues.demo import play_with_bots
from tournaments.leagues.models import League, Referee, Season, SeasonGame, SeasonSeat

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}


@pytest.fixture(params=list(SIZES))
def screen(request, chromium, live_server):
    """A page at the size named by the test's parameter."""
    context = chromium.new_context(viewport=SIZES[request.param])
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.size_name = request.param
    yield page
    context.close()


def fits(page):
    """The page is no wider than the screen: nothing scrolls sideways but its own boxes."""
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"{page.url} is {width} px wide"


def visit(page, url):
    page.goto(url)
    fits(page)


def submit(page, form, button):
    """Press a form's button and wait for the page it leads to, then check that page fits."""
    with page.expect_navigation(wait_until="load"):
        page.locator(form).get_by_role("button", name=button).click()
    fits(page)


def swap(page, form, button, then):
    """Press a button of a form htmx sends, and wait for what the answer shows (``then``)."""
    page.locator(form).get_by_role("button", name=button).click()
    page.locator(then).first.wait_for()
    fits(page)


def sign_in(page, base, username, password, next_url=""):
    visit(page, f"{base}/accounts/login/" + (f"?next={next_url}" if next_url else ""))
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    submit(page, "main form", "Sign in")


@pytest.fixture
def olga(db):
    return get_user_model().objects.create_user("olga", password="Tables-at-8", first_name="Olga")


def last_week(season, olga):
    """Night 1, played on paper last week: Dee, Eve and Gus each won a game (to 25) by a
    little; Cy, Fay and Hal won none."""
    night = services.open_night(season=season)
    for winner, loser, points in (("Dee", "Cy", 30), ("Eve", "Fay", 40), ("Gus", "Hal", 50)):
        game = services.start_season_game(
            season=season, players=[winner, loser], night=night, created_by=olga, sheet=True
        )
        services.record_hand(game_id=game.pk, out=0, points={"1": points}, actor="system")
    services.close_night(night=night, by=olga)


def test_an_organiser_runs_a_league_night_from_sign_in_to_standings(screen, live_server, olga):
    page, base = screen, live_server.url
    sign_in(page, base, "olga", "Tables-at-8")
    assert page.url == f"{base}/leagues/"

    # A league and a season.
    page.get_by_role("link", name="Open a new league").click()
    page.wait_for_load_state()
    fits(page)
    page.get_by_label("Name").fill("Thursday Club")
    page.get_by_label("Target score").fill("25")
    submit(page, "main form", "Open the league")
    assert page.get_by_role("heading", name="Thursday Club", level=1).is_visible()
    page.get_by_role("link", name="Open a new season").click()
    page.wait_for_load_state()
    fits(page)
    page.get_by_label("Name").fill("Autumn")
    page.get_by_label("Nights counted").fill("10")
    submit(page, "main form", "Open the season")
    assert "Autumn is open" in page.locator(".status").inner_text()
    season = Season.objects.get(name="Autumn")
    assert (season.effective_target, season.best_nights) == (25, 10)
    last_week(season, olga)

    # Tonight: night 2, a table on the site and one on paper.
    page.reload()
    submit(page, "form.open-night", "Open night 2")
    assert page.get_by_role("heading", name="Night 2 of Autumn").is_visible()
    page.get_by_label("New players").fill("Ann\nBob")
    submit(page, "form.seat-table", "Seat the table")
    assert page.get_by_label("Ann's private link").input_value().startswith(f"{base}/table/")
    page.get_by_label("With cards: the organiser keeps a paper score sheet here").check()
    page.get_by_label("Cy").check()
    page.get_by_label("Dee").check()
    submit(page, "form.seat-table", "Seat the table")
    tables = page.locator("#night-tables article")
    assert tables.count() == 2
    screenshot(page, f"club-night-seated-{page.size_name}")

    # The paper table: an impossible hand is refused, then the real one is checked and recorded.
    tables.nth(1).get_by_role("link", name="Record hands on the score sheet").click()
    page.wait_for_load_state()
    fits(page)
    page.locator("label").filter(has_text="Cy").locator("input[name=out]").check()
    page.locator("#points-1").fill("99999")
    swap(page, "#entry-form", "Check the hand", ".error-summary")
    summary = page.locator(".error-summary").inner_text()
    assert "The hand was not recorded." in summary
    assert "99999 points is more than a whole Classic UNO deck is worth (1240 points)" in summary
    page.locator("#points-1").fill("120")
    swap(page, "#entry-form", "Check the hand", "#confirm-hand")
    preview = page.locator("#entry-form").inner_text()
    assert "Cy went out" in preview and "This hand ends the game: Cy wins" in preview
    assert Event.objects.filter(type="hand_recorded").count() == 3  # last week's only
    swap(page, "#entry-form", "Record hand 1", "#sheet-hands h3:text('Game over')")
    assert Event.objects.filter(type="hand_recorded").count() == 4

    # The table on the site plays on (its players on their phones); the night page follows.
    page.get_by_role("link", name="Back to night 2").click()
    page.wait_for_load_state()
    fits(page)
    digital = Game.objects.get(sheet=False)
    play_with_bots(digital.pk, seed="tonight")
    page.locator("#night-tables article").first.get_by_text("Finished.").wait_for()

    submit(page, "#close", "Close night 2")
    moves = page.locator("#moves").inner_text()
    assert "The standings after night 2" in moves
    cy = page.locator("#moves tr").filter(has_text="Cy").inner_text()
    assert re.search(r"up \d+ places? \(was 4th\)", cy), cy
    assert "new in the table" in page.locator("#moves tr").filter(has_text="Ann").inner_text()
    screenshot(page, f"club-night-closed-{page.size_name}")

    # The standings page: the night's games link their tables and replays.
    page.get_by_role("link", name="The full standings of Autumn").click()
    page.wait_for_load_state()
    fits(page)
    night = page.locator("section.night").filter(has_text="Night 2")
    assert night.get_by_role("link", name=re.compile("^The table")).count() == 2
    night.get_by_role("link", name=re.compile("^Replay")).first.click()
    page.wait_for_load_state()
    fits(page)
    assert f"/table/{digital.pk}/replay/" in page.url

    # Done: sign out.
    with page.expect_navigation():
        page.get_by_role("button", name="Sign out (olga)").click()
    assert "Sign in" in page.locator("header").inner_text()


def stacked_season_game(season, names, organiser, *, deck, dealer):
    """A season game dealt from ``deck`` by ``dealer``, for a test that needs a known deal. An
    organiser cannot start one (a game that counts is dealt by chance alone): a practice game
    is dealt so and joined to the season as ``services.start_season_game`` joins its own."""
    game = game_services.create_game(
        variant=season.effective_variant,
        players=names,
        scoring=season.effective_scoring,
        target=season.effective_target,
        deck=deck,
        dealer=dealer,
        created_by=organiser,
    )
    Game.objects.filter(pk=game.pk).update(season_id=season.pk)
    seated = [services.register_player(league=season.league, name=name) for name in names]
    joined = SeasonGame.objects.create(
        game=game, season=season, night=services.night_of(season=season)
    )
    SeasonSeat.objects.bulk_create(
        SeasonSeat(season_game=joined, seat=i, player=p) for i, p in enumerate(seated)
    )
    return Game.objects.get(pk=game.pk)


@pytest.fixture
def disputed(olga):
    """A season game in which Bob played a Wild Draw 4 while holding a red 3 on a red 5, and
    Ann disputes it."""
    league = services.open_league(name="Thursday Club", created_by=olga)
    season = services.open_season(league=league, name="Autumn", by=olga)
    deck = deck_with(
        {
            1: ["W4", "R3", "B1", "B2", "B3", "B4", "B5"],
            0: ["G1", "G2", "G3", "G4", "G5", "G6", "G7"],
        },
        "R5",
    )
    game = stacked_season_game(season, ["Ann", "Bob"], olga, deck=deck, dealer=0)
    state = game_services.load_game(game_id=game.pk)
    play = next(
        c for c in legal_commands(state, 1) if getattr(c, "card", "") == "W4" and c.colour == "B"
    )
    game_services.apply_command(game_id=game.pk, command=play, actor="seat:1")
    version = Event.objects.get(game=game, type="card_played", data__card="W4").version
    game_services.open_dispute(
        game_id=game.pk,
        version=version,
        claim="Bob had a red card when he played the Wild Draw 4",
        by="seat:0",
    )
    get_user_model().objects.create_user("rita", password="Whistle-2026", first_name="Rita")
    return season, game


def test_a_named_referee_finds_the_wild_draw_4_from_the_season_and_rules(
    screen, live_server, disputed
):
    page, base = screen, live_server.url
    season, game = disputed

    # The organiser names Rita referee on the league's page.
    sign_in(page, base, "olga", "Tables-at-8", next_url=f"/leagues/{season.league_id}/")
    page.get_by_label("Their user name").fill("rita")
    submit(page, "#roles form.stacked-form", "Name them")
    assert "rita is now referee of Thursday Club." in page.locator(".status").inner_text()
    assert Referee.objects.filter(user__username="rita", league=season.league).exists()
    with page.expect_navigation():
        page.get_by_role("button", name="Sign out (olga)").click()

    # Rita, from the season page, opens the table's replay and finds the Wild Draw 4.
    sign_in(page, base, "rita", "Whistle-2026", next_url=f"/seasons/{season.pk}/")
    page.locator("section.night").get_by_role("link", name=re.compile("^Replay")).click()
    page.wait_for_load_state()
    fits(page)
    dispute = page.locator("#disputes article").first
    assert "Bob had a red card" in dispute.inner_text()
    # The moment disputed, said as what happened and in which hand.
    dispute.get_by_role("link", name=re.compile(r"\(hand \d+\)$")).click()
    page.wait_for_load_state()
    fits(page)
    assert "wild draw four" in page.locator("#frame").inner_text().lower()

    # She rules: upheld, with a note.
    dispute = page.locator("#disputes article").first
    dispute.get_by_role("radio", name="Upheld").check()
    dispute.get_by_label("Note", exact=True).fill("Bob held the red 3: a bluff")
    with page.expect_navigation(wait_until="load"):
        dispute.get_by_role("button", name="Rule").click()
    fits(page)
    ruled = Dispute.objects.get(game=game)
    assert ruled.status == Dispute.Status.UPHELD and "red 3" in ruled.ruling
    assert "upheld" in page.locator("#disputes").inner_text()
    screenshot(page, f"club-night-ruling-{page.size_name}")


def test_a_dispute_on_a_finished_game_is_upheld_with_an_undo_by_clicking(
    screen, live_server, disputed
):
    """The game ended while the dispute waited: the ruling form says an undo reopens it, and
    upholding with one does, with the ruling as the reason."""
    page, base = screen, live_server.url
    season, game = disputed
    play_with_bots(game.pk, seed="to the end")
    played = Dispute.objects.get(game=game).version

    sign_in(page, base, "olga", "Tables-at-8", next_url=f"/table/{game.pk}/replay/")
    dispute = page.locator("#disputes article").first
    assert "upheld with an undo, it is reopened" in dispute.inner_text().lower()
    dispute.get_by_role("radio", name="Upheld").check()
    dispute.get_by_label("Note", exact=True).fill("Bob held the red 3: a bluff")
    dispute.get_by_label("Undo moves (upheld only)").select_option(str(played - 1))
    with page.expect_navigation(wait_until="load"):
        dispute.get_by_role("button", name="Rule").click()
    fits(page)
    assert page.locator(".error").count() == 0
    assert "upheld" in page.locator("#disputes").inner_text()
    rewound = Event.objects.filter(game=game).order_by("-version").first()
    assert (rewound.type, rewound.data["to_version"], rewound.data["reopened"]) == (
        "rewound",
        played - 1,
        True,
    )
    assert "red 3" in rewound.data["reason"]
    assert Game.objects.get(pk=game.pk).status == Game.Status.PLAYING


def test_league_pages_fit_a_phone_without_javascript_tricks(screen, live_server, olga):
    """The league list, a league, its standings, a player and the sign-in and error pages, each
    no wider than the screen (the standings' hidden words once made a phone's page 506 px)."""
    page, base = screen, live_server.url
    league = services.open_league(
        name="A club with a rather long name for a phone", created_by=olga
    )
    season = services.open_season(league=league, name="Autumn", by=olga)
    night = services.open_night(season=season)
    for players in (["Ann", "Bob", "Cy"], ["Dee", "Eve"]):
        game = services.start_season_game(
            season=season, players=players, night=night, created_by=olga, sheet=True
        )
        services.record_hand(
            game_id=game.pk,
            out=0,
            points={str(n): 300 for n in range(1, len(players))},
            actor="system",
        )
    player = league.players.get(name="Ann")
    for url in (
        "/leagues/",
        f"/leagues/{league.pk}/",
        f"/seasons/{season.pk}/",
        f"/nights/{night.pk}/",
        f"/players/{player.pk}/",
        "/accounts/login/",
        "/nights/999999/",
    ):
        visit(page, base + url)
    sign_in(page, base, "olga", "Tables-at-8", next_url=f"/leagues/{league.pk}/")
    for url in (
        "/leagues/",
        f"/leagues/{league.pk}/",
        f"/leagues/{league.pk}/seasons/new/",
        f"/seasons/{season.pk}/",
        f"/nights/{night.pk}/",
        "/leagues/new/",
        "/accounts/password/",
    ):
        visit(page, base + url)
    assert League.objects.count() == 1

    # The standings, wider than a phone, show that they scroll sideways: the end out of view
    # fades; scrolled to it, the start fades instead.
    visit(page, base + f"/seasons/{season.pk}/")
    wrap = page.locator(".table-wrap").first
    ends = """w => ({wide: w.scrollWidth > w.clientWidth + 1,
                    mask: getComputedStyle(w).maskImage || getComputedStyle(w).webkitMaskImage})"""
    seen = wrap.evaluate(ends)
    if page.size_name == "phone":
        assert seen["wide"] and ("to right" in seen["mask"] or "90deg" in seen["mask"]), seen
        wrap.evaluate("w => w.scrollTo({left: w.scrollWidth})")
        page.wait_for_timeout(100)
        seen = wrap.evaluate(ends)
        assert "to left" in seen["mask"] or "270deg" in seen["mask"], seen
    else:
        assert not seen["wide"]


def test_the_season_and_night_pages_show_the_house_rules_at_each_size(screen, live_server, olga):
    """A VETO league's house rules (one of them a long word typed without spaces) are said
    under Rules on its season's page and its night's page, each rule on its own line, and the
    page stays as wide as the screen."""
    page, base = screen, live_server.url
    long_rule = "Sing-" + "la" * 60 + "-before-playing-your-next-card"
    league = services.open_league(
        name="VETO Club",
        variant="veto",
        options={"customizable": ["joke", f"text:{long_rule}"]},
        created_by=olga,
    )
    season = services.open_season(league=league, name="Spring", by=olga)
    night = services.open_night(season=season)
    for url in (f"/seasons/{season.pk}/", f"/nights/{night.pk}/"):
        visit(page, base + url)
        rules = page.locator(".settings dt", has_text="House rules")
        assert rules.is_visible(), url
        lines = page.locator(".settings .option-lines li")
        texts = lines.all_inner_texts()
        assert texts[0].startswith("Card 1: tell a joke") and texts[1] == f"Card 2: “{long_rule}”"
        for n in range(2):
            box = lines.nth(n).bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= page.viewport_size["width"]
        screenshot(page, f"house-rules-{url.split('/')[1]}-{page.size_name}")


def test_the_night_page_following_its_tables_keeps_a_take_off_reason_being_typed(
    chromium, live_server, olga
):
    """The tables' list is fetched again every few seconds (once the focus has left it): the
    form that takes a table off, opened and half typed, stays open with what was typed."""
    league = services.open_league(name="Slow thumbs", created_by=olga)
    season = services.open_season(league=league, name="S", by=olga)
    night = services.open_night(season=season, by=olga)
    game = services.start_season_game(
        season=season, players=["Ann", "bea"], night=night, created_by=olga
    )
    context = chromium.new_context(viewport=SIZES["phone"])
    page = context.new_page()
    page.set_default_timeout(20_000)
    try:
        sign_in(page, live_server.url, "olga", "Tables-at-8", f"/nights/{night.pk}/")
        table = page.locator("#night-tables article").first
        table.locator("summary").click()
        table.get_by_label("Why").press_sequentially("Bea is")
        polled = f"/nights/{night.pk}/"
        with page.expect_response(lambda r: r.url.endswith(polled), timeout=15_000):
            page.get_by_role("heading", name="Tables").click()  # a tap beside the box
        page.wait_for_timeout(300)  # the answer swapped in
        table = page.locator("#night-tables article").first
        assert table.locator("details").evaluate("d => d.open")
        assert table.get_by_label("Why").input_value() == "Bea is"
        table.get_by_label("Why").press("End")
        page.keyboard.type(" Bea, not bea")
        with page.expect_navigation(wait_until="load"):
            table.get_by_role("button", name="Take table 1 off the night").click()
        assert "The table is taken off the night" in page.locator(".status").inner_text()
        assert "Bea is Bea, not bea" in Game.objects.get(pk=game.pk).closed
    finally:
        context.close()


def test_the_night_page_following_its_tables_leaves_the_keyboard_focus_where_it_is(
    chromium, live_server, olga
):
    """Tabbing through the tables (a player's link, Copy, the score sheet), the focus stays put
    while the list would be fetched again; the list follows the tables again once the focus
    has left it."""
    league = services.open_league(name="Keys", created_by=olga)
    season = services.open_season(league=league, name="S", by=olga)
    night = services.open_night(season=season, by=olga)
    services.start_season_game(season=season, players=["Ann", "Bob"], night=night, created_by=olga)
    context = chromium.new_context(viewport=SIZES["desktop"])
    page = context.new_page()
    page.set_default_timeout(20_000)
    focused = "() => document.activeElement.getAttribute('aria-label')"
    polled = f"/nights/{night.pk}/"
    try:
        sign_in(page, live_server.url, "olga", "Tables-at-8", polled)
        page.get_by_role("button", name="Copy the link for Bob").focus()
        page.wait_for_timeout(6_500)  # longer than the list's 5 s
        assert page.evaluate(focused) == "Copy the link for Bob"

        page.get_by_role("button", name="Seat the table").focus()
        with page.expect_response(lambda r: r.url.endswith(polled), timeout=10_000):
            pass
    finally:
        context.close()


def test_by_keyboard_the_score_sheet_keeps_focus_on_the_hand_being_written(
    chromium, live_server, olga
):
    """Checking, changing and recording a hand with the keyboard: after each press the focus is
    on the form the answer brought (not back at the top of the page), so the next hand is
    written without tabbing through the whole page again."""
    league = services.open_league(name="Keys", created_by=olga)
    season = services.open_season(league=league, name="S", by=olga)
    night = services.open_night(season=season, by=olga)
    game = services.start_season_game(
        season=season, players=["Ann", "Bob"], night=night, created_by=olga, sheet=True
    )
    context = chromium.new_context(viewport=SIZES["phone"])
    page = context.new_page()
    page.set_default_timeout(20_000)
    focused = """() => document.activeElement.closest('#entry-form')
        ? document.activeElement.innerText : document.activeElement.tagName"""

    def press(button, then):
        page.get_by_role("button", name=button).focus()
        page.keyboard.press("Enter")
        page.locator(then).first.wait_for()
        page.wait_for_timeout(200)
        return page.evaluate(focused)

    try:
        sign_in(page, live_server.url, "olga", "Tables-at-8", f"/score-sheets/{game.pk}/")
        page.locator("#out-0").focus()
        page.keyboard.press("Space")
        page.locator("#points-1").fill("20")
        assert press("Check the hand", "#confirm-hand") == "Check hand 1 before recording it"
        assert press("Change it", "#entry-form:not(.confirm)") == "Record hand 1"
        page.keyboard.press("Tab")  # on to what the hand needs: who went out
        assert page.evaluate("document.activeElement.name") == "out"
        press("Check the hand", "#confirm-hand")
        assert press("Record hand 1", "#sheet-hands tbody tr") == "Record hand 2"
    finally:
        context.close()


def test_by_keyboard_undoing_a_hand_leaves_the_focus_on_the_form_to_write_it_again(
    chromium, live_server, olga
):
    """The Undo button, pressed and confirmed, is swapped out with the hands: the focus goes to
    the form where the hand undone is recorded again, not to the page itself."""
    league = services.open_league(name="Keys", created_by=olga)
    season = services.open_season(league=league, name="S", by=olga)
    night = services.open_night(season=season, by=olga)
    game = services.start_season_game(
        season=season, players=["Ann", "Bob"], night=night, created_by=olga, sheet=True
    )
    for out in (0, 1):
        services.record_hand(game_id=game.pk, out=out, points={str(1 - out): 5}, actor="system")
    context = chromium.new_context(viewport=SIZES["phone"])
    page = context.new_page()
    page.set_default_timeout(20_000)
    try:
        sign_in(page, live_server.url, "olga", "Tables-at-8", f"/score-sheets/{game.pk}/")
        asked = []
        page.on("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))

        def undo(hand, then):
            page.get_by_role("button", name=f"Undo hand {hand}").focus()
            page.keyboard.press("Enter")
            page.locator(then).first.wait_for()
            page.wait_for_timeout(200)
            assert f"Hand {hand} undone." in page.locator("#sheet-status").inner_text()
            return page.evaluate("[document.activeElement.id, document.activeElement.innerText]")

        # Not on the next Undo button (another Enter would undo one more hand) ...
        assert undo(2, "#undo-hand:text('Undo hand 1')") == ["entry-heading", "Record hand 2"]
        # ... nor on the page itself once the last hand is undone and no Undo button is left.
        assert undo(1, "#sheet-hands:not(:has(#undo-hand))") == ["entry-heading", "Record hand 1"]
        assert asked == ["Undo hand 2?", "Undo hand 1?"]
        page.keyboard.press("Tab")  # on to what the hand needs: who went out
        assert page.evaluate("document.activeElement.name") == "out"
    finally:
        context.close()


def test_a_refused_league_season_or_table_form_puts_the_focus_on_what_is_wrong(
    screen, live_server, olga
):
    """Sent back with an error, the league's, the season's and the table's forms put the
    keyboard's focus (and the screen) on the summary of what is wrong, not at the top of the
    page."""
    page, base = screen, live_server.url
    league = services.open_league(name="Thursday Club", created_by=olga)
    season = services.open_season(league=league, name="Autumn", by=olga)
    night = services.open_night(season=season, by=olga)
    focused = """() => { const a = document.activeElement, r = a.getBoundingClientRect();
        return {summary: a.matches('.error-summary'), text: a.innerText,
                seen: r.top >= 0 && r.bottom <= innerHeight}; }"""
    sign_in(page, base, "olga", "Tables-at-8", "/leagues/new/")

    page.get_by_label("Name").fill("Friday Club")
    page.get_by_label("Target score").fill("0")
    submit(page, "main form", "Open the league")
    league_form = page.evaluate(focused)
    visit(page, f"{base}/leagues/{league.pk}/seasons/new/")
    page.get_by_label("Attendance points").fill("")
    submit(page, "main form", "Open the season")
    season_form = page.evaluate(focused)
    visit(page, f"{base}/nights/{night.pk}/")
    page.get_by_label("New players").fill("Ann")
    submit(page, "form.seat-table", "Seat the table")
    table_form = page.evaluate(focused)

    for answer in (league_form, season_form):
        assert answer["summary"] and answer["seen"], answer
        assert "Nothing was saved. Correct what is marked below." in answer["text"]
    assert table_form["summary"] and table_form["seen"], table_form
    assert "A table seats 2 to 10 players; 1 was chosen." in table_form["text"]


def test_on_a_phone_a_wide_tables_caption_and_empty_line_are_read_without_scrolling_sideways(
    chromium, live_server, olga
):
    """The standings and a player's games scroll sideways on a phone; what they say above and
    instead of their rows stays in view, whole, wherever the table is scrolled."""
    league = services.open_league(name="Captions", created_by=olga)
    empty = services.open_season(league=league, name="Spring", by=olga)
    season = services.open_season(league=league, name="Autumn", by=olga)
    night = services.open_night(season=season)
    game = services.start_season_game(
        season=season, players=["Ann", "Bob"], night=night, created_by=olga, sheet=True
    )
    services.record_hand(game_id=game.pk, out=0, points={"1": 600}, actor="system")
    ann = league.players.get(name="Ann")
    context = chromium.new_context(viewport=SIZES["phone"])
    page = context.new_page()
    # Where the words themselves are drawn (not their box, as wide as the table).
    words = """w => [...w.querySelectorAll('caption, td[colspan]')]
        .filter(e => e.getBoundingClientRect().width > 1)
        .map(e => {
          const text = document.createRange();
          text.selectNodeContents(e);
          const box = w.getBoundingClientRect(), r = text.getBoundingClientRect();
          return {text: e.innerText.slice(0, 40), left: r.left - box.left,
                  right: box.right - r.right};
        })"""
    try:
        for url in (f"/seasons/{empty.pk}/", f"/players/{ann.pk}/", f"/seasons/{season.pk}/"):
            visit(page, live_server.url + url)
            for wrap in page.locator(".table-wrap").all():
                assert wrap.evaluate("w => w.scrollWidth > w.clientWidth"), url  # it scrolls
                for end in ("0", "w.scrollWidth"):
                    wrap.evaluate(f"w => w.scrollTo({{left: {end}}})")
                    page.wait_for_timeout(50)
                    seen = wrap.evaluate(words)
                    assert seen, url
                    assert all(w["left"] >= -1 and w["right"] >= -1 for w in seen), (url, seen)
    finally:
        context.close()


def test_on_a_phone_the_night_pages_boxes_and_round_buttons_are_big_enough_for_a_thumb(
    chromium, live_server, olga
):
    league = services.open_league(name="Thumbs", created_by=olga)
    season = services.open_season(league=league, name="S", by=olga)
    for name in ("Ann", "Bob", "Cy"):
        services.register_player(league=league, name=name, by=olga)
    night = services.open_night(season=season, by=olga)
    context = chromium.new_context(viewport=SIZES["phone"], is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(20_000)
    sign_in(page, live_server.url, "olga", "Tables-at-8", f"/nights/{night.pk}/")
    sizes = page.evaluate(
        """() => [...document.querySelectorAll(
              '.seat-table input[type=radio], .seat-table input[type=checkbox]')]
            .map(i => ({input: i.getBoundingClientRect().height,
                        row: i.closest('label').getBoundingClientRect().height}))"""
    )
    context.close()
    assert len(sizes) == 2 + 3  # how the table plays, and the league's three players
    assert all(s["input"] >= 20 and s["row"] >= 44 for s in sizes), sizes


def test_the_organiser_copies_a_players_private_link_with_one_press(chromium, live_server, olga):
    league = services.open_league(name="Links", created_by=olga)
    season = services.open_season(league=league, name="S", by=olga)
    night = services.open_night(season=season, by=olga)
    game = services.start_season_game(
        season=season, players=["Ann", "Bob"], night=night, created_by=olga
    )
    context = chromium.new_context(viewport=SIZES["phone"])
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    page = context.new_page()
    page.set_default_timeout(20_000)
    sign_in(page, live_server.url, "olga", "Tables-at-8", f"/nights/{night.pk}/")
    page.get_by_role("button", name="Copy the link for Ann").click()
    page.wait_for_selector(".seat-link[data-player='Ann'] .link-status:text('Copied.')")
    copied = page.evaluate("navigator.clipboard.readText()")
    context.close()
    secret = game.seats.get(seat=0).secret
    assert copied == f"{live_server.url}/table/{game.pk}/seat/{secret}/"
