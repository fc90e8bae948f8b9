"""UNO Mod's event (the cards a Mod gave away) and how it changes the state. The rules that
emit it are in ``rules.variants.mod.variant``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from rules.engine import applies
from rules.events import Event, register_event

if TYPE_CHECKING:
    from rules.state import GameState


@register_event
@dataclass(frozen=True, slots=True)
class CardsGiven(Event):
    """``seat`` played a Mod and gave away every card of ``colour`` it held: ``gifts`` are
    (receiving seat, card) in the order given. ``uno``: the player called UNO with the play
    (it matters when the giving leaves one card)."""

    type: ClassVar[str] = "cards_given"
    seat: int
    colour: str
    gifts: tuple[tuple[int, str], ...]
    uno: bool

    def redacted(self, viewer: int | None) -> dict[str, Any]:
        # The colour and who got how many are seen by all; each card only by the giver and
        # the seat that received it.
        out = self.to_dict()
        if viewer != self.seat:
            out["gifts"] = [[to, card if to == viewer else None] for to, card in self.gifts]
        counts: dict[int, int] = {}
        for to, _ in self.gifts:
            counts[to] = counts.get(to, 0) + 1
        out["counts"] = [[to, n] for to, n in counts.items()]
        return out


@applies(CardsGiven)
def _cards_given(s: GameState, e: CardsGiven) -> None:
    hands = list(s.hands)
    giver = list(hands[e.seat])
    for to, card in e.gifts:
        giver.remove(card)
        hands[to] = hands[to] + (card,)
        if s.exposed == to:  # a player holding more than one card cannot be caught
            s.exposed = None
    hands[e.seat] = tuple(giver)
    s.hands = tuple(hands)
    if len(giver) == 1 and not e.uno:
        s.exposed = e.seat
    elif s.exposed == e.seat:
        s.exposed = None
