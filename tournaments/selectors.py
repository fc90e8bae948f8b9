"""Reads for the API and the pages: plain dicts and lists (JSON-ready), one or two queries each.
A page renders them as they are; the API serializes them as they are.

Every function raises ``games.errors.NotFound`` for an unknown id.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.db.models import Count, Q

from games.errors import NotFound
from games.models import Game
from tournaments import standings
from tournaments.models import (
    GameResult,
    League,
    Night,
    Player,
    RatingHistory,
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
            {"id": pk, "name": name}
            for pk, name in league.players.order_by("name").values_list("pk", "name")
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
