"""Card faces: how the pages draw a card (colour, big symbol, code, words) and sort a hand."""

from __future__ import annotations

from dataclasses import dataclass

from rules.cards import COLOUR_NAMES, card_info, describe

COLOUR_ORDER = {c: i for i, c in enumerate("RGBYPO")}
RANK_ORDER = {
    r: i
    for i, r in enumerate(
        ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "S", "V", "D1", "D2", "G2"]
    )
}
SYMBOLS = {
    "S": "⊘",
    "V": "⇄",
    "D1": "+1",
    "D2": "+2",
    "G2": "G2",
    "W": "W",
    "W4": "+4",
    "WM": "MOD",
    "WC": "WC",
    "WG": "WG",
}


@dataclass(frozen=True, slots=True)
class CardFace:
    """A card as the page draws it: its colour class, big symbol, code and words."""

    code: str
    colour: str  # a colour letter, or "W" for a wild
    symbol: str
    label: str
    mark: str  # "↻" for a Spin card, the Power Icon letter, or ""

    @property
    def colour_name(self) -> str:
        return COLOUR_NAMES.get(self.colour, "wild")


def card_face(code: str) -> CardFace:
    """The face of the card ``code`` (``describe`` gives screen readers its words)."""
    info = card_info(code)
    symbol = SYMBOLS.get(info.rank, info.rank)
    mark = "↻" if info.mark == "~" else (info.mark or "")
    return CardFace(code, info.colour or "W", symbol, describe(code), mark)


def sort_key(code: str) -> tuple[int, int, str]:
    """A hand's order: by colour, then rank; wilds last."""
    info = card_info(code)
    if info.colour is None:
        return (len(COLOUR_ORDER), 0, code)
    return (COLOUR_ORDER[info.colour], RANK_ORDER.get(info.rank, 99), code)
