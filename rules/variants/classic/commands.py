"""Classic UNO's commands: the core's, which every edition's game takes too (defined in
``rules.commands``; an edition's own are in its package's ``commands``)."""

from __future__ import annotations

from rules.commands import (
    Accept,
    CallUno,
    Catch,
    Challenge,
    ChooseColour,
    DealHand,
    DrawCard,
    Pass,
    PlayCard,
)

__all__ = [
    "Accept",
    "CallUno",
    "Catch",
    "Challenge",
    "ChooseColour",
    "DealHand",
    "DrawCard",
    "Pass",
    "PlayCard",
]
