"""Each duplicate-deal round draws its own seed; the tournament's seed, which every table's seed
used to be derived from, no longer feeds chance and is kept, renamed, for older tournaments."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0002_tournament_rounds_tables"),
    ]

    operations = [
        migrations.RenameField(model_name="tournament", old_name="seed", new_name="legacy_seed"),
        migrations.AlterField(
            model_name="tournament",
            name="legacy_seed",
            field=models.CharField(blank=True, default="", max_length=32),
        ),
        migrations.AddField(
            model_name="round",
            name="seed",
            field=models.CharField(
                blank=True,
                default="",
                help_text="duplicate deals: the round's seed",
                max_length=64,
            ),
        ),
    ]
