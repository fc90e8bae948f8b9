"""Tables a director decided by a ruling before ``Game.closed`` existed (games 0007) had games
still open to moves: such a game could go on to another result than the bracket's. Close each
one as ``brackets.services.decide_table`` closes a table now, with the same words."""

from django.db import migrations

_DECIDED = {
    "award": "awarded this table's result",
    "time": "called time on this table",
    "absent": "decided this table: players were absent",
}


def _ordinal(number: int) -> str:
    suffix = (
        "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    )
    return f"{number}{suffix}"


def close_decided_tables(apps, schema_editor) -> None:
    table_model = apps.get_model("tournaments", "Table")
    game_model = apps.get_model("games", "Game")
    decided = table_model.objects.filter(
        status="finished", decided_by__in=list(_DECIDED), game__status="playing", game__closed=""
    )
    for table in decided.only("game_id", "decided_by", "placings"):
        places = ", ".join(
            f"{_ordinal(i)} {name}" for i, name in enumerate(table.placings, start=1)
        )
        game_model.objects.filter(pk=table.game_id, closed="").update(
            closed=(
                f"The tournament's director {_DECIDED[table.decided_by]} ({places}): the game "
                "takes no more moves unless the director reopens the table."
            )
        )


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0006_edition_options"),
        ("games", "0007_game_closed"),
    ]

    operations = [migrations.RunPython(close_decided_tables, migrations.RunPython.noop)]
