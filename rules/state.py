"""The state of a game: what a fold of ``evolve`` over its events gives.

``GameState`` is a value: ``evolve`` never changes the state it is given, it copies it and
changes the copy. Every container inside it is immutable (tuples, frozensets), so the copy is
a cheap shallow one, and a replay can fold a whole stream into one private copy.
"""

from __future__ import annotations

from typing import Any

from rules.pending import Pending

# What the game is waiting for: (kind, seat). The kinds, the core's and every edition's, are
# ``rules.pending.Pending`` (a ``StrEnum``: a kind read back from stored events or snapshots as
# a plain string is equal to it).
Waiting = tuple[str, int]


class GameState:
    """The whole truth of a game at one version, hidden cards included."""

    __slots__ = (
        "variant",
        "players",
        "scoring",
        "target",
        "options",
        "seed",
        "sheet",
        "version",
        "hand_number",
        "dealer",
        "hands",
        "pile",
        "pos",
        "discard",
        "colour",
        "direction",
        "pending",
        "drawn",
        "exposed",
        "w4",
        "scores",
        "hands_won",
        "reshuffles",
        "shown",
        "winner",
        "placings",
        "ranks",
        "last_hand",
        "extra",
    )

    variant: str
    players: int
    scoring: str
    target: int
    options: tuple[tuple[str, Any], ...]
    seed: str
    sheet: bool  # a score sheet: hands are recorded, not played (rules/sheet.py)
    version: int
    hand_number: int
    dealer: int
    hands: tuple[tuple[str, ...], ...]
    pile: tuple[str, ...]  # the draw pile, top first; cards before ``pos`` are gone
    pos: int
    discard: tuple[str, ...]  # bottom first, top last
    colour: str | None  # the colour in play
    direction: int  # 1 clockwise (to the left), -1 counter-clockwise
    pending: Waiting
    drawn: str | None  # the card just drawn on a turn, while it may still be played
    exposed: int | None  # the seat that may be caught for not calling UNO
    w4: (
        tuple[int, str, tuple[str, ...]] | None
    )  # (offender, colour before, their hand) while challengeable
    scores: tuple[int, ...]
    hands_won: tuple[int, ...]  # hands each seat went out first in
    reshuffles: int  # reshuffles in this hand (each gets its own shuffle)
    shown: frozenset[int]  # seats whose hand every seat may see now
    winner: int | None
    placings: tuple[int, ...]
    ranks: tuple[int, ...]
    last_hand: Any  # the HandEnded event of the last hand played
    extra: Any  # an edition's own state (an immutable value it defines)

    def __init__(self) -> None:
        self.variant = "classic"
        self.players = 0
        self.scoring = "standard"
        self.target = 500
        self.options = ()
        self.seed = ""
        self.sheet = False
        self.version = 0
        self.hand_number = 0
        self.dealer = 0
        self.hands = ()
        self.pile = ()
        self.pos = 0
        self.discard = ()
        self.colour = None
        self.direction = 1
        self.pending = (Pending.START, -1)
        self.drawn = None
        self.exposed = None
        self.w4 = None
        self.scores = ()
        self.hands_won = ()
        self.reshuffles = 0
        self.shown = frozenset()
        self.winner = None
        self.placings = ()
        self.ranks = ()
        self.last_hand = None
        self.extra = None

    def copy(self) -> GameState:
        """A shallow copy: safe, because everything the state holds is immutable. Written out
        slot by slot (it is on the hot path of every decision, where a loop over getattr and
        setattr costs several times as much); tests/rules/test_state.py holds that it copies
        every slot."""
        new = object.__new__(GameState)
        new.variant = self.variant
        new.players = self.players
        new.scoring = self.scoring
        new.target = self.target
        new.options = self.options
        new.seed = self.seed
        new.sheet = self.sheet
        new.version = self.version
        new.hand_number = self.hand_number
        new.dealer = self.dealer
        new.hands = self.hands
        new.pile = self.pile
        new.pos = self.pos
        new.discard = self.discard
        new.colour = self.colour
        new.direction = self.direction
        new.pending = self.pending
        new.drawn = self.drawn
        new.exposed = self.exposed
        new.w4 = self.w4
        new.scores = self.scores
        new.hands_won = self.hands_won
        new.reshuffles = self.reshuffles
        new.shown = self.shown
        new.winner = self.winner
        new.placings = self.placings
        new.ranks = self.ranks
        new.last_hand = self.last_hand
        new.extra = self.extra
        return new

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameState):
            return NotImplemented
        return all(getattr(self, n) == getattr(other, n) for n in GameState.__slots__)

    def __repr__(self) -> str:
        return (
            f"<GameState {self.variant} v{self.version} hand {self.hand_number} "
            f"pending={self.pending} top={self.top!r} colour={self.colour}>"
        )

    # Convenience reads -------------------------------------------------------------------

    @property
    def top(self) -> str | None:
        return self.discard[-1] if self.discard else None

    @property
    def draw_pile(self) -> tuple[str, ...]:
        return self.pile[self.pos :]

    @property
    def finished(self) -> bool:
        return self.pending[0] == Pending.OVER

    def option(self, name: str, default: Any = None) -> Any:
        for key, value in self.options:
            if key == name:
                return value
        return default

    def all_cards(self) -> list[str]:
        """Every card in the game now, wherever it lies (for conservation checks)."""
        cards = [c for hand in self.hands for c in hand]
        cards.extend(self.pile[self.pos :])
        cards.extend(self.discard)
        return cards

    # Snapshots ---------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe snapshot of the whole state (hidden cards included)."""
        from rules.events import Event

        out: dict[str, Any] = {}
        for name in GameState.__slots__:
            value = getattr(self, name)
            if name == "last_hand" and isinstance(value, Event):
                value = value.to_dict()
            elif name == "extra" and value is not None:
                value = _extra_to_json(value)
            out[name] = _to_json(value)
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameState:
        from rules.events import event_from_dict

        s = cls()
        for name in GameState.__slots__:
            value = data[name]
            if name == "last_hand" and value is not None:
                value = event_from_dict(value)
            elif name == "extra" and value is not None:
                value = _extra_from_json(value)
            elif name == "shown":
                value = frozenset(value)
            elif name == "options":
                value = tuple((k, _from_json(v)) for k, v in value)
            else:
                value = _from_json(value)
            setattr(s, name, value)
        return s


def _to_json(value: Any) -> Any:
    if isinstance(value, (tuple, list)):
        return [_to_json(v) for v in value]
    if isinstance(value, frozenset):
        return sorted(value)
    return value


def _from_json(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_from_json(v) for v in value)
    return value


def _extra_to_json(value: Any) -> Any:
    to_dict = getattr(value, "to_dict", None)
    if to_dict is None:
        return {"__plain__": _to_json(value)}
    return {"__class__": f"{type(value).__module__}:{type(value).__qualname__}", **to_dict()}


def _extra_from_json(data: Any) -> Any:
    if "__plain__" in data:
        return _from_json(data["__plain__"])
    import importlib

    module, _, qualname = data["__class__"].partition(":")
    if not module.startswith("rules."):
        raise ValueError(f"snapshot names a class outside the engine: {data['__class__']}")
    cls = getattr(importlib.import_module(module), qualname)
    return cls.from_dict({k: v for k, v in data.items() if k != "__class__"})
