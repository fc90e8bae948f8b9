"""The games listener of tournaments (``games.registry.on_game_event``): after an append to a
tournament table's game commits, enqueue the follow-up tasks. It only enqueues; the tasks take
ids and call the services (tournaments.brackets.tasks)."""

from __future__ import annotations

import logging
from collections.abc import Callable
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
        game_id = str(game.pk)
        transaction.on_commit(
            lambda: enqueue(
                lambda: tasks.turn_timeout.apply_async((game_id, version), countdown=seconds),
                what="turn timer",
                game_id=game_id,
            )
        )
        return
    if Table.objects.filter(game_id=game.pk).exists():
        game_id = str(game.pk)
        transaction.on_commit(
            lambda: enqueue(
                lambda: tasks.table_finished.delay(game_id), what="result", game_id=game_id
            )
        )


def enqueue(send: Callable[[], object], *, what: str, game_id: str) -> None:
    """Send a task (``send``); when the broker cannot take it, say so and go on. Nothing is
    lost: the game's row, committed already, is what the sweeper reads
    (tournaments.brackets.sweeper), so the work is done by a sweep once the broker, a worker
    and beat run again."""
    from tournaments.brackets import tasks

    if tasks.table_finished.app.conf.task_always_eager:
        send()  # in-process: the task's own errors are its to show
        return
    try:
        send()
    except Exception as exc:
        log.warning(
            "could not enqueue the %s of game %s (%s: %s); the sweeper will do it within "
            "SWEEP_SECONDS once the broker is back",
            what,
            game_id,
            type(exc).__name__,
            exc,
        )
