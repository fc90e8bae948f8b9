"""What a club typed in and the standings and rounds are read through is signed by the server
(``games.records``): a league's name and defaults, a season's standings settings, a night's
number and date, a league player's name, a tournament's name, organiser and settings. Someone
who can write to the database but does not hold the signing key then cannot swap two players'
names or change how a season is added up unnoticed by ``manage.py verify_events``.

The rows written before are signed here with the deployment's signing key
(``CHAIN_SIGNING_KEY``), as they stand when it is upgraded (as 0011 and 0012 did for rulings
and seatings). The fields are listed here as they were first signed, so a later change to a
model's ``signed_fields`` comes with a migration of its own.
"""

from django.conf import settings
from django.db import migrations, models

SIGNED = {
    "league": ("name", "variant", "scoring", "target", "options"),
    "player": ("league", "name"),
    "season": (
        "league",
        "name",
        "variant",
        "scoring",
        "target",
        "best_nights",
        "attendance_points",
    ),
    "night": ("season", "number", "date"),
    "tournament": (
        "name",
        "organiser",
        "variant",
        "scoring",
        "target",
        "options",
        "format",
        "table_size",
        "advance",
        "rounds",
        "final_table",
        "duplicate_deals",
        "seeding",
        "turn_seconds",
    ),
}


def sign_recorded(apps, schema_editor):
    from games.chain import signer_for
    from games.records import sign_all

    signer = signer_for(settings.CHAIN_SIGNING_KEY)
    for model, fields in SIGNED.items():
        sign_all(apps.get_model("tournaments", model), fields, signer)


def signature():
    return models.CharField(blank=True, default="", editable=False, max_length=200)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0012_seating_signed"),
    ]

    operations = [
        *(migrations.AddField(model, "signature", signature()) for model in SIGNED),
        migrations.RunPython(sign_recorded, migrations.RunPython.noop, elidable=False),
    ]
