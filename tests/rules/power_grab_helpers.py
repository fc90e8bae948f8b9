"""Set up UNO Power Grab tables for the rule tests: hands card by card, towers where wanted.

Three seats and dealer 0 unless a test says otherwise: seat 1 plays first, then seat 2, then
seat 0 (the dealer).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping

from rules.position import format_position, parse_position
from rules.state import GameState
from rules.variants.power_grab.events import TOWERS, PowerGrabState
from tests.rules.helpers import start
from tests.rules.positions import arranged


def table(
    hands: Mapping[int, Iterable[str]],
    *,
    players: int = 3,
    starter: str = "R3",
    draws: Iterable[str] = (),
    towers: Mapping[str, int] | None = None,
    **kwargs: object,
) -> GameState:
    """A Power Grab hand dealt as described; ``towers`` says who already holds which tower
    (as if they had grabbed it earlier in the hand)."""
    state, _ = start(
        "power_grab", players, dealer=0, hands=hands, starter=starter, draws=draws, **kwargs
    )
    return holding(state, towers) if towers else state


def holding(state: GameState, towers: Mapping[str, int | None]) -> GameState:
    """The position of ``state`` (docs/POSITION.md) with the towers named held by the seats
    given: its ``extra`` field says who holds each tower."""
    held = list(state.extra.towers)
    for tower, seat in towers.items():
        held[TOWERS.index(tower)] = seat
    extra = PowerGrabState(tuple(held), state.extra.threat).to_dict()
    fields = [f for f in format_position(state).split("|") if not f.startswith("extra=")]
    return parse_position("|".join([*fields, "extra=" + json.dumps(extra, separators=(",", ":"))]))


def holders(state: GameState) -> dict[str, int | None]:
    """Who holds each tower (``None``: unclaimed)."""
    return dict(zip(TOWERS, state.extra.towers, strict=True))


def event(events: list, cls: type) -> object:
    """The one event of type ``cls`` among ``events``."""
    found = [e for e in events if type(e) is cls]
    assert len(found) == 1, f"expected one {cls.__name__}, got {found}"
    return found[0]


def placed(
    hands: Mapping[int, Iterable[str]],
    *,
    discard: Iterable[str],
    pile: Iterable[str] = (),
    players: int = 3,
    pending: str = "turn:1",
    colour: str | None = None,
    towers: Mapping[str, int] | None = None,
) -> GameState:
    """The position (docs/POSITION.md) with these hands, discard pile (top last) and draw pile
    (top first, the rest of the deck under it); ``towers`` says who holds which tower."""
    held = [(towers or {}).get(tower) for tower in TOWERS]
    extra = {"threat": None, "towers": held}
    return arranged(
        variant="power_grab",
        hands={seat: list(cards) for seat, cards in hands.items()},
        discard=list(discard),
        pile=list(pile),
        players=players,
        rest_to=None,
        pending=pending,
        colour=colour,
        extra="extra=" + json.dumps(extra, separators=(",", ":")),
    )
