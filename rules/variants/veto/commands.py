"""UNO VETO and Wild Customizable's commands: the play naming a Customizable card's house rule,
the VETO slap, and the answers to the house rules' choices."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from rules.commands import (
    Command,
    PlayCard,
    _card,
    _colour,
    _flag,
    _seat,
    _word,
    register_command,
    register_play,
)


@register_play
@dataclass(frozen=True, slots=True)
class VetoPlay(PlayCard):
    """Play a Wild Customizable card (``WC``) naming the house ``rule`` written on it: needed
    when the hand holds Customizable cards with different rules
    (``{"type": "play", "card": "WC", "colour": "P", "rule": "joke"}``)."""

    edition: ClassVar[str | None] = "veto"
    edition_field: ClassVar[str | None] = "rule"
    refusal: ClassVar[str] = "rule is only for Wild Customizable cards"
    rule: str | None = _word()


def _report(optional: bool = False) -> Any:
    return field(default=False, metadata={"kind": "bool", "optional": optional})


@register_command
@dataclass(frozen=True, slots=True)
class SlapVeto(Command):
    """Slap the VETO card on another player, ``target``, at any time during a hand while it
    lies in the middle: they skip their next turn. The API took the target as ``seat`` before
    ``target``; it still takes that name."""

    type: ClassVar[str] = "veto"
    edition: ClassVar[str | None] = "veto"
    bot_rate: ClassVar[float] = 0.05  # a random bot slaps rarely, or hands would drag on
    target: int = _seat(json="target", old="seat")


@register_command
@dataclass(frozen=True, slots=True)
class NameColour(Command):
    """Name the colour the next player draws until (house rule ``draw_until_colour``)."""

    type: ClassVar[str] = "name_colour"
    edition: ClassVar[str | None] = "veto"
    colour: str | None = _colour(optional=False)


@register_command
@dataclass(frozen=True, slots=True)
class DiscardCard(Command):
    """Discard one card under a house rule that makes you discard down to a number of cards
    (one command per card). ``rule``: which Customizable card, when the hand holds several."""

    type: ClassVar[str] = "discard"
    edition: ClassVar[str | None] = "veto"
    card: str = _card()
    rule: str | None = _word()


@register_command
@dataclass(frozen=True, slots=True)
class ReportJoke(Command):
    """Report whether someone laughed at the joke (the player who told it, or a referee)."""

    type: ClassVar[str] = "report_joke"
    edition: ClassVar[str | None] = "veto"
    laughed: bool = _report()


@register_command
@dataclass(frozen=True, slots=True)
class DiscardAllButOne(Command):
    """Someone laughed at the joke: keep ``card`` and discard the rest of the hand (``rule``:
    which Customizable card, when it is one of several); ``uno``: call UNO. Its type in the
    API is ``keep_card``."""

    type: ClassVar[str] = "keep_card"
    edition: ClassVar[str | None] = "veto"
    card: str = _card()
    rule: str | None = _word()
    uno: bool = _flag()


@register_command
@dataclass(frozen=True, slots=True)
class ReportRooster(Command):
    """Report the rooster call: ``performed``, or chickened out (and draw 4)."""

    type: ClassVar[str] = "report_rooster"
    edition: ClassVar[str | None] = "veto"
    performed: bool = _report()
