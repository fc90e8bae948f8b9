"""Games a referee starts from a position (docs/POSITION.md) are marked set up: they rebuild a
disputed moment and never count in standings."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0004_trusted_record"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="set_up",
            field=models.BooleanField(
                default=False,
                help_text="started from a position a referee set up (never one that counts)",
            ),
        ),
    ]
