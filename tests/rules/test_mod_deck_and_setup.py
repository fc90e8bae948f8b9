"""UNO Mod: the 112-card deck, the deal, the dealer draw and the card turned up to start."""

from collections import Counter

import pytest

from rules.commands import ChooseColour, PlayCard
from rules.deck import main as print_deck
from rules.engine import draw_for_dealer, new_game
from rules.errors import InvalidCommand
from rules.variants import get_variant
from rules.variants.classic.variant import COLOUR, RANK
from tests.rules.helpers import arranged_deck, play, start, types

MOD = get_variant("mod")


def test_the_deck_has_the_112_cards_of_the_contents_list():
    deck = Counter(MOD.deck)
    assert sum(deck.values()) == 112
    for colour in "BGRY":
        numbers = [c for c in deck.elements() if COLOUR[c] == colour and RANK[c].isdigit()]
        assert len(numbers) == 19
        assert deck[f"{colour}0"] == 1
        assert all(deck[f"{colour}{n}"] == 2 for n in range(1, 10))
        for rank in ("D2", "V", "S"):
            assert deck[f"{colour}{rank}"] == 2
    assert deck["W"] == 4
    assert deck["W4"] == 4
    assert deck["WM"] == 4


def test_the_deck_printer_prints_the_mod_deck(capsys):
    assert print_deck(["--variant", "mod"]) == 0
    printed = capsys.readouterr().out.split()
    assert Counter(printed) == Counter(MOD.deck)
    assert len(printed) == 112


def test_a_mod_card_counts_zero_in_the_dealer_draw():
    assert MOD.dealer_value("WM") == 0


def test_a_mod_drawn_for_dealer_ties_with_a_zero_and_loses_to_a_number():
    class Arranged:
        """Stands in for the shuffle: the draws come off the end of the list."""

        def __init__(self, order):
            self.order = order

        def shuffle(self, deck):
            deck[:] = self.order

    # Round 1: seat 0 draws WM, seat 1 draws R0, seat 2 draws WM: all count zero, a three-way
    # tie. Round 2: seat 0 draws WM again (zero), seat 1 draws B1, seat 2 draws G0.
    order = ["G0", "B1", "WM", "WM", "R0", "WM"]
    draws, dealer = draw_for_dealer(MOD, 3, Arranged(order))
    assert draws == (("WM", "R0", "WM"), ("WM", "B1", "G0"))
    assert dealer == 1


def test_each_player_is_dealt_seven_cards_and_the_rest_forms_the_draw_pile():
    state, _ = new_game(variant="mod", players=4, seed="deal")
    assert [len(hand) for hand in state.hands] == [7, 7, 7, 7]
    assert len(state.discard) == 1
    assert len(state.draw_pile) == 112 - 28 - 1
    assert Counter(state.all_cards()) == Counter(MOD.deck)


def test_a_classic_deck_is_not_a_complete_mod_deck():
    classic = arranged_deck("classic", 3)
    with pytest.raises(InvalidCommand, match="the deck has 0 of WM; a UNO Mod deck has 4"):
        new_game(variant="mod", players=3, dealer=0, deck=classic)


def test_a_mod_turned_up_to_start_lets_the_player_left_of_the_dealer_choose_the_colour():
    state, events = start("mod", 3, dealer=0, starter="WM")
    assert types(events)[-2:] == ["starter_turned", "choice_offered"]
    assert state.pending == ("colour", 1)
    assert state.colour is None


def test_a_mod_turned_up_to_start_gives_no_cards_away():
    state, events = start(
        "mod", 3, dealer=0, hands={1: ["G1", "G2", "G3", "B4", "Y5", "R6", "R7"]}, starter="WM"
    )
    assert "cards_given" not in types(events)
    assert [len(hand) for hand in state.hands] == [7, 7, 7]


def test_the_player_who_chose_the_starting_colour_plays_first_on_it():
    state, _ = start(
        "mod", 3, dealer=0, hands={1: ["G1", "G2", "G3", "B4", "Y5", "R6", "R7"]}, starter="WM"
    )
    state, events = play(state, ChooseColour(1, "B"))
    assert state.colour == "B"
    assert state.pending == ("turn", 1)
    state, _ = play(state, PlayCard(1, "B4"))
    assert state.top == "B4"
    assert state.pending == ("turn", 2)


def test_a_wild_draw_four_turned_up_still_goes_back_into_the_deck():
    state, events = start("mod", 3, dealer=0, starter="W4")
    assert types(events)[-3:-1] == ["starter_returned", "starter_turned"]
    assert state.top != "W4"
    assert state.draw_pile[-1] == "W4"
