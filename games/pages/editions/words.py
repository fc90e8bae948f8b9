"""What every edition's words are made of: seat names (``Namer``), colours and cards in words.

The editions' modules (``games.pages.editions.*``) build their event and command words from
these; ``games.pages.narration`` re-exports them for the pages."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from rules.cards import COLOUR_NAMES, describe
from rules.errors import InvalidCard

# Each scoring mode in words, for the pages that show or ask for one.
SCORING_WORDS = {
    "standard": "standard scoring (the player who goes out scores the cards left in the other "
    "hands; the first to the target wins)",
    "alternative": "alternative scoring (each player adds up the cards left in their own hand; "
    "when someone reaches the target, the lowest total wins)",
    "none": "no scoring (the first player out wins)",
}
# The same, in two words, where the rules are named in a line ("no scoring", not "none scoring").
SCORING_SHORT = {
    "standard": "standard scoring",
    "alternative": "alternative scoring",
    "none": "no scoring",
}


def scoring_choices() -> list[tuple[str, str]]:
    """Each scoring mode and its words, for a form's choice."""
    return [(name, words.capitalize()) for name, words in SCORING_WORDS.items()]


class Namer:
    """Seat numbers to names; the viewer's own seat is marked "(you)" (the verbs of the log
    stay in the third person). A name is shown as written, at the start of a line too ("de
    Vries deals."); only the words standing for one ("the referee", "your") are capitalised
    there."""

    def __init__(self, names: Sequence[str], viewer: int | None = None) -> None:
        self.names = list(names)
        self.viewer = viewer

    def __call__(self, seat: int | None) -> str:
        if seat is None or seat < 0:
            return "the referee"
        name = self.names[seat] if seat < len(self.names) else f"player {seat + 1}"
        return f"{name} (you)" if seat == self.viewer else name

    def _named(self, seat: int | None) -> bool:
        """Whether ``seat`` is shown by its player's name."""
        return seat is not None and 0 <= seat < len(self.names)

    def cap(self, seat: int | None) -> str:
        """The name at the start of a sentence: as written ("de Vries"); "The referee"."""
        name = self(seat)
        return name if self._named(seat) else name[:1].upper() + name[1:]

    def whose(self, seat: int | None) -> str:
        """The possessive: "your" for the viewer's own seat, "Bob's" for another."""
        return "your" if seat is not None and seat == self.viewer else f"{self(seat)}'s"

    def whose_cap(self, seat: int | None) -> str:
        """The possessive at the start of a sentence: "Your", "de Vries's" as written."""
        words = self.whose(seat)
        if self._named(seat) and seat != self.viewer:
            return words
        return words[:1].upper() + words[1:]


# One event (its JSON shape, redacted or not) in words; one command (its JSON shape) as the
# words on its button.
Words = Callable[[dict[str, Any], Namer], str]


def colour_word(code: str | None) -> str:
    return COLOUR_NAMES.get(code or "", "no colour")


def cards_words(cards: Sequence[str] | None) -> str:
    if not cards:
        return "no cards"
    return ", ".join(describe(c) for c in cards)


def count(n: int, thing: str = "card") -> str:
    return f"{n} {thing}" if n == 1 else f"{n} {thing}s"


def card_words(code: str) -> str:
    """A card in words, capitalised for the start of a sentence (its first letter only: "Red 5
    (U icon)")."""
    words = describe(code)
    return words[:1].upper() + words[1:]


_SEAT = re.compile(r"\bseat (\d+)('s)?")
_CODE = re.compile(r"(?<![\w~:])[RGBYPOW][0-9A-Z]{0,2}(?:~|:[A-Z0-9!]+)?(?![\w~:!])")


def said_plainly(message: str, name: Namer) -> str:
    """A message of the rules (written for the API, where seats are numbers and cards codes)
    in the players' words: each "seat 2" becomes the player's name, each card code the card
    in words ("R7" -> "red 7"). Anything that is not a card code is left as it is."""

    def seat(match: re.Match[str]) -> str:
        number = int(match.group(1))
        return name.whose(number) if match.group(2) else name(number)

    def card(match: re.Match[str]) -> str:
        try:
            return describe(match.group(0))
        except InvalidCard:
            return match.group(0)

    return _CODE.sub(card, _SEAT.sub(seat, message))


def target(data: dict[str, Any]) -> int | None:
    """The seat a command is aimed at (a catch, a VETO): ``target``, which the API once called
    ``seat``."""
    value = data.get("target", data.get("seat"))
    return value if isinstance(value, int) else None
