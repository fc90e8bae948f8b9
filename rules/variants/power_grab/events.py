"""UNO Power Grab's edition state (who holds each Power Tower) and its events, with how each
event changes the state. The rules that emit them are in ``rules.variants.power_grab.variant``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from rules.engine import applies
from rules.events import Event, register_event
from rules.pending import Pending
from rules.values import maker

if TYPE_CHECKING:
    from rules.state import GameState

# The towers in a fixed order (the order of ``PowerGrabState.towers`` and of tower lists).
TOWERS = ("U", "N", "O", "!")
TOWER_INDEX = {tower: i for i, tower in enumerate(TOWERS)}

# ---------------------------------------------------------------------------------------------
# Edition state


@dataclass(frozen=True, slots=True)
class PowerGrabState:
    """``towers``: the seat holding U, N, O and ! (``None``: unclaimed, by the Play Tray).
    ``threat``: while a seat decides whether to block, the action card, the seat that played
    it and whether it was that seat's last card."""

    towers: tuple[int | None, ...] = (None, None, None, None)
    threat: tuple[str, int, bool] | None = None

    def holder(self, tower: str) -> int | None:
        return self.towers[TOWER_INDEX[tower]]

    def held_by(self, seat: int) -> tuple[str, ...]:
        return tuple(t for t, h in zip(TOWERS, self.towers, strict=True) if h == seat)

    def to_dict(self) -> dict[str, Any]:
        return {
            "towers": list(self.towers),
            "threat": None if self.threat is None else list(self.threat),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PowerGrabState:
        threat = data.get("threat")
        return cls(
            tuple(data["towers"]), None if threat is None else (threat[0], threat[1], threat[2])
        )

    def public(self) -> dict[str, Any]:
        """What every seat sees: who holds each tower, and the card a seat may block."""
        out: dict[str, Any] = {"towers": dict(zip(TOWERS, self.towers, strict=True))}
        if self.threat is not None:
            card, attacker, last = self.threat
            out["threat"] = {"card": card, "by": attacker, "last_card": last}
        return out


UNCLAIMED = PowerGrabState()


# ---------------------------------------------------------------------------------------------
# Events


@register_event
@dataclass(frozen=True, slots=True)
class TowersGrabbed(Event):
    """``seat`` played ``card`` and grabbed ``towers``; ``previous``: who held each of them
    before (``None``: unclaimed)."""

    type: ClassVar[str] = "towers_grabbed"
    seat: int
    card: str
    towers: tuple[str, ...]
    previous: tuple[int | None, ...]


@register_event
@dataclass(frozen=True, slots=True)
class BlockOffered(Event):
    """``card``, played by ``attacker``, hits ``seat``, who holds ``tower`` and may block it.
    ``last``: it was the attacker's last card (its draw penalty is what may be blocked)."""

    type: ClassVar[str] = "block_offered"
    seat: int
    tower: str
    card: str
    attacker: int
    last: bool


@register_event
@dataclass(frozen=True, slots=True)
class ActionBlocked(Event):
    """``seat`` blocked ``card`` with ``tower``: no draw, no lost turn."""

    type: ClassVar[str] = "action_blocked"
    seat: int
    tower: str
    card: str


@register_event
@dataclass(frozen=True, slots=True)
class BlockDeclined(Event):
    """``seat`` could have blocked ``card`` with ``tower`` and took it instead."""

    type: ClassVar[str] = "block_declined"
    seat: int
    tower: str
    card: str


@register_event
@dataclass(frozen=True, slots=True)
class InstantUnoClaimed(Event):
    """``seat`` holds all four towers: it keeps ``kept`` and discards ``discarded`` (face up,
    under the top card of the discard pile). ``uno``: the player called UNO."""

    type: ClassVar[str] = "instant_uno_claimed"
    seat: int
    kept: str
    discarded: tuple[str, ...]
    uno: bool

    def redacted(self, viewer: int | None) -> dict[str, Any]:
        out = self.to_dict()
        if viewer != self.seat:
            out["kept"] = None  # the card kept stays in the hand, hidden
        return out


@register_event
@dataclass(frozen=True, slots=True)
class TowersReturned(Event):
    """All four towers go back to the unclaimed spot (after ``seat``'s Instant UNO)."""

    type: ClassVar[str] = "towers_returned"
    seat: int


# The edition's commonest values, made the quick way (``rules.values.maker``): a Power Icon
# grabs a tower on about one play in four.
towers_grabbed = maker(TowersGrabbed)
_state = maker(PowerGrabState)


@applies(TowersGrabbed)
def _towers_grabbed(s: GameState, e: TowersGrabbed) -> None:
    x: PowerGrabState = s.extra
    towers = list(x.towers)
    for tower in e.towers:
        towers[TOWER_INDEX[tower]] = e.seat
    s.extra = _state(tuple(towers), x.threat)


@applies(BlockOffered)
def _block_offered(s: GameState, e: BlockOffered) -> None:
    s.pending = (Pending.BLOCK, e.seat)
    s.drawn = None
    s.extra = _state(s.extra.towers, (e.card, e.attacker, e.last))


@applies(ActionBlocked)
def _action_blocked(s: GameState, e: ActionBlocked) -> None:
    s.extra = _state(s.extra.towers, None)
    s.w4 = None


@applies(BlockDeclined)
def _block_declined(s: GameState, e: BlockDeclined) -> None:
    s.extra = _state(s.extra.towers, None)


@applies(InstantUnoClaimed)
def _instant_uno_claimed(s: GameState, e: InstantUnoClaimed) -> None:
    seat = e.seat
    s.hands = s.hands[:seat] + ((e.kept,),) + s.hands[seat + 1 :]
    s.discard = s.discard[:-1] + e.discarded + s.discard[-1:]
    if not e.uno:
        s.exposed = seat
    elif s.exposed == seat:
        s.exposed = None


@applies(TowersReturned)
def _towers_returned(s: GameState, e: TowersReturned) -> None:
    s.extra = _state((None, None, None, None), s.extra.threat)
