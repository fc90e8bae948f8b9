"""What ``manage.py verify_events`` checks of tournaments (``games.registry.verify_checks``),
once every game's log has verified: that the bracket says what the games and the rulings say.

- A table decided by its game records the placings its game gives (the game's, with the seats
  ruled absent last, as ``services._record`` records them), and is over.
- A table decided by a ruling records the placings of the newest ruling that decided it, of
  the kind it names (an award, time called, the absent seats' end), which the tournament's
  rulings keep; and a table over was decided by one or the other.
- A finished tournament's winner is the one its recorded tables give (``rounds.next_round``), and
  a tournament still running or taking entries has none.
- Each tournament's rulings are numbered from 1 with none missing, each is what was signed when
  it was made, and each carries the server's signature (``rulings.chain_problems``).

The games and the rulings are signed, so a table's result, a ruling or a winner edited in the
database alone is found, named by tournament, round and table (or ruling).
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import groupby
from operator import attrgetter
from typing import Any

from django.db.models import Q

from games.chain import server_public_keys
from games.registry import Verified
from rules import GameState
from tournaments.brackets import rounds, rulings
from tournaments.brackets.models import Ruling, Table, Tournament
from tournaments.brackets.services import absent_last, plain_rows

# The rulings that decide a table (their players are the placings decided), by what the table
# says decided it.
DECIDING = {
    Table.DecidedBy.AWARD: (
        Ruling.Kind.FORFEIT,
        Ruling.Kind.DISQUALIFICATION,
        Ruling.Kind.NO_SHOW,
    ),
    Table.DecidedBy.TIME: (Ruling.Kind.TIME,),
    Table.DecidedBy.ABSENT: (Ruling.Kind.NO_SHOW,),
    Table.DecidedBy.CARDS: (Ruling.Kind.CARDS,),
}


def bracket_results(state_of: Callable[[Any], GameState | None]) -> Verified:
    """``games.registry.verify_checks``: every decided table's placings and every tournament's
    winner, compared with the games and the rulings they came from."""
    problems: list[str] = []
    wrong: set[int] = set()  # tournaments with a table found wrong: their winner is not asked
    decisions = _decisions()
    tables = (
        Table.objects.filter(
            ~Q(decided_by=Table.DecidedBy.NOTHING) | Q(status=Table.Status.FINISHED)
        )
        .select_related("round__tournament")
        .order_by("round__tournament_id", "round__number", "number")
    )
    count = 0
    # Lists, not server-side cursors: each row asks the database more (the game's state).
    for table in list(tables):
        count += 1
        tournament = table.round.tournament
        where = (
            f"tournament {tournament.pk} ({tournament.name}) round {table.round.number} "
            f"table {table.number}"
        )
        if table.decided_by == Table.DecidedBy.NOTHING:
            problem = f"is over ({_names(table.placings)}), but nothing decided it"
        elif table.decided_by == Table.DecidedBy.GAME:
            problem = _game_problem(table, state_of(table.game_id))
        else:
            problem = _ruling_problem(
                table, decisions.get((tournament.pk, table.round.number, table.number))
            )
        if problem is not None:
            problems.append(f"{where}: {problem}")
            wrong.add(tournament.pk)
    signed = 0
    keys = server_public_keys()
    for tournament_id, chain in groupby(
        list(Ruling.objects.select_related("tournament").order_by("tournament_id", "sequence")),
        key=attrgetter("tournament_id"),
    ):
        chain = list(chain)
        signed += len(chain)
        tournament = chain[0].tournament
        for problem in rulings.chain_problems(chain, keys):
            problems.append(f"tournament {tournament_id} ({tournament.name}): {problem}")
            wrong.add(tournament_id)
    finished = 0
    for tournament in list(Tournament.objects.order_by("pk")):
        finished += tournament.status == Tournament.Status.FINISHED
        if tournament.pk not in wrong and (problem := _winner_problem(tournament)) is not None:
            problems.append(f"tournament {tournament.pk} ({tournament.name}): {problem}")
    return Verified(
        checked=(
            f"{count} decided tournament table{'s' * (count != 1)} (with "
            f"{signed} signed ruling{'s' * (signed != 1)})",
            f"the winner{'s' * (finished != 1)} of {finished} finished "
            f"tournament{'s' * (finished != 1)}",
        ),
        problems=tuple(problems),
    )


def _decisions() -> dict[tuple[int, int, int], tuple[str, Any]]:
    """The newest deciding ruling of each table, (tournament, round, table): its kind and the
    placings it decided."""
    kinds = {kind for decided in DECIDING.values() for kind in decided}
    newest: dict[tuple[int, int, int], tuple[str, Any]] = {}
    rows = (
        Ruling.objects.filter(kind__in=kinds, table_number__isnull=False)
        .order_by("tournament_id", "sequence")
        .values_list("tournament_id", "round_number", "table_number", "kind", "players")
    )
    for tournament_id, round_number, table_number, kind, players in rows.iterator(chunk_size=2000):
        newest[tournament_id, round_number, table_number] = (kind, players)
    return newest


def _names(value: Any) -> str:
    """A recorded list of players, in words (whatever the database holds)."""
    if isinstance(value, list) and all(isinstance(name, str) for name in value):
        return ", ".join(value) if value else "none"
    return repr(value)


def _game_problem(table: Table, state: GameState | None) -> str | None:
    game = f"its game {table.game_id}"
    if state is None or not state.finished:
        return f"recorded as decided by {game}, which is not over"
    players, absent = table.players, table.absent
    if not isinstance(players, list) or len(players) != state.players:
        return f"seats {_names(players)}, but {game} has {state.players} seats"
    if not isinstance(absent, list):
        return f"records {_names(absent)} as ruled absent, which is no list of its players"
    placed = absent_last([players[seat] for seat in state.placings], absent)
    if table.status != Table.Status.FINISHED or table.placings != placed:
        return (
            f"records the placings {_names(table.placings)} ({table.status}), but {game} "
            f"placed {_names(placed)}"
        )
    return None


def _ruling_problem(table: Table, decided: tuple[str, Any] | None) -> str | None:
    by = table.get_decided_by_display()
    if decided is None or decided[0] not in DECIDING.get(table.decided_by, ()):
        return f"recorded as decided by {by}, but no ruling of the tournament decided it so"
    if table.status != Table.Status.FINISHED or table.placings != decided[1]:
        return (
            f"records the placings {_names(table.placings)} ({table.status}, decided by {by}), "
            f"but the ruling that decided it placed {_names(decided[1])}"
        )
    return None


def _winner_problem(tournament: Tournament) -> str | None:
    if tournament.status != Tournament.Status.FINISHED:
        if tournament.winner:
            return f"records {tournament.winner} as its winner while it is {tournament.status}"
        return None
    try:
        outcome = rounds.next_round(*plain_rows(tournament))
    except Exception as exc:  # whatever the database holds, the check reports it
        return f"its recorded rounds cannot be read ({type(exc).__name__}: {exc})"
    if not isinstance(outcome, rounds.Finished):
        return "recorded as finished, but its tables do not finish it"
    if (outcome.winner or "") != tournament.winner:
        return (
            f"records {tournament.winner or 'nobody'} as its winner, but its tables give "
            f"{outcome.winner or 'nobody'}"
        )
    return None
