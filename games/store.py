"""The event store: load a game's state (snapshot + newer events) and append events to its log.

Appending takes the game row's lock, checks the expected version, chains each event's hash to
the previous one, and in the same transaction moves the game's header, updates the
projections and, by the snapshot policy, saves a snapshot. Follow-up work is handed to
``registry.on_game_event`` listeners once the transaction commits. On PostgreSQL the usual
append does all of that in one self-committing statement whose ``UPDATE`` of the game row is
the compare-and-set ("The append in one statement" below).

A ``Rewound(to_version)`` event takes the game back to its state at ``to_version``; the store
resolves it with ``state_at`` (which starts from the newest snapshot at or below that version)
and snapshots right after it, so loading never needs the events before the newest snapshot.

Deciding a command starts from ``current``: the state this process last saw committed for the
game, brought up to date from the log when it may be behind. A state at a version never
changes (the log is append-only), so the only thing a cached state can be is old, and the
append's version check under the lock catches that.
"""

from __future__ import annotations

import hmac
import logging
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, partial
from typing import Any
from uuid import UUID

import psycopg
from django.db import DEFAULT_DB_ALIAS, IntegrityError, connection, connections, transaction
from django.db.models.base import ModelState
from django.utils import timezone
from psycopg.types.json import Jsonb

from games import chain, projections, registry
from games.errors import NotFound, Stale
from games.models import Event, Game, Snapshot
from rules import ENGINE_VERSION, GameState, event_from_dict
from rules.engine import replay
from rules.events import Event as RuleEvent
from rules.events import GameEnded, Rewound

log = logging.getLogger(__name__)

SNAPSHOT_EVERY = 100  # events; also at the end of a game and right after a rewind
GENESIS = "0" * 64  # the prev_hash of a game's first event


# The chain (games.chain): commitments, hashes, signatures ------------------------------------

GENESIS = chain.GENESIS
row_hash = chain.row_hash


def stored_data(event: RuleEvent) -> dict[str, Any]:
    """An engine event as stored in ``Event.data`` (its JSON shape; the type has a column)."""
    data = event.to_dict()
    del data["type"]
    return data


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
    """``state`` with ``events`` applied; a ``Rewound`` goes back to the state at its version
    (the version counter keeps counting, as in ``rules.replay``)."""
    start = 0
    for i, event in enumerate(events):
        if type(event) is Rewound:
            if i > start:
                state = replay(events[start:i], state)
            back = state_at(game_id, event.to_version).copy()
            back.version = state.version + 1
            state = back
            start = i + 1
    return replay(events[start:], state) if start < len(events) else state


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
        [_snapshot(game_id, state, head)],
        update_conflicts=True,
        unique_fields=["game", "engine_version", "version"],
        update_fields=["state", "head", "mac", "created_at"],
    )


def _snapshot(game_id: UUID | str, state: GameState, head: str) -> Snapshot:
    data = state.to_dict()
    mac = chain.server_signer().snapshot_mac(game_id, state.version, ENGINE_VERSION, head, data)
    return Snapshot(
        game_id=game_id,
        version=state.version,
        engine_version=ENGINE_VERSION,
        state=data,
        head=head,
        mac=mac,
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


# This process's latest committed states ------------------------------------------------------

CACHE_SIZE = 1000  # games
_cache: OrderedDict[str, GameState] = OrderedDict()
_cache_lock = threading.Lock()


def _remember(game_id: UUID | str, state: GameState) -> None:
    with _cache_lock:
        key = str(game_id)
        known = _cache.get(key)
        if known is None or known.version <= state.version:
            _cache[key] = state
            _cache.move_to_end(key)
            while len(_cache) > CACHE_SIZE:
                _cache.popitem(last=False)


def remember_when_committed(game_id: UUID | str, state: GameState) -> None:
    """Cache ``state`` once what it was read from or written with is committed (at once,
    outside a transaction): a state from a transaction that rolls back is never cached."""
    transaction.on_commit(partial(_remember, game_id, state))


def forget_all() -> None:
    with _cache_lock:
        _cache.clear()
        _heads.clear()


# What this process last saw committed at the end of each game's log: the version, the last
# event's hash and the game's row as of then (an append after it needs exactly these).
_heads: OrderedDict[str, tuple[int, str, Game]] = OrderedDict()


def _remember_head(game_id: UUID | str, version: int, hash_: str, game: Game) -> None:
    with _cache_lock:
        key = str(game_id)
        known = _heads.get(key)
        if known is None or known[0] <= version:
            _heads[key] = (version, hash_, game)
            _heads.move_to_end(key)
            while len(_heads) > CACHE_SIZE:
                _heads.popitem(last=False)


def _forget_head(game_id: UUID | str) -> None:
    with _cache_lock:
        _heads.pop(str(game_id), None)


def current(game_id: UUID | str, expected_version: int | None = None) -> GameState:
    """The game's state to decide a command on. When the caller expects the version this
    process has cached, that state is used as it is (the append checks the version under the
    lock); otherwise the cached state is brought up to date with the events after it, or the
    game is loaded."""
    with _cache_lock:
        cached = _cache.get(str(game_id))
    if cached is not None and expected_version is not None and cached.version == expected_version:
        return cached
    if cached is None:
        state, _ = load(game_id)
    else:
        events = events_between(game_id, cached.version)
        state = fold(game_id, cached, events) if events else cached
    remember_when_committed(game_id, state)
    return state


def head_version(game_id: UUID | str) -> int:
    version = Game.objects.filter(pk=game_id).values_list("version", flat=True).first()
    if version is None:
        raise NotFound(f"no game {game_id}")
    return version


# Appending ------------------------------------------------------------------------------------


class KeyUsed(Exception):
    """The caller used the idempotency key before, for the command (``digest``) that appended
    from ``version``."""

    def __init__(self, version: int, digest: str = "") -> None:
        super().__init__(f"key used by the command appended from version {version}")
        self.version = version
        self.digest = digest


# The append's statements are written out in SQL: they run on every command, and building
# them through the ORM cost more than running them.

_EVENT_COLUMNS = (
    *("game_id", "version", "batch", "type", "data", "actor", "key", "recorded_at"),
    *("hash", "prev_hash", "salt", "commitment", "signature", "command_digest"),
)
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
    fields = [Event._meta.get_field(name) for name in _EVENT_COLUMNS]
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
            cursor.execute(
                f"WITH appended AS ({insert}), moved AS ({move}) SELECT position FROM appended",
                params + move_params,
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


def _wants_snapshot(before: int, after: int, events: Sequence[RuleEvent]) -> bool:
    if before // SNAPSHOT_EVERY != after // SNAPSHOT_EVERY:
        return True
    return any(type(e) is Rewound or type(e) is GameEnded for e in events)


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
    (nothing appended either way).
    """
    if not events:
        raise ValueError("nothing to append")
    game_id = game.pk if isinstance(game, Game) else game
    db = connections[DEFAULT_DB_ALIAS]
    append = _Append(game_id, expected_version, events, actor, key, digest)
    if state is not None and db.vendor == "postgresql" and not db.in_atomic_block:
        rows = _append_in_one_statement(db, append, state)
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


@dataclass(frozen=True, slots=True)
class _Append:
    """What one append writes: ``events`` after version ``expected``, for ``actor``'s command
    with idempotency ``key`` and command ``digest``."""

    game_id: UUID | str
    expected: int
    events: Sequence[RuleEvent]
    actor: str
    key: str | None
    digest: str


def _append_locked(append: _Append, state: GameState | None) -> list[Event]:
    game_id, expected, events = append.game_id, append.expected, append.events
    game = _lock(game_id, append.actor, append.key)
    if game is None:
        raise NotFound(f"no game {game_id}")
    if game.key_version is not None:
        raise KeyUsed(game.key_version, game.key_digest)
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
    rows = _rows(append, prev)
    game.version = state.version
    game.status = Game.Status.FINISHED if state.finished else Game.Status.PLAYING
    _write(game, rows)
    projections.project(game, rows, state)
    if _wants_snapshot(expected, state.version, events):
        save_snapshot(game_id, state, rows[-1].hash)
    _committed(game, rows, state)
    return rows


def _rows(append: _Append, prev: str) -> list[Event]:
    """The log rows of the append, chained from ``prev`` (the hash of the event at the
    expected version): each committed to with a salt of its own, the last one signed."""
    now = timezone.now()
    batch = append.expected + 1
    game_id, actor = append.game_id, append.actor
    rows = []
    for i, event in enumerate(append.events):
        key = append.key if i == 0 else None
        data = stored_data(event)
        salt = chain.new_salt()
        committed = chain.commitment(salt, data, key)
        hash_ = chain.link_hash(
            prev_hash=prev,
            game_id=game_id,
            version=batch + i,
            batch=batch,
            type=event.type,
            actor=actor,
            commitment=committed,
        )
        rows.append(
            _new_row(
                position=None,
                game_id=game_id,
                version=batch + i,
                batch=batch,
                type=event.type,
                data=data,
                actor=actor,
                key=key,
                recorded_at=now,
                prev_hash=prev,
                hash=hash_,
                salt=salt,
                commitment=committed,
                signature="",
                command_digest=append.digest if i == 0 else "",
            )
        )
        prev = hash_
    last = rows[-1]
    last.signature = chain.server_signer().sign(game_id, last.version, last.hash)
    return rows


def _new_row(**values: Any) -> Event:
    """An unsaved ``Event`` with these field values: what ``Event(**values)`` makes, without
    the cost of ``Model.__init__`` (which runs for every event appended)."""
    row = Event.__new__(Event)
    row.__dict__.update(values)
    row._state = ModelState()
    return row


def _committed(game: Game, rows: list[Event], state: GameState, *, already: bool = False) -> None:
    """Once the append commits: cache the state and the log's new end, and hand the append to
    the listeners (a listener's error is logged; the append stands). ``already``: it committed
    with its own statement, so all of it runs now, without ``on_commit``'s bookkeeping (this
    is on every command's path)."""
    last = rows[-1]
    remember = (
        partial(_remember, game.pk, state),
        partial(_remember_head, game.pk, last.version, last.hash, game),
    )
    if not already:
        for step in remember:
            transaction.on_commit(step)
        for listener in registry.on_game_event:
            transaction.on_commit(partial(listener, game, rows), robust=True)
        return
    for step in remember:
        step()
    for listener in registry.on_game_event:
        try:
            listener(game, rows)
        except Exception:
            log.exception("listener %r failed after an append to %s", listener, game.pk)


# The append in one statement ------------------------------------------------------------------
#
# On PostgreSQL, outside a transaction, when this process knows the end of the game's log (the
# version and hash it appended or read last) and every projector can say its part in SQL, the
# whole append is one statement, and so one round trip that commits itself:
#
#   WITH moved AS (UPDATE game SET version, status WHERE id = game AND version = expected
#                  [AND the key was never used] RETURNING id),
#        appended AS (INSERT INTO event SELECT the rows WHERE EXISTS (SELECT 1 FROM moved)),
#        p0 AS (a projector's statement), ..., [the snapshot]
#   SELECT version, position FROM appended
#
# The UPDATE is the compare-and-set: a writer that races another waits for its row lock and
# then finds the version moved on, so it moves nothing and appends nothing. Nothing appended
# means stale or the key was used: one more query tells which. The unique (game, version) and
# (game, key) constraints still stand behind it. Anything else (inside a transaction, a
# rewind, the first append of a process, a projector that must run Python) takes the locked
# path above, which ends the same way.


def _append_in_one_statement(db: Any, append: _Append, state: GameState) -> list[Event] | None:
    """The append as one self-committing statement, or None when it must take the locked
    path. Raises ``Stale``, ``KeyUsed`` or ``NotFound`` as the locked path does."""
    game_id, expected, events = append.game_id, append.expected, append.events
    actor, key = append.actor, append.key
    with _cache_lock:
        head = _heads.get(str(game_id))
    if head is None or head[0] != expected or expected == 0:
        return None
    if state.version != expected + len(events) or any(type(e) is Rewound for e in events):
        return None
    game = _copy_game(head[2])
    game.version = state.version
    game.status = Game.Status.FINISHED if state.finished else Game.Status.PLAYING
    rows = _rows(append, head[1])
    parts = projections.statements(game, rows, state)
    if parts is None:
        return None
    if _wants_snapshot(expected, state.version, events):
        parts.append(_snapshot_statement(game.pk, state, rows[-1].hash))

    # The statement runs on the driver's own cursor (binding on the server, prepared: it
    # is the same few texts over and over), so its values are given as the driver takes them.
    first = rows[0]
    params: list[Any] = [
        *(game.version, game.status, game.pk, expected, game.pk, actor, key),  # moved
        *(game.pk, expected, first.batch, actor, key, first.recorded_at),  # appended
        append.digest,
        Jsonb(
            [
                {
                    "type": r.type,
                    "data": r.data,
                    "hash": r.hash,
                    "prev": r.prev_hash,
                    "salt": r.salt,
                    "commitment": r.commitment,
                    "signature": r.signature,
                }
                for r in rows
            ]
        ),
    ]
    sql = [_append_sql()]
    for i, (statement, statement_params) in enumerate(parts):
        sql.append(f", p{i} AS ({statement})")
        params += statement_params
    sql.append(" SELECT version, position FROM appended")
    query = "".join(sql)
    try:
        with _server_binding_cursor(db) as cursor:
            cursor.execute(query, params)
            position_of = dict(cursor.fetchall())  # version -> position
    except IntegrityError:
        # A key used by a racing writer, or a row written around the store: say which.
        _refused(game.pk, expected, actor, key)
        raise
    if not position_of:
        _refused(game.pk, expected, actor, key)
        return None  # neither stale nor a used key: let the locked path decide
    for row in rows:
        row.position = row.pk = position_of[row.version]
        row._state.adding = False
        row._state.db = db.alias
    _committed(game, rows, state, already=True)
    return rows


def _server_binding_cursor(db: Any) -> Any:
    """A cursor of Django's (logged and its errors translated like any other) over one of the
    driver's that binds values on the server, so psycopg prepares a statement it runs again and
    again (``prepare_threshold``, config/settings.py). Django's own cursors bind on the client
    and never prepare."""
    db.ensure_connection()
    raw = psycopg.Cursor(db.connection)
    return db.make_debug_cursor(raw) if db.queries_logged else db.make_cursor(raw)


@cache
def _append_sql() -> str:
    """The statement's first part: the compare-and-set and the rows. Its text is the same for
    any number of rows (they come as one JSON array), so the driver prepares it once."""
    game_table, event_table = Game._meta.db_table, Event._meta.db_table
    field = {name: Event._meta.get_field(name) for name in _EVENT_COLUMNS}

    def typed(name: str) -> str:
        return projections.typed_placeholder(field[name])

    def column(name: str) -> str:
        return f"{name} {field[name].db_type(connection)}"

    recorded = ("type", "data", "hash", "salt", "commitment", "signature")
    return (
        f"WITH moved AS (UPDATE {game_table} SET version = %s, status = %s"
        " WHERE id = %s AND version = %s AND NOT EXISTS"
        f" (SELECT 1 FROM {event_table} k WHERE k.game_id = %s AND k.actor = %s AND k.key = %s)"
        " RETURNING id),"
        f" appended AS (INSERT INTO {event_table} ({', '.join(_EVENT_COLUMNS)})"
        f" SELECT {typed('game_id')}, {typed('version')} + e.n, {typed('batch')},"
        f" e.type, e.data, {typed('actor')}, CASE WHEN e.n = 1 THEN {typed('key')} END,"
        f" {typed('recorded_at')}, e.hash, e.prev, e.salt, e.commitment, e.signature,"
        f" CASE WHEN e.n = 1 THEN {typed('command_digest')} ELSE '' END"
        " FROM ROWS FROM (jsonb_to_recordset(CAST(%s AS jsonb)) AS ("
        f"{', '.join(column(name) for name in recorded)}, prev"
        f" {field['prev_hash'].db_type(connection)}))"
        f" WITH ORDINALITY AS e({', '.join(recorded)}, prev, n)"
        " WHERE EXISTS (SELECT 1 FROM moved) RETURNING version, position)"
    )


def _refused(game_id: UUID | str, expected: int, actor: str, key: str | None) -> None:
    """Why an append appended nothing: raise ``NotFound``, ``KeyUsed`` or ``Stale``."""
    _forget_head(game_id)
    game_table, event_table = Game._meta.db_table, Event._meta.db_table
    keyed = f"FROM {event_table} e WHERE e.game_id = g.id AND e.actor = %s AND e.key = %s"
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT g.version, (SELECT e.version {keyed}), (SELECT e.command_digest {keyed})"
            f" FROM {game_table} g WHERE g.id = %s",
            [actor, key, actor, key, Game._meta.pk.get_db_prep_value(game_id, connection)],
        )
        row = cursor.fetchone()
    if row is None:
        raise NotFound(f"no game {game_id}")
    version, key_version, key_digest = row
    if key_version is not None:
        raise KeyUsed(key_version, key_digest)
    if version != expected:
        raise Stale(version)


@cache
def _snapshot_sql() -> tuple[str, tuple[Any, ...]]:
    names = ("game", "version", "engine_version", "state", "created_at", "head", "mac")
    fields = tuple(Snapshot._meta.get_field(name) for name in names)
    return (
        f"INSERT INTO {Snapshot._meta.db_table} ({', '.join(f.column for f in fields)})"
        f" SELECT {', '.join(projections.typed_placeholder(f) for f in fields)}"
        " WHERE EXISTS (SELECT 1 FROM moved) ON CONFLICT DO NOTHING",
        fields,
    )


def _snapshot_statement(game_id: UUID | str, state: GameState, head: str) -> tuple[str, list[Any]]:
    """The snapshot of an append, saved by the append's own statement."""
    sql, fields = _snapshot_sql()
    snapshot = _snapshot(game_id, state, head)
    values = [getattr(snapshot, f.attname) for f in fields]
    return sql, [f.get_db_prep_save(v, connection) for f, v in zip(fields, values, strict=True)]


def _copy_game(game: Game) -> Game:
    """A fresh instance of the game's row (each append hands its own to the listeners)."""
    new = Game.__new__(Game)
    new.__dict__.update(game.__dict__)
    new._state = ModelState()
    new._state.adding = False
    new._state.db = game._state.db
    return new
