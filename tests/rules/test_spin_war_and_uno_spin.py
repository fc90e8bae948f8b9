"""UNO Spin: War (highest number card, face-offs for ties) and the UNO Spin race."""

import pytest

from rules.commands import command_from_dict
from rules.engine import legal_commands, step
from rules.errors import IllegalCommand
from rules.events import ChoiceOffered, TurnBegan
from rules.variants.spin.commands import ClaimUnoSpin, WheelDiscard
from rules.variants.spin.events import UnoSpinClaimed, WarFought

from .helpers import play
from .spin_helpers import spun

# Seat 1 plays R3~ and keeps 4, 4, 2; seat 2 spins.
OPENER = ["R3~", "B4", "G4", "Y2", "BS", "GS", "W"]
SPINNER = ["B7", "G5", "BS", "BV", "GD2", "GS", "YV"]  # 7, 5
DEALER = ["Y7", "R6", "RS", "RV", "YD2", "YS", "GV"]  # 7, 6


def war(monkeypatch, spinner=SPINNER, dealer=DEALER, opener=OPENER):
    return spun(monkeypatch, "war", opener=opener, hands={2: spinner, 0: dealer})


# War -----------------------------------------------------------------------------------------


def test_in_war_the_player_with_the_highest_number_card_discards_it(monkeypatch):
    dealer = ["Y6", "R6", "RS", "RV", "YD2", "YS", "GV"]
    state, events = war(monkeypatch, dealer=dealer)
    assert WarFought(2, ((6, 4, 7),), 2) in events
    assert events[-1] == ChoiceOffered(2, "war_discard")
    assert legal_commands(state, 2) == [WheelDiscard(2, ("B7",))]
    state, _ = play(state, WheelDiscard(2, ("B7",)))
    assert state.discard[-1] == "B7" and "B7" not in state.hands[2]


def test_the_other_players_keep_their_war_cards(monkeypatch):
    dealer = ["Y6", "R6", "RS", "RV", "YD2", "YS", "GV"]
    state, _ = war(monkeypatch, dealer=dealer)
    state, _ = play(state, WheelDiscard(2, ("B7",)))
    assert state.hands[0] == tuple(dealer)
    assert state.hands[1] == tuple(OPENER[1:])


def test_play_continues_with_the_next_person_after_the_war_winner(monkeypatch):
    state, events = war(monkeypatch)  # seat 0 wins the face-off
    state, events = play(state, WheelDiscard(0, ("Y7", "R6")))
    assert events[-1] == TurnBegan(1)


def test_tied_players_face_off_with_their_next_highest_and_the_winner_discards_all_their_war_cards(
    monkeypatch,
):
    state, events = war(monkeypatch)
    assert WarFought(2, ((7, 4, 7), (6, None, 5)), 0) in events
    assert state.pending == ("war_discard", 0)
    with pytest.raises(IllegalCommand, match="numbers revealed"):
        step(state, WheelDiscard(0, ("Y7",)))
    state, _ = play(state, WheelDiscard(0, ("Y7", "R6")))
    assert "Y7" not in state.hands[0] and "R6" not in state.hands[0]
    assert state.discard[-2:] == ("Y7", "R6")


def test_the_war_winner_chooses_which_of_their_war_cards_lands_on_top(monkeypatch):
    state, _ = war(monkeypatch)
    assert {c.cards for c in legal_commands(state, 0)} == {("Y7", "R6"), ("R6", "Y7")}
    state, _ = play(state, WheelDiscard(0, ("R6", "Y7")))
    assert state.discard[-1] == "Y7" and state.colour == "Y"


def test_a_winner_holding_two_cards_of_the_number_chooses_which_to_discard(monkeypatch):
    spinner = ["B7", "R7", "BS", "BV", "GD2", "GS", "YV"]
    dealer = ["Y6", "R6", "RS", "RV", "YD2", "YS", "GV"]
    state, _ = war(monkeypatch, spinner=spinner, dealer=dealer)
    assert {c.cards for c in legal_commands(state, 2)} == {("B7",), ("R7",)}


def test_a_second_card_of_the_tied_number_is_the_next_highest_card_in_a_face_off(monkeypatch):
    # Tied at 7, the dealer's next highest card is its other 7, not its 6: it beats the
    # spinner's 5, and both 7s are its War cards.
    dealer = ["Y7", "R7", "R6", "RS", "RV", "YD2", "YS"]
    state, events = war(monkeypatch, dealer=dealer)
    assert WarFought(2, ((7, 4, 7), (7, None, 5)), 0) in events
    assert {c.cards for c in legal_commands(state, 0)} == {("Y7", "R7"), ("R7", "Y7")}
    state, _ = play(state, WheelDiscard(0, ("Y7", "R7")))
    assert "R6" in state.hands[0] and state.discard[-2:] == ("Y7", "R7")


def test_a_tied_player_with_no_number_card_left_loses_the_face_off(monkeypatch):
    spinner = ["B7", "G5", "BS", "BV", "GD2", "GS", "YV"]
    dealer = ["Y7", "RS", "RV", "YD2", "YS", "GV", "W4"]
    state, events = war(monkeypatch, spinner=spinner, dealer=dealer)
    assert WarFought(2, ((7, 4, 7), (None, None, 5)), 2) in events
    assert {c.cards for c in legal_commands(state, 2)} == {("B7", "G5"), ("G5", "B7")}


def test_players_without_a_number_card_take_no_part_in_war(monkeypatch):
    dealer = ["RS", "RV", "YD2", "YS", "GV", "W4", "W4"]
    state, events = war(monkeypatch, dealer=dealer)
    fought = next(e for e in events if type(e) is WarFought)
    assert fought.rounds == ((None, 4, 7),) and fought.winner == 2


def test_a_war_tied_to_the_end_has_no_winner_and_play_moves_past_the_spinner(monkeypatch):
    opener = ["R3~", "B7", "BS", "BV", "BD2", "W", "W"]
    spinner = ["G7", "GS", "GV", "GD2", "YS", "YV", "W"]
    dealer = ["Y7", "RS", "RV", "RD2", "YD2", "W", "W4"]
    state, events = war(monkeypatch, spinner=spinner, dealer=dealer, opener=opener)
    assert WarFought(2, ((7, 7, 7),), None) in events
    assert events[-1] == TurnBegan(0)
    assert state.hands[0] == tuple(dealer)


def test_with_no_number_card_anywhere_there_is_no_war(monkeypatch):
    opener = ["R3~", "BS", "BV", "BD2", "GD2", "W", "W"]
    spinner = ["GS", "GV", "BS", "YS", "YV", "W", "W4"]
    dealer = ["RS", "RV", "RD2", "YD2", "W", "W4", "GV"]
    state, events = war(monkeypatch, spinner=spinner, dealer=dealer, opener=opener)
    assert WarFought(2, (), None) in events and events[-1] == TurnBegan(0)


# UNO Spin ------------------------------------------------------------------------------------


def test_uno_spin_lets_every_player_race_to_claim_it(monkeypatch):
    state, events = spun(monkeypatch, "uno_spin")
    assert events[-1] == ChoiceOffered(2, "uno_spin")
    for seat in (0, 1, 2):
        assert ClaimUnoSpin(seat) in legal_commands(state, seat)


def test_the_first_claim_wins_and_later_claims_are_refused(monkeypatch):
    state, _ = spun(monkeypatch, "uno_spin")
    state, events = step(state, ClaimUnoSpin(0))
    assert events == [UnoSpinClaimed(0), ChoiceOffered(0, "uno_spin_discard")]
    with pytest.raises(IllegalCommand, match="already claimed"):
        step(state, ClaimUnoSpin(1))


def test_the_winner_discards_one_card_of_their_choice(monkeypatch):
    state, _ = spun(monkeypatch, "uno_spin", hands={0: ["Y1", "Y2", "Y3", "Y4", "Y6", "Y7", "W"]})
    state, _ = step(state, ClaimUnoSpin(0))
    options = legal_commands(state, 0)
    assert WheelDiscard(0, ("Y4",)) in options and WheelDiscard(0, ("W",), "G") in options
    with pytest.raises(IllegalCommand, match="exactly one"):
        step(state, WheelDiscard(0, ("Y1", "Y2")))
    state, _ = play(state, WheelDiscard(0, ("W",), "G"))
    assert state.discard[-1] == "W" and state.colour == "G" and len(state.hands[0]) == 6


def test_play_continues_with_the_next_person_after_the_uno_spin_winner(monkeypatch):
    state, _ = spun(monkeypatch, "uno_spin", hands={0: ["Y1", "Y2", "Y3", "Y4", "Y6", "Y7", "W"]})
    state, events = play(state, ClaimUnoSpin(0), WheelDiscard(0, ("Y4",)))
    assert events[-1] == TurnBegan(1)


def test_a_claim_is_an_out_of_turn_command(monkeypatch):
    from rules.variants import get_variant

    state, _ = spun(monkeypatch, "uno_spin")
    variant = get_variant("spin")
    assert "claim_uno_spin" in variant.out_of_turn_types and variant.out_of_turn_open(state)
    assert ClaimUnoSpin(1).to_dict() == {"type": "claim_uno_spin"}
    assert command_from_dict(1, {"type": "claim_uno_spin"}) == ClaimUnoSpin(1)


def test_there_is_nothing_to_claim_without_an_uno_spin(monkeypatch):
    state, _ = spun(monkeypatch, "show_hand")
    with pytest.raises(IllegalCommand, match="no UNO Spin"):
        step(state, ClaimUnoSpin(1))
