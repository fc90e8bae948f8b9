"""UNO VETO: slapping the VETO card on a player, who skips their next turn."""

import pytest

from rules.commands import (
    Catch,
    ChooseColour,
    DealHand,
    DrawCard,
    Pass,
    PlayCard,
    command_from_dict,
)
from rules.engine import legal_commands, new_game, step
from rules.errors import IllegalCommand, InvalidCommand
from rules.events import HandEnded, SeatSkipped, TurnBegan, UnoCaught
from rules.variants import get_variant
from rules.variants.veto.commands import SlapVeto
from rules.variants.veto.events import VetoServed, VetoSlapped

from .helpers import play
from .veto_helpers import seated, table

VETO = get_variant("veto")


def test_any_player_may_slap_the_veto_on_another_even_out_of_turn():
    state, events = step(table(), SlapVeto(0, 2))
    assert events == [VetoSlapped(0, 2)]
    assert state.extra.veto == 2 and state.pending == ("turn", 1)


def test_the_player_slapped_skips_their_next_turn_and_the_veto_goes_back_to_the_middle():
    state, _ = step(table(), SlapVeto(0, 2))
    state, events = step(state, PlayCard(1, state.hands[1][0]))
    assert events[-2:] == [VetoServed(2), TurnBegan(0)]
    assert state.extra.veto is None


def test_the_veto_can_be_played_on_the_next_offender_once_it_is_back():
    state, _ = play(table(), SlapVeto(0, 2), PlayCard(1, "P1"))
    state, events = step(state, SlapVeto(2, 1))
    assert events == [VetoSlapped(2, 1)]


def test_a_player_cannot_slap_the_veto_on_themselves():
    with pytest.raises(IllegalCommand, match="cannot slap the VETO card on themselves"):
        step(table(), SlapVeto(1, 1))


def test_the_veto_cannot_be_slapped_while_it_is_out():
    state, _ = step(table(), SlapVeto(0, 2))
    with pytest.raises(IllegalCommand, match="the VETO card is not in the middle: seat 2 has it"):
        step(state, SlapVeto(1, 0))
    assert not any(c.type == "veto" for seat in range(3) for c in legal_commands(state, seat))


def test_the_veto_is_slapped_by_a_player_on_a_seat_at_the_table():
    with pytest.raises(IllegalCommand, match="slapped by a player, not a referee"):
        step(table(), SlapVeto(None, 1))
    with pytest.raises(InvalidCommand, match="no seat 5"):
        step(table(), SlapVeto(0, 5))


def test_every_seat_may_send_the_veto_at_any_time_in_a_hand():
    state = table()
    for seat in range(3):
        slaps = [c for c in legal_commands(state, seat) if c.type == "veto"]
        assert slaps == [SlapVeto(seat, t) for t in range(3) if t != seat]
    assert "veto" in VETO.out_of_turn_types and VETO.out_of_turn_open(state)


def test_a_score_sheet_has_no_hand_in_play_to_slap_the_veto_in():
    # The hands of a score sheet are played with cards at the table; the game only records
    # them, so there is no turn for the VETO to cost.
    state, _ = new_game(variant="veto", players=3, seed="s", sheet=True)
    assert state.pending == ("sheet", -1)
    assert not [c for seat in range(3) for c in legal_commands(state, seat) if c.type == "veto"]
    with pytest.raises(IllegalCommand, match="only while a hand is played"):
        step(state, SlapVeto(0, 1))


def test_the_veto_in_the_api_names_its_target_as_target_and_still_takes_seat():
    assert SlapVeto(0, 2).to_dict() == {"type": "veto", "target": 2}
    assert command_from_dict(0, {"type": "veto", "target": 2}) == SlapVeto(0, 2)
    assert command_from_dict(0, {"type": "veto", "seat": 2}) == SlapVeto(0, 2)  # its old name
    with pytest.raises(InvalidCommand, match="target and seat") as err:
        command_from_dict(0, {"type": "veto", "target": 2, "seat": 1})
    assert err.value.field == "target"


def test_a_veto_on_the_player_whose_turn_it_is_costs_their_next_turn_not_this_one():
    state, _ = step(table(), SlapVeto(0, 1))
    assert state.pending == ("turn", 1)
    state, _ = step(state, PlayCard(1, "P1"))  # this turn is played
    for seat in (2, 0):
        state, events = step(state, DrawCard(seat))
        if state.pending[0] == "drawn":
            state, events = step(state, Pass(seat))
    assert VetoServed(1) in events and events[-1] == TurnBegan(2)


def test_a_turn_lost_to_a_skip_does_not_serve_the_veto():
    state = table(hands={1: ["PS"] + ["P1", "O2", "G9", "Y8", "O3", "OV"]})
    state, _ = play(state, SlapVeto(0, 2), PlayCard(1, "PS"))
    assert state.extra.veto == 2 and state.pending == ("turn", 0)
    state, events = step(state, DrawCard(0))
    if state.pending[0] == "drawn":
        state, events = step(state, Pass(0))
    assert state.pending == ("turn", 1)  # seat 1 plays again ... then seat 2 skips
    state, events = step(state, PlayCard(1, "P1"))
    assert VetoServed(2) in events and state.pending == ("turn", 0)


def test_with_two_players_a_veto_on_the_opponent_gives_the_slapper_another_turn():
    state = table(players=2, hands={1: ["P1", "P2"], 0: ["G1", "G2"]}, dealer=0)
    state, _ = play(state, SlapVeto(1, 0), PlayCard(1, "P1"))
    assert state.pending == ("turn", 1) and state.extra.veto is None


def test_a_vetoed_player_may_still_go_out_on_the_turn_they_are_playing():
    state = seated(hands={1: ["P1"]})
    state, _ = step(state, SlapVeto(2, 1))
    state, events = step(state, PlayCard(1, "P1"))
    assert next(e for e in events if type(e) is HandEnded).winner == 1


def test_the_veto_goes_back_to_the_middle_when_a_hand_ends():
    state = seated(hands={1: ["P1"]})
    state, _ = play(state, SlapVeto(1, 2), PlayCard(1, "P1"))
    assert state.pending[0] == "deal"
    with pytest.raises(IllegalCommand, match="only while a hand is played"):
        step(state, SlapVeto(0, 2))
    assert [c for c in legal_commands(state, 0) if c.type == "veto"] == []
    state, _ = step(state, DealHand(state.pending[1]))
    assert state.extra.veto is None


def test_a_vetoed_first_player_who_chooses_the_starting_colour_then_skips_the_turn():
    state = table(starter="W")
    state, events = play(state, SlapVeto(0, 1), ChooseColour(1, "G"))
    assert events[-2:] == [VetoServed(1), TurnBegan(2)]


def test_slapping_the_veto_does_not_close_the_uno_catch_window():
    state = seated(hands={1: ["P1", "P2"]})
    state, _ = play(state, PlayCard(1, "P1"), SlapVeto(2, 0))
    assert state.exposed == 1
    state, events = step(state, Catch(0, 1))
    assert type(events[0]) is UnoCaught


def test_a_vetoed_seat_skips_with_its_own_event_not_a_skip_card():
    state, events = play(table(), SlapVeto(0, 2), PlayCard(1, "P1"))
    assert not any(type(e) is SeatSkipped for e in events)
