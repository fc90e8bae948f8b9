"""People's names as the service keeps and compares them.

A name is kept as typed, stripped, without characters that show nothing (a zero-width space,
a soft hyphen, a direction override) and in one Unicode normal form (NFC), so that "Dée" typed
with a composed or a decomposed é is one string. Two names are one person's when they differ only in
capitals or in compatibility forms (NFKC: a full-width "Ｃｙ" is "Cy"): a table, a league or a
tournament never holds both. A name is shown as written, at the start of a sentence too
(``sentence_start``).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

# The joiners some scripts and emoji spell words with, kept between two letters or marks.
_JOINERS = frozenset("\u200c\u200d")


def _shown(text: str) -> str:
    """``text`` without the characters that show nothing (Unicode's format characters: a
    zero-width space, a soft hyphen, a word joiner, a right-to-left override), which would
    make "Ann" and "Ann" two names, or a blank one; a joiner inside a word stays."""
    kept = []
    for i, char in enumerate(text):
        if unicodedata.category(char) != "Cf":
            kept.append(char)
        elif char in _JOINERS and 0 < i < len(text) - 1 and _in_word(text[i - 1], text[i + 1]):
            kept.append(char)
    return "".join(kept)


def _in_word(before: str, after: str) -> bool:
    return all(unicodedata.category(c)[0] in "LMS" for c in (before, after))


def clean_name(value: str) -> str:
    """``value`` as a name is kept: without characters that show nothing, stripped, in NFC
    (an empty string when nothing shows: the caller refuses it)."""
    return unicodedata.normalize("NFC", _shown(value).strip())


def name_key(name: str) -> str:
    """What two names are compared by: without characters that show nothing, NFKC, then
    casefolded (names kept before they were cleaned so compare as they look)."""
    return unicodedata.normalize("NFKC", _shown(name)).casefold()


def sentence_start(text: str, names: Iterable[str] = ()) -> str:
    """``text`` at the start of a sentence: its first letter capitalised ("The tournament is
    over"), unless it starts with one of ``names``, which is shown as written ("de Vries is
    already entered"), as the game log shows a name starting a line."""
    for name in names:
        if name and text.startswith(name) and not text[len(name) : len(name) + 1].isalnum():
            return text
    return text[:1].upper() + text[1:]
