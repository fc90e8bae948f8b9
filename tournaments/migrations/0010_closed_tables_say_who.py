"""A table a director decided by a forfeit, a disqualification or a no-show, or one ended for
want of players present, told its players only the placings (``Game.closed``). Say who the
ruling is against, as ``brackets.services.decide_table`` writes it now and the tournament page
says it: "(Vic forfeited; placed 1st Tia, 2nd Vic)". A table whose words are not the ones the
ruling wrote (reopened since, its deal shown) is left as it is."""

from django.db import migrations

_DECIDED = {"award": "awarded this table's result", "absent": "decided this table"}
_OLD_ABSENT = "decided this table: players were absent"
_WORDS = {
    "forfeit": "{who} forfeited",
    "disqualification": "{who} {was} disqualified",
    "no_show": "{who} did not show",
}
_AGAINST = tuple(_WORDS)


def _ordinal(number: int) -> str:
    suffix = (
        "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    )
    return f"{number}{suffix}"


def _names_and(names: list[str]) -> str:
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else "".join(names)


def _closing(decided: str, what: str) -> str:
    return (
        f"The tournament's director {decided} ({what}): the game takes no more moves unless "
        "the director reopens the table."
    )


def say_who(apps, schema_editor) -> None:
    table_model = apps.get_model("tournaments", "Table")
    ruling_model = apps.get_model("tournaments", "Ruling")
    game_model = apps.get_model("games", "Game")
    decided = table_model.objects.filter(
        status="finished", decided_by__in=list(_DECIDED), game__status="playing"
    ).select_related("round")
    for table in decided:
        placings = list(table.placings)
        places = ", ".join(f"{_ordinal(i)} {name}" for i, name in enumerate(placings, start=1))
        if table.decided_by == "absent":
            old = _closing(_OLD_ABSENT, places)
            kind, against = "no_show", [p for p in placings if p in table.absent]
        else:
            old = _closing(_DECIDED["award"], places)
            kind = (
                ruling_model.objects.filter(
                    tournament_id=table.round.tournament_id,
                    round_number=table.round.number,
                    table_number=table.number,
                    kind__in=_AGAINST,
                )
                .order_by("-created_at", "-pk")
                .values_list("kind", flat=True)
                .first()
            )
            against = placings[-1:]
        if kind is None or not against:
            continue
        who = _WORDS[kind].format(
            who=_names_and(against), was="was" if len(against) < 2 else "were"
        )
        game_model.objects.filter(pk=table.game_id, closed=old).update(
            closed=_closing(_DECIDED[table.decided_by], f"{who}; placed {places}")
        )


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0009_rulings_append_only"),
        ("games", "0007_game_closed"),
    ]

    operations = [migrations.RunPython(say_who, migrations.RunPython.noop)]
