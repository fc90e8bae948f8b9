"""Choosing the dealer, dealing by the contract, and the starting-card rule of every card."""

import sys

import pytest

from rules.commands import ChooseColour, DealHand, PlayCard
from rules.engine import draw_for_dealer, legal_commands, new_game, step
from rules.errors import IllegalCommand, InvalidCommand
from rules.events import (
    CardsDrawn,
    ChoiceOffered,
    ColourChosen,
    DealerChosen,
    DirectionReversed,
    SeatSkipped,
    StarterReturned,
    StarterTurned,
    TurnBegan,
)
from rules.variants import get_variant

from .helpers import arranged_deck, start, types


class ArrangedShuffle:
    """Stands in for a seeded generator: 'shuffles' a deck so ``draws`` come off it in order."""

    def __init__(self, draws):
        self.draws = list(draws)

    def shuffle(self, deck):
        rest = [c for c in deck]
        for card in self.draws:
            rest.remove(card)
        deck[:] = rest + list(reversed(self.draws))  # the draw takes from the end


# Choosing the dealer ------------------------------------------------------------------------


def test_the_player_who_draws_the_highest_number_deals():
    draws, dealer = draw_for_dealer(get_variant("classic"), 3, ArrangedShuffle(["R3", "G9", "B5"]))
    assert dealer == 1
    assert draws == (("R3", "G9", "B5"),)


def test_a_symbol_counts_zero_in_the_dealer_draw():
    draws, dealer = draw_for_dealer(get_variant("classic"), 3, ArrangedShuffle(["W4", "RS", "B1"]))
    assert dealer == 2


def test_players_tied_for_highest_draw_again_and_only_they_do():
    draws, dealer = draw_for_dealer(
        get_variant("classic"), 3, ArrangedShuffle(["R8", "G8", "B2", "Y3", "Y7"])
    )
    assert draws == (("R8", "G8", "B2"), ("Y3", "Y7", None))
    assert dealer == 1


def test_a_new_game_draws_for_the_dealer_from_its_seed_and_records_the_draws():
    state, events = new_game(players=4, seed="dealer-test")
    chosen = next(e for e in events if isinstance(e, DealerChosen))
    last_round = chosen.draws[-1]
    values = {
        seat: get_variant("classic").dealer_value(card)
        for seat, card in enumerate(last_round)
        if card
    }
    assert values[chosen.dealer] == max(values.values())
    assert state.dealer == chosen.dealer
    assert (
        new_game(players=4, seed="dealer-test")[1] == events
    )  # the same seed decides the same way


def test_a_referee_may_name_the_dealer_and_skip_the_draw():
    state, events = new_game(players=3, seed="x", dealer=2)
    assert next(e for e in events if isinstance(e, DealerChosen)) == DealerChosen((), 2)
    assert state.dealer == 2


# The dealing contract -------------------------------------------------------------------------


def test_the_dealing_contract_worked_example_of_the_design():
    # 3 seats, dealer 0: deck cards 1, 4, 7, ... 19 go to seat 1; 2, 5, ... 20 to seat 2;
    # 3, 6, ... 21 to seat 0; card 22 starts the discard pile; card 23 is drawn first.
    deck = arranged_deck("classic", 3, dealer=0, starter="R5")
    state, _ = new_game(players=3, dealer=0, deck=deck, seed="x")
    assert state.hands[1] == tuple(deck[0:21:3])
    assert state.hands[2] == tuple(deck[1:21:3])
    assert state.hands[0] == tuple(deck[2:21:3])
    assert state.discard == (deck[21],)
    assert state.draw_pile[0] == deck[22]
    assert state.pending == ("turn", 1)


def test_every_player_is_dealt_seven_cards():
    from rules.engine import replay
    from rules.events import HandDealt

    for players in range(2, 11):
        _, events = new_game(players=players, seed=str(players))
        upto_deal = events[: next(i for i, e in enumerate(events) if isinstance(e, HandDealt)) + 1]
        assert [len(h) for h in replay(upto_deal).hands] == [7] * players


def test_an_explicit_deck_must_be_a_complete_deck_of_the_variant():
    deck = arranged_deck("classic", 3)
    with pytest.raises(InvalidCommand, match="the deck has 3 of R7; a Classic UNO deck has 2"):
        new_game(
            players=3,
            dealer=0,
            deck=deck[:-1] + ["R7"] if deck[-1] != "R7" else deck[:-1] + ["R8"],
            seed="x",
        )


def test_an_explicit_deck_naming_an_unknown_card_is_refused_with_its_position():
    deck = arranged_deck("classic", 3)
    deck[5] = "R10"
    with pytest.raises(InvalidCommand, match=r"deck\[5\]: unknown card code 'R10'"):
        new_game(players=3, dealer=0, deck=deck, seed="x")


def test_an_explicit_deck_with_a_card_of_another_edition_is_refused():
    deck = arranged_deck("classic", 3)
    deck[0] = "WM"
    with pytest.raises(InvalidCommand, match="WM is not a card of Classic UNO"):
        new_game(players=3, dealer=0, deck=deck, seed="x")


@pytest.mark.parametrize("players", [1, 11, 0])
def test_a_table_needs_two_to_ten_players(players):
    with pytest.raises(InvalidCommand, match="2 to 10 players"):
        new_game(players=players, seed="x")


def test_each_hand_is_dealt_by_the_next_dealer_to_the_left():
    state, _ = start(players=3, dealer=0, hands={1: ["R1"]}, starter="R9")
    state = _finish_hand(state)
    assert state.pending == ("deal", 1)
    with pytest.raises(IllegalCommand, match="cannot deal now: only seat 1 or a referee may"):
        step(state, DealHand(2))
    state, events = step(state, DealHand(1))
    assert state.dealer == 1 and state.hand_number == 2
    assert events[0].dealer == 1
    state = _finish_hand(state)
    assert state.pending == ("deal", 2)


def test_a_seat_deals_a_shuffled_deck_and_only_a_referee_deals_a_chosen_order():
    state = _finish_hand(start(players=3, dealer=0, hands={1: ["R1"]}, starter="R9")[0])
    deck = get_variant("classic").deck  # complete, in a fixed order: a stacked deck
    with pytest.raises(IllegalCommand, match="only a referee"):
        step(state, DealHand(1, deck))
    assert DealHand(1) in legal_commands(state, 1)
    state, events = step(state, DealHand(None, deck))
    assert events[0].deck == deck


def _finish_hand(state):
    """Play the hand out with the first legal play (or draw) until someone goes out."""
    from rules.engine import legal_commands

    while state.pending[0] != "deal":
        kind, seat = state.pending
        options = legal_commands(state, seat)
        plays = [c for c in options if c.type == "play"]
        state, _ = step(state, plays[0] if plays else options[0])
    return state


# Starting cards -------------------------------------------------------------------------------


def test_a_number_card_turned_up_lets_the_player_left_of_the_dealer_start():
    state, events = start(players=4, dealer=1, starter="G7")
    assert events[-2:] == [StarterTurned("G7"), TurnBegan(2)]
    assert state.colour == "G"


def test_a_skip_turned_up_skips_the_player_left_of_the_dealer():
    state, events = start(players=4, dealer=1, starter="GS")
    assert events[-2:] == [SeatSkipped(2), TurnBegan(3)]


def test_a_reverse_turned_up_lets_the_dealer_go_first_then_play_moves_right():
    state, events = start(players=4, dealer=1, starter="GV")
    assert events[-2:] == [DirectionReversed(-1), TurnBegan(1)]
    state, _ = step(state, PlayCard(1, _a_green(state, 1)))
    assert state.pending == ("turn", 0)


def _a_green(state, seat):
    return next(
        c for c in state.hands[seat] if c.startswith("G") and len(c) == 2 and c[1].isdigit()
    )


def test_a_draw_two_turned_up_makes_the_first_player_draw_two_and_miss_the_turn():
    state, events = start(players=3, dealer=0, starter="BD2", draws=["R1", "R2"])
    assert events[-3:] == [CardsDrawn(1, ("R1", "R2"), "draw_two"), SeatSkipped(1), TurnBegan(2)]
    assert len(state.hands[1]) == 9


def test_a_wild_turned_up_lets_the_player_left_of_the_dealer_choose_the_colour_and_play():
    state, events = start(players=3, dealer=0, starter="W", hands={1: ["Y5"]})
    assert events[-1] == ChoiceOffered(1, "colour")
    assert state.colour is None
    with pytest.raises(IllegalCommand):
        step(state, PlayCard(1, "Y5"))
    with pytest.raises(IllegalCommand):
        step(state, ChooseColour(2, "Y"))
    state, events = step(state, ChooseColour(1, "Y"))
    assert events == [ColourChosen(1, "Y"), TurnBegan(1)]
    state, _ = step(state, PlayCard(1, "Y5"))
    assert state.top == "Y5"


def test_a_wild_draw_four_turned_up_goes_back_to_the_bottom_and_the_next_card_is_turned():
    deck = arranged_deck("classic", 3, dealer=0, starter="W4", draws=["B6"])
    state, events = new_game(players=3, dealer=0, deck=deck, seed="x")
    assert types(events)[-3:] == ["starter_returned", "starter_turned", "turn_began"]
    assert events[-3] == StarterReturned("W4") and events[-2] == StarterTurned("B6")
    assert state.draw_pile[-1] == "W4"
    assert state.top == "B6"


def test_several_wild_draw_fours_turned_up_in_a_row_all_go_to_the_bottom_in_order():
    deck = arranged_deck("classic", 2, dealer=0, starter="W4", draws=["W4", "R3"])
    state, events = new_game(players=2, dealer=0, deck=deck, seed="x")
    assert [e for e in events if isinstance(e, StarterReturned)] == [StarterReturned("W4")] * 2
    assert state.top == "R3" and state.draw_pile[-2:] == ("W4", "W4")


@pytest.mark.parametrize("variant", ["classic", "mod", "veto", "spin", "power_grab"])
def test_every_card_dealt_is_the_editions_one_string_for_its_code(variant):
    # One string object per card code (interned): hands, piles and the edition's card tables
    # then compare and look cards up without comparing text.
    options = {"customizable": 1} if variant == "veto" else {}  # (VETO: a deck of its own)
    state, _ = new_game(variant=variant, players=4, seed="strings", target=500, options=options)
    state, _ = step(state, DealHand(state.dealer)) if state.pending[0] == "deal" else (state, [])
    cards = [*state.pile, *state.discard, *(c for hand in state.hands for c in hand)]
    assert cards and all(card is sys.intern(card) for card in cards)
