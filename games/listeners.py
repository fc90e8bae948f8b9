"""What the games app does after an append commits (``registry.on_game_event``): it only
enqueues work, as a listener must."""

from __future__ import annotations

from games import tasks
from games.bots import bot_seats
from games.models import Event, Game


def after_append(game: Game, rows: list[Event]) -> None:
    """``registry.on_game_event``: after a person's command (or a new game), let the bots
    act. The bots' own commands enqueue nothing: the run that sent them goes on by itself."""
    if game.status == Game.Status.FINISHED or not rows:
        return
    bots = bot_seats(game.pk)
    if not bots:
        return
    actor = rows[0].actor
    if actor.startswith("seat:") and int(actor.partition(":")[2]) in bots:
        return
    tasks.play_bots.delay(str(game.pk))
