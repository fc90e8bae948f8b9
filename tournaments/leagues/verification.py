"""What ``manage.py verify_events`` checks of leagues (``games.registry.verify_checks``), once
every game's log has verified: that each season game's results (``GameResult``, score sheets
included) are what its game gives (``standings.finished_results``: each seat's rank, win,
score, hands won and table size, in the game's scoring), for the player seated there, in the
season the game was played for; and that a game not over has none.

The night rows, standing rows and ratings add these results up (``projections``); they are not
compared here: ``manage.py rebuild_projections`` makes them again from the log.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from typing import Any
from uuid import UUID

from games.registry import Verified
from rules import GameState
from tournaments.leagues.models import GameResult, SeasonGame, SeasonSeat
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
