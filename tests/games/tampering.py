"""What someone with the database's password can do to the log behind the store's back, and the
operator's check that finds it (``manage.py verify_events``)."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.db import connection


def tamper(sql: str, params, table: str = "games_event") -> None:
    """Run ``sql`` on ``table`` as someone who can write to the database would: an append-only
    table (the log, a tournament's rulings) with its triggers lifted, inside the test's
    transaction (rolled back afterwards, triggers included)."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            # Check the deferred foreign keys first: PostgreSQL will not alter a table with
            # pending trigger events.
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            cursor.execute(f"ALTER TABLE {table} DISABLE TRIGGER USER")
            cursor.execute(sql, params)
            cursor.execute(f"ALTER TABLE {table} ENABLE TRIGGER USER")
        else:
            cursor.execute(f"DROP TRIGGER IF EXISTS {table}_no_update")
            cursor.execute(f"DROP TRIGGER IF EXISTS {table}_no_delete")
            cursor.execute(sql, params)


def verify(*args: str) -> str:
    """``manage.py verify_events`` with ``args``: what it printed (it raises CommandError)."""
    out = StringIO()
    call_command("verify_events", *args, stdout=out)
    return out.getvalue()


def reported() -> str:
    """``manage.py verify_events`` where it must find something: what it reported (it exits 1)."""
    with pytest.raises(CommandError) as excinfo:
        verify()
    assert excinfo.value.returncode == 1
    return str(excinfo.value)
