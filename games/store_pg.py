"""The store's append in one statement, on PostgreSQL (games.store decides when to use it).

On PostgreSQL, outside a transaction, when this process knows the end of the game's log (the
version and hash it appended or read last) and every projector can say its part in SQL, the
whole append is one statement, and so one round trip that commits itself:

  WITH moved AS (UPDATE game SET version, status WHERE id = game AND version = expected
                 [AND the key was never used] RETURNING id),
       appended AS (INSERT INTO event SELECT the rows WHERE EXISTS (SELECT 1 FROM moved)),
       p0 AS (a projector's statement), ..., [the snapshot],
       live AS (SELECT pg_notify(the tables' channel, "game version") FROM moved)
  SELECT version, position FROM appended WHERE EXISTS (SELECT 1 FROM live)

The UPDATE is the compare-and-set: a writer that races another waits for its row lock and
then finds the version moved on, so it moves nothing and appends nothing. Nothing appended
means stale or the key was used: one more query tells which. The unique (game, version) and
(game, actor, key) constraints still stand behind it. Anything else (inside a transaction, a
rewind, the first append of a process, a projector that must run Python) takes the locked
path (games.store), which ends the same way.
"""

from __future__ import annotations

from functools import cache
from typing import Any
from uuid import UUID

import psycopg
from django.db import IntegrityError, connection
from django.db.models.base import ModelState
from psycopg.types.json import Jsonb

from games import live, projections, state_cache
from games.appending import (
    EVENT_COLUMNS,
    Append,
    KeyUsed,
    committed,
    make_rows,
    snapshot_row,
    wants_snapshot,
)
from games.errors import NotFound, Stale
from games.models import Event, Game, Snapshot
from rules import GameState, IllegalCommand
from rules.events import Rewound


def append_in_one_statement(db: Any, append: Append, state: GameState) -> list[Event] | None:
    """The append as one self-committing statement, or None when it must take the locked
    path. Raises ``Stale``, ``KeyUsed`` or ``NotFound`` as the locked path does."""
    game_id, expected, events = append.game_id, append.expected, append.events
    actor, key = append.actor, append.key
    head = state_cache.head(game_id)
    if head is None or head.version != expected or expected == 0:
        return None
    if state.version != expected + len(events) or any(type(e) is Rewound for e in events):
        return None
    game = _copy_game(head.game)
    game.version = state.version
    game.status = Game.Status.FINISHED if state.finished else Game.Status.PLAYING
    rows = make_rows(append, head.hash)
    parts = projections.statements(game, rows, state)
    if parts is None:
        return None
    if wants_snapshot(expected, state.version, events):
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
    # The tables' live updates (games.live): NOTIFY rides in the statement, so it is sent at
    # its commit and only when it appended (nothing moved, nothing said).
    sql.append(", live AS (SELECT pg_notify(%s, %s) FROM moved)")
    params += [live.CHANNEL, live.notify_payload(game.pk, game.version)]
    sql.append(" SELECT version, position FROM appended WHERE EXISTS (SELECT 1 FROM live)")
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
    committed(game, rows, state, already=True)
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
    field = {name: Event._meta.get_field(name) for name in EVENT_COLUMNS}

    def typed(name: str) -> str:
        return projections.typed_placeholder(field[name])

    def column(name: str) -> str:
        return f"{name} {field[name].db_type(connection)}"

    recorded = ("type", "data", "hash", "salt", "commitment", "signature")
    return (
        f"WITH moved AS (UPDATE {game_table} SET version = %s, status = %s"
        " WHERE id = %s AND version = %s AND closed = '' AND NOT EXISTS"
        f" (SELECT 1 FROM {event_table} k WHERE k.game_id = %s AND k.actor = %s AND k.key = %s)"
        " RETURNING id),"
        f" appended AS (INSERT INTO {event_table} ({', '.join(EVENT_COLUMNS)})"
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
    """Why an append appended nothing: raise ``NotFound``, ``KeyUsed``, ``IllegalCommand`` (the
    game is closed: ``Game.closed``) or ``Stale``."""
    state_cache.forget_head(game_id)
    game_table, event_table = Game._meta.db_table, Event._meta.db_table
    keyed = f"FROM {event_table} e WHERE e.game_id = g.id AND e.actor = %s AND e.key = %s"
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT g.version, (SELECT e.version {keyed}), (SELECT e.command_digest {keyed}),"
            f" g.closed FROM {game_table} g WHERE g.id = %s",
            [actor, key, actor, key, Game._meta.pk.get_db_prep_value(game_id, connection)],
        )
        row = cursor.fetchone()
    if row is None:
        raise NotFound(f"no game {game_id}")
    version, key_version, key_digest, closed = row
    if key_version is not None:
        raise KeyUsed(key_version, key_digest)
    if closed:
        raise IllegalCommand(closed)
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
    snapshot = snapshot_row(game_id, state, head)
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
