"""Reads of tournaments for the API and the pages: a tournament with its rounds, tables,
placings and standings (API.md, "Tournaments")."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any
from uuid import UUID

from django.urls import reverse

from games.errors import NotFound
from games.registry import EventPage, Onward
from tournaments.brackets import rounds
from tournaments.brackets.models import Round, Ruling, Table, Tournament
from tournaments.brackets.services import plain_rows


def standings(tournament: Tournament) -> list[dict[str, Any]]:
    """The tournament's standings, best first (docs/TOURNAMENTS.md)."""
    setup, entries, played = plain_rows(tournament)
    return [
        {
            "rank": row.rank,
            "player": row.player,
            "seed": row.seed,
            "points": round(float(row.points), 3),
            "wins": row.wins,
            "tables": row.tables,
            "byes": row.byes,
            "opponents_points": round(float(row.opponents_points), 3),
            "final_placing": row.final_placing,
            "dropped": row.dropped,
        }
        for row in rounds.standings(setup, entries, played)
    ]


def tournament_detail(tournament_id: int) -> dict[str, Any]:
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        raise NotFound(f"no tournament {tournament_id}")
    tables: dict[int, list[dict[str, Any]]] = {}
    for table in Table.objects.filter(round__tournament=tournament).order_by("round", "number"):
        tables.setdefault(table.round_id, []).append(
            {
                "number": table.number,
                "game": str(table.game_id),
                "players": list(table.players),
                "status": table.status,
                "placings": list(table.placings),
                "decided_by": table.decided_by,
                "absent": list(table.absent),
            }
        )
    final_rounds = set(
        tournament.round_set.filter(kind=Round.Kind.FINAL).values_list("number", flat=True)
    )
    return {
        "id": tournament.pk,
        "name": tournament.name,
        "status": tournament.status,
        "settings": {
            "variant": tournament.variant,
            "scoring": tournament.scoring,
            "target": tournament.target,
            "options": tournament.options or {},
            "format": tournament.format,
            "table_size": tournament.table_size,
            "advance": tournament.advance,
            "rounds": tournament.rounds,
            "final_table": tournament.final_table,
            "duplicate_deals": tournament.duplicate_deals,
            "seeding": tournament.seeding,
            "turn_seconds": tournament.turn_seconds,
        },
        "entries": [
            {
                "player": e.player,
                "seed": e.seed,
                "joined": e.joined,
                "dropped": e.dropped,
                "checked_in": e.checked_in,
            }
            for e in tournament.entries.order_by("seed")
        ],
        "rounds": [
            {
                "number": r.number,
                "kind": r.kind,
                "status": r.status,
                "byes": list(r.byes),
                "tables": tables.get(r.pk, []),
            }
            for r in tournament.round_set.order_by("number")
        ],
        "standings": standings(tournament),
        "rulings": [
            {
                "number": r.sequence,
                "round": r.round_number,
                "table": r.table_number,
                "kind": r.kind,
                "reason": r.reason,
                "players": list(r.players),
                "against": against,
                "at": r.created_at,
                "made_by": r.by_id,
                "link": r.link,
                "signature": r.signature,
                # A ruling on the final table names it so, as the rounds do.
                "where": table_name(
                    r.round_number, r.table_number, final=r.round_number in final_rounds
                ),
            }
            for r, against in rulings_against(tournament)
        ],
        "winner": tournament.winner or None,
    }


def table_name(round_number: int, table_number: int | None, *, final: bool) -> str:
    """A table as the tournament page names it: "Round 2, table 1", or "The final table"
    (the one table of the final round)."""
    if final:
        return "The final table"
    if table_number is None:
        return f"Round {round_number}"
    return f"Round {round_number}, table {table_number}"


AGAINST_KINDS = (Ruling.Kind.FORFEIT, Ruling.Kind.DISQUALIFICATION, Ruling.Kind.NO_SHOW)


def rulings_against(tournament: Tournament) -> list[tuple[Ruling, list[str]]]:
    """The director's decisions, oldest first, each with whom it is against: who forfeited, was
    disqualified or did not show (nobody for the other kinds). An award places that player
    last (the page's award; the API's placings are best first). A table ended for want of
    players present names those ruled absent at it."""
    absent: dict[tuple[int, int | None], list[str]] = {}
    rows = []
    for ruling in tournament.rulings.order_by("sequence"):
        at = (ruling.round_number, ruling.table_number)
        against: list[str] = []
        if ruling.kind == Ruling.Kind.ABSENT:
            absent.setdefault(at, []).extend(ruling.players)
        elif ruling.kind in (Ruling.Kind.REOPENED, Ruling.Kind.WITHDRAWN):
            # The rounds after it were reset: their tables are seated anew.
            absent = {k: v for k, v in absent.items() if k[0] <= ruling.round_number}
        elif ruling.kind in AGAINST_KINDS:
            # Ended by the sweeps (no director): at most one player was left present.
            gone = [p for p in ruling.players if p in absent.get(at, ())]
            against = gone if ruling.by_id is None and gone else list(ruling.players[-1:])
        rows.append((ruling, against))
    return rows


def onward(game: Any, player: str | None) -> Onward | None:
    """``games.registry.onward``: for a tournament's table, the tournament and, for ``player``,
    the table they are seated at in a later round (the latest), once one is seated."""
    table = (
        Table.objects.select_related("round__tournament")
        .filter(game_id=game.pk)
        .only("round__number", "round__tournament__name", "round__tournament__status")
        .first()
    )
    if table is None:
        return None
    tournament = table.round.tournament
    where = Onward(
        title=tournament.name,
        url=reverse("tournaments:tournament-page", args=[tournament.pk]),
        over=tournament.status == Tournament.Status.FINISHED,
    )
    if not player:
        return where
    later = (
        Table.objects.filter(round__tournament=tournament, round__number__gt=table.round.number)
        .order_by("-round__number", "number")
        .values_list("round__number", "round__kind", "number", "game_id", "players")
    )
    for round_number, kind, number, game_id, players in later:
        if player in players:
            label = table_name(round_number, number, final=kind == Round.Kind.FINAL)
            return replace(where, next_game=game_id, next_label=label)
    return where


def event_page(game: Any) -> EventPage | None:
    """``games.registry.event_pages``: a tournament's table leads back to the tournament."""
    tournament = (
        Tournament.objects.filter(round_set__tables__game_id=game.pk).only("pk", "name").first()
    )
    if tournament is None:
        return None
    url = reverse("tournaments:tournament-page", args=[tournament.pk])
    return EventPage(title=tournament.name, what="the tournament", url=url)


# Who sat where, signed with the game's seats (``games.seating``) ------------------------------


def tournament_part(
    tournament_id: int, round_number: int, table_number: int, players: Iterable[str]
) -> list[Any]:
    """What a tournament records of who sat at one of its tables, signed with the game's seats
    (``games.seating``): its tournament, round and table, and its players in seat order."""
    return ["tournament", tournament_id, round_number, table_number, list(players)]


def tournament_seating(game_ids: list[UUID] | None) -> dict[UUID, list[Any]]:
    """``games.registry.seating_parts``: ``tournament_part`` of each tournament table's game
    among ``game_ids`` (every one for None)."""
    tables = Table.objects.all()
    if game_ids is not None:
        tables = tables.filter(game_id__in=game_ids)
    return {
        game_id: tournament_part(tournament_id, round_number, number, players)
        for game_id, tournament_id, round_number, number, players in tables.values_list(
            "game_id", "round__tournament_id", "round__number", "number", "players"
        )
    }
