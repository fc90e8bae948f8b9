"""UNO Spin's commands: spinning the wheel, discarding as it says, claiming an UNO Spin."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from rules.commands import Command, register_command


@register_command
@dataclass(frozen=True, slots=True)
class SpinWheel(Command):
    """Spin the wheel (the player after a Spin card, instead of their turn)."""

    type: ClassVar[str] = "spin"
    edition: ClassVar[str | None] = "spin"


@register_command
@dataclass(frozen=True, slots=True)
class WheelDiscard(Command):
    """Discard ``cards`` as the wheel allows, in this order: the last one lands on top of the
    discard pile. ``colour``: the colour called when that top card is a wild. ``uno``: the
    player calls UNO as the discard leaves one card."""

    type: ClassVar[str] = "wheel_discard"
    edition: ClassVar[str | None] = "spin"
    cards: tuple[str, ...] = field(default=(), metadata={"kind": "cards", "optional": False})
    colour: str | None = field(default=None, metadata={"kind": "colour", "optional": True})
    uno: bool = field(default=False, metadata={"kind": "bool", "optional": True})


@register_command
@dataclass(frozen=True, slots=True)
class WheelLay(Command):
    """Discard Number or Discard Colour: put ``card`` down and go on discarding cards of its
    number (or colour). The discard ends with a ``wheel_discard``, whose last card lands on
    top; a card is laid only while another of the number (or colour) is left to discard."""

    type: ClassVar[str] = "wheel_lay"
    edition: ClassVar[str | None] = "spin"
    card: str = field(default="", metadata={"kind": "card", "optional": False})


@register_command
@dataclass(frozen=True, slots=True)
class WheelKeep(Command):
    """Almost UNO: keep ``cards``, one card at a time (the first, then the second; the legal
    list offers them so), or both at once, and discard the rest. A ``wheel_discard`` of the
    rest then says which of them lands on top (unless they are all the same card: then they
    are discarded as the second is kept)."""

    type: ClassVar[str] = "wheel_keep"
    edition: ClassVar[str | None] = "spin"
    cards: tuple[str, ...] = field(default=(), metadata={"kind": "cards", "optional": False})


@register_command
@dataclass(frozen=True, slots=True)
class ClaimUnoSpin(Command):
    """Yell "UNO Spin": the first claim appended wins the race (any seat holding a card)."""

    type: ClassVar[str] = "claim_uno_spin"
    edition: ClassVar[str | None] = "spin"
