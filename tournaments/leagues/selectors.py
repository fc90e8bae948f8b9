"""Reads of leagues: plain dicts and lists (JSON-ready), one or two queries each. A page renders
them as they are; the API serializes them as they are.

The first part serves the API and the pages alike; the second only the pages: the leagues
index, a league's organisers, the standings sorted by any column, a season's nights with their
games, a player's page, and a score sheet's hands with running totals.

Every function raises ``games.errors.NotFound`` for an unknown id.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from django.db.models import Count, Q
from django.urls import reverse

from games.errors import NotFound
from games.models import Dispute, Event, Game, Seat, TableView
from games.names import name_key
from games.registry import EventPage
from rules.engine import live_entries
from tournaments.brackets.models import Tournament
from tournaments.leagues import standings
from tournaments.leagues.models import (
    GameResult,
    League,
    Night,
    NightRow,
    Organiser,
    Player,
    RatingHistory,
    Referee,
    Season,
    SeasonGame,
    SeasonSeat,
    StandingRow,
)

RATING_DIGITS = 2  # mu and sigma as shown (the stored floats are exact)


def _rating(value: float | None) -> float | None:
    return None if value is None else round(value, RATING_DIGITS)


def _season(season_id: int) -> Season:
    season = Season.objects.select_related("league").filter(pk=season_id).first()
    if season is None:
        raise NotFound(f"no season {season_id}")
    return season


def season_settings(season: Season) -> dict[str, Any]:
    return {
        "variant": season.effective_variant,
        "scoring": season.effective_scoring,
        "target": season.effective_target,
        "best_nights": season.best_nights,
        "attendance_points": season.attendance_points,
        # The edition's options its games are played with (UNO VETO's house rules), for the
        # pages' words; the API's answers leave them out, as the league's answer has them.
        "options": season.effective_options,
    }


def league_detail(league_id: int) -> dict[str, Any]:
    """A league with its seasons (newest first) and its players."""
    league = League.objects.filter(pk=league_id).first()
    if league is None:
        raise NotFound(f"no league {league_id}")
    seasons = league.seasons.annotate(game_count=Count("games")).order_by("-created_at", "-pk")
    return {
        "id": league.pk,
        "name": league.name,
        "variant": league.variant,
        "scoring": league.scoring,
        "target": league.target,
        "options": league.options or {},
        "signature": league.signature,
        "seasons": [
            {
                "id": s.pk,
                "name": s.name,
                "games": s.game_count,
                "created_at": s.created_at,
                **season_settings(s),
            }
            for s in seasons
        ],
        "players": [
            {"id": pk, "name": name, "signature": signature}
            for pk, name, signature in league.players.order_by("name").values_list(
                "pk", "name", "signature"
            )
        ],
    }


def season_detail(season_id: int) -> dict[str, Any]:
    """A season: its league, settings and nights (each with its games and finished games)."""
    season = _season(season_id)
    nights = (
        Night.objects.filter(season=season)
        .annotate(
            game_count=Count("games"),
            finished=Count("games", filter=Q(games__game__status=Game.Status.FINISHED)),
        )
        .order_by("number")
    )
    night_rows = [
        {
            "id": n.pk,
            "number": n.number,
            "date": n.date,
            "games": n.game_count,
            "finished": n.finished,
        }
        for n in nights
    ]
    return {
        "id": season.pk,
        "name": season.name,
        "league": {"id": season.league_id, "name": season.league.name},
        **season_settings(season),
        "overrides": {
            name: value
            for name, value in (
                ("variant", season.variant),
                ("scoring", season.scoring),
                ("target", season.target),
            )
            if value
        },
        "games": sum(n["games"] for n in night_rows),
        "finished": sum(n["finished"] for n in night_rows),
        "nights": night_rows,
        "created_at": season.created_at,
    }


STANDING_FIELDS = (
    "player_id",
    "player__name",
    "nights",
    "nights_counted",
    "games",
    "wins",
    "points",
    "placing_sum",
    "placings",
    "hands_won",
    "attendance_points",
    "league_points",
    "rating",
    "rating_sigma",
    "rated_games",
)


def season_standings(season_id: int) -> dict[str, Any]:
    """The season's table, best first, with the tie-breakers it is sorted by.

    Each row: ``rank``, ``player`` (name), ``player_id``, ``nights``, ``nights_counted``,
    ``games``, ``wins``, ``placings`` (games placed 1st, 2nd, ...), ``average_placing``,
    ``hands_won``, ``points``, ``attendance_points``, ``league_points``, ``rating`` (openskill
    mu), ``rating_sigma`` and ``rated_games``.
    """
    season = _season(season_id)
    rows = []
    for values in StandingRow.objects.filter(season=season).values(*STANDING_FIELDS):
        values["player"] = values.pop("player__name")
        rows.append(values)
    scoring = season.effective_scoring
    ranked = standings.rank_rows(rows, scoring=scoring, attendance_points=season.attendance_points)
    out = []
    for row in ranked:
        games = row["games"]
        out.append(
            {
                "rank": row["rank"],
                "player": row["player"],
                "player_id": row["player_id"],
                "nights": row["nights"],
                "nights_counted": row["nights_counted"],
                "games": games,
                "wins": row["wins"],
                "placings": row["placings"],
                "average_placing": round(row["placing_sum"] / games, 2) if games else None,
                "hands_won": row["hands_won"],
                "points": row["points"],
                "attendance_points": row["attendance_points"],
                "league_points": row["league_points"],
                "rating": _rating(row["rating"]),
                "rating_sigma": _rating(row["rating_sigma"]),
                "rated_games": row["rated_games"],
            }
        )
    return {
        "season": {"id": season.pk, "name": season.name, "league": season.league.name},
        "scoring": scoring,
        "points": standings.points_order(scoring),
        "best_nights": season.best_nights,
        "attendance_points": season.attendance_points,
        "rows": out,
        "tie_breakers": standings.tie_breakers(season.attendance_points),
        "tie_breaker_notes": standings.tie_breaker_notes(
            scoring=scoring,
            attendance_points=season.attendance_points,
            best_nights=season.best_nights,
        ),
    }


CSV_COLUMNS = (
    "rank",
    "player",
    "nights",
    "nights_counted",
    "games",
    "wins",
    "points",
    "average_placing",
    "hands_won",
    "attendance_points",
    "league_points",
    "rating",
    "rating_sigma",
    "placings",
)


def standings_csv_rows(season_id: int) -> list[list[Any]]:
    """The table as CSV rows, header first (placings as "5/3/2": 1st/2nd/3rd ...)."""
    table = season_standings(season_id)
    out: list[list[Any]] = [list(CSV_COLUMNS)]
    for row in table["rows"]:
        values = {**row, "placings": "/".join(str(n) for n in row["placings"])}
        out.append(["" if values[c] is None else values[c] for c in CSV_COLUMNS])
    return out


def _games(season_games: Any) -> list[dict[str, Any]]:
    season_games = list(season_games.select_related("game", "night"))
    ids = [sg.game_id for sg in season_games]
    seats: dict[Any, list[dict[str, Any]]] = defaultdict(list)
    for game_id, seat, player_id, name in (
        SeasonSeat.objects.filter(season_game_id__in=ids)
        .order_by("seat")
        .values_list("season_game_id", "seat", "player_id", "player__name")
    ):
        seats[game_id].append({"seat": seat, "player_id": player_id, "player": name})
    results = {
        (game_id, seat): (rank, score, won)
        for game_id, seat, rank, score, won in GameResult.objects.filter(
            game_id__in=ids
        ).values_list("game_id", "seat", "rank", "score", "won")
    }
    out = []
    for sg in season_games:
        rows = []
        for seat in seats[sg.game_id]:
            rank, score, won = results.get((sg.game_id, seat["seat"]), (None, None, None))
            rows.append({**seat, "rank": rank, "score": score, "won": won})
        game = sg.game
        out.append(
            {
                "game": str(sg.game_id),
                "season_id": sg.season_id,
                "night": sg.night.number,
                "date": sg.night.date,
                "variant": game.variant,
                "scoring": game.scoring,
                "target": game.target,
                "sheet": game.sheet,
                "status": game.status,
                "version": game.version,
                "seats": rows,
            }
        )
    return out


def season_games(season_id: int, night: int | None = None) -> list[dict[str, Any]]:
    """The season's games (one night's, with ``night``), in the order they were started, each
    with its seats and, once finished, each seat's rank and score."""
    season = _season(season_id)
    games = SeasonGame.objects.filter(season=season)
    if night is not None:
        games = games.filter(night__number=night)
    return _games(games.order_by("night__number", "created_at", "pk"))


def player_detail(player_id: int) -> dict[str, Any]:
    """A player: their league, each season's line and rating history, and their games."""
    player = Player.objects.select_related("league").filter(pk=player_id).first()
    if player is None:
        raise NotFound(f"no player {player_id}")
    history: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for row in RatingHistory.objects.filter(player=player).order_by("finished_at"):
        history[row.season_id].append(
            {
                "game": str(row.game_id),
                "rank": row.rank,
                "players": row.players,
                "rating_before": _rating(row.rating_before),
                "rating": _rating(row.rating),
                "sigma": _rating(row.sigma),
            }
        )
    seasons = []
    for row in (
        StandingRow.objects.filter(player=player)
        .select_related("season")
        .order_by("-season__created_at", "-season_id")
    ):
        seasons.append(
            {
                "season_id": row.season_id,
                "season": row.season.name,
                "games": row.games,
                "wins": row.wins,
                "points": row.points,
                "hands_won": row.hands_won,
                "average_placing": round(row.placing_sum / row.games, 2) if row.games else None,
                "rating": _rating(row.rating),
                "rating_sigma": _rating(row.rating_sigma),
                "rating_history": history.get(row.season_id, []),
            }
        )
    games = SeasonGame.objects.filter(seats__player=player).order_by(
        "-night__season__created_at", "night__number", "created_at"
    )
    return {
        "id": player.pk,
        "name": player.name,
        "league": {"id": player.league_id, "name": player.league.name},
        "has_account": player.user_id is not None,
        "seasons": seasons,
        "games": _games(games),
    }


# For the pages: leagues -------------------------------------------------------------------------


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


def yours(user: Any) -> dict[str, list[dict[str, Any]]]:
    """What the leagues page shows a signed-in person of their own: the leagues they organise
    or referee, the players they are (``player``, ``league``), and the tables they sit at that
    are still playing (``game``, ``league``, ``season``, ``night``)."""
    if not getattr(user, "is_authenticated", False):
        return {"runs": [], "players": [], "tables": []}
    runs = {
        league_id: {"id": league_id, "name": name, "role": "organiser"}
        for league_id, name in Organiser.objects.filter(user=user).values_list(
            "league_id", "league__name"
        )
    }
    for league_id, name in Referee.objects.filter(user=user, league__isnull=False).values_list(
        "league_id", "league__name"
    ):
        runs.setdefault(league_id, {"id": league_id, "name": name, "role": "referee"})
    players = [
        {"id": pk, "player": name, "league": league}
        for pk, name, league in Player.objects.filter(user=user)
        .order_by("league__name")
        .values_list("pk", "name", "league__name")
    ]
    tables = [
        {"game": str(game_id), "league": league, "season": season, "night": night}
        for game_id, league, season, night in SeasonSeat.objects.filter(
            player__user=user, season_game__game__status=Game.Status.PLAYING
        )
        .order_by("season_game__created_at")
        .values_list(
            "season_game__game_id",
            "season_game__season__league__name",
            "season_game__season__name",
            "season_game__night__number",
        )
    ]
    return {
        "runs": sorted(runs.values(), key=lambda r: r["name"]),
        "players": players,
        "tables": tables,
    }


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
    the season gives attendance points. The column that decides the order (league points, or
    wins without attendance points) comes right after the player's name: on a narrow screen it
    is seen beside the name without scrolling, and on a wide one it is never cut off."""
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
    deciding = standings.tie_breakers(attendance_points)[0]
    rank, player, *others = columns
    return [
        rank,
        player,
        *(c for c in others if c.name == deciding),
        *(c for c in others if c.name != deciding),
    ]


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
    """The season's standings (``season_standings``) sorted by the column called
    ``sort`` in ``direction``; an unknown column sorts by rank and a missing or unknown
    direction is the column's best-first one. Adds ``columns`` (each with the link's next
    direction and ``aria_sort``), ``sort`` and ``direction``."""
    table = season_standings(season_id)
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
    """The season's nights in order, each with ``closed`` and its games (``season_games``
    rows, plus ``by_rank``: the seats best first once the game is over)."""
    detail = season_detail(season_id)
    games = season_games(season_id)
    closed = set(
        Night.objects.filter(season_id=season_id, closed_at__isnull=False).values_list(
            "pk", flat=True
        )
    )
    nights = [
        {**night, "game_rows": [], "closed": night["id"] in closed} for night in detail["nights"]
    ]
    by_number = {night["number"]: night for night in nights}
    for game in games:
        # Finished games list their seats by rank (ties in seat order); others by seat.
        order = sorted(game["seats"], key=lambda s: (s["rank"] is None, s["rank"] or 0, s["seat"]))
        by_number[game["night"]]["game_rows"].append({**game, "by_rank": order})
    return nights


# A player's page --------------------------------------------------------------------------------


def player_page(player_id: int) -> dict[str, Any]:
    """``player_detail`` with, for each game, the season's name and this player's
    seat, placing and points; and each rating history entry labelled with its night."""
    player = player_detail(player_id)
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
    data) in order, undo resolved as the engine resolves it (``rules.engine.live_entries``). Each
    kept event as (batch, type, data)."""
    return live_entries(
        ((version, (batch, type_, data)) for version, batch, type_, data in rows),
        lambda entry: entry[2]["to_version"] if entry[1] == "rewound" else None,
    )


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
            "night_id": season_game.night_id,
            "date": season_game.night.date,
        },
    }


# Roles ------------------------------------------------------------------------------------------


def _person(user: Any) -> str:
    full = user.get_full_name()
    return f"{full} ({user.get_username()})" if full else user.get_username()


def league_roles(league_id: int) -> dict[str, list[dict[str, Any]]]:
    """The league's organisers and named referees: each ``id`` (of the role), ``name`` (full
    name and user name) and ``user_id``."""
    organisers = (
        Organiser.objects.filter(league_id=league_id)
        .select_related("user")
        .order_by("user__username")
    )
    referees = (
        Referee.objects.filter(league_id=league_id)
        .select_related("user")
        .order_by("user__username")
    )
    return {
        "organisers": [
            {"id": o.pk, "name": _person(o.user), "user_id": o.user_id} for o in organisers
        ],
        "referees": [{"id": r.pk, "name": _person(r.user), "user_id": r.user_id} for r in referees],
    }


def tournament_roles(tournament_id: int) -> dict[str, Any]:
    """The tournament's organiser (``organiser``: name, ``organiser_id``) and its named
    referees (``referees``: each ``id`` of the role, ``name``, ``user_id``)."""
    tournament = Tournament.objects.select_related("organiser").filter(pk=tournament_id).first()
    if tournament is None:
        raise NotFound(f"no tournament {tournament_id}")
    referees = (
        Referee.objects.filter(tournament_id=tournament_id)
        .select_related("user")
        .order_by("user__username")
    )
    return {
        "id": tournament.pk,
        "organiser": _person(tournament.organiser),
        "organiser_id": tournament.organiser_id,
        "referees": [{"id": r.pk, "name": _person(r.user), "user_id": r.user_id} for r in referees],
    }


# A league night ---------------------------------------------------------------------------------


def night_page(night_id: int) -> dict[str, Any]:
    """A league night as its page shows it: the season and league, whether it is closed, and its
    tables in the order they were seated, each with its players, what the table shows everyone
    (hand, scores, cards held, whose turn) and, once over, the placings."""
    night = Night.objects.select_related("season__league").filter(pk=night_id).first()
    if night is None:
        raise NotFound(f"no night {night_id}")
    season = night.season
    games = _games(SeasonGame.objects.filter(night=night).order_by("created_at", "pk"))
    views = {
        str(view.game_id): view
        for view in TableView.objects.filter(game_id__in=[g["game"] for g in games])
    }
    secrets = defaultdict(dict)
    for game_id, seat, secret in Seat.objects.filter(
        game_id__in=[g["game"] for g in games]
    ).values_list("game_id", "seat", "secret"):
        secrets[str(game_id)][seat] = secret
    # Disputes still waiting for a referee's ruling, by game.
    disputes = dict(
        Dispute.objects.filter(game_id__in=[g["game"] for g in games], status=Dispute.Status.OPEN)
        .values_list("game_id")
        .annotate(n=Count("pk"))
        .values_list("game_id", "n")
    )
    tables = []
    for number, game in enumerate(games, start=1):
        view = views.get(game["game"])
        seats = []
        for seat in game["seats"]:
            n = seat["seat"]
            seats.append(
                {
                    **seat,
                    "total": view.scores[n] if view and n < len(view.scores) else None,
                    "cards": view.card_counts[n] if view and n < len(view.card_counts) else None,
                    "to_play": bool(view and view.turn == n and game["status"] != "finished"),
                    "secret": secrets[game["game"]].get(n, ""),
                }
            )
        by_rank = sorted(seats, key=lambda s: (s["rank"] is None, s["rank"] or 0, s["seat"]))
        tables.append(
            {
                **game,
                "number": number,
                "hand": _hand_played(view, game),
                "seats": seats,
                "by_rank": by_rank,
                "finished": game["status"] == Game.Status.FINISHED,
                "open_disputes": disputes.get(UUID(game["game"]), 0),
                # A hand has a result: the table is corrected by undo, not taken off the night.
                "hand_ended": bool(view) and view.hand_number > (0 if game["sheet"] else 1),
            }
        )
    return {
        "id": night.pk,
        "number": night.number,
        "date": night.date,
        "closed": night.closed_at is not None,
        "closed_at": night.closed_at,
        "season": {
            "id": season.pk,
            "name": season.name,
            **season_settings(season),
        },
        "league": {"id": season.league_id, "name": season.league.name},
        "tables": tables,
        "playing": sum(1 for t in tables if not t["finished"]),
    }


def night_of_table(game: Any) -> EventPage | None:
    """``games.registry.event_pages``: a season's table leads back to its league night."""
    row = (
        SeasonGame.objects.filter(game_id=game.pk)
        .values_list("night_id", "night__number", "season__name", "season__league__name")
        .first()
    )
    if row is None:
        return None
    night_id, number, season, league = row
    return EventPage(
        title=f"Night {number} of {season}",
        what=f"a league night of {league}",
        url=reverse("tournaments:night-page", args=[night_id]),
    )


def _hand_played(view: TableView | None, game: dict[str, Any]) -> int | None:
    """The hand a table is at: a score sheet's counts the hands recorded, so until it is over
    it is at the one after them (hand 1 before any is recorded)."""
    if view is None:
        return None
    if game["sheet"] and game["status"] != Game.Status.FINISHED:
        return view.hand_number + 1
    return view.hand_number


def still_playing(night_id: int, names: list[str]) -> str:
    """Who of ``names`` sits at a table of the night still in play (a person plays at one table
    at a time), in words; empty when nobody does."""
    playing = {
        name_key(seat["player"]): table["number"]
        for table in night_page(night_id)["tables"]
        if not table["finished"]
        for seat in table["seats"]
    }
    busy = [
        f"{name} (table {playing[name_key(name)]})" for name in names if name_key(name) in playing
    ]
    if not busy:
        return ""
    verb = "is" if len(busy) == 1 else "are"
    return f"{', '.join(busy)} {verb} still playing tonight: seat them once that game is over."


def _ranked_through(season: Season, night_number: int) -> list[dict[str, Any]]:
    """The season's table as it stood once night ``night_number`` was played (the nights up
    to it, in the season's rules), best first: each row as ``standings.rank_rows`` gives it,
    with ``league_points``."""
    scoring = season.effective_scoring
    nights: dict[int, list[standings.NightTotals]] = defaultdict(list)
    names: dict[int, str] = {}
    for row in NightRow.objects.filter(
        season=season, night__number__lte=night_number
    ).select_related("night", "player"):
        names[row.player_id] = row.player.name
        nights[row.player_id].append(
            standings.NightTotals(
                row.night.number,
                standings.Totals(
                    row.games,
                    row.wins,
                    row.points,
                    row.placing_sum,
                    list(row.placings),
                    row.hands_won,
                ),
            )
        )
    rows = []
    for player_id, player_nights in nights.items():
        line = standings.season_totals(
            player_nights,
            scoring=scoring,
            best_nights=season.best_nights,
            attendance_points=season.attendance_points,
        )
        if line.nights:
            rows.append(
                {
                    **line.totals.as_dict(),
                    "player": names[player_id],
                    "player_id": player_id,
                    "league_points": line.league_points,
                }
            )
    return standings.rank_rows(rows, scoring=scoring, attendance_points=season.attendance_points)


def standings_moves(season_id: int, night_number: int) -> list[dict[str, Any]]:
    """The season's standings right after night ``night_number`` beside the standings before
    it (later nights left out of both, so a night's page tells what that night changed): each
    row ``rank``, ``player``, ``player_id``, ``before`` (the rank before, or None: new to the
    table) and ``moved`` (places gained: positive up, negative down)."""
    season = _season(season_id)
    before = {row["player_id"]: row["rank"] for row in _ranked_through(season, night_number - 1)}
    out = []
    for row in _ranked_through(season, night_number):
        was = before.get(row["player_id"])
        out.append(
            {
                "rank": row["rank"],
                "player": row["player"],
                "player_id": row["player_id"],
                "before": was,
                "moved": None if was is None else was - row["rank"],
                "places": None if was is None else abs(was - row["rank"]),
                "wins": row["wins"],
                "points": row["points"],
                "league_points": row["league_points"],
            }
        )
    return out


# Who sat where, signed with the game's seats (``games.seating``) ------------------------------


def league_part(season_id: int, night_id: int, players: Iterable[tuple[int, int]]) -> list[Any]:
    """What a league records of who sat at one of its tables, signed with the game's seats
    (``games.seating``): its season and night, and the league player at each seat
    (``players``: seat number and player id). Ids, not names: renaming a player corrects a
    mistyped name and changes nobody's seat."""
    return ["league", season_id, night_id, [player for _, player in sorted(players)]]


def league_seating(game_ids: list[UUID] | None) -> dict[UUID, list[Any]]:
    """``games.registry.seating_parts``: ``league_part`` of each season game among
    ``game_ids`` (every one for None)."""
    games = SeasonGame.objects.all()
    seats = SeasonSeat.objects.all()
    if game_ids is not None:
        games = games.filter(game_id__in=game_ids)
        seats = seats.filter(season_game__game_id__in=game_ids)
    seated: dict[UUID, list[tuple[int, int]]] = {}
    for game_id, seat, player in seats.values_list("season_game__game_id", "seat", "player_id"):
        seated.setdefault(game_id, []).append((seat, player))
    return {
        game_id: league_part(season_id, night_id, seated.get(game_id, ()))
        for game_id, season_id, night_id in games.values_list("game_id", "season_id", "night_id")
    }
