"""In the browser: a Wild Draw 4 bluff is challenged at the table (the other seat's page
updates by itself), shown as a bluff with its evidence in the replay, and a referee undoes;
a dispute on a long game is ruled with an undo, on a phone and a desktop; the replay shows
every hand at both sizes. The dispute form offers the move just made until the player chooses
another event."""

import pytest

from games import services
from games.models import Event, Seat
from tests.web.browser import screenshot
from tests.web.table_support import deck_with, long_disputed_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


@pytest.fixture
def referee(django_user_model):
    return django_user_model.objects.create_user("ref", password="pw-ref-123")


@pytest.fixture
def bluff_game(referee):
    """Bob (seat 1) starts, holding a Wild Draw 4 and a red 3 on a red 5."""
    deck = deck_with(
        {
            1: ["W4", "R3", "B1", "B2", "B3", "B4", "B5"],
            0: ["G1", "G2", "G3", "G4", "G5", "G6", "G7"],
        },
        "R5",
    )
    return services.create_game(
        variant="classic",
        players=["Ann", "Bob"],
        scoring="standard",
        target=500,
        deck=deck,
        dealer=0,
        created_by=referee,
    )


@pytest.fixture
def contexts(chromium):
    """New browser contexts (one per seat), closed after the test so nothing polls on."""
    opened = []

    def new():
        context = chromium.new_context(viewport={"width": 1280, "height": 900})
        opened.append(context)
        return context

    yield new
    for context in opened:
        context.close()


def open_seat(contexts, live_server, game, seat):
    page = contexts().new_page()
    page.set_default_timeout(15_000)
    secret = Seat.objects.get(game=game, seat=seat).secret
    page.goto(f"{live_server.url}/table/{game.pk}/seat/{secret}/")
    page.wait_for_selector("#board")
    return page


def sign_in(page, live_server, next_url):
    page.goto(f"{live_server.url}/accounts/login/?next={next_url}")
    page.fill("input[name=username]", "ref")
    page.fill("input[name=password]", "pw-ref-123")
    # Until the page signed in to has loaded: htmx binds its triggers as the document loads,
    # and a slider moved before that sends nothing.
    with page.expect_navigation(wait_until="load"):
        page.click("button:has-text('Sign in')")


def test_a_bluff_is_challenged_at_the_table_and_shown_in_the_replay(
    contexts, live_server, bluff_game, page
):
    game = bluff_game
    bob = open_seat(contexts, live_server, game, 1)
    ann = open_seat(contexts, live_server, game, 0)
    assert ann.locator("#actions button").count() == 0  # not Ann's turn

    bob.click("#hand button[data-card=W4]")
    bob.click("#actions .pick button:has-text('call blue')")
    bob.wait_for_selector("#board .status:has-text('Waiting for Ann')")

    # Ann's page was not reloaded: the poll brought the challenge.
    ann.wait_for_selector("#actions button:has-text('Challenge the Wild Draw 4')")
    screenshot(ann, "table-challenge")
    ann.click("#actions button:has-text('Challenge the Wild Draw 4')")
    ann.wait_for_selector("#log :text('a bluff')")
    bob.wait_for_selector("#log :text('a bluff')")
    assert bob.locator("#hand .card").count() == 10  # six left, and the four he drew

    played = Event.objects.get(game=game, type="card_played", data__card="W4").version
    sign_in(page, live_server, f"/table/{game.pk}/replay/?v={played}")
    page.wait_for_selector("#frame")
    bluff = page.locator("#frame .w4")
    assert "a bluff" in bluff.inner_text()
    assert bluff.locator("[data-card=R3]").count() == 1
    assert "challenged: a bluff" in page.locator(".replay-side").inner_text()
    screenshot(page, "replay-bluff")

    # Stepping with the keyboard swaps the frame without a reload.
    page.focus("#step-next")
    page.keyboard.press("Enter")
    page.wait_for_selector(f"#frame[data-version='{played + 1}']")
    assert page.url.endswith(f"?v={played + 1}")


def test_a_referee_undoes_to_a_chosen_event(contexts, live_server, bluff_game, page):
    game = bluff_game
    bob = open_seat(contexts, live_server, game, 1)
    bob.click("#hand button[data-card=W4]")
    bob.click("#actions .pick button:has-text('call blue')")
    bob.wait_for_selector("#board .status:has-text('Waiting for Ann')")
    played = Event.objects.get(game=game, type="card_played", data__card="W4").version

    sign_in(page, live_server, f"/table/{game.pk}/replay/")
    page.wait_for_selector("#frame")
    page.locator("#replay-slider").fill(str(played - 1))
    page.wait_for_selector(f"#frame[data-version='{played - 1}']")
    page.fill("#undo-reason", "Bob misplayed")
    screenshot(page, "replay-undo")
    page.click("button:has-text('Undo to event')")
    page.wait_for_selector("#frame :text('A referee undid everything after event')")

    rewound = Event.objects.filter(game=game).order_by("-version").first()
    assert rewound.type == "rewound"
    assert rewound.data["to_version"] == played - 1
    assert rewound.data["reason"] == "Bob misplayed"
    # Bob's page follows by itself: the Wild Draw 4 is back in his hand.
    bob.wait_for_selector("#hand button[data-card=W4]")
    assert "Your turn" in bob.locator("#board .status").inner_text()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_ruling_on_a_long_game_offers_a_few_moments_and_any_other_from_the_replay(
    chromium, live_server, referee, size
):
    game, dispute, rows = long_disputed_game(referee)
    viewport = PHONE if size == "phone" else DESKTOP
    context = chromium.new_context(viewport=viewport)
    page = context.new_page()
    page.set_default_timeout(15_000)
    sign_in(page, live_server, f"/table/{game.pk}/replay/")
    choice = page.locator(f"#undo-to-{dispute.pk}")

    # A few moments, each said by what happened, not one per event of the game.
    labels = choice.locator("option").all_inner_texts()
    assert labels[0] == "No undo" and 3 <= len(labels) <= 8 < len(rows)
    assert labels[1].startswith("Just before the disputed move: ")
    assert labels[-1].startswith("The start of the hand: Hand ")
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    assert choice.bounding_box()["width"] <= viewport["width"]
    # Shown open for the screenshot (a select's own list of choices is drawn outside the page).
    choice.evaluate("select => { select.size = select.options.length; }")
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    choice.scroll_into_view_if_needed()
    screenshot(page, f"replay-ruling-{size}")
    choice.evaluate("select => select.removeAttribute('size')")

    # Any other moment: stepped to in the replay, then ruled on from there.
    moment = next(
        r.version
        for r in reversed(rows[: dispute.version - 20])
        if rows[r.version].batch == rows[r.version].version
    )
    page.locator("#replay-slider").fill(str(moment))
    page.wait_for_selector(f"#frame[data-version='{moment}']")
    with page.expect_navigation(wait_until="load"):
        page.get_by_role("link", name="He had to draw").click()
    assert choice.input_value() == str(moment)
    screenshot(page, f"replay-ruling-chosen-{size}")
    page.locator(f"#ruling-{dispute.pk} input[value=upheld]").check()
    with page.expect_navigation(wait_until="load"):
        page.locator(f"#ruling-{dispute.pk} button:has-text('Rule')").click()

    rewound = Event.objects.filter(game=game).order_by("-version").first()
    assert rewound.type == "rewound" and rewound.data["to_version"] == moment
    context.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_replay_shows_every_hand_at_both_sizes(
    chromium, live_server, referee, bluff_game, size
):
    """A referee ruling at the table on a phone sees every hand in the replay, as on a desktop
    (on a phone the players' strip shows no hands: they stand under it, one to a line)."""
    game = bluff_game
    viewport = PHONE if size == "phone" else DESKTOP
    context = chromium.new_context(viewport=viewport)
    page = context.new_page()
    page.set_default_timeout(15_000)
    sign_in(page, live_server, f"/table/{game.pk}/replay/")
    page.wait_for_selector("#frame")

    for name, card in (("Bob", "W4"), ("Ann", "G7")):
        hand = page.get_by_role("list", name=f"{name}'s hand")
        assert hand.count() == 1  # the one shown at this size: the other is not displayed
        assert hand.locator(f"[data-card={card}]").is_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    screenshot(page, f"replay-hands-{size}")
    context.close()


def test_the_dispute_form_offers_the_move_just_made_until_the_player_chooses_another(
    contexts, live_server, bluff_game
):
    game = bluff_game
    ann = open_seat(contexts, live_server, game, 0)
    bob = open_seat(contexts, live_server, game, 1)
    opened_at = ann.locator("#dispute-version").input_value()

    bob.click("#hand button[data-card=W4]")
    bob.click("#actions .pick button:has-text('call blue')")
    ann.wait_for_selector("#actions button:has-text('Challenge the Wild Draw 4')")
    played = Event.objects.get(game=game, type="card_played", data__card="W4").version

    # Ann's page was not reloaded: the event offered is the Wild Draw 4, not the one that was
    # newest when she opened the page.
    ann.wait_for_function(
        f"document.querySelector('#dispute-version').value === '{played}'", timeout=5_000
    )
    offered = ann.locator("#dispute-version option:checked").inner_text()
    assert "Bob played wild draw four" in offered

    # An event she chose herself stays chosen as the game moves on.
    ann.select_option("#dispute-version", opened_at)
    ann.click("#actions button:has-text('Accept')")
    ann.wait_for_selector("#board .status:has-text('Waiting for Bob')")
    ann.wait_for_timeout(500)
    assert ann.locator("#dispute-version").input_value() == opened_at
