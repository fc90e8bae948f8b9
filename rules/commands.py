"""Commands: what a seat (or the system) asks the engine to do. Imperative names, frozen values.

Every command has a ``type`` (its name in the API) and converts to and from the API's JSON
shape: ``{"type": "play", "card": "W4", "colour": "G", "uno": false}``. The seat that sends a
command comes from who is calling, never from the body, so ``from_dict`` takes it separately.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, ClassVar

from rules.cards import card_info
from rules.errors import InvalidCard, InvalidCommand


@dataclass(frozen=True, slots=True)
class Command:
    """Base class. ``seat`` is the acting seat, or ``None`` for the system or a referee."""

    type: ClassVar[str] = ""
    # The edition whose games take the command (its ``Variant.name``); ``None``: every game.
    edition: ClassVar[str | None] = None
    # How often a random bot sends a command of this kind when it may: an edition's command
    # that would make hands drag on if sent at every chance (VETO) sets less than 1.
    bot_rate: ClassVar[float] = 1.0
    seat: int | None

    def to_dict(self) -> dict[str, Any]:
        """The API shape (without the seat), omitting optional fields left at their default."""
        out: dict[str, Any] = {"type": self.type}
        for f in fields(self):
            if f.name == "seat":
                continue
            value = getattr(self, f.name)
            if f.metadata.get("optional") and value == f.default:
                continue
            out[f.metadata.get("json", f.name)] = list(value) if isinstance(value, tuple) else value
        return out

    def former_dict(self) -> dict[str, Any] | None:
        """The API shape as it was before a field took its current name (a field's ``old``
        name), or None when no field of the command was renamed: what an earlier version
        recorded of this same command."""
        renamed = {
            f.metadata.get("json", f.name): f.metadata["old"]
            for f in fields(self)
            if "old" in f.metadata
        }
        if not renamed:
            return None
        return {renamed.get(name, name): value for name, value in self.to_dict().items()}


# Field kinds understood by ``command_from_dict``. Each field carries its kind in metadata.
def _card(optional: bool = False) -> Any:
    return field(default=None if optional else "", metadata={"kind": "card", "optional": optional})


def _colour(optional: bool = True) -> Any:
    return field(default=None, metadata={"kind": "colour", "optional": optional})


def _flag() -> Any:
    return field(default=False, metadata={"kind": "bool", "optional": True})


def _seat(optional: bool = False, json: str | None = None, old: str | None = None) -> Any:
    metadata: dict[str, Any] = {"kind": "seat", "optional": optional}
    if json is not None:
        metadata["json"] = json  # the name of the field in the API, where it differs
    if old is not None:
        metadata["old"] = old  # a former name the API still takes (``command_from_dict``)
    return field(default=None if optional else -1, metadata=metadata)


def _cards(optional: bool = True) -> Any:
    return field(default=(), metadata={"kind": "cards", "optional": optional})


def _words(optional: bool = True) -> Any:
    return field(default=(), metadata={"kind": "words", "optional": optional})


def _word(optional: bool = True) -> Any:
    return field(default=None, metadata={"kind": "word", "optional": optional})


@dataclass(frozen=True, slots=True)
class PlayCard(Command):
    """Play a card from the hand. ``colour`` names the colour a wild calls; ``uno`` says the
    player calls UNO as the play leaves one card. An edition whose cards take more says so
    with its own play command, a subclass with one more field (``register_play``): Mod's
    ``give``, Power Grab's ``towers``, VETO's ``rule``. Its type in the API is ``play`` too."""

    type: ClassVar[str] = "play"
    # An edition's play: the name of its own field, and the error when another edition's game
    # is sent it (the field names it).
    edition_field: ClassVar[str | None] = None
    refusal: ClassVar[str] = ""
    card: str = _card()
    colour: str | None = _colour()
    uno: bool = _flag()


@dataclass(frozen=True, slots=True)
class DrawCard(Command):
    """Draw a card instead of playing (always allowed on your turn)."""

    type: ClassVar[str] = "draw"


@dataclass(frozen=True, slots=True)
class Pass(Command):
    """Keep the card just drawn and end the turn."""

    type: ClassVar[str] = "pass"


@dataclass(frozen=True, slots=True)
class CallUno(Command):
    """Call UNO while holding one card, before anyone catches you."""

    type: ClassVar[str] = "call_uno"


@dataclass(frozen=True, slots=True)
class Catch(Command):
    """Catch ``target``, who went down to one card without calling UNO (the sender's seat
    comes from who is calling). The API took the target as ``seat`` before ``target``; it
    still takes that name (``command_from_dict``)."""

    type: ClassVar[str] = "catch"
    target: int = _seat(json="target", old="seat")


@dataclass(frozen=True, slots=True)
class Challenge(Command):
    """Challenge the Wild Draw 4 just played on you."""

    type: ClassVar[str] = "challenge"


@dataclass(frozen=True, slots=True)
class Accept(Command):
    """Accept the Wild Draw 4 just played on you: draw four and lose the turn."""

    type: ClassVar[str] = "accept"


@dataclass(frozen=True, slots=True)
class ChooseColour(Command):
    """Choose the colour in play (a wild turned up to start the hand)."""

    type: ClassVar[str] = "choose_colour"
    colour: str | None = _colour(optional=False)


@dataclass(frozen=True, slots=True)
class DealHand(Command):
    """Deal the next hand. ``deck`` (top first) sets up the deal card by card; without it the
    engine shuffles from the game's seed."""

    type: ClassVar[str] = "deal"
    deck: tuple[str, ...] = _cards()


@dataclass(frozen=True, slots=True)
class StartGame(Command):
    """Start a game (system). ``dealer`` skips the dealer draw; ``deck`` deals the first hand
    from an explicit order. ``options`` are the edition's settings as sorted (key, value) pairs."""

    type: ClassVar[str] = "start"
    variant: str = "classic"
    players: int = 2
    scoring: str = "standard"
    target: int = 500
    seed: str = "0"
    options: tuple[tuple[str, Any], ...] = ()
    dealer: int | None = None
    deck: tuple[str, ...] = ()
    sheet: bool = False
    seed_chosen: bool = False  # a practice game's seed chosen by a person, not drawn


COMMAND_TYPES: dict[str, type[Command]] = {}


def register_command(cls: type[Command]) -> type[Command]:
    """Make a command type known to ``command_from_dict`` (editions register their own)."""
    COMMAND_TYPES[cls.type] = cls
    return cls


for _cls in (PlayCard, DrawCard, Pass, CallUno, Catch, Challenge, Accept, ChooseColour, DealHand):
    register_command(_cls)

# An edition's play commands, by the name of their own field in the API.
PLAY_TYPES: dict[str, type[PlayCard]] = {}


def register_play[P: type[PlayCard]](cls: P) -> P:
    """Make an edition's play command known to ``command_from_dict``: a ``play`` carrying its
    field (``cls.edition_field``) is parsed as ``cls``."""
    assert cls.edition_field is not None and cls.edition is not None
    PLAY_TYPES[cls.edition_field] = cls
    return cls


def play_fields() -> list[Any]:
    """The fields a ``play`` may carry, every edition's (for the API's schema)."""
    from rules.variants import load_all

    load_all()
    out = list(fields(PlayCard))
    for cls in PLAY_TYPES.values():
        out += [f for f in fields(cls) if f.name == cls.edition_field]
    return out


def _parse_field(name: str, kind: str, value: Any) -> Any:
    if kind == "card":
        try:
            return card_info(value).code
        except InvalidCard as exc:
            raise InvalidCommand(str(exc), field=name) from None
    if kind == "colour":
        if not isinstance(value, str) or value not in ("R", "G", "B", "Y", "P", "O"):
            raise InvalidCommand(f"{name}: unknown colour {value!r}", field=name)
        return value
    if kind == "bool":
        if not isinstance(value, bool):
            raise InvalidCommand(f"{name}: expected true or false, got {value!r}", field=name)
        return value
    if kind == "seat":
        if not isinstance(value, int) or isinstance(value, bool):
            raise InvalidCommand(f"{name}: expected a seat number, got {value!r}", field=name)
        return value
    if kind == "cards":
        if not isinstance(value, (list, tuple)):
            raise InvalidCommand(f"{name}: expected a list of card codes", field=name)
        out = []
        for i, code in enumerate(value):
            try:
                out.append(card_info(code).code)
            except InvalidCard as exc:
                raise InvalidCommand(f"{name}[{i}]: {exc}", field=name) from None
        return tuple(out)
    if kind == "words":
        if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
            raise InvalidCommand(f"{name}: expected a list of names", field=name)
        return tuple(value)
    if kind == "word":
        if not isinstance(value, str):
            raise InvalidCommand(f"{name}: expected a string, got {value!r}", field=name)
        return value
    if kind in ("seat_cards", "seat_points"):
        return parse_seat_map(name, value, kind)
    if kind == "int":
        if not isinstance(value, int) or isinstance(value, bool):
            raise InvalidCommand(f"{name}: expected a whole number, got {value!r}", field=name)
        return value
    raise AssertionError(kind)


# The most points one seat may be recorded holding after a hand: far more than any edition's
# whole deck is worth (1,520 for Power Grab), and small enough for every total to stay a number
# the database's columns hold.
MAX_HAND_POINTS = 10_000


def parse_seat_map(name: str, value: Any, kind: str) -> tuple[tuple[int, Any], ...]:
    """``{"0": [...], "1": [...]}`` (seat numbers as JSON keys) into sorted pairs."""
    if not isinstance(value, dict):
        raise InvalidCommand(f"{name}: expected an object keyed by seat number", field=name)
    out: list[tuple[int, Any]] = []
    for key, item in value.items():
        # Digits only: int() would also take " 1", "1_0" and other scripts' digits.
        if not (isinstance(key, str) and key.isascii() and key.isdigit() and len(key) <= 2):
            raise InvalidCommand(f"{name}: {key!r} is not a seat number", field=name)
        seat = int(key)
        where = f"{name}.{key}"
        if kind == "seat_cards":
            if not isinstance(item, list):
                raise InvalidCommand(f"{where}: expected a list of card codes", field=where)
            cards = []
            for i, code in enumerate(item):
                try:
                    cards.append(card_info(code).code)
                except InvalidCard as exc:
                    raise InvalidCommand(f"{where}[{i}]: {exc}", field=where) from None
            out.append((seat, tuple(cards)))
        else:
            if (
                not isinstance(item, int)
                or isinstance(item, bool)
                or not 0 <= item <= MAX_HAND_POINTS
            ):
                raise InvalidCommand(
                    f"{where}: points must be a whole number from 0 to {MAX_HAND_POINTS}",
                    field=where,
                )
            out.append((seat, item))
    return tuple(sorted(out))


_PLAIN = frozenset({"type", "card", "colour", "uno", "expected_version", "key"})


def command_from_dict(seat: int | None, data: Any, variant: str | None = None) -> Command:
    """Build a command from its API shape, strictly: unknown types and fields, missing fields
    and bad values raise ``InvalidCommand`` naming the field. ``variant``: the game's edition,
    when known; a ``play`` carrying another edition's field is refused then (the engine
    refuses it in any case)."""
    if not isinstance(data, dict):
        raise InvalidCommand("a command must be a JSON object", field=None)
    kind = data.get("type")
    cls = COMMAND_TYPES.get(kind) if isinstance(kind, str) else None
    if isinstance(kind, str) and (cls is None or (cls is PlayCard and not data.keys() <= _PLAIN)):
        # An edition's commands are registered when its module is imported; load them all.
        from rules.variants import load_all

        load_all()
        cls = COMMAND_TYPES.get(kind)
    if cls is None:
        known = ", ".join(sorted(COMMAND_TYPES))
        raise InvalidCommand(f"unknown command type {kind!r} (known: {known})", field="type")
    if cls is PlayCard:
        cls = _play_type(data, variant)
        if cls is PlayCard:
            # The editions' fields sent empty (``null``), as clients that send every field they
            # know do: not given, in any edition's game (as an omitted field).
            data = {k: v for k, v in data.items() if not (v is None and k in PLAY_TYPES)}
    # JSON name -> field (a field may have another name in the API, e.g. catch's ``target``).
    spec = {f.metadata.get("json", f.name): f for f in fields(cls) if f.name != "seat"}
    old = {f.metadata["old"]: name for name, f in spec.items() if "old" in f.metadata}
    if old:
        data = _renamed(data, old, kind)
    unknown = sorted(set(data) - set(spec) - {"type", "expected_version", "key"})
    if unknown:
        raise InvalidCommand(
            f"unknown field {unknown[0]!r} for a {kind!r} command", field=unknown[0]
        )
    kwargs: dict[str, Any] = {}
    for name, f in spec.items():
        if name in data and data[name] is not None:
            kwargs[f.name] = _parse_field(name, f.metadata["kind"], data[name])
        elif not f.metadata.get("optional", True):
            raise InvalidCommand(f"{name} is required for a {kind!r} command", field=name)
    if cls is not PlayCard and issubclass(cls, PlayCard):
        own = cls.edition_field
        assert own is not None
        if own not in kwargs or kwargs[own] == cls.__dataclass_fields__[own].default:
            # The edition's field left empty: a plain play, as the legal list names it.
            del kwargs[own]
            cls = PlayCard
    return cls(seat, **kwargs)


def _play_type(data: dict[str, Any], variant: str | None) -> type[PlayCard]:
    """The play command ``data`` is: the edition's whose field it carries (at most one)."""
    own = [PLAY_TYPES[name] for name in sorted(PLAY_TYPES) if data.get(name) is not None]
    if not own:
        return PlayCard
    for cls in own:
        if variant is not None and cls.edition != variant:
            assert cls.edition_field is not None
            raise InvalidCommand(cls.refusal, field=cls.edition_field)
    if len(own) > 1:
        # Only one edition's: the other's field is the error, as a game of either says.
        assert own[1].edition_field is not None
        raise InvalidCommand(own[1].refusal, field=own[1].edition_field)
    return own[0]


def _renamed(data: dict[str, Any], old: dict[str, str], kind: Any) -> dict[str, Any]:
    """``data`` with fields sent by their former names (``old``: former -> current) renamed.
    The two names together must agree."""
    data = dict(data)
    for former, name in old.items():
        if former not in data:
            continue
        value = data.pop(former)
        if name in data and data[name] != value:
            raise InvalidCommand(
                f"{name} and {former} (its former name) differ for a {kind!r} command: "
                f"send {name} only",
                field=name,
            )
        data[name] = value
    return data
