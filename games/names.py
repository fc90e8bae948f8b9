"""People's names as the service keeps and compares them.

A name is kept as typed, stripped and in one Unicode normal form (NFC), so that "Dée" typed with
a composed or a decomposed é is one string. Two names are one person's when they differ only in
capitals or in compatibility forms (NFKC: a full-width "Ｃｙ" is "Cy"): a table, a league or a
tournament never holds both.
"""

from __future__ import annotations

import unicodedata


def clean_name(value: str) -> str:
    """``value`` as a name is kept: stripped, in NFC."""
    return unicodedata.normalize("NFC", value.strip())


def name_key(name: str) -> str:
    """What two names are compared by: NFKC, then casefolded."""
    return unicodedata.normalize("NFKC", name).casefold()
