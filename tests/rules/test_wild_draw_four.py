"""The Wild Draw 4: the colour restriction, and its challenge."""

import pytest

from rules.commands import Accept, Challenge, PlayCard
from rules.engine import legal_commands, step
from rules.errors import IllegalCommand
from rules.events import (
    CardsDrawn,
    ChallengeResolved,
    ChoiceOffered,
    SeatSkipped,
    TurnBegan,
    WildDrawFourAccepted,
)
from rules.variants import get_variant
from rules.views import event_view

from .helpers import start
from .positions import arranged

HONEST = ["W4", "B1", "B2", "G3", "G4", "Y5", "Y6"]  # no red card: a legal Wild Draw 4 on red
BLUFF = ["W4", "R1", "B2", "G3", "G4", "Y5", "Y6"]  # holds R1: a bluff on red


def given(hand, draws=("G1", "G2", "G5", "G6", "G7", "G8")):
    state, _ = start(players=3, dealer=0, hands={1: hand}, starter="R9", draws=draws)
    return state


def test_playing_a_wild_draw_four_lets_the_next_player_challenge_or_accept():
    state, events = step(given(HONEST), PlayCard(1, "W4", colour="B"))
    assert events[-1] == ChoiceOffered(2, "challenge")
    assert {c.type for c in legal_commands(state, 2)} == {"challenge", "accept"}
    assert state.colour == "B"


def test_accepting_draws_four_and_loses_the_turn():
    state, _ = step(given(HONEST), PlayCard(1, "W4", colour="B"))
    state, events = step(state, Accept(2))
    assert events == [
        WildDrawFourAccepted(2),
        CardsDrawn(2, ("G1", "G2", "G5", "G6"), "wild_draw_four"),
        SeatSkipped(2),
        TurnBegan(0),
    ]


def test_a_challenged_bluff_makes_the_offender_draw_four_and_the_challenger_plays():
    state, _ = step(given(BLUFF), PlayCard(1, "W4", colour="B"))
    state, events = step(state, Challenge(2))
    assert events == [
        ChallengeResolved(2, 1, "R", True, ("R1",), tuple(BLUFF[1:])),
        CardsDrawn(1, ("G1", "G2", "G5", "G6"), "challenge_guilty"),
        TurnBegan(2),
    ]
    assert state.colour == "B"  # the called colour stands


def test_a_challenged_legal_wild_draw_four_makes_the_challenger_draw_six_and_lose_the_turn():
    state, _ = step(given(HONEST), PlayCard(1, "W4", colour="B"))
    state, events = step(state, Challenge(2))
    assert events == [
        ChallengeResolved(2, 1, "R", False, (), tuple(HONEST[1:])),
        CardsDrawn(2, ("G1", "G2", "G5", "G6", "G7", "G8"), "challenge_innocent"),
        SeatSkipped(2),
        TurnBegan(0),
    ]


def test_holding_a_matching_number_or_action_card_of_another_colour_is_no_bluff():
    hand = ["W4", "B9", "GS", "G3", "G4", "Y5", "Y6"]  # B9 matches the red 9 by number only
    state, _ = step(given(hand), PlayCard(1, "W4", colour="B"))
    state, events = step(state, Challenge(2))
    assert events[0].guilty is False


def test_holding_a_wild_is_no_bluff():
    hand = ["W4", "W", "B2", "G3", "G4", "Y5", "Y6"]
    state, _ = step(given(hand), PlayCard(1, "W4", colour="B"))
    state, events = step(state, Challenge(2))
    assert events[0].guilty is False


def test_the_colour_that_counts_is_the_one_called_by_a_previous_wild():
    state, _ = start(players=3, dealer=0, hands={1: ["W"], 2: ["W4", "R1", "B2"]}, starter="R9")
    state, _ = step(state, PlayCard(1, "W", colour="G"))
    state, _ = step(state, PlayCard(2, "W4", colour="Y"))  # holds R1, but green was in play
    state, events = step(state, Challenge(0))
    assert events[0].colour == "G"
    assert events[0].guilty == any(c.startswith("G") for c in state.hands[2][:-4])


def test_a_bluff_may_be_played_the_legal_list_offers_it():
    state = given(BLUFF)
    assert PlayCard(1, "W4", "G") in legal_commands(state, 1)


def test_only_the_next_player_may_challenge_and_only_once():
    state, _ = step(given(BLUFF), PlayCard(1, "W4", colour="B"))
    with pytest.raises(IllegalCommand):
        step(state, Challenge(0))
    state, _ = step(state, Accept(2))
    with pytest.raises(IllegalCommand):
        step(state, Challenge(2))


def test_the_challenge_judges_the_hand_held_when_the_card_was_played_not_cards_drawn_since():
    from rules.commands import Catch

    # W4 is played as the next-to-last card without calling UNO; seat 2 holds no red card.
    state = arranged(
        hands={1: ["W4", "B1"], 2: ["G3", "G4", "Y5", "Y6", "B7"]},
        discard=["R9"],
        pile=["R1", "R2"],
    )
    state, _ = step(state, PlayCard(1, "W4", colour="B"))
    state, _ = step(state, Catch(0, 1))  # seat 1 draws R1 and R2 as the UNO penalty
    assert "R1" in state.hands[1]
    state, events = step(state, Challenge(2))
    assert events[0] == ChallengeResolved(2, 1, "R", False, (), ("B1",))


def test_the_challenged_player_shows_the_challenger_their_whole_hand():
    state, _ = step(given(HONEST), PlayCard(1, "W4", colour="B"))
    state, events = step(state, Challenge(2))
    resolved = events[0]
    assert resolved.hand == tuple(HONEST[1:]) and resolved.evidence == ()
    for viewer in (2, 1):  # the challenger, and the challenged player
        seen = event_view(resolved, viewer)
        assert seen["hand"] == list(HONEST[1:]) and seen["evidence"] == []
    assert event_view(resolved, None, referee=True)["hand"] == list(HONEST[1:])


def test_the_other_seats_see_the_verdict_but_not_the_hand_shown():
    state, _ = step(given(BLUFF), PlayCard(1, "W4", colour="B"))
    state, events = step(state, Challenge(2))
    for viewer in (0, None):
        seen = event_view(events[0], viewer)
        assert seen["guilty"] is True
        assert seen["hand"] is None and seen["evidence"] is None


def test_a_challenge_logged_before_the_hand_was_recorded_keeps_its_shape():
    from rules.events import event_from_dict

    old = {
        "type": "challenge_resolved",
        "challenger": 2,
        "offender": 1,
        "colour": "R",
        "guilty": True,
        "evidence": ["R1"],
    }
    assert event_from_dict(old).hand is None and event_from_dict(old).to_dict() == old


@pytest.mark.parametrize("variant", ["classic", "mod", "veto", "spin", "power_grab"])
def test_every_edition_shows_the_challenger_the_hand(variant):
    a, b, c, d = get_variant(variant).colours
    hand = ["W4", f"{b}1", f"{b}2", f"{c}3", f"{c}4", f"{d}5", f"{d}6"]  # no card of {a}
    state, _ = start(variant, 3, dealer=0, hands={1: hand}, starter=f"{a}9")
    state, _ = step(state, PlayCard(1, "W4", colour=b))
    state, events = step(state, Challenge(2))
    assert events[0].guilty is False and events[0].hand == tuple(hand[1:])
    assert event_view(events[0], 2)["hand"] == hand[1:]
    assert event_view(events[0], 0)["hand"] is None
