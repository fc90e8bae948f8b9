"""UNO Spin at the table: an Almost UNO is answered on the page in steps, the two cards to
keep (a button a card, in words) and then the others, ticked, with the one on top; a
Discard Colour is ticked too, and goes on after a card laid down by a program."""

import html
import json

import pytest
from django.test import Client

from games import services
from rules.commands import PlayCard
from rules.variants.spin import variant as spin
from rules.variants.spin.commands import ClaimUnoSpin, SpinWheel, WheelLay
from tests.web.conftest import seat_client
from tests.web.table_support import Buttons, deck_with

pytestmark = pytest.mark.django_db


def at_the_wheel(client, make_game, monkeypatch, segment, first, others=None):
    """Bob plays the red 3 Spin card; Ann (seat 0, holding ``first`` and ``others``, by default
    B1, B2, B3, Y6, Y7, G8) spins, the wheel lands on ``segment``, and ``client`` is Ann's."""
    monkeypatch.setattr(spin, "spin_wheel", lambda s: segment)
    deck = deck_with(
        {
            1: ["R3~", "G1", "G2", "G3", "G4", "G5", "G6"],
            0: [first, *(others or ["B1", "B2", "B3", "Y6", "Y7", "G8"])],
        },
        "R5",
        variant="spin",
    )
    game = make_game(players=("Ann", "Bob"), variant="spin", deck=deck, dealer=0, seed=None)
    services.apply_command(game_id=game.pk, command=PlayCard(1, "R3~"), actor="seat:1")
    services.apply_command(game_id=game.pk, command=SpinWheel(0), actor="seat:0")
    seat_client(client, game, 0)
    return game


def test_an_almost_uno_is_answered_on_the_page_in_two_steps(client, make_game, monkeypatch):
    game = at_the_wheel(client, make_game, monkeypatch, "almost_uno", "R4")

    # First the two cards to keep, one after the other: a button a card, in words.
    for card, words in (("R4", "Keep red 4"), ("B1", "Keep blue 1")):
        page = client.get(f"/table/{game.pk}/").text
        keep = {"type": "wheel_keep", "cards": [card]}
        assert keep in Buttons(page).commands
        assert words in html.unescape(page)
        assert len([c for c in Buttons(page).commands if c["type"] == "wheel_keep"]) <= 7
        state = services.load_game(game_id=game.pk)
        form = {"version": str(state.version), "command": json.dumps(keep)}
        assert client.post(f"/table/{game.pk}/command/", form).status_code == 302
    assert "choose the second card to keep" in html.unescape(page)  # (the second step)
    bob = html.unescape(seat_client(Client(), game, 1).get(f"/table/{game.pk}/").text)
    assert "Ann kept a card and chooses the second to keep." in bob
    assert "Ann kept two cards and chooses which of the others goes on top." in bob
    assert "red 4" not in bob and "blue 1" not in bob  # which cards stays Ann's

    # Then the others go, with a button for each card that may go on top: nothing to tick,
    # no UNO to say (two cards stay).
    state = services.load_game(game_id=game.pk)
    assert state.pending == ("almost_uno_top", 0)
    page = client.get(f"/table/{game.pk}/").text
    assert not Buttons(page).checkboxes and "Say <strong>UNO!</strong>" not in page
    discards = [c for c in Buttons(page).commands if c["type"] == "wheel_discard"]
    assert sorted(c["cards"][-1] for c in discards) == ["B2", "B3", "G8", "Y6", "Y7"]
    assert all(sorted(c["cards"]) == ["B2", "B3", "G8", "Y6", "Y7"] for c in discards)
    assert "Discard these 5 cards, yellow 7 on top" in html.unescape(page)
    bob = html.unescape(seat_client(Client(), game, 1).get(f"/table/{game.pk}/").text)
    assert "Discard these" not in bob and "yellow 7" not in bob  # Ann's choices stay hers
    (on_top,) = [c for c in discards if c["cards"][-1] == "Y7"]
    form = {"version": str(state.version), "command": json.dumps(on_top)}
    assert client.post(f"/table/{game.pk}/command/", form).status_code == 302
    state = services.load_game(game_id=game.pk)
    assert state.hands[0] == ("R4", "B1")
    assert (state.top, state.colour) == ("Y7", "Y")


def test_a_discard_colour_is_ticked_on_the_page_and_goes_on_after_a_card_laid_down(
    client, make_game, monkeypatch
):
    game = at_the_wheel(client, make_game, monkeypatch, "discard_colour", "B4")

    # The cards are ticked, with no button of their own for each card laid down.
    page = client.get(f"/table/{game.pk}/").text
    buttons = Buttons(page)
    assert {("cards", card) for card in ["B4", "B1", "B2", "B3"]} <= set(buttons.checkboxes)
    assert not [c for c in buttons.commands if c.get("type") == "wheel_lay"]
    assert "discard cards of one colour" in html.unescape(page)

    # A program lays the blue 4 down; the page then asks for more blue cards, in words.
    services.apply_command(game_id=game.pk, command=WheelLay(0, "B4"), actor="seat:0")
    state = services.load_game(game_id=game.pk)
    assert state.pending == ("discard_colour_more", 0)
    page = html.unescape(client.get(f"/table/{game.pk}/").text)
    assert "discard more cards of the colour on top" in page
    assert "put down blue 4 and discards more of the same" in page.lower()

    # Nothing ticked is told as a tick box would be; nothing is appended.
    nothing = {"version": str(state.version), "command": json.dumps({"type": "wheel_discard"})}
    refused = client.post(f"/table/{game.pk}/command/", nothing, follow=True)
    assert "Tick the cards to discard first" in html.unescape(refused.text)
    assert services.load_game(game_id=game.pk).version == state.version

    # A yellow card is refused in words; the other blues go in one press, the 3 on top.
    form = {
        "version": str(state.version),
        "command": json.dumps({"type": "wheel_discard"}),
        "cards": ["Y6"],
        "top": "Y6",
    }
    refused = client.post(f"/table/{game.pk}/command/", form, follow=True)
    assert "must all be blue, the colour on top" in html.unescape(refused.text)
    form["cards"], form["top"] = ["B1", "B3", "B2"], "B3"
    assert client.post(f"/table/{game.pk}/command/", form).status_code == 302
    state = services.load_game(game_id=game.pk)
    assert state.discard[-4:] == ("B4", "B1", "B2", "B3")
    assert state.hands[0] == ("Y6", "Y7", "G8") and state.pending == ("turn", 1)


def test_a_hand_the_wheel_shows_is_shown_under_the_players_strip_too(
    client, make_game, monkeypatch
):
    """On a phone the strip shows a few seats at a time: the shown hand is said under it."""
    game = at_the_wheel(client, make_game, monkeypatch, "show_hand", "R4")
    bob = html.unescape(seat_client(Client(), game, 1).get(f"/table/{game.pk}/").text)
    shown = bob[bob.index('<div class="shown-hand">') :]
    shown = shown[: shown.index("</div>")]
    assert "Ann's hand, shown to everyone:" in shown
    assert 'aria-label="red 4"' in shown and 'aria-label="green 8"' in shown
    ann = html.unescape(client.get(f"/table/{game.pk}/").text)
    assert 'class="shown-hand"' not in ann  # her own hand is hers to see anyway


def test_a_colour_chosen_in_case_a_wild_lands_on_top_leaves_a_coloured_discard_alone(
    client, make_game, monkeypatch
):
    # Ann holds a wild, so the page offers "Colour, if a wild lands on top"; she picks one in
    # case and discards blue cards, a blue one on top: the colour is not the discard's.
    game = at_the_wheel(client, make_game, monkeypatch, "discard_colour", "W")
    state = services.load_game(game_id=game.pk)
    assert "Colour, if a wild lands on top" in client.get(f"/table/{game.pk}/").text
    form = {
        "version": str(state.version),
        "command": json.dumps({"type": "wheel_discard"}),
        "cards": ["B1", "B2", "B3"],
        "top": "B3",
        "colour": "R",
    }

    answer = client.post(f"/table/{game.pk}/command/", form, follow=True)

    assert "a colour is only called" not in html.unescape(answer.text)
    state = services.load_game(game_id=game.pk)
    assert state.discard[-3:] == ("B1", "B2", "B3") and state.colour == "B"


def test_a_wild_discarded_on_top_by_the_wheel_calls_the_colour_chosen(
    client, make_game, monkeypatch
):
    # The wheel lands on UNO Spin; Ann claims it first and discards one card: her wild.
    game = at_the_wheel(client, make_game, monkeypatch, "uno_spin", "W")
    services.apply_command(game_id=game.pk, command=ClaimUnoSpin(0), actor="seat:0")
    state = services.load_game(game_id=game.pk)
    assert state.pending == ("uno_spin_discard", 0)
    assert "Colour, if a wild lands on top" in client.get(f"/table/{game.pk}/").text
    form = {
        "version": str(state.version),
        "command": json.dumps({"type": "wheel_discard"}),
        "cards": ["W"],
        "top": "W",
        "colour": "G",
    }

    assert client.post(f"/table/{game.pk}/command/", form).status_code == 302
    state = services.load_game(game_id=game.pk)
    assert state.discard[-1] == "W" and state.colour == "G"


def _says_uno(client, game) -> bool:
    return 'name="say_uno"' in client.get(f"/table/{game.pk}/").text


@pytest.mark.parametrize("segment", ["discard_colour", "discard_number"])
def test_say_uno_is_offered_at_a_ticked_discard_only_when_it_can_leave_one_card(
    client, make_game, monkeypatch, segment
):
    # Four blue cards and three others, no number twice: no discard leaves one card.
    game = at_the_wheel(client, make_game, monkeypatch, segment, "B4")
    assert not _says_uno(client, game)


def test_say_uno_is_offered_at_a_ticked_discard_that_can_leave_one_card(
    client, make_game, monkeypatch
):
    others = ["B1", "B2", "B3", "B5", "B6", "Y7"]
    game = at_the_wheel(client, make_game, monkeypatch, "discard_colour", "B4", others)
    # Six blue cards of seven: discarding them all leaves the yellow 7.
    assert _says_uno(client, game)
    # Once a blue card is down, five blues of six are left to go: still one card left after.
    services.apply_command(game_id=game.pk, command=WheelLay(0, "B4"), actor="seat:0")
    assert _says_uno(client, game)
