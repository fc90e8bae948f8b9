"""UNO Spin: the deck, matching Spin cards, and the spin that replaces the next player's turn."""

from collections import Counter

import pytest

from rules.cards import card_info
from rules.commands import Challenge, DealHand, DrawCard, PlayCard, command_from_dict
from rules.deck import main as print_deck
from rules.engine import legal_commands, replay, step
from rules.errors import IllegalCommand
from rules.events import ChallengeResolved, ChoiceOffered, TurnBegan
from rules.variants import get_variant
from rules.variants.spin import variant as spin
from rules.variants.spin.commands import SpinWheel
from rules.variants.spin.events import WheelSpun
from rules.variants.spin.variant import Spin

from .helpers import play, start
from .positions import arranged
from .spin_helpers import OPENER, at_spin, spin_play, stop_wheel_on, table, with_hands

DECK = get_variant("spin").deck


# CONTENTS ------------------------------------------------------------------------------------


def test_the_spin_edition_is_registered_as_spin():
    assert isinstance(get_variant("spin"), Spin)
    assert get_variant("spin").title == "UNO Spin"


def test_the_deck_has_the_rulebooks_108_playing_cards():
    # 112 cards less the 4 Wheel Reference cards, which are a memory aid, not playing cards.
    assert len(DECK) == 108
    ranks = Counter(card_info(c).rank for c in DECK)
    assert ranks["D2"] == ranks["V"] == ranks["S"] == 8
    assert ranks["W"] == ranks["W4"] == 4


@pytest.mark.parametrize("colour", ["B", "G", "R", "Y"])
def test_each_colour_has_19_number_cards_0_to_9_with_5_spin_cards_1_to_5(colour):
    numbers = [c for c in DECK if card_info(c).colour == colour and card_info(c).is_number]
    assert len(numbers) == 19
    assert Counter(card_info(c).rank for c in numbers) == Counter(
        {"0": 1, **{str(n): 2 for n in range(1, 10)}}
    )
    assert sorted(c for c in numbers if card_info(c).mark == "~") == [
        f"{colour}{n}~" for n in range(1, 6)
    ]
    for n in range(1, 6):  # one of the two copies carries the swirl
        assert numbers.count(f"{colour}{n}") == 1
    for colour_card in ("D2", "V", "S"):
        assert DECK.count(f"{colour}{colour_card}") == 2


def test_there_are_20_spin_cards():
    assert sum(1 for c in DECK if spin.is_spin_card(c)) == 20


def test_the_deck_printer_prints_the_spin_deck(capsys):
    assert print_deck(["--variant", "spin"]) == 0
    assert capsys.readouterr().out.split() == list(DECK)


def test_spin_cards_score_their_face_value_and_count_their_number_in_the_dealer_draw():
    variant = get_variant("spin")
    assert [variant.points(f"G{n}~") for n in range(1, 6)] == [1, 2, 3, 4, 5]
    assert variant.dealer_value("B5~") == 5


# Matching ------------------------------------------------------------------------------------


def test_a_spin_card_is_played_on_the_same_colour():
    state = table(starter="R7")
    state, _ = play(state, PlayCard(1, "R3~"))
    assert state.discard[-1] == "R3~" and state.colour == "R"


def test_a_spin_card_is_played_on_the_same_number_of_another_colour():
    state = table(starter="G3")
    state, _ = play(state, PlayCard(1, "R3~"))
    assert state.discard[-1] == "R3~"


def test_a_spin_card_cannot_be_played_on_another_colour_and_number():
    state = table(starter="G7")
    with pytest.raises(IllegalCommand, match="cannot be played"):
        step(state, PlayCard(1, "R3~"))


def test_a_plain_number_card_is_played_on_a_spin_card_of_the_same_number():
    # Seat 1 played R3~ on a red 7 and seat 2's turn has come (the spin done).
    state = arranged(
        variant="spin",
        hands={1: OPENER[1:], 2: ["G3", "B1", "B2", "B4", "B5", "B6", "B7"]},
        discard=["R7", "R3~"],
        pile=[],
        pending="turn:2",
    )
    state, _ = play(state, PlayCard(2, "G3"))
    assert state.discard[-2:] == ("R3~", "G3")


# SPIN CARDS ----------------------------------------------------------------------------------


def test_playing_a_spin_card_makes_the_next_player_spin_instead_of_taking_their_turn():
    state, events = play(table(), spin_play())
    assert events[-1] == ChoiceOffered(2, "spin")
    assert not any(type(e) is TurnBegan for e in events)
    assert legal_commands(state, 2) == [SpinWheel(2)]
    with pytest.raises(IllegalCommand):
        step(state, DrawCard(2))


def test_only_the_player_after_the_spin_card_may_spin():
    state = at_spin()
    with pytest.raises(IllegalCommand, match="cannot spin"):
        step(state, SpinWheel(0))


def test_with_two_players_the_other_player_spins():
    state, _ = start(
        "spin", 2, dealer=0, hands={1: ["R3~", "B1", "B2", "B4", "B5", "B6", "B7"]}, starter="R7"
    )
    state, _ = play(state, PlayCard(1, "R3~"))
    assert state.pending == ("spin", 0)


def test_a_spin_card_turned_up_to_start_is_no_spin():
    state = table(starter="G2~", opener=["G5", "B9", "G9", "Y8", "B8", "G8", "Y9"])
    assert state.pending == ("turn", 1)
    state, _ = play(state, PlayCard(1, "G5"))
    assert state.pending == ("turn", 2)


def test_the_spin_is_recorded_and_a_replay_does_not_spin_again(monkeypatch):
    stop_wheel_on(monkeypatch, "show_hand")
    first = table()
    state, events = play(first, spin_play(), SpinWheel(2))
    assert events[0] == WheelSpun(2, "show_hand")

    def no_spinning(s):
        raise AssertionError("evolve must not spin the wheel")

    monkeypatch.setattr(spin, "spin_wheel", no_spinning)
    _, played = step(first, spin_play())
    assert replay(played + events, first) == state


def test_the_wheel_has_the_nine_icons_of_the_rulebook_with_equal_odds():
    assert spin.WHEEL == (
        "almost_uno",
        "discard_number",
        "discard_colour",
        "draw_red",
        "draw_blue",
        "trade_hands",
        "show_hand",
        "war",
        "uno_spin",
    )
    state = at_spin()
    counts = Counter()
    for spins in range(9000):
        state.extra = spin.SpinState(spins=spins)
        counts[spin.spin_wheel(state)] += 1
    assert set(counts) == set(spin.WHEEL)
    assert all(850 <= n <= 1150 for n in counts.values())  # 1000 expected each


def draws(state, count=40):
    out = []
    for spins in range(count):
        state = state.copy()
        state.extra = spin.SpinState(spins=spins)
        out.append(spin.spin_wheel(state))
    return out


def test_each_spin_of_a_hand_is_a_new_draw_and_the_same_game_draws_the_same():
    state = at_spin()
    assert len(set(draws(state))) > 1
    assert draws(state) == draws(state.copy())
    other = state.copy()
    other.seed = "another game"
    assert draws(other) != draws(state)


def test_the_spins_of_a_hand_are_counted_and_a_new_hand_counts_from_zero(monkeypatch):
    stop_wheel_on(monkeypatch, "show_hand")
    state, _ = play(table(), spin_play(), SpinWheel(2))
    assert state.extra.spins == 1
    state, _ = play(with_hands(state, seat0=("R9",)), PlayCard(0, "R9"))
    state, _ = play(state, DealHand(state.pending[1]))
    assert state.hand_number == 2 and state.extra.spins == 0


def test_the_spin_command_round_trips_through_its_api_shape():
    assert SpinWheel(2).to_dict() == {"type": "spin"}
    assert command_from_dict(2, {"type": "spin"}) == SpinWheel(2)


# The Wild Draw 4 ------------------------------------------------------------------------------


def test_a_wild_draw_four_played_with_the_colour_in_hand_can_be_challenged_as_in_classic_uno():
    state = table(opener=["W4", "R1", "B9", "G9", "Y8", "B8", "G8"], starter="R7")
    state, events = play(state, PlayCard(1, "W4", "B"))
    assert events[-1] == ChoiceOffered(2, "challenge")
    state, events = play(state, Challenge(2))
    hand = ("R1", "B9", "G9", "Y8", "B8", "G8")  # shown to the challenger
    assert events[0] == ChallengeResolved(2, 1, "R", True, ("R1",), hand)
    assert len(state.hands[1]) == 10
