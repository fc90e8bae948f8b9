"""Who sat where, signed by the server, as a game's commands are (``games.chain``).

A game's log numbers its seats; the names at them, and what the game counts for (a league
night's table, a tournament's table, and the league players or entries at its seats), are rows
beside the log. The server signs them together as the game's *seating*:

    signature = the server's Ed25519 signature of canonical(["uno-seating-v1", game id, seating])
    seating   = [[[seat, name, bot] for each seat], season id or null, [part, ...]]

where each part is what an app that counts the game records of it
(``games.registry.seating_parts``): a league's ``["league", season, night, [player id at each
seat]]``, a tournament's ``["tournament", tournament, round, table, [name at each seat]]``.

Every service that seats players or moves a table signs the seating again (``seal``), in its
own transaction: creating a game, a rematch, a game against bots, a season's table, a table
taken off its night or moved to another, a tournament's round, a seat's name corrected in the
admin. ``manage.py verify_events`` then finds a seating changed by someone who can write to
the database but does not hold the signing key: a name swapped at a seat, a league player put
at another's seat, a table moved to another night or season (``problems``).

A game's accounts (who opens a seat signed in) are not part of it: linking a league player to
an account changes who may open the seat, not who sat there.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from typing import Any
from uuid import UUID

from django.db import transaction

from games import registry
from games.chain import canonical_json, server_signer, verify_message

_SEATING = "uno-seating-v1"

Seating = list[Any]


def seating_value(
    seats: Iterable[tuple[int, str, bool]], season_id: int | None, parts: Iterable[Any]
) -> Seating:
    """A game's seating from its seats (seat number, name, played by a bot), its season and
    what the apps that count it record of it (``registry.seating_parts``), as it is signed."""
    return [
        [[seat, name, bool(bot)] for seat, name, bot in sorted(seats)],
        season_id,
        sorted(parts, key=canonical_json),
    ]


def message(game_id: UUID | str, seating: Seating) -> bytes:
    """What the server signs of a game's seating."""
    return canonical_json([_SEATING, str(game_id), seating]).encode()


def seatings(game_ids: Collection[UUID] | None = None) -> dict[UUID, Seating]:
    """The seating of each game (every game's when ``game_ids`` is None), as the rows give it
    now."""
    from games.models import Game, Seat

    games = Game.objects.all() if game_ids is None else Game.objects.filter(pk__in=game_ids)
    season_of = dict(games.values_list("pk", "season_id"))
    seats: dict[UUID, list[tuple[int, str, bool]]] = {pk: [] for pk in season_of}
    rows = Seat.objects.all() if game_ids is None else Seat.objects.filter(game_id__in=game_ids)
    for game_id, seat, name, bot in rows.values_list("game_id", "seat", "player", "bot"):
        if game_id in seats:
            seats[game_id].append((seat, name, bot))
    parts: dict[UUID, list[Any]] = {pk: [] for pk in season_of}
    ids = None if game_ids is None else list(season_of)
    for part_of in registry.seating_parts:
        for game_id, part in part_of(ids).items():
            if game_id in parts:
                parts[game_id].append(part)
    return {pk: seating_value(seats[pk], season_of[pk], parts[pk]) for pk in season_of}


def seal(*game_ids: UUID | str) -> None:
    """Sign the seating of each game as its rows stand now (a service that seats players or
    moves a table calls this in its transaction, after its last change). The games' rows are
    locked first, so of two services changing one game's seating at once, the second signs
    what both changed (on PostgreSQL it reads after the first has committed)."""
    from games.models import Game

    signer = server_signer()
    ids = sorted(
        game_id if isinstance(game_id, UUID) else UUID(str(game_id)) for game_id in game_ids
    )
    with transaction.atomic():
        list(Game.objects.select_for_update().filter(pk__in=ids).order_by("pk").values("pk"))
        for game_id, seating in seatings(ids).items():
            Game.objects.filter(pk=game_id).update(
                seating_signature=signer.sign_message(message(game_id, seating))
            )


def problem(
    game_id: UUID | str, seating: Seating, signature: str, public_keys: Mapping[str, str]
) -> str | None:
    """What is wrong with a game's seating against the server's signature of it, or None."""
    if not signature:
        return "who sat where was never signed by the server"
    if verify_message(public_keys, signature, message(game_id, seating)):
        return None
    signer = signature.partition(":")[0]
    if signer and signer not in public_keys:
        return (
            f"who sat where is signed by key {signer}, which this server does not know (see "
            "CHAIN_SIGNING_KEY and CHAIN_RETIRED_KEYS)"
        )
    return "who sat where is not what the server signed (a name, a seat or its table changed)"
