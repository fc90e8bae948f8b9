"""Test support: emptying the append-only log of a *test* database.

Django flushes the database after each transactional test (``transaction=True``) with one
TRUNCATE (PostgreSQL) or a DELETE per table (SQLite), which the log's triggers refuse while it
holds events. A transactional test that appends events calls ``erase_event_log_for_tests()``
before that flush (tests/games/conftest.py does it for every transactional test there). Other
apps' append-only tables are emptied the same way with ``erase_append_only_rows_for_tests``.
"""

from pathlib import Path

from django.db import connection, transaction

from games import store


def erase_event_log_for_tests() -> None:
    """Delete every event, briefly lifting the append-only triggers, and forget the states
    cached from them. Test databases only."""
    erase_append_only_rows_for_tests("games_event")
    store.forget_all()


def erase_append_only_rows_for_tests(table: str) -> None:
    """Delete every row of the append-only ``table``, briefly lifting its triggers. Test
    databases only."""
    name = str(connection.settings_dict["NAME"])
    in_memory = connection.vendor == "sqlite" and connection.is_in_memory_db()
    # A PostgreSQL test database's name, or an SQLite test file's (config/settings.py).
    if not (Path(name).name.startswith("test_") or in_memory):
        raise RuntimeError(f"refusing to erase {table} of {name!r}: not a test database")
    quoted = connection.ops.quote_name(table)
    with transaction.atomic(), connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(f"ALTER TABLE {quoted} DISABLE TRIGGER USER")
            cursor.execute(f"DELETE FROM {quoted}")
            cursor.execute(f"ALTER TABLE {quoted} ENABLE TRIGGER USER")
        else:
            cursor.execute(
                "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = %s",
                [table],
            )
            triggers = cursor.fetchall()
            for trigger, _ in triggers:
                cursor.execute(f'DROP TRIGGER "{trigger}"')
            cursor.execute(f"DELETE FROM {quoted}")
            for _, sql in triggers:
                cursor.execute(sql)
