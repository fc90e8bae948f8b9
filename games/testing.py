"""Test support: emptying the append-only log of a *test* database.

Django flushes the database after each transactional test (``transaction=True``) with one
TRUNCATE (PostgreSQL) or a DELETE per table (SQLite), which the log's triggers refuse while it
holds events. A transactional test that appends events calls ``erase_event_log_for_tests()``
before that flush (tests/games/conftest.py does it for every transactional test there).
"""

from pathlib import Path

from django.db import connection, transaction

from games import store


def erase_event_log_for_tests() -> None:
    """Delete every event, briefly lifting the append-only triggers, and forget the states
    cached from them. Test databases only."""
    name = str(connection.settings_dict["NAME"])
    in_memory = connection.vendor == "sqlite" and connection.is_in_memory_db()
    # A PostgreSQL test database's name, or an SQLite test file's (config/settings.py).
    if not (Path(name).name.startswith("test_") or in_memory):
        raise RuntimeError(f"refusing to erase the event log of {name!r}: not a test database")
    with transaction.atomic(), connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("ALTER TABLE games_event DISABLE TRIGGER USER")
            cursor.execute("DELETE FROM games_event")
            cursor.execute("ALTER TABLE games_event ENABLE TRIGGER USER")
        else:
            cursor.execute(
                "SELECT name, sql FROM sqlite_master"
                " WHERE type = 'trigger' AND tbl_name = 'games_event'"
            )
            triggers = cursor.fetchall()
            for trigger, _ in triggers:
                cursor.execute(f'DROP TRIGGER "{trigger}"')
            cursor.execute("DELETE FROM games_event")
            for _, sql in triggers:
                cursor.execute(sql)
    store.forget_all()
