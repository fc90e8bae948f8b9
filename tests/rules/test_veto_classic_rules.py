"""UNO VETO: the rulebook's classic rules hold with the edition's colours and cards."""

from rules.commands import Accept, Catch, Challenge, DrawCard, Pass, PlayCard
from rules.engine import step
from rules.events import CardsDrawn, HandEnded, SeatSkipped, TurnBegan, UnoCaught

from .helpers import play
from .positions import arranged
from .veto_helpers import PLAIN_0, PLAIN_2, table


def only(*cards, rules=3, others=None, extra=""):
    """Seat 1 holds only ``cards`` and plays next on a purple 5; seats 2 and 0 hold their usual
    hands (``others``: other hands for them) and the rest of the deck is the draw pile."""
    hands = {2: PLAIN_2, 0: PLAIN_0, **(others or {}), 1: list(cards)}
    return arranged(
        variant="veto",
        hands=hands,
        discard=["P5"],
        pile=[],
        rest_to=None,
        options={"customizable": rules},
        extra=extra,
    )


def test_a_skip_turned_up_skips_the_player_left_of_the_dealer():
    state = table(starter="GS")
    assert state.pending == ("turn", 2)


def test_a_reverse_turned_up_lets_the_dealer_go_first_and_play_moves_right():
    state = table(starter="YV")
    assert state.pending == ("turn", 0) and state.direction == -1


def test_a_player_without_a_match_draws_and_may_play_the_card_drawn():
    state = table(hands={1: ["G1", "G2", "G3", "Y4", "Y5", "Y6", "O7"]}, starter="P5", draws=["P9"])
    state, _ = step(state, DrawCard(1))
    assert state.pending == ("drawn", 1)
    state, events = step(state, PlayCard(1, "P9"))
    assert state.top == "P9" and events[-1] == TurnBegan(2)


def test_a_card_drawn_and_kept_ends_the_turn():
    state = table(draws=["P9"])
    state, events = play(state, DrawCard(1), Pass(1))
    assert events[-1] == TurnBegan(2)


def test_a_draw_two_makes_the_next_player_draw_two_and_miss_their_turn():
    state = table(hands={1: ["PD2", "P1", "P2", "O2", "G9", "Y8", "O3"]})
    state, events = step(state, PlayCard(1, "PD2"))
    assert SeatSkipped(2) in events and len(state.hands[2]) == 9 and state.pending == ("turn", 0)


def test_a_wild_draw_four_bluff_challenged_makes_the_offender_draw_four():
    state = table(hands={1: ["W4", "P1", "P2", "O2", "G9", "Y8", "O3"]})
    state, events = play(state, PlayCard(1, "W4", "G"), Challenge(2))
    assert len(state.hands[1]) == 6 + 4 and state.pending == ("turn", 2)


def test_a_wild_draw_four_accepted_draws_four_and_loses_the_turn():
    state = table(hands={1: ["W4", "P1", "P2", "O2", "G9", "Y8", "O3"]})
    state, _ = play(state, PlayCard(1, "W4", "G"), Accept(2))
    assert len(state.hands[2]) == 11 and state.pending == ("turn", 0)


def test_a_player_who_does_not_call_uno_is_caught_for_two_cards():
    state = only("P1", "P2")
    state, _ = step(state, PlayCard(1, "P1"))
    state, events = step(state, Catch(0, 1))
    assert type(events[0]) is UnoCaught and len(state.hands[1]) == 3


def test_the_winner_scores_the_cards_left_in_the_others_hands_customizable_cards_40():
    state = only("P1", rules=["blank"], others={2: ["WC", "G1", "G2", "GS", "G4", "G5", "G6"]})
    state, events = step(state, PlayCard(1, "P1"))
    ended = next(e for e in events if type(e) is HandEnded)
    assert ended.held[2] == 40 + 1 + 2 + 20 + 4 + 5 + 6
    assert ended.gained[1] == ended.held[0] + ended.held[2]


def test_a_last_draw_two_makes_the_next_player_draw_and_counts_in_the_score():
    state = only("PD2")
    state, events = step(state, PlayCard(1, "PD2"))
    assert CardsDrawn(2, events[1].cards, "last_card") in events
    ended = next(e for e in events if type(e) is HandEnded)
    assert len(state.hands[2]) == 9 and ended.held[2] == sum(
        int(c[1]) for c in state.hands[2] if c[1].isdigit()
    )


def test_the_game_ends_when_the_winner_reaches_the_target():
    state = only("P1", others={2: ["PS", "GS", "OS", "YS", "PV", "GV", "OV"]}, extra="target=100")
    state, _ = step(state, PlayCard(1, "P1"))
    assert state.finished and state.winner == 1
