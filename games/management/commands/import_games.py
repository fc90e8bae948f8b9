"""`manage.py import_games FILE`: read back what `export_games` wrote, trusting nothing.

Every line's chain is verified first, as `verify_events` verifies the database
(``verify_events.game_problem``: versions without a gap, every commitment opens to its data,
every hash links to the one before, every command's head carries a signature of a key this
server knows, and the game's version is where its log ends). One line that fails refuses the
whole import, naming the game and the version, and nothing is written. A game already here
with the same record is skipped, so importing twice duplicates nothing; a game here with
another record refuses the import. Then everything is written in one transaction and the
projections are rebuilt from the log (``--no-rebuild`` leaves that to
`manage.py rebuild_projections`).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import models, transaction

from games import chain, rebuild, store
from games.management.commands.export_games import FORMAT, user_field
from games.management.commands.verify_events import game_problem
from games.models import Dispute, Event, Game, GameReferee, Seat


def build(model: type[models.Model], values: dict[str, Any], users: dict[str, Any], **extra):
    """An unsaved ``model`` row from an exported dict: each known field parsed by the field
    (times, ids), users found by username (None when this server has no such user)."""
    kwargs: dict[str, Any] = {}
    for field in model._meta.concrete_fields:
        if field.name not in values:
            continue
        value = values[field.name]
        if user_field(field):
            kwargs[field.name] = users.get(value) if value is not None else None
        elif field.is_relation:
            continue
        else:
            kwargs[field.attname] = field.to_python(value)
    return model(**kwargs, **extra)


class Line:
    """One exported game, parsed and checked."""

    def __init__(self, number: int, text: str, users: dict[str, Any]) -> None:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise CommandError(f"line {number}: not JSON ({exc})") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise CommandError(f"line {number}: not a game exported by export_games ({FORMAT})")
        try:
            self.game = build(Game, data["game"], users)
            game_id = self.game.pk
            self.seats = [build(Seat, s, users, game_id=game_id) for s in data["seats"]]
            self.events = [build(Event, e, users, game_id=game_id) for e in data["events"]]
            self.disputes = [build(Dispute, d, users, game_id=game_id) for d in data["disputes"]]
            self.referees = [users[name] for name in data.get("referees", []) if name in users]
        except (KeyError, TypeError, ValueError, models.ObjectDoesNotExist) as exc:
            raise CommandError(f"line {number}: cannot be read ({exc!r})") from None
        except Exception as exc:  # a field's own validation error
            raise CommandError(f"line {number}: cannot be read ({exc})") from None
        if game_id is None:
            raise CommandError(f"line {number}: the game has no id")

    def problem(self, public_keys: dict[str, str], allow_unsigned: bool) -> str | None:
        return game_problem(
            self.game.pk, self.events, self.game.version, public_keys, allow_unsigned
        )

    def already_here(self) -> bool:
        """Whether the game is here with this record (then it is skipped); CommandError when
        it is here with another."""
        here = Game.objects.filter(pk=self.game.pk).values_list("version", flat=True).first()
        if here is None:
            return False
        count = len(self.events)
        head = (
            Event.objects.filter(game_id=self.game.pk, version=count)
            .values_list("hash", flat=True)
            .first()
        )
        if here >= count and (count == 0 or head == self.events[-1].hash):
            return True
        raise CommandError(
            f"game {self.game.pk} version {count}: the game is here already with another "
            f"record (at version {here}); import refused"
        )

    def write(self) -> None:
        self.game.save(force_insert=True)
        Seat.objects.bulk_create(self.seats)
        Event.objects.bulk_create(self.events, batch_size=1000)
        Dispute.objects.bulk_create(self.disputes)
        GameReferee.objects.bulk_create(
            GameReferee(game_id=self.game.pk, user=user) for user in self.referees
        )


class Command(BaseCommand):
    help = "Import games written by export_games (JSON lines), verifying every chain first."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the file export_games wrote ('-': standard input)")
        parser.add_argument(
            "--allow-unsigned",
            action="store_true",
            help="accept games recorded before commitments and signatures were kept",
        )
        parser.add_argument(
            "--no-rebuild",
            action="store_true",
            help="do not rebuild the projections after (run rebuild_projections yourself)",
        )

    def lines(self, path: str) -> Iterator[tuple[int, str]]:
        stream = sys.stdin if path == "-" else open(path, encoding="utf-8")  # noqa: SIM115
        try:
            for number, text in enumerate(stream, start=1):
                if text.strip():
                    yield number, text
        finally:
            if stream is not sys.stdin:
                stream.close()

    def handle(self, *args: Any, **options: Any) -> None:
        users = {u.get_username(): u for u in get_user_model().objects.all()}
        keys = chain.server_public_keys()
        games: list[Line] = []
        seen: set[str] = set()
        for number, text in self.lines(options["file"]):
            line = Line(number, text, users)
            problem = line.problem(keys, options["allow_unsigned"])
            if problem is not None:
                raise CommandError(f"line {number}: {problem}; nothing was imported")
            if str(line.game.pk) in seen:
                raise CommandError(f"line {number}: game {line.game.pk} appears twice")
            seen.add(str(line.game.pk))
            games.append(line)
        imported = skipped = events = 0
        with transaction.atomic():
            for line in games:
                if line.already_here():
                    skipped += 1
                    continue
                line.write()
                imported += 1
                events += len(line.events)
            if imported and not options["no_rebuild"]:
                rebuild.rebuild()
        store.forget_all()
        self.stdout.write(
            f"imported {imported} games ({events} events, every chain verified); "
            f"{skipped} already here"
        )
