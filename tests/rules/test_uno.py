"""Calling UNO, catching a player who did not, and the catch window."""

import pytest

from rules.commands import Accept, CallUno, Catch, DrawCard, PlayCard
from rules.engine import legal_commands, step
from rules.errors import IllegalCommand
from rules.events import CardsDrawn, UnoCalled, UnoCaught, UnoWindowClosed

from .helpers import start
from .positions import arranged


def given(players=3, draws=("G1", "G2")):
    state, _ = start(
        players=players,
        dealer=0,
        hands={1: ["R1", "R2", "B4", "B5", "B6", "B7", "B8"], 2: ["R3", "G3"]},
        starter="R9",
        draws=draws,
    )
    return state


def two_left():
    """Seat 1 holds exactly R1 and R2 on its turn, a red 9 on the pile (seat 0 holds the rest
    of the deck)."""
    return arranged(
        hands={1: ["R1", "R2"], 2: ["R3", "G3", "B1", "B2", "B3"]},
        discard=["R9"],
        pile=["G1", "G2"],
        pending="turn:1",
    )


def test_a_player_who_calls_uno_with_the_next_to_last_card_cannot_be_caught():
    state, events = step(two_left(), PlayCard(1, "R1", uno=True))
    assert state.exposed is None
    assert all(c.type != "catch" for seat in (0, 2) for c in legal_commands(state, seat))


def test_a_player_who_does_not_call_uno_can_be_caught_by_any_other_player_for_two_cards():
    state, _ = step(two_left(), PlayCard(1, "R1"))
    assert state.exposed == 1
    assert Catch(0, 1) in legal_commands(state, 0)
    state, events = step(state, Catch(0, 1))
    assert events == [UnoCaught(1, 0), CardsDrawn(1, ("G1", "G2"), "uno_penalty")]
    assert len(state.hands[1]) == 3 and state.exposed is None


def test_the_catch_window_closes_when_the_next_player_begins_their_turn():
    state, _ = step(two_left(), PlayCard(1, "R1"))
    state, events = step(state, PlayCard(2, "R3"))
    assert events[0] == UnoWindowClosed(1)
    with pytest.raises(IllegalCommand, match="cannot be caught now"):
        step(state, Catch(0, 1))


def test_a_catch_is_still_possible_after_the_next_turn_began_but_before_the_next_player_acts():
    state, _ = step(two_left(), PlayCard(1, "R1"))
    assert state.pending == ("turn", 2)
    state, events = step(state, Catch(2, 1))
    assert events[0] == UnoCaught(1, 2)


def test_a_next_player_who_loses_their_turn_sends_nothing_so_the_window_stays_open():
    # A Skip (or a Draw Two) as the next-to-last card: the skipped player begins no turn, so
    # the window stays open until the player after them sends their first command.
    state = arranged(
        hands={1: ["RS", "R2"], 2: ["R3", "G3", "B1"]}, discard=["R9"], pile=["G1", "G2"]
    )
    state, events = step(state, PlayCard(1, "RS"))
    assert state.pending == ("turn", 0) and state.exposed == 1
    assert UnoWindowClosed(1) not in events and Catch(2, 1) in legal_commands(state, 2)
    state, events = step(state, PlayCard(0, "R4"))
    assert events[0] == UnoWindowClosed(1) and state.exposed is None


def test_a_next_player_who_answers_a_wild_draw_four_begins_their_turn():
    # Accepting (or challenging) is the next player's first command: the window closes then.
    state = arranged(
        hands={1: ["W4", "R2"], 2: ["R3", "G3", "B1"]}, discard=["R9"], pile=["G1", "G2"]
    )
    state, _ = step(state, PlayCard(1, "W4", "G"))
    assert state.pending == ("challenge", 2) and Catch(0, 1) in legal_commands(state, 0)
    state, events = step(state, Accept(2))
    assert events[0] == UnoWindowClosed(1) and state.exposed is None


def test_a_late_call_before_anyone_catches_protects_the_player():
    state, _ = step(two_left(), PlayCard(1, "R1"))
    state, events = step(state, CallUno(1))
    assert events == [UnoCalled(1)]
    with pytest.raises(IllegalCommand):
        step(state, Catch(0, 1))


def test_a_player_cannot_catch_themselves():
    state, _ = step(two_left(), PlayCard(1, "R1"))
    with pytest.raises(IllegalCommand, match="cannot catch themselves"):
        step(state, Catch(1, 1))


def test_uno_is_called_only_with_the_play_that_leaves_one_card():
    with pytest.raises(IllegalCommand, match="leaves one card"):
        step(given(), PlayCard(1, "R1", uno=True))


def test_both_ways_of_playing_the_next_to_last_card_are_listed():
    state = two_left()
    plays = [c for c in legal_commands(state, 1) if c.type == "play" and c.card == "R1"]
    assert plays == [PlayCard(1, "R1", None, False), PlayCard(1, "R1", None, True)]


def test_drawing_a_card_ends_the_exposure_of_a_player_who_holds_more_than_one():
    # Two players: a Skip as next-to-last card gives the player the next turn too.
    state = arranged(players=2, hands={1: ["RS", "B1"]}, discard=["R9"], pile=["G6"])
    state, _ = step(state, PlayCard(1, "RS"))
    assert state.exposed == 1 and state.pending == ("turn", 1)
    state, _ = step(state, DrawCard(1))
    assert state.exposed is None
