"""The standings projection: game results, night rows, standing rows and ratings, kept up to
date inside every append's transaction and rebuilt from the log by ``rebuild_projections``.

After each append to a season game the game's result is recomputed from its state (finished
games only; a rewind to before the end takes the result away again), and the *change* is applied
to the night rows of its players; each player's standing row is then re-derived from their night
rows (so the best-N choice stays right), and the ratings move on by that game, or, when the game
did not finish last (a rewind, or a commit that lost a race), the season's ratings are recomputed
in finish order. The season row is locked meanwhile, so finishes in one season never interleave.

A rebuild buffers every game's result in memory and writes each season once at the end (through
``recompute_season``, the same code an options change uses); the incremental and the rebuilt
tables are equal, which ``tests/tournaments/leagues/test_rebuild.py`` checks on thousands of hands.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

from django.db import connection
from django.db.models import Q
from psycopg.types.json import Jsonb

from games.models import Event, Game
from games.projections import NOTHING, Statement
from games.rebuild import replay_log
from rules import GameState
from rules.events import Rewound
from tournaments.leagues import ratings
from tournaments.leagues.models import (
    GameResult,
    Night,
    NightRow,
    RatingHistory,
    Season,
    SeasonGame,
    SeasonSeat,
    StandingRow,
)
from tournaments.leagues.standings import (
    NightTotals,
    SeatResult,
    Totals,
    next_finish,
    result_points,
    season_totals,
)

REWOUND = Rewound.type


def _may_change_result(event_rows: list[Event], state: GameState) -> bool:
    # A result exists only for a finished game, and a finished game only changes by a rewind:
    # every other append to a game that is not over leaves the standings alone (no query).
    return state.finished or any(row.type == REWOUND for row in event_rows)


class StandingsProjector:
    """Registered with ``games.projections`` by ``TournamentsConfig.ready``."""

    def __init__(self) -> None:
        self._rebuild: _Rebuild | None = None

    def apply(self, game: Game, event_rows: list[Event], state: GameState) -> None:
        if game.season_id is None or not _may_change_result(event_rows, state):
            return
        if self._rebuild is not None:
            self._rebuild.apply(game, event_rows, state)
        else:
            apply_append(game, event_rows[-1].position, state)

    def append_sql(self, game: Game, event_rows: list[Event], state: GameState) -> Statement | None:
        """Most appends cannot change a result: nothing to write. The others need ``apply``."""
        if self._rebuild is not None:
            return None
        if game.season_id is None or not _may_change_result(event_rows, state):
            return NOTHING
        return None

    def reset(self) -> None:
        for model in (RatingHistory, StandingRow, NightRow, GameResult):
            model.objects.all().delete()

    @contextmanager
    def rebuilding(self) -> Iterator[None]:
        """Buffer the rebuild's results and write them once, as the rebuild ends."""
        self._rebuild = _Rebuild.load()
        try:
            yield
            self._rebuild.write()
        finally:
            self._rebuild = None


standings_projector = StandingsProjector()


# One append ---------------------------------------------------------------------------------


def _results_of(rows: list[GameResult]) -> tuple[SeatResult, ...] | None:
    if not rows:
        return None
    return tuple(SeatResult(r.seat, r.rank, r.won, r.score, r.hands_won, r.players) for r in rows)


def apply_append(game: Game, position: int, state: GameState) -> None:
    """Follow one append to a season game that may have changed its result."""
    seats = list(
        SeasonSeat.objects.filter(season_game_id=game.pk).values_list(
            "seat", "player_id", "season_game__season_id", "season_game__night_id"
        )
    )
    if not seats:
        return  # not (yet) recorded as a season game: start_season_game records it next
    season_id, night_id = seats[0][2], seats[0][3]
    season = Season.objects.select_for_update().select_related("league").get(pk=season_id)
    old = list(GameResult.objects.filter(game_id=game.pk).order_by("seat"))
    before = _results_of(old)
    before_at = old[0].finished_at if old else None
    after, at = next_finish(before, before_at, state, position)
    if after == before and at == before_at:
        return

    player_of = {seat: player for seat, player, _, _ in seats}
    new = [
        GameResult(
            game_id=game.pk,
            seat=r.seat,
            season_id=season_id,
            night_id=night_id,
            player_id=player_of[r.seat],
            players=r.players,
            rank=r.rank,
            won=r.won,
            score=r.score,
            scoring=game.scoring,
            hands_won=r.hands_won,
            finished_at=at,
        )
        for r in after or ()
    ]
    if old:
        GameResult.objects.filter(game_id=game.pk).delete()
    GameResult.objects.bulk_create(new)

    scoring = season.effective_scoring
    deltas: dict[tuple[int, int], Totals] = defaultdict(Totals)
    for rows, sign in ((old, -1), (new, 1)):
        for r in rows:
            deltas[r.night_id, r.player_id].add_result(
                rank=r.rank,
                won=r.won,
                points=result_points(r.score, r.scoring, scoring),
                hands_won=r.hands_won,
                sign=sign,
            )
    _apply_night_deltas(season, deltas)
    _rederive_standing_rows(season, {player for _, player in deltas})

    later = GameResult.objects.filter(season_id=season_id, finished_at__gt=at or 0).exists()
    if old or later:
        recompute_ratings(season_id)
    else:
        _rate_game(season_id, new)


def _apply_night_deltas(season: Season, deltas: dict[tuple[int, int], Totals]) -> None:
    rows = {
        (row.night_id, row.player_id): row
        for row in NightRow.objects.filter(
            night_id__in={night for night, _ in deltas},
            player_id__in={player for _, player in deltas},
        )
    }
    for (night_id, player_id), delta in deltas.items():
        row = rows.get((night_id, player_id))
        totals = _totals(row) if row is not None else Totals()
        totals.add(delta)
        if totals.games == 0:
            if row is not None:
                row.delete()
            continue
        if row is None:
            row = NightRow(season=season, night_id=night_id, player_id=player_id)
        for name, value in totals.as_dict().items():
            setattr(row, name, value)
        row.save()


def _totals(row: Any) -> Totals:
    return Totals(
        row.games, row.wins, row.points, row.placing_sum, list(row.placings), row.hands_won
    )


def _night_totals(season_id: int, players: Iterable[int]) -> dict[int, list[NightTotals]]:
    nights: dict[int, list[NightTotals]] = defaultdict(list)
    rows = NightRow.objects.filter(season_id=season_id, player_id__in=list(players))
    for row in rows.select_related("night"):
        nights[row.player_id].append(NightTotals(row.night.number, _totals(row)))
    return nights


def _standing_fields(season: Season, nights: list[NightTotals]) -> dict[str, Any]:
    line = season_totals(
        nights,
        scoring=season.effective_scoring,
        best_nights=season.best_nights,
        attendance_points=season.attendance_points,
    )
    return {
        **line.totals.as_dict(),
        "nights": line.nights,
        "nights_counted": line.nights_counted,
        "attendance_points": line.attendance_points,
        "league_points": line.league_points,
    }


def _rederive_standing_rows(season: Season, players: set[int]) -> None:
    nights = _night_totals(season.pk, players)
    rows = {
        row.player_id: row
        for row in StandingRow.objects.filter(season=season, player_id__in=list(players))
    }
    for player_id in players:
        row = rows.get(player_id)
        if not nights.get(player_id):
            if row is not None:
                row.delete()
            continue
        if row is None:
            row = StandingRow(season=season, player_id=player_id)
        for name, value in _standing_fields(season, nights[player_id]).items():
            setattr(row, name, value)
        row.save()


# Ratings ------------------------------------------------------------------------------------


def _rate_game(season_id: int, results: list[GameResult]) -> None:
    """Move the players' ratings on by one game that finished after every other."""
    rows = {
        row.player_id: row
        for row in StandingRow.objects.filter(
            season_id=season_id, player_id__in=[r.player_id for r in results]
        )
    }
    before = [
        ratings.Rating(row.rating, row.rating_sigma)
        if row.rating is not None and row.rating_sigma is not None
        else ratings.DEFAULT
        for row in (rows[r.player_id] for r in results)
    ]
    after = ratings.rate(before, [r.rank for r in results])
    history = []
    for result, old, rating in zip(results, before, after, strict=True):
        row = rows[result.player_id]
        row.rating, row.rating_sigma = rating.mu, rating.sigma
        row.rated_games += 1
        history.append(
            _history_row(
                season_id,
                result.game_id,
                result.finished_at,
                result.player_id,
                result.rank,
                len(results),
                old,
                rating,
            )
        )
    StandingRow.objects.bulk_update(rows.values(), ["rating", "rating_sigma", "rated_games"])
    insert_rows(RatingHistory, history)


def _history_row(
    season_id: int,
    game_id: UUID,
    finished_at: int,
    player_id: int,
    rank: int,
    players: int,
    before: ratings.Rating,
    after: ratings.Rating,
) -> dict[str, Any]:
    return {
        "season_id": season_id,
        "player_id": player_id,
        "game_id": game_id,
        "finished_at": finished_at,
        "rank": rank,
        "players": players,
        "rating_before": before.mu,
        "sigma_before": before.sigma,
        "rating": after.mu,
        "sigma": after.sigma,
    }


@dataclass(frozen=True, slots=True)
class ResultLine:
    """One seat's result in a finished season game, as the season's tables add it up (a
    ``GameResult`` row, or what a game's log gives for one)."""

    game_id: UUID
    seat: int
    finished_at: int
    night_id: int
    night_number: int
    player_id: int
    rank: int
    won: bool
    score: int
    scoring: str
    hands_won: int


def result_lines(season_id: int) -> list[ResultLine]:
    """The season's stored results (``GameResult``), as its tables add them up."""
    rows = (
        GameResult.objects.filter(season_id=season_id)
        .order_by("finished_at", "seat")
        .values_list(
            *("game_id", "seat", "finished_at", "night_id", "night__number", "player_id"),
            *("rank", "won", "score", "scoring", "hands_won"),
        )
    )
    return [ResultLine(*row) for row in rows]


def _season_ratings(
    season_id: int, lines: Iterable[ResultLine]
) -> tuple[dict[Any, ratings.Rating], list[dict[str, Any]]]:
    placings: dict[UUID, list[tuple[int, int]]] = defaultdict(list)
    finished: dict[UUID, int] = {}
    for line in sorted(lines, key=lambda line: (line.finished_at, line.seat)):
        placings[line.game_id].append((line.player_id, line.rank))
        finished[line.game_id] = line.finished_at
    games = [
        ratings.FinishedGame(game_id, finished[game_id], tuple(seats))
        for game_id, seats in placings.items()
    ]
    current, entries = ratings.rate_games(games)
    history = [
        _history_row(
            season_id, e.game, e.finished_at, e.player, e.rank, e.players, e.before, e.after
        )
        for e in entries
    ]
    return current, history


def recompute_ratings(season_id: int) -> None:
    """The season's ratings and rating history again, from its finished games in finish order."""
    current, history = _season_ratings(season_id, result_lines(season_id))
    RatingHistory.objects.filter(season_id=season_id).delete()
    insert_rows(RatingHistory, history)
    counts: dict[Any, int] = defaultdict(int)
    for entry in history:
        counts[entry["player_id"]] += 1
    rows = list(StandingRow.objects.filter(season_id=season_id))
    for row in rows:
        rating = current.get(row.player_id)
        row.rating = rating.mu if rating else None
        row.rating_sigma = rating.sigma if rating else None
        row.rated_games = counts[row.player_id]
    StandingRow.objects.bulk_update(rows, ["rating", "rating_sigma", "rated_games"])


# A whole season -----------------------------------------------------------------------------


@dataclass
class SeasonTables:
    """A season's night rows, standing rows and rating history, as dicts of their fields'
    attnames (what ``insert_rows`` writes)."""

    night_rows: list[dict[str, Any]]
    standing_rows: list[dict[str, Any]]
    history: list[dict[str, Any]]


def season_tables(season: Season, lines: Iterable[ResultLine]) -> SeasonTables:
    """What the season's tables hold for these results (``season`` with its league loaded):
    computed, not written. ``recompute_season`` writes it; ``verify_events`` compares it with
    what is stored."""
    lines = list(lines)
    scoring = season.effective_scoring
    nights: dict[tuple[int, int], Totals] = defaultdict(Totals)
    numbers: dict[int, int] = {}
    for line in lines:
        numbers[line.night_id] = line.night_number
        nights[line.night_id, line.player_id].add_result(
            rank=line.rank,
            won=line.won,
            points=result_points(line.score, line.scoring, scoring),
            hands_won=line.hands_won,
        )
    night_rows = [
        {"season_id": season.pk, "night_id": night_id, "player_id": player_id} | totals.as_dict()
        for (night_id, player_id), totals in nights.items()
    ]
    per_player: dict[int, list[NightTotals]] = defaultdict(list)
    for (night_id, player_id), totals in nights.items():
        per_player[player_id].append(NightTotals(numbers[night_id], totals))
    current, history = _season_ratings(season.pk, lines)
    counts: dict[Any, int] = defaultdict(int)
    for entry in history:
        counts[entry["player_id"]] += 1
    standing = []
    for player_id, player_nights in per_player.items():
        rating = current.get(player_id)
        standing.append(
            {
                "season_id": season.pk,
                "player_id": player_id,
                "rating": rating.mu if rating else None,
                "rating_sigma": rating.sigma if rating else None,
                "rated_games": counts[player_id],
                **_standing_fields(season, player_nights),
            }
        )
    return SeasonTables(night_rows, standing, history)


def recompute_season(season: Season) -> None:
    """The season's night rows, standing rows and ratings again from its game results (after
    a rebuild, or when the standings options change). Takes the season's lock."""
    season = Season.objects.select_for_update().select_related("league").get(pk=season.pk)
    tables = season_tables(season, result_lines(season.pk))
    NightRow.objects.filter(season=season).delete()
    insert_rows(NightRow, tables.night_rows)
    StandingRow.objects.filter(season=season).delete()
    insert_rows(StandingRow, tables.standing_rows)
    RatingHistory.objects.filter(season=season).delete()
    insert_rows(RatingHistory, tables.history)


# Writing many rows ----------------------------------------------------------------------------


def insert_rows(model: Any, rows: list[dict[str, Any]]) -> None:
    """Insert new rows of a projection table, given as dicts of its fields' attnames (ids are
    automatic). On PostgreSQL with COPY, the values as they are (ints, floats, booleans,
    strings, UUIDs; lists as JSON): a season's recompute writes tens of thousands of rows, and
    model instances and one huge INSERT would cost more than the rest of a rebuild. Elsewhere
    with ``bulk_create``."""
    if not rows:
        return
    if connection.vendor != "postgresql":
        model.objects.bulk_create([model(**row) for row in rows], batch_size=2000)
        return
    meta = model._meta
    names = list(rows[0])
    quote = connection.ops.quote_name
    columns = ", ".join(quote(meta.get_field(name).column) for name in names)
    json_columns = [i for i, name in enumerate(names) if isinstance(rows[0][name], list)]
    sql = f"COPY {quote(meta.db_table)} ({columns}) FROM STDIN"
    with connection.cursor() as cursor, cursor.cursor.copy(sql) as copy:
        for row in rows:
            values = list(row.values())
            for i in json_columns:
                values[i] = Jsonb(values[i])
            copy.write_row(values)


# Rebuilding ---------------------------------------------------------------------------------


@dataclass
class _Rebuild:
    """What a rebuild has seen so far: each season game's seats, and its current result."""

    seats: dict[UUID, tuple[int, int, str, dict[int, int]]]  # season, night, scoring, players
    results: dict[UUID, tuple[tuple[SeatResult, ...], int]] = field(default_factory=dict)

    @classmethod
    def load(cls) -> _Rebuild:
        seats: dict[UUID, tuple[int, int, str, dict[int, int]]] = {}
        rows = SeasonSeat.objects.values_list(
            "season_game_id",
            "seat",
            "player_id",
            "season_game__season_id",
            "season_game__night_id",
            "season_game__game__scoring",
        )
        for game_id, seat, player_id, season_id, night_id, scoring in rows:
            entry = seats.setdefault(game_id, (season_id, night_id, scoring, {}))
            entry[3][seat] = player_id
        return cls(seats)

    def apply(self, game: Game, event_rows: list[Event], state: GameState) -> None:
        if game.pk not in self.seats:
            return
        before, before_at = self.results.get(game.pk, (None, None))
        after, at = next_finish(before, before_at, state, event_rows[-1].position)
        if after is None or at is None:
            self.results.pop(game.pk, None)
        else:
            self.results[game.pk] = (after, at)

    def write(self) -> None:
        rows = []
        seasons = set()
        for game_id, (results, at) in self.results.items():
            season_id, night_id, scoring, players = self.seats[game_id]
            seasons.add(season_id)
            rows += [
                {
                    "game_id": game_id,
                    "seat": r.seat,
                    "season_id": season_id,
                    "night_id": night_id,
                    "player_id": players[r.seat],
                    "players": r.players,
                    "rank": r.rank,
                    "won": r.won,
                    "score": r.score,
                    "scoring": scoring,
                    "hands_won": r.hands_won,
                    "finished_at": at,
                }
                for r in results
            ]
        insert_rows(GameResult, rows)
        for season in Season.objects.filter(pk__in=seasons):
            recompute_season(season)


class _Collecting:
    """Follows a replay as the projector does, into a ``_Rebuild``, and writes nothing."""

    def __init__(self, into: _Rebuild) -> None:
        self.into = into

    def apply(self, game: Game, event_rows: list[Event], state: GameState) -> None:
        if game.season_id is not None and _may_change_result(event_rows, state):
            self.into.apply(game, event_rows, state)

    def reset(self) -> None:  # (never emptied: it holds nothing stored)
        pass


def results_in_log() -> dict[int, list[ResultLine]]:
    """Every season's results as its games' logs give them, replayed in memory the way the
    projection follows appends (so with the same finish positions): what ``recompute_season``
    would add up after a rebuild, read without writing anything."""
    collected = _Rebuild.load()
    replay_log([_Collecting(collected)], only=Q(game_id__in=SeasonGame.objects.values("game_id")))
    numbers = dict(Night.objects.values_list("pk", "number"))
    lines: dict[int, list[ResultLine]] = defaultdict(list)
    for game_id, (results, at) in collected.results.items():
        season_id, night_id, scoring, players = collected.seats[game_id]
        lines[season_id] += [
            ResultLine(
                *(game_id, r.seat, at, night_id, numbers[night_id], players[r.seat]),
                *(r.rank, r.won, r.score, scoring, r.hands_won),
            )
            for r in results
            if r.seat in players  # (a seat nobody sat at is reported with the game's results)
        ]
    return lines
