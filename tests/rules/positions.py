"""Positions for rule tests (docs/POSITION.md): a test states the position it starts from,
every card accounted for, instead of editing a GameState."""

from __future__ import annotations

import json
from collections import Counter

from rules.position import parse_position
from rules.state import GameState
from rules.variants import get_variant


def arranged(
    *,
    variant: str = "classic",
    hands: dict[int, list[str]],
    discard: list[str],
    pile: list[str],
    players: int = 3,
    rest_to: int | str | None = 0,
    pending: str = "turn:1",
    colour: str | None = None,
    extra: str = "",
    seed: str = "test",
    options: dict | None = None,
) -> GameState:
    """The position with these hands, discard pile (top last) and draw pile (top first); every
    other card of the deck is in seat ``rest_to``'s hand, at the bottom of the draw pile when
    ``rest_to`` is None, or at the bottom of the discard pile when it is ``"discard"``.
    ``options``: the game's, where they change the deck. ``extra``: further fields, as written
    (``scores=...|extra=...``)."""
    edition = get_variant(variant)
    rest = Counter(edition.deck_for(edition.parse_options(dict(options or {}))))
    rest.subtract([c for hand in hands.values() for c in hand] + discard + pile)
    assert all(n >= 0 for n in rest.values()), "more copies than the deck has"
    seats = {seat: list(cards) for seat, cards in hands.items()}
    if rest_to is None:
        pile = list(pile) + sorted(rest.elements())
    elif rest_to == "discard":
        discard = sorted(rest.elements()) + list(discard)
    else:
        seats.setdefault(rest_to, [])
        seats[rest_to] = seats[rest_to] + sorted(rest.elements())
    text = "|".join(
        [
            variant,
            f"players={players}",
            *([f"options={json.dumps(options)}"] if options else []),
            f"seed={seed}",
            "hand=1",
            "dealer=0",
            f"pending={pending}",
            "dir=+",
            f"colour={colour or discard[-1][0]}",
            "discard=" + ",".join(discard),
            "pile=" + ",".join(pile),
            "hands=" + "/".join(",".join(seats.get(seat, [])) for seat in range(players)),
            *([extra] if extra else []),
        ]
    )
    return parse_position(text)
