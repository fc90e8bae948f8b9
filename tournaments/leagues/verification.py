"""What ``manage.py verify_events`` checks of leagues (``games.registry.verify_checks``), once
every game's log has verified: that each season game's results (``GameResult``, score sheets
included) are what its game gives (``standings.finished_results``: each seat's rank, win,
score, hands won and table size, in the game's scoring), for the player seated there, in the
season the game was played for; and that a game not over has none.

Then (``season_tables``) what adds these results up: each season's night rows, standing rows,
ratings and rating history, and each result's night and finish position (the order the ratings
follow), compared with what the season games' logs give, replayed in memory the way the
projection follows them (``projections.results_in_log``) and added up by the code that writes
the tables (``projections.season_tables``). Nothing is written. Each disagreement is named by
league, season, player and night or game, with what is stored and what the games give.

And what a club checks of a league from the API alone (``published_problems``): the league's
name and defaults and its players' names, against the server's signatures of them.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from typing import Any
from uuid import UUID

from games import records
from games.registry import Verified
from rules import GameState
from tournaments.leagues.models import (
    GameResult,
    League,
    Night,
    NightRow,
    Player,
    RatingHistory,
    Season,
    SeasonGame,
    SeasonSeat,
    StandingRow,
)
from tournaments.leagues.projections import results_in_log, season_tables
from tournaments.leagues.standings import finished_results

# What a result row holds that comes from its game, and from where the game was played.
FROM_THE_GAME = ("seat", "rank", "won", "score", "hands_won", "players")
FROM_THE_SEATING = ("player_id", "season_id", "scoring")


def season_results(state_of: Callable[[Any], GameState | None]) -> Verified:
    """``games.registry.verify_checks``: every season game's recorded results compared with
    its game."""
    seating: dict[UUID, dict[int, int]] = defaultdict(dict)
    for game_id, seat, player_id in SeasonSeat.objects.values_list(
        "season_game_id", "seat", "player_id"
    ).iterator(chunk_size=5000):
        seating[game_id][seat] = player_id
    recorded: dict[UUID, list[dict[str, Any]]] = defaultdict(list)
    for row in (
        GameResult.objects.order_by("game_id", "seat")
        .values("game_id", *FROM_THE_GAME, *FROM_THE_SEATING)
        .iterator(chunk_size=5000)
    ):
        recorded[row["game_id"]].append(row)
    played = {
        game_id: (season_id, number, league, season)
        for game_id, season_id, number, league, season in SeasonGame.objects.values_list(
            "game_id", "season_id", "night__number", "season__league__name", "season__name"
        ).iterator(chunk_size=5000)
    }
    problems = []
    for game_id in sorted(set(played) | set(recorded), key=str):
        rows = recorded.get(game_id, [])
        if game_id not in played:
            problems.append(
                f"game {game_id}: {len(rows)} results recorded, but it is no season's game"
            )
            continue
        season_id, number, league, season = played[game_id]
        where = f"season {season_id} ({league}, {season}) night {number} game {game_id}"
        problem = _problem(rows, state_of(game_id), seating.get(game_id, {}), season_id)
        if problem is not None:
            problems.append(f"{where}: {problem}")
    count = len(played)
    return Verified(
        checked=(f"the results of {count} season game{'s' * (count != 1)}",),
        problems=tuple(problems),
    )


def _problem(
    rows: list[dict[str, Any]],
    state: GameState | None,
    seating: dict[int, int],
    season_id: int,
) -> str | None:
    results = finished_results(state) if state is not None else None
    if results is None:
        return f"{len(rows)} results recorded, but its game is not over" if rows else None
    expected = [
        {
            **{name: getattr(result, name) for name in FROM_THE_GAME},
            "player_id": seating.get(result.seat),
            "season_id": season_id,
            "scoring": state.scoring,
        }
        for result in results
    ]
    got = [{name: row[name] for name in (*FROM_THE_GAME, *FROM_THE_SEATING)} for row in rows]
    if got == expected:
        return None
    if len(got) != len(expected):
        return (
            f"{len(got)} results recorded, but its game gives one for each of its "
            f"{len(expected)} seats"
        )
    for recorded, given in zip(got, expected, strict=True):
        changed = [name for name in given if recorded[name] != given[name]]
        if changed:
            said = ", ".join(f"{name} {recorded[name]!r}" for name in changed)
            gives = ", ".join(f"{name} {given[name]!r}" for name in changed)
            return f"seat {given['seat']} is recorded with {said}, but its game gives {gives}"
    return None


# The read models' columns an organiser reads, in the order they are named, with their words
# (singular, plural: "1 win", "2 wins"; a number of points is said the same either way).
TOTALS = {
    "games": ("game", "games"),
    "wins": ("win", "wins"),
    "points": ("point", "points"),
    "placing_sum": ("placings adding up to", None),
    "placings": ("placed", None),
    "hands_won": ("hand won", "hands won"),
}
STANDING = {
    **TOTALS,
    "nights": ("night played", "nights played"),
    "nights_counted": ("night counted", "nights counted"),
    "attendance_points": ("attendance point", "attendance points"),
    "league_points": ("league point", "league points"),
    "rating": ("rating", None),
    "rating_sigma": ("rating's uncertainty", None),
    "rated_games": ("rated game", "rated games"),
}
HISTORY = {
    "rank": ("place", None),
    "players": ("player at the table", "players at the table"),
    "finished_at": ("finish position in the log", None),
    "rating_before": ("rating before", None),
    "sigma_before": ("uncertainty before", None),
    "rating": ("rating after", None),
    "sigma": ("uncertainty after", None),
}


def season_tables_check(state_of: Callable[[Any], GameState | None]) -> Verified:
    """``games.registry.verify_checks``: every season's night rows, standing rows and rating
    history, and every result's night and finish position, compared with what the season
    games' logs add up to (``state_of`` is not needed: the logs are replayed as the
    projection follows them, for the finish positions)."""
    given = results_in_log()
    names = dict(Player.objects.values_list("pk", "name"))
    numbers = dict(Night.objects.values_list("pk", "number"))
    problems: list[str] = []
    seasons = sorted(
        Season.objects.select_related("league"), key=lambda s: (s.league.name, s.name, s.pk)
    )
    for season in seasons:
        where = f"{season.league.name}, {season.name}"
        lines = given.get(season.pk, [])
        tables = season_tables(season, lines)
        said = _Said(where, names, numbers)
        problems += said.results(lines, GameResult.objects.filter(season=season))
        problems += said.compare(
            "night",
            _keyed(tables.night_rows, "night_id", "player_id"),
            _keyed(NightRow.objects.filter(season=season).values(), "night_id", "player_id"),
            TOTALS,
        )
        problems += said.compare(
            "standing",
            _keyed(tables.standing_rows, "player_id"),
            _keyed(StandingRow.objects.filter(season=season).values(), "player_id"),
            STANDING,
        )
        problems += said.compare(
            "rating",
            _keyed(tables.history, "game_id", "player_id"),
            _keyed(RatingHistory.objects.filter(season=season).values(), "game_id", "player_id"),
            HISTORY,
            night_of={line.game_id: line.night_number for line in lines},
        )
    count = len(seasons)
    return Verified(
        checked=(f"the night rows, standings and ratings of {count} season{'s' * (count != 1)}",),
        problems=tuple(problems),
    )


def _keyed(rows: Iterable[dict[str, Any]], *key: str) -> dict[tuple[Any, ...], dict[str, Any]]:
    return {tuple(row[name] for name in key): row for row in rows}


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        # Stored as the same doubles; a tolerance only spares a driver's last bit.
        return math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-12)
    return a == b


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


class _Said:
    """Disagreements of one season, in an organiser's words."""

    def __init__(self, where: str, names: dict[int, str], numbers: dict[int, int]) -> None:
        self.where, self.names, self.numbers = where, names, numbers

    def player(self, player_id: Any) -> str:
        return self.names.get(player_id, f"a player who is not in the league ({player_id})")

    def value(self, name: str, value: Any, other: Any, words: tuple[str, str | None]) -> str:
        singular, plural = words
        if value is None:
            return f"no {singular}"
        if name == "placings":
            times = {1: "once", 2: "twice"}
            counted = [
                f"{_ordinal(i + 1)} {times.get(n, f'{n} times')}" for i, n in enumerate(value) if n
            ]
            return "placed " + (", ".join(counted) if counted else "nowhere")
        if isinstance(value, float):
            text = f"{value:.2f}"
            if isinstance(other, float) and f"{other:.2f}" == text:
                text = repr(value)  # (differs further down: show where)
            return f"{singular} {text}"
        if plural is None:
            return f"{singular} {value}"
        return f"{value} {singular if value == 1 else plural}"

    def differences(
        self, stored: dict[str, Any], given: dict[str, Any], words: dict[str, tuple[str, Any]]
    ) -> str | None:
        changed = [name for name in words if not _same(stored[name], given[name])]
        if not changed:
            return None
        said = ", ".join(self.value(n, stored[n], given[n], words[n]) for n in changed)
        gives = ", ".join(self.value(n, given[n], stored[n], words[n]) for n in changed)
        return f"is stored with {said}, but the games give {gives}"

    def what(self, kind: str, key: tuple[Any, ...], night_of: dict[Any, int]) -> str:
        if kind == "night":
            night_id, player_id = key
            number = self.numbers.get(night_id, night_id)
            return f"{self.player(player_id)}'s row for night {number}"
        if kind == "standing":
            return f"{self.player(key[0])}'s line in the standings"
        game_id, player_id = key
        night = night_of.get(game_id)
        on = f" (night {night})" if night is not None else ""
        return f"{self.player(player_id)}'s rating through game {game_id}{on}"

    def compare(
        self,
        kind: str,
        given: dict[tuple[Any, ...], dict[str, Any]],
        stored: dict[tuple[Any, ...], dict[str, Any]],
        words: dict[str, tuple[str, Any]],
        night_of: dict[Any, int] | None = None,
    ) -> list[str]:
        night_of = night_of or {}
        problems = []
        for key in sorted(set(given) | set(stored), key=self.order):
            what = self.what(kind, key, night_of)
            if key not in stored:
                problems.append(f"{self.where}: {what} is missing, but the games give one")
            elif key not in given:
                problems.append(f"{self.where}: {what} is stored, but the games give none")
            elif (differs := self.differences(stored[key], given[key], words)) is not None:
                problems.append(f"{self.where}: {what} {differs}")
        return problems

    def order(self, key: tuple[Any, ...]) -> tuple[Any, ...]:
        player = self.player(key[-1]).casefold()
        first = self.numbers.get(key[0], 0) if len(key) == 2 and isinstance(key[0], int) else 0
        return (player, first, str(key))

    def results(self, lines: list[Any], stored: Any) -> list[str]:
        """Each stored result's night and finish position (the rest is ``season_results``)."""
        given = {(line.game_id, line.seat): line for line in lines}
        problems = []
        for game_id, seat, player_id, night_id, finished_at in stored.order_by(
            "finished_at", "seat"
        ).values_list("game_id", "seat", "player_id", "night_id", "finished_at"):
            line = given.get((game_id, seat))
            if line is None:
                continue  # (reported with the game's results)
            what = f"{self.where}: {self.player(player_id)}'s result in game {game_id}"
            night = self.numbers.get(night_id, night_id)
            if night_id != line.night_id:
                problems.append(
                    f"{what} is stored on night {night}, but the game is played on night "
                    f"{line.night_number}"
                )
            if finished_at != line.finished_at:
                problems.append(
                    f"{what} is stored as finished at log position {finished_at}, but its "
                    f"game's log finishes it at {line.finished_at} (the ratings follow this "
                    "order)"
                )
        return problems


def published_problems(answer: Mapping[str, Any], public_keys: Mapping[str, str]) -> list[str]:
    """What is wrong with a league as the API gives it (``GET /api/leagues/{id}/``), checked
    with the server's public keys (``GET /api/chain/keys/``: key id -> public key): the
    league's name and defaults, and each player's name, against the server's signatures of
    them (``games.records``). Empty when every one is what the server signed: the names the
    standings show are the players the server recorded. A club checks from the API alone."""
    try:
        league = int(answer["id"])
        values = {name: answer[name] for name in League.signed_columns()}
        players = [(int(p["id"]), p["name"], p["signature"]) for p in answer["players"]]
        signatures = [answer["signature"], *(signature for _, _, signature in players)]
        if not all(isinstance(signature, str) for signature in signatures):
            raise TypeError("a signature is not text")
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        return [f"the league cannot be read: {exc!r}"]
    found = []
    problem = records.problem(League, league, values, answer["signature"], public_keys)
    if problem is not None:
        found.append(f"the league: {problem}")
    for pk, name, signature in players:
        problem = records.problem(
            Player, pk, {"league_id": league, "name": name}, signature, public_keys
        )
        if problem is not None:
            found.append(f"player {pk} ({name!r}): {problem}")
    return found
