"""Fixed chance for tests: the next shuffles' orders and wheel segments, given in advance.

The engine draws chance from generators seeded by the game (``rules.engine.rng``). A test that
needs a particular reshuffle or spin passes ``chance=Fixed(...)`` to ``step`` or ``decide``;
nothing else changes, and the outcome is recorded in the event as always, so replay is the same.
Production code never passes ``chance``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence


class Fixed:
    """The outcomes of the next chance decisions, each used once, in order: ``shuffles`` (card
    orders, top first: a deal of the next hand or a reshuffle of the discard pile) and
    ``wheel`` (UNO Spin segments). Once they run out, chance comes from the seed again."""

    def __init__(
        self, *, shuffles: Iterable[Sequence[str]] = (), wheel: Iterable[str] = ()
    ) -> None:
        self.shuffles = [tuple(order) for order in shuffles]
        self.segments = list(wheel)

    def shuffle(self, cards: Sequence[str]) -> tuple[str, ...] | None:
        """The next fixed order of ``cards`` (it must hold exactly those cards), or None."""
        if not self.shuffles:
            return None
        order = self.shuffles.pop(0)
        if Counter(order) != Counter(cards):
            raise ValueError(
                f"a fixed shuffle must order the {len(cards)} cards being shuffled, "
                f"not {len(order)} others"
            )
        return order

    def wheel(self) -> str | None:
        """The next fixed wheel segment, or None."""
        return self.segments.pop(0) if self.segments else None
