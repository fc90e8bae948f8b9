"""Celery tasks of tournaments: each takes ids, calls one service, and is idempotent.

Their names are the ones they were registered under when they lived in ``tournaments.tasks``
(queued messages and beat entries name a task by its name, not by where its code lives).

The tournament tasks are acknowledged late and rejected when their worker is lost, so a worker
that dies in the middle leaves the message to be delivered again; the service's transaction
left nothing half-done, and running it again finishes the work (or finds it done).
"""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError

RELIABLE = {
    "ignore_result": True,
    "acks_late": True,
    "reject_on_worker_lost": True,
    # A lost database connection or a deadlock victim: try again shortly.
    "autoretry_for": (OperationalError,),
    "retry_backoff": True,
    "max_retries": 5,
}


@shared_task(name="tournaments.tasks.table_finished", **RELIABLE)
def table_finished(game_id: str) -> None:
    """A tournament table's game ended: record it and seat the next round when it is complete."""
    from tournaments.brackets import services

    services.table_finished(game_id=game_id)


@shared_task(name="tournaments.tasks.seat_next_round", **RELIABLE)
def seat_next_round(tournament_id: int) -> None:
    """Seat the tournament's next round if its last one is complete (the organiser's nudge)."""
    from tournaments.brackets import services

    services.seat_next_round(tournament_id=tournament_id)


@shared_task(name="tournaments.tasks.turn_timeout", **RELIABLE)
def turn_timeout(game_id: str, version: int) -> None:
    """A turn's time ran out: the default action, if the game is still at ``version``."""
    from tournaments.brackets import services

    services.time_out_turn(game_id=game_id, version=version)
