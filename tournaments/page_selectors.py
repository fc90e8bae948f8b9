"""Reads for the league pages that the API does not need: the leagues index, a league's
organisers, the standings sorted by any column, a season's nights with their games, a
player's page, and a score sheet's hands with running totals.

Plain dicts and lists, like ``tournaments.selectors`` (which these build on); unknown ids raise
``games.errors.NotFound``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from django.db.models import Count

from games.errors import NotFound
from games.models import Event, Game, Seat
from tournaments import selectors
from tournaments.models import League, Organiser, Season, SeasonGame, SeasonSeat

# Leagues ----------------------------------------------------------------------------------------


def league_list() -> list[dict[str, Any]]:
    """Every league, by name, with how many seasons and players it has and its newest season."""
    leagues = League.objects.annotate(
        season_count=Count("seasons", distinct=True), player_count=Count("players", distinct=True)
    ).order_by("name", "pk")
    newest: dict[int, dict[str, Any]] = {}
    for season_id, league_id, name in Season.objects.order_by(
        "league_id", "-created_at", "-pk"
    ).values_list("pk", "league_id", "name"):
        newest.setdefault(league_id, {"id": season_id, "name": name})
    return [
        {
            "id": league.pk,
            "name": league.name,
            "variant": league.variant,
            "scoring": league.scoring,
            "target": league.target,
            "seasons": league.season_count,
            "players": league.player_count,
            "newest_season": newest.get(league.pk),
        }
        for league in leagues
    ]


def league_organisers(league_id: int) -> list[str]:
    """The names of the league's organisers (full name when the account has one)."""
    names = []
    for organiser in (
        Organiser.objects.filter(league_id=league_id)
        .select_related("user")
        .order_by("user__username")
    ):
        user = organiser.user
        names.append(user.get_full_name() or user.get_username())
    return names


# Standings sorted by any column -------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Column:
    """A sortable column of the standings table. ``best_first`` is the direction a first click
    sorts in (the better values on top); ``key`` gives a row's sort value (``None`` sorts last
    whichever the direction)."""

    name: str
    label: str
    best_first: str  # "asc" or "desc"
    key: Callable[[dict[str, Any]], Any]


def _placings_key(row: dict[str, Any]) -> tuple[int, ...]:
    # Like a medal table: more firsts, then more seconds, ... (compared place by place).
    return tuple(row["placings"])


def standing_columns(*, points_order: str, attendance_points: int) -> list[Column]:
    """The table's columns in display order. Points are "scored" (more is better) or "held"
    (fewer is better) by the season's scoring; league and attendance points only show when
    the season gives attendance points."""
    columns = [
        Column("rank", "Rank", "asc", lambda r: r["rank"]),
        Column("player", "Player", "asc", lambda r: r["player"].casefold()),
        Column("nights", "Nights", "desc", lambda r: r["nights"]),
        Column("games", "Games", "desc", lambda r: r["games"]),
        Column("wins", "Wins", "desc", lambda r: r["wins"]),
        Column("placings", "Placings", "desc", _placings_key),
        Column("hands_won", "Hands won", "desc", lambda r: r["hands_won"]),
        Column(
            "points",
            "Points held" if points_order == "lower" else "Points scored",
            "asc" if points_order == "lower" else "desc",
            lambda r: r["points"],
        ),
        Column("average_placing", "Average placing", "asc", lambda r: r["average_placing"]),
        Column("rating", "Rating", "desc", lambda r: r["rating"]),
    ]
    if attendance_points:
        columns += [
            Column(
                "attendance_points", "Attendance points", "desc", lambda r: r["attendance_points"]
            ),
            Column("league_points", "League points", "desc", lambda r: r["league_points"]),
        ]
    return columns


def sort_rows(
    rows: Sequence[dict[str, Any]], column: Column, direction: str
) -> list[dict[str, Any]]:
    """``rows`` (in the table's official order) sorted by ``column`` in ``direction`` (``asc``
    or ``desc``). Rows level on the column keep the official order; rows without a value
    (no games, no rating) come last either way."""
    present = [r for r in rows if column.key(r) is not None]
    missing = [r for r in rows if column.key(r) is None]
    # Python's sort is stable even when reversed: equal rows keep the official order.
    present.sort(key=column.key, reverse=direction == "desc")
    return present + missing


def sorted_standings(season_id: int, sort: str | None, direction: str | None) -> dict[str, Any]:
    """The season's standings (``selectors.season_standings``) sorted by the column called
    ``sort`` in ``direction``; an unknown column sorts by rank and a missing or unknown
    direction is the column's best-first one. Adds ``columns`` (each with the link's next
    direction and ``aria_sort``), ``sort`` and ``direction``."""
    table = selectors.season_standings(season_id)
    columns = standing_columns(
        points_order=table["points"], attendance_points=table["attendance_points"]
    )
    by_name = {c.name: c for c in columns}
    column = by_name.get(sort or "rank", by_name["rank"])
    if direction not in ("asc", "desc"):
        direction = column.best_first
    rows = sort_rows(table["rows"], column, direction)
    headers = []
    for c in columns:
        current = c is column
        headers.append(
            {
                "name": c.name,
                "label": c.label,
                "numeric": c.name != "player",
                "current": current,
                "aria_sort": ("ascending" if direction == "asc" else "descending")
                if current
                else None,
                # A click on the sorted column turns it round; on another, best first.
                "next": ("desc" if direction == "asc" else "asc") if current else c.best_first,
            }
        )
    steps = len(table["tie_breakers"])
    return {
        **table,
        "rows": rows,
        "columns": headers,
        "sort": column.name,
        "sort_label": column.label,
        "direction": direction,
        "direction_words": _direction_words(column, direction),
        # The notes name the tie-breakers in order, then say what else holds.
        "tie_breaker_steps": table["tie_breaker_notes"][:steps],
        "tie_breaker_remarks": table["tie_breaker_notes"][steps:],
    }


def _direction_words(column: Column, direction: str) -> str:
    if column.name == "player":
        return "A to Z" if direction == "asc" else "Z to A"
    if column.name == "rank":
        return "best first" if direction == "asc" else "best last"
    return "lowest first" if direction == "asc" else "highest first"


# A season's nights and games ------------------------------------------------------------------


def season_nights(season_id: int) -> list[dict[str, Any]]:
    """The season's nights in order, each with its games (``selectors.season_games`` rows,
    plus ``by_rank``: the seats best first once the game is over)."""
    detail = selectors.season_detail(season_id)
    games = selectors.season_games(season_id)
    nights = [{**night, "game_rows": []} for night in detail["nights"]]
    by_number = {night["number"]: night for night in nights}
    for game in games:
        # Finished games list their seats by rank (ties in seat order); others by seat.
        order = sorted(game["seats"], key=lambda s: (s["rank"] is None, s["rank"] or 0, s["seat"]))
        by_number[game["night"]]["game_rows"].append({**game, "by_rank": order})
    return nights


# A player's page --------------------------------------------------------------------------------


def player_page(player_id: int) -> dict[str, Any]:
    """``selectors.player_detail`` with, for each game, the season's name and this player's
    seat, placing and points; and each rating history entry labelled with its night."""
    player = selectors.player_detail(player_id)
    season_names = dict(
        Season.objects.filter(pk__in={g["season_id"] for g in player["games"]}).values_list(
            "pk", "name"
        )
    )
    night_of_game: dict[str, int] = {}
    games = []
    for game in player["games"]:
        night_of_game[game["game"]] = game["night"]
        mine = next(s for s in game["seats"] if s["player_id"] == player["id"])
        games.append(
            {
                **game,
                "season": season_names.get(game["season_id"], ""),
                "seat": mine["seat"],
                "rank": mine["rank"],
                "score": mine["score"],
                "won": mine["won"],
                "players": len(game["seats"]),
                "opponents": [s for s in game["seats"] if s["player_id"] != player["id"]],
            }
        )
    for season in player["seasons"]:
        for number, entry in enumerate(season["rating_history"], start=1):
            entry["number"] = number
            entry["night"] = night_of_game.get(entry["game"])
    return {**player, "games": games}


# Score sheets ---------------------------------------------------------------------------------


def _live_rows(rows: Sequence[tuple[int, int, str, dict[str, Any]]]) -> list[tuple[int, str, dict]]:
    """The events that make the game's state now, from its log rows (version, batch, type,
    data) in order: a ``rewound`` event takes the game back to what it was at its
    ``to_version`` (which may itself have been reached through earlier rewinds). Each kept
    event as (batch, type, data)."""
    live_at: dict[int, tuple[tuple[int, str, dict[str, Any]], ...]] = {0: ()}
    live: tuple[tuple[int, str, dict[str, Any]], ...] = ()
    for version, batch, type_, data in rows:
        if type_ == "rewound":
            live = live_at[data["to_version"]]
        else:
            live = (*live, (batch, type_, data))
        live_at[version] = live
    return list(live)


def _live_log(game_id: UUID | str) -> list[tuple[int, str, dict[str, Any]]]:
    rows = Event.objects.filter(game_id=game_id).order_by("version")
    return _live_rows(list(rows.values_list("version", "batch", "type", "data")))


def sheet_hands(
    game_id: UUID | str, players: int, live: list[tuple[int, str, dict[str, Any]]] | None = None
) -> list[dict[str, Any]]:
    """The hands recorded on a score sheet that stand now (undone ones left out), in order.

    Each hand: ``number``, ``out`` (the seat that went out), ``undo_to`` (the version just
    before it: where undoing it goes back to) and ``seats``: for each seat its ``cards`` (a
    list, or ``None`` when points were recorded), ``held`` (points left in the hand),
    ``gained`` (what the hand scored it) and ``total`` (its running total)."""
    hands: list[dict[str, Any]] = []
    recorded: dict[int, tuple[int, dict[str, Any]]] = {}
    for batch, type_, data in _live_log(game_id) if live is None else live:
        if type_ == "hand_recorded":
            recorded[data["hand"]] = (batch, data)
        elif type_ == "hand_ended" and data["hand"] in recorded:
            batch, record = recorded[data["hand"]]
            hands.append(
                {
                    "number": data["hand"],
                    "out": data["winner"],
                    "undo_to": batch - 1,
                    "seats": [
                        {
                            "seat": seat,
                            "out": seat == data["winner"],
                            "cards": record["remaining"][seat],
                            "held": data["held"][seat],
                            "gained": data["gained"][seat],
                            "total": data["scores"][seat],
                        }
                        for seat in range(players)
                    ],
                }
            )
    return hands


def score_sheet(game_id: UUID | str) -> dict[str, Any]:
    """A score-sheet game as its page shows it: the game, its seats (with the league's player
    ids when it is a season game) and totals, the hands that stand, the result once over, and
    its season and night."""
    game = Game.objects.filter(pk=game_id, sheet=True).first()
    if game is None:
        raise NotFound(f"no score sheet {game_id}")
    seats = list(Seat.objects.filter(game=game).order_by("seat").values_list("seat", "player"))
    season_game = (
        SeasonGame.objects.select_related("season__league", "night").filter(game=game).first()
    )
    player_ids: dict[int, int] = {}
    if season_game is not None:
        player_ids = dict(
            SeasonSeat.objects.filter(season_game=season_game).values_list("seat", "player_id")
        )
    live = _live_log(game.pk)
    hands = sheet_hands(game.pk, len(seats), live)
    totals = hands[-1]["seats"] if hands else None
    result = None
    ended = [data for _, type_, data in live if type_ == "game_ended"]
    if ended:
        ranks = ended[-1]["ranks"]
        result = sorted(
            ({"seat": seat, "player": name, "rank": ranks[seat]} for seat, name in seats),
            key=lambda r: (r["rank"], r["seat"]),
        )
    return {
        "id": game.pk,
        "variant": game.variant,
        "scoring": game.scoring,
        "target": game.target,
        "version": game.version,
        "finished": bool(ended),
        "seats": [
            {
                "seat": seat,
                "player": name,
                "player_id": player_ids.get(seat),
                "total": totals[seat]["total"] if totals else 0,
            }
            for seat, name in seats
        ],
        "hands": hands,
        "next_hand": hands[-1]["number"] + 1 if hands else 1,
        "result": result,
        "season": None
        if season_game is None
        else {
            "id": season_game.season_id,
            "name": season_game.season.name,
            "league_id": season_game.season.league_id,
            "league": season_game.season.league.name,
            "night": season_game.night.number,
            "date": season_game.night.date,
        },
    }
