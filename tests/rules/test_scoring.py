"""Going out, the last card's penalty, scoring modes, the target, placings and reshuffles."""

import pytest

from rules.chance import Fixed
from rules.commands import DealHand, DrawCard, PlayCard
from rules.engine import game_result, new_game, step
from rules.events import CardsDrawn, DiscardReshuffled, GameEnded, HandEnded
from rules.state import GameState

from .positions import arranged


def last_card(card: str, *, scoring="standard", target=500, draws=(), scores=None) -> GameState:
    """Seat 1 holds only ``card`` and plays next on a red 9; seats 0 and 2 hold seven cards each
    and the draw pile starts with ``draws``."""
    fields = [f"scoring={scoring}", f"target={target}"]
    if scores is not None:
        fields.append("scores=" + ",".join(str(n) for n in scores))
    return arranged(
        hands={
            0: ["R1", "R2", "B3", "G4", "Y5", "W", "W4"],
            1: [card],
            2: ["GS", "YV", "BD2", "R7", "R8", "G9", "Y0"],
        },
        discard=["R9"],
        pile=list(draws),
        rest_to=None,
        extra="|".join(fields),
    )


def test_the_player_who_goes_out_scores_the_cards_left_in_opponents_hands():
    state = last_card("R3")
    state, events = step(state, PlayCard(1, "R3"))
    ended = next(e for e in events if isinstance(e, HandEnded))
    # seat 0: 1+2+3+4+5+50+50 = 115; seat 2: 20+20+20+7+8+9+0 = 84
    assert ended.held == (115, 0, 84)
    assert ended.gained == (0, 199, 0)
    assert state.scores == (0, 199, 0)


def test_a_draw_two_as_the_last_card_makes_the_next_player_draw_and_the_cards_count():
    state = last_card("RD2", draws=["B8", "B9"])
    state, events = step(state, PlayCard(1, "RD2"))
    assert CardsDrawn(2, ("B8", "B9"), "last_card") in events
    ended = next(e for e in events if isinstance(e, HandEnded))
    assert ended.held[2] == 84 + 8 + 9


def test_a_wild_draw_four_as_the_last_card_makes_the_next_player_draw_four_with_no_challenge():
    state = last_card("W4", draws=["B1", "B2", "B3", "B4"])
    state, events = step(state, PlayCard(1, "W4", colour="G"))
    assert CardsDrawn(2, ("B1", "B2", "B3", "B4"), "last_card") in events
    assert [e.type for e in events][-2:] == ["hand_ended", "choice_offered"]


def test_in_alternative_scoring_each_player_adds_the_points_left_in_their_own_hand():
    state = last_card("R3", scoring="alternative")
    state, events = step(state, PlayCard(1, "R3"))
    assert state.scores == (115, 0, 84)


def test_without_scoring_the_first_player_out_wins_the_game_at_once():
    state = last_card("R3", scoring="none")
    state, events = step(state, PlayCard(1, "R3"))
    assert events[-1] == GameEnded(1, (1, 2, 0), (3, 1, 2), (0, 0, 0))  # ranks by seat
    assert state.finished and state.winner == 1


def test_reaching_the_target_in_standard_scoring_ends_the_game_with_placings():
    state = last_card("R3", target=250, scores=[100, 60, 240])
    state, events = step(state, PlayCard(1, "R3"))
    assert state.scores == (100, 259, 240)
    assert events[-1] == GameEnded(1, (1, 2, 0), (3, 1, 2), (100, 259, 240))


def test_short_of_the_target_the_next_dealer_deals_a_new_hand():
    state = last_card("R3")
    state, _ = step(state, PlayCard(1, "R3"))
    assert state.pending == ("deal", 1)
    state, events = step(state, DealHand(1))
    assert events[0].type == "hand_dealt" and state.hand_number == 2
    assert state.scores == (0, 199, 0)  # scores carry over


def test_in_alternative_scoring_the_lowest_total_wins_when_anyone_reaches_the_target():
    state = last_card("R3", scoring="alternative", scores=[400, 300, 100])
    state, events = step(state, PlayCard(1, "R3"))
    assert state.scores == (515, 300, 184)
    assert events[-1] == GameEnded(2, (2, 1, 0), (3, 2, 1), (515, 300, 184))


def test_in_alternative_scoring_a_tie_for_the_lowest_total_plays_another_hand():
    state = last_card("R3", scoring="alternative", scores=[400, 184, 100])
    state, events = step(state, PlayCard(1, "R3"))
    assert state.scores == (515, 184, 184)
    assert not state.finished and state.pending[0] == "deal"


def test_equal_totals_share_a_rank_and_the_placing_order_follows_the_table_from_the_winner():
    placings, ranks = game_result("standard", 100, 2, (0, 0, 0, 0), (50, 50, 120, 10))
    # Seats 0 and 1 tie on 50: clockwise from the winner (seat 2) seat 0 comes before seat 1.
    assert placings == (2, 0, 1, 3)
    assert ranks == (2, 2, 1, 4)


def test_without_scoring_the_others_are_placed_by_the_points_they_hold():
    placings, ranks = game_result("none", 500, 1, (30, 0, 12, 30), (0, 0, 0, 0))
    assert placings == (1, 2, 3, 0)
    assert ranks == (3, 1, 2, 3)


# Reshuffling ----------------------------------------------------------------------------------


def test_when_the_draw_pile_runs_out_the_discard_pile_but_its_top_card_is_reshuffled():
    # One card left to draw; seat 0 holds the rest of the deck.
    state = arranged(
        hands={1: ["Y1"], 2: ["Y2"]}, discard=["B2", "B3", "R9"], pile=["G1"], pending="turn:1"
    )
    state, events = step(state, DrawCard(1))  # takes G1, which does not match: turn passes
    assert not any(isinstance(e, DiscardReshuffled) for e in events)
    state, events = step(state, DrawCard(2))
    reshuffle = next(e for e in events if isinstance(e, DiscardReshuffled))
    assert sorted(reshuffle.order) == ["B2", "B3"]
    assert state.discard == ("R9",)
    assert events[1].cards[0] == reshuffle.order[0]


def test_a_fixed_reshuffle_decides_the_card_drawn():
    state = arranged(hands={1: ["Y1"], 2: ["Y2"]}, discard=["B2", "B3", "R9"], pile=[])

    state, events = step(state, DrawCard(1), chance=Fixed(shuffles=[["B3", "B2"]]))

    assert events[0] == DiscardReshuffled(("B3", "B2"))
    assert events[1] == CardsDrawn(1, ("B3",), "turn")


def test_with_both_piles_empty_a_player_who_must_draw_draws_nothing_and_the_turn_passes():
    state = arranged(hands={1: ["Y1"], 2: ["Y2"]}, discard=["R9"], pile=[])
    state, events = step(state, DrawCard(1))
    assert [e.type for e in events] == ["cards_drawn", "passed", "turn_began"]
    assert events[0] == CardsDrawn(1, (), "turn")


def test_a_game_replays_to_the_same_state_from_the_same_seed():
    a = new_game(players=5, seed="same")
    b = new_game(players=5, seed="same")
    c = new_game(players=5, seed="other")
    assert a == b
    assert a[1] != c[1]


@pytest.mark.parametrize("scoring", ["banana", ""])
def test_an_unknown_scoring_mode_is_refused(scoring):
    from rules.errors import InvalidCommand

    with pytest.raises(InvalidCommand, match="unknown scoring"):
        new_game(scoring=scoring)


def test_a_target_must_be_a_positive_whole_number():
    from rules.errors import InvalidCommand

    with pytest.raises(InvalidCommand, match="positive whole number"):
        new_game(target=0)
