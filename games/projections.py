"""Projections: read models built from the event log, kept up to date inside the append's
transaction and rebuilt from the log by ``manage.py rebuild_projections`` (games.rebuild).

A projector has ``apply(game, event_rows, state)``, called once per append with the Game, the
Event rows just appended and the game's state after them, and ``reset()``, which empties its
tables before a rebuild. Apps register their own (standings, ratings) with ``register`` from
``AppConfig.ready()``; rebuilt must equal incremental, so ``apply`` may read only its arguments
and its own tables.

A projector may also have ``rebuilding()``, a context manager the rebuild enters after
``reset()`` and leaves after the last ``apply``: a projector that writes a row per append can
collect in memory inside it and write once as it leaves (an error leaves it with the error, and
the rebuild's transaction rolls back).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from typing import Any, Protocol

from django.db import connection
from django.utils import timezone
from psycopg.types.json import Jsonb

from games.models import Event, Game, TableView
from rules import GameState


class Projector(Protocol):
    def apply(self, game: Game, event_rows: list[Event], state: GameState) -> None: ...

    def reset(self) -> None: ...


_projectors: list[Projector] = []


def register(projector: Projector) -> Projector:
    """Keep ``projector`` up to date from now on (registering twice is harmless)."""
    if projector not in _projectors:
        _projectors.append(projector)
    return projector


def registered() -> tuple[Projector, ...]:
    return tuple(_projectors)


def project(game: Game, event_rows: list[Event], state: GameState) -> None:
    """Hand one append to every projector (the store calls this inside the transaction)."""
    for projector in _projectors:
        projector.apply(game, event_rows, state)


Statement = tuple[str, list[Any]]


def typed_placeholder(field: Any) -> str:
    """A placeholder cast to ``field``'s column type, for values an ``append_sql`` statement
    selects rather than inserts directly (PostgreSQL types a bare parameter there as text)."""
    return f"CAST(%s AS {field.db_type(connection)})"


# What a projector's ``append_sql`` returns when this append changes nothing of its tables.
NOTHING: Statement = ("", [])


def statements(game: Game, event_rows: list[Event], state: GameState) -> list[Statement] | None:
    """Every projector's part of one append as SQL, for the store to run inside the append's
    own statement (PostgreSQL), or None when some projector must run ``apply`` for it.

    A projector may have ``append_sql(game, event_rows, state)``: a data-modifying statement
    (with its parameters) that the store places in the append's ``WITH`` clause, where it may
    refer to ``moved``, the game row the append moved. It must change nothing when ``moved``
    is empty (the append did not happen), and must not need the rows' positions (not known
    yet). It returns ``NOTHING`` when the append changes nothing of its tables and None when
    this append needs ``apply``. A projector without it always gets ``apply``."""
    out = []
    for projector in _projectors:
        in_sql = getattr(projector, "append_sql", None)
        part = None if in_sql is None else in_sql(game, event_rows, state)
        if part is None:
            return None
        if part is not NOTHING:
            out.append(part)
    return out


_TABLE_VIEW_FIELDS = (
    *("status", "version", "hand_number", "turn", "top_card"),
    *("colour", "scores", "card_counts", "winner", "updated_at"),
)


def _table_view_update() -> str:
    model = TableView._meta
    assignments = ", ".join(f"{model.get_field(name).column} = %s" for name in _TABLE_VIEW_FIELDS)
    return f"UPDATE {model.db_table} SET {assignments} WHERE {model.pk.column} = %s"


@cache
def _table_view_upsert() -> str:
    """The TableView row of an append as one INSERT ... ON CONFLICT, for the append's own
    statement (PostgreSQL; made once)."""
    model = TableView._meta
    columns = [model.pk, *(model.get_field(name) for name in _TABLE_VIEW_FIELDS)]
    casts = ", ".join(typed_placeholder(f) for f in columns)
    names = [f.column for f in columns]
    updates = ", ".join(f"{name} = EXCLUDED.{name}" for name in names[1:])
    return (
        f"INSERT INTO {model.db_table} ({', '.join(names)}) SELECT {casts}"
        f" WHERE EXISTS (SELECT 1 FROM moved) ON CONFLICT ({names[0]}) DO UPDATE SET {updates}"
    )


class TableViewProjector:
    """One ``TableView`` row per game: what a list of tables shows."""

    def __init__(self) -> None:
        self._rebuilt: dict[object, dict[str, Any]] | None = None

    @staticmethod
    def fields(state: GameState) -> dict[str, Any]:
        kind, seat = state.pending
        return {
            "status": Game.Status.FINISHED if state.finished else Game.Status.PLAYING,
            "version": state.version,
            "hand_number": state.hand_number,
            "turn": seat if kind in ("turn", "drawn") else None,
            "top_card": state.top or "",
            "colour": state.colour or "",
            "scores": list(state.scores),
            "card_counts": [len(hand) for hand in state.hands],
            "winner": state.winner,
            "updated_at": timezone.now(),
        }

    def apply(self, game: Game, event_rows: list[Event], state: GameState) -> None:
        fields = self.fields(state)
        if self._rebuilt is not None:
            self._rebuilt[game.pk] = fields  # a rebuild keeps each game's last, writes once
            return
        # One UPDATE on the hot path, written out (the ORM's would cost more to build than to
        # run); the row is created by a game's first append.
        model = TableView._meta
        params = [
            model.get_field(name).get_db_prep_save(fields[name], connection)
            if name in ("scores", "card_counts", "updated_at")
            else fields[name]
            for name in _TABLE_VIEW_FIELDS
        ]
        params.append(model.pk.get_db_prep_value(game.pk, connection))
        with connection.cursor() as cursor:
            cursor.execute(_table_view_update(), params)
            updated = cursor.rowcount
        if not updated:
            TableView.objects.create(game_id=game.pk, **fields)

    def append_sql(self, game: Game, event_rows: list[Event], state: GameState) -> Statement | None:
        """The row written (or created) in the append's own statement."""
        if self._rebuilt is not None:
            return None
        fields = self.fields(state)
        # Values as the driver takes them (the statement runs on PostgreSQL only).
        fields["scores"] = Jsonb(fields["scores"])
        fields["card_counts"] = Jsonb(fields["card_counts"])
        return _table_view_upsert(), [game.pk, *(fields[name] for name in _TABLE_VIEW_FIELDS)]

    def reset(self) -> None:
        TableView.objects.all().delete()

    @contextmanager
    def rebuilding(self) -> Iterator[None]:
        self._rebuilt = {}
        try:
            yield
            TableView.objects.bulk_create(
                (TableView(game_id=game_id, **fields) for game_id, fields in self._rebuilt.items()),
                batch_size=2000,
            )
        finally:
            self._rebuilt = None


table_views = register(TableViewProjector())
