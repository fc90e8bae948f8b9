"""Card notation: parse, format and describe cards (the contract in DESIGN.md).

A card is carried around the engine as its code, a plain ``str`` such as ``"R7"`` or ``"W4"``:
codes are what events, the API, logs and tests use, they hash fast and they are JSON as they are.
``card_info`` turns a code into a ``Card`` value with its colour, rank, mark and points.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from functools import cache

from rules.errors import InvalidCard


class Colour(StrEnum):
    RED = "R"
    GREEN = "G"
    BLUE = "B"
    YELLOW = "Y"
    PURPLE = "P"
    ORANGE = "O"


class Rank(StrEnum):
    """Ranks of coloured cards; wild cards have their own codes (see ``Wild``)."""

    ZERO = "0"
    ONE = "1"
    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    SKIP = "S"
    REVERSE = "V"
    DRAW_ONE = "D1"
    DRAW_TWO = "D2"
    GRAB_TWO = "G2"


class Wild(StrEnum):
    WILD = "W"
    DRAW_FOUR = "W4"
    MOD = "WM"
    CUSTOMIZABLE = "WC"
    GRAB_A_TOWER = "WG"


COLOUR_NAMES = {
    "R": "red",
    "G": "green",
    "B": "blue",
    "Y": "yellow",
    "P": "purple",
    "O": "orange",
}

NUMBER_RANKS = frozenset("0123456789")

# Points a card scores when left in a hand (the rulebooks' SCORING tables agree wherever a
# card appears in more than one of them).
_SYMBOL_POINTS = {"S": 20, "V": 20, "D1": 20, "D2": 20, "G2": 50}
_WILD_POINTS = {"W": 50, "W4": 50, "WM": 50, "WC": 40, "WG": 50}

_CARD_RE = re.compile(
    r"^(?:(?P<wild>W|W4|WM|WC|WG)|(?P<colour>[RGBYPO])(?P<rank>[0-9]|S|V|D1|D2|G2)(?P<mark>~|:[UNO!])?)$"
)
# The notation as a regular expression without group names, as JSON Schema (the API's) takes it.
CARD_PATTERN = re.sub(r"\(\?P<\w+>", "(", _CARD_RE.pattern)


@dataclass(frozen=True, slots=True)
class Card:
    """What a card code means."""

    code: str
    colour: str | None  # None for wild cards
    rank: str  # "0".."9", "S", "V", "D1", "D2", "G2", or the wild code itself
    mark: str | None  # "~" for a Spin card, "U"/"N"/"O"/"!" for a Power Icon
    points: int

    @property
    def is_wild(self) -> bool:
        return self.colour is None

    @property
    def is_number(self) -> bool:
        return self.rank in NUMBER_RANKS

    @property
    def number(self) -> int | None:
        return int(self.rank) if self.rank in NUMBER_RANKS else None

    def __str__(self) -> str:
        return self.code


def card_info(code: str) -> Card:
    """Parse a card code strictly; raise ``InvalidCard`` naming the code if it is not one."""
    # Checked before the cache, which would raise TypeError for a list or a dict from JSON.
    if not isinstance(code, str):
        raise InvalidCard(f"a card code must be a string, not {type(code).__name__}: {code!r}")
    return _parse_code(code)


@cache
def _parse_code(code: str) -> Card:
    m = _CARD_RE.fullmatch(code)  # not match: "$" would let "R7\n" through
    if m is None:
        raise InvalidCard(f"unknown card code {code!r}")
    wild = m.group("wild")
    if wild:
        return Card(code, None, wild, None, _WILD_POINTS[wild])
    rank = m.group("rank")
    mark = m.group("mark")
    if mark is not None:
        if rank not in NUMBER_RANKS:
            raise InvalidCard(f"unknown card code {code!r}: only number cards carry a mark")
        mark = mark.lstrip(":")
    points = int(rank) if rank in NUMBER_RANKS else _SYMBOL_POINTS[rank]
    return Card(code, m.group("colour"), rank, mark, points)


def parse_card(code: str) -> str:
    """Validate a code and return it (codes are the engine's card values)."""
    return card_info(code).code


def parse_cards(codes: object) -> tuple[str, ...]:
    """Validate a list of codes; the error names the first bad one and its position."""
    if isinstance(codes, str) or not isinstance(codes, (list, tuple)):
        raise InvalidCard(f"expected a list of card codes, got {type(codes).__name__}")
    out = []
    for i, code in enumerate(codes):
        try:
            out.append(card_info(code).code)
        except InvalidCard as exc:
            raise InvalidCard(f"card {i}: {exc}") from None
    return tuple(out)


def format_card(colour: str | None, rank: str, mark: str | None = None) -> str:
    """Build a code from its parts (the inverse of ``card_info``), checking the result."""
    if colour is None:
        code = rank
    else:
        suffix = "" if mark is None else ("~" if mark == "~" else ":" + mark)
        code = f"{colour}{rank}{suffix}"
    return card_info(code).code


def parse_colour(value: object, allowed: tuple[str, ...]) -> str:
    """Validate a colour letter against the colours a variant uses."""
    if not isinstance(value, str) or value not in allowed:
        raise InvalidCard(f"unknown colour {value!r}: expected one of {', '.join(allowed)}")
    return value


def describe(code: str) -> str:
    """A card in words, for logs and pages ("red 7", "wild draw four")."""
    info = card_info(code)
    names = {
        "S": "skip",
        "V": "reverse",
        "D1": "draw one",
        "D2": "draw two",
        "G2": "grab two towers",
        "W": "wild",
        "W4": "wild draw four",
        "WM": "mod",
        "WC": "wild customizable",
        "WG": "wild grab a tower",
    }
    rank = names.get(info.rank, info.rank)
    if info.colour is None:
        return rank
    text = f"{COLOUR_NAMES[info.colour]} {rank}"
    if info.mark == "~":
        text += " (spin)"
    elif info.mark:
        text += f" ({info.mark} icon)"
    return text
