"""UNO Spin: Draw Red, Draw Blue, Trade Hands (and the UNO calls it can require), Show Hand."""

import pytest

from rules.commands import CallUno, Catch, DrawCard, PlayCard
from rules.engine import legal_commands, step
from rules.errors import IllegalCommand
from rules.events import CardsDrawn, DiscardReshuffled, TurnBegan, UnoCalled, UnoWindowClosed
from rules.variants.spin.commands import SpinWheel
from rules.variants.spin.events import (
    HandHidden,
    HandShown,
    HandsTraded,
    TradedUnoCalled,
    TradedUnoCaught,
    TradedUnoWindowClosed,
)
from rules.views import event_view, game_view

from .helpers import play
from .positions import arranged
from .spin_helpers import OPENER, at_spin, spun, stop_wheel_on, table, with_hands

SPINNER = ["B1", "G2", "Y5", "B5", "R5~", "W", "GD2"]  # seat 2
DEALER = ["Y1", "Y2", "Y3", "Y4", "Y6", "Y7", "GS"]  # seat 0


# Draw Red and Draw Blue ------------------------------------------------------------------------


def test_draw_red_draws_until_a_red_card_and_the_spinner_keeps_them_all(monkeypatch):
    state, events = spun(
        monkeypatch, "draw_red", hands={2: SPINNER}, draws=["G6", "B6", "R9", "Y9"]
    )
    assert CardsDrawn(2, ("G6", "B6", "R9"), "draw_red") in events
    assert state.hands[2] == tuple(SPINNER) + ("G6", "B6", "R9")


def test_draw_blue_draws_until_a_blue_card(monkeypatch):
    state, events = spun(monkeypatch, "draw_blue", hands={2: SPINNER}, draws=["G6", "R9", "B6"])
    assert CardsDrawn(2, ("G6", "R9", "B6"), "draw_blue") in events


def test_a_wild_card_also_stops_the_drawing(monkeypatch):
    state, events = spun(monkeypatch, "draw_red", hands={2: SPINNER}, draws=["G6", "W4", "R9"])
    assert CardsDrawn(2, ("G6", "W4"), "draw_red") in events


def test_after_drawing_play_moves_on_to_the_player_after_the_spinner(monkeypatch):
    state, events = spun(monkeypatch, "draw_blue", hands={2: SPINNER}, draws=["B6"])
    assert events[-1] == TurnBegan(0)


def spinning(pile, *, rest_to, discard=("R7", "R3~")):
    """The position where seat 2 spins after seat 1's R3~ and the draw pile is exactly ``pile``:
    every other card is in seat ``rest_to``'s hand, or under the ``discard`` pile's cards
    (``"discard"``)."""
    return arranged(
        variant="spin",
        hands={1: OPENER[1:], 2: SPINNER, 0: DEALER},
        discard=list(discard),
        pile=pile,
        pending="spin:2",
        rest_to=rest_to,
    )


def test_when_the_draw_pile_runs_out_the_discard_pile_is_reshuffled_and_drawing_goes_on(
    monkeypatch,
):
    stop_wheel_on(monkeypatch, "draw_red")
    state = spinning(["G6", "B6"], rest_to="discard")
    state, events = step(state, SpinWheel(2))
    assert any(type(e) is DiscardReshuffled for e in events)
    drawn = [card for e in events if type(e) is CardsDrawn for card in e.cards]
    assert drawn[:2] == ["G6", "B6"]
    assert drawn[-1][0] == "R" or drawn[-1] in ("W", "W4")
    assert all(card[0] != "R" and card not in ("W", "W4") for card in drawn[:-1])


def test_with_no_red_card_left_to_draw_the_spinner_draws_what_there_is(monkeypatch):
    stop_wheel_on(monkeypatch, "draw_red")
    # Every card but two is in seat 0's hand; the discard pile is its top card alone.
    state = spinning(["G6", "B6"], rest_to=0, discard=["R3~"])
    state, events = step(state, SpinWheel(2))
    assert [e for e in events if type(e) is CardsDrawn] == [CardsDrawn(2, ("G6", "B6"), "draw_red")]
    assert events[-1] == TurnBegan(0)


# Trade Hands ---------------------------------------------------------------------------------


def test_trade_hands_passes_every_hand_to_the_left(monkeypatch):
    before = at_spin(hands={2: SPINNER, 0: DEALER})
    state, events = spun(monkeypatch, "trade_hands", hands={2: SPINNER, 0: DEALER})
    assert state.hands == (before.hands[2], before.hands[0], before.hands[1])
    assert events[-1] == TurnBegan(0)


def test_hands_pass_to_the_left_even_when_play_runs_to_the_right(monkeypatch):
    stop_wheel_on(monkeypatch, "trade_hands")
    opener = ["RV", "B9", "G9", "Y8", "B8", "G8", "Y9"]
    state = table(opener=opener, hands={0: ["R3~", *DEALER[:6]], 2: SPINNER})
    state, _ = play(state, PlayCard(1, "RV"), PlayCard(0, "R3~"))
    before = state
    state, events = step(state, SpinWheel(2))
    assert state.hands == (before.hands[2], before.hands[0], before.hands[1])
    assert events[-1] == TurnBegan(1)  # play still runs to the right, past the spinner


def test_the_trade_shows_each_seat_only_the_hand_it_receives(monkeypatch):
    state, events = spun(monkeypatch, "trade_hands", hands={2: SPINNER, 0: DEALER})
    traded = next(e for e in events if type(e) is HandsTraded)
    seen = event_view(traded, 0)
    assert seen["hands"] == [list(state.hands[0]), None, None]
    assert seen["counts"] == [len(h) for h in state.hands]


def four_seats_two_with_one_card(monkeypatch):
    """Four seats: seat 2 spins Trade Hands; seats 1 and 3 hold one card each, so seats 2 and
    0 receive one-card hands; seat 3 plays next."""
    stop_wheel_on(monkeypatch, "trade_hands")
    state = at_spin(players=4)
    state = with_hands(state, seat1=("B9",), seat2=("R6", "G6", "G7"), seat3=("Y9",))
    return step(state, SpinWheel(2))


def test_a_player_who_receives_a_one_card_hand_must_call_uno_or_can_be_caught(monkeypatch):
    stop_wheel_on(monkeypatch, "trade_hands")
    state = with_hands(at_spin(hands={2: SPINNER}), seat1=("B9",))
    state, events = step(state, SpinWheel(2))
    assert state.hands[2] == ("B9",) and state.exposed == 2
    assert Catch(0, 2) in legal_commands(state, 0)
    assert CallUno(2) in legal_commands(state, 2)
    state, events = step(state, CallUno(2))
    assert events == [UnoCalled(2)]


def test_several_players_who_receive_one_card_hands_can_each_be_caught(monkeypatch):
    state, events = four_seats_two_with_one_card(monkeypatch)
    traded = next(e for e in events if type(e) is HandsTraded)
    assert traded.uno == (0, 2)  # from the spinner's left
    assert state.hands[0] == ("Y9",) and state.hands[2] == ("B9",)
    assert {Catch(1, 0), Catch(1, 2)} <= set(legal_commands(state, 1))
    state, events = step(state, Catch(1, 2))
    assert events == [TradedUnoCaught(2, 1), CardsDrawn(2, events[1].cards, "uno_penalty")]
    assert len(state.hands[2]) == 3
    state, events = step(state, Catch(3, 0))
    assert len(state.hands[0]) == 3


def test_a_player_who_received_a_one_card_hand_may_still_call_uno_late(monkeypatch):
    state, _ = four_seats_two_with_one_card(monkeypatch)
    state, events = step(state, CallUno(2))
    assert events == [TradedUnoCalled(2)]
    with pytest.raises(IllegalCommand, match="cannot be caught"):
        step(state, Catch(1, 2))


def test_the_catch_window_after_a_trade_closes_when_the_next_player_plays(monkeypatch):
    state, _ = four_seats_two_with_one_card(monkeypatch)
    assert state.pending == ("turn", 3)
    state, events = step(state, PlayCard(3, "R6"))
    assert events[0] == UnoWindowClosed(0)
    assert TradedUnoWindowClosed((2,)) in events
    with pytest.raises(IllegalCommand, match="cannot be caught"):
        step(state, Catch(1, 2))
    assert not [c for c in legal_commands(state, 1) if c.type == "catch"]


def test_drawing_also_ends_the_next_players_wait_for_the_catch(monkeypatch):
    state, _ = four_seats_two_with_one_card(monkeypatch)
    state, _ = step(state, DrawCard(3))
    with pytest.raises(IllegalCommand, match="cannot be caught"):
        step(state, Catch(1, 2))


# Show Hand -----------------------------------------------------------------------------------


def test_show_hand_shows_the_spinners_hand_to_every_seat(monkeypatch):
    state, events = spun(monkeypatch, "show_hand", hands={2: SPINNER})
    assert HandShown(2, tuple(SPINNER), 0) in events
    assert state.shown == frozenset({2})
    assert game_view(state, 0)["seats"][2]["hand"] == SPINNER
    assert game_view(state, 1)["seats"][2]["hand"] == SPINNER


def test_then_play_resumes_with_the_player_after_the_spinner(monkeypatch):
    state, events = spun(monkeypatch, "show_hand", hands={2: SPINNER})
    assert events[-1] == TurnBegan(0)


def test_the_hand_is_private_again_once_the_next_players_turn_ends(monkeypatch):
    state, _ = spun(monkeypatch, "show_hand", hands={2: SPINNER, 0: ["R1", *DEALER[:6]]})
    state, events = step(state, PlayCard(0, "R1"))
    assert events[1] == HandHidden(2)
    assert state.shown == frozenset()
    assert "hand" not in game_view(state, 0)["seats"][2]


def test_cards_drawn_into_a_shown_hand_end_the_showing():
    """Ann's hand (the green 5) was shown; she is caught for UNO before Bob has played: the two
    cards she draws are never shown, so the showing ends at the draw."""
    from rules.position import parse_position

    state = parse_position(
        "spin|players=2|hand=1|dealer=0|pending=turn:1|dir=+|colour=R|discard=R6|pile=*|seed=t|"
        "hands=G5/R3,B4,Y7|exposed=0|shown=0|"
        'extra={"out":null,"war":[],"show":[0,1],"uno":[],"uno_until":null,"spins":1,"kept":[]}'
    )
    assert game_view(state, 1)["seats"][0]["hand"] == ["G5"]

    state, events = step(state, Catch(1, 0))

    assert len(state.hands[0]) == 3 and HandHidden(0) in events
    assert events.index(HandHidden(0)) > next(
        i for i, e in enumerate(events) if isinstance(e, CardsDrawn)
    )
    assert state.shown == frozenset() and state.extra.show is None
    assert "hand" not in game_view(state, 1)["seats"][0]
