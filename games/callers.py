"""Who can call the game API besides a user: a seat (``Authorization: Seat <secret>``)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from games.models import Game, Seat


@dataclass(frozen=True, slots=True)
class SeatPrincipal:
    """A caller who holds one seat of one game (``request.user`` for a seat)."""

    game_id: uuid.UUID
    seat: int
    player: str
    # The game's row and every seat of it, as authentication read them (one query): they go
    # with the request to the response, which needs no second look.
    game: Game | None = field(default=None, compare=False, repr=False)
    seats: tuple[Seat, ...] = field(default=(), compare=False, repr=False)

    # Enough of Django's user interface for DRF and the permission checks.
    is_authenticated = True
    is_anonymous = False
    is_active = True
    is_staff = False
    is_superuser = False
    pk = None

    def __str__(self) -> str:
        return f"seat {self.seat} ({self.player})"
