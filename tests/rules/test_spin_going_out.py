"""UNO Spin: UNO and the catch window, a Spin card as the last card, scoring and the ways to
play (another target, no scoring)."""

import pytest

from rules.commands import Catch, PlayCard
from rules.engine import legal_commands, step
from rules.errors import IllegalCommand
from rules.events import CardsDrawn, ChoiceOffered, GameEnded, HandEnded, UnoWindowClosed
from rules.variants.spin.commands import ClaimUnoSpin, SpinWheel, WheelDiscard
from rules.variants.spin.events import HandsTraded

from .helpers import play
from .spin_helpers import stop_wheel_on, table, with_hands

SPINNER = ["B1", "G2", "Y5", "B5", "R5~", "W", "GD2"]  # seat 2: 1+2+5+5+5+50+20 = 88 points


def last_spin_card(monkeypatch, segment, **kwargs):
    """Seat 1 plays its last card, the red 3 Spin card; seat 2 spins ``segment``."""
    stop_wheel_on(monkeypatch, segment)
    state = with_hands(table(hands={2: SPINNER}, **kwargs), seat1=("R3~",))
    state, events = step(state, PlayCard(1, "R3~"))
    assert not any(type(e) is HandEnded for e in events)
    assert events[-1] == ChoiceOffered(2, "spin")
    return step(state, SpinWheel(2))


def hand_ended(events):
    return next(e for e in events if type(e) is HandEnded)


# UNO -----------------------------------------------------------------------------------------


def test_a_spin_card_played_down_to_one_card_without_uno_can_be_caught_before_the_spin():
    state = with_hands(table(), seat1=("R3~", "B9"))
    state, _ = step(state, PlayCard(1, "R3~"))
    assert state.exposed == 1 and Catch(0, 1) in legal_commands(state, 0)
    state, events = step(state, Catch(2, 1))
    assert len(state.hands[1]) == 3


def test_the_catch_window_closes_when_the_next_player_spins(monkeypatch):
    stop_wheel_on(monkeypatch, "show_hand")
    state = with_hands(table(), seat1=("R3~", "B9"))
    state, _ = step(state, PlayCard(1, "R3~"))
    state, events = step(state, SpinWheel(2))
    assert events[0] == UnoWindowClosed(1)
    with pytest.raises(IllegalCommand, match="cannot be caught"):
        step(state, Catch(0, 1))


# A Spin card as the last card ----------------------------------------------------------------


def test_a_spin_card_as_the_last_card_is_resolved_before_the_hand_is_scored(monkeypatch):
    state, events = last_spin_card(monkeypatch, "draw_red", draws=["G6", "B6", "R9"])
    ended = hand_ended(events)
    assert ended.winner == 1
    assert CardsDrawn(2, ("G6", "B6", "R9"), "draw_red") in events
    assert ended.held[2] == 88 + 6 + 6 + 9 and ended.gained[1] == sum(ended.held)


def test_cards_the_wheel_discards_after_the_last_card_no_longer_count(monkeypatch):
    state, events = last_spin_card(monkeypatch, "discard_number")
    assert state.pending == ("discard_number", 2)
    state, events = play(state, WheelDiscard(2, ("Y5", "B5", "R5~")))
    ended = hand_ended(events)
    assert ended.winner == 1 and ended.held[2] == 88 - 15


def test_when_the_wheel_empties_another_hand_after_the_last_card_the_first_out_still_wins(
    monkeypatch,
):
    stop_wheel_on(monkeypatch, "discard_colour")
    state = with_hands(table(), seat1=("R3~",), seat2=("G6", "G7"))
    state, _ = play(state, PlayCard(1, "R3~"), SpinWheel(2))
    state, events = play(state, WheelDiscard(2, ("G6", "G7")))
    assert hand_ended(events).winner == 1


def test_a_trade_after_the_last_card_leaves_the_player_who_went_out_out_of_it(monkeypatch):
    before = with_hands(table(hands={2: SPINNER}), seat1=("R3~",))
    state, events = last_spin_card(monkeypatch, "trade_hands")
    traded = next(e for e in events if type(e) is HandsTraded)
    assert traded.seats == (0, 2)
    assert state.hands[1] == () and state.hands[0] == tuple(SPINNER)
    assert state.hands[2] == before.hands[0]
    assert hand_ended(events).winner == 1


def test_the_player_who_went_out_cannot_claim_the_uno_spin(monkeypatch):
    state, _ = last_spin_card(monkeypatch, "uno_spin")
    assert ClaimUnoSpin(1) not in legal_commands(state, 1)
    with pytest.raises(IllegalCommand, match="no card"):
        step(state, ClaimUnoSpin(1))
    state, events = play(state, ClaimUnoSpin(0), WheelDiscard(0, (state.hands[0][0],)))
    assert hand_ended(events).winner == 1


def test_a_wheel_segment_with_nothing_to_choose_ends_the_hand_at_once(monkeypatch):
    state, events = last_spin_card(monkeypatch, "show_hand")
    assert hand_ended(events).winner == 1


# Scoring and the ways to play ----------------------------------------------------------------


WILD_HAND = ("W", "W", "W", "W", "W4", "W4", "W4")  # 350 points


def one_card_from_winning(**kwargs):
    state = table(hands={2: list(WILD_HAND)}, **kwargs)
    return with_hands(state, seat1=("R9",))


def test_the_player_who_goes_out_scores_the_points_left_in_the_other_hands():
    state, events = step(one_card_from_winning(), PlayCard(1, "R9"))
    ended = hand_ended(events)
    assert ended.held[2] == 350 and ended.gained[1] == 350 + ended.held[0]


def test_the_game_is_played_to_500_points_by_default():
    state, events = step(one_card_from_winning(), PlayCard(1, "R9"))
    assert not any(type(e) is GameEnded for e in events)
    assert state.pending[0] == "deal"


def test_players_may_agree_on_another_target_such_as_250():
    state, events = step(one_card_from_winning(target=250), PlayCard(1, "R9"))
    ended = next(e for e in events if type(e) is GameEnded)
    assert ended.winner == 1


def test_without_keeping_score_the_first_player_out_wins():
    state, events = step(one_card_from_winning(scoring="none"), PlayCard(1, "R9"))
    ended = next(e for e in events if type(e) is GameEnded)
    assert ended.winner == 1 and ended.scores == (0, 0, 0)
