"""A tournament's standings and its next round as pure functions over plain rows (entries and
rounds with their tables), so the services only read rows, call these and write what comes out.
No Django; docs/TOURNAMENTS.md explains the formats, the points and the tie-breakers.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from tournaments.brackets import pairing

ELIMINATION, SWISS, FINAL = "elimination", "swiss", "final"

# After points (Swiss) or the round reached and the placing there (elimination). Players level
# on every one of these share the rank; the seed only orders them on the page.
TIE_BREAKERS = ("wins", "opponents_points", "seed")


@dataclass(frozen=True, slots=True)
class Settings:
    format: str  # ELIMINATION or SWISS
    table_size: int
    advance: int = 1
    rounds: int = 1  # Swiss rounds before the final table
    final_table: bool = False


@dataclass(frozen=True, slots=True)
class EntryRow:
    player: str
    seed: int  # 1 is the best
    dropped: bool = False
    joined: int = 1  # the first round the player can be seated in (a late entry: later)


@dataclass(frozen=True, slots=True)
class TableRow:
    players: tuple[str, ...]  # in seat order
    placings: tuple[str, ...] | None = None  # best first, once the table's game is over


@dataclass(frozen=True, slots=True)
class RoundRow:
    number: int
    kind: str  # ELIMINATION, SWISS or FINAL
    tables: tuple[TableRow, ...]
    byes: tuple[str, ...] = ()

    @property
    def finished(self) -> bool:
        return all(t.placings is not None for t in self.tables)


@dataclass(frozen=True, slots=True)
class NextRound:
    """Seat this round: ``tables`` of players in seat order; ``byes`` sit it out."""

    number: int
    kind: str
    tables: list[list[str]]
    byes: list[str]


@dataclass(frozen=True, slots=True)
class Finished:
    winner: str | None


@dataclass(slots=True)
class Standing:
    player: str
    seed: int
    dropped: bool = False
    points: Fraction = Fraction(0)
    wins: int = 0
    tables: int = 0
    byes: int = 0
    opponents_points: Fraction = Fraction(0)
    reached: int = 0  # the last round the player was seated in or had a bye in
    last_placing: int | None = None  # placing at the last table played (elimination)
    final_placing: int | None = None
    opponents: list[str] = field(default_factory=list)
    rank: int = 0


def table_points(placing: int, players: int) -> Fraction:
    """A table's points for placing ``placing`` (1 is best) of ``players``: the share of the
    other players beaten, 1 for a win down to 0 for last, so tables of 3 and 4 weigh alike."""
    return Fraction(players - placing, players - 1)


BYE_POINTS = Fraction(1)  # a bye scores as a table won (but is not counted as a win)


def standings(
    settings: Settings, entries: Sequence[EntryRow], rounds: Sequence[RoundRow]
) -> list[Standing]:
    """Every entry's line, best first, with ``rank`` set (docs/TOURNAMENTS.md)."""
    rows = {e.player: Standing(e.player, e.seed, e.dropped) for e in entries}
    for rnd in sorted(rounds, key=lambda r: r.number):
        for name in rnd.byes:
            row = rows[name]
            row.points += BYE_POINTS
            row.byes += 1
            row.reached = rnd.number
            row.last_placing = 1
        for table in rnd.tables:
            for name in table.players:
                rows[name].reached = rnd.number
            if table.placings is None:
                continue
            n = len(table.placings)
            for placing, name in enumerate(table.placings, start=1):
                row = rows[name]
                row.points += table_points(placing, n)
                row.wins += placing == 1
                row.tables += 1
                row.last_placing = placing
                row.opponents.extend(p for p in table.placings if p != name)
                if rnd.kind == FINAL:
                    row.final_placing = placing
    for row in rows.values():
        row.opponents_points = sum((rows[o].points for o in row.opponents), Fraction(0))

    def key(row: Standing) -> tuple:
        final = (0, row.final_placing) if row.final_placing is not None else (1, 0)
        if settings.format == ELIMINATION:
            main: tuple = (-row.reached, row.last_placing or 99, -row.points)
        else:
            # A player who dropped out ranks after everyone still in: the top of the standings
            # is the Swiss's winner (``_next_swiss``), whoever dropped during the last round.
            main = (row.dropped, -row.points)
        return (final, *main, -row.wins, -row.opponents_points)

    ordered = sorted(rows.values(), key=lambda r: (key(r), r.seed))
    for i, row in enumerate(ordered):
        level = i and key(row) == key(ordered[i - 1])
        row.rank = ordered[i - 1].rank if level else i + 1
    return ordered


def _met(rounds: Sequence[RoundRow]) -> dict[str, set[str]]:
    met: dict[str, set[str]] = defaultdict(set)
    for rnd in rounds:
        for table in rnd.tables:
            for name in table.players:
                met[name].update(p for p in table.players if p != name)
    return met


def next_round(
    settings: Settings, entries: Sequence[EntryRow], rounds: Sequence[RoundRow]
) -> NextRound | Finished | None:
    """What comes after ``rounds``: the next round to seat, the end of the tournament (with
    its winner), or ``None`` while the last round still has a table playing."""
    rounds = sorted(rounds, key=lambda r: r.number)
    last = rounds[-1] if rounds else None
    if last is not None and not last.finished:
        return None
    if last is not None and last.kind == FINAL:
        placings = last.tables[0].placings or ()
        return Finished(placings[0] if placings else None)
    number = last.number + 1 if last else 1
    active = [e.player for e in sorted(entries, key=lambda e: e.seed) if not e.dropped]
    if settings.format == ELIMINATION:
        had_bye = {name for r in rounds for name in r.byes}
        return _next_elimination(settings, entries, last, number, active, had_bye)
    return _next_swiss(settings, entries, rounds, number, active)


def _next_elimination(
    settings: Settings,
    entries: Sequence[EntryRow],
    last: RoundRow | None,
    number: int,
    active: list[str],
    had_bye: set[str],
) -> NextRound | Finished:
    if last is None:
        field_ = active
    else:
        going_on = set(last.byes)
        for table in last.tables:
            going_on.update(pairing.advancing(table.placings or (), settings.advance))
        going_on.update(e.player for e in entries if e.joined == number)  # late entries
        field_ = [p for p in active if p in going_on]
    if len(field_) < pairing.MIN_TABLE:
        return Finished(field_[0] if field_ else None)
    if len(field_) <= settings.table_size:
        return NextRound(number, FINAL, [list(field_)], [])
    table_sizes = pairing.sizes(len(field_), settings.table_size)
    # A bye is only ever needed at tables of two (a knockout). It goes to the best seed who
    # has not had one: nobody has two. When everyone left has had one, nobody sits out and
    # the last table seats three instead.
    byes: list[str] = []
    if sum(table_sizes) < len(field_):
        fresh = [p for p in field_ if p not in had_bye]
        if fresh:
            byes = fresh[:1]
        else:
            table_sizes[-1] += 1
            if len(table_sizes) == 1:  # the three left meet at the final
                return NextRound(number, FINAL, [list(field_)], [])
    seated = [p for p in field_ if p not in byes]
    return NextRound(number, ELIMINATION, pairing.snake(seated, table_sizes), byes)


def _next_swiss(
    settings: Settings,
    entries: Sequence[EntryRow],
    rounds: list[RoundRow],
    number: int,
    active: list[str],
) -> NextRound | Finished:
    table = [row.player for row in standings(settings, entries, rounds)]
    standing = [p for p in table if p in set(active)]
    played = sum(1 for r in rounds if r.kind == SWISS)
    if len(standing) < pairing.MIN_TABLE:
        return Finished(standing[0] if standing else (table[0] if table else None))
    if played < settings.rounds:
        table_sizes = pairing.sizes(len(standing), settings.table_size)
        byes = []
        if sum(table_sizes) < len(standing):
            had = {name for r in rounds for name in r.byes}
            byes = [pairing.bye(standing, had)]
        seated = [p for p in standing if p not in byes]
        return NextRound(number, SWISS, pairing.swiss(seated, table_sizes, _met(rounds)), byes)
    if settings.final_table:
        return NextRound(number, FINAL, [standing[: settings.table_size]], [])
    return Finished(standing[0])
