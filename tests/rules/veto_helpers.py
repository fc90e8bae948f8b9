"""Set up UNO VETO hands card by card for the VETO rule tests."""

from __future__ import annotations

import json

from rules.state import GameState

from .helpers import start
from .positions import arranged

# Three seats, dealer 0: seat 1 plays first, then seat 2, then seat 0.
PLAIN_1 = ["P1", "P2", "O2", "G9", "Y8", "O3", "OV"]  # seat 1: purple to play on a P5
PLAIN_2 = ["G1", "G2", "G3", "G4", "G5", "G6", "G7"]  # seat 2: nothing purple or orange
PLAIN_0 = ["Y1", "Y2", "Y3", "Y4", "Y5", "Y6", "Y7"]  # seat 0 (the dealer)


def table(
    rules: list | int = 3,
    *,
    hands: dict[int, list[str]] | None = None,
    starter: str = "P5",
    draws: tuple[str, ...] | list[str] = (),
    players: int = 3,
    dealer: int = 0,
) -> GameState:
    """A VETO hand dealt as described, with ``rules`` as the ``customizable`` option."""
    hands = dict(hands or {})
    if players == 3:
        hands.setdefault(1, PLAIN_1)
        hands.setdefault(2, PLAIN_2)
        hands.setdefault(0, PLAIN_0)
    state, _ = start(
        "veto",
        players,
        dealer=dealer,
        hands=hands,
        starter=starter,
        draws=draws,
        options={"customizable": rules},
    )
    return state


def seated(
    rules: list | int = 3,
    *,
    hands: dict[int, list[str]] | None = None,
    discard: tuple[str, ...] | list[str] = ("P5",),
    pile: tuple[str, ...] | list[str] = (),
    held: dict[int, list[str]] | None = None,
    rest_to: int | None = None,
) -> GameState:
    """The position (docs/POSITION.md) where seat 1 plays first at three seats, dealer 0: the
    hands given (seat 1 ``PLAIN_1``, seat 2 ``PLAIN_2``, seat 0 ``PLAIN_0`` unless named), the
    discard pile (top last) and the draw pile (top first) with the rest of the deck under it,
    or in seat ``rest_to``'s hand. ``held``: the house rule on each seat's Customizable cards,
    for a deck whose cards carry different rules (the rules left over lie in the draw pile)."""
    seats = {1: PLAIN_1, 2: PLAIN_2, 0: PLAIN_0, **(hands or {})}
    extra = ""
    if held is not None:
        state = {
            "rules": list(rules) if isinstance(rules, list) else ["blank"] * rules,
            "tracked": True,
            "veto": None,
            "held": [list(held.get(seat, [])) for seat in range(3)],
            "discard_rules": [],
            "synced": 0,
            "drawn_rule": None,
            "showing": [],
            "stuck": [],
            "player": None,
            "queue": [],
        }
        extra = "extra=" + json.dumps(state, separators=(",", ":"))
    return arranged(
        variant="veto",
        hands=seats,
        discard=list(discard),
        pile=list(pile),
        rest_to=rest_to,
        options={"customizable": rules},
        extra=extra,
    )
