"""`manage.py export_games`: every game's whole record as JSON lines, one game a line.

A line holds the game's row, its seats (with their secrets, so seat links keep working after a
restore), its referees, every event exactly as stored (data, actor, key, batch, time, salt,
commitment, hash, prev_hash, signature, command digest) and its disputes. Users are named by
username. `import_games` reads it back and re-verifies every chain before writing anything.

The file is as secret as the database: it holds the seats' secrets and, for games still on,
the salts that hide their cards.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any
from uuid import UUID

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser
from django.db import models

from games.models import Dispute, Event, Game, GameReferee, Seat

FORMAT = "unoclub.games/1"


def user_field(field: models.Field) -> bool:
    return field.is_relation and field.related_model._meta.label == settings.AUTH_USER_MODEL


def plain(value: Any) -> Any:
    if isinstance(value, UUID):
        return str(value)
    if isinstance(value, datetime):
        return value.isoformat()
    return value


def row_dict(obj: models.Model, skip: tuple[str, ...] = ()) -> dict[str, Any]:
    """The row's stored fields by name (users by username), leaving out ``skip`` and the game
    it belongs to."""
    out: dict[str, Any] = {}
    for field in obj._meta.concrete_fields:
        if field.name in skip or (field.is_relation and field.related_model is Game):
            continue
        if user_field(field):
            user = getattr(obj, field.name)
            out[field.name] = user.get_username() if user is not None else None
        else:
            out[field.name] = plain(getattr(obj, field.attname))
    return out


def game_line(game: Game) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "game": row_dict(game),
        "seats": [row_dict(s, ("id",)) for s in Seat.objects.filter(game=game).order_by("seat")],
        "referees": [
            r.user.get_username()
            for r in GameReferee.objects.filter(game=game).select_related("user").order_by("pk")
        ],
        "events": [
            row_dict(e, ("position",))
            for e in Event.objects.filter(game=game).order_by("version").iterator(chunk_size=2000)
        ],
        "disputes": [
            row_dict(d, ("id",)) for d in Dispute.objects.filter(game=game).order_by("pk")
        ],
    }


class Command(BaseCommand):
    help = "Write every game (rows, seats, events with their chain, disputes) as JSON lines."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--output", "-o", default="-", help="the file to write (default: standard output)"
        )
        parser.add_argument(
            "--game", action="append", default=[], help="only this game (repeatable)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        games = Game.objects.select_related("created_by").order_by("created_at", "id")
        if options["game"]:
            games = games.filter(pk__in=options["game"])
        path = options["output"]
        stream = None if path == "-" else open(path, "w", encoding="utf-8")  # noqa: SIM115
        count = 0
        try:
            for game in games.iterator(chunk_size=200):
                line = json.dumps(game_line(game), separators=(",", ":"))
                if stream is None:
                    self.stdout.write(line)
                else:
                    stream.write(line + "\n")
                count += 1
        finally:
            if stream is not None:
                stream.close()
        self.stderr.write(f"exported {count} games", style_func=lambda text: text)
