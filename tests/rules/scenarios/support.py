"""Small helpers for the rulebook scenarios: each scenario starts from one position line
(docs/POSITION.md), sends commands and checks what the book says happens.

Each scenario's docstring quotes the rulebook sentence it checks on lines starting with ``> ``;
``check_quotes`` holds every such quote to the book's own words."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable
from types import ModuleType
from typing import Any

import pytest

from rules import legal_commands, start_from, step
from rules.chance import Fixed
from rules.commands import Command, DealHand
from rules.errors import RuleError
from rules.events import Event
from rules.state import GameState
from rules.variants import get_variant
from tests.beside import SHARED, need
from tests.rules.helpers import arranged_deck

BOOKS = SHARED / "rulebooks"


def position(
    variant: str,
    *,
    hands: Iterable[Iterable[str]],
    discard: Iterable[str],
    pile: Iterable[str] = (),
    pending: str = "turn:1",
    colour: str | None = None,
    direction: str = "+",
    dealer: int = 0,
    options: dict[str, Any] | None = None,
    rest: int | None = None,
    extra: str = "",
    more: str = "",
) -> str:
    """The one-line position with these hands (seat 0 first), discard pile (top last) and draw
    pile (top first). Every other card of the edition's deck goes to the bottom of the draw
    pile, or into seat ``rest``'s hand when it is given. ``more``: further fields, as written."""
    hands = [list(cards) for cards in hands]
    discard = list(discard)
    pile = list(pile)
    edition = get_variant(variant)
    left = Counter(edition.deck_for(edition.parse_options(dict(options or {}))))
    left.subtract([c for cards in hands for c in cards] + discard + pile)
    assert all(n >= 0 for n in left.values()), f"more copies than the deck has: {-left}"
    others = sorted(left.elements())
    if rest is None:
        pile += others
    else:
        hands[rest] += others
    fields = [
        variant,
        f"players={len(hands)}",
        *([f"options={json.dumps(options, separators=(',', ':'))}"] if options else []),
        "seed=book",
        "hand=1",
        f"dealer={dealer}",
        f"pending={pending}",
        f"dir={direction}",
        f"colour={colour or discard[-1][0]}",
        "discard=" + ",".join(discard),
        "pile=" + ",".join(pile),
        "hands=" + "/".join(",".join(cards) for cards in hands),
        *([more] if more else []),
        *([extra] if extra else []),
    ]
    return "|".join(fields)


def at(text: str) -> GameState:
    """The game started from the position ``text``."""
    state, _ = start_from(text)
    return state


def send(
    state: GameState, *commands: Command, chance: Fixed | None = None
) -> tuple[GameState, list[Event]]:
    """Apply the commands in order; the state after them and every event they caused."""
    events: list[Event] = []
    for command in commands:
        state, new = step(state, command, chance=chance)
        events += new
    return state, events


def refused(state: GameState, command: Command) -> str:
    """The message of the error the engine refuses ``command`` with."""
    with pytest.raises(RuleError) as caught:
        step(state, command)
    return str(caught.value)


def kinds(events: Iterable[Event]) -> list[str]:
    return [e.type for e in events]


def first(events: Iterable[Event], kind: str) -> Any:
    """The first event of type ``kind``."""
    return next(e for e in events if e.type == kind)


def offers(state: GameState, seat: int) -> list[Command]:
    return legal_commands(state, seat)


def deal(
    variant: str,
    players: int = 3,
    *,
    dealer: int = 0,
    starter: str,
    hands: dict[int, list[str]] | None = None,
    draws: Iterable[str] = (),
    options: dict[str, Any] | None = None,
) -> tuple[GameState, list[Event]]:
    """A new hand dealt by ``dealer`` from the position just before the deal (the previous hand
    over, the deal waiting for ``dealer``), the shuffle fixed so that ``starter`` is turned up."""
    text = "|".join(
        [
            variant,
            f"players={players}",
            *([f"options={json.dumps(options, separators=(',', ':'))}"] if options else []),
            "seed=book",
            "hand=1",
            f"dealer={(dealer - 1) % players}",
            f"pending=deal:{dealer}",
            "dir=+",
            "colour=-",
            "discard=",
            "pile=*",
            "hands=" + "/" * (players - 1),
        ]
    )
    order = arranged_deck(
        variant, players, dealer=dealer, hands=hands, starter=starter, draws=draws, options=options
    )
    return send(at(text), DealHand(dealer), chance=Fixed(shuffles=[order]))


def _words(text: str) -> str:
    text = text.replace("“", '"').replace("”", '"').replace("’", "'").replace("–", "-")
    text = text.replace("—", "-").replace("**", "")
    return re.sub(r"\s+", " ", text).strip()


def quotes(doc: str) -> list[str]:
    """The rulebook quotes of a docstring: runs of lines starting with ``> ``, one quote per
    run; ``…`` separates parts quoted from one passage."""
    out: list[str] = []
    run: list[str] = []
    for line in [*doc.splitlines(), ""]:
        line = line.strip()
        if line.startswith(">"):
            run.append(line[1:].strip())
        elif run:
            out.append(" ".join(run))
            run = []
    return out


def check_quotes(module: ModuleType, book: str) -> None:
    """Every scenario of ``module`` quotes ``book`` (a file in the rulebooks), word for word.
    The rulebooks are the publisher's, not the project's: without them beside it the check is
    skipped, saying so (``tests.beside``)."""
    path = BOOKS / book
    need(path, f"the rulebook {book}")
    text = _words(path.read_text())
    tests = [getattr(module, n) for n in dir(module) if n.startswith("test_")]
    assert tests
    for test in tests:
        if test.__name__ == "test_every_scenario_quotes_the_book_word_for_word":
            continue
        found = quotes(test.__doc__ or "")
        assert found, f"{test.__name__} quotes no sentence of the book"
        for quote in found:
            for part in quote.split("…"):
                assert _words(part) in text, f"{test.__name__}: not in {book}: {part!r}"
