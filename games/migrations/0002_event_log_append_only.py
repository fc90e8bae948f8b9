"""The event log is append-only, enforced by the database: UPDATE and DELETE of an event and
TRUNCATE of a non-empty log are refused, whoever asks (the ORM, raw SQL, psql).

PostgreSQL: one plpgsql function, a BEFORE UPDATE OR DELETE row trigger and a BEFORE TRUNCATE
statement trigger. TRUNCATE of an *empty* log is let through: it destroys nothing, and Django's
test runner flushes every table with one TRUNCATE after each transactional test.
SQLite (the embedded default): BEFORE UPDATE and BEFORE DELETE triggers that RAISE(ABORT);
SQLite has no TRUNCATE (its DELETE without WHERE fires the delete trigger per row).

Careful on SQLite: Django alters a table there by copying it into a new one, which drops its
triggers. A later migration that alters games_event must run this one's SQL again.
"""

from django.db import migrations

POSTGRES_FORWARD = """
CREATE FUNCTION games_event_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'TRUNCATE' AND NOT EXISTS (SELECT 1 FROM games_event) THEN
        RETURN NULL;
    END IF;
    RAISE EXCEPTION 'games_event is append-only: % is not allowed', TG_OP
        USING ERRCODE = 'restrict_violation',
              HINT = 'Undo appends a Rewound event; nothing in the log is changed or deleted.';
END;
$$;
CREATE TRIGGER games_event_no_update_or_delete
    BEFORE UPDATE OR DELETE ON games_event
    FOR EACH ROW EXECUTE FUNCTION games_event_append_only();
CREATE TRIGGER games_event_no_truncate
    BEFORE TRUNCATE ON games_event
    FOR EACH STATEMENT EXECUTE FUNCTION games_event_append_only();
"""

POSTGRES_REVERSE = """
DROP TRIGGER IF EXISTS games_event_no_truncate ON games_event;
DROP TRIGGER IF EXISTS games_event_no_update_or_delete ON games_event;
DROP FUNCTION IF EXISTS games_event_append_only();
"""

SQLITE_FORWARD = [
    """
    CREATE TRIGGER games_event_no_update BEFORE UPDATE ON games_event
    BEGIN
        SELECT RAISE(ABORT, 'games_event is append-only: UPDATE is not allowed');
    END
    """,
    """
    CREATE TRIGGER games_event_no_delete BEFORE DELETE ON games_event
    BEGIN
        SELECT RAISE(ABORT, 'games_event is append-only: DELETE is not allowed');
    END
    """,
]

SQLITE_REVERSE = [
    "DROP TRIGGER IF EXISTS games_event_no_update",
    "DROP TRIGGER IF EXISTS games_event_no_delete",
]


def _run(schema_editor, postgres: str, sqlite: list[str]) -> None:
    vendor = schema_editor.connection.vendor
    # params=None: no placeholder interpolation, so the '%' of RAISE's format is left alone.
    if vendor == "postgresql":
        schema_editor.execute(postgres, params=None)
    elif vendor == "sqlite":
        for statement in sqlite:
            schema_editor.execute(statement, params=None)
    else:
        raise NotImplementedError(f"no append-only triggers written for {vendor}")


def forward(apps, schema_editor):
    _run(schema_editor, POSTGRES_FORWARD, SQLITE_FORWARD)


def reverse(apps, schema_editor):
    _run(schema_editor, POSTGRES_REVERSE, SQLITE_REVERSE)


class Migration(migrations.Migration):
    dependencies = [("games", "0001_initial")]

    operations = [migrations.RunPython(forward, reverse, elidable=False)]
