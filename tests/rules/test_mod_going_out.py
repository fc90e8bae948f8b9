"""UNO Mod: UNO, going out and scoring when a Mod gives cards away; the Wild Draw 4 challenge."""

import pytest

from rules.commands import Accept, CallUno, Catch, Challenge, DrawCard, Pass, PlayCard
from rules.engine import legal_commands
from rules.errors import IllegalCommand
from rules.events import ChallengeResolved, HandEnded
from rules.variants.mod.commands import ModPlay
from tests.rules.helpers import play, start, types

LEFT = ["R1", "R2", "B5", "B6", "Y6", "Y7", "Y8"]  # seat 2
DEALER = ["R4", "R5", "B7", "B8", "Y9", "Y1", "Y2"]  # seat 0


def table(giver, *, left=LEFT, dealer=DEALER, starter="R3", draws=()):
    """Three seats, dealer 0: seat 1 (holding ``giver``) plays first."""
    state, _ = start(
        "mod", 3, dealer=0, hands={1: giver, 2: left, 0: dealer}, starter=starter, draws=draws
    )
    return state


def to_turn(state, seat):
    """The other seats draw (and keep what they draw) until it is ``seat``'s turn."""
    while state.pending != ("turn", seat):
        kind, other = state.pending
        state, _ = play(state, DrawCard(other) if kind == "turn" else Pass(other))
    return state


def hand_ended(events):
    return next(e for e in events if type(e) is HandEnded)


# Going out -------------------------------------------------------------------------------


def test_giving_away_the_last_cards_goes_out():
    giver = ["WM", "G1", "G2", "G3", "G4", "G5", "G6"]
    state, events = play(table(giver), ModPlay(1, "WM", "B", give="G"))
    assert types(events)[-3:] == ["cards_given", "hand_ended", "choice_offered"]
    assert hand_ended(events).winner == 1
    assert state.hands[1] == ()


def test_cards_given_to_go_out_count_in_the_receivers_hands():
    giver = ["WM", "G1", "G2", "G3", "G4", "G5", "G6"]
    state, events = play(table(giver), ModPlay(1, "WM", "B", give="G"))
    ended = hand_ended(events)
    # Seat 2 gets G1, G3, G5 (9 points) and seat 0 gets G2, G4, G6 (12 points).
    assert ended.held == (sum([4, 5, 7, 8, 9, 1, 2]) + 12, 0, sum([1, 2, 5, 6, 6, 7, 8]) + 9)
    assert ended.gained == (0, sum(ended.held), 0)


def test_a_mod_left_in_a_hand_scores_50_points():
    giver = ["WM", "G1", "G2", "G3", "G4", "G5", "G6"]
    left = ["WM", "R2", "B5", "B6", "Y6", "Y7", "Y8"]
    state, events = play(table(giver, left=left), ModPlay(1, "WM", "B", give="G"))
    assert hand_ended(events).held[2] == 50 + 2 + 5 + 6 + 6 + 7 + 8 + 1 + 3 + 5


def test_a_mod_played_as_the_last_card_goes_out_without_giving():
    giver = ["WM", "WM", "G1", "G2", "G3", "G4", "G5"]
    state, _ = play(table(giver), ModPlay(1, "WM", "B", uno=True, give="G"))
    assert state.hands[1] == ("WM",)
    state = to_turn(state, 1)
    state, events = play(state, PlayCard(1, "WM", "Y"))
    assert types(events)[-3:] == ["card_played", "hand_ended", "choice_offered"]
    assert hand_ended(events).winner == 1


# UNO ---------------------------------------------------------------------------------------


def test_a_mod_whose_giving_leaves_one_card_is_played_with_uno():
    giver = ["WM", "G1", "G2", "G3", "G4", "G5", "B4"]
    state, events = play(table(giver), ModPlay(1, "WM", "B", uno=True, give="G"))
    assert state.hands[1] == ("B4",)
    assert state.exposed is None
    assert events[0].uno and events[1].uno


def test_a_player_left_with_one_card_by_giving_without_calling_uno_can_be_caught():
    giver = ["WM", "G1", "G2", "G3", "G4", "G5", "B4"]
    state, _ = play(table(giver, draws=["R7", "R8"]), ModPlay(1, "WM", "B", give="G"))
    assert state.exposed == 1
    state, events = play(state, Catch(0, 1))
    assert types(events) == ["uno_caught", "cards_drawn"]
    assert state.hands[1] == ("B4", "R7", "R8")


def test_a_player_left_with_one_card_by_giving_may_still_call_uno_before_being_caught():
    giver = ["WM", "G1", "G2", "G3", "G4", "G5", "B4"]
    state, _ = play(table(giver), ModPlay(1, "WM", "B", give="G"), CallUno(1))
    assert state.exposed is None
    with pytest.raises(IllegalCommand):
        play(state, Catch(0, 1))


def test_a_player_who_called_uno_with_the_mod_cannot_be_caught():
    giver = ["WM", "G1", "G2", "G3", "G4", "G5", "B4"]
    state, _ = play(table(giver), ModPlay(1, "WM", "B", uno=True, give="G"))
    with pytest.raises(IllegalCommand, match="cannot be caught"):
        play(state, Catch(2, 1))


def test_the_catch_window_after_a_mod_closes_when_the_next_player_begins_their_turn():
    giver = ["WM", "G1", "G2", "G3", "G4", "G5", "B4"]
    state, _ = play(table(giver), ModPlay(1, "WM", "B", give="G"))
    state, events = play(state, DrawCard(2))
    assert types(events)[0] == "uno_window_closed"
    with pytest.raises(IllegalCommand):
        play(state, Catch(0, 1))


def test_uno_cannot_be_called_with_a_mod_whose_giving_leaves_more_than_one_card():
    giver = ["WM", "G1", "G2", "G3", "G4", "B5", "B4"]
    with pytest.raises(IllegalCommand, match="leaves one card"):
        play(table(giver), ModPlay(1, "WM", "B", uno=True, give="G"))


def test_uno_cannot_be_called_with_a_mod_whose_giving_leaves_no_card():
    giver = ["WM", "WM", "G1", "B1", "B2", "B3", "B4"]
    state, _ = play(table(giver), ModPlay(1, "WM", "Y", give="B"))
    assert state.hands[1] == ("WM", "G1")
    state = to_turn(state, 1)
    with pytest.raises(IllegalCommand, match="leaves one card"):
        play(state, ModPlay(1, "WM", "Y", uno=True, give="G"))
    state, events = play(state, ModPlay(1, "WM", "Y", give="G"))
    assert hand_ended(events).winner == 1


def test_a_mod_that_gives_all_but_a_wild_card_without_uno_exposes_the_player():
    giver = ["WM", "W", "B1", "B2", "B3", "B4", "B5"]
    state, _ = play(table(giver), ModPlay(1, "WM", "Y", give="B"))
    assert state.hands[1] == ("W",) and state.exposed == 1


def test_uno_is_called_with_a_mod_that_leaves_one_wild_card_and_gives_nothing():
    giver = ["WM", "WM", "W", "B1", "B2", "B3", "B4"]
    state, _ = play(table(giver), ModPlay(1, "WM", "Y", give="B"))
    state = to_turn(state, 1)
    state, _ = play(state, PlayCard(1, "WM", "Y", uno=True))
    assert state.hands[1] == ("W",) and state.exposed is None


@pytest.mark.parametrize("left", [("WM", "W"), ("WM", "WM")])
def test_the_legal_plays_of_a_mod_leaving_one_wild_card_offer_the_uno_call(left):
    giver = ["WM", *left, "B1", "B2", "B3", "B4"]
    state, _ = play(table(giver), ModPlay(1, "WM", "Y", give="B"))
    state = to_turn(state, 1)
    assert state.hands[1] == left
    mods = [c for c in legal_commands(state, 1) if c.type == "play" and c.card == "WM"]
    assert set(mods) == {  # nothing to give: plain plays
        PlayCard(1, "WM", colour, uno) for colour in "RGBY" for uno in (False, True)
    }
    for command in mods:
        play(state, command)  # each is accepted


# The Wild Draw 4 challenge -----------------------------------------------------------------


def test_a_mod_in_hand_is_not_a_colour_match_for_the_wild_draw_four():
    # Seat 1 holds a Mod and no red card and plays a Wild Draw 4 on a red 3: innocent.
    giver = ["W4", "WM", "G1", "B4", "G2", "Y5", "G3"]
    resolved = next(state_events(table(giver), PlayCard(1, "W4", "B"), Challenge(2)))
    assert resolved.guilty is False and resolved.evidence == ()


def test_the_colour_called_by_a_mod_is_the_colour_a_wild_draw_four_is_judged_against():
    # Seat 1 calls yellow with a Mod; seat 2 holds a yellow and plays a Wild Draw 4: guilty.
    giver = ["WM", "G1", "B4", "G2", "R5", "G3", "R6"]
    left = ["W4", "Y6", "R2", "B5", "B6", "R7", "R8"]
    state = table(giver, left=left)
    resolved = next(
        state_events(state, ModPlay(1, "WM", "Y", give="G"), PlayCard(2, "W4", "B"), Challenge(0))
    )
    assert resolved.guilty is True and resolved.evidence == ("Y6",)


def test_cards_received_from_a_mod_count_in_a_wild_draw_four_challenge():
    # Seat 1 calls green and gives its greens away; seat 2, holding no green of its own,
    # plays a Wild Draw 4 while holding the greens it received: guilty.
    giver = ["WM", "G1", "B4", "G2", "R5", "G3", "R6"]
    left = ["W4", "Y6", "R2", "B5", "B6", "R7", "R8"]
    state = table(giver, left=left)
    resolved = next(
        state_events(state, ModPlay(1, "WM", "G", give="G"), PlayCard(2, "W4", "B"), Challenge(0))
    )
    assert resolved.guilty is True and resolved.evidence == ("G1", "G3")


def test_a_mod_may_be_played_by_the_player_after_an_accepted_wild_draw_four():
    giver = ["W4", "G1", "B4", "G2", "R5", "G3", "R6"]
    dealer = ["WM", "R4", "R5", "B7", "B8", "Y9", "Y1"]
    state, _ = play(table(giver, dealer=dealer), PlayCard(1, "W4", "B"), Accept(2))
    assert state.pending == ("turn", 0)
    state, events = play(state, ModPlay(0, "WM", "G", give="R"))
    assert types(events)[:2] == ["card_played", "cards_given"]


def state_events(state, *commands):
    """Every ``ChallengeResolved`` the commands cause, in order."""
    from rules.engine import step

    for command in commands:
        state, events = step(state, command)
        yield from (e for e in events if type(e) is ChallengeResolved)
