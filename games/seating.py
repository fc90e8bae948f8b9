"""Who sat where, signed by the server, as a game's commands are (``games.chain``).

A game's log numbers its seats; the names at them, and what the game counts for (a league
night's table, a tournament's table, and the league players or entries at its seats), are rows
beside the log. The server signs them together as the game's *seating*:

    signature = the server's Ed25519 signature of canonical(["uno-seating-v1", game id, seating])
    seating   = [[[seat, name, bot] for each seat], season id or null, [part, ...]]

where each part is what an app that counts the game records of it
(``games.registry.seating_parts``): a league's ``["league", season, night, [player id at each
seat]]``, a tournament's ``["tournament", tournament, round, table, [name at each seat]]``.

Every service that seats players or moves a table signs the seating again, in its own
transaction: ``seal`` for the games it seats (creating a game, a rematch, a game against bots,
a season's table, a tournament's round), ``resealing`` around its change to games already
seated (a table taken off its night or moved to another, a round's tables taken down, a seat's
name corrected in the admin), which signs again only a seating that was as signed before.
``manage.py verify_events`` then finds a seating changed by someone who can write to the
database but does not hold the signing key: a name swapped at a seat, a league player put at
another's seat, a table moved to another night or season (``problems``).

A game's accounts (who opens a seat signed in) are not part of it: linking a league player to
an account changes who may open the seat, not who sat there.
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any
from uuid import UUID

from django.db import transaction

from games import registry
from games.chain import (
    NOT_SIGNED,
    canonical_json,
    server_public_keys,
    server_signer,
    signature_problem,
)

logger = logging.getLogger(__name__)
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


def _locked(game_ids: Iterable[UUID | str]) -> list[UUID]:
    """The games' ids, their rows locked (in one order, so two services never wait for each
    other)."""
    from games.models import Game

    ids = sorted(
        game_id if isinstance(game_id, UUID) else UUID(str(game_id)) for game_id in game_ids
    )
    list(Game.objects.select_for_update().filter(pk__in=ids).order_by("pk").values("pk"))
    return ids


def seal(*game_ids: UUID | str) -> None:
    """Sign the seating of each game as its rows stand now (a service that seats a new game's
    players calls this in its transaction, after its last change; a change to games already
    seated goes through ``resealing``). The games' rows are locked first, so of two services
    changing one game's seating at once, the second signs what both changed (on PostgreSQL it
    reads after the first has committed)."""
    from games.models import Game

    signer = server_signer()
    with transaction.atomic():
        ids = _locked(game_ids)
        for game_id, seating in seatings(ids).items():
            Game.objects.filter(pk=game_id).update(
                seating_signature=signer.sign_message(message(game_id, seating))
            )


@contextmanager
def resealing(*game_ids: UUID | str) -> Iterator[None]:
    """Around a service's change to who sat where at games already seated (a table moved or
    taken off, a round taken down, a name corrected in the admin): the games' rows are locked
    and their seatings checked first, and after the change each is signed again, but only one
    that was as the server signed it before. A seating changed behind the server's back is not
    blessed by the organiser's change that follows: the change is kept, an error is logged,
    and ``verify_events`` goes on naming the game."""
    from games.models import Game

    with transaction.atomic():
        ids = _locked(game_ids)
        keys = server_public_keys()
        signed = dict(Game.objects.filter(pk__in=ids).values_list("pk", "seating_signature"))
        found = {
            game_id: problem(game_id, seating, signed[game_id], keys)
            for game_id, seating in seatings(ids).items()
        }
        yield
        for game_id, before in found.items():
            if before is not None:
                logger.error(
                    "game %s: who sat where changed, but was not signed again: before the "
                    "change, %s",
                    game_id,
                    before,
                )
        seal(*(game_id for game_id in ids if found.get(game_id) is None))


def published(game_id: UUID, seating: Seating, signature: str) -> dict[str, Any]:
    """A game's seating as ``GET /api/games/{id}/seating/`` gives it: every field the signature
    is taken over, and the signature."""
    seats, season, parts = seating
    return {
        "game": str(game_id),
        "seats": [{"seat": seat, "player": name, "bot": bot} for seat, name, bot in seats],
        "season": season,
        "counts_for": parts,
        "signature": signature,
    }


def published_problem(
    answer: Mapping[str, Any],
    public_keys: Mapping[str, str],
    game: Mapping[str, Any] | None = None,
) -> str | None:
    """What is wrong with a game's seating as the API gives it (``GET
    /api/games/{id}/seating/``), checked with the server's public keys (``GET
    /api/chain/keys/``: key id -> public key), or None when it is what the server signed. With
    ``game`` (``GET /api/games/{id}/``), also that the names it shows at the seats are the
    signed ones. A club checks from the API alone, as with a finished game's log."""
    try:
        game_id = UUID(str(answer["game"]))
        seats = [(s["seat"], s["player"], s["bot"]) for s in answer["seats"]]
        seating = [[list(seat) for seat in seats], answer["season"], list(answer["counts_for"])]
        signature = answer["signature"]
        if not isinstance(signature, str):
            raise TypeError("the signature is not text")
        shown = None if game is None else {s["seat"]: s["player"] for s in game["seats"]}
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        return f"the seating cannot be read: {exc!r}"
    problem_found = problem(game_id, seating, signature, public_keys)
    if problem_found is not None:
        return problem_found
    if game is not None and shown is not None:
        if str(game.get("id")) != str(game_id):
            return f"the game shown is {game.get('id')}, not {game_id}, whose seating this is"
        for seat, name, _ in seats:
            if shown.get(seat) != name:
                return (
                    f"the game shows {shown.get(seat)!r} at seat {seat}, where the server "
                    f"signed {name!r}"
                )
        if set(shown) != {seat for seat, _, _ in seats}:
            return "the game shows other seats than the server signed"
    return None


def problem(
    game_id: UUID | str, seating: Seating, signature: str, public_keys: Mapping[str, str]
) -> str | None:
    """What is wrong with a game's seating against the server's signature of it, or None."""
    found = signature_problem(public_keys, signature, message(game_id, seating))
    if found is None:
        return None
    if found == NOT_SIGNED:
        return "who sat where is not what the server signed (a name, a seat or its table changed)"
    return f"who sat where {'is' if signature else 'was'} {found}"
