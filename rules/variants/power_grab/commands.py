"""UNO Power Grab's commands: the play naming the towers a grab card grabs, blocking or taking
an action card, and Instant UNO's choice of the card to keep."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rules.commands import Command, PlayCard, _card, _flag, _words, register_command, register_play


@register_play
@dataclass(frozen=True, slots=True)
class PowerGrabPlay(PlayCard):
    """Play a Grab-2-Towers (``RG2``) or Wild Grab-A-Tower (``WG``) naming the ``towers`` it
    grabs: ``{"type": "play", "card": "WG", "colour": "R", "towers": ["N"]}``. A grab card
    played with nothing to name (the last card, or no tower left to grab) is a plain
    ``PlayCard``."""

    edition: ClassVar[str | None] = "power_grab"
    edition_field: ClassVar[str | None] = "towers"
    refusal: ClassVar[str] = "towers are only for Power Grab cards"
    towers: tuple[str, ...] = _words()


@register_command
@dataclass(frozen=True, slots=True)
class Block(Command):
    """Block the action card just played on you with the Power Tower that protects against it."""

    type: ClassVar[str] = "block"
    edition: ClassVar[str | None] = "power_grab"


@register_command
@dataclass(frozen=True, slots=True)
class Take(Command):
    """Do not block: draw the cards and lose the turn (or just lose it, for a Skip)."""

    type: ClassVar[str] = "take"
    edition: ClassVar[str | None] = "power_grab"


@register_command
@dataclass(frozen=True, slots=True)
class ClaimInstantUno(Command):
    """Instant UNO (holding all four towers): keep ``card`` and discard the rest of the hand.
    ``uno``: call UNO with it. Its type in the API is ``keep``."""

    type: ClassVar[str] = "keep"
    edition: ClassVar[str | None] = "power_grab"
    card: str = _card()
    uno: bool = _flag()
