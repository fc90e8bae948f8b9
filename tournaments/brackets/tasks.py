"""Celery tasks of tournaments: each takes ids, calls one service, and is idempotent.

Their names are the ones they were registered under when they lived in ``tournaments.tasks``
(queued messages and beat entries name a task by its name, not by where its code lives).

The sweeps (``sweep_rounds``, ``sweep_turn_timers``) are what makes advancement impossible to
lose: beat sends them every ``SWEEP_SECONDS``, and they find from the database alone what a
lost, failed or never-enqueued task left undone (tournaments.brackets.sweeper).

The tournament tasks are acknowledged late and rejected when their worker is lost, so a worker
that dies in the middle leaves the message to be delivered again; the service's transaction
left nothing half-done, and running it again finishes the work (or finds it done).
"""

from __future__ import annotations

import logging

from celery import shared_task
from django.db import InterfaceError, OperationalError

RELIABLE = {
    "ignore_result": True,
    "acks_late": True,
    "reject_on_worker_lost": True,
    # A lost database connection, a database failing over or restarting, a deadlock victim:
    # try again, waiting 5 s, 10 s, 20 s ... up to 600 s between tries, each wait drawn at
    # random below that (full jitter, so a hundred tasks that failed together do not come back
    # together), twelve times: about half an hour on average. Past that the message is dropped,
    # and the sweeper (sweep_rounds, every SWEEP_SECONDS) makes good what it was for.
    # CELERY_VISIBILITY_TIMEOUT must outlast the longest wait (900 s by default).
    "autoretry_for": (OperationalError, InterfaceError),
    "retry_backoff": 5,
    "retry_backoff_max": 600,
    "retry_jitter": True,
    "max_retries": 12,
}

# The sweeps run every SWEEP_SECONDS from beat; a failed one is simply the next one's to do, so
# they are not retried, and a sweep that expired in the queue (no worker ran meanwhile) is
# dropped rather than run late beside the next.
SWEEP = {"ignore_result": True}

log = logging.getLogger(__name__)


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


@shared_task(name="tournaments.tasks.sweep_rounds", **SWEEP)
def sweep_rounds() -> None:
    """Record every table whose game is over and advance every complete round (from beat)."""
    from tournaments.brackets import sweeper

    try:
        sweeper.sweep_rounds()
    except (OperationalError, InterfaceError) as exc:
        log.warning("sweep of rounds skipped, the database is unreachable: %s", exc)


@shared_task(name="tournaments.tasks.sweep_turn_timers", **SWEEP)
def sweep_turn_timers() -> None:
    """Run the turn timer of every table whose turn time has run out (from beat)."""
    from tournaments.brackets import sweeper

    try:
        sweeper.sweep_turn_timers()
    except (OperationalError, InterfaceError) as exc:
        log.warning("sweep of turn timers skipped, the database is unreachable: %s", exc)
