"""A tournament's entries are signed by the server (``games.records``): the player, the seed,
the round they joined in, and whether they dropped out or checked in decide who is seated in
the next round and where, so someone who can write to the database but does not hold the
signing key cannot seed a player higher or bring back one who dropped unnoticed by
``manage.py verify_events``.

The entries written before are signed here as they stand when the service is upgraded (as 0013
did for leagues, players, seasons, nights and tournaments), with the fields as they were first
signed.
"""

from django.conf import settings
from django.db import migrations, models

SIGNED = ("tournament", "player", "seed", "joined", "dropped", "checked_in")


def sign_entries(apps, schema_editor):
    from games.chain import signer_for
    from games.records import sign_all

    signer = signer_for(settings.CHAIN_SIGNING_KEY)
    sign_all(apps.get_model("tournaments", "entry"), SIGNED, signer)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0013_records_signed"),
    ]

    operations = [
        migrations.AlterModelOptions(
            name="entry",
            options={"ordering": ["tournament", "seed"], "verbose_name_plural": "entries"},
        ),
        migrations.AddField(
            "entry",
            "signature",
            models.CharField(blank=True, default="", editable=False, max_length=200),
        ),
        migrations.RunPython(sign_entries, migrations.RunPython.noop, elidable=False),
    ]
