"""What a viewer may see of a game: hidden information stays hidden.

A seat sees its own hand, the card counts of the others, and a redacted log; a referee sees
everything; once the game is over (and revealed: the caller may hold a finished game back, as a
tournament does a table dealt the same cards as tables still playing) everyone does. Hands an
edition has made public (UNO Spin's Show Hand, a face-up house rule) are seen by every seat
while they are public.
"""

from __future__ import annotations

from typing import Any

from rules.engine import legal_commands, waiting_for
from rules.events import Event
from rules.pending import Pending
from rules.state import GameState


def can_see_hand(
    state: GameState, seat: int, viewer: int | None, referee: bool, revealed: bool | None = None
) -> bool:
    if revealed is None:
        revealed = state.finished
    if referee or revealed or seat == viewer:
        return True
    # The engine shows every hand once the game is over; whether they are public then is
    # ``revealed``'s to say (a finished game may be held back).
    return seat in state.shown and not state.finished


def game_view(
    state: GameState, viewer: int | None, *, referee: bool = False, revealed: bool | None = None
) -> dict[str, Any]:
    """The game in the API's shape, as ``viewer`` (a seat, or ``None``) may see it.
    ``revealed``: whether the game's hidden information is public (default: once it is over)."""
    s = state
    if revealed is None:
        revealed = s.finished
    kind, pseat = s.pending
    seats = []
    for seat in range(s.players):
        row: dict[str, Any] = {
            "seat": seat,
            "card_count": len(s.hands[seat]),
            "score": s.scores[seat] if s.scores else 0,
            "uno_exposed": s.exposed == seat,
        }
        if can_see_hand(s, seat, viewer, referee, revealed):
            row["hand"] = list(s.hands[seat])
            # What an edition knows of the cards in a hand that the card codes do not say
            # (the house rules written on VETO's Wild Customizable cards).
            details = getattr(s.extra, "hand_details", None)
            if details is not None:
                row["hand_details"] = details(s, seat)
        seats.append(row)
    status = "finished" if s.finished else ("playing" if s.players else "new")
    view: dict[str, Any] = {
        "variant": s.variant,
        "scoring": s.scoring,
        "target": s.target,
        "version": s.version,
        "status": status,
        "hand_number": s.hand_number,
        "dealer": s.dealer,
        "turn": pseat if kind in (Pending.TURN, Pending.DRAWN) else None,
        "direction": s.direction,
        "top_card": s.discard[-1] if s.discard else None,
        "colour": s.colour,
        "draw_pile_count": len(s.pile) - s.pos,
        "discard_count": len(s.discard),
        "pending": {"type": kind, "seat": pseat if pseat >= 0 else None, "text": waiting_for(s)},
        "seats": seats,
        "legal": [c.to_dict() for c in legal_commands(s, viewer)] if viewer is not None else [],
        "winner": s.winner,
        "placings": list(s.placings) if s.finished else None,
        "last_hand": s.last_hand.to_dict() if s.last_hand is not None else None,
    }
    if kind == Pending.DRAWN and (viewer == pseat or referee):
        view["drawn"] = s.drawn
    if referee or revealed:
        view["draw_pile"] = list(s.pile[s.pos :])
    extra = getattr(s.extra, "public", None)
    if callable(extra):
        view["edition"] = extra()
    return view


def event_view(
    event: Event, viewer: int | None, *, referee: bool = False, finished: bool = False
) -> dict[str, Any]:
    """One event of the log as ``viewer`` may see it (``finished``: the game is over and its
    hidden information revealed)."""
    if referee or finished:
        return event.to_dict()
    return event.redacted(viewer)
