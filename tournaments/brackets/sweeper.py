"""The sweeper: advancement that cannot be lost.

A table's game row says ``finished`` from the same transaction as the event that ended it, so
the database itself is the outbox: whatever happened to the ``table_finished`` task (the broker
was down when it was to be enqueued, the worker died, the database was away through all its
retries), a table still ``playing`` whose game is over says that work is owed, and so does a
running tournament none of whose tables plays (its round is complete, the next not yet seated).
Beat runs ``sweep_rounds`` every ``SWEEP_SECONDS`` (tournaments.brackets.tasks), which does that
work through the same idempotent service the task calls, ``services.seat_next_round``, under
the tournament's lock: a sweep racing a task, or another sweep, seats a round once.

Turn timers are countdowns held by the broker, lost the same ways; ``sweep_turn_timers`` runs
the timer of every table whose game has waited at its version longer than its turn time (the
timer's own check and idempotency key make a late or doubled one harmless).
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.db.models import Exists, F, OuterRef, Q, Subquery
from django.utils import timezone

from games.models import Event, Game
from tournaments.brackets import services
from tournaments.brackets.models import Table, Tournament

log = logging.getLogger(__name__)


def owed_tournaments() -> list[int]:
    """Tournaments with advancement owed: running ones with a table still playing whose game is
    over, or no table playing at all (a complete round not yet followed); and any, finished
    too, with a result its game gave while the game plays again (an undo whose withdrawal of
    the result was lost after its commit)."""
    playing = Table.objects.filter(round__tournament=OuterRef("pk"), status=Table.Status.PLAYING)
    # (A table reopened over its game still over waits for the game or the director: not owed.)
    over = playing.filter(game__status=Game.Status.FINISHED).exclude(held=F("game__version"))
    undone = Table.objects.filter(
        round__tournament=OuterRef("pk"),
        status=Table.Status.FINISHED,
        decided_by=Table.DecidedBy.GAME,
    ).exclude(game__status=Game.Status.FINISHED)
    running = Q(status=Tournament.Status.RUNNING) & (Q(Exists(over)) | ~Exists(playing))
    return list(
        Tournament.objects.filter(running | Q(Exists(undone)))
        .order_by("pk")
        .values_list("pk", flat=True)
    )


def sweep_rounds() -> int:
    """Record every table whose game is over and seat every round that is due (or finish the
    tournament), one tournament per transaction. Returns how many tournaments were owed. An
    error with one tournament is logged and the others still swept; a database that is away
    fails the sweep, and the next one tries again."""
    owed = owed_tournaments()
    failed = 0
    for tournament_id in owed:
        try:
            rnd = services.seat_next_round(tournament_id=tournament_id)
        except Exception:
            failed += 1
            log.exception("sweep: tournament %s could not be advanced", tournament_id)
            continue
        if rnd is not None:
            log.warning(
                "sweep: tournament %s round %s seated by the sweeper (its task was late or lost)",
                tournament_id,
                rnd.number,
            )
    if failed and failed == len(owed):
        raise RuntimeError(f"sweep: none of {failed} owed tournaments could be advanced")
    return len(owed)


def overdue_turns(now: datetime | None = None) -> list[tuple[str, int]]:
    """(game id, version) of every playing table whose game has waited at its version longer
    than its tournament's turn time (the tables playing at once are few: compared here)."""
    now = now or timezone.now()
    last_event = Event.objects.filter(
        game_id=OuterRef("game_id"), version=OuterRef("game__version")
    ).values("recorded_at")[:1]
    rows = (
        Table.objects.filter(
            status=Table.Status.PLAYING,
            game__status=Game.Status.PLAYING,
            round__tournament__status=Tournament.Status.RUNNING,
            round__tournament__turn_seconds__isnull=False,
        )
        .annotate(since=Subquery(last_event))
        .values_list("game_id", "game__version", "since", "round__tournament__turn_seconds")
    )
    return [
        (str(game_id), version)
        for game_id, version, since, seconds in rows
        if since is not None and since + timedelta(seconds=seconds) < now
    ]


def sweep_turn_timers(now: datetime | None = None) -> int:
    """Run the turn timer of every overdue turn; returns how many timers appended something."""
    fired = 0
    for game_id, version in overdue_turns(now):
        try:
            if services.time_out_turn(game_id=game_id, version=version):
                fired += 1
                log.warning("sweep: the turn timer of %s at v%s fired late", game_id, version)
        except Exception:
            log.exception("sweep: the turn timer of %s at v%s failed", game_id, version)
    return fired
