"""UNO Power Grab: a Power Tower blocks the action card it protects against (U: Draw One,
N: Draw Two, O: Wild Draw Four, !: Skip), including the last card's draw penalty."""

import pytest

from rules.commands import Accept, Catch, Challenge, PlayCard
from rules.engine import legal_commands, step
from rules.errors import IllegalCommand
from rules.events import CardsDrawn, ChallengeResolved, SeatSkipped, TurnBegan, UnoWindowClosed
from rules.variants import get_variant
from rules.variants.power_grab.commands import Block, Take
from rules.variants.power_grab.events import ActionBlocked, BlockDeclined, BlockOffered
from rules.views import event_view
from tests.rules.helpers import play, types

from .power_grab_helpers import event, holders, placed, table

PG = get_variant("power_grab")

# Seat 1 plays first, on a red 3; seat 2 is next, then seat 0.


def test_the_u_tower_holder_hit_by_a_draw_one_may_block_it_or_take_it():
    state = table({1: ["RD1"]}, towers={"U": 2})
    state, events = play(state, PlayCard(1, "RD1"))
    assert events[1:] == [BlockOffered(2, "U", "RD1", 1, False)]
    assert state.pending == ("block", 2)
    assert legal_commands(state, 2) == [Block(2), Take(2)]


def test_blocking_a_draw_one_draws_nothing_and_the_blocker_takes_their_turn():
    state = table({1: ["RD1"]}, towers={"U": 2})
    state, events = play(state, PlayCard(1, "RD1"), Block(2))
    assert events == [ActionBlocked(2, "U", "RD1"), TurnBegan(2)]
    assert len(state.hands[2]) == 7
    assert state.pending == ("turn", 2)


def test_taking_a_draw_one_draws_one_and_loses_the_turn():
    state = table({1: ["RD1"]}, towers={"U": 2}, draws=["Y9"])
    state, events = play(state, PlayCard(1, "RD1"), Take(2))
    assert events == [
        BlockDeclined(2, "U", "RD1"),
        CardsDrawn(2, ("Y9",), "draw_one"),
        SeatSkipped(2),
        TurnBegan(0),
    ]


def test_the_n_tower_holder_hit_by_a_draw_two_may_block_it():
    state = table({1: ["RD2"]}, towers={"N": 2})
    state, events = play(state, PlayCard(1, "RD2"))
    assert event(events, BlockOffered) == BlockOffered(2, "N", "RD2", 1, False)
    state, events = play(state, Block(2))
    assert len(state.hands[2]) == 7 and state.pending == ("turn", 2)


def test_taking_a_draw_two_draws_two_and_loses_the_turn():
    state = table({1: ["RD2"]}, towers={"N": 2}, draws=["Y9", "Y8"])
    state, events = play(state, PlayCard(1, "RD2"), Take(2))
    assert events[1:] == [CardsDrawn(2, ("Y9", "Y8"), "draw_two"), SeatSkipped(2), TurnBegan(0)]


def test_the_exclamation_tower_holder_may_block_a_skip():
    state = table({1: ["RS"]}, towers={"!": 2})
    state, events = play(state, PlayCard(1, "RS"))
    assert event(events, BlockOffered) == BlockOffered(2, "!", "RS", 1, False)
    state, events = play(state, Block(2))
    assert events == [ActionBlocked(2, "!", "RS"), TurnBegan(2)]


def test_taking_a_skip_loses_the_turn():
    state = table({1: ["RS"]}, towers={"!": 2})
    state, events = play(state, PlayCard(1, "RS"), Take(2))
    assert events == [BlockDeclined(2, "!", "RS"), SeatSkipped(2), TurnBegan(0)]


def test_a_tower_protects_only_against_its_own_action_card():
    state = table({1: ["RD2"]}, towers={"U": 2, "O": 2, "!": 2})
    state, events = play(state, PlayCard(1, "RD2"))
    assert "block_offered" not in types(events)
    assert len(state.hands[2]) == 9 and state.pending == ("turn", 0)


def test_only_the_player_hit_by_the_card_may_block_it():
    # Seat 0 holds the U tower, but the Draw One hits seat 2.
    state = table({1: ["RD1"]}, towers={"U": 0})
    state, events = play(state, PlayCard(1, "RD1"))
    assert "block_offered" not in types(events)
    assert Block(0) not in legal_commands(state, 0)


def test_a_tower_grabbed_away_no_longer_protects():
    # Seat 2 held the N tower; seat 1 grabs it, and later hits seat 2 with a Draw Two.
    state = table({1: ["R2:N", "RD2"], 2: ["R9"], 0: ["R8"]}, towers={"N": 2})
    state, _ = play(state, PlayCard(1, "R2:N"), PlayCard(2, "R9"), PlayCard(0, "R8"))
    assert holders(state)["N"] == 1
    state, events = play(state, PlayCard(1, "RD2"))
    assert "block_offered" not in types(events)
    assert len(state.hands[2]) == 8 and state.pending == ("turn", 0)


def test_the_blocker_keeps_the_tower_and_may_block_again():
    state = table({1: ["RD1", "RD1"], 2: ["R9"], 0: ["R4"]}, towers={"U": 2})
    state, _ = play(state, PlayCard(1, "RD1"), Block(2), PlayCard(2, "R9"), PlayCard(0, "R4"))
    assert holders(state)["U"] == 2
    state, events = play(state, PlayCard(1, "RD1"))
    assert events[1:] == [BlockOffered(2, "U", "RD1", 1, False)]


def test_after_a_block_the_blocker_matches_the_blocked_card_by_colour():
    state = table({1: ["RD1"], 2: ["R9", "B9"]}, towers={"U": 2})
    state, _ = play(state, PlayCard(1, "RD1"), Block(2))
    with pytest.raises(IllegalCommand, match="B9 cannot be played on RD1"):
        step(state, PlayCard(2, "B9"))
    state, _ = play(state, PlayCard(2, "R9"))
    assert state.pending == ("turn", 0)


def test_after_a_block_the_blocker_may_match_the_blocked_card_by_symbol():
    # No stacking: the blocker's own Draw One hits the next player as any Draw One does.
    state = table({1: ["RD1"], 2: ["BD1"]}, towers={"U": 2}, draws=["Y9"])
    state, _ = play(state, PlayCard(1, "RD1"), Block(2))
    state, events = play(state, PlayCard(2, "BD1"))
    assert events[1:] == [CardsDrawn(0, ("Y9",), "draw_one"), SeatSkipped(0), TurnBegan(1)]


def test_a_blocked_draw_two_passes_no_draw_on_to_the_next_player():
    state = table({1: ["RD2"], 2: ["R9"]}, towers={"N": 2})
    state, _ = play(state, PlayCard(1, "RD2"), Block(2), PlayCard(2, "R9"))
    assert len(state.hands[0]) == 7 and state.pending == ("turn", 0)


def test_a_draw_two_played_on_a_blocked_draw_two_makes_the_next_player_draw_two_only():
    state = table({1: ["RD2"], 2: ["GD2"]}, towers={"N": 2})
    state, _ = play(state, PlayCard(1, "RD2"), Block(2), PlayCard(2, "GD2"))
    assert len(state.hands[0]) == 9 and state.pending == ("turn", 1)


def test_a_blocked_skip_can_be_matched_by_another_skip():
    state = table({1: ["RS"], 2: ["GS"]}, towers={"!": 2})
    state, events = play(state, PlayCard(1, "RS"), Block(2), PlayCard(2, "GS"))
    assert events[1:] == [SeatSkipped(0), TurnBegan(1)]


def test_with_two_players_a_reverse_is_not_a_skip_card_and_cannot_be_blocked():
    state = table({1: ["RV"]}, players=2, towers={"!": 0})
    state, events = play(state, PlayCard(1, "RV"))
    assert "block_offered" not in types(events)
    assert state.pending == ("turn", 1)


# Wild Draw 4 and the O tower --------------------------------------------------------------------


def test_the_o_tower_holder_may_block_challenge_or_accept_a_wild_draw_four():
    state = table({1: ["W4"]}, towers={"O": 2})
    state, _ = play(state, PlayCard(1, "W4", "B"))
    assert state.pending == ("challenge", 2)
    assert set(legal_commands(state, 2)) == {Challenge(2), Accept(2), Block(2)}


def test_a_player_without_the_o_tower_may_only_challenge_or_accept():
    state = table({1: ["W4"]}, towers={"O": 0})
    state, _ = play(state, PlayCard(1, "W4", "B"))
    assert legal_commands(state, 2) == [Challenge(2), Accept(2)]
    with pytest.raises(IllegalCommand, match="seat 2 does not hold the O tower"):
        step(state, Block(2))


def test_blocking_a_wild_draw_four_draws_nothing_and_keeps_the_colour_called():
    state = table({1: ["W4"], 2: ["B9", "R9"]}, towers={"O": 2})
    state, events = play(state, PlayCard(1, "W4", "B"), Block(2))
    assert events == [ActionBlocked(2, "O", "W4"), TurnBegan(2)]
    assert len(state.hands[2]) == 7 and state.colour == "B" and state.w4 is None
    with pytest.raises(IllegalCommand, match="R9 cannot be played on W4 with B in play"):
        step(state, PlayCard(2, "R9"))
    state, _ = play(state, PlayCard(2, "B9"))
    assert state.pending == ("turn", 0)


def test_an_o_holder_who_challenges_gives_up_the_block_and_draws_six_if_wrong():
    state = table({1: ["W4", "B5"]}, towers={"O": 2})  # seat 1 holds no red card: innocent
    state, events = play(state, PlayCard(1, "W4", "B"), Challenge(2))
    assert event(events, ChallengeResolved).guilty is False
    assert len(state.hands[2]) == 13 and state.pending == ("turn", 0)
    assert Block(2) not in legal_commands(state, 2)


def test_the_challenged_player_shows_the_o_holder_who_challenges_their_whole_hand():
    state = table({1: ["W4", "B5"]}, towers={"O": 2})
    shown = state.hands[1][1:]  # every card but the Wild Draw 4
    state, events = play(state, PlayCard(1, "W4", "B"), Challenge(2))
    resolved = event(events, ChallengeResolved)
    assert resolved.hand == shown and resolved.evidence == ()
    assert event_view(resolved, 2)["hand"] == list(shown)
    assert event_view(resolved, 1)["hand"] == list(shown)
    assert event_view(resolved, 0)["hand"] is None


def test_a_guilty_wild_draw_four_player_draws_four_even_holding_the_o_tower():
    state = table({1: ["W4", "R5"]}, towers={"O": 1})  # seat 1 played it holding a red card
    state, _ = play(state, PlayCard(1, "W4", "B"))
    assert state.pending == ("challenge", 2)
    state, events = play(state, Challenge(2))
    assert event(events, ChallengeResolved).guilty is True
    assert "block_offered" not in types(events) and len(state.hands[1]) == 10


def test_an_o_holder_who_accepts_draws_four_and_loses_the_turn():
    state = table({1: ["W4"]}, towers={"O": 2})
    state, events = play(state, PlayCard(1, "W4", "B"), Accept(2))
    assert len(state.hands[2]) == 11 and state.pending == ("turn", 0)


def test_take_is_not_an_answer_to_a_wild_draw_four():
    state = table({1: ["W4"]}, towers={"O": 2})
    state, _ = play(state, PlayCard(1, "W4", "B"))
    with pytest.raises(IllegalCommand, match="a Wild Draw 4 is taken by accepting it"):
        step(state, Take(2))


def test_block_and_take_are_refused_when_there_is_nothing_to_block():
    state = table({}, towers={"U": 1})
    with pytest.raises(IllegalCommand, match="seat 1 cannot block now: it is seat 1's turn"):
        step(state, Block(1))
    with pytest.raises(IllegalCommand, match="seat 1 cannot take now"):
        step(state, Take(1))


def test_only_the_seat_offered_the_block_may_answer_it():
    state = table({1: ["RD1"]}, towers={"U": 2})
    state, _ = play(state, PlayCard(1, "RD1"))
    with pytest.raises(IllegalCommand, match="seat 0 cannot block now"):
        step(state, Block(0))
    with pytest.raises(IllegalCommand, match="seat 0 cannot take now"):
        step(state, Take(0))


def test_the_seat_offered_the_block_may_not_play_before_answering():
    state = table({1: ["RD1"], 2: ["R9"]}, towers={"U": 2})
    state, _ = play(state, PlayCard(1, "RD1"))
    with pytest.raises(IllegalCommand, match="seat 2 cannot play now"):
        step(state, PlayCard(2, "R9"))


# The last card ------------------------------------------------------------------------------------

SKIPS = ["RS", "RS", "GS", "GS", "BS", "BS"]  # two seats: seat 0 never gets a turn
SEAT_0 = ["G2", "G3", "G4", "Y2", "Y3", "Y4", "B9"]


def down_to_last_card(last, towers=None, draws=()):
    """Two seats: seat 1, holding only ``last``, plays again after skipping seat 0 six times
    (UNO called); seat 0 holds seven cards and ``towers``; ``draws`` top the draw pile."""
    return placed(
        {0: SEAT_0, 1: [last]},
        discard=["R3", *SKIPS],
        pile=draws,
        players=2,
        towers=towers,
    )


def test_a_last_draw_one_makes_the_next_player_draw_one_and_it_counts():
    state = down_to_last_card("BD1", draws=["Y9"])
    state, events = play(state, PlayCard(1, "BD1"))
    assert CardsDrawn(0, ("Y9",), "last_card") in events
    assert "Y9" in state.hands[0]
    assert state.last_hand.held[0] == sum(PG.points(c) for c in state.hands[0])


def test_the_tower_holder_may_block_the_last_cards_draw_penalty():
    state = down_to_last_card("BD2", towers={"N": 0})
    state, events = play(state, PlayCard(1, "BD2"))
    assert events[1:] == [BlockOffered(0, "N", "BD2", 1, True)]
    assert state.pending == ("block", 0)
    state, events = play(state, Block(0))
    assert types(events)[:2] == ["action_blocked", "hand_ended"]
    assert len(state.hands[0]) == 7


def test_the_tower_holder_who_takes_the_last_cards_draw_penalty_draws_it_and_it_counts():
    state = down_to_last_card("W4", towers={"O": 0}, draws=["Y9", "Y8", "Y7", "Y6"])
    state, events = play(state, PlayCard(1, "W4", "G"))
    assert event(events, BlockOffered) == BlockOffered(0, "O", "W4", 1, True)
    before = state.hands[0]
    state, events = play(state, Take(0))
    assert events[:2] == [
        BlockDeclined(0, "O", "W4"),
        CardsDrawn(0, ("Y9", "Y8", "Y7", "Y6"), "last_card"),
    ]
    assert state.last_hand.held[0] == sum(PG.points(c) for c in before) + 9 + 8 + 7 + 6


def test_a_last_skip_ends_the_hand_with_nothing_to_block():
    state = down_to_last_card("YS", towers={"!": 0})
    state, events = play(state, PlayCard(1, "YS"))
    assert "block_offered" not in types(events) and "hand_ended" in types(events)


def test_a_player_who_forgot_uno_can_be_caught_until_the_blocker_answers():
    state = table({1: SKIPS[:5] + ["BD1", "B7"]}, players=2, towers={"U": 0})
    for card in SKIPS[:5]:
        state, _ = play(state, PlayCard(1, card))
    state, _ = play(state, PlayCard(1, "BD1"))  # one card left, UNO not called
    assert state.pending == ("block", 0) and state.exposed == 1
    assert Catch(0, 1) in legal_commands(state, 0)
    state, events = play(state, Block(0))
    assert events[0] == UnoWindowClosed(1)
