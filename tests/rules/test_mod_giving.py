"""UNO Mod: playing a Mod card calls a colour in play and gives a colour away."""

import pytest

from rules.commands import DrawCard, Pass, PlayCard, command_from_dict
from rules.errors import IllegalCommand, InvalidCommand
from rules.variants.mod.commands import ModPlay
from rules.variants.mod.events import CardsGiven
from tests.rules.helpers import play, start, types

# Three seats, dealer 0: seat 1 plays first, on a red 3, then seat 2, then seat 0.
GIVER = ["WM", "G1", "B4", "G2", "Y5", "G3", "R6"]
LEFT = ["R1", "R2", "B5", "B6", "Y6", "Y7", "Y8"]  # seat 2, on seat 1's left
DEALER = ["R4", "R5", "B7", "B8", "Y9", "Y1", "Y2"]  # seat 0


def mod_table(giver=GIVER, players=3, **kwargs):
    hands = {1: giver, 2: LEFT, 0: DEALER}
    hands = {seat: cards for seat, cards in hands.items() if seat < players}
    state, _ = start(
        "mod", players, dealer=0, hands=hands, starter=kwargs.pop("starter", "R3"), **kwargs
    )
    return state


def test_playing_a_mod_gives_away_every_card_of_the_called_colour():
    state, events = play(mod_table(), ModPlay(1, "WM", "B", give="G"))
    assert state.hands[1] == ("B4", "Y5", "R6")
    assert not any(card.startswith("G") for card in state.hands[1])


def test_the_cards_go_one_to_each_opponent_from_the_left_clockwise_and_round_again():
    state, events = play(mod_table(), ModPlay(1, "WM", "B", give="G"))
    given = next(e for e in events if type(e) is CardsGiven)
    assert given.gifts == ((2, "G1"), (0, "G2"), (2, "G3"))
    assert state.hands[2] == tuple(LEFT) + ("G1", "G3")
    assert state.hands[0] == tuple(DEALER) + ("G2",)


def test_the_cards_are_given_in_the_order_they_lie_in_the_hand():
    giver = ["WM", "G3", "B4", "G1", "Y5", "G2", "R6"]
    state, events = play(mod_table(giver), ModPlay(1, "WM", "B", give="G"))
    given = next(e for e in events if type(e) is CardsGiven)
    assert [card for _, card in given.gifts] == ["G3", "G1", "G2"]


def test_the_cards_go_clockwise_even_when_play_runs_counter_clockwise():
    # Seat 1 reverses; seat 0 (on seat 1's right) then plays the Mod with play running
    # counter-clockwise: its left neighbour, seat 1, still receives the first card.
    dealer = ["RV", "WM", "G1", "G2", "G3", "B7", "Y9"]
    giver = ["RV", "B4", "Y5", "B6", "Y6", "B8", "Y1"]
    state, _ = start("mod", 3, dealer=0, hands={1: giver, 0: dealer, 2: LEFT}, starter="R3")
    state, _ = play(state, PlayCard(1, "RV"))
    assert state.direction == -1 and state.pending == ("turn", 0)
    state, events = play(state, ModPlay(0, "WM", "Y", give="G"))
    given = next(e for e in events if type(e) is CardsGiven)
    assert given.gifts == ((1, "G1"), (2, "G2"), (1, "G3"))


def test_play_resumes_in_the_current_direction_after_a_mod():
    dealer = ["RV", "WM", "G1", "G2", "G3", "B7", "Y9"]
    giver = ["RV", "B4", "Y5", "B6", "Y6", "B8", "Y1"]
    state, _ = start("mod", 3, dealer=0, hands={1: giver, 0: dealer, 2: LEFT}, starter="R3")
    state, _ = play(state, PlayCard(1, "RV"), ModPlay(0, "WM", "Y", give="G"))
    assert state.direction == -1
    assert state.pending == ("turn", 2)


def test_play_passes_to_the_left_after_a_mod_when_play_runs_clockwise():
    state, events = play(mod_table(), ModPlay(1, "WM", "B", give="G"))
    assert types(events)[-2:] == ["cards_given", "turn_began"]
    assert state.pending == ("turn", 2)


def test_with_fewer_cards_than_opponents_some_opponents_receive_none():
    giver = ["WM", "G1", "B4", "G2", "Y5", "B6", "R6"]
    state, _ = start("mod", 6, dealer=0, hands={1: giver}, starter="R3")
    before = state.hands
    state, events = play(state, ModPlay(1, "WM", "B", give="G"))
    given = next(e for e in events if type(e) is CardsGiven)
    assert given.gifts == ((2, "G1"), (3, "G2"))
    assert [len(h) for h in state.hands] == [7, 4, 8, 8, 7, 7]
    assert (
        state.hands[4] == before[4] and state.hands[5] == before[5] and state.hands[0] == before[0]
    )


def test_with_two_players_the_one_opponent_receives_every_card():
    state = mod_table(players=2)
    # Two seats, dealer 0: seat 1 plays first; its left is seat 0.
    state, events = play(state, ModPlay(1, "WM", "B", give="G"))
    given = next(e for e in events if type(e) is CardsGiven)
    assert given.gifts == ((0, "G1"), (0, "G2"), (0, "G3"))
    assert state.pending == ("turn", 0)


def test_a_mod_calls_the_colour_in_play():
    state, _ = play(mod_table(), ModPlay(1, "WM", "Y", give="G"))
    assert state.top == "WM"
    assert state.colour == "Y"


def test_a_mod_may_call_the_colour_it_gives_away():
    state, _ = play(mod_table(), ModPlay(1, "WM", "G", give="G"))
    assert state.colour == "G"


def test_a_mod_may_be_played_while_holding_a_card_that_matches():
    state = mod_table()
    assert "R6" in state.hands[1] and state.colour == "R"
    state, events = play(state, ModPlay(1, "WM", "R", give="B"))
    assert state.hands[1] == ("G1", "G2", "Y5", "G3", "R6")


def test_a_mod_needs_a_colour_to_call():
    with pytest.raises(InvalidCommand, match="needs a colour") as exc:
        play(mod_table(), ModPlay(1, "WM", None, give="G"))
    assert exc.value.field == "colour"


def test_a_mod_needs_a_colour_to_give_away_while_the_player_holds_a_coloured_card():
    with pytest.raises(InvalidCommand, match="to give away") as exc:
        play(mod_table(), PlayCard(1, "WM", "B"))
    assert exc.value.field == "give"


def test_a_mod_cannot_give_away_a_colour_the_player_does_not_hold():
    giver = ["WM", "G1", "B4", "G2", "B5", "G3", "R6"]
    with pytest.raises(IllegalCommand, match="holds no Y card"):
        play(mod_table(giver), ModPlay(1, "WM", "B", give="Y"))


def test_a_mod_cannot_give_away_a_colour_outside_the_deck():
    with pytest.raises(IllegalCommand, match="holds no P card"):
        play(mod_table(), ModPlay(1, "WM", "B", give="P"))


def test_a_mod_played_with_only_wild_cards_left_gives_nothing():
    giver = ["WM", "W", "W4", "WM", "B1", "B2", "B3"]
    state, _ = start("mod", 3, dealer=0, hands={1: giver}, starter="R3")
    # Seat 1 gives its blues away first, then plays a Mod with only wilds left.
    state, _ = play(state, ModPlay(1, "WM", "B", give="B"))
    assert state.hands[1] == ("W", "W4", "WM")
    state = _to_turn(state, 1)
    state, events = play(state, PlayCard(1, "WM", "R"))
    assert "cards_given" not in types(events)
    assert state.hands[1] == ("W", "W4")


def test_a_mod_with_only_wild_cards_left_cannot_give_a_colour_away():
    giver = ["WM", "W", "W4", "WM", "B1", "B2", "B3"]
    state, _ = start("mod", 3, dealer=0, hands={1: giver}, starter="R3")
    state, _ = play(state, ModPlay(1, "WM", "B", give="B"))
    state = _to_turn(state, 1)
    with pytest.raises(IllegalCommand, match="holds no R card"):
        play(state, ModPlay(1, "WM", "R", give="R"))


def test_a_mod_just_drawn_may_be_played_with_its_gift():
    hand = ["B1", "G1", "G2", "B5", "Y5", "Y6", "B6"]
    state, _ = start("mod", 3, dealer=0, hands={1: hand}, starter="R3", draws=["WM"])
    state, _ = play(state, DrawCard(1))
    assert state.pending == ("drawn", 1) and state.drawn == "WM"
    state, events = play(state, ModPlay(1, "WM", "Y", give="G"))
    assert types(events)[:2] == ["card_played", "cards_given"]
    assert state.hands[1] == ("B1", "B5", "Y5", "Y6", "B6")


def test_give_is_refused_with_any_card_but_a_mod():
    with pytest.raises(InvalidCommand, match="give is only for the Mod card"):
        play(mod_table(), ModPlay(1, "R6", give="G"))


def _to_turn(state, seat):
    """Let the other seats draw and pass until it is ``seat``'s turn."""
    while state.pending != ("turn", seat):
        kind, other = state.pending
        if kind == "turn":
            state, _ = play(state, DrawCard(other))
        elif kind == "drawn":
            state, _ = play(state, Pass(other))
        else:
            raise AssertionError(state.pending)
    return state


def test_towers_are_refused_with_a_mod():
    with pytest.raises(InvalidCommand, match="towers are only for Power Grab cards"):
        command_from_dict(
            1,
            {"type": "play", "card": "WM", "colour": "B", "give": "G", "towers": ["a"]},
            variant="mod",
        )
