"""Position notation: one line of text that fully describes a game's position (docs/POSITION.md).

``format_position(state)`` writes it, ``parse_position(text)`` reads it back and refuses an
impossible position with a ``PositionError`` that names the field; ``start_from(text)`` starts
a game from one through the event log (a ``PositionSetUp`` event, recorded like a deal).

A position is what decides the game from here on: the cards wherever they lie, the colour,
whose turn and what they may do, the scores, the edition's own state and the seed of the
chance still to come. The history is not part of it: the version, the cards already gone from
the draw pile (``pile``/``pos`` are written as the draw pile alone) and the last hand's event.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, fields
from types import UnionType
from typing import Any, ClassVar, get_args, get_origin, get_type_hints
from urllib.parse import quote, unquote

from rules.engine import applies, at_rest, legal_commands, rng, shuffled
from rules.errors import InvalidCard, InvalidCommand
from rules.events import Event, GameStarted, register_event
from rules.pending import Pending
from rules.state import GameState
from rules.variants import get_variant, variant_names
from rules.variants.classic.variant import MAX_PLAYERS, MIN_PLAYERS, Variant

FIELDS = (
    "players",
    "scoring",
    "target",
    "options",
    "seed",
    "sheet",
    "hand",
    "dealer",
    "pending",
    "dir",
    "colour",
    "drawn",
    "exposed",
    "discard",
    "pile",
    "hands",
    "w4",
    "scores",
    "won",
    "reshuffles",
    "shown",
    "winner",
    "placings",
    "ranks",
    "extra",
)
REQUIRED = ("players", "hand", "dealer", "pending", "dir", "colour", "discard", "pile", "hands")
HIDDEN = "#"  # a hidden value in a seat's view: "#7" is a hand of seven unseen cards
REST = "*"  # pile=*: the cards not placed elsewhere, shuffled from the seed
SEATLESS = (Pending.START, Pending.OVER, Pending.SHEET)  # waited for with no seat (-1)
_KINDS: dict[str, str] = {kind.value: kind for kind in Pending}
SCORINGS = ("standard", "alternative", "none")


class PositionError(InvalidCommand):
    """An impossible or unreadable position. ``part``: the position's field that is wrong
    (``field`` is ``"position"``, the name callers know the whole text by); ``seat``: the seat
    whose value in it is wrong, when one is."""

    def __init__(self, part: str, message: str, seat: int | None = None) -> None:
        super().__init__(f"{part}: {message}", field="position")
        self.part = part
        self.seat = seat


_ESCAPE = re.compile(r"%(?![0-9A-Fa-f]{2})")


def _is_text(text: str) -> bool:
    """Whether ``text`` is Unicode text that UTF-8 can carry (no lone surrogate halves)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _unquoted(part: str, text: str) -> str:
    """A percent-encoded field's text, refused unless every ``%`` starts an escape of two hex
    digits and the escapes spell UTF-8 (``unquote`` alone would keep ``%zz`` as it is and
    turn a stray byte into a replacement character, so the text read is not the one meant)."""
    bad = _ESCAPE.search(text)
    if bad is not None:
        raise PositionError(
            part, f"{text[bad.start() : bad.start() + 3]!r} is no percent escape: write % as %25"
        )
    try:
        return unquote(text, errors="strict")
    except UnicodeDecodeError:
        raise PositionError(part, "its percent escapes are not UTF-8 text") from None


# The edition's state (``GameState.extra``) -----------------------------------------------------


@dataclass(frozen=True, slots=True)
class ExtraCodec:
    """How an edition's state is written in a position and read back."""

    write: Callable[[Any], str]
    read: Callable[[str], Any]
    secret: bool = False  # it tells something about hidden cards: a seat's view leaves it out


def json_part(value: Any) -> str:
    """``value`` as a part of a position line writes it (``options``, ``extra``): compact JSON,
    its keys sorted, "|" escaped so that a house rule's own words never split the line."""
    return json.dumps(value, separators=(",", ":"), sort_keys=True).replace("|", "\\u007c")


def options_part(options: dict[str, Any]) -> str:
    """The edition's options as a position writes them: ``json_part`` with "#" escaped too,
    since no field but the edition's state may hold a hidden value (a house rule's own "#1"
    is text, not one)."""
    return json_part(options).replace("#", "\\u0023")


def _json_codec(cls: Any, *, secret: bool = False) -> ExtraCodec:
    def write(value: Any) -> str:
        return json_part(value.to_dict())

    def read(text: str) -> Any:
        data = json.loads(text)
        if not isinstance(data, dict):
            raise ValueError("expected a JSON object")
        _check_shape(cls, data)
        return cls.from_dict(data)

    return ExtraCodec(write, read, secret)


def _check_shape(cls: Any, data: dict[str, Any]) -> None:
    """A ``ValueError`` naming the first field of ``data`` that the edition's state class
    ``cls`` does not have, or whose value is not of the field's type (JSON lists for tuples):
    whether the values fit the table (seats, cards) is the edition's ``invariants``' to say."""
    hints = get_type_hints(cls)
    names = {f.name for f in fields(cls)}
    for name, value in data.items():
        if name not in names:
            raise ValueError(f"unknown field {name!r}")
        hint = hints[name]
        if not _conforms(value, hint):
            raise ValueError(f"{name} is {json.dumps(value)}: expected {_described(hint)}")


def _conforms(value: Any, hint: Any) -> bool:
    origin, args = get_origin(hint), get_args(hint)
    if origin is UnionType:
        return any(_conforms(value, arg) for arg in args)
    if origin is tuple:
        if not isinstance(value, list):
            return False
        if len(args) == 2 and args[1] is Ellipsis:
            return all(_conforms(item, args[0]) for item in value)
        return len(value) == len(args) and all(map(_conforms, value, args))
    if hint is type(None):
        return value is None
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if hint in (bool, str):
        return isinstance(value, hint)
    raise TypeError(f"no JSON shape for {hint!r}")  # a new kind of field: teach it here


def _described(hint: Any) -> str:
    """``hint`` in JSON's words: "an integer or null", "a list of strings"."""
    origin, args = get_origin(hint), get_args(hint)
    if origin is UnionType:
        return " or ".join(_described(arg) for arg in args)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return f"a list of {_plural(args[0])}"
        return f"a list of {len(args)} ({', '.join(_described(arg) for arg in args)})"
    return {type(None): "null", int: "an integer", bool: "true or false", str: "a string"}[hint]


def _plural(hint: Any) -> str:
    origin = get_origin(hint)
    if origin is UnionType:
        return " or ".join(_plural(arg) for arg in get_args(hint))
    if origin is tuple:
        return "lists (each " + _described(hint).removeprefix("a list ") + ")"
    return {type(None): "nulls", int: "integers", bool: "true or false", str: "strings"}[hint]


def _edition_codecs() -> dict[str, ExtraCodec]:
    from rules.variants.power_grab.events import PowerGrabState
    from rules.variants.spin.events import SpinState
    from rules.variants.veto.events import VetoState

    return {
        "spin": _json_codec(SpinState),
        "power_grab": _json_codec(PowerGrabState),
        # The house rules on the Customizable cards in each hand are as secret as the hands.
        "veto": _json_codec(VetoState, secret=True),
    }


EXTRA_CODECS: dict[str, ExtraCodec] = {}


def extra_codec(variant: str) -> ExtraCodec | None:
    """The edition's hook for its state in a position (None: it keeps no state)."""
    if not EXTRA_CODECS:
        EXTRA_CODECS.update(_edition_codecs())
    return EXTRA_CODECS.get(variant)


def default_extra(variant: Variant, players: int, options: tuple[tuple[str, Any], ...]) -> Any:
    """The edition's state at the start of a game: a position leaves ``extra`` out when the
    edition's state is this."""
    started = GameStarted(variant.name, players, "standard", 500, options, "x")
    return variant.initial_extra(started)


# Writing -------------------------------------------------------------------------------------


def _cards(cards: tuple[str, ...]) -> str:
    return ",".join(cards)


def _ints(values: tuple[int, ...] | frozenset[int]) -> str:
    return ",".join(str(v) for v in (sorted(values) if isinstance(values, frozenset) else values))


def format_position(state: GameState, viewer: int | None = -1) -> str:
    """The position of ``state`` in one line. ``viewer``: -1 (the default) writes every card;
    a seat writes what that seat may see (its own hand; the others' and the draw pile as card
    counts, ``#7``; no seed); ``None``, what a spectator may see. A seat's view is for showing,
    not for setting up: ``parse_position`` refuses hidden values."""
    s = state
    full = viewer == -1
    variant = get_variant(s.variant)
    n = s.players
    out = [s.variant, f"players={n}"]
    if s.scoring != "standard":
        out.append(f"scoring={s.scoring}")
    if s.target != 500:
        out.append(f"target={s.target}")
    if s.options:
        options = {k: list(v) if isinstance(v, tuple) else v for k, v in s.options}
        out.append("options=" + options_part(options))
    out.append("seed=" + (quote(s.seed, safe="") if full else HIDDEN))
    if s.sheet:
        out.append("sheet=1")
    out.append(f"hand={s.hand_number}")
    out.append(f"dealer={s.dealer}")
    kind, seat = s.pending
    out.append(f"pending={kind}" if seat == -1 and kind in SEATLESS else f"pending={kind}:{seat}")
    out.append("dir=" + ("+" if s.direction == 1 else "-"))
    out.append(f"colour={s.colour or '-'}")
    if s.drawn is not None:
        out.append(f"drawn={s.drawn if full or viewer == s.pending[1] else HIDDEN}")
    if s.exposed is not None:
        out.append(f"exposed={s.exposed}")
    out.append(f"discard={_cards(s.discard)}")
    out.append(f"pile={_cards(s.draw_pile) if full else HIDDEN + str(len(s.draw_pile))}")
    hands = []
    for seat_number, hand in enumerate(s.hands):
        seen = full or seat_number == viewer or seat_number in s.shown
        hands.append(_cards(hand) if seen else HIDDEN + str(len(hand)))
    out.append("hands=" + "/".join(hands))
    if s.w4 is not None:
        offender, colour, held = s.w4
        seen = full or offender == viewer or offender in s.shown
        out.append(
            f"w4={offender};{colour or '-'};{_cards(held) if seen else HIDDEN + str(len(held))}"
        )
    if any(s.scores):
        out.append(f"scores={_ints(s.scores)}")
    if any(s.hands_won):
        out.append(f"won={_ints(s.hands_won)}")
    if s.reshuffles:
        out.append(f"reshuffles={s.reshuffles}")
    if s.shown:
        out.append(f"shown={_ints(s.shown)}")
    if s.winner is not None:
        out.append(f"winner={s.winner}")
    if s.placings:
        out.append(f"placings={_ints(s.placings)}")
    if s.ranks:
        out.append(f"ranks={_ints(s.ranks)}")
    codec = extra_codec(s.variant)
    if codec is not None and s.extra != default_extra(variant, n, s.options):
        if full:
            out.append("extra=" + codec.write(s.extra))
        elif codec.secret:
            out.append("extra=" + HIDDEN)
        else:
            # An edition state that knows something of hidden cards says what a seat sees.
            seen_by = getattr(s.extra, "seen_by", None)
            out.append("extra=" + codec.write(seen_by(s, viewer) if seen_by else s.extra))
    return "|".join(out)


# Reading -------------------------------------------------------------------------------------


def _fields(text: str) -> tuple[str, dict[str, str]]:
    if not isinstance(text, str):
        raise PositionError("position", "a position is one line of text")
    text = text.strip()
    if not text:
        raise PositionError("position", "the position is empty")
    if "\n" in text or "\r" in text:
        raise PositionError("position", "a position is one line (fields are separated by |)")
    head, *rest = text.split("|")
    variant = head.strip()
    if variant not in variant_names():
        raise PositionError(
            "variant",
            f"unknown edition {variant!r}: a position starts with one of "
            f"{', '.join(variant_names())}",
        )
    found: dict[str, str] = {}
    for part in rest:
        name, eq, value = part.partition("=")
        name = name.strip()
        if not eq:
            raise PositionError(name or "position", f"expected name=value, not {part!r}")
        if name not in FIELDS:
            raise PositionError(name, f"unknown field (fields: {', '.join(FIELDS)})")
        if name in found:
            raise PositionError(name, "the field is given twice")
        found[name] = value.strip()
    for name in REQUIRED:
        if name not in found:
            raise PositionError(name, "this field is missing")
    for name, value in found.items():
        if HIDDEN in value and name != "extra":
            raise PositionError(
                name, "a hidden value (#): a position to set up must show every card"
            )
    if found.get("extra") == HIDDEN:
        raise PositionError("extra", "a hidden value (#): the edition's state must be shown")
    return variant, found


# The largest number a position may hold (a hand number, a score, a target...): far past any
# game, and within what the database keeps in an integer.
MAX_NUMBER = 1_000_000_000
_WHOLE = re.compile(r"-?[0-9]+")


def _int(name: str, value: str, low: int | None = None, high: int = MAX_NUMBER) -> int:
    # ASCII digits only: int() would also read "1_000", "+5", " 5" and other scripts' digits.
    if not _WHOLE.fullmatch(value):
        raise PositionError(name, f"expected a whole number, not {value!r}")
    # (A long one is out of range unread: int() refuses more than 4,300 digits.)
    number = int(value) if len(value) <= 12 else high + 1
    if (low is not None and number < low) or number > high:
        where = f"{low} to {high}" if low is not None else f"at most {high}"
        shown = value if len(value) <= 12 else f"a number of {len(value.lstrip('-'))} digits"
        raise PositionError(name, f"{shown} is out of range ({where})")
    return number


def _seat(name: str, value: str, players: int) -> int:
    seat = _int(name, value)
    if not 0 <= seat < players:
        raise PositionError(name, f"there is no seat {seat} at a table of {players}")
    return seat


def _seats(name: str, value: str, players: int) -> tuple[int, ...]:
    return tuple(_seat(name, v, players) for v in value.split(",")) if value else ()


def _card_list(name: str, value: str, variant: Variant) -> tuple[str, ...]:
    if not value:
        return ()
    cards = tuple(c.strip() for c in value.split(","))
    for code in cards:
        if not variant.has_card(code):
            try:
                from rules.cards import card_info

                card_info(code)
            except InvalidCard as exc:
                raise PositionError(name, str(exc)) from None
            raise PositionError(name, f"{code} is not a card of {variant.title}")
    return cards


def _colour(name: str, value: str, variant: Variant) -> str | None:
    if value == "-":
        return None
    if value not in variant.colours:
        raise PositionError(
            name, f"unknown colour {value!r}: expected one of {', '.join(variant.colours)} or -"
        )
    return value


def parse_position(text: str, *, seed: str | None = None, recorded: bool = False) -> GameState:
    """The state a position describes (version 0, no history), or a ``PositionError`` naming
    the field that is wrong. ``seed``: the game's seed when the text gives none.
    ``recorded``: the position of a game's record (``PositionSetUp``), read back as it was
    accepted, without the checks added since (``_reachable_scores``, ``Variant.unreachable``):
    a record always replays."""
    name, f = _fields(text)
    variant = get_variant(name)
    s = GameState()
    s.variant = name
    n = s.players = _int("players", f["players"], MIN_PLAYERS, MAX_PLAYERS)
    s.scoring = f.get("scoring", "standard")
    if s.scoring not in SCORINGS:
        raise PositionError("scoring", f"unknown scoring {s.scoring!r}: one of {SCORINGS}")
    s.target = _int("target", f.get("target", "500"), 1)
    if "options" in f:
        try:
            options = json.loads(f["options"])
        except (ValueError, RecursionError):  # (nested too deep to read)
            raise PositionError("options", "expected a JSON object") from None
        if not isinstance(options, dict):
            raise PositionError("options", "expected a JSON object")
        try:
            s.options = variant.parse_options(options)
        except InvalidCommand as exc:
            raise PositionError("options", str(exc)) from None
    if "seed" in f:
        s.seed = _unquoted("seed", f["seed"])
    elif seed is not None:
        s.seed = seed
    if not s.seed:
        raise PositionError("seed", "the seed is missing (it decides the chance still to come)")
    if not _is_text(s.seed):
        raise PositionError("seed", "the seed holds half of a character (a lone surrogate)")
    s.sheet = _int("sheet", f.get("sheet", "0"), 0, 1) == 1
    s.hand_number = _int("hand", f["hand"], 0)
    s.dealer = _seat("dealer", f["dealer"], n)
    kind, _, pending_seat = f["pending"].partition(":")
    if not kind.replace("_", "").isalpha():
        raise PositionError("pending", f"expected what the game waits for, not {kind!r}")
    if kind not in variant.pending_kinds:
        known = ", ".join(sorted(variant.pending_kinds))
        raise PositionError(
            "pending", f"{variant.title} never waits for {kind!r}: it waits for one of {known}"
        )
    kind = _KINDS[kind]
    if pending_seat:
        s.pending = (kind, _seat("pending", pending_seat, n))
    elif kind in SEATLESS:
        s.pending = (kind, -1)
    else:
        raise PositionError("pending", f"{kind!r} needs a seat: pending={kind}:<seat>")
    if f["dir"] not in ("+", "-"):
        raise PositionError("dir", "expected + (clockwise) or - (counter-clockwise)")
    s.direction = 1 if f["dir"] == "+" else -1
    s.colour = _colour("colour", f["colour"], variant)
    s.discard = _card_list("discard", f["discard"], variant)
    hands = f["hands"].split("/")
    if len(hands) != n:
        raise PositionError("hands", f"{len(hands)} hands for {n} players (separate them by /)")
    s.hands = tuple(_card_list("hands", hand, variant) for hand in hands)
    if "drawn" in f:
        drawn = _card_list("drawn", f["drawn"], variant)
        if len(drawn) > 1:
            raise PositionError("drawn", f"one card is drawn, not {len(drawn)}")
        s.drawn = drawn[0] if drawn else None
    if "exposed" in f:
        s.exposed = _seat("exposed", f["exposed"], n)
    if "w4" in f:
        parts = f["w4"].split(";")
        if len(parts) != 3:
            raise PositionError("w4", "expected offender;colour before;their hand")
        s.w4 = (  # type: ignore[assignment]
            _seat("w4", parts[0], n),
            _colour("w4", parts[1], variant),
            _card_list("w4", parts[2], variant),
        )
    zeros = ",".join(["0"] * n)
    s.scores = tuple(_int("scores", v, 0) for v in f.get("scores", zeros).split(","))
    s.hands_won = tuple(_int("won", v, 0) for v in f.get("won", zeros).split(","))
    for field, values in (("scores", s.scores), ("won", s.hands_won)):
        if len(values) != n:
            raise PositionError(field, f"{len(values)} numbers for {n} players")
    s.reshuffles = _int("reshuffles", f.get("reshuffles", "0"), 0)
    s.shown = frozenset(_seats("shown", f.get("shown", ""), n))
    if "winner" in f:
        s.winner = _seat("winner", f["winner"], n)
    s.placings = _seats("placings", f.get("placings", ""), n)
    s.ranks = tuple(_int("ranks", v, 1, n) for v in f["ranks"].split(",")) if "ranks" in f else ()
    codec = extra_codec(name)
    s.extra = default_extra(variant, n, s.options)
    if "extra" in f:
        if codec is None:
            raise PositionError("extra", f"{variant.title} keeps no state of its own")
        try:
            s.extra = codec.read(f["extra"])
        except (ValueError, KeyError, TypeError, IndexError) as exc:
            raise PositionError("extra", f"unreadable edition state ({exc})") from None
        except RecursionError:
            raise PositionError("extra", "unreadable edition state (nested too deep)") from None
    s.pile = _pile(s, variant, f["pile"])
    s.pos = 0
    _check(s, variant)
    if not recorded:
        _reachable(s, variant)
        _reachable_scores(s)
        for part, problem, seat in variant.unreachable(s):
            raise PositionError(part, problem, seat=seat)
    return s


def _pile(s: GameState, variant: Variant, value: str) -> tuple[str, ...]:
    placed = [c for hand in s.hands for c in hand] + list(s.discard)
    if value != REST:
        return _card_list("pile", value, variant)
    rest = Counter(variant.deck_for(s.options))
    rest.subtract(placed)
    if any(count < 0 for count in rest.values()):
        _conserved(s, variant, placed)  # raises, naming the card
    gen = rng(s, "position", s.hand_number)
    return tuple(shuffled(gen, sorted(rest.elements())))


def _conserved(s: GameState, variant: Variant, cards: list[str]) -> None:
    have, want = Counter(cards), Counter(variant.deck_for(s.options))
    for code in sorted(have):  # a card created first: it tells more than the one it displaced
        if have[code] > want[code]:
            raise PositionError(
                "cards",
                f"{code} is there {have[code]} times; a {variant.title} deck has "
                f"{want[code]} (a card created)",
            )
    for code in sorted(want):
        if have[code] < want[code]:
            raise PositionError(
                "cards",
                f"{code} is there {have[code]} times; a {variant.title} deck has "
                f"{want[code]} (a card lost: put it in a hand, the discard or the pile)",
            )


# The moments with no hand being played: before the game, between hands, after it.
_NO_HAND_IN_PLAY = (Pending.START, Pending.DEAL, Pending.OVER, Pending.SHEET)


def _check(s: GameState, variant: Variant) -> None:
    """Refuse a position that no game could reach, naming the field."""
    n = s.players
    kind, seat = s.pending
    if s.hand_number > 0 or s.discard or any(s.hands) or s.pile:
        _conserved(s, variant, s.all_cards())
    if (kind == Pending.OVER) != (s.winner is not None):
        raise PositionError("winner", "a finished game (pending=over) has a winner, and only it")
    if kind == Pending.OVER and (len(s.placings) != n or sorted(s.placings) != list(range(n))):
        raise PositionError("placings", "a finished game places every seat once")
    if kind == Pending.OVER and len(s.ranks) != n:
        raise PositionError("ranks", f"a finished game ranks all {n} seats")
    if s.discard and s.colour is None and kind not in (Pending.COLOUR, Pending.START):
        raise PositionError("colour", "a card is in play, so a colour is")
    if kind not in _NO_HAND_IN_PLAY and not s.sheet and not s.discard:
        raise PositionError("discard", "a hand being played has a card on the discard pile")
    if s.drawn is not None and kind != Pending.DRAWN:
        raise PositionError(
            "drawn", "a card just drawn is named only while its player may play it (pending=drawn)"
        )
    if s.drawn is not None and (seat < 0 or s.drawn not in s.hands[seat]):
        raise PositionError("drawn", f"the card just drawn is not in seat {seat}'s hand")
    if kind == Pending.DRAWN and s.drawn is None:
        raise PositionError("drawn", f"seat {seat} just drew: name the card (drawn=...)")
    if s.w4 is not None and (not s.discard or s.discard[-1] != "W4"):
        raise PositionError("w4", "a Wild Draw 4 to challenge is on top of the discard pile")
    if kind == Pending.CHALLENGE and s.w4 is None:
        raise PositionError("w4", "a challenge needs the Wild Draw 4's offender (w4=...)")
    if s.exposed is not None and len(s.hands[s.exposed]) != 1 and kind != Pending.OVER:
        raise PositionError("exposed", f"seat {s.exposed} can only be caught holding one card")
    for problem in variant.invariants(s):
        raise PositionError("extra", problem)
    if not s.sheet and kind not in (Pending.START, Pending.OVER) and not at_rest(s):
        raise PositionError("pending", f"seat {seat} has nothing it may do while {kind!r}")


# The commands that answer no wait: a seat may send them whatever the game waits for.
_NOT_ANSWERS = frozenset({"call_uno", "catch"})


def _reachable(s: GameState, variant: Variant) -> None:
    """Refuse what ``_check`` lets by, for a position to set up, that no game reaches (a
    position a game recorded is read back without these checks, so it replays as it was)."""
    n = s.players
    kind, seat = s.pending
    if kind in SEATLESS and seat != -1:
        raise PositionError("pending", f"{kind!r} is waited for with no seat: pending={kind}")
    if s.sheet and kind not in (Pending.SHEET, Pending.OVER):
        raise PositionError(
            "pending",
            "a score sheet's game waits only for the next hand's scores (pending=sheet) or is "
            "over (pending=over): its cards are played at the table",
        )
    if kind == Pending.SHEET and not s.sheet:
        raise PositionError("pending", "only a score sheet's game (sheet=1) waits for one")
    if 0 <= seat < n and kind not in _NO_HAND_IN_PLAY:
        answers = [c for c in legal_commands(s, seat) if c.type not in _NOT_ANSWERS]
        if not answers:
            raise PositionError(
                "pending", f"seat {seat} has nothing it may do while {kind!r}", seat=seat
            )
    if s.w4 is not None:
        offender, before, hand = s.w4
        if before is None:
            raise PositionError("w4", "the colour in play before the Wild Draw 4 is a colour")
        if Counter(hand) - Counter(s.hands[offender]):
            raise PositionError(
                "w4",
                f"the hand seat {offender} held when playing the Wild Draw 4 has cards it does "
                "not hold now (a catch since may only have added some)",
                seat=offender,
            )
    if kind != Pending.OVER and (s.placings or s.ranks):
        part = "placings" if s.placings else "ranks"
        raise PositionError(part, "only a finished game (pending=over) has placings and ranks")
    if kind == Pending.OVER and s.winner != s.placings[0]:
        raise PositionError("placings", f"the winner, seat {s.winner}, is placed first")
    if kind == Pending.OVER:
        # As the engine ranks them: 1 for the first placed, then each seat either tied with the
        # seat placed before it or ranked by its place.
        for place, placed in enumerate(s.placings):
            rank = s.ranks[placed]
            tied = place > 0 and rank == s.ranks[s.placings[place - 1]]
            if rank != place + 1 and not tied:
                raise PositionError(
                    "ranks",
                    f"seat {placed}, placed {place + 1}, is ranked {rank}: a seat is ranked by "
                    "its place, or as the seat placed before it when they tie",
                    seat=placed,
                )


def _reachable_scores(s: GameState) -> None:
    """Refuse scores a game still being played cannot have: the game would be over."""
    if s.pending[0] == Pending.OVER:
        return
    scores, target = s.scores, s.target
    if s.scoring == "none":
        for seat, score in enumerate(scores):
            if score:
                raise PositionError(
                    "scores", f"seat {seat} has {score} points in a game that keeps none", seat
                )
        return
    high = max(scores)
    if high < target:
        return
    seat = scores.index(high)
    if s.scoring == "standard":
        # Only the player who goes out scores, and the game ends when that reaches the target.
        raise PositionError(
            "scores",
            f"seat {seat} has {high} points, the target is {target}: with standard scoring "
            "the game would be over",
            seat,
        )
    low = min(scores)
    if scores.count(low) == 1:  # alternative scoring: a tie for the lowest plays on
        raise PositionError(
            "scores",
            f"seat {seat} has {high} points, the target is {target}, and seat "
            f"{scores.index(low)} alone has the lowest total: with alternative scoring the "
            "game would be over",
            seat,
        )


# Starting a game from a position ---------------------------------------------------------------


@register_event
@dataclass(frozen=True, slots=True)
class PositionSetUp(Event):
    """A game set up from a position (every card shown, the pile in order): recorded like a
    deal, and hidden like one (each seat sees only its own hand)."""

    type: ClassVar[str] = "position_set_up"
    position: str

    def redacted(self, viewer: int | None) -> dict[str, Any]:
        state = parse_position(self.position, recorded=True)
        return {"type": self.type, "position": format_position(state, viewer)}


@applies(PositionSetUp)
def _position_set_up(s: GameState, e: PositionSetUp) -> None:
    set_up = parse_position(e.position, recorded=True)
    for name in GameState.__slots__:
        if name != "version":
            setattr(s, name, getattr(set_up, name))


def start_from(text: str, *, seed: str | None = None) -> tuple[GameState, list[Event]]:
    """Start a game from a position: the state and the event that made it (version 1). The
    event records the position in full (``pile=*`` dealt out), so replay never draws."""
    state = parse_position(text, seed=seed)
    if state.pending[0] == Pending.START:
        raise PositionError("pending", "a game set up from a position starts from a moment of play")
    event = PositionSetUp(format_position(state))
    state.version = 1
    return state, [event]
