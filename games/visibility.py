"""When a game's hidden information becomes public: once it is over, unless an app that owns
the game holds it back (``games.registry.reveal_checks``). Until then a seat sees only what it
saw while playing, and everyone else sees nothing; a referee sees everything all along."""

from __future__ import annotations

from games import registry
from games.models import Game


def is_revealed(game: Game) -> bool:
    """Whether every hand, the whole log and the replay of ``game`` may be shown to anyone:
    it is finished and no reveal check holds it back."""
    if game.status != Game.Status.FINISHED:
        return False
    return all(check(game) for check in registry.reveal_checks)
