"""UNO Power Grab: holding all four Power Towers gives Instant UNO: the player keeps one card
of their choosing, discards the rest, must still call UNO, and the towers go back."""

import pytest

from rules.commands import Catch, DrawCard, PlayCard
from rules.engine import legal_commands, step
from rules.errors import IllegalCommand
from rules.events import ChoiceOffered, TurnBegan
from rules.variants import get_variant
from rules.variants.power_grab.commands import ClaimInstantUno, PowerGrabPlay
from rules.variants.power_grab.events import InstantUnoClaimed, TowersGrabbed, TowersReturned
from tests.rules.helpers import play, types

from .power_grab_helpers import event, holders, placed, table

PG = get_variant("power_grab")
HAND = ["R8:!", "B2", "Y5", "G7", "B4", "Y6", "G8"]
UNCLAIMED = {"U": None, "N": None, "O": None, "!": None}


def fourth_tower(hand=HAND, card="R8:!", **kwargs):
    """Seat 1 holds U, N and O and plays a ! card: the state waiting for the card to keep."""
    state = table({1: hand}, towers={"U": 1, "N": 1, "O": 1})
    return play(state, PlayCard(1, card, **kwargs))


def test_grabbing_the_fourth_tower_asks_the_player_which_card_to_keep():
    state, events = fourth_tower()
    assert events[1:] == [TowersGrabbed(1, "R8:!", ("!",), (None,)), ChoiceOffered(1, "keep")]
    assert state.pending == ("keep", 1)
    assert holders(state) == {"U": 1, "N": 1, "O": 1, "!": 1}


def test_the_player_may_keep_any_card_of_the_hand_calling_uno_or_not():
    state, _ = fourth_tower()
    keeps = [c for c in legal_commands(state, 1) if c.type == "keep"]
    assert keeps == [ClaimInstantUno(1, card, uno) for card in HAND[1:] for uno in (False, True)]


def test_instant_uno_discards_every_card_but_the_one_kept():
    state, _ = fourth_tower()
    state, events = play(state, ClaimInstantUno(1, "G7", uno=True))
    assert events[0] == InstantUnoClaimed(1, "G7", ("B2", "Y5", "B4", "Y6", "G8"), True)
    assert state.hands[1] == ("G7",)


def test_the_discarded_cards_go_under_the_top_card_of_the_discard_pile():
    state, _ = fourth_tower()
    state, _ = play(state, ClaimInstantUno(1, "G7", uno=True))
    assert state.discard == ("R3", "B2", "Y5", "B4", "Y6", "G8", "R8:!")
    assert state.top == "R8:!" and state.colour == "R"


def test_the_towers_return_to_the_unclaimed_spot_after_instant_uno():
    state, _ = fourth_tower()
    state, events = play(state, ClaimInstantUno(1, "G7", uno=True))
    assert events[1] == TowersReturned(1)
    assert holders(state) == UNCLAIMED


def test_play_passes_to_the_next_player_after_instant_uno():
    state, _ = fourth_tower()
    state, events = play(state, ClaimInstantUno(1, "G7", uno=True))
    assert events[2:] == [TurnBegan(2)]


def test_a_player_who_keeps_a_card_without_calling_uno_can_be_caught():
    state, _ = fourth_tower()
    state, _ = play(state, ClaimInstantUno(1, "G7"))
    assert state.exposed == 1
    assert Catch(2, 1) in legal_commands(state, 2)
    state, _ = play(state, Catch(2, 1))
    assert len(state.hands[1]) == 3


def test_a_player_who_calls_uno_with_the_kept_card_cannot_be_caught():
    state, _ = fourth_tower()
    state, _ = play(state, ClaimInstantUno(1, "G7", uno=True))
    assert state.exposed is None
    assert not [c for c in legal_commands(state, 2) if c.type == "catch"]


def test_instant_uno_comes_at_once_when_grab_two_towers_grabs_the_fourth_tower():
    state = table({1: ["RG2", "B2", "Y5"]}, towers={"U": 1, "!": 1, "N": 2})
    state, events = play(state, PowerGrabPlay(1, "RG2", towers=("N", "O")))
    assert types(events)[1:] == ["towers_grabbed", "choice_offered"]
    assert state.pending == ("keep", 1)


def test_instant_uno_by_wild_grab_a_tower_keeps_the_colour_called():
    state = table({1: ["WG", "B2", "Y5"]}, towers={"U": 1, "N": 1, "!": 1}, starter="R3")
    state, _ = play(
        state, PowerGrabPlay(1, "WG", "Y", towers=("O",)), ClaimInstantUno(1, "Y5", uno=True)
    )
    assert state.top == "WG" and state.colour == "Y"
    assert state.hands[1] == ("Y5",) and state.pending == ("turn", 2)


def test_a_fourth_tower_taken_from_another_player_gives_instant_uno_too():
    state = table({1: ["R8:!", "B2"]}, towers={"U": 1, "N": 1, "O": 1, "!": 0})
    state, events = play(state, PlayCard(1, "R8:!"))
    assert event(events, TowersGrabbed).previous == (0,)
    assert state.pending == ("keep", 1)


def left_with_two_cards():
    """Two seats: seat 1 has skipped seat 0 five times and plays again, holding a ! card and a
    blue 7 and the other three towers."""
    return placed(
        {0: ["G2", "G3", "G4", "Y2", "Y3", "Y4", "Y9"], 1: ["B8:!", "B7"]},
        discard=["R3", "RS", "RS", "GS", "GS", "BS"],
        players=2,
        towers={"U": 1, "N": 1, "O": 1},
    )


def test_with_one_card_left_instant_uno_discards_nothing():
    # Two seats: seat 1 skipped seat 0 five times and is left with a ! card and a blue 7.
    state = left_with_two_cards()
    state, events = play(state, PlayCard(1, "B8:!", uno=True))
    assert events[2:] == [InstantUnoClaimed(1, "B7", (), True), TowersReturned(1), TurnBegan(0)]
    assert state.hands[1] == ("B7",) and state.exposed is None
    assert holders(state) == UNCLAIMED


def test_with_one_card_left_and_uno_not_called_the_player_can_be_caught():
    state = left_with_two_cards()
    state, events = play(state, PlayCard(1, "B8:!"))
    assert event(events, InstantUnoClaimed).uno is False
    assert state.exposed == 1


def test_uno_is_called_with_the_card_kept_not_with_the_play():
    state = table({1: HAND}, towers={"U": 1, "N": 1, "O": 1})
    with pytest.raises(IllegalCommand, match="UNO is called with the play that leaves one card"):
        step(state, PlayCard(1, "R8:!", uno=True))


def test_nothing_but_choosing_the_card_to_keep_is_accepted_meanwhile():
    state, _ = fourth_tower()
    with pytest.raises(IllegalCommand, match="seat 1 cannot draw now"):
        step(state, DrawCard(1))
    with pytest.raises(IllegalCommand, match="seat 1 cannot play now"):
        step(state, PlayCard(1, "B2"))
    with pytest.raises(IllegalCommand, match="seat 2 cannot keep now"):
        step(state, ClaimInstantUno(2, "R9"))


def test_the_card_kept_must_be_in_the_hand():
    state, _ = fourth_tower()
    with pytest.raises(IllegalCommand, match="seat 1 does not hold R9"):
        step(state, ClaimInstantUno(1, "R9"))


def test_keep_is_refused_without_all_four_towers():
    state = table({1: HAND})
    with pytest.raises(IllegalCommand, match="seat 1 cannot keep now: it is seat 1's turn"):
        step(state, ClaimInstantUno(1, "B2"))


def test_other_seats_see_the_discarded_cards_but_not_the_card_kept():
    state, _ = fourth_tower()
    state, events = play(state, ClaimInstantUno(1, "G7", uno=True))
    claimed = events[0]
    assert claimed.redacted(2)["kept"] is None
    assert claimed.redacted(2)["discarded"] == ["B2", "Y5", "B4", "Y6", "G8"]
    assert claimed.redacted(1)["kept"] == "G7"


def test_the_seat_choosing_a_card_to_keep_is_the_only_seat_with_all_four_towers():
    state, _ = fourth_tower()
    assert PG.invariants(state) == []
    stuck = state.copy()
    stuck.pending = ("turn", 2)
    assert PG.invariants(stuck) == ["seat 1 holds all four towers and has not claimed Instant UNO"]
