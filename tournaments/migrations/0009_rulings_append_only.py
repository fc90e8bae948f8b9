"""A tournament's rulings (``tournaments_ruling``: its director's decisions with their reasons)
are append-only, enforced by the database as the games' event log is (games 0002): UPDATE and
DELETE of a ruling and TRUNCATE of a table that holds any are refused, whoever asks (the ORM,
raw SQL, psql). A decision is taken back by a later ruling (a table reopened), never by
changing the one recorded.

What deleted or changed rulings before: deleting a tournament took its rulings with it
(CASCADE), and deleting the user who made one emptied its ``by`` (SET_NULL). Both are PROTECT
now: a tournament with rulings, and a user who made one, cannot be deleted (ProtectedError, which
the admin shows as a page saying so), as a game with events cannot. The admin never deleted a
started tournament anyway (its rounds are not deleted there), and every ruling is of a started
one. Neither alteration changes the schema.

PostgreSQL: one plpgsql function, a BEFORE UPDATE OR DELETE row trigger and a BEFORE TRUNCATE
statement trigger. TRUNCATE of an *empty* table is let through: it destroys nothing, and
Django's test runner flushes every table with one TRUNCATE after each transactional test (the
tests empty the rulings first: ``tournaments.brackets.testing.erase_rulings_for_tests``).
SQLite (the embedded default): BEFORE UPDATE and BEFORE DELETE triggers that RAISE(ABORT).

Careful on SQLite: Django alters a table there by copying it into a new one, which drops its
triggers. A later migration that alters tournaments_ruling must run this one's SQL again.
"""

from django.conf import settings
from django.db import migrations, models

POSTGRES_FORWARD = """
CREATE FUNCTION tournaments_ruling_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'TRUNCATE' AND NOT EXISTS (SELECT 1 FROM tournaments_ruling) THEN
        RETURN NULL;
    END IF;
    RAISE EXCEPTION 'tournaments_ruling is append-only: % is not allowed', TG_OP
        USING ERRCODE = 'restrict_violation',
              HINT = 'A ruling is taken back by a later one; none is changed or deleted.';
END;
$$;
CREATE TRIGGER tournaments_ruling_no_update_or_delete
    BEFORE UPDATE OR DELETE ON tournaments_ruling
    FOR EACH ROW EXECUTE FUNCTION tournaments_ruling_append_only();
CREATE TRIGGER tournaments_ruling_no_truncate
    BEFORE TRUNCATE ON tournaments_ruling
    FOR EACH STATEMENT EXECUTE FUNCTION tournaments_ruling_append_only();
"""

POSTGRES_REVERSE = """
DROP TRIGGER IF EXISTS tournaments_ruling_no_truncate ON tournaments_ruling;
DROP TRIGGER IF EXISTS tournaments_ruling_no_update_or_delete ON tournaments_ruling;
DROP FUNCTION IF EXISTS tournaments_ruling_append_only();
"""

SQLITE_FORWARD = [
    """
    CREATE TRIGGER tournaments_ruling_no_update BEFORE UPDATE ON tournaments_ruling
    BEGIN
        SELECT RAISE(ABORT, 'tournaments_ruling is append-only: UPDATE is not allowed');
    END
    """,
    """
    CREATE TRIGGER tournaments_ruling_no_delete BEFORE DELETE ON tournaments_ruling
    BEGIN
        SELECT RAISE(ABORT, 'tournaments_ruling is append-only: DELETE is not allowed');
    END
    """,
]

SQLITE_REVERSE = [
    "DROP TRIGGER IF EXISTS tournaments_ruling_no_update",
    "DROP TRIGGER IF EXISTS tournaments_ruling_no_delete",
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
    dependencies = [
        ("tournaments", "0008_table_held_after_reopen"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AlterField(
            model_name="ruling",
            name="tournament",
            field=models.ForeignKey(
                on_delete=models.deletion.PROTECT,
                related_name="rulings",
                to="tournaments.tournament",
            ),
        ),
        migrations.AlterField(
            model_name="ruling",
            name="by",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=models.deletion.PROTECT,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.RunPython(forward, reverse, elidable=False),
    ]
