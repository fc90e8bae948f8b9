"""In the browser, on a phone (390 x 844): the hand and the actions are on the first screen at
every turn, the buttons are big enough for a thumb, keyboard focus stays on the hand after a
move and its ring does not look like the "playable" style."""

import pytest

from games import services, store
from games.bots import start_quick_game as start_with_bots
from tests.web.browser import screenshot
from tests.web.table_support import drive
from tests.web.test_browser_quick_game import FALLBACKS, settle, version, wait_for_move

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}

# Where an element is on the screen, and whether all of it is on the first screen.
ON_SCREEN = """element => {
  const r = element.getBoundingClientRect();
  return {top: r.top + window.scrollY, bottom: r.bottom + window.scrollY, left: r.left,
          right: r.right, height: r.height, width: r.width,
          inside: r.top + window.scrollY >= 0 && r.bottom + window.scrollY <= window.innerHeight
                  && r.left >= 0 && r.right <= window.innerWidth};
}"""


@pytest.fixture
def phone(chromium, live_server):
    context = chromium.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


def start_quick_game(page, live_server, *, bots: int, seed: str, variant="classic") -> None:
    """A quick game against ``bots`` (started as the quick game page does), opened by its
    seat's private link."""
    game, seat = start_with_bots(
        variant=variant, bots=bots, player="Tess", user=None, scoring="none", seed=seed
    )
    with page.expect_navigation(wait_until="load"):  # htmx binds as the page loads
        page.goto(f"{live_server.url}/table/{game.pk}/seat/{seat.secret}/")
    page.wait_for_selector("#board")


def my_turn(page) -> bool:
    return page.locator("#board .status-yours").count() > 0


@pytest.mark.parametrize(
    ("variant", "seed"),
    [
        ("classic", "phone-1"),
        ("classic", "phone-2"),
        ("power_grab", "phone-3"),
        ("veto", "phone-4"),
    ],
)
def test_at_390x844_a_playable_card_and_the_actions_are_on_the_first_screen_at_every_turn(
    phone, live_server, eager_tasks, variant, seed
):
    page = phone
    # Four seats, as at a club table.
    start_quick_game(page, live_server, bots=3, seed=seed, variant=variant)
    screenshot(page, f"table-phone-{seed}-start")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    turns = 0
    for _ in range(200):
        settle(page)
        if page.locator("#board .result").count():  # the game is over
            break
        before = version(page)
        cards = page.locator("#hand button.card.playable")
        buttons = page.locator("#actions button.action:visible")
        if not (cards.count() or buttons.count()):
            try:
                page.wait_for_function(
                    "v => document.querySelector('#board').dataset.version != v",
                    arg=str(before),
                )
            except Exception:
                screenshot(page, f"table-phone-{seed}-stuck")
                status = page.locator("#board .status").inner_text()
                raise AssertionError(f"nothing to press and nothing moves: {status}") from None
            continue
        # The page never scrolled: what is on screen is what the first screen shows.
        assert page.evaluate("window.scrollY") == 0
        if cards.count():
            first = cards.first.evaluate(ON_SCREEN)
            if not first["inside"]:
                screenshot(page, f"table-phone-{seed}-off-screen")
            assert first["inside"], f"turn {turns}: the first playable card is at {first}"
        for i in range(buttons.count()):
            box = buttons.nth(i).evaluate(ON_SCREEN)
            if not box["inside"]:
                screenshot(page, f"table-phone-{seed}-off-screen")
            assert box["inside"], f"turn {turns}: an action is at {box}"
            assert box["height"] >= 44 and box["width"] >= 44, f"too small for a thumb: {box}"
        if turns == 2:
            screenshot(page, f"table-phone-{seed}-turn")
        turns += 1
        picks = page.locator("#actions .pick button")
        if picks.count():
            picks.first.click()
        elif cards.count():
            cards.first.click()
        else:
            kinds = [f"#actions button.action-{kind}:visible" for kind in FALLBACKS]
            fallback = [page.locator(k) for k in kinds if page.locator(k).count()]
            (fallback[0] if fallback else buttons).first.click()
        wait_for_move(page, before)
    assert turns >= 3
    screenshot(page, f"table-phone-{seed}-end")


def test_keyboard_focus_stays_on_the_hand_after_a_move_with_a_ring_unlike_playable(
    phone, live_server, eager_tasks
):
    page = phone
    start_quick_game(page, live_server, bots=1, seed="phone-focus")
    moves = 0
    for _ in range(60):
        if moves >= 4 or page.locator("#board").get_attribute("data-pending") == "over":
            break
        settle(page)
        if page.locator("#actions .pick button").count():
            # Asked how to play the card: the focus is on the first answer already.
            assert page.evaluate("document.activeElement.closest('#actions .pick') !== null")
            before = version(page)
            page.keyboard.press("Enter")
            wait_for_move(page, before)
            continue
        cards = page.locator("#hand button.card.playable")
        if not (my_turn(page) and cards.count()):
            before = version(page)
            # No card to play: a button of the actions, by the keyboard too.
            for kind in FALLBACKS:
                button = page.locator(f"#actions button.action-{kind}")
                if button.count():
                    button.first.focus()
                    page.keyboard.press("Enter")
                    break
            else:
                page.wait_for_function(
                    "v => document.querySelector('#board').dataset.version != v",
                    arg=str(before),
                )
                continue
            wait_for_move(page, before)
            settle(page)
            page.wait_for_timeout(50)
            where = page.evaluate(
                "(() => { const a = document.activeElement; return {tag: a.tagName, id: a.id,"
                " ok: !!a.closest('#hand, #actions .pick')}; })()"
            )
            assert where["ok"], f"after pressing {kind} the focus is on {where}"
            continue

        if cards.count() >= 2:
            # The ring of a focused card differs from a playable card's frame.
            cards.nth(1).focus()
            page.keyboard.press("Shift+Tab")  # by the keyboard: :focus-visible
            looks = page.evaluate(
                """() => {
                  const cards = [...document.querySelectorAll('#hand button.card.playable')];
                  const style = e => { const s = getComputedStyle(e);
                    return {outline: s.outlineStyle + ' ' + s.outlineWidth + ' ' + s.outlineColor,
                            offset: s.outlineOffset, shadow: s.boxShadow}; };
                  return {focused: style(cards[0]), playable: style(cards[1]),
                          active: document.activeElement === cards[0]};
                }"""
            )
            assert looks["active"]
            focused, playable = looks["focused"], looks["playable"]
            assert focused["outline"] != playable["outline"], looks
            assert focused["shadow"] != playable["shadow"], looks
            assert "dashed" in focused["outline"] and "solid" in playable["outline"]

        before = version(page)
        cards.first.focus()
        page.keyboard.press("Enter")
        wait_for_move(page, before)
        settle(page)
        page.wait_for_timeout(50)
        moves += 1
        where = page.evaluate(
            "(() => { const a = document.activeElement;"
            " return {hand: !!a.closest('#hand'), pick: !!a.closest('#actions .pick'),"
            " tag: a.tagName, id: a.id}; })()"
        )
        assert where["hand"] or where["pick"], f"after move {moves} the focus is on {where}"
        # Still the keyboard's: Enter plays the focused card when it is playable.
    assert moves >= 2


STRIP = """strip => {
  const box = strip.getBoundingClientRect();
  const turn = strip.querySelector('.seat-turn').getBoundingClientRect();
  return {overflows: strip.scrollWidth > strip.clientWidth + 1, more: strip.dataset.more,
          turnInView: turn.left >= box.left - 1 && turn.right <= box.right + 1,
          scrolled: strip.scrollLeft};
}"""


def test_on_a_phone_the_players_strip_shows_whose_turn_it_is_and_where_more_players_are(
    phone, live_server
):
    # Eight at the table, Ann's link open, Hal's turn: his seat is at the far end of the strip.
    names = ["Ann", "Bob", "Cy", "Dee", "Eve", "Flo", "Gil", "Hal"]
    game = services.create_game(
        variant="classic", players=names, scoring="none", target=500, seed="strip", dealer=6
    )
    state, _ = store.load(game.pk)
    assert state.pending == ("turn", 7)
    ann = services.table_of(game.pk)[0]
    page = phone
    with page.expect_navigation(wait_until="load"):
        page.goto(f"{live_server.url}/table/{game.pk}/seat/{ann.secret}/")
    strip = page.locator("#board .seats")
    page.wait_for_function("() => document.querySelector('#board .seats').dataset.more")
    seen = strip.evaluate(STRIP)
    assert seen["overflows"] and seen["turnInView"], seen
    assert seen["more"] == "left"  # Hal is last: the others are to the left
    screenshot(page, "table-phone-strip-turn-at-the-end")

    strip.evaluate("strip => strip.scrollTo({left: 0})")
    page.wait_for_function("() => document.querySelector('#board .seats').dataset.more === 'right'")

    # Hal plays or draws (another device): the board is drawn again, Ann's turn comes, and the
    # strip brings her seat back into view.
    drive(game, until=lambda s: s.pending[1] == 0)
    page.wait_for_function(
        "() => document.querySelector('#board .seat-turn.seat-you')"
        " && document.querySelector('#board .seats').dataset.more === 'right'"
    )
    seen = strip.evaluate(STRIP)
    assert seen["turnInView"] and seen["scrolled"] == 0, seen


DESKTOP = {"width": 1280, "height": 800}


@pytest.mark.parametrize("variant", ["classic", "veto"])
def test_on_a_laptop_the_hand_and_the_actions_are_on_the_first_screen(
    chromium, live_server, variant
):
    # Three at the table; UNO VETO with two house rules written out on the board.
    options = {"customizable": ["rooster", "text:Swap hands with anyone you choose"]}
    for n in range(20):  # a deal that starts on Ann's turn
        game = services.create_game(
            variant=variant,
            players=["Ann", "Bob", "Cy"],
            scoring="standard",
            target=250,
            seed=f"laptop-{n}",
            dealer=2,
            options=options if variant == "veto" else None,
        )
        if store.load(game.pk)[0].pending == ("turn", 0):
            break
    ann = services.table_of(game.pk)[0]
    context = chromium.new_context(viewport=DESKTOP)
    page = context.new_page()
    with page.expect_navigation(wait_until="load"):
        page.goto(f"{live_server.url}/table/{game.pk}/seat/{ann.secret}/")
    page.wait_for_selector("#hand .card")
    screenshot(page, f"table-laptop-{variant}")
    first_card = page.locator("#hand .card").first.evaluate(ON_SCREEN)
    action = page.locator("#actions button.action:visible").first.evaluate(ON_SCREEN)
    wild_background = page.evaluate(
        """() => {
          const card = document.createElement('span');
          card.className = 'card c-W';
          document.querySelector('.table-page').append(card);
          return getComputedStyle(card).backgroundImage;
        }"""
    )
    context.close()
    assert first_card["bottom"] <= DESKTOP["height"], first_card
    assert action["bottom"] <= DESKTOP["height"], action
    # A wild card in the edition's own colours: UNO VETO's purple (#6a1b9a), not classic's red.
    purple, red = "rgb(106, 27, 154)" in wild_background, "rgb(198, 40, 40)" in wild_background
    assert purple if variant == "veto" else (red and not purple), wild_background
