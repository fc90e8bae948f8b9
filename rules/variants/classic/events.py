"""Classic UNO's events: the core's, which every edition's game records too (defined in
``rules.events``, applied in ``rules.engine``). Classic UNO keeps no edition state; an
edition keeps its state and its own events in its package's ``events``."""

from __future__ import annotations

from rules.events import (
    CardPlayed,
    CardsDrawn,
    ChallengeResolved,
    ChoiceOffered,
    ColourChosen,
    DealerChosen,
    DirectionReversed,
    DiscardReshuffled,
    GameEnded,
    GameStarted,
    HandDealt,
    HandEnded,
    Passed,
    SeatSkipped,
    StarterReturned,
    StarterTurned,
    TurnBegan,
    UnoCalled,
    UnoCaught,
    UnoWindowClosed,
    WildDrawFourAccepted,
)

__all__ = [
    "CardPlayed",
    "CardsDrawn",
    "ChallengeResolved",
    "ChoiceOffered",
    "ColourChosen",
    "DealerChosen",
    "DirectionReversed",
    "DiscardReshuffled",
    "GameEnded",
    "GameStarted",
    "HandDealt",
    "HandEnded",
    "Passed",
    "SeatSkipped",
    "StarterReturned",
    "StarterTurned",
    "TurnBegan",
    "UnoCalled",
    "UnoCaught",
    "UnoWindowClosed",
    "WildDrawFourAccepted",
]
