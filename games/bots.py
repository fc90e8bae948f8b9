"""Quick games against bots: start one, and let its bot seats play through the services.

A bot seat (``Seat.bot``) is played by ``rules.bots.RandomBot`` on the server: ``play_bots``
sends the bots' commands through ``services.apply_command``, exactly as a person's would go,
until a person must act. It runs in the ``games.tasks.play_bots`` task, enqueued once the
append that gave the bots something to do has committed (``games.listeners.after_append``, a
``registry.on_game_event`` listener). It is idempotent: each bot command carries the key
``bot:<version>:<seat>``, so running it twice at the same version appends nothing twice.
"""

from __future__ import annotations

import logging
import random
from threading import Lock
from typing import Any
from uuid import UUID

from cachetools import LRUCache, cached
from cachetools.keys import hashkey
from django.db import transaction

from games import seating, services
from games.errors import Stale
from games.models import Game, Seat
from rules import Command, GameState, IllegalCommand, InvalidCommand, legal_commands
from rules.bots import RandomBot

log = logging.getLogger(__name__)

MIN_BOTS, MAX_BOTS = 1, 9
MAX_STEPS = 2000  # bot commands in one run; a run stops long before, when a person must act
ALERT = 0.5  # how often a bot catches a person who forgot UNO, or joins the UNO Spin race
BOT_NAMES = ("Ada", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hal", "Ivy")
# Commands a bot may send when it is not the seat the game waits for.
OUT_OF_TURN = frozenset({"catch", "call_uno", "claim_uno_spin"})


def start_quick_game(
    *,
    variant: str,
    bots: int,
    player: str,
    user: Any = None,
    scoring: str = "none",
    target: int = 500,
    seed: str | int | None = None,
    options: dict[str, Any] | None = None,
) -> tuple[Game, Seat]:
    """A game of ``player`` (seat 0) against ``bots`` bots; the bots start playing once the
    game is committed. A signed-in ``user`` holds seat 0 and referees the game."""
    if not isinstance(bots, int) or isinstance(bots, bool) or not MIN_BOTS <= bots <= MAX_BOTS:
        raise InvalidCommand(f"play against {MIN_BOTS} to {MAX_BOTS} bots, not {bots!r}", "bots")
    player = (player or "").strip() or "Player"
    names = [player[:100]] + [f"{name} (bot)" for name in BOT_NAMES[:bots]]
    signed_in = user if user is not None and user.is_authenticated else None
    # One transaction: the bots' task is enqueued when it commits, with the seats marked.
    with transaction.atomic():
        game = services.create_game(
            variant=variant,
            players=names,
            scoring=scoring,
            target=target,
            seed=seed,
            options=options,
            created_by=signed_in,
        )
        Seat.objects.filter(game=game, seat__gt=0).update(bot=True)
        seating.seal(game.pk)
        if signed_in is not None:
            Seat.objects.filter(game=game, seat=0).update(user=signed_in)
    return game, Seat.objects.get(game=game, seat=0)


# Which seats bots play is fixed when a game is created (start_quick_game marks them in the
# creating transaction, before any hook runs), so it is read once per game and process: the
# hook below runs after every append, and a query there would cost every game a round trip.
@cached(LRUCache(maxsize=10_000), key=lambda game_id: hashkey(str(game_id)), lock=Lock())
def bot_seats(game_id: UUID | str) -> frozenset[int]:
    """The seats of the game that bots play."""
    return frozenset(Seat.objects.filter(game_id=game_id, bot=True).values_list("seat", flat=True))


def next_bot_move(state: GameState, bots: frozenset[int], seed: str) -> tuple[int, Command] | None:
    """The command a bot sends now, or None when the game waits for a person (or is over).

    The seat the game waits for plays when it is a bot. Out of turn, a bot sometimes catches a
    player who forgot UNO or joins the UNO Spin race; that is rolled once per version, so a
    person who is waited for gets their chance. When no person can do anything, a bot must.
    """
    if state.finished or not bots:
        return None
    kind, pseat = state.pending
    roll = random.Random(f"{seed}:{state.version}")
    race = kind == "uno_spin"  # anyone holding a card may claim it, the spinner included
    for seat in sorted(bots):
        if seat == pseat and not race:
            continue
        out = [c for c in legal_commands(state, seat) if c.type in OUT_OF_TURN]
        if out and roll.random() < ALERT:
            return seat, out[roll.randrange(len(out))]
    if pseat in bots and not race:
        legal = legal_commands(state, pseat)
        if legal:
            return pseat, RandomBot(f"{seed}:{state.version}:{pseat}").choose(legal)
    humans = [seat for seat in range(state.players) if seat not in bots]
    if any(legal_commands(state, seat) for seat in humans):
        return None
    for seat in sorted(bots):
        legal = legal_commands(state, seat)
        if legal:
            return seat, RandomBot(f"{seed}:{state.version}:{seat}").choose(legal)
    return None


def play_bots(game_id: UUID | str) -> int:
    """Let the bot seats of the game act until a person must; the number of commands sent."""
    bots = bot_seats(game_id)
    sent = 0
    if not bots:
        return sent
    for _ in range(MAX_STEPS):
        state = services.load_game(game_id=game_id)
        move = next_bot_move(state, bots, str(game_id))
        if move is None:
            return sent
        seat, command = move
        try:
            services.apply_command(
                game_id=game_id,
                command=command,
                actor=services.seat_actor(seat),
                expected_version=state.version,
                key=f"bot:{state.version}:{seat}",
            )
        except Stale:
            continue  # a person acted meanwhile: look again
        except IllegalCommand:
            # Only a race lost to a person can get here (the command was legal when chosen).
            log.info("bot seat %s of %s: %s no longer legal", seat, game_id, command.type)
            continue
        sent += 1
    log.warning("bots of %s sent %s commands in one run and stopped", game_id, sent)
    return sent
