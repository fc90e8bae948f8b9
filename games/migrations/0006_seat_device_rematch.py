"""Joining a table by its seat links: the first browser that opened a seat's link (so a second
one can be told), and a finished game's rematch with the same seats."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0005_game_set_up"),
    ]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="device",
            field=models.CharField(blank=True, default="", editable=False, max_length=64),
        ),
        migrations.AddField(
            model_name="seat",
            name="joined_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="game",
            name="rematch_of",
            field=models.OneToOneField(
                blank=True,
                help_text="the finished game this one is the rematch of",
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="rematch",
                to="games.game",
            ),
        ),
    ]
