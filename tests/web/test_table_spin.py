"""UNO Spin at the table: an Almost UNO is answered on the page in two steps, the two cards
to keep (a button a pair, in words) and then the others, ticked, with the one on top."""

import html
import json

import pytest

from games import services
from rules.commands import PlayCard
from rules.variants.spin import variant as spin
from rules.variants.spin.commands import SpinWheel
from tests.web.conftest import seat_client
from tests.web.table_support import Buttons, deck_with

pytestmark = pytest.mark.django_db


def test_an_almost_uno_is_answered_on_the_page_in_two_steps(client, make_game, monkeypatch):
    monkeypatch.setattr(spin, "spin_wheel", lambda s: "almost_uno")
    deck = deck_with(
        {
            1: ["R3~", "G1", "G2", "G3", "G4", "G5", "G6"],
            0: ["R4", "B1", "B2", "B3", "Y6", "Y7", "G8"],
        },
        "R5",
        variant="spin",
    )
    game = make_game(players=("Ann", "Bob"), variant="spin", deck=deck, dealer=0, seed=None)
    services.apply_command(game_id=game.pk, command=PlayCard(1, "R3~"), actor="seat:1")
    services.apply_command(game_id=game.pk, command=SpinWheel(0), actor="seat:0")
    seat_client(client, game, 0)

    # First the two cards to keep: one button a pair, in words.
    page = client.get(f"/table/{game.pk}/").text
    keep = {"type": "wheel_keep", "cards": ["R4", "B1"]}
    assert keep in Buttons(page).commands
    assert "Keep red 4, blue 1" in html.unescape(page)
    state = services.load_game(game_id=game.pk)
    form = {"version": str(state.version), "command": json.dumps(keep)}
    assert client.post(f"/table/{game.pk}/command/", form).status_code == 302

    # Then the others are ticked and one of them goes on top.
    state = services.load_game(game_id=game.pk)
    assert state.pending == ("almost_uno_top", 0)
    page = client.get(f"/table/{game.pk}/").text
    assert {("cards", card) for card in ["B2", "B3", "Y6", "Y7", "G8"]} <= set(
        Buttons(page).checkboxes
    )
    form = {
        "version": str(state.version),
        "command": json.dumps({"type": "wheel_discard"}),
        "cards": ["B2", "B3", "Y6", "Y7", "G8"],
        "top": "Y7",
    }
    assert client.post(f"/table/{game.pk}/command/", form).status_code == 302
    state = services.load_game(game_id=game.pk)
    assert state.hands[0] == ("R4", "B1")
    assert (state.top, state.colour) == ("Y7", "Y")
