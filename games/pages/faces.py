"""Card faces: how the pages draw a card (colour, big symbol, its name or number, a mark, and
words for screen readers) and sort a hand.

Each edition's module (``games.pages.editions``) says how its special cards look; a card code
belongs to one edition's deck, so the faces of all editions together draw any card. A face never
shows the card's code ("W4", "BG2"): a number card shows its number, any other card its
symbol and its name."""

from __future__ import annotations

from dataclasses import dataclass

from games.pages.editions import EDITIONS, Face
from rules.cards import COLOUR_NAMES, card_info, describe

COLOUR_ORDER = {c: i for i, c in enumerate("RGBYPO")}
RANK_ORDER = {
    r: i
    for i, r in enumerate(
        ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "S", "V", "D1", "D2", "G2"]
    )
}
FACES: dict[str, Face] = {k: v for e in EDITIONS.values() for k, v in e.faces.items()}
MARKS: dict[str, tuple[str, str]] = {k: v for e in EDITIONS.values() for k, v in e.marks.items()}


@dataclass(frozen=True, slots=True)
class CardFace:
    """A card as the page draws it: its colour class, big symbol, its name (or number) in the
    corner, the mark of a Spin card or a Power Icon, and its words."""

    code: str  # for the page's form values and tests, never shown
    colour: str  # a colour letter, or "W" for a wild
    symbol: str
    word: str  # the card's name ("Skip", "Grab 2 Towers"), or "" for a number card
    label: str  # the card in words ("blue grab two towers")
    mark: str  # "↻" for a Spin card, the Power Icon letter, or ""
    mark_word: str = ""  # the mark in words ("Spin", "U tower")

    @property
    def colour_name(self) -> str:
        return COLOUR_NAMES.get(self.colour, "wild")

    @property
    def corner(self) -> str:
        """What the card's corner shows: its number or symbol."""
        return self.symbol


def card_face(code: str) -> CardFace:
    """The face of the card ``code`` (``describe`` gives screen readers its words)."""
    info = card_info(code)
    face = FACES.get(info.rank, Face(info.rank, ""))
    mark, mark_word = MARKS.get(info.mark or "", ("", ""))
    label = describe(code)  # (its words name the mark too: "blue 5 (spin)", "red 5 (U icon)")
    return CardFace(code, info.colour or "W", face.symbol, face.word, label, mark, mark_word)


def sort_key(code: str) -> tuple[int, int, str]:
    """A hand's order: by colour, then rank; wilds last."""
    info = card_info(code)
    if info.colour is None:
        return (len(COLOUR_ORDER), 0, code)
    return (COLOUR_ORDER[info.colour], RANK_ORDER.get(info.rank, 99), code)
