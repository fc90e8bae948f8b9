"""The game services: every write to a game, and the reads that need the store, go through
these verbs. The API, the pages and the tasks call only these.

Errors: ``games.errors`` (``NotFound``, ``Forbidden``, ``Stale``) and the engine's rule errors,
which pass through unchanged: ``InvalidCommand`` for bad input (naming the field, 400) and
``IllegalCommand`` for what the rules refuse now (409). An error never appends an event.

Actors are strings recorded with each event: ``"seat:2"``, ``"user:7"`` or ``"system"``.
"""

from __future__ import annotations

import hmac
import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any
from uuid import UUID

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from games import chain, registry, seating, store
from games.errors import CommandUndone, KeyClash, NotFound, Stale
from games.models import KEY_LENGTH, Dispute, Event, Game, GameReferee, Seat
from games.names import clean_name, name_key
from rules import Command, GameState, IllegalCommand, InvalidCommand, RuleError, new_game, step
from rules.commands import DealHand
from rules.events import Rewound
from rules.variants import get_variant

SYSTEM = "system"
RETRIES = 5  # attempts of a command sent without an expected version, when others win races
SEED_BYTES = 16  # 128 bits: no seat can try every seed


def new_seed() -> str:
    """A seed for a game's chance, from the operating system's secure source."""
    return secrets.token_hex(SEED_BYTES)


def seat_actor(seat: int) -> str:
    return f"seat:{seat}"


def user_actor(user: Any) -> str:
    return f"user:{user.pk}"


@dataclass(frozen=True, slots=True)
class AppendResult:
    """What a command appended: the game's version after it and the Event rows."""

    version: int
    events: list[Event]
    # The game's state after the command (None for an answer given again to a repeated key).
    state: GameState | None = None

    @property
    def receipt(self) -> dict[str, Any]:
        """The server's signed word that the game's chain ended here after the command
        (games.chain): the game, the version, the head's hash and the signature."""
        last = self.events[-1]
        return {
            "game": str(last.game_id),
            "version": last.version,
            "head": last.hash,
            "signature": last.signature,
        }


# Creating a game -----------------------------------------------------------------------------


# How a game that counts is dealt, for each part of a deal a practice game may choose.
COUNTING_DEALS = {
    "seed": "chance comes from a seed drawn for it",
    "deck": "cards are shuffled",
    "dealer": "dealer is drawn as the rules say",
}


def create_game(
    *,
    variant: str,
    players: Sequence[str],
    scoring: str,
    target: int,
    seed: str | int | None = None,
    deck: Sequence[str] | None = None,
    dealer: int | None = None,
    options: dict[str, Any] | None = None,
    created_by: Any = None,
    season_id: int | None = None,
    sheet: bool = False,
    drawn_seed: str | None = None,
) -> Game:
    """Create a game, seat ``players`` (each seat gets its own secret) and deal the first hand:
    the start's events are versions 1..N. ``deck`` (top first) and ``dealer`` set the deal up
    card by card (DESIGN.md's dealing contract). A score-sheet game (``sheet``) deals nothing:
    its hands are recorded as they are played.

    Chance comes from a seed of ``SEED_BYTES`` drawn from ``secrets``. ``seed`` is a person's
    choice, for practice games only: it is refused for a season's game and recorded as chosen
    (``Game.seed_chosen`` and the ``game_started`` event). ``drawn_seed`` is one a trusted
    caller drew from ``secrets`` itself (a duplicate-deal round shares one among its tables)."""
    if isinstance(players, str) or not isinstance(players, Sequence):
        raise InvalidCommand("players must be a list of names", field="players")
    names = _player_names(players)
    if isinstance(deck, (list, tuple)) and not deck:
        raise InvalidCommand(
            "deck: an empty deck; leave deck out for a shuffled one, or give every card",
            field="deck",
        )
    seed_chosen = seed is not None
    if season_id is not None:
        # A game that counts is dealt by chance alone: nothing of its deal is chosen.
        chosen = {"seed": seed, "deck": deck, "dealer": dealer}
        for field, value in chosen.items():
            if value is not None:
                raise InvalidCommand(
                    f"a {field} may be chosen for practice games only, not for a game that "
                    f"counts: its {COUNTING_DEALS[field]}",
                    field=field,
                )
    if drawn_seed is not None:
        if seed_chosen:
            raise ValueError("give either a chosen seed or a drawn one")
        if not isinstance(drawn_seed, str) or len(drawn_seed) < 2 * SEED_BYTES:
            raise ValueError(f"a drawn seed is at least {SEED_BYTES} random bytes in hex")
        seed = drawn_seed
    elif seed is None:
        seed = new_seed()
    # The engine validates everything else (variant, scoring, target, options, deck, dealer)
    # before anything is written.
    state, events = new_game(
        variant=variant,
        players=len(names),
        scoring=scoring,
        target=target,
        seed=str(seed),
        options=options,
        dealer=dealer,
        deck=deck,
        sheet=sheet,
        seed_chosen=seed_chosen,
    )
    return _open_table(
        state,
        events,
        names,
        created_by,
        sheet=sheet,
        seed_chosen=seed_chosen,
        season_id=season_id,
    )


def edition_options(variant: str, options: Any) -> dict[str, Any]:
    """``options`` for games of ``variant`` (a league's, a tournament's), checked as the rules
    check a game's (``InvalidCommand`` naming the option); ``{}`` for none."""
    if options is None:
        return {}
    if not isinstance(options, dict):
        raise InvalidCommand(
            "options: expected an object of the edition's options", field="options"
        )
    get_variant(variant).parse_options(dict(options))
    return dict(options)


def _player_names(players: Sequence[Any]) -> list[str]:
    """The names of a table's players, stripped; each must be a name, and a name of its own
    (two players called "Ann" could not tell whose turn it is)."""
    names = [clean_name(name) if isinstance(name, str) else name for name in players]
    seen: dict[str, int] = {}
    for i, name in enumerate(names):
        if not isinstance(name, str) or not name:
            raise InvalidCommand(f"players[{i}]: a player needs a name", field="players")
        if (first := seen.setdefault(name_key(name), i)) != i:
            raise InvalidCommand(
                f"players[{i}]: {names[first]} is named twice; give each player a name of "
                "their own",
                field="players",
            )
    return names


def _open_table(
    state: GameState,
    events: Sequence[Any],
    names: Sequence[str],
    created_by: Any,
    **header: Any,
) -> Game:
    """Create the game's row (``header``: its flags) and its seats, and append the start's
    events as versions 1..N, in one transaction."""
    with transaction.atomic():
        game = Game.objects.create(
            variant=state.variant,
            scoring=state.scoring,
            target=state.target,
            created_by=created_by,
            **header,
        )
        Seat.objects.bulk_create(
            Seat(game=game, seat=number, player=name) for number, name in enumerate(names)
        )
        seating.seal(game.pk)
        actor = user_actor(created_by) if created_by is not None else SYSTEM
        store.append(game, 0, events, actor=actor, state=state)
    game.version = state.version
    return game


# Playing -------------------------------------------------------------------------------------


def apply_command(
    *,
    game_id: UUID | str,
    command: Command,
    actor: str,
    expected_version: int | None = None,
    key: str | None = None,
) -> AppendResult:
    """Decide ``command`` against the game's current state and append its events.

    ``key``: the actor's idempotency key in this game. The same key with the same command
    returns the first answer and appends nothing, also when it is sent again while the first
    is still being written; with another command it is ``KeyClash``.
    ``expected_version``: when given and no longer current, ``Stale`` (nothing appended),
    unless the key's command was appended already: then the first answer, as above.
    Without it, losing a race to another writer re-loads and re-decides, up to ``RETRIES``
    times, as long as the command is still legal (if not, its ``IllegalCommand`` is raised).
    """
    if isinstance(command, DealHand) and command.deck:
        _refuse_a_chosen_deal(game_id)
    digest = chain.command_digest(command.to_dict()) if key is not None else ""
    # The same command as a version before a field's rename recorded it: a retry across
    # the rename is still that command.
    former = command.former_dict() if key is not None else None
    same = {digest} if former is None else {digest, chain.command_digest(former)}
    answered = partial(_answered, game_id, actor, key, same)
    last = Stale(0)
    for _ in range(RETRIES):
        state = store.current(game_id, expected_version)
        if expected_version is not None and expected_version != state.version:
            if earlier := answered():
                return earlier
            raise Stale(state.version)
        try:
            new_state, events = step(state, command)
        except RuleError:
            # A retry of a command that was appended may no longer be legal: answer it as
            # it was answered. And a state taken from the cache as the expected one may be
            # behind the log: then the caller is stale rather than illegal.
            if earlier := answered():
                return earlier
            if (
                expected_version is not None
                and (now := store.head_version(game_id)) != state.version
            ):
                raise Stale(now) from None
            raise
        try:
            rows = store.append(
                game_id,
                state.version,
                events,
                actor=actor,
                key=key,
                digest=digest,
                state=new_state,
            )
        except store.KeyUsed:
            earlier = answered()
            assert earlier is not None  # the key's batch was committed before the refusal
            return earlier
        except Stale as stale:
            # The same command, sent again while the first was being written, may have won
            # the race (the lock's check of the key saw the log as it was before the
            # winner's commit): its sender gets the first answer, not a refusal.
            if earlier := answered():
                return earlier
            if expected_version is not None:
                raise
            last = stale
            continue
        return AppendResult(version=rows[-1].version, events=rows, state=new_state)
    raise last


def _refuse_a_chosen_deal(game_id: UUID | str) -> None:
    """A referee's ``deal`` with a deck set up card by card is for practice games: a game that
    counts (a season's, a tournament's table: ``registry.counts_checks``) is dealt by chance."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return  # (the store says there is no such game)
    if game.season_id is not None or any(check(game) for check in registry.counts_checks):
        raise IllegalCommand(
            "a game that counts is dealt a shuffled deck: a deck set up card by card is for "
            "practice games only"
        )


def _answered(
    game_id: UUID | str, actor: str, key: str | None, digests: set[str]
) -> AppendResult | None:
    """The answer given to ``actor``'s command that carried ``key``, if one did; ``KeyClash``
    if that command was not the one ``digests`` name (its digest, and the one of its shape
    before a rename)."""
    if key is None:
        return None
    rows = store.batch_of_key(game_id, actor, key)
    if not rows:
        return None
    # Rows from before digests were kept have none: they answer as they always did.
    if rows[0].command_digest and rows[0].command_digest not in digests:
        raise KeyClash(key, rows[0].version)
    undone = store.undone_by(game_id, rows[0].version, rows[-1].version)
    if undone is not None:
        # Answering with the first answer would tell the sender their command stands.
        raise CommandUndone(key, undone.data["to_version"], undone.version)
    return AppendResult(version=rows[-1].version, events=rows)


def undo(
    *,
    game_id: UUID | str,
    to_version: int,
    reason: str,
    by: str,
    reopen: bool = False,
    expected_version: int | None = None,
    key: str | None = None,
) -> int:
    """Rewind the game to its state at ``to_version`` by appending a ``Rewound`` event (nothing
    is deleted) and return the new version. ``to_version`` must be a version the game rested at
    (the end of a command's events), from the first hand's start up to before the current one.

    A finished game has shown every hand and the draw pile to every seat, so play resumed from
    it is no longer fair: undoing it is refused unless the referee ``reopen``s it, with a
    reason, which the ``Rewound`` event records (a score sheet's, which hides nothing, is
    undone as any other).

    ``expected_version``: the version the referee saw. When the game is no longer there, the
    undo is ``Stale`` and nothing is appended: an undo sent again, or from a page shown before
    the game moved on, never takes back moves its sender did not see. ``key``: the referee's
    idempotency key, as a command's (``apply_command``): the same key with the same undo
    answers with the version the first one gave and appends nothing; with another undo, or a
    command, it is ``KeyClash``."""
    if not isinstance(to_version, int) or isinstance(to_version, bool):
        raise InvalidCommand("to_version must be a whole number", field="to_version")
    if not isinstance(reason, str):
        raise InvalidCommand("reason must be text", field="reason")
    _check_expected_version(expected_version)
    if key is not None and (
        not isinstance(key, str) or not key.strip() or len(key) > KEY_LENGTH or "\x00" in key
    ):
        raise InvalidCommand(
            f"key must be text of 1 to {KEY_LENGTH} characters, not only spaces", field="key"
        )
    reason = reason.strip()
    digest = "" if key is None else chain.command_digest(_undo_shape(to_version, reason, reopen))
    answered = partial(_answered, game_id, by, key, {digest})
    last = Stale(0)
    for _ in range(RETRIES):
        state, version = store.load(game_id)
        if expected_version is not None and expected_version != version:
            # An undo sent again after its answer was lost: the game moved on from it.
            if earlier := answered():
                return earlier.version
            raise _moved_on(expected_version, version)
        try:
            _check_undo(game_id, state, version, to_version, reason, reopen)
        except RuleError:
            # A retry of an undo that was appended may no longer be one the game allows.
            if earlier := answered():
                return earlier.version
            raise
        rewound = Rewound(to_version, by, reason, reopened=bool(reopen))
        try:
            rows = store.append(game_id, version, [rewound], actor=by, key=key, digest=digest)
        except store.KeyUsed:
            earlier = answered()
            assert earlier is not None  # the key's batch was committed before the refusal
            return earlier.version
        except Stale as stale:
            # The same undo, sent at once, may have won the race (the lock's check of the key
            # saw the log as it was before the winner's commit).
            if earlier := answered():
                return earlier.version
            if expected_version is not None:
                raise _moved_on(expected_version, stale.current_version) from None
            last = stale
            continue
        return rows[-1].version
    raise last


def _check_expected_version(expected_version: Any) -> None:
    """``InvalidCommand`` naming ``expected_version`` unless it is None or a version."""
    if expected_version is not None and (
        not isinstance(expected_version, int)
        or isinstance(expected_version, bool)
        or expected_version < 0
    ):
        raise InvalidCommand(
            "expected_version must be a whole number: the version the game was seen at",
            field="expected_version",
        )


def _moved_on(
    expected_version: int, version: int, done: str = "undone", then: str = "undo"
) -> Stale:
    """The refusal of an undo (or a ruling that undoes: ``done``, ``then``) sent for a version
    the game has moved on from."""
    return Stale(
        version,
        f"expected_version {expected_version} is not the game's version any more: it has "
        f"moved on to version {version}, and nothing was {done}; look again, and {then} from "
        "where the game stands now",
    )


def _undo_shape(to_version: int, reason: str, reopen: bool) -> dict[str, Any]:
    """What an undo was, as its idempotency key's digest is taken over (a command's is its
    API shape): the same undo sent again has the same one."""
    return {"type": "undo", "to_version": to_version, "reason": reason, "reopen": bool(reopen)}


def _check_undo(
    game_id: UUID | str,
    state: GameState,
    version: int,
    to_version: int,
    reason: str,
    reopen: bool,
) -> None:
    """Whether the game, at ``version``, may be taken back to ``to_version``; the rule error
    naming what is wrong if not."""
    # A score sheet hides nothing (its hands were played with cards): a wrong entry is
    # simply undone.
    if state.finished and not reopen and not state.sheet:
        raise IllegalCommand(
            "the game is over and every hand has been shown to all players; to play on "
            "from an earlier point, reopen the game (reopen: true) and give the reason"
        )
    if reopen and not state.finished:
        raise InvalidCommand("only a finished game can be reopened", field="reopen")
    if reopen and not reason:
        raise InvalidCommand("say why the finished game is reopened", field="reason")
    first = _first_hand_start(game_id)
    if not first <= to_version < version:
        raise InvalidCommand(
            f"undo goes back to a version from {first} (the first hand's start) to "
            f"{version - 1}, not {to_version}",
            field="to_version",
        )
    if not _rested_at(game_id, to_version):
        raise InvalidCommand(
            f"version {to_version} is in the middle of one command's events; "
            "undo goes back to where the game waited for a player",
            field="to_version",
        )
    for check in registry.undo_checks:
        if refusal := check(get_game(game_id)):
            raise IllegalCommand(refusal)


def _first_hand_start(game_id: UUID | str) -> int:
    """The version the game stood at once created: the end of its first batch."""
    return Event.objects.filter(game_id=game_id, batch=1).order_by("-version")[0].version


def _rested_at(game_id: UUID | str, version: int) -> bool:
    """Whether ``version`` ends a batch (the next event starts a new one)."""
    following = Event.objects.filter(game_id=game_id, version=version + 1).values_list(
        "batch", flat=True
    )
    return list(following) == [version + 1]


# Reading -------------------------------------------------------------------------------------


def get_game(game_id: UUID | str) -> Game:
    try:
        return Game.objects.get(pk=game_id)
    except (Game.DoesNotExist, ValidationError, ValueError):  # not a game's id, or no such game
        raise NotFound(f"no game {game_id}") from None


def load_game(*, game_id: UUID | str) -> GameState:
    """The game's current state."""
    return store.load(game_id)[0]


def current_state(*, game: Game) -> GameState:
    """The state of ``game`` at the version its row says (read in this request): no query
    when this process already has it."""
    return store.current(game.pk, game.version)


def state_at(*, game_id: UUID | str, version: int) -> GameState:
    """The game's full state at ``version`` (every hand in it): what a dispute replays."""
    game = get_game(game_id)
    if (
        not isinstance(version, int)
        or isinstance(version, bool)
        or not 0 <= version <= game.version
    ):
        raise InvalidCommand(
            f"version must be from 0 to {game.version}, not {version!r}", field="version"
        )
    return store.state_at(game.pk, version)


def replay_events(*, game_id: UUID | str, after: int = 0) -> list[Event]:
    """The game's log (the Event rows after version ``after``), in order."""
    game = get_game(game_id)
    return list(Event.objects.filter(game=game, version__gt=after).order_by("version"))


# Disputes ------------------------------------------------------------------------------------


def open_dispute(*, game_id: UUID | str, version: int, claim: str, by: str) -> Dispute:
    """Open a dispute about event ``version`` of the game."""
    game = get_game(game_id)
    if (
        not isinstance(version, int)
        or isinstance(version, bool)
        or not 1 <= version <= game.version
    ):
        raise InvalidCommand(
            f"a dispute is about an event, from 1 to {game.version}, not {version!r}",
            field="version",
        )
    if not isinstance(claim, str) or not claim.strip():
        raise InvalidCommand("say what the dispute claims", field="claim")
    claim = claim.strip()
    with transaction.atomic():
        # One opening at a time per game (its row is locked): the same dispute sent twice (a
        # second tap, a request sent again after its answer was lost) is the one still open.
        Game.objects.select_for_update().filter(pk=game.pk).exists()
        same = Dispute.objects.filter(
            game=game, version=version, claim=claim, opened_by=by, status=Dispute.Status.OPEN
        ).first()
        if same is not None:
            return same
        return Dispute.objects.create(game=game, version=version, claim=claim, opened_by=by)


def rule_on_dispute(
    *,
    dispute_id: int,
    decision: str,
    note: str,
    undo_to: int | None = None,
    reopen: bool = False,
    by: str,
    expected_version: int | None = None,
) -> Dispute:
    """Close an open dispute as ``upheld`` or ``rejected``; an upheld one may rewind the game
    to ``undo_to`` (in the same transaction as the ruling; a finished game must be
    ``reopen``ed, as ``undo`` says). With ``undo_to``, ``expected_version`` is the version the
    referee saw, as ``undo`` takes it: ``Stale``, and nothing ruled, once the game moved on.
    A ruling that undoes nothing takes back no move, so it does not compare the version."""
    if decision not in (Dispute.Status.UPHELD, Dispute.Status.REJECTED):
        raise InvalidCommand(
            f"decision must be 'upheld' or 'rejected', not {decision!r}", field="decision"
        )
    _check_expected_version(expected_version)
    if undo_to is not None and (not isinstance(undo_to, int) or isinstance(undo_to, bool)):
        raise InvalidCommand("undo_to must be a whole number", field="undo_to")
    if undo_to is not None and decision != Dispute.Status.UPHELD:
        raise InvalidCommand(
            "only a dispute upheld can undo moves: choose upheld, or no undo", field="undo_to"
        )
    with transaction.atomic():
        dispute = Dispute.objects.select_for_update().filter(pk=dispute_id).first()
        if dispute is None:
            raise NotFound(f"no dispute {dispute_id}")
        if dispute.status != Dispute.Status.OPEN:
            same = (dispute.status, dispute.ruling, dispute.undo_to, dispute.ruled_by)
            if same == (decision, note or "", undo_to, by):
                # The same ruling sent again (its answer lost on the way): the first stands.
                return dispute
            raise IllegalCommand(f"dispute {dispute.pk} has already been ruled {dispute.status}")
        if undo_to is not None:
            # Said at the table (the undo's line in the log): in words, not the event's
            # number, which the dispute itself keeps.
            reason = f"a dispute was upheld ({note})" if note else "a dispute was upheld"
            try:
                undo(
                    game_id=dispute.game_id,
                    to_version=undo_to,
                    reason=reason,
                    by=by,
                    reopen=reopen,
                    expected_version=expected_version,
                )
            except InvalidCommand as exc:
                if exc.field != "to_version":
                    raise
                # The version to go back to is the ruling's undo_to.
                raise InvalidCommand(str(exc), field="undo_to") from None
            except Stale as stale:
                if expected_version is None:
                    raise
                raise _moved_on(
                    expected_version, stale.current_version, "ruled or undone", "rule"
                ) from None
        dispute.status = decision
        dispute.ruling = note or ""
        dispute.undo_to = undo_to
        dispute.ruled_by = by
        dispute.ruled_at = timezone.now()
        dispute.save()
    return dispute


# Who may do what -------------------------------------------------------------------------------


def is_referee(user: Any, game: Game) -> bool:
    """Whether ``user`` referees ``game``: its creator, a ``GameReferee``, or anyone a check
    registered in ``games.registry.referee_checks`` accepts (e.g. the league's organisers)."""
    if user is None or not getattr(user, "is_authenticated", False) or user.pk is None:
        return False
    if game.created_by_id == user.pk:
        return True
    if GameReferee.objects.filter(game=game, user_id=user.pk).exists():
        return True
    return any(check(user, game) for check in registry.referee_checks)


def seats_players(user: Any, game: Game) -> bool:
    """Whether ``user`` seats ``game``'s players, and so holds its seats' private links to hand
    them out (the API's ``secret``s, the lobby's links and QR codes): its creator, or anyone a
    check in ``games.registry.seater_checks`` accepts (the organisers of its league or
    tournament). A referee named to rule on games is not: whoever holds a seat's link can act
    as that seat, and the log cannot tell them from the player."""
    if user is None or not getattr(user, "is_authenticated", False) or user.pk is None:
        return False
    if game.created_by_id == user.pk:
        return True
    return any(check(user, game) for check in registry.seater_checks)


SECRET_SHAPE = re.compile(r"[A-Za-z0-9_-]{1,64}")  # what new_seat_secret makes


def table_of(game_id: UUID | str) -> list[Seat]:
    """The game's seats in order, each with the game's row, in one query (empty when there is
    no such game, or a game with no seats)."""
    return list(Seat.objects.select_related("game").filter(game_id=game_id).order_by("seat"))


def seat_among(seats: Sequence[Seat], secret: str) -> Seat | None:
    """The seat of ``seats`` whose secret is ``secret`` (compared in constant time), or None."""
    if not isinstance(secret, str) or not SECRET_SHAPE.fullmatch(secret):
        return None
    return next((s for s in seats if hmac.compare_digest(s.secret, secret)), None)


def seat_for_secret(game: Game | UUID | str, secret: str) -> Seat | None:
    """The seat of ``game`` whose secret is ``secret``, or None (at once for anything that is
    not shaped like a secret: the database is not asked about it)."""
    if not isinstance(secret, str) or not SECRET_SHAPE.fullmatch(secret):
        return None
    game_id = game.pk if isinstance(game, Game) else game
    return Seat.objects.filter(game_id=game_id, secret=secret).first()


# Joining a table and rematches ----------------------------------------------------------------


def take_seat(*, seat: Seat, device: str) -> bool:
    """Record that the browser ``device`` (a random token its session keeps) opened ``seat``'s
    link. The first browser to open it holds it; True when another browser held it already.
    Both go on playing for the seat (docs/decisions/0011-joining-a-table.md): nobody is
    silently put out, and the second browser is told."""
    if not device:
        raise ValueError("a device token is required")
    taken = Seat.objects.filter(pk=seat.pk, device="").update(
        device=device, joined_at=timezone.now()
    )
    if taken:
        seat.device = device
        return False
    seat.refresh_from_db(fields=["device", "joined_at"])
    return not hmac.compare_digest(seat.device, device)


def may_start_rematch(user: Any, game: Game, seat: int | None) -> bool:
    """Whether this viewer may start ``game``'s rematch: its referee, or the one person at a
    table of bots (a quick game)."""
    if is_referee(user, game):
        return True
    if seat is None:
        return False
    others = Seat.objects.filter(game=game).exclude(seat=seat)
    return others.exists() and not others.filter(bot=False).exists()


def rematch(*, game_id: UUID | str, by: Any = None) -> Game:
    """The rematch of a finished game: a new game of the same edition, scoring, target and
    options, with the same players in the same seats (the same users and bots, and the same
    first browser on each seat), each seat with a new secret, and the same referees; ``by``,
    the signed-in user who starts it, referees it too (an organiser of a league's game, whose
    rights came from the league, keeps them at the rematch, which belongs to no season).
    Started once: asked again, the rematch already started is returned. Who may ask is the
    caller's check (``may_start_rematch``)."""
    existing = Game.objects.filter(rematch_of_id=game_id).first()
    if existing is not None:
        return existing
    game = get_game(game_id)
    if game.status != Game.Status.FINISHED:
        raise IllegalCommand("a rematch can start only once the game is over")
    if game.sheet or game.set_up:
        raise IllegalCommand(
            "a score sheet or a game set up from a position has no rematch: start a new game"
        )
    state = current_state(game=game)
    options = {
        key: list(value) if isinstance(value, tuple) else value for key, value in state.options
    }
    seats = list(Seat.objects.filter(game=game).order_by("seat"))
    try:
        with transaction.atomic():
            new = create_game(
                variant=game.variant,
                players=[s.player for s in seats],
                scoring=game.scoring,
                target=game.target,
                options=options or None,
                created_by=game.created_by,
            )
            Game.objects.filter(pk=new.pk).update(rematch_of=game)
            for old in seats:
                Seat.objects.filter(game=new, seat=old.seat).update(
                    user_id=old.user_id, bot=old.bot, device=old.device, joined_at=old.joined_at
                )
            seating.seal(new.pk)  # the bots sit where they sat
            referees = set(GameReferee.objects.filter(game=game).values_list("user_id", flat=True))
            if getattr(by, "is_authenticated", False) and by.pk != new.created_by_id:
                referees.add(by.pk)
            referees.discard(new.created_by_id)
            GameReferee.objects.bulk_create(
                GameReferee(game=new, user_id=user_id) for user_id in sorted(referees)
            )
    except IntegrityError:
        # Someone else started it at the same moment: theirs is the rematch.
        existing = Game.objects.filter(rematch_of_id=game_id).first()
        if existing is None:
            raise
        return existing
    new.rematch_of = game
    return new


# Setting up a position -----------------------------------------------------------------------


def create_game_from_position(
    *,
    position: str,
    players: Sequence[str],
    created_by: Any,
    season_id: int | None = None,
) -> Game:
    """Start a game from a position (docs/POSITION.md), to rebuild a disputed moment of a
    paper game: ``created_by`` referees it, ``players`` name its seats. The game is marked set
    up and never counts, so a season is refused. Its first event is the position
    (``position_set_up``), recorded and hidden like a deal; the pile's chance to come is drawn
    from a new secret seed unless the position names one."""
    if season_id is not None:
        raise InvalidCommand(
            "a game set up from a position never counts: it cannot join a season",
            field="season",
        )
    if not isinstance(position, str) or not position.strip():
        raise InvalidCommand("a position is one line of text (docs/POSITION.md)", field="position")
    if isinstance(players, str) or not isinstance(players, Sequence):
        raise InvalidCommand("players must be a list of names", field="players")
    names = _player_names(players)
    from rules.position import start_from

    state, events = start_from(position, seed=new_seed())
    if len(names) != state.players:
        raise InvalidCommand(
            f"the position has {state.players} seats but {len(names)} players are named",
            field="players",
        )
    return _open_table(state, events, names, created_by, sheet=state.sheet, set_up=True)
