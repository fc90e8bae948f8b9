"""The director's tools: results a director controls, each recorded with its reason in the
tournament's audit log (``Ruling``). Advancing and re-pairing a round, reopening a table (which
resets the rounds seated from its result), awarding a result, calling time, checking players
in; and the two hooks that keep the bracket agreeing with the game logs when a table's game is
undone (docs/TOURNAMENTS.md, "The director's tools").

Every verb takes the tournament's row lock, as seating does, so a ruling and an advancing task
take turns.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from django.db import transaction

from games import seating
from games import services as game_services
from games.errors import NotFound
from games.models import Game
from rules import IllegalCommand, InvalidCommand
from tournaments.brackets import rounds, rulings, services
from tournaments.brackets.models import Entry, Round, Ruling, Table, Tournament

log = logging.getLogger(__name__)

AWARD_KINDS = (Ruling.Kind.FORFEIT, Ruling.Kind.DISQUALIFICATION, Ruling.Kind.NO_SHOW)
# What a table decided by a ruling of a kind says decided it (an award, for the others).
_DECIDED_BY = {Ruling.Kind.TIME: Table.DecidedBy.TIME, Ruling.Kind.CARDS: Table.DecidedBy.CARDS}
REASON_LENGTH = 300


def _reason(value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise InvalidCommand("say why (the reason is shown on the tournament page)", field="reason")
    if len(value.strip()) > REASON_LENGTH:
        raise InvalidCommand(f"a reason has at most {REASON_LENGTH} characters", field="reason")
    return value.strip()


def require_director(*, tournament_id: int, by: Any) -> None:
    """``Forbidden`` unless ``by`` organises the tournament (``NotFound`` without one): asked
    before a director's request is parsed, so a stranger learns nothing from a 400."""
    services._require_organiser(by, services.get_tournament(tournament_id))


def is_director(user: Any, tournament_id: int) -> bool:
    """Whether ``user`` may use the director's tools of the tournament (its organiser)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    return Tournament.objects.filter(pk=tournament_id, organiser_id=user.pk).exists()


def _directed(tournament_id: int, by: Any) -> Tournament:
    tournament = services._locked(tournament_id)
    services._require_organiser(by, tournament)
    return tournament


def _table(tournament: Tournament, round_number: int, table_number: int) -> Table:
    table = (
        Table.objects.select_related("round")
        .filter(round__tournament=tournament, round__number=round_number, number=table_number)
        .first()
    )
    if table is None:
        raise NotFound(f"no table {table_number} in round {round_number}")
    return table


def _user(by: Any) -> Any:
    return by if getattr(by, "pk", None) is not None else None


# Advancing and re-pairing ----------------------------------------------------------------------


def advance_round(*, tournament_id: int, by: Any = None) -> Round | None:
    """The director's nudge: record every table whose game is over and seat the next round
    (or end the tournament) when no table still plays. Refused while one does."""
    with transaction.atomic():
        tournament = _directed(tournament_id, by)
        if tournament.status != Tournament.Status.RUNNING:
            raise IllegalCommand("the tournament is not running")
        rnd = services.seat_next_round(tournament_id=tournament_id, held_too=True)
        tournament.refresh_from_db()
        last = tournament.round_set.order_by("-number").first()
        if rnd is None and tournament.status == Tournament.Status.RUNNING and last is not None:
            if last.tables.filter(status=Table.Status.PLAYING).exists():
                raise IllegalCommand(f"a table of round {last.number} is still playing")
        return rnd


def _untouched(table: Table) -> bool:
    """Whether no seat has acted at the table yet (its game is as dealt)."""
    first_batch_end = game_services._first_hand_start(table.game_id)
    return Game.objects.filter(pk=table.game_id, version=first_batch_end).exists()


def repair_round(*, tournament_id: int, reason: str, by: Any = None) -> Round | None:
    """Seat the last round again (after a drop or a late check-in), before anyone has played at
    it: its tables are taken down (their games, as dealt, are left unplayed) and the round is
    seated from the entries as they are now."""
    why = _reason(reason)
    with transaction.atomic():
        tournament = _directed(tournament_id, by)
        if tournament.status != Tournament.Status.RUNNING:
            raise IllegalCommand("the tournament is not running")
        last = tournament.round_set.order_by("-number").first()
        if last is None:
            raise IllegalCommand("no round is seated")
        tables = list(last.tables.all())
        if any(t.status != Table.Status.PLAYING or not _untouched(t) for t in tables):
            raise IllegalCommand(
                f"play has begun in round {last.number}: reopen its tables instead"
            )
        if _seated_alike(tournament, last, tables):
            # Seating it again would change only the cards dealt: a director could re-deal
            # until the cards suited someone.
            raise IllegalCommand(
                f"nobody has dropped out or come in since round {last.number} was seated: "
                "seating it again would change nothing but the cards dealt"
            )
        rulings.record(
            tournament,
            round_number=last.number,
            kind=Ruling.Kind.REPAIRED,
            reason=why,
            by=_user(by),
        )
        # Their games are no longer the tournament's tables: who sat there is signed so.
        with seating.resealing(*(t.game_id for t in tables)):
            last.delete()
        return services.seat_next_round(tournament_id=tournament_id)


def _seated_alike(tournament: Tournament, last: Round, tables: list[Table]) -> bool:
    """Whether the entries as they are now would seat ``last`` at the same tables (each the
    same players) with the same byes."""
    setup, entries, played = services.plain_rows(tournament)
    again = rounds.next_round(setup, entries, [r for r in played if r.number != last.number])
    if not isinstance(again, rounds.NextRound):
        return False

    def groups(seated: Sequence[Sequence[str]]) -> list[frozenset[str]]:
        return sorted((frozenset(players) for players in seated), key=sorted)

    return groups(again.tables) == groups([t.players for t in tables]) and sorted(
        again.byes
    ) == sorted(last.byes)


# Reopening ---------------------------------------------------------------------------------------


def reopen_table(
    *, tournament_id: int, round_number: int, table_number: int, reason: str, by: Any = None
) -> Table:
    """Reopen a decided table (as Challonge's "reopen match"): its result is withdrawn and every
    round seated after it is reset. Its game may then be undone (the undo is no longer
    refused), a result awarded, or time called; a game still over is recorded again by the
    director's advance (the sweeps leave it until the game moves on)."""
    why = _reason(reason)
    with transaction.atomic():
        tournament = _directed(tournament_id, by)
        table = _table(tournament, round_number, table_number)
        if table.status != Table.Status.FINISHED:
            raise IllegalCommand("the table is still playing: there is no result to reopen")
        reset = services.withdraw_result(table)
        rulings.record(
            tournament,
            round_number=round_number,
            table_number=table_number,
            kind=Ruling.Kind.REOPENED,
            reason=why + (f" (rounds reset: {', '.join(map(str, reset))})" if reset else ""),
            by=_user(by),
        )
        table.refresh_from_db()
        return table


# Awarding and calling time ---------------------------------------------------------------------


GAME_OVER = (
    "the table's game is over and its result is being recorded from it: to award another "
    "result or call time, reopen the table once its result shows"
)


def _decide(
    tournament: Tournament, table: Table, placings: list[str], kind: str, why: str, by: Any
) -> Table:
    if table.status != Table.Status.PLAYING:
        raise IllegalCommand("the table already has a result: reopen it first")
    # A game over whose result is not recorded yet (its task has not run: a worker down, or
    # a moment behind) has a result all the same, the game's: a ruling over it is refused as
    # over a recorded one, whether or not the worker was quick, and is made by reopening the
    # table once the result shows (a reopen of a game still over is ``held``: decided here).
    # The game's row stays locked until the ruling commits, so no last card ends the game
    # between this look and the ruling.
    game = (
        Game.objects.select_for_update()
        .filter(pk=table.game_id)
        .values_list("status", "version")
        .first()
    )
    if game is not None and game[0] == Game.Status.FINISHED and game[1] != table.held:
        raise IllegalCommand(GAME_OVER)
    decided_by = _DECIDED_BY.get(kind, Table.DecidedBy.AWARD)
    services.decide_table(table, placings, decided_by, kind)
    rulings.record(
        tournament,
        round_number=table.round.number,
        table_number=table.number,
        kind=kind,
        reason=why,
        players=placings,
        by=_user(by),
    )
    services.seat_next_round(tournament_id=tournament.pk)
    table.refresh_from_db()
    return table


def award_result(
    *,
    tournament_id: int,
    round_number: int,
    table_number: int,
    kind: str,
    placings: Sequence[str],
    reason: str,
    by: Any = None,
) -> Table:
    """Decide a playing table by the director (a forfeit, a disqualification, a no-show):
    ``placings`` is every player of the table, best first. The table's game is left where it
    stands; the ruling is the result."""
    if kind not in AWARD_KINDS:
        raise InvalidCommand(
            f"kind must be one of {', '.join(AWARD_KINDS)}, not {kind!r}", field="kind"
        )
    return _placed(tournament_id, round_number, table_number, kind, placings, reason, by)


def enter_result(
    *,
    tournament_id: int,
    round_number: int,
    table_number: int,
    placings: Sequence[str],
    reason: str,
    by: Any = None,
) -> Table:
    """Record the result of a table played with cards, as its players report it: ``placings``
    is every player of the table, best first. Its game on the site is left where it stands;
    the ruling is the result, against nobody."""
    kind = Ruling.Kind.CARDS
    return _placed(tournament_id, round_number, table_number, kind, placings, reason, by)


def _placed(
    tournament_id: int,
    round_number: int,
    table_number: int,
    kind: str,
    placings: Sequence[str],
    reason: str,
    by: Any,
) -> Table:
    """Decide a playing table by a ruling of ``kind`` that places ``placings``, every player of
    the table once, best first."""
    why = _reason(reason)
    if isinstance(placings, str) or not isinstance(placings, Sequence):
        raise InvalidCommand("placings must be a list of the table's players", field="placings")
    with transaction.atomic():
        tournament = _directed(tournament_id, by)
        table = _table(tournament, round_number, table_number)
        if sorted(placings) != sorted(table.players):
            raise InvalidCommand(
                f"placings must list every player of the table once: {', '.join(table.players)}",
                field="placings",
            )
        return _decide(tournament, table, list(placings), kind, why, by)


def award_against(
    *,
    tournament_id: int,
    round_number: int,
    table_number: int,
    kind: str,
    player: str,
    reason: str,
    by: Any = None,
) -> Table:
    """``award_result`` with ``player`` placed last (the one who forfeits, is disqualified or
    did not show) and the others ranked as the game stands (``services.ranked_now``)."""
    table = (
        Table.objects.filter(
            round__tournament_id=tournament_id, round__number=round_number, number=table_number
        )
        .select_related("round")
        .first()
    )
    if table is None:
        raise NotFound(f"no table {table_number} in round {round_number}")
    if player not in table.players:
        raise InvalidCommand(f"{player} does not play at this table", field="player")
    others = [p for p in services.ranked_now(table) if p != player]
    return award_result(
        tournament_id=tournament_id,
        round_number=round_number,
        table_number=table_number,
        kind=kind,
        placings=[*others, player],
        reason=reason,
        by=by,
    )


def call_time(
    *, tournament_id: int, round_number: int, table_number: int, reason: str, by: Any = None
) -> Table:
    """The round's time is up at a playing table: decide it as the game stands
    (``services.ranked_now``: the game's total so far, then fewest points in hand)."""
    why = _reason(reason)
    with transaction.atomic():
        tournament = _directed(tournament_id, by)
        table = _table(tournament, round_number, table_number)
        if table.status != Table.Status.PLAYING:
            raise IllegalCommand("the table already has a result")
        return _decide(tournament, table, services.ranked_now(table), Ruling.Kind.TIME, why, by)


# Check-in --------------------------------------------------------------------------------------


def check_in(*, tournament_id: int, player: str, by: Any = None) -> None:
    """Check ``player`` in before the start. Once anyone is checked in, starting drops the
    players who are not."""
    with transaction.atomic():
        entry = _entry_before_the_start(tournament_id, player, by)
        entry.checked_in = True
        entry.dropped = False
        entry.save(update_fields=["checked_in", "dropped"])


def check_out(*, tournament_id: int, player: str, by: Any = None) -> None:
    """Take back ``player``'s check-in before the start (a player checked in by mistake)."""
    with transaction.atomic():
        entry = _entry_before_the_start(tournament_id, player, by)
        if not entry.checked_in:
            raise IllegalCommand(f"{player} is not checked in")
        entry.checked_in = False
        entry.save(update_fields=["checked_in"])


def take_back_drop(*, tournament_id: int, player: str, by: Any = None) -> None:
    """Enter ``player`` again before the start after a drop made by mistake (not checked in:
    that is a check-in of its own)."""
    with transaction.atomic():
        entry = _entry_before_the_start(tournament_id, player, by)
        if not entry.dropped:
            raise IllegalCommand(f"{player} is not dropped")
        entry.dropped = False
        entry.save(update_fields=["dropped"])


def _entry_before_the_start(tournament_id: int, player: str, by: Any) -> Entry:
    """``player``'s entry, for its director, while check-in is open (in a transaction)."""
    tournament = _directed(tournament_id, by)
    if tournament.status != Tournament.Status.DRAFT:
        raise IllegalCommand("check-in closed when the tournament started")
    return services.entry_named(tournament, player)


# Undo of a table's game (games.registry hooks) --------------------------------------------------


def undo_refusal(game: Game) -> str | None:
    """``games.registry.undo_checks``: why an undo of ``game`` would make the bracket disagree
    with its log, or None. Refused once a later round was seated from the table's result: the
    director reopens the table first (which resets those rounds)."""
    table = Table.objects.select_related("round").filter(game_id=game.pk).first()
    if table is None or table.status != Table.Status.FINISHED:
        return None
    if services.later_rounds(table).exists():
        return (
            f"round {table.round.number + 1} was seated from this table's result: the "
            "tournament's director reopens the table first"
        )
    return None


def result_withdrawn(*, game_id: Any) -> Table | None:
    """A table's game was rewound and plays again: withdraw the result it gave (the round
    waits for it again). A result decided by a ruling stands (the game did not decide it)."""
    tournament_id = (
        Table.objects.filter(game_id=game_id).values_list("round__tournament_id", flat=True).first()
    )
    if tournament_id is None:
        return None
    with transaction.atomic():
        tournament = services._locked(tournament_id)
        table = Table.objects.select_related("round").get(game_id=game_id)
        services.withdraw_undone(tournament, table)
        table.refresh_from_db()
        return table
