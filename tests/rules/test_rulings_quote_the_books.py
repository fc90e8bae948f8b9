"""docs/RULINGS.md quotes the rulebooks word for word: every quoted passage of a ruling (the
lines starting with ``> ``; several passages of one ruling between ``"…" · "…"``, with a label
such as ``(Spin)`` or ``Draw One:`` before one; ``…`` for words left out) is in one of the
books, so a ruling never rests on words the book does not say. Without the books beside the
project the check is skipped, saying so (``tests.beside``)."""

import re
from pathlib import Path

from tests.beside import need
from tests.rules.scenarios.support import BOOKS, _words

ROOT = Path(__file__).resolve().parents[2]
_LABEL = r"(?:\([^)]*\)\s*)?(?:[A-Z][\w\- ]*:\s*)?"
# Between two passages: the closing quote, a separator, a label, the opening quote.
_BETWEEN = re.compile(rf'"\s*(?:[·;/]\s*)?{_LABEL}"')
_FIRST = re.compile(rf'^\s*{_LABEL}"')
_LAST = re.compile(r'"\s*(?:\([^)]*\))?\s*$')


def quoted_passages(text: str) -> list[tuple[str, str]]:
    """Each (ruling heading, passage) quoted in ``text``, split at ``…``."""
    out, run, heading = [], [], ""
    for line in [*text.splitlines(), ""]:
        if line.startswith("### "):
            heading = line[4:]
        if line.startswith(">"):
            run.append(line[1:].strip())
            continue
        if run:
            quote = _LAST.sub("", _FIRST.sub("", _words(" ".join(run)), count=1))
            for passage in _BETWEEN.split(quote):
                out += [(heading, part.strip()) for part in passage.split("…") if part.strip()]
            run = []
    return out


def test_the_quotes_are_split_into_the_books_passages():
    text = '### X1. A\n> "One … two" · (Spin) "three"; Draw One: "four (five)" (SETUP)\n\nx\n'
    assert quoted_passages(text) == [
        ("X1. A", "One"),
        ("X1. A", "two"),
        ("X1. A", "three"),
        ("X1. A", "four (five)"),
    ]


def test_every_ruling_quotes_the_books_word_for_word():
    names = ("uno-mod.txt", "uno-power-grab.txt", "uno-spin.txt", "uno-veto-customizable.txt")
    for name in names:
        need(BOOKS / name, f"the rulebook {name}")
    books = " ".join(_words((BOOKS / name).read_text()) for name in names)
    passages = quoted_passages((ROOT / "docs" / "RULINGS.md").read_text())

    assert len(passages) > 100  # (the rulings of all five rule sets)
    assert [f"{ruling}: {p!r}" for ruling, p in passages if p not in books] == []
