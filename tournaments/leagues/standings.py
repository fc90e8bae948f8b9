"""Standings as pure functions over plain rows: what a finished game gives each seat, a night's
and a season's totals, best N nights, attendance points, and the order of the table with its
tie-breakers. No Django and no database: the projection and the selectors feed these plain
values in and store or show what comes out (docs/STANDINGS.md explains the rules).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from rules import GameState

# The table's order, best first, after league points when the season gives attendance points.
# Players level on every one of these share the rank; the name only orders them on the page.
TIE_BREAKERS = ("wins", "points", "average_placing", "hands_won")


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat's result in a finished game, read from the game's final state."""

    seat: int
    rank: int  # 1 for the winner; seats with equal results share a rank (rules: game_result)
    won: bool
    score: int  # the seat's total in the game's own scoring
    hands_won: int
    players: int


def finished_results(state: GameState) -> tuple[SeatResult, ...] | None:
    """Each seat's result when the game is over, or ``None`` while it is not."""
    if not state.finished:
        return None
    return tuple(
        SeatResult(
            seat=seat,
            rank=state.ranks[seat],
            won=state.winner == seat,
            score=state.scores[seat],
            hands_won=state.hands_won[seat],
            players=state.players,
        )
        for seat in range(state.players)
    )


def next_finish(
    before: tuple[SeatResult, ...] | None,
    before_at: int | None,
    state: GameState,
    position: int,
) -> tuple[tuple[SeatResult, ...] | None, int | None]:
    """A game's results and finish position after an append that ends at log ``position``.

    The finish position orders the ratings: it is the position of the append that finished the
    game, kept while the results stay the same, and moved when a rewind changes them (a rewind
    to before the end takes them away). The same appends give the same answer however they
    arrive, which is what lets a rebuild equal the incremental projection.
    """
    after = finished_results(state)
    if after is None:
        return None, None
    if before is not None and after == before and before_at is not None:
        return before, before_at
    return after, position


def points_order(scoring: str) -> str:
    """``"higher"`` when more points are better (standard: points scored), ``"lower"`` in
    alternative scoring (points held)."""
    return "lower" if scoring == "alternative" else "higher"


@dataclass(slots=True)
class Totals:
    """Totals over some finished games: what a night row and a standing row add up.

    ``placings[i]`` counts games placed ``i + 1``; the list never ends in a zero, so totals that
    went up and back down equal totals that never moved.
    """

    games: int = 0
    wins: int = 0
    points: int = 0
    placing_sum: int = 0
    placings: list[int] = field(default_factory=list)
    hands_won: int = 0

    def add_result(
        self, *, rank: int, won: bool, points: int, hands_won: int, sign: int = 1
    ) -> None:
        self.games += sign
        self.wins += sign * won
        self.points += sign * points
        self.placing_sum += sign * rank
        self.hands_won += sign * hands_won
        self._bump(rank - 1, sign)

    def add(self, other: Totals, sign: int = 1) -> None:
        self.games += sign * other.games
        self.wins += sign * other.wins
        self.points += sign * other.points
        self.placing_sum += sign * other.placing_sum
        self.hands_won += sign * other.hands_won
        for i, count in enumerate(other.placings):
            self._bump(i, sign * count)

    def _bump(self, i: int, by: int) -> None:
        if len(self.placings) <= i:
            self.placings.extend([0] * (i + 1 - len(self.placings)))
        self.placings[i] += by
        while self.placings and self.placings[-1] == 0:
            self.placings.pop()

    @property
    def average_placing(self) -> Fraction | None:
        return Fraction(self.placing_sum, self.games) if self.games else None

    def as_dict(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "wins": self.wins,
            "points": self.points,
            "placing_sum": self.placing_sum,
            "placings": list(self.placings),
            "hands_won": self.hands_won,
        }


def result_points(score: int, game_scoring: str, season_scoring: str) -> int:
    """The points a game's score adds to the season: all of it when the game was scored like the
    season, nothing when a game overrode the scoring (points of different modes do not add up)."""
    return score if game_scoring == season_scoring else 0


def totals_of(results: Iterable[Mapping[str, Any]], season_scoring: str) -> Totals:
    """Totals of result rows (``rank``, ``won``, ``score``, ``scoring``, ``hands_won``)."""
    totals = Totals()
    for row in results:
        totals.add_result(
            rank=row["rank"],
            won=row["won"],
            points=result_points(row["score"], row["scoring"], season_scoring),
            hands_won=row["hands_won"],
        )
    return totals


@dataclass(frozen=True, slots=True)
class NightTotals:
    """A player's totals for one night (``number`` orders nights)."""

    number: int
    totals: Totals


@dataclass(slots=True)
class SeasonTotals:
    """A player's season: the totals of the nights that count, and the league points."""

    totals: Totals
    nights: int
    nights_counted: int
    attendance_points: int
    league_points: int


def _points_key(points: int, scoring: str) -> int:
    return points if points_order(scoring) == "lower" else -points


def night_order_key(night: NightTotals, scoring: str) -> tuple[Any, ...]:
    """Best night first: more wins, better points, better average placing, more hands won,
    then the earlier night (a player's nights all earn the same attendance points)."""
    t = night.totals
    return (
        -t.wins,
        _points_key(t.points, scoring),
        t.average_placing,
        -t.hands_won,
        night.number,
    )


def season_totals(
    nights: Iterable[NightTotals],
    *,
    scoring: str,
    best_nights: int | None = None,
    attendance_points: int = 0,
) -> SeasonTotals:
    """A player's season line from their nights: every night, or only the best ``best_nights``;
    each counted night earns ``attendance_points`` league points on top of one per win."""
    played = [n for n in nights if n.totals.games > 0]
    counted = played
    if best_nights is not None and len(played) > best_nights:
        counted = sorted(played, key=lambda n: night_order_key(n, scoring))[:best_nights]
    totals = Totals()
    for night in sorted(counted, key=lambda n: n.number):
        totals.add(night.totals)
    attendance = attendance_points * len(counted)
    return SeasonTotals(
        totals=totals,
        nights=len(played),
        nights_counted=len(counted),
        attendance_points=attendance,
        league_points=totals.wins + attendance,
    )


def tie_breakers(attendance_points: int = 0) -> list[str]:
    """The columns the table is sorted by, most important first."""
    return (["league_points"] if attendance_points else []) + list(TIE_BREAKERS)


def tie_breaker_notes(
    *, scoring: str, attendance_points: int = 0, best_nights: int | None = None
) -> list[str]:
    """The tie-breakers as the sentences shown under the table."""
    notes = []
    if attendance_points:
        notes.append(
            f"League points: one per win plus {attendance_points} for each night played; "
            "more is better."
        )
    notes.append("Wins: games won; more is better.")
    if points_order(scoring) == "lower":
        notes.append("Points: card points held at the end of each game; fewer is better.")
    else:
        notes.append("Points: card points scored; more is better.")
    notes.append("Average placing: the mean of the places finished; lower is better.")
    notes.append("Hands won: hands in which the player went out first; more is better.")
    notes.append("Players level on all of these share the rank and are listed by name.")
    if best_nights:
        notes.append(f"Only each player's best {best_nights} nights count (the rating counts all).")
    return notes


def row_key(row: Mapping[str, Any], *, scoring: str, attendance_points: int = 0) -> tuple[Any, ...]:
    """The sort key of a standings row (best first), without the name."""
    average = Fraction(row["placing_sum"], row["games"]) if row["games"] else Fraction(10**9)
    key: tuple[Any, ...] = (
        -row["wins"],
        _points_key(row["points"], scoring),
        average,
        -row["hands_won"],
    )
    if attendance_points:
        key = (-row["league_points"], *key)
    return key


def rank_rows(
    rows: Sequence[Mapping[str, Any]], *, scoring: str, attendance_points: int = 0
) -> list[dict[str, Any]]:
    """``rows`` sorted best first, each a copy with its ``rank`` (1, 2, 2, 4 ...: standard
    competition ranking, so players level on every tie-breaker share a rank). Each row needs
    ``player`` (the name), ``player_id``, ``games``, ``wins``, ``points``, ``placing_sum``,
    ``hands_won`` and ``league_points``."""
    keyed = sorted(
        ((row_key(r, scoring=scoring, attendance_points=attendance_points), r) for r in rows),
        key=lambda kr: (kr[0], kr[1]["player"].casefold(), kr[1]["player_id"]),
    )
    out: list[dict[str, Any]] = []
    previous = None
    for i, (key, row) in enumerate(keyed):
        rank = out[-1]["rank"] if previous == key else i + 1
        out.append({"rank": rank, **row})
        previous = key
    return out
