"""The event store: load a game's state (snapshot + newer events) and append events to its log.

Appending takes the game row's lock, checks the expected version, chains each event's hash to
the previous one (the rows are made in games.appending), and in the same transaction moves the
game's header, updates the projections and, by the snapshot policy, saves a snapshot.
Follow-up work is handed to ``registry.on_game_event`` listeners once the transaction
commits. On PostgreSQL the usual append does all of that in one self-committing statement
whose ``UPDATE`` of the game row is the compare-and-set (games.store_pg).

A ``Rewound(to_version)`` event takes the game back to its state at ``to_version``:
``rules.engine.fold_with_rewinds`` says what that means, and the store gives it the state at
``to_version`` from the newest snapshot at or below it; it snapshots right after a rewind, so
loading never needs the events before the newest snapshot.

Deciding a command starts from ``current``: the state this process last saw committed for the
game (games.state_cache), brought up to date from the log when it may be behind. Rebuilding
the projections from the log is games.rebuild's.
"""

from __future__ import annotations

import hmac
import logging
from collections.abc import Sequence
from typing import Any
from uuid import UUID

from django.db import DEFAULT_DB_ALIAS, IntegrityError, connection, connections, transaction

from games import chain, live, projections, state_cache, store_pg
from games.appending import (
    EVENT_COLUMNS,
    SNAPSHOT_EVERY,
    Append,
    KeyUsed,
    committed,
    make_rows,
    snapshot_row,
    stored_data,
    wants_snapshot,
)
from games.errors import NotFound, Stale
from games.models import Event, Game, Snapshot
from rules import ENGINE_VERSION, GameState, IllegalCommand, event_from_dict
from rules.engine import fold_with_rewinds, live_entries
from rules.events import Event as RuleEvent
from rules.events import Rewound

log = logging.getLogger(__name__)

GENESIS = chain.GENESIS
row_hash = chain.row_hash
# Made in games.appending, part of the store's interface all the same.
__all__ = ["SNAPSHOT_EVERY", "KeyUsed", "stored_data"]

# Loading --------------------------------------------------------------------------------------


def events_between(game_id: UUID | str, after: int, upto: int | None = None) -> list[RuleEvent]:
    """The engine events of versions ``after`` < v <= ``upto`` (or to the end), in order."""
    rows = Event.objects.filter(game_id=game_id, version__gt=after)
    if upto is not None:
        rows = rows.filter(version__lte=upto)
    return [
        event_from_dict({**data, "type": type_})
        for type_, data in rows.order_by("version").values_list("type", "data")
    ]


def _newest_snapshot(game_id: UUID | str, upto: int | None = None) -> GameState | None:
    """The newest snapshot of this engine's version (at or below ``upto``) that carries the
    server's MAC, if any. Snapshots an older engine wrote are ignored (the state they hold may
    not be what replay gives now), and so is one whose MAC does not match: it was edited, and
    the events before it give the state instead."""
    snapshots = Snapshot.objects.filter(game_id=game_id, engine_version=ENGINE_VERSION)
    if upto is not None:
        snapshots = snapshots.filter(version__lte=upto)
    while True:
        found = (
            snapshots.order_by("-version").values_list("version", "head", "mac", "state").first()
        )
        if found is None:
            return None
        version, head, mac, data = found
        if snapshot_holds(game_id, version, head, mac, data):
            return GameState.from_dict(data)
        log.error("snapshot of %s at v%s does not match its MAC: not used", game_id, version)
        snapshots = snapshots.filter(version__lt=version)


def snapshot_holds(game_id: UUID | str, version: int, head: str, mac: str, state: Any) -> bool:
    """Whether a snapshot's MAC is the server's over what it records."""
    if not mac:
        return False
    expected = chain.server_signer().snapshot_mac(game_id, version, ENGINE_VERSION, head, state)
    return hmac.compare_digest(expected, mac)


def fold(game_id: UUID | str, state: GameState, events: Sequence[RuleEvent]) -> GameState:
    """``state`` with ``events`` applied, a ``Rewound`` resolved by ``rules.engine`` from the
    game's state at its version (read from the newest snapshot at or below it)."""
    return fold_with_rewinds(state, events, lambda version: state_at(game_id, version))


def load(game_id: UUID | str) -> tuple[GameState, int]:
    """The game's current state and version: the newest snapshot plus the events after it.

    When there was no usable snapshot and many events had to be folded (a new engine version,
    snapshots deleted), a snapshot of the result is saved for the next load.
    """
    base = _newest_snapshot(game_id)
    events = events_between(game_id, base.version if base else 0)
    if base is None and not events and not Game.objects.filter(pk=game_id).exists():
        raise NotFound(f"no game {game_id}")
    state = fold(game_id, base or GameState(), events)
    if len(events) >= SNAPSHOT_EVERY:
        head = Event.objects.filter(game_id=game_id, version=state.version).values_list(
            "hash", flat=True
        )
        save_snapshot(game_id, state, head[0])
    return state, state.version


def state_at(game_id: UUID | str, version: int) -> GameState:
    """The game's state at ``version`` (0 <= version <= its current version), from the
    newest snapshot at or below it."""
    base = _newest_snapshot(game_id, upto=version)
    events = events_between(game_id, base.version if base else 0, upto=version)
    return fold(game_id, base or GameState(), events)


def save_snapshot(game_id: UUID | str, state: GameState, head: str) -> None:
    """Save the state at its version, ``head`` being the hash of the event there. One that is
    there already is replaced: it was not usable (made under a retired key, or edited), or two
    loads rebuilt it at once and either copy will do."""
    Snapshot.objects.bulk_create(
        [snapshot_row(game_id, state, head)],
        update_conflicts=True,
        unique_fields=["game", "engine_version", "version"],
        update_fields=["state", "head", "mac", "created_at"],
    )


def batch_of_key(game_id: UUID | str, actor: str, key: str) -> list[Event] | None:
    """The events appended by ``actor``'s command that carried idempotency ``key``, or None."""
    first = (
        Event.objects.filter(game_id=game_id, actor=actor, key=key)
        .values_list("version", flat=True)
        .first()
    )
    if first is None:
        return None
    return list(
        Event.objects.filter(game_id=game_id, version__gte=first, batch=first).order_by("version")
    )


def undone_by(game_id: UUID | str, first: int, last: int) -> Event | None:
    """The ``rewound`` event that took the game back to before the batch of versions
    ``first``..``last`` (an undo after it), or None if the batch still stands.

    Undo means what the engine says it means (``rules.engine.live_entries``): a command's batch
    stands while its events are among the log's live entries. An undo that took it back may
    itself have been undone since (a rewind to a version after which the batch stood again):
    then the batch stands again. An undo's own batch (one ``rewound`` event) stands while
    nothing it took back is live again. When a batch does not stand, the rewind named is the
    last one that took it away."""
    rewinds = Event.objects.filter(game_id=game_id, type="rewound", version__gt=last)
    # Only a rewind to a version before the batch can take it (or what it took back) away.
    if not rewinds.filter(data__to_version__lt=first).exists():
        return None
    rows = Event.objects.filter(game_id=game_id).order_by("version")
    versions = list(rows.values_list("version", flat=True))
    back_to = dict(rows.filter(type="rewound").values_list("version", "data__to_version"))

    def live(upto: int) -> set[int]:
        """The versions among the live entries of the log up to version ``upto``."""
        log = ((version, version) for version in versions if version <= upto)
        return set(live_entries(log, back_to.get))

    # An undo's batch: the versions it took back, which must stay taken back.
    taken_back = live(first - 1) - live(first) if first in back_to else set()

    def stands(upto: int) -> bool:
        """Whether the batch stands in the log up to version ``upto``."""
        if first in back_to:
            return not taken_back & live(upto)
        return first in live(upto)

    if stands(versions[-1]):
        return None
    # The last rewind that took the batch away: it stood just before it, and never since.
    taken = next(
        version
        for version in sorted(back_to, reverse=True)
        if version > last and stands(version - 1)
    )
    return rewinds.get(version=taken)


def current(game_id: UUID | str, expected_version: int | None = None) -> GameState:
    """The game's state to decide a command on. When the caller expects the version this
    process has cached, that state is used as it is (the append checks the version under the
    lock); otherwise the cached state is brought up to date with the events after it, or the
    game is loaded."""
    cached = state_cache.state(game_id)
    if cached is not None and expected_version is not None and cached.version == expected_version:
        return cached
    if cached is None:
        state, _ = load(game_id)
    else:
        events = events_between(game_id, cached.version)
        state = fold(game_id, cached, events) if events else cached
    state_cache.remember_when_committed(game_id, state)
    return state


def forget_all() -> None:
    """Empty this process's caches (tests; a process that must start afresh)."""
    state_cache.forget_all()


def head_version(game_id: UUID | str) -> int:
    version = Game.objects.filter(pk=game_id).values_list("version", flat=True).first()
    if version is None:
        raise NotFound(f"no game {game_id}")
    return version


# Appending ------------------------------------------------------------------------------------


_EVENT_PREPARED = ("game_id", "data", "recorded_at")  # the values the backend needs adapted
_converters: dict[str, list] = {}


def _game_converters() -> list:
    """Per column of Game, what the ORM would do to a value read from this backend."""
    vendor = connection.vendor
    if vendor not in _converters:
        _converters[vendor] = [
            [*connection.ops.get_db_converters(f.cached_col), *f.get_db_converters(connection)]
            for f in Game._meta.concrete_fields
        ]
    return _converters[vendor]


def _lock(game_id: UUID | str, actor: str, key: str | None) -> Game | None:
    """The game's row, locked until the transaction ends, with the hash of its last event and
    the version and command digest ``actor``'s idempotency ``key`` was used with (if it was):
    one round trip."""
    game, event = Game._meta.db_table, Event._meta.db_table
    columns = ", ".join(f"g.{f.column}" for f in Game._meta.concrete_fields)
    keyed = f"FROM {event} e WHERE e.game_id = g.id AND e.actor = %s AND e.key = %s"
    sql = (
        f"SELECT {columns},"
        f" (SELECT e.hash FROM {event} e WHERE e.game_id = g.id AND e.version = g.version),"
        f" (SELECT e.version {keyed}), (SELECT e.command_digest {keyed})"
        f" FROM {game} g WHERE g.id = %s"
    )
    if connection.features.has_select_for_update:
        sql += " FOR UPDATE"
    pk = Game._meta.pk.get_db_prep_value(game_id, connection)
    with connection.cursor() as cursor:
        cursor.execute(sql, [actor, key, actor, key, pk])
        row = cursor.fetchone()
    if row is None:
        return None
    values = list(row[:-3])
    fields = zip(Game._meta.concrete_fields, _game_converters(), strict=True)
    for i, (field, converters) in enumerate(fields):
        for convert in converters:
            values[i] = convert(values[i], field.cached_col, connection)
    found = Game.from_db(connection.alias, None, values)
    found.head_hash, found.key_version, found.key_digest = row[-3:]
    return found


def _write(game: Game, rows: list[Event]) -> None:
    """INSERT the rows and move the game's version and status, and set the rows' positions.
    On PostgreSQL both in one statement."""
    fields = [Event._meta.get_field(name) for name in EVENT_COLUMNS]
    params = [
        field.get_db_prep_save(getattr(row, field.attname), connection)
        if field.attname in _EVENT_PREPARED
        else getattr(row, field.attname)
        for row in rows
        for field in fields
    ]
    one = "(" + ", ".join(["%s"] * len(fields)) + ")"
    insert = (
        f"INSERT INTO {Event._meta.db_table} ({', '.join(f.column for f in fields)})"
        f" VALUES {', '.join([one] * len(rows))} RETURNING position"
    )
    move = f"UPDATE {Game._meta.db_table} SET version = %s, status = %s WHERE id = %s"
    move_params = [game.version, game.status, Game._meta.pk.get_db_prep_value(game.pk, connection)]
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            # The tables' live updates (games.live): a NOTIFY in the same statement, sent when
            # the transaction commits (and never if it rolls back).
            cursor.execute(
                f"WITH appended AS ({insert}), moved AS ({move}),"
                " live AS (SELECT pg_notify(%s, %s))"
                " SELECT position FROM appended WHERE EXISTS (SELECT 1 FROM live)",
                [*params, *move_params, live.CHANNEL, live.notify_payload(game.pk, game.version)],
            )
            positions = sorted(position for (position,) in cursor.fetchall())
        else:
            cursor.execute(insert, params)
            positions = sorted(position for (position,) in cursor.fetchall())
            cursor.execute(move, move_params)
    for row, position in zip(rows, positions, strict=True):
        row.position = row.pk = position
        row._state.adding = False
        row._state.db = connection.alias


def append(
    game: Game | UUID | str,
    expected_version: int,
    events: Sequence[RuleEvent],
    *,
    actor: str,
    key: str | None = None,
    digest: str = "",
    state: GameState | None = None,
) -> list[Event]:
    """Append ``events`` after ``expected_version`` and return the new rows.

    ``state`` is the state after the events, when the caller already has it (``rules.step``
    gives it); without it, or when the events hold a ``Rewound``, the store works it out.
    ``key`` is ``actor``'s idempotency key and ``digest`` what the command was
    (``chain.command_digest``). Raises ``Stale`` when the game is no longer at
    ``expected_version``, ``KeyUsed`` when ``actor`` already used ``key`` in this game
    (nothing appended either way). An append that waited for the lock while a command with
    the same key committed may be told ``Stale``: the lock's check of the key reads the log
    as it was when the check began. A caller that gave a key looks it up again after a
    ``Stale`` (``games.services`` does).
    """
    if not events:
        raise ValueError("nothing to append")
    game_id = game.pk if isinstance(game, Game) else game
    db = connections[DEFAULT_DB_ALIAS]
    append = Append(game_id, expected_version, events, actor, key, digest)
    if state is not None and db.vendor == "postgresql" and not db.in_atomic_block:
        rows = store_pg.append_in_one_statement(db, append, state)
        if rows is not None:
            return rows
    try:
        with transaction.atomic():
            return _append_locked(append, state)
    except IntegrityError as exc:
        # The lock makes a version collision unreachable for writers that come through here;
        # the unique (game, version) constraint is the second line of defence, for anything
        # that wrote to the log without it. Other integrity errors are bugs: let them show.
        if not Event.objects.filter(game_id=game_id, version=expected_version + 1).exists():
            raise
        log.warning("append to %s after v%s collided: %s", game_id, expected_version, exc)
        raise Stale(expected_version + 1) from exc


def _append_locked(append: Append, state: GameState | None) -> list[Event]:
    game_id, expected, events = append.game_id, append.expected, append.events
    game = _lock(game_id, append.actor, append.key)
    if game is None:
        raise NotFound(f"no game {game_id}")
    if game.key_version is not None:
        raise KeyUsed(game.key_version, game.key_digest)
    if game.closed:
        raise IllegalCommand(game.closed)
    if game.version != expected:
        raise Stale(game.version)
    if state is None or any(type(e) is Rewound for e in events):
        state = fold(game_id, state_at(game_id, expected) if expected else GameState(), events)
    if state.version != expected + len(events):
        raise ValueError(
            f"state is at v{state.version}, the events end at v{expected + len(events)}"
        )

    prev = game.head_hash if expected else GENESIS
    if prev is None:
        raise ValueError(f"the log of game {game_id} ends before its version {expected}")
    rows = make_rows(append, prev)
    game.version = state.version
    game.status = Game.Status.FINISHED if state.finished else Game.Status.PLAYING
    _write(game, rows)
    projections.project(game, rows, state)
    if wants_snapshot(expected, state.version, events):
        save_snapshot(game_id, state, rows[-1].hash)
    committed(game, rows, state)
    return rows
