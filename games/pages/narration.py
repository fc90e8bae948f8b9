"""Events and commands in players' words: the table page's log and buttons, the replay viewer.

The words themselves live with each edition (``games.pages.editions``): classic UNO's for the
events and commands every edition has, and each edition's own. ``event_text`` and
``command_text`` take the game's variant; without one they use every edition's words (a type
belongs to one edition, so its words are the same).

Works on the JSON shapes (``Event.to_dict`` or ``redacted``, ``Command.to_dict``), so a seat's
page words exactly what that seat may know: a redacted field (``None``) is never guessed at.
Cards are named by ``rules.cards.describe`` ("red 7", "wild draw four").
"""

from __future__ import annotations

from typing import Any, ClassVar

from games.pages.editions import EDITIONS, Edition, edition_for
from games.pages.editions.classic import Classic
from games.pages.editions.veto import rule_words
from games.pages.editions.words import Namer, Words, cards_words, colour_word


class _EveryEdition(Classic):
    """Every edition's words at once (for words asked for without a variant)."""

    name = ""
    events: ClassVar[dict[str, Words]] = {
        k: v for e in EDITIONS.values() for k, v in e.events.items()
    }
    commands: ClassVar[dict[str, Words]] = {
        k: v for e in EDITIONS.values() for k, v in e.commands.items()
    }
    pending: ClassVar[dict[str, str]] = {
        k: v for e in EDITIONS.values() for k, v in e.pending.items()
    }
    your_move: ClassVar[dict[str, str]] = {
        k: v for e in EDITIONS.values() for k, v in e.your_move.items()
    }
    quiet = frozenset().union(*(e.quiet for e in EDITIONS.values()))

    def __init__(self) -> None:
        self.events = {
            **self.events,
            "choice_offered": lambda d, n: (
                f"{n.cap(d['seat'])} {self.pending.get(d['choice'], d['choice'])}."
            ),
        }

    def play_parts(self, data: dict[str, Any], name: Namer) -> list[str]:
        parts: list[str] = []
        for edition in EDITIONS.values():
            parts += [p for p in edition.play_parts(data, name) if p not in parts]
        return parts


EVERY_EDITION = _EveryEdition()

# Events that say nothing a player needs in a short log (the table's log leaves them out; the
# replay viewer shows every event).
QUIET = EVERY_EDITION.quiet
PENDING_WORDS = EVERY_EDITION.pending
YOUR_MOVE = EVERY_EDITION.your_move
_EVENTS = EVERY_EDITION.events


def _edition(variant: str | None) -> Edition:
    return EVERY_EDITION if variant is None else edition_for(variant)


def event_text(data: dict[str, Any], name: Namer, variant: str | None = None) -> str:
    """One event (its JSON shape, redacted or not) in words."""
    return _edition(variant).event_text(data, name)


def command_text(data: dict[str, Any], name: Namer, variant: str | None = None) -> str:
    """A command a seat may send (its JSON shape), as the words on its button."""
    return _edition(variant).command_text(data, name)


__all__ = [
    "PENDING_WORDS",
    "QUIET",
    "YOUR_MOVE",
    "Namer",
    "cards_words",
    "colour_word",
    "command_text",
    "event_text",
    "rule_words",
]
