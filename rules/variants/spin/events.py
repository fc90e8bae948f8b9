"""UNO Spin's state and events, and how each event applies (``rules.variants.spin.variant``
plays the edition; its commands are in ``rules.variants.spin.commands``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from rules.engine import applies
from rules.events import Event, register_event
from rules.pending import Pending
from rules.values import slot_setters
from rules.variants.classic.variant import COLOUR

if TYPE_CHECKING:
    from rules.state import GameState


# The edition's state -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SpinState:
    """What UNO Spin keeps beyond the core state (a value; replaced, never changed).

    ``out``: the seat that went out with a Spin card (the hand ends once the wheel is
    resolved). ``war``: the numbers the winner of a War discards. ``show``: (the seat whose
    hand is shown, the next player, whose turn ends the showing). ``uno``: seats that received
    a one-card hand in a trade and may be caught, besides ``GameState.exposed``, while it is
    ``uno_until``'s turn and that player has not acted. ``spins``: the wheel's spins so far
    in the hand (which draw of the wheel's chance comes next). ``kept``: the two cards an
    Almost UNO spinner keeps, while they choose which of the others lands on top.
    """

    out: int | None = None
    war: tuple[int, ...] = ()
    show: tuple[int, int] | None = None
    uno: tuple[int, ...] = ()
    uno_until: int | None = None
    spins: int = 0
    kept: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "out": self.out,
            "war": list(self.war),
            "show": None if self.show is None else list(self.show),
            "uno": list(self.uno),
            "uno_until": self.uno_until,
            "spins": self.spins,
            "kept": list(self.kept),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SpinState:
        show = data.get("show")
        return cls(
            out=data.get("out"),
            war=tuple(data.get("war", ())),
            show=None if show is None else (show[0], show[1]),
            uno=tuple(data.get("uno", ())),
            uno_until=data.get("uno_until"),
            spins=data.get("spins", 0),
            kept=tuple(data.get("kept", ())),
        )

    def public(self) -> dict[str, Any]:
        """What every seat may see (the table view's ``edition``)."""
        return {
            "went_out": self.out,
            "war_numbers": list(self.war),
            "showing": None if self.show is None else self.show[0],
            "also_uno_exposed": list(self.uno),
        }

    def seen_by(self, s: GameState, viewer: int | None) -> SpinState:
        """This state as ``viewer`` (a seat, or None) may see it in a position: the two cards
        an Almost UNO spinner keeps are as hidden as the rest of their hand
        (``wheel_cards_kept`` is hidden from the other seats), so another sees how many."""
        if self.kept and viewer != s.pending[1]:
            return self.replace(kept=("#",) * len(self.kept))  # "#": hidden, in a position
        return self

    def replace(self, **changes: Any) -> SpinState:
        # On the hot path (every spin): the slots set directly, without the frozen
        # dataclass's __init__ (the same value; ``rules.values``).
        get = changes.get
        new = _new(SpinState)
        _OUT(new, get("out", self.out))
        _WAR(new, get("war", self.war))
        _SHOW(new, get("show", self.show))
        _UNO(new, get("uno", self.uno))
        _UNO_UNTIL(new, get("uno_until", self.uno_until))
        _SPINS(new, get("spins", self.spins))
        _KEPT(new, get("kept", self.kept))
        return new


EMPTY = SpinState()
_new = object.__new__
_OUT, _WAR, _SHOW, _UNO, _UNO_UNTIL, _SPINS, _KEPT = slot_setters(SpinState)


def uno_window_open(s: GameState) -> bool:
    """Whether the traded-hand UNO windows in ``s.extra.uno`` are open: the next player's turn
    has begun and they have not acted yet."""
    x = s.extra
    return bool(x.uno) and s.pending[0] == Pending.TURN and s.pending[1] == x.uno_until


# Events --------------------------------------------------------------------------------------


@register_event
@dataclass(frozen=True, slots=True)
class WheelSpun(Event):
    """``seat`` spun the wheel and it stopped on ``segment`` (one of ``WHEEL``)."""

    type: ClassVar[str] = "wheel_spun"
    seat: int
    segment: str


@register_event
@dataclass(frozen=True, slots=True)
class WheelDiscarded(Event):
    """``seat`` discarded ``cards`` by the wheel, in order (the last is now on top).
    ``colour``: the colour called for a wild on top. ``uno``: UNO called with it."""

    type: ClassVar[str] = "wheel_discarded"
    seat: int
    cards: tuple[str, ...]
    colour: str | None
    uno: bool


@register_event
@dataclass(frozen=True, slots=True)
class WheelCardLaid(Event):
    """Discard Number or Discard Colour: ``seat`` put ``card`` down on the discard pile and
    discards more of its number (or colour); the last card they discard lands on top."""

    type: ClassVar[str] = "wheel_card_laid"
    seat: int
    card: str


@register_event
@dataclass(frozen=True, slots=True)
class WheelCardsKept(Event):
    """Almost UNO: ``seat`` keeps ``cards``: the first of two kept one at a time, or both
    (kept at once, in the order the hand holds them; or the first and the second). Once two
    are kept the seat chooses which of the others lands on top of the discard pile."""

    type: ClassVar[str] = "wheel_cards_kept"
    seat: int
    cards: tuple[str, ...]

    def redacted(self, viewer: int | None) -> dict[str, Any]:
        out = self.to_dict()
        if viewer != self.seat:
            out["cards"] = None  # the cards kept stay in the hand, hidden: how many shows
            out["count"] = len(self.cards)
        return out


@register_event
@dataclass(frozen=True, slots=True)
class HandsTraded(Event):
    """Trade Hands: the hand of ``seats[i]`` went to ``seats[i + 1]`` (and the last one's to
    the first), passing to the left. ``hands``: every seat's hand after the trade. ``uno``:
    the seats that received a one-card hand and must call UNO; ``until``: the next player,
    whose first action closes their catch window."""

    type: ClassVar[str] = "hands_traded"
    seat: int
    seats: tuple[int, ...]
    hands: tuple[tuple[str, ...], ...]
    uno: tuple[int, ...]
    until: int

    def redacted(self, viewer: int | None) -> dict[str, Any]:
        out = self.to_dict()
        out["hands"] = [list(h) if i == viewer else None for i, h in enumerate(self.hands)]
        out["counts"] = [len(h) for h in self.hands]
        return out


@register_event
@dataclass(frozen=True, slots=True)
class HandShown(Event):
    """Show Hand: ``seat``'s hand (``cards``) is visible to every seat until the end of
    ``until``'s turn (the next player)."""

    type: ClassVar[str] = "hand_shown"
    seat: int
    cards: tuple[str, ...]
    until: int


@register_event
@dataclass(frozen=True, slots=True)
class HandHidden(Event):
    """The next player's turn ended, or ``seat`` drew cards into the hand shown: ``seat``'s
    hand is private again."""

    type: ClassVar[str] = "hand_hidden"
    seat: int


@register_event
@dataclass(frozen=True, slots=True)
class WarFought(Event):
    """War: ``rounds[k][seat]`` is the number ``seat`` revealed in round ``k`` (None: not in
    that round). Round 0 is every player's highest number; later rounds are the face-offs of
    the players tied for the highest. ``winner`` discards the numbers they revealed; None when
    no one has a number card or the tied players ran out of number cards together."""

    type: ClassVar[str] = "war_fought"
    seat: int
    rounds: tuple[tuple[int | None, ...], ...]
    winner: int | None


@register_event
@dataclass(frozen=True, slots=True)
class UnoSpinClaimed(Event):
    """``seat`` yelled "UNO Spin" first and discards one card of their choice."""

    type: ClassVar[str] = "uno_spin_claimed"
    seat: int


@register_event
@dataclass(frozen=True, slots=True)
class TradedUnoCalled(Event):
    """``seat``, who received a one-card hand in a trade, called UNO before being caught."""

    type: ClassVar[str] = "traded_uno_called"
    seat: int


@register_event
@dataclass(frozen=True, slots=True)
class TradedUnoCaught(Event):
    """``by`` caught ``seat``, who received a one-card hand in a trade and did not call UNO."""

    type: ClassVar[str] = "traded_uno_caught"
    seat: int
    by: int


@register_event
@dataclass(frozen=True, slots=True)
class TradedUnoWindowClosed(Event):
    """The next player acted: the seats that received one-card hands can no longer be caught."""

    type: ClassVar[str] = "traded_uno_window_closed"
    seats: tuple[int, ...]


@applies(WheelSpun)
def _wheel_spun(s: GameState, e: WheelSpun) -> None:
    x = s.extra
    # A Spin card played as the last card: the seat with no cards went out, and the hand ends
    # once the wheel is resolved.
    out = s.hands.index(()) if () in s.hands else x.out
    s.extra = x.replace(out=out, spins=x.spins + 1)


@applies(WheelDiscarded)
def _wheel_discarded(s: GameState, e: WheelDiscarded) -> None:
    seat = e.seat
    hand = list(s.hands[seat])
    for card in e.cards:
        hand.remove(card)
    s.hands = s.hands[:seat] + (tuple(hand),) + s.hands[seat + 1 :]
    s.discard = s.discard + e.cards
    top = e.cards[-1]
    s.colour = e.colour if e.colour is not None else COLOUR[top]
    s.drawn = None
    if s.extra.war or s.extra.kept:
        s.extra = s.extra.replace(war=(), kept=())
    if len(hand) == 1 and not e.uno:
        s.exposed = seat
    elif s.exposed == seat:
        s.exposed = None


# The choice that goes on once a card of the number (or colour) is laid.
MORE: dict[str, str] = {
    Pending.DISCARD_NUMBER: Pending.DISCARD_NUMBER_MORE,
    Pending.DISCARD_NUMBER_MORE: Pending.DISCARD_NUMBER_MORE,
    Pending.DISCARD_COLOUR: Pending.DISCARD_COLOUR_MORE,
    Pending.DISCARD_COLOUR_MORE: Pending.DISCARD_COLOUR_MORE,
}


@applies(WheelCardLaid)
def _wheel_card_laid(s: GameState, e: WheelCardLaid) -> None:
    seat = e.seat
    hand = list(s.hands[seat])
    hand.remove(e.card)
    s.hands = s.hands[:seat] + (tuple(hand),) + s.hands[seat + 1 :]
    s.discard = s.discard + (e.card,)
    s.colour = COLOUR[e.card]
    s.drawn = None
    kind = s.pending[0]
    s.pending = (MORE.get(kind, kind), seat)


@applies(WheelCardsKept)
def _wheel_cards_kept(s: GameState, e: WheelCardsKept) -> None:
    # The first of two kept one at a time; or both (the second kept names the first too).
    kept = e.cards if len(e.cards) == 2 else s.extra.kept + e.cards
    s.extra = s.extra.replace(kept=kept)
    s.pending = (Pending.ALMOST_UNO_TOP if len(kept) == 2 else Pending.ALMOST_UNO_SECOND, e.seat)


@applies(HandsTraded)
def _hands_traded(s: GameState, e: HandsTraded) -> None:
    s.hands = e.hands
    s.exposed = e.uno[0] if e.uno else None
    more = e.uno[1:]
    s.extra = s.extra.replace(uno=more, uno_until=e.until if more else None)


@applies(HandShown)
def _hand_shown(s: GameState, e: HandShown) -> None:
    s.shown = s.shown | {e.seat}
    s.extra = s.extra.replace(show=(e.seat, e.until))


@applies(HandHidden)
def _hand_hidden(s: GameState, e: HandHidden) -> None:
    s.shown = s.shown - {e.seat}
    s.extra = s.extra.replace(show=None)


@applies(WarFought)
def _war_fought(s: GameState, e: WarFought) -> None:
    if e.winner is not None:
        war = tuple(row[e.winner] for row in e.rounds)
        s.extra = s.extra.replace(war=war)


@applies(UnoSpinClaimed)
def _uno_spin_claimed(s: GameState, e: UnoSpinClaimed) -> None:
    pass


@applies(TradedUnoCalled)
def _traded_uno_called(s: GameState, e: TradedUnoCalled) -> None:
    _unexpose(s, e.seat)


@applies(TradedUnoCaught)
def _traded_uno_caught(s: GameState, e: TradedUnoCaught) -> None:
    _unexpose(s, e.seat)


def _unexpose(s: GameState, seat: int) -> None:
    more = tuple(x for x in s.extra.uno if x != seat)
    s.extra = s.extra.replace(uno=more, uno_until=s.extra.uno_until if more else None)


@applies(TradedUnoWindowClosed)
def _traded_uno_window_closed(s: GameState, e: TradedUnoWindowClosed) -> None:
    s.extra = s.extra.replace(uno=(), uno_until=None)
