"""Seating a tournament round as pure functions over plain values (names, seeds, standings):
table sizes, elimination seating by seed snake, Swiss tables of similar standing that avoid
repeat opponents, byes, who advances. No Django; docs/TOURNAMENTS.md explains the rules.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from itertools import combinations

MIN_TABLE, MAX_TABLE = 2, 10


def sizes(players: int, table_size: int) -> list[int]:
    """Balanced table sizes for ``players`` at tables of at most ``table_size`` seats, largest
    first: the fewest tables that hold everyone, sizes differing by at most one
    (``sizes(10, 4) == [4, 3, 3]``). A table needs two players, so when that cannot be kept
    (an odd field at tables of two, or a field of one) the sizes hold one player fewer: that
    player has the round's bye (``players - sum(sizes(...))`` is 0 or 1)."""
    if not MIN_TABLE <= table_size <= MAX_TABLE:
        raise ValueError(f"table_size must be {MIN_TABLE} to {MAX_TABLE}, not {table_size}")
    if players < MIN_TABLE:
        return []
    tables = -(-players // table_size)
    base, extra = divmod(players, tables)
    if base < MIN_TABLE:  # only at tables of two with an odd field
        return [MIN_TABLE] * (players // MIN_TABLE)
    return [base + 1] * extra + [base] * (tables - extra)


def snake(players: Sequence[str], table_sizes: Sequence[int]) -> list[list[str]]:
    """Seat ``players`` (best seed first) at tables of ``table_sizes`` by seed snake: seeds
    1, 2, 3 … go to tables 1, 2, 3 …, then back from the last table, and so on, skipping a
    table that is full; so every table gets a spread of seeds. Seats follow seed order."""
    if sum(table_sizes) != len(players):
        raise ValueError(f"{len(players)} players for {sum(table_sizes)} seats")
    tables: list[list[str]] = [[] for _ in table_sizes]
    order = list(range(len(tables)))
    i = 0
    forward = True
    for player in players:
        while True:
            lane = order if forward else order[::-1]
            index = lane[i]
            i += 1
            if i == len(lane):
                i, forward = 0, not forward
            if len(tables[index]) < table_sizes[index]:
                tables[index].append(player)
                break
    return tables


def repeats(table: Iterable[str], met: Mapping[str, set[str]]) -> int:
    """How many pairs at ``table`` have already met."""
    return sum(1 for a, b in combinations(table, 2) if b in met.get(a, ()))


def swiss(
    standing: Sequence[str], table_sizes: Sequence[int], met: Mapping[str, set[str]]
) -> list[list[str]]:
    """Swiss tables: ``standing`` (best first) seated so that each table holds players of
    similar standing and as few pairs as possible who have met before (``met`` maps a player
    to the players they have shared a table with).

    Tables are filled from the top: a table starts with the best player not yet seated and
    takes, one at a time, the best-placed remaining player who has met nobody at it yet (when
    everyone left has, the one who has met the fewest). Then swaps of two players between
    tables are made while they lower the number of repeat pairs. Seats follow standing."""
    if sum(table_sizes) != len(standing):
        raise ValueError(f"{len(standing)} players for {sum(table_sizes)} seats")
    place = {name: i for i, name in enumerate(standing)}
    left = list(standing)
    tables: list[list[str]] = []
    for size in table_sizes:
        table = [left.pop(0)]
        while len(table) < size:
            best = min(
                range(len(left)),
                key=lambda i: (sum(1 for p in table if p in met.get(left[i], ())), i),
            )
            table.append(left.pop(best))
        tables.append(table)
    _improve(tables, met)
    return [sorted(table, key=place.__getitem__) for table in tables]


def _improve(tables: list[list[str]], met: Mapping[str, set[str]]) -> None:
    """Swap players between two tables while a swap lowers the repeat pairs (a local search:
    it ends, because every swap lowers a count that cannot go below zero)."""
    improved = True
    while improved:
        improved = False
        for a, b in combinations(range(len(tables)), 2):
            now = repeats(tables[a], met) + repeats(tables[b], met)
            if not now:
                continue
            for i in range(len(tables[a])):
                for j in range(len(tables[b])):
                    ta, tb = list(tables[a]), list(tables[b])
                    ta[i], tb[j] = tb[j], ta[i]
                    if repeats(ta, met) + repeats(tb, met) < now:
                        tables[a], tables[b] = ta, tb
                        improved = True
                        break
                if improved:
                    break
            if improved:
                break


def bye(standing: Sequence[str], had_bye: Iterable[str]) -> str:
    """Who sits the round out when one player must: the lowest-standing player who has not
    had a bye yet (everyone has: the lowest-standing player)."""
    had = set(had_bye)
    for name in reversed(standing):
        if name not in had:
            return name
    return standing[-1]


def advancing(placings: Sequence[str], advance: int) -> list[str]:
    """Who goes on from a table, best first: its top ``advance``, but never the whole table
    (at most all but the last), so every round of an elimination makes the field smaller."""
    return list(placings[: min(advance, len(placings) - 1)])


def rotate(players: Sequence[str], offset: int) -> list[str]:
    """``players`` turned by ``offset`` seats: the player at ``offset`` takes seat 0 and the
    order round the table is kept."""
    if not players:
        return []
    offset %= len(players)
    return [*players[offset:], *players[:offset]]
