"""UNO Spin tables for rule tests: a hand dealt card by card and the wheel stopped where a test
needs it.

Three seats, dealer 0, a red 7 turned up: seat 1 plays first and opens with the red 3 Spin card,
so seat 2 must spin; seat 0 plays after seat 2.
"""

from __future__ import annotations

from rules.commands import PlayCard
from rules.engine import step
from rules.position import format_position, parse_position
from rules.state import GameState
from rules.variants.spin import variant as spin
from rules.variants.spin.commands import SpinWheel

from .helpers import play, start

OPENER = ["R3~", "B9", "G9", "Y8", "B8", "G8", "Y9"]  # seat 1: plays R3~ first


def stop_wheel_on(monkeypatch, segment: str) -> None:
    """Make the next spins stop on ``segment``."""
    assert segment in spin.WHEEL
    monkeypatch.setattr(spin, "spin_wheel", lambda s: segment)


def table(*, players=3, hands=None, starter="R7", draws=(), opener=OPENER, **kwargs) -> GameState:
    hands = dict(hands or {})
    hands.setdefault(1, opener)
    state, _ = start("spin", players, dealer=0, hands=hands, starter=starter, draws=draws, **kwargs)
    return state


def at_spin(**kwargs) -> GameState:
    """Seat 1 has played its Spin card: seat 2 must spin."""
    state, _ = play(table(**kwargs), spin_play())
    assert state.pending == ("spin", 2)
    return state


def spin_play() -> PlayCard:
    return PlayCard(1, "R3~")


def spun(monkeypatch, segment: str, **kwargs):
    """Seat 2 spins and the wheel stops on ``segment``: the state and the spin's events."""
    stop_wheel_on(monkeypatch, segment)
    return step(at_spin(**kwargs), SpinWheel(2))


def with_hands(state: GameState, **hands) -> GameState:
    """The position of ``state`` (docs/POSITION.md) with some hands replaced (``seat1=(...)``):
    the cards move between the hand and the draw pile, so no card is created or lost."""
    all_hands = list(state.hands)
    pile = list(state.pile[state.pos :])
    for key, cards in hands.items():
        seat = int(key.removeprefix("seat"))
        pile.extend(all_hands[seat])
        for card in cards:
            pile.remove(card)
        all_hands[seat] = tuple(cards)
    variant, *rest = format_position(state).split("|")
    fields = dict(field.split("=", 1) for field in rest)
    fields["hands"] = "/".join(",".join(cards) for cards in all_hands)
    fields["pile"] = ",".join(pile)
    return parse_position("|".join([variant, *(f"{k}={v}" for k, v in fields.items())]))
