"""A tournament's rulings are numbered, chained and signed (``tournaments.brackets.rulings``), so
a ruling changed by someone who lifted the append-only triggers (0009) is found by
``manage.py verify_events``.

The rulings recorded before are signed here, tournament by tournament in the order they were
made, with the deployment's signing key (``CHAIN_SIGNING_KEY``): the server attests to them as
they stand when it is upgraded. To write their numbers and signatures this migration lifts the
append-only trigger for that one UPDATE and puts it back in the same transaction (PostgreSQL);
on SQLite, where Django alters a table by copying it (which drops its triggers), the triggers of
0009 are made again at the end.
"""

from importlib import import_module

from django.conf import settings
from django.db import migrations, models

APPEND_ONLY = import_module("tournaments.migrations.0009_rulings_append_only")
PG_TRIGGER = "tournaments_ruling_no_update_or_delete"


def sign_recorded(apps, schema_editor):
    from games.chain import signer_for
    from tournaments.brackets.rulings import sign_chain

    Ruling = apps.get_model("tournaments", "Ruling")
    rows = list(Ruling.objects.order_by("tournament_id", "created_at", "pk"))
    if not rows:
        return
    signer = signer_for(settings.CHAIN_SIGNING_KEY)
    by_tournament: dict[int, list] = {}
    for row in rows:
        by_tournament.setdefault(row.tournament_id, []).append(row)
    for chain in by_tournament.values():
        sign_chain(chain, signer)
    vendor = schema_editor.connection.vendor
    with schema_editor.connection.cursor() as cursor:
        if vendor == "postgresql":
            cursor.execute(f"ALTER TABLE tournaments_ruling DISABLE TRIGGER {PG_TRIGGER}")
        else:
            for statement in APPEND_ONLY.SQLITE_REVERSE:
                cursor.execute(statement)
    Ruling.objects.bulk_update(rows, ["sequence", "link", "signature"], batch_size=500)
    if vendor == "postgresql":
        with schema_editor.connection.cursor() as cursor:
            cursor.execute(f"ALTER TABLE tournaments_ruling ENABLE TRIGGER {PG_TRIGGER}")


def unsign_recorded(apps, schema_editor):
    """Going back leaves the numbers and signatures to the columns' removal."""


def sqlite_triggers_again(apps, schema_editor):
    if schema_editor.connection.vendor == "sqlite":
        APPEND_ONLY.reverse(apps, schema_editor)  # (IF EXISTS: whichever the copies left)
        APPEND_ONLY.forward(apps, schema_editor)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0010_closed_tables_say_who"),
    ]

    operations = [
        # Undone, the copies below drop SQLite's triggers: this, undone last, makes them again.
        migrations.RunPython(migrations.RunPython.noop, sqlite_triggers_again, elidable=False),
        migrations.AddField(
            model_name="ruling",
            name="sequence",
            field=models.PositiveIntegerField(editable=False, null=True),
        ),
        migrations.AddField(
            model_name="ruling",
            name="link",
            field=models.CharField(default="", editable=False, max_length=64),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="ruling",
            name="signature",
            field=models.CharField(default="", editable=False, max_length=200),
            preserve_default=False,
        ),
        migrations.RunPython(sign_recorded, unsign_recorded, elidable=False),
        migrations.AlterField(
            model_name="ruling",
            name="sequence",
            field=models.PositiveIntegerField(editable=False),
        ),
        migrations.AlterModelOptions(
            name="ruling",
            options={"ordering": ["tournament", "sequence"]},
        ),
        migrations.AddConstraint(
            model_name="ruling",
            constraint=models.UniqueConstraint(
                fields=("tournament", "sequence"), name="tournaments_ruling_numbered_once"
            ),
        ),
        migrations.RunPython(sqlite_triggers_again, migrations.RunPython.noop, elidable=False),
    ]
