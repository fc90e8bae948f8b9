"""Ratings: openskill's Plackett-Luce model over the placings of each finished game, as pure
functions. A season's ratings are a fold over its finished games in finish order, so the same
games in the same order always give the same numbers (docs/STANDINGS.md).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce()  # mu 25, sigma 25/3: openskill's defaults


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's skill estimate: ``mu`` and its uncertainty ``sigma``."""

    mu: float
    sigma: float


DEFAULT = Rating(MODEL.mu, MODEL.sigma)


def rate(before: Sequence[Rating], ranks: Sequence[int]) -> list[Rating]:
    """The ratings of a game's players after it, from their ratings before and their ranks
    (1 is best; equal ranks are a tie, as the engine reports equal results)."""
    teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in before]
    after = MODEL.rate(teams, ranks=list(ranks))
    return [Rating(team[0].mu, team[0].sigma) for team in after]


@dataclass(frozen=True, slots=True)
class Entry:
    """One player's change of rating through one game."""

    game: Hashable
    finished_at: int
    player: Hashable
    rank: int
    players: int
    before: Rating
    after: Rating


@dataclass(frozen=True, slots=True)
class FinishedGame:
    """A finished game as ratings see it: who placed what (player, rank), and when it ended."""

    game: Hashable
    finished_at: int
    placings: tuple[tuple[Hashable, int], ...]


def rate_games(
    games: Iterable[FinishedGame], ratings: dict[Hashable, Rating] | None = None
) -> tuple[dict[Hashable, Rating], list[Entry]]:
    """Fold ``games`` (in finish order) into the players' ratings, starting from ``ratings``
    (everyone else starts at the default). Returns the ratings after them and each entry of
    the rating history."""
    current = dict(ratings or {})
    history: list[Entry] = []
    for game in sorted(games, key=lambda g: g.finished_at):
        players = [player for player, _ in game.placings]
        before = [current.get(player, DEFAULT) for player in players]
        after = rate(before, [rank for _, rank in game.placings])
        for (player, rank), old, new in zip(game.placings, before, after, strict=True):
            current[player] = new
            history.append(Entry(game.game, game.finished_at, player, rank, len(players), old, new))
    return current, history
