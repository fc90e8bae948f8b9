"""Cards as a referee writes them on the set-up form: "red 7", "blue skip", "green draw two",
"wild draw 4", or their codes (R7, BS, GD2, W4), separated by commas; read back to the
cards of the edition (the form and the editions' own set-up fields both read them here)."""

from __future__ import annotations

import re
from functools import cache

from rules.cards import COLOUR_NAMES, card_info, describe
from rules.variants import get_variant

# The ways a card's number, symbol or mark may be written, besides its code.
_NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
_RANK_WORDS = {
    "S": ("skip",),
    "V": ("reverse",),
    "D1": ("draw one", "draw 1", "+1"),
    "D2": ("draw two", "draw 2", "+2"),
    "G2": ("grab two towers", "grab 2 towers", "grab two", "grab 2"),
}
_WILD_WORDS = {
    "W": ("wild",),
    "W4": ("wild draw four", "wild draw 4", "wild +4", "draw four", "draw 4", "+4"),
    "WM": ("mod", "wild mod"),
    "WC": ("wild customizable", "customizable", "wild customisable", "customisable"),
    "WG": ("wild grab a tower", "wild grab", "grab a tower"),
}
_MARK_WORDS = {
    "~": ("spin", "swirl"),
    "U": ("u icon", "u"),
    "N": ("n icon", "n"),
    "O": ("o icon", "o"),
    "!": ("! icon", "!"),
}
_SEPARATORS = re.compile(r"[,;\n]")
# What the form's text says between the words of a card: brackets and dashes are spaces.
_PUNCTUATION = str.maketrans({"(": " ", ")": " ", "-": " ", "_": " ", '"': " ", "'": " "})
CARDS_HELP = (
    'Write cards as they look, separated by commas: "red 7", "blue skip", "green draw two", '
    '"wild draw 4" (or their codes: R7, BS, GD2, W4).'
)


def _plain(text: str) -> str:
    return " ".join(text.lower().translate(_PUNCTUATION).split())


@cache
def card_phrases(variant: str) -> dict[str, str]:
    """Every way the form takes a card of ``variant`` (in lower case, brackets and dashes as
    spaces), to its code: the code, the card in words as the pages say it, and the usual
    other ways of saying it ("draw 2", "+4", "seven")."""
    phrases: dict[str, str] = {}
    for code in dict.fromkeys(get_variant(variant).deck):
        info = card_info(code)
        said = [_plain(code), _plain(describe(code))]
        if info.colour is None:
            said += _WILD_WORDS.get(code, ())
        else:
            colour = COLOUR_NAMES[info.colour]
            ranks = list(_RANK_WORDS.get(info.rank, (info.rank,)))
            if info.number is not None:
                ranks.append(_NUMBER_WORDS[info.number])
            marks = _MARK_WORDS[info.mark] if info.mark else ("",)
            said += [f"{colour} {rank} {mark}".strip() for rank in ranks for mark in marks]
        for phrase in said:
            phrases.setdefault(phrase, code)
    return phrases


def cards_from_words(text: str, variant: str) -> tuple[str, ...]:
    """The cards ``text`` names, separated by commas (or, for codes, by spaces too), in
    order; a ``ValueError`` naming, in the players' words, the first piece that is no card of
    the edition."""
    phrases = card_phrases(variant)
    cards: list[str] = []
    for piece in _SEPARATORS.split(text):
        said = _plain(piece)
        if not said:
            continue
        code = phrases.get(said)
        if code is not None:
            cards.append(code)
            continue
        words = [phrases.get(word) for word in said.split()]
        if len(words) > 1 and all(words):
            cards += [word for word in words if word]
            continue
        # Codes separated by spaces, one of them no card ("R7 X9"): that one.
        if len(words) > 1 and any(words):
            typed = piece.translate(_PUNCTUATION).split()
            piece = next(w for w, code in zip(typed, words, strict=True) if not code)
        edition = get_variant(variant)
        colours = [COLOUR_NAMES[c] for c in edition.colours]
        its = f"its colours are {', '.join(colours[:-1])} and {colours[-1]}"
        raise ValueError(
            f"“{piece.strip()}” is not a card of {edition.title} ({its}). {cards_help(variant)}"
        )
    return tuple(cards)


@cache
def cards_help(variant: str) -> str:
    """How to write ``variant``'s cards, with examples from its own deck ("purple 7", "orange
    skip" for UNO VETO)."""
    deck = list(dict.fromkeys(get_variant(variant).deck))
    number = next((c for c in deck if card_info(c).number == 7 and not card_info(c).mark), None)
    first = card_info(number).colour if number else None
    action = next(
        (
            c
            for c in deck
            if card_info(c).colour not in (None, first)
            and card_info(c).number is None
            and not card_info(c).mark
        ),
        None,
    )
    wild = next((c for c in deck if card_info(c).colour is None), None)
    examples = [c for c in (number, action, wild) if c]
    said = ", ".join(f'"{describe(c)}"' for c in examples)
    codes = ", ".join(examples)
    return f"Write cards as they look, separated by commas: {said} (or their codes: {codes})."
