"""The games listener of tournaments (``games.registry.on_game_event``): after an append to a
tournament table's game commits, enqueue the follow-up tasks. It only enqueues; the tasks take
ids and call the services (tournaments.brackets.tasks)."""

from __future__ import annotations

import logging
from threading import Lock

from cachetools import LRUCache, cached
from cachetools.keys import hashkey
from django.db import transaction

from games.models import Event, Game
from tournaments.brackets.models import Table

log = logging.getLogger(__name__)


# A table's turn time is fixed when the round is seated (the table and its game are created in
# one transaction, before this listener first runs for the game), so it is read once per game
# and process: the listener runs after every append of every game, tournament or not.
@cached(LRUCache(maxsize=10_000), key=lambda game_id: hashkey(str(game_id)), lock=Lock())
def turn_seconds(game_id: object) -> int:
    return (
        Table.objects.filter(game_id=str(game_id))
        .values_list("round__tournament__turn_seconds", flat=True)
        .first()
    ) or 0


def after_append(game: Game, rows: list[Event]) -> None:
    """A table's game ended: ``table_finished``. A turn began at a table with a turn time:
    ``turn_timeout`` for this version, due when the time runs out (a command sent before then
    moves the game on, and the timer finds a later version and does nothing)."""
    from tournaments.brackets import tasks

    if game.status != Game.Status.FINISHED and any(row.type == "rewound" for row in rows):
        # An undo of a finished table's game: the table plays again (its result withdrawn).
        # In the append's caller, after the commit, so the bracket follows at once.
        from tournaments.brackets import directing

        if Table.objects.filter(game_id=game.pk, status=Table.Status.FINISHED).exists():
            directing.result_withdrawn(game_id=game.pk)
    ended = any(row.type == "game_ended" for row in rows)
    if game.status != Game.Status.FINISHED and not ended:
        seconds = turn_seconds(game.pk)
        if not seconds:
            return
        if tasks.turn_timeout.app.conf.task_always_eager:
            # In-process tasks cannot wait: a timer would fire at once. Timers need a broker.
            log.debug("turn timer of %s skipped: no broker", game.pk)
            return
        version = game.version
        transaction.on_commit(
            lambda: tasks.turn_timeout.apply_async((str(game.pk), version), countdown=seconds)
        )
        return
    if Table.objects.filter(game_id=game.pk).exists():
        game_id = str(game.pk)
        transaction.on_commit(lambda: tasks.table_finished.delay(game_id))
