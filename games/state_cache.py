"""What this process last saw committed of each game: its state, and the end of its log.

A state at a version never changes (the log is append-only), so the only thing a cached state
can be is old; whoever uses one checks the version (the append's compare-and-set does).
Both caches keep the most recently used games (``SIZE``) and are shared by the threads of a
process; a state from a transaction that rolls back is never cached.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING
from uuid import UUID

from cachetools import LRUCache
from django.db import transaction

from rules import GameState

if TYPE_CHECKING:
    from games.models import Game

SIZE = 1000  # games


@dataclass(frozen=True, slots=True)
class Head:
    """The end of a game's log as this process last saw it committed: the version, the last
    event's hash and the game's row as of then (what an append after it needs)."""

    version: int
    hash: str
    game: Game


_states: LRUCache[str, GameState] = LRUCache(maxsize=SIZE)
_heads: LRUCache[str, Head] = LRUCache(maxsize=SIZE)
_lock = threading.Lock()


def state(game_id: UUID | str) -> GameState | None:
    with _lock:
        return _states.get(str(game_id))


def head(game_id: UUID | str) -> Head | None:
    with _lock:
        return _heads.get(str(game_id))


def remember(game_id: UUID | str, new: GameState) -> None:
    """Keep ``new`` unless a newer state of the game is kept already."""
    with _lock:
        key = str(game_id)
        known = _states.get(key)
        if known is None or known.version <= new.version:
            _states[key] = new


def remember_when_committed(game_id: UUID | str, new: GameState) -> None:
    """``remember`` once what ``new`` was read from or written with is committed (at once,
    outside a transaction)."""
    transaction.on_commit(partial(remember, game_id, new))


def remember_head(game_id: UUID | str, new: Head) -> None:
    with _lock:
        key = str(game_id)
        known = _heads.get(key)
        if known is None or known.version <= new.version:
            _heads[key] = new


def forget_head(game_id: UUID | str) -> None:
    with _lock:
        _heads.pop(str(game_id), None)


def forget_all() -> None:
    with _lock:
        _states.clear()
        _heads.clear()
