"""People's names as the service keeps and compares them.

A name is kept as typed, stripped and in one Unicode normal form (NFC), so that "Dée" typed with
a composed or a decomposed é is one string. Two names are one person's when they differ only in
capitals or in compatibility forms (NFKC: a full-width "Ｃｙ" is "Cy"): a table, a league or a
tournament never holds both. A name is shown as written, at the start of a sentence too
(``sentence_start``).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable


def clean_name(value: str) -> str:
    """``value`` as a name is kept: stripped, in NFC."""
    return unicodedata.normalize("NFC", value.strip())


def name_key(name: str) -> str:
    """What two names are compared by: NFKC, then casefolded."""
    return unicodedata.normalize("NFKC", name).casefold()


def sentence_start(text: str, names: Iterable[str] = ()) -> str:
    """``text`` at the start of a sentence: its first letter capitalised ("The tournament is
    over"), unless it starts with one of ``names``, which is shown as written ("de Vries is
    already entered"), as the game log shows a name starting a line."""
    for name in names:
        if name and text.startswith(name) and not text[len(name) : len(name) + 1].isalnum():
            return text
    return text[:1].upper() + text[1:]
