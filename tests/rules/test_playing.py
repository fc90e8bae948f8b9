"""Matching, action cards, drawing, and what a seat may do on its turn."""

import pytest

from rules.commands import CallUno, DrawCard, Pass, PlayCard
from rules.engine import legal_commands, step
from rules.errors import IllegalCommand, InvalidCommand
from rules.events import CardPlayed, CardsDrawn, DirectionReversed, Passed, SeatSkipped, TurnBegan

from .helpers import play, start


def given(players=3, *, hands, starter="R9", draws=(), dealer=0):
    state, _ = start(players=players, dealer=dealer, hands=hands, starter=starter, draws=draws)
    return state


# Matching -------------------------------------------------------------------------------------


def test_a_card_of_the_colour_in_play_may_be_played():
    state = given(hands={1: ["R2"]}, starter="R9")
    state, events = step(state, PlayCard(1, "R2"))
    assert events[0] == CardPlayed(1, "R2", None, False)
    assert state.top == "R2" and state.colour == "R"


def test_a_card_of_the_same_number_in_another_colour_may_be_played():
    state = given(hands={1: ["B9"]}, starter="R9")
    state, _ = step(state, PlayCard(1, "B9"))
    assert state.colour == "B"


def test_a_card_matching_neither_colour_nor_number_is_refused_and_changes_nothing():
    state = given(hands={1: ["B8"]}, starter="R9")
    with pytest.raises(IllegalCommand, match="B8 cannot be played on R9 with R in play"):
        step(state, PlayCard(1, "B8"))


def test_a_card_the_seat_does_not_hold_is_refused():
    state = given(hands={1: ["R2"]}, starter="R9")
    with pytest.raises(IllegalCommand, match="does not hold R3"):
        step(state, PlayCard(1, "R3"))


def test_only_the_seat_whose_turn_it_is_may_play():
    state = given(hands={1: ["R2"], 2: ["R3"]}, starter="R9")
    with pytest.raises(IllegalCommand, match="it is seat 1's turn"):
        step(state, PlayCard(2, "R3"))


def test_a_draw_two_may_be_played_on_its_colour_or_on_another_draw_two_only():
    state = given(hands={1: ["BD2", "GD2"]}, starter="B5")
    with pytest.raises(IllegalCommand):
        step(state, PlayCard(1, "GD2"))
    state, _ = step(state, PlayCard(1, "BD2"))
    assert state.top == "BD2"


@pytest.mark.parametrize(
    ("rank", "second"),
    [("S", 3), ("V", 0), ("D2", 3)],  # who plays after seat 1's action card, 4 players
)
def test_an_action_card_matches_the_same_action_in_another_colour(rank, second):
    state = given(
        players=4, hands={1: [f"R{rank}"], second: [f"B{rank}"]}, starter="R9", draws=["G1", "G2"]
    )
    state, _ = step(state, PlayCard(1, f"R{rank}"))
    assert state.pending == ("turn", second)
    state, _ = step(state, PlayCard(second, f"B{rank}"))
    assert state.top == f"B{rank}" and state.colour == "B"


def test_a_wild_may_be_played_any_time_even_holding_a_playable_card():
    state = given(hands={1: ["W", "R2"]}, starter="R9")
    state, events = step(state, PlayCard(1, "W", colour="G"))
    assert state.colour == "G"
    assert events[-1] == TurnBegan(2)


def test_a_wild_needs_a_colour_and_only_a_wild_takes_one():
    state = given(hands={1: ["W", "R2"]}, starter="R9")
    with pytest.raises(InvalidCommand, match="needs a colour") as err:
        step(state, PlayCard(1, "W"))
    assert err.value.field == "colour"
    with pytest.raises(InvalidCommand, match="only called with a wild"):
        step(state, PlayCard(1, "R2", colour="G"))
    with pytest.raises(InvalidCommand, match="unknown colour 'P'"):
        step(state, PlayCard(1, "W", colour="P"))


def test_after_a_wild_only_the_called_colour_or_another_wild_matches():
    state = given(hands={1: ["W"], 2: ["R5", "G5", "W"]}, starter="R9")
    state, _ = step(state, PlayCard(1, "W", colour="G"))
    with pytest.raises(IllegalCommand):
        step(state, PlayCard(2, "R5"))
    state, _ = step(state, PlayCard(2, "G5"))
    assert state.top == "G5"


# Action cards ---------------------------------------------------------------------------------


def test_a_skip_makes_the_next_player_lose_their_turn():
    state = given(players=4, hands={1: ["RS"]}, starter="R9")
    state, events = step(state, PlayCard(1, "RS"))
    assert events[1:] == [SeatSkipped(2), TurnBegan(3)]


def test_a_reverse_changes_the_direction_of_play():
    state = given(players=4, hands={1: ["RV"]}, starter="R9")
    state, events = step(state, PlayCard(1, "RV"))
    assert events[1:] == [DirectionReversed(-1), TurnBegan(0)]
    assert state.direction == -1


def test_with_two_players_a_reverse_works_like_a_skip():
    state = given(players=2, hands={1: ["RV", "R3"]}, starter="R9")
    state, events = step(state, PlayCard(1, "RV"))
    assert events[1:] == [DirectionReversed(-1), SeatSkipped(0), TurnBegan(1)]


def test_a_draw_two_makes_the_next_player_draw_two_and_miss_their_turn():
    state = given(players=3, hands={1: ["RD2"]}, starter="R9", draws=["G1", "G2"])
    state, events = step(state, PlayCard(1, "RD2"))
    assert events[1:] == [CardsDrawn(2, ("G1", "G2"), "draw_two"), SeatSkipped(2), TurnBegan(0)]
    assert len(state.hands[2]) == 9


# Drawing --------------------------------------------------------------------------------------


NOTHING_ON_R9 = ["B1", "B2", "G3", "G4", "Y5", "Y6", "B7"]


def test_a_player_who_cannot_play_draws_and_the_turn_passes_when_the_card_does_not_match():
    state = given(hands={1: NOTHING_ON_R9}, starter="R9", draws=["G2"])
    assert [c.type for c in legal_commands(state, 1) if c.type == "play"] == []
    state, events = step(state, DrawCard(1))
    assert events == [CardsDrawn(1, ("G2",), "turn"), Passed(1), TurnBegan(2)]


def test_a_drawn_card_that_matches_may_be_played_in_the_same_turn():
    state = given(hands={1: ["B1"]}, starter="R9", draws=["R4"])
    state, events = step(state, DrawCard(1))
    assert state.pending == ("drawn", 1)
    assert [c.to_dict() for c in legal_commands(state, 1)] == [
        {"type": "play", "card": "R4"},
        {"type": "pass"},
    ]
    state, _ = step(state, PlayCard(1, "R4"))
    assert state.top == "R4" and state.pending == ("turn", 2)


def test_a_drawn_card_that_matches_may_be_kept():
    state = given(hands={1: ["B1"]}, starter="R9", draws=["R4"])
    state, events = play(state, DrawCard(1), Pass(1))
    assert events == [Passed(1), TurnBegan(2)]
    assert "R4" in state.hands[1]


def test_a_player_may_draw_instead_of_playing_a_playable_card():
    state = given(hands={1: ["R1"]}, starter="R9", draws=["B4"])
    assert DrawCard(1) in legal_commands(state, 1)
    state, events = step(state, DrawCard(1))
    assert events[-1] == TurnBegan(2)


def test_after_drawing_no_other_card_from_the_hand_may_be_played():
    state = given(hands={1: ["R1"]}, starter="R9", draws=["R4"])
    state, _ = step(state, DrawCard(1))
    with pytest.raises(IllegalCommand, match=r"only the drawn card \(R4\) may be played"):
        step(state, PlayCard(1, "R1"))


def test_pass_is_only_for_keeping_a_card_just_drawn():
    state = given(hands={1: ["R1"]}, starter="R9")
    with pytest.raises(IllegalCommand, match="cannot pass now"):
        step(state, Pass(1))


def test_drawing_is_always_allowed_on_your_turn_and_never_out_of_it():
    state = given(hands={1: ["R1"]}, starter="R9")
    with pytest.raises(IllegalCommand, match="seat 2 cannot draw now"):
        step(state, DrawCard(2))


def test_a_seat_may_not_call_uno_without_one_card_left():
    state = given(hands={1: ["R1"]}, starter="R9")
    with pytest.raises(IllegalCommand):
        step(state, CallUno(1))


def test_every_listed_play_is_accepted_and_every_unlisted_card_is_refused():
    state = given(players=3, hands={1: ["R1", "B9", "G2", "W", "W4", "RS", "YD2"]}, starter="R9")
    listed = legal_commands(state, 1)
    for command in listed:
        step(state, command)  # accepted
    listed_cards = {c.card for c in listed if c.type == "play"}
    assert listed_cards == {"R1", "B9", "W", "W4", "RS"}
    for card in {"G2", "YD2"}:
        with pytest.raises(IllegalCommand):
            step(state, PlayCard(1, card))
