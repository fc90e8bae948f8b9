from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0002_event_log_append_only"),
    ]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="bot",
            field=models.BooleanField(default=False, help_text="a bot plays this seat"),
        ),
    ]
