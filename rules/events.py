"""Events: immutable facts, named in the past tense. Replay is a fold of ``evolve`` over them.

Everything chance decided (a shuffle, a dealer draw, a wheel spin) is recorded in the event
that it caused, so replay needs no random generator. ``to_dict``/``event_from_dict`` give the
JSON shape stored in the event table; ``secret`` lists the fields that hide cards.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar


@dataclass(frozen=True, slots=True)
class Event:
    type: ClassVar[str] = ""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type}
        for f in fields(self):
            out[f.name] = _jsonable(getattr(self, f.name))
        return out

    def redacted(self, viewer: int | None) -> dict[str, Any]:
        """The event as seat ``viewer`` may see it while the game is on (``None``: a seat-less
        spectator). Events that carry hidden cards override this."""
        return self.to_dict()


def _jsonable(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_jsonable(v) for v in value]
    return value


def _frozen(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, _frozen(v)) for k, v in value.items()))
    return value


def dealt_cards(
    deck: tuple[str, ...], dealer: int, seat: int, players: int, size: int = 7
) -> tuple[str, ...]:
    """The cards ``seat`` receives from ``deck`` under the dealing contract."""
    return deck[(seat - dealer - 1) % players : players * size : players]


EVENT_TYPES: dict[str, type[Event]] = {}


def register_event(cls: type[Event]) -> type[Event]:
    """Make an event type known to ``event_from_dict`` (editions register their own)."""
    EVENT_TYPES[cls.type] = cls
    return cls


# Per event class: (field name, whether its value may need freezing into tuples).
_PLANS: dict[type[Event], tuple[tuple[str, bool], ...]] = {}
_SCALARS = frozenset({"int", "str", "bool", "int | None", "str | None", "bool | None"})


def event_from_dict(data: dict[str, Any]) -> Event:
    """Rebuild an event from its stored JSON shape."""
    cls = EVENT_TYPES.get(data["type"])
    if cls is None:
        # An edition's events are registered when its module is imported; load them all.
        from rules.variants import load_all

        load_all()
        cls = EVENT_TYPES[data["type"]]
    plan = _PLANS.get(cls)
    if plan is None:
        plan = _PLANS[cls] = tuple((f.name, str(f.type) not in _SCALARS) for f in fields(cls))
    # Rebuilding the log is the hot path of every projection rebuild: freeze only the fields
    # that can hold lists.
    kwargs = {
        name: _frozen(data[name]) if nested else data[name] for name, nested in plan if name in data
    }
    if cls is GameStarted and isinstance(data.get("options"), dict):
        # Option values frozen as the decider made them (a list of house rules -> tuple).
        kwargs["options"] = tuple(sorted((k, _frozen(v)) for k, v in data["options"].items()))
    return cls(**kwargs)


@register_event
@dataclass(frozen=True, slots=True)
class GameStarted(Event):
    type: ClassVar[str] = "game_started"
    variant: str
    players: int
    scoring: str
    target: int
    options: tuple[tuple[str, Any], ...]
    seed: str
    sheet: bool = False  # a score sheet: hands are recorded, not played
    seed_chosen: bool = False  # the seed was chosen by a person (practice games only)

    def to_dict(self) -> dict[str, Any]:
        out = Event.to_dict(self)
        out["options"] = {k: _jsonable(v) for k, v in self.options}
        if not self.seed_chosen:
            # Stored only when set: the logs (and golden games) from before it keep their shape.
            del out["seed_chosen"]
        return out

    def redacted(self, viewer: int | None) -> dict[str, Any]:
        out = self.to_dict()
        del out["seed"]  # the seed would tell every shuffle
        return out


@register_event
@dataclass(frozen=True, slots=True)
class DealerChosen(Event):
    """Each round of the dealer draw: the card each seat drew (None for seats out of a tie)."""

    type: ClassVar[str] = "dealer_chosen"
    draws: tuple[tuple[str | None, ...], ...]
    dealer: int


@register_event
@dataclass(frozen=True, slots=True)
class HandDealt(Event):
    """A hand dealt from ``deck`` (top first) by the dealing contract."""

    type: ClassVar[str] = "hand_dealt"
    hand: int
    dealer: int
    players: int
    deck: tuple[str, ...]

    def redacted(self, viewer: int | None) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type, "hand": self.hand, "dealer": self.dealer}
        out["players"] = self.players
        out["deck"] = None
        out["deck_size"] = len(self.deck)
        if viewer is not None and 0 <= viewer < self.players:
            out["your_cards"] = list(dealt_cards(self.deck, self.dealer, viewer, self.players))
        return out


@register_event
@dataclass(frozen=True, slots=True)
class StarterReturned(Event):
    """The card turned up may not start the pile; it goes to the bottom of the draw pile."""

    type: ClassVar[str] = "starter_returned"
    card: str


@register_event
@dataclass(frozen=True, slots=True)
class StarterTurned(Event):
    type: ClassVar[str] = "starter_turned"
    card: str


@register_event
@dataclass(frozen=True, slots=True)
class TurnBegan(Event):
    type: ClassVar[str] = "turn_began"
    seat: int


@register_event
@dataclass(frozen=True, slots=True)
class ChoiceOffered(Event):
    """``seat`` must now decide something other than a normal turn (``colour``,
    ``challenge``, ``deal``, or an edition's own choice)."""

    type: ClassVar[str] = "choice_offered"
    seat: int
    choice: str


@register_event
@dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    type: ClassVar[str] = "card_played"
    seat: int
    card: str
    colour: str | None
    uno: bool


@register_event
@dataclass(frozen=True, slots=True)
class CardsDrawn(Event):
    """``seat`` took ``cards`` from the draw pile (fewer than asked if both piles ran out)."""

    type: ClassVar[str] = "cards_drawn"
    seat: int
    cards: tuple[str, ...]
    reason: str

    def redacted(self, viewer: int | None) -> dict[str, Any]:
        out = self.to_dict()
        if viewer != self.seat:
            out["cards"] = None
            out["count"] = len(self.cards)
        return out


@register_event
@dataclass(frozen=True, slots=True)
class DiscardReshuffled(Event):
    """The discard pile but its top card, shuffled (``order``, top first) under the draw pile."""

    type: ClassVar[str] = "discard_reshuffled"
    order: tuple[str, ...]

    def redacted(self, viewer: int | None) -> dict[str, Any]:
        return {"type": self.type, "order": None, "count": len(self.order)}


@register_event
@dataclass(frozen=True, slots=True)
class Passed(Event):
    type: ClassVar[str] = "passed"
    seat: int


@register_event
@dataclass(frozen=True, slots=True)
class ColourChosen(Event):
    type: ClassVar[str] = "colour_chosen"
    seat: int
    colour: str


@register_event
@dataclass(frozen=True, slots=True)
class DirectionReversed(Event):
    type: ClassVar[str] = "direction_reversed"
    direction: int


@register_event
@dataclass(frozen=True, slots=True)
class SeatSkipped(Event):
    type: ClassVar[str] = "seat_skipped"
    seat: int


@register_event
@dataclass(frozen=True, slots=True)
class UnoCalled(Event):
    type: ClassVar[str] = "uno_called"
    seat: int


@register_event
@dataclass(frozen=True, slots=True)
class UnoCaught(Event):
    type: ClassVar[str] = "uno_caught"
    seat: int
    by: int


@register_event
@dataclass(frozen=True, slots=True)
class UnoWindowClosed(Event):
    """The next player began their turn: ``seat`` can no longer be caught."""

    type: ClassVar[str] = "uno_window_closed"
    seat: int


@register_event
@dataclass(frozen=True, slots=True)
class ChallengeResolved(Event):
    """A Wild Draw 4 challenge. ``evidence``: the offender's cards of the colour that was in
    play (``colour``) when the Wild Draw 4 was played; guilty exactly when it is not empty.
    ``hand``: the whole hand the offender shows the challenger, as it was when the card was
    played (``None`` in logs from before it was recorded)."""

    type: ClassVar[str] = "challenge_resolved"
    challenger: int
    offender: int
    colour: str
    guilty: bool
    evidence: tuple[str, ...]
    hand: tuple[str, ...] | None = None

    def to_dict(self) -> dict[str, Any]:
        out = Event.to_dict(self)
        if self.hand is None:
            del out["hand"]  # logs from before the hand was recorded keep their shape
        return out

    def redacted(self, viewer: int | None) -> dict[str, Any]:
        # The challenged player shows their hand to the challenger, not to the table.
        out = self.to_dict()
        if viewer not in (self.challenger, self.offender):
            out["evidence"] = None
            out["hand"] = None
        return out


@register_event
@dataclass(frozen=True, slots=True)
class WildDrawFourAccepted(Event):
    type: ClassVar[str] = "wild_draw_four_accepted"
    seat: int


@register_event
@dataclass(frozen=True, slots=True)
class HandEnded(Event):
    """``winner`` went out. ``held``: points left in each seat's hand; ``gained``: what each
    seat scores for the hand under the game's scoring; ``scores``: the totals after it."""

    type: ClassVar[str] = "hand_ended"
    hand: int
    winner: int
    held: tuple[int, ...]
    gained: tuple[int, ...]
    scores: tuple[int, ...]


@register_event
@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    """``placings``: seats best first; ``ranks``: each seat's rank, equal for equal results."""

    type: ClassVar[str] = "game_ended"
    winner: int
    placings: tuple[int, ...]
    ranks: tuple[int, ...]
    scores: tuple[int, ...]


@register_event
@dataclass(frozen=True, slots=True)
class Rewound(Event):
    """A compensating event: the game goes on from the state it had at ``to_version``.
    ``evolve`` has no handler for it: ``rules.engine.fold_with_rewinds`` resolves it, given
    the state at ``to_version`` (``replay`` from the stream, the store from a snapshot)."""

    type: ClassVar[str] = "rewound"
    to_version: int
    by: str
    reason: str
    # The game was over, every hand and the draw pile shown to all: a referee reopened it.
    reopened: bool = False

    def to_dict(self) -> dict[str, Any]:
        out = Event.to_dict(self)
        if not self.reopened:
            del out["reopened"]  # stored only when set: older logs keep their shape
        return out
