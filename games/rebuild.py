"""Rebuilding the projections from the log (``manage.py rebuild_projections``): empty them and
replay the whole log into them, in global order, in one transaction. Rebuilt must equal what the
appends built incrementally (games.projections says what a projector may read)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack
from typing import Any

from django.db import connection, transaction
from django.db.models import Q, TextField
from django.db.models.base import ModelState
from django.db.models.functions import Cast

from games import store
from games.models import Event, Game
from games.projections import Projector, registered
from rules import GameState, event_from_dict
from rules.events import Event as RuleEvent

# What a rebuild reads of each logged event. The other fields (actor, key, time, hashes) stay
# deferred, as with .only(): loaded from the database if a projector ever touches them.
READ_FIELDS = ("position", "game_id", "version", "batch", "type")
SHORT_EVENT = 80  # characters of JSON: short events repeat (a turn begins ...), decode each once


def read_log(only: Q | None = None) -> Iterator[tuple[Event, RuleEvent]]:
    """The whole log (or its events matching ``only``) in global order: each row (an
    ``Event`` with ``READ_FIELDS`` and ``data``) with its engine event. Rows are for reading:
    the repeats of a short event share its ``data``.

    Per event, the ORM's row building (``Model.__init__``, the JSON field's converter) and the
    engine's decoding cost more than everything else a rebuild does, so values are read as
    they are and the instance is built as ``Model.from_db`` builds it, without ``__init__``.
    """
    decoded: dict[tuple[str, str], tuple[Any, RuleEvent]] = {}
    events = Event.objects.all() if only is None else Event.objects.filter(only)
    rows = (
        events.order_by("position")
        .annotate(raw=Cast("data", TextField()))
        .values_list(*READ_FIELDS, "raw")
    )
    alias = connection.alias
    new = Event.__new__
    for position, game_id, version, batch, kind, raw in rows.iterator(chunk_size=5000):
        known = decoded.get((kind, raw))
        if known is None:
            data = json.loads(raw)
            known = (data, event_from_dict({**data, "type": kind}))
            if len(raw) <= SHORT_EVENT:
                if len(decoded) >= 100_000:
                    decoded.clear()
                decoded[kind, raw] = known
        state = ModelState()
        state.adding = False
        state.db = alias
        row = new(Event)
        row.__dict__.update(
            position=position,
            game_id=game_id,
            version=version,
            batch=batch,
            type=kind,
            data=known[0],
            _state=state,
        )
        yield row, known[1]


def rebuild(
    projectors: Iterable[Projector] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> int:
    """Empty the projections and replay the whole log into them, in global order, in one
    transaction (on PostgreSQL the log is locked against appends meanwhile). Each game's
    events reach ``apply`` in the batches they were appended in. Returns the events read."""
    projectors = list(registered() if projectors is None else projectors)
    with transaction.atomic():
        if connection.vendor == "postgresql":
            # SHARE mode lets reads through but makes appends wait: nothing is missed.
            with connection.cursor() as cursor:
                cursor.execute("LOCK TABLE games_event IN SHARE MODE")
        for projector in projectors:
            projector.reset()
        with ExitStack() as rebuilding:
            for projector in projectors:
                if hasattr(projector, "rebuilding"):
                    rebuilding.enter_context(projector.rebuilding())
            return replay_log(projectors, progress=progress)


def replay_log(
    projectors: Iterable[Projector],
    progress: Callable[[int, int], None] | None = None,
    only: Q | None = None,
) -> int:
    """Replay the log (or the events matching ``only``, whole games of it) into
    ``projectors``' ``apply``, in global order, each game's events in the batches they were
    appended in, the game as it was after each batch. Writes nothing itself: ``rebuild`` runs
    it into emptied projections, ``manage.py verify_events`` into ones that only collect.
    Returns the events read."""
    projectors = list(projectors)
    events = Event.objects.all() if only is None else Event.objects.filter(only)
    total = events.count()
    games = (
        Game.objects.in_bulk()
        if only is None
        else Game.objects.filter(pk__in=events.values("game_id")).in_bulk()
    )
    states: dict[object, GameState] = {}
    pending: dict[object, list[Event]] = {}  # each game's batch being read
    pending_events: dict[object, list[RuleEvent]] = {}

    def flush(game_id: object) -> None:
        rows = pending.pop(game_id)
        events = pending_events.pop(game_id)
        game = games[game_id]
        before = states.get(game_id)
        if before is None:
            before = (
                GameState()
                if rows[0].version == 1
                else store.state_at(game_id, rows[0].version - 1)
            )
        state = store.fold(game_id, before, events)
        states[game_id] = state
        # The projectors see the game as it was after this batch.
        game.version = state.version
        game.status = Game.Status.FINISHED if state.finished else Game.Status.PLAYING
        for projector in projectors:
            projector.apply(game, rows, state)

    done = 0
    # Appends to different games can interleave their positions, so batches are collected per
    # game and handed over when the game's next batch (or the end) shows up.
    for row, event in read_log(only):
        rows = pending.get(row.game_id)
        if rows is not None and rows[0].batch != row.batch:
            flush(row.game_id)
            rows = None
        if rows is None:
            pending[row.game_id] = [row]
            pending_events[row.game_id] = [event]
        else:
            rows.append(row)
            pending_events[row.game_id].append(event)
        done += 1
        if progress is not None:
            progress(done, total)
    for game_id in list(pending):
        flush(game_id)
    return done
