"""The tournament services: creating a tournament, entries and drop-outs, starting it, seating
each round as the last one finishes, recording table results and turn timers. The API, the
pages and the Celery tasks (``tasks``) call only these; pairing and standings are the pure
functions of ``pairing`` and ``rounds`` (all in ``tournaments.brackets``).

Seating is idempotent and all-or-nothing: ``seat_next_round`` runs in one transaction holding
the tournament's row lock, so two tasks for the last two tables of a round take turns and the
second finds the round already seated; a round is unique per number (a second line of
defence); and every table of a round, games included, is created in that one transaction, so a
worker that dies in the middle leaves nothing behind and the retry seats the round whole.
"""

from __future__ import annotations

import logging
import random
import secrets
from collections.abc import Sequence
from enum import StrEnum
from typing import Any
from uuid import UUID

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import F

from games import seating
from games import services as game_services
from games.errors import Forbidden, NotFound, Stale
from games.models import Game
from games.names import clean_name, name_key
from rules import Command, GameState, IllegalCommand, InvalidCommand, legal_commands
from rules.engine import SCORINGS
from rules.variants import get_variant, variant_names
from tournaments.brackets import pairing, rounds, rulings
from tournaments.brackets.models import Entry, Round, Ruling, Table, Tournament
from tournaments.leagues.models import StandingRow
from tournaments.templatetags.league_pages import ordinal, ruling_words

log = logging.getLogger(__name__)

# What a turn timer does for a seat that let its time run out: the first of these kinds among
# the seat's legal commands, the first of that kind as listed, or the one ``_DECLINED`` names:
# draw on a turn (then pass, if the drawn card could be played); accept a Wild Draw 4; the
# first colour on a wild turned up; deal the next hand. The editions' choices: UNO Power Grab's
# tower left unused (take the card) and the first card kept at an Instant UNO, UNO not called;
# UNO Spin's wheel spun, an UNO Spin claimed for the spinner when nobody else claimed it in
# the time, the first cards kept or discarded as the wheel asks (one card where it may be
# more); UNO VETO's house rules answered with the first colour or card, nobody laughing at
# the joke and no rooster call. Never an out-of-turn command (a catch, a VETO slap).
TIMEOUT_PREFERENCE = (
    *("draw", "pass", "accept", "choose_colour", "deal"),
    *("take", "keep"),
    *("spin", "claim_uno_spin", "wheel_keep", "wheel_discard"),
    *("name_colour", "discard", "keep_card", "report_joke", "report_rooster"),
)
_DECLINED = {"report_joke": ("laughed", False), "report_rooster": ("performed", False)}
# The moments a seat's turn goes on after a timer's command (a card drawn that could be played,
# the wheel's choices): the same timer answers them too, up to this many. A new turn (or a new
# hand) is a moment of its own, with its own timer.
_FOLLOW_UPS = 8
_NEW_MOMENTS = ("turn", "deal")

# A seat whose turn times out this many times in a row (without acting itself in between) is
# ruled absent: it places last at its table. A table with at most one player present ends.
ABSENT_AFTER = 3


# Who may do what -------------------------------------------------------------------------------


def is_tournament_referee(user: Any, game: Game) -> bool:
    """``games.registry.referee_checks``: a tournament's organiser referees its tables."""
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    return Table.objects.filter(game_id=game.pk, round__tournament__organiser_id=user.pk).exists()


def is_tournament_table(game: Game) -> bool:
    """``games.registry.counts_checks``: a tournament's table counts for its tournament."""
    return Table.objects.filter(game_id=game.pk).exists()


# What a director's ruling did to a table, in the players' words.
_DECIDED = {
    Table.DecidedBy.AWARD: "awarded this table's result",
    Table.DecidedBy.TIME: "called time on this table",
    Table.DecidedBy.ABSENT: "decided this table: players were absent",
    Table.DecidedBy.CARDS: "entered this table's result: it was played with cards",
}


def closing_words(
    decided_by: str, placings: Sequence[str], kind: str = "", against: Sequence[str] = ()
) -> str:
    """Why a table a director decided by a ruling takes no more moves (``Game.closed``), so
    that its game cannot come to another result than the bracket's. With the ruling's
    ``kind`` and whom it is ``against``, it says who, as the tournament page does: "(Vic
    forfeited; placed 1st Tia, 2nd Vic)"; else only the placings."""
    if kind and against:
        what = ruling_words({"kind": kind, "players": list(placings), "against": list(against)})
        decided = "decided this table" if decided_by == Table.DecidedBy.ABSENT else None
    else:
        what = ", ".join(f"{ordinal(i)} {name}" for i, name in enumerate(placings, start=1))
        decided = None
    return (
        f"The tournament's director {decided or _DECIDED[decided_by]} ({what}): the game "
        "takes no more moves unless the director reopens the table."
    )


def round_revealed(game: Game) -> bool:
    """``games.registry.reveal_checks``: a table dealt the same cards as the other tables of
    its round (duplicate deals) stays hidden until every one of them has finished; its seats
    would otherwise read the hands still being played at the others."""
    round_games = Game.objects.filter(
        tournament_table__round__tables__game_id=game.pk,
        tournament_table__round__tournament__duplicate_deals=True,
    ).values_list("status", "tournament_table__status")
    # No rows: not a duplicate-deal table, nothing to hold back. A table decided by a ruling
    # (its game left unfinished) is over too.
    return all(
        status == Game.Status.FINISHED or table == Table.Status.FINISHED
        for status, table in round_games
    )


def _require_organiser(by: Any, tournament: Tournament) -> None:
    if by is not None and getattr(by, "pk", None) != tournament.organiser_id:
        raise Forbidden("only the tournament's organiser may do that")


def get_tournament(tournament_id: int) -> Tournament:
    try:
        return Tournament.objects.get(pk=tournament_id)
    except (Tournament.DoesNotExist, ValueError, TypeError):
        raise NotFound(f"no tournament {tournament_id}") from None


# Creating and entering -------------------------------------------------------------------------


def _whole(value: Any, field: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise InvalidCommand(f"{field} must be a whole number from {low} to {high}", field=field)
    return value


def _player_name(value: Any, field: str) -> str:
    name = clean_name(value) if isinstance(value, str) else ""
    if not name:
        raise InvalidCommand("a player needs a name", field=field)
    if len(name) > 100:
        raise InvalidCommand("a name has at most 100 characters", field=field)
    return name


def rating_order(players: Sequence[str]) -> list[str]:
    """``players`` best-rated first: each name's rating is its newest season rating in any
    league (openskill's ordinal, mu - 3 sigma); unrated players follow in the order given."""
    known: dict[str, float] = {}
    rows = (
        StandingRow.objects.filter(player__name__in=list(players), rating__isnull=False)
        .order_by("season__created_at", "season_id")
        .values_list("player__name", "rating", "rating_sigma")
    )
    for name, mu, sigma in rows:
        known[name] = mu - 3 * (sigma or 0)
    position = {name: i for i, name in enumerate(players)}
    return sorted(players, key=lambda n: (n not in known, -known.get(n, 0), position[n]))


def create_tournament(
    *,
    name: str,
    organiser: Any,
    format: str,
    table_size: int,
    players: Sequence[str] = (),
    variant: str = "classic",
    scoring: str = "standard",
    target: int = 500,
    advance: int = 1,
    rounds: int = 1,
    final_table: bool = False,
    duplicate_deals: bool = False,
    seeding: str = "manual",
    turn_seconds: int | None = None,
    options: dict[str, Any] | None = None,
) -> Tournament:
    """A tournament taking entries, with ``players`` seeded in the order given (``manual``)
    or by rating (``rating``). Start it with ``start_tournament``."""
    if not isinstance(name, str) or not name.strip():
        raise InvalidCommand("a tournament needs a name", field="name")
    if variant not in variant_names():
        raise InvalidCommand(
            f"unknown variant {variant!r}: expected one of {', '.join(variant_names())}",
            field="variant",
        )
    if scoring not in SCORINGS:
        raise InvalidCommand(
            f"unknown scoring {scoring!r}: expected one of {', '.join(SCORINGS)}", field="scoring"
        )
    _whole(target, "target", 1, 100_000)
    options = game_services.edition_options(variant, options)
    if format not in Tournament.Format.values:
        raise InvalidCommand("format must be 'elimination' or 'swiss'", field="format")
    _whole(table_size, "table_size", pairing.MIN_TABLE, pairing.MAX_TABLE)
    _whole(advance, "advance", 1, max(1, table_size - 1))
    _whole(rounds, "rounds", 1, 50)
    if seeding not in Tournament.Seeding.values:
        raise InvalidCommand("seeding must be 'rating' or 'manual'", field="seeding")
    if turn_seconds is not None:
        _whole(turn_seconds, "turn_seconds", 5, 3600)
    if isinstance(players, str) or not isinstance(players, Sequence):
        raise InvalidCommand("players must be a list of names", field="players")
    names = [_player_name(p, f"players[{i}]") for i, p in enumerate(players)]
    keys = [name_key(n) for n in names]
    if len(set(keys)) != len(keys):
        twice = next(n for n, k in zip(names, keys, strict=True) if keys.count(k) > 1)
        raise InvalidCommand(f"a player is entered twice: {twice}", field="players")
    if seeding == Tournament.Seeding.RATING:
        names = rating_order(names)
    name = name.strip()[:100]
    with transaction.atomic():
        if organiser is not None:
            # One tournament created at a time by each organiser (their row is locked): a
            # form sent twice, or a request sent again after its answer was lost, finds the
            # first still taking entries or playing, and makes no second one.
            get_user_model().objects.select_for_update().filter(pk=organiser.pk).exists()
            running = Tournament.objects.filter(organiser=organiser, name__iexact=name).exclude(
                status=Tournament.Status.FINISHED
            )
            if running.exists():
                raise InvalidCommand(
                    f"you already run a tournament called “{name}” that is not over: find it "
                    "on the tournaments page, or give this one another name",
                    field="name",
                )
        tournament = Tournament.objects.create(
            name=name,
            organiser=organiser,
            variant=variant,
            scoring=scoring,
            target=target,
            options=options,
            format=format,
            table_size=table_size,
            advance=advance,
            rounds=rounds,
            final_table=bool(final_table),
            duplicate_deals=bool(duplicate_deals),
            seeding=seeding,
            turn_seconds=turn_seconds,
        )
        entered = Entry.objects.bulk_create(
            Entry(tournament=tournament, player=n, seed=i) for i, n in enumerate(names, start=1)
        )
        Entry.sign_rows(entry.pk for entry in entered)
    return tournament


def add_entry(*, tournament_id: int, player: str, by: Any = None) -> Entry:
    """Enter ``player``: before the start, or late, between rounds (the entry is seated from
    the next round on, last in seed)."""
    name = _player_name(player, "player")
    with transaction.atomic():
        tournament = _locked(tournament_id)
        _require_organiser(by, tournament)
        if tournament.status == Tournament.Status.FINISHED:
            raise IllegalCommand("the tournament is over")
        if (
            tournament.format == Tournament.Format.ELIMINATION
            and tournament.status != Tournament.Status.DRAFT
        ):
            # A late entry would join the players who went on without having played a table.
            raise IllegalCommand("the entry list of an elimination closed when it started")
        key = name_key(name)
        entered = next(
            (p for p in tournament.entries.values_list("player", flat=True) if name_key(p) == key),
            None,
        )
        if entered is not None:
            raise IllegalCommand(f"{entered} is already entered")
        swiss = tournament.round_set.filter(kind=Round.Kind.SWISS).count()
        if tournament.status != Tournament.Status.DRAFT and swiss >= tournament.rounds:
            # Seated from the next round on: after the last Swiss round there is none to play,
            # and a final table would seat them without a table played.
            raise IllegalCommand(
                f"the last of the {tournament.rounds} Swiss round"
                f"{'s' if tournament.rounds > 1 else ''} is seated: no round is left to seat a "
                "late entry in"
            )
        last = tournament.round_set.order_by("-number").first()
        seed = tournament.entries.order_by("-seed").values_list("seed", flat=True).first() or 0
        return Entry.objects.create(
            tournament=tournament,
            player=name,
            seed=seed + 1,
            joined=last.number + 1 if last else 1,
        )


def entry_named(tournament: Tournament, player: Any) -> Entry:
    """``tournament``'s entry of ``player``, the name compared as entries are (without
    capitals or wide letters: ``games.names.name_key``); a 400 naming ``player`` otherwise."""
    if isinstance(player, str):
        key = name_key(player)
        for entry in tournament.entries.all():
            if name_key(entry.player) == key:
                return entry
    raise InvalidCommand(f"{player} is not entered", field="player")


def drop_entry(*, tournament_id: int, player: str, by: Any = None) -> Entry:
    """Drop ``player`` out: seated no more from the next round on (a table they are playing
    at goes on and its result counts)."""
    with transaction.atomic():
        tournament = _locked(tournament_id)
        _require_organiser(by, tournament)
        entry = entry_named(tournament, player)
        if tournament.status == Tournament.Status.FINISHED:
            raise IllegalCommand("the tournament is over")
        entry.dropped = True
        # Before the start a drop also takes back a check-in: taken back in its turn, the drop
        # leaves the player entered, to check in again (``directing.take_back_drop``).
        entry.checked_in = entry.checked_in and tournament.status != Tournament.Status.DRAFT
        entry.save(update_fields=["dropped", "checked_in"])
        return entry


def start_tournament(*, tournament_id: int, by: Any = None) -> Tournament:
    """Close the entries list and seat round 1. Once anyone has checked in, the players who
    have not are dropped (a no-show before the start takes nobody's seat)."""
    with transaction.atomic():
        tournament = _locked(tournament_id)
        _require_organiser(by, tournament)
        if tournament.status != Tournament.Status.DRAFT:
            raise IllegalCommand("the tournament has already started")
        checked = tournament.entries.filter(checked_in=True, dropped=False).count()
        if checked:
            Entry.update_signed(tournament.entries.filter(checked_in=False), dropped=True)
        if tournament.entries.filter(dropped=False).count() < pairing.MIN_TABLE:
            if checked:
                raise IllegalCommand(
                    f"a tournament needs at least two players, and only {checked} is checked "
                    "in: check the others in as they arrive, or take that check-in back to "
                    "start with everyone entered"
                )
            raise IllegalCommand("a tournament needs at least two players")
        tournament.status = Tournament.Status.RUNNING
        tournament.save(update_fields=["status"])
        seat_next_round(tournament_id=tournament.pk)
    tournament.refresh_from_db()
    return tournament


# Seating -----------------------------------------------------------------------------------


def _locked(tournament_id: int) -> Tournament:
    tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if tournament is None:
        raise NotFound(f"no tournament {tournament_id}")
    return tournament


def plain_rows(
    tournament: Tournament,
) -> tuple[rounds.Settings, list[rounds.EntryRow], list[rounds.RoundRow]]:
    """The tournament as the pure functions see it."""
    setup = rounds.Settings(
        format=tournament.format,
        table_size=tournament.table_size,
        advance=tournament.advance,
        rounds=tournament.rounds,
        final_table=tournament.final_table,
    )
    entries = [
        rounds.EntryRow(e.player, e.seed, e.dropped, e.joined)
        for e in tournament.entries.order_by("seed")
    ]
    tables: dict[int, list[rounds.TableRow]] = {}
    for table in Table.objects.filter(round__tournament=tournament).order_by("number"):
        finished = table.status == Table.Status.FINISHED
        tables.setdefault(table.round_id, []).append(
            rounds.TableRow(tuple(table.players), tuple(table.placings) if finished else None)
        )
    played = [
        rounds.RoundRow(r.number, r.kind, tuple(tables.get(r.pk, ())), tuple(r.byes))
        for r in tournament.round_set.order_by("number")
    ]
    return setup, entries, played


def first_seat_offset(players: int) -> int:
    """How far a duplicate-deal table's seats are turned (drawn from ``secrets``): seat 0
    plays first, so the seed or standing order must not decide who sits there."""
    return secrets.randbelow(players) if players > 1 else 0


def round_deck(variant: str, seed: str, options: dict[str, Any] | None = None) -> list[str]:
    """A duplicate deal: the variant's deck (with the tournament's ``options``) shuffled from a
    round's ``seed`` (drawn from ``secrets`` for that round alone, so no seat can work it out
    from anything it reads)."""
    edition = get_variant(variant)
    deck = list(edition.deck_for(edition.parse_options(dict(options or {}))))
    random.Random(f"{seed}:deck").shuffle(deck)
    return deck


def seat_next_round(*, tournament_id: int, held_too: bool = False) -> Round | None:
    """Seat the next round if the last one is complete (or end the tournament when there is no
    next round). Returns the round seated, or None when there was nothing to do: running it
    again, or while a table still plays, changes nothing. ``held_too``: the director's advance,
    which records a table reopened over a game still over as well (``Table.held``)."""
    with transaction.atomic():
        tournament = _locked(tournament_id)
        # A result whose game was undone since is withdrawn first, even a finished
        # tournament's: the round waits for that table again.
        if withdraw_undone_results(tournament):
            tournament.refresh_from_db()
        if tournament.status != Tournament.Status.RUNNING:
            return None
        _record_finished_tables(tournament, held_too=held_too)
        setup, entries, played = plain_rows(tournament)
        nxt = rounds.next_round(setup, entries, played)
        if nxt is None:
            return None
        if isinstance(nxt, rounds.Finished):
            tournament.status = Tournament.Status.FINISHED
            tournament.winner = nxt.winner or ""
            tournament.save(update_fields=["status", "winner"])
            log.info("tournament %s finished: %s wins", tournament.pk, nxt.winner)
            return None
        try:
            with transaction.atomic():
                rnd = Round.objects.create(
                    tournament=tournament, number=nxt.number, kind=nxt.kind, byes=nxt.byes
                )
        except IntegrityError:  # seated by a writer that did not take the lock
            return None
        # Every table's chance comes from a seed drawn from ``secrets`` for it alone, never
        # from anything a seat can read (a finished table's log shows its seed). Duplicate
        # tables share their round's seed (so later hands are alike too) and its deck; the
        # round's tables stay hidden until all of them are over (round_revealed).
        deck = None
        if tournament.duplicate_deals:
            rnd.seed = game_services.new_seed()
            rnd.deck = deck = round_deck(tournament.variant, rnd.seed, tournament.options)
            rnd.save(update_fields=["seed", "deck"])
        for number, seated in enumerate(nxt.tables, start=1):
            players = seated
            if deck is not None:
                players = pairing.rotate(seated, first_seat_offset(len(seated)))
            game = game_services.create_game(
                variant=tournament.variant,
                players=players,
                scoring=tournament.scoring,
                target=tournament.target,
                options=tournament.options or None,
                drawn_seed=rnd.seed if deck is not None else None,
                deck=deck,
                # The dealer is the last seat: seat 0 gets the first card and plays first.
                dealer=len(players) - 1 if deck is not None else None,
            )
            Table.objects.create(round=rnd, number=number, game=game, players=list(players))
            seating.seal(game.pk)
        log.info("tournament %s: round %s seated", tournament.pk, rnd.number)
        return rnd


def _record_finished_tables(tournament: Tournament, *, held_too: bool = False) -> None:
    """Record the placings of every playing table whose game is over (the table_finished task
    does this for its own table; doing it here too makes a lost task harmless), but a table
    reopened over its game still over (``Table.held``) unless ``held_too``."""
    playing = Table.objects.filter(
        round__tournament=tournament,
        status=Table.Status.PLAYING,
        game__status=Game.Status.FINISHED,
    )
    for table in playing:
        _record(table, held_too=held_too)
    for rnd in tournament.round_set.filter(status=Round.Status.PLAYING):
        if not rnd.tables.filter(status=Table.Status.PLAYING).exists():
            rnd.status = Round.Status.FINISHED
            rnd.save(update_fields=["status"])


def _record(table: Table, *, held_too: bool = False) -> bool:
    state = game_services.load_game(game_id=table.game_id)
    if not state.finished or (not held_too and table.held == state.version):
        return False
    table.held = None
    table.placings = absent_last([table.players[seat] for seat in state.placings], table.absent)
    table.status = Table.Status.FINISHED
    table.decided_by = Table.DecidedBy.GAME
    table.save(update_fields=["placings", "status", "decided_by", "held"])
    return True


def absent_last(placings: Sequence[str], absent: Sequence[str]) -> list[str]:
    """``placings`` with the players ruled absent moved to the end, the first ruled absent
    last (they forfeited their places)."""
    return [p for p in placings if p not in absent] + [p for p in reversed(absent) if p in placings]


def ranked_now(table: Table) -> list[str]:
    """The table's players ranked as the game stands (the rule when time is called, and for a
    table ended by absent seats): by the game's total so far (``standard``: highest first;
    ``alternative``: lowest first; ``none``: not counted), then fewest points in hand, then
    fewest cards, then seat order; players ruled absent last."""
    state = game_services.load_game(game_id=table.game_id)
    if state.finished:
        return absent_last([table.players[seat] for seat in state.placings], table.absent)
    variant = get_variant(state.variant)
    n = len(table.players)
    hands = list(state.hands) if len(state.hands) == n else [()] * n
    scores = list(state.scores) if len(state.scores) == n else [0] * n
    sign = {"standard": -1, "alternative": 1}.get(state.scoring, 0)

    def key(seat: int) -> tuple[int, int, int, int]:
        hand = hands[seat]
        return (sign * scores[seat], sum(variant.points(c) for c in hand), len(hand), seat)

    return absent_last([table.players[s] for s in sorted(range(n), key=key)], table.absent)


def decide_table(table: Table, placings: Sequence[str], decided_by: str, kind: str = "") -> None:
    """Record ``placings`` as the table's result by a ruling of ``kind`` (under the
    tournament's lock), and finish its round when no table of it still plays."""
    table.placings = list(placings)
    table.status = Table.Status.FINISHED
    table.decided_by = decided_by
    table.held = None
    table.save(update_fields=["placings", "status", "decided_by", "held"])
    # Whom the ruling is against, as the tournament page says (``selectors.rulings_against``):
    # an award places them last; a table ended for want of players, those ruled absent.
    if decided_by == Table.DecidedBy.ABSENT:
        against = [p for p in placings if p in table.absent]
    else:
        against = list(placings[-1:]) if decided_by == Table.DecidedBy.AWARD else []
    # Its game takes no more moves until the table is reopened (``withdraw_result``).
    Game.objects.filter(pk=table.game_id, status=Game.Status.PLAYING).update(
        closed=closing_words(decided_by, placings, kind, against)
    )
    rnd = table.round
    if not rnd.tables.filter(status=Table.Status.PLAYING).exists():
        rnd.status = Round.Status.FINISHED
        rnd.save(update_fields=["status"])


def record_table_result(*, game_id: UUID | str) -> Table | None:
    """Record the placings of the table playing ``game_id`` once its game is over (a table
    already recorded, a game still playing, or a game of no tournament: nothing happens)."""
    tournament_id = (
        Table.objects.filter(game_id=game_id).values_list("round__tournament_id", flat=True).first()
    )
    if tournament_id is None:
        return None
    with transaction.atomic():
        _locked(tournament_id)
        table = Table.objects.select_related("round").get(game_id=game_id)
        if table.status == Table.Status.PLAYING:
            _record(table)
        rnd = table.round
        if (
            rnd.status == Round.Status.PLAYING
            and not rnd.tables.filter(status=Table.Status.PLAYING).exists()
        ):
            rnd.status = Round.Status.FINISHED
            rnd.save(update_fields=["status"])
        return table


def table_finished(*, game_id: UUID | str) -> Round | None:
    """A table's game ended: record its result and, when that completes the round, seat the
    next one, in one transaction under the tournament's lock. Idempotent."""
    tournament_id = (
        Table.objects.filter(game_id=game_id).values_list("round__tournament_id", flat=True).first()
    )
    if tournament_id is None:
        return None
    with transaction.atomic():
        record_table_result(game_id=game_id)
        return seat_next_round(tournament_id=tournament_id)


# Turn timers -------------------------------------------------------------------------------


def _default_command(commands: list[Command]) -> Command | None:
    """What the turn timer sends for a seat whose legal commands are ``commands``
    (``TIMEOUT_PREFERENCE``); None when it has nothing to send."""
    for kind in TIMEOUT_PREFERENCE:
        declined = _DECLINED.get(kind)
        for command in commands:
            if command.type == kind and (
                declined is None or getattr(command, declined[0]) == declined[1]
            ):
                return command
    return None


def time_out_turn(*, game_id: UUID | str, version: int) -> bool:
    """The seat the game waits for let its time run out: if the game is still at
    ``version``, apply the default action (``TIMEOUT_PREFERENCE``: draw, and pass if the drawn
    card could be played; the first of the editions' choices) as the system. A late or repeated
    timer finds the game moved on and does nothing.
    Returns whether this call timed the turn out: False when another timer of the same turn
    (the task sent twice, the sweep beside a late task) did it first, even though this one,
    sending the same key, is told the first one's answer."""
    state = game_services.load_game(game_id=game_id)
    if state.finished or state.version != version:
        return False
    table = Table.objects.filter(game_id=game_id).values_list("status", "game__closed").first()
    if table is None or table[0] != Table.Status.PLAYING or table[1]:
        # Decided by a ruling, a table reset, or a game closed to moves (a duplicate deal
        # shown before its table was reopened): the game is no longer played.
        return False
    seat = state.pending[1]
    command = _default_command(legal_commands(state, seat)) if seat >= 0 else None
    if command is None:
        return False
    counted = _count_timeout(game_id=game_id, state=state)
    if counted is not Counted.GOES_ON:
        # ENDED: this timeout left nobody (or one player) present and ended the table; OVER:
        # the table was decided meanwhile (by another timer of this turn, or a ruling), or
        # the game moved on since it was read here (the seat acted in time).
        return counted is Counted.ENDED
    try:
        result = game_services.apply_command(
            game_id=game_id,
            command=command,
            actor=game_services.SYSTEM,
            expected_version=version,
            key=f"timeout:{version}",
        )
    except (Stale, IllegalCommand):
        return False  # someone acted meanwhile
    # An answer given again (its ``state`` None): another timer of this turn appended it. The
    # follow-ups are still sent, for a first timer that died before them; they too are
    # answered again when it did not.
    appended = result.state is not None
    # The seat's turn may go on (a card drawn that could be played, the wheel's choices): the
    # same timer answers, as one timeout, until the game waits for someone else or a new turn.
    for _ in range(_FOLLOW_UPS):
        after = game_services.load_game(game_id=game_id)
        kind, waiting = after.pending
        if after.finished or after.version != result.version or waiting != seat:
            break
        if kind in _NEW_MOMENTS:
            break
        follow = _default_command(legal_commands(after, seat))
        if follow is None:
            break
        try:
            result = game_services.apply_command(
                game_id=game_id,
                command=follow,
                actor=game_services.SYSTEM,
                expected_version=result.version,
                key=f"timeout:{result.version}",
            )
        except (Stale, IllegalCommand):
            break  # someone acted meanwhile
        appended = appended or result.state is not None
    return appended


def timer_due(game: Game) -> int | None:
    """The turn time of the table playing ``game`` (None: no timer)."""
    if game.status == Game.Status.FINISHED:
        return None
    return (
        Table.objects.filter(game_id=game.pk)
        .values_list("round__tournament__turn_seconds", flat=True)
        .first()
    )


class Counted(StrEnum):
    """What counting a timeout came to (``_count_timeout``)."""

    GOES_ON = "goes on"  # counted (or counted already): the table plays on
    ENDED = "ended"  # this timeout ended the table
    OVER = "over"  # the table was no longer playing, or the seat acted: nothing counted


def _count_timeout(*, game_id: UUID | str, state: GameState) -> Counted:
    """Count a timeout of the seat the game waits for at ``state``: once a turn, however many
    timers answer its moments (``_same_turn``), and from one again when the seat acted itself
    since its last timeout. At ``ABSENT_AFTER`` in a row the seat is ruled absent, and a table left
    with at most one player present is decided by ``ranked_now``. Returns what came
    of it (``Counted``)."""
    from games.models import Event

    table = Table.objects.filter(game_id=game_id).values_list("round__tournament_id", flat=True)
    tournament_id = table.first()
    if tournament_id is None:
        return Counted.OVER
    seat, version = state.pending[1], state.version
    with transaction.atomic():
        tournament = _locked(tournament_id)
        table = Table.objects.select_related("round").get(game_id=game_id)
        if table.status != Table.Status.PLAYING:
            return Counted.OVER
        # The game's row, held until this count commits, as a director's award holds it: a
        # command sent now waits, and then finds the game as the count left it (decided and
        # closed to moves, or still the seat's turn). A command that got in since the timer
        # looked means the seat acted in time: nothing is counted.
        game = (
            Game.objects.select_for_update()
            .filter(pk=game_id)
            .values_list("version", "status")
            .first()
        )
        if game != (version, Game.Status.PLAYING):
            return Counted.OVER
        player = table.players[seat]
        count, last = table.timeouts.get(player, [0, 0])
        if last >= version:
            return Counted.GOES_ON  # this timeout was counted already (the task ran twice)
        acted = Event.objects.filter(
            game_id=game_id, version__gt=last, actor=game_services.seat_actor(seat)
        ).exists()
        if acted or not count:
            count = 1
        elif not _same_turn(game_id=game_id, since=last, state=state):
            count += 1
        table.timeouts = {**table.timeouts, player: [count, version]}
        table.save(update_fields=["timeouts"])
        if count < ABSENT_AFTER or player in table.absent:
            return Counted.GOES_ON
        table.absent = [*table.absent, player]
        table.save(update_fields=["absent"])
        rulings.record(
            tournament,
            round_number=table.round.number,
            table_number=table.number,
            kind=Ruling.Kind.ABSENT,
            reason=f"{ABSENT_AFTER} turns in a row ran out of time",
            players=[player],
        )
        if len(table.players) - len(table.absent) > 1:
            return Counted.GOES_ON
        placings = ranked_now(table)
        decide_table(table, placings, Table.DecidedBy.ABSENT, Ruling.Kind.NO_SHOW)
        rulings.record(
            tournament,
            round_number=table.round.number,
            table_number=table.number,
            kind=Ruling.Kind.NO_SHOW,
            reason="at most one player left present",
            players=placings,
        )
        seat_next_round(tournament_id=tournament_id)
        return Counted.ENDED


def _same_turn(*, game_id: UUID | str, since: int, state: GameState) -> bool:
    """Whether the game, as it waits at ``state``, has waited for that seat at one turn ever
    since ``since`` (where a timeout of the seat was counted): at ``since`` and at every
    version it rested at after it, up to now, the seat was the one waited for, and no new
    turn or hand (``_NEW_MOMENTS``) began. So it is when a timer answered the first of the
    turn's moments and the database went away before the next (the wheel's choice after a
    spin, a drawn card that could be played): the timer of the moment left answers the same
    turn, which is not timed out twice. Read from the log's states, newest first."""
    from games.models import Event

    kind, seat = state.pending
    if kind in _NEW_MOMENTS:
        return False
    starts = Event.objects.filter(
        game_id=game_id, version__gt=since, version__lte=state.version, batch=F("version")
    ).values_list("version", flat=True)
    # The versions the game rested at in between (each before a command's first event), and
    # ``since``, where only the seat is asked: the timeout counted there began the turn.
    for at in sorted({start - 1 for start in starts} | {since}, reverse=True):
        kind, waiting = game_services.state_at(game_id=game_id, version=at).pending
        if waiting != seat or (at != since and kind in _NEW_MOMENTS):
            return False
    return True


# Withdrawing a result (a table reopened, a game undone) -----------------------------------------


def later_rounds(table: Table) -> Any:
    return Round.objects.filter(
        tournament_id=table.round.tournament_id, number__gt=table.round.number
    )


DEAL_SHOWN = (
    "This table was reopened after every table of its round had finished, so the round's deal "
    "has been shown to everyone: the game takes no more moves, and the tournament's director "
    "decides the table (award the result or call time)."
)


def withdraw_result(table: Table) -> list[int]:
    """Take the table's result back (it plays again and its round waits), resetting every
    round seated after it and the tournament's end. Returns the numbers of the rounds reset.
    Their games are left as they were, no longer a tournament's tables."""
    tournament = table.round.tournament
    later = list(later_rounds(table).order_by("number").values_list("number", flat=True))
    # The games of the rounds reset, and this table's, take moves again; but not this table's
    # unfinished game if its round deals every table the same cards and no other table of it
    # still plays: the round's deal was then shown to everyone (``round_revealed``),
    # so the game can no longer be played blind, and only a ruling decides it. (A finished
    # game goes on only by a referee's undo that reopens it, which its log records.)
    games = Table.objects.filter(round__in=later_rounds(table)).values("game_id")
    Game.objects.filter(pk__in=games).update(closed="")
    others = table.round.tables.exclude(pk=table.pk)
    shown = tournament.duplicate_deals and not others.filter(status=Table.Status.PLAYING).exists()
    game = Game.objects.filter(pk=table.game_id)
    game.update(closed="")
    if shown:
        game.filter(status=Game.Status.PLAYING).update(closed=DEAL_SHOWN)
    with seating.resealing(*(row["game_id"] for row in games)):
        later_rounds(table).delete()  # their games are no longer the tournament's tables
    table.status = Table.Status.PLAYING
    table.placings = []
    table.decided_by = Table.DecidedBy.NOTHING
    # A game still over is not recorded again by the sweeps or another table's end, which
    # would take the reopen back before its referee could undo it: only once the game moves on
    # (``services._record``), or by the director's advance.
    table.held = game.filter(status=Game.Status.FINISHED).values_list("version", flat=True).first()
    table.save(update_fields=["status", "placings", "decided_by", "held"])
    rnd = table.round
    if rnd.status != Round.Status.PLAYING:
        rnd.status = Round.Status.PLAYING
        rnd.save(update_fields=["status"])
    if tournament.status == Tournament.Status.FINISHED or tournament.winner:
        tournament.status = Tournament.Status.RUNNING
        tournament.winner = ""
        tournament.save(update_fields=["status", "winner"])
    return later


def withdraw_undone_results(tournament: Tournament) -> int:
    """Withdraw the result of every table of ``tournament`` that its game gave while the game
    plays again: an undo whose follow-up (``result_withdrawn``, run after the undo's commit)
    was lost with the database or the process in between. The caller holds the tournament's
    lock (``seat_next_round``, so no round is ever seated from such a result).
    Returns how many were withdrawn."""
    undone = Table.objects.filter(
        round__tournament=tournament,
        status=Table.Status.FINISHED,
        decided_by=Table.DecidedBy.GAME,
    ).exclude(game__status=Game.Status.FINISHED)
    withdrawn = 0
    for table in undone.select_related("round"):
        if withdraw_undone(tournament, table):
            log.warning(
                "tournament %s: the result of %s withdrawn late (its game was undone)",
                tournament.pk,
                table.game_id,
            )
            withdrawn += 1
    return withdrawn


def withdraw_undone(tournament: Tournament, table: Table) -> bool:
    """``directing.result_withdrawn``'s work on a locked tournament: whether the table's result was
    withdrawn (not when a ruling decided it, or its game is over after all)."""
    if table.status != Table.Status.FINISHED or table.decided_by != Table.DecidedBy.GAME:
        return False
    if game_services.load_game(game_id=table.game_id).finished:
        return False
    reset = withdraw_result(table)
    if reset:  # an undo that raced the refusal: the bracket follows the log all the same
        log.warning(
            "tournament %s: undo of %s reset rounds %s", tournament.pk, table.game_id, reset
        )
    rulings.record(
        tournament,
        round_number=table.round.number,
        table_number=table.number,
        kind=Ruling.Kind.WITHDRAWN,
        reason="the table's game was undone and plays again",
    )
    return True
