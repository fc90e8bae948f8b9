"""Who can call the game API besides a user: a seat (``Authorization: Seat <secret>``)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class SeatPrincipal:
    """A caller who holds one seat of one game (``request.user`` for a seat)."""

    game_id: uuid.UUID
    seat: int
    player: str

    # Enough of Django's user interface for DRF and the permission checks.
    is_authenticated = True
    is_anonymous = False
    is_active = True
    is_staff = False
    is_superuser = False
    pk = None

    def __str__(self) -> str:
        return f"seat {self.seat} ({self.player})"
