"""A demo club for newcomers: a league, a season of league nights played by the engine's bots
through the real services (so the event log, the standings and the ratings are real), and a
few score-sheet games recorded hand by hand; each night closed once played, and a player's
dispute about a Wild Draw 4 for a referee to rule on. ``manage.py seed_demo`` runs
``seed_demo``.
"""

from __future__ import annotations

import datetime
import random
import secrets
from collections.abc import Callable
from typing import Any
from uuid import UUID

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from games import services as game_services
from games.models import Event, Seat
from rules import GameState, legal_commands, step
from rules.bots import RandomBot
from tournaments.leagues import services
from tournaments.leagues.models import League, Season

DEMO_LEAGUE = "Demo Club"
DEMO_SEASON = "Demo season"
DEMO_ORGANISER = "demo-organiser"
DEMO_PLAYER = "demo-player"  # Ann's account
DEMO_PLAYERS = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]
OUT_OF_TURN = {"catch", "call_uno"}


def play_with_bots(
    game_id: UUID | str, *, seed: str, max_commands: int | None = None, catch_rate: float = 0.3
) -> int:
    """Play a game with a ``rules.bots.RandomBot`` at every seat, each command sent through
    ``games.services.apply_command`` as that seat, until it is over (or ``max_commands`` were
    sent). Now and then another seat catches a missed UNO first. Returns the commands sent."""
    state = game_services.load_game(game_id=game_id)
    bots = [RandomBot(f"{seed}:seat:{seat}") for seat in range(state.players)]
    rng = random.Random(f"{seed}:table")
    sent = 0
    while not state.finished and (max_commands is None or sent < max_commands):
        seat, command = _next_command(state, bots, rng, catch_rate)
        result = game_services.apply_command(
            game_id=game_id,
            command=command,
            actor=game_services.seat_actor(seat),
            expected_version=state.version,
        )
        # The engine is deterministic: stepping here gives the state the store appended.
        state, _ = step(state, command)
        assert state.version == result.version, "the bot's state drifted from the store's"
        sent += 1
    return sent


def _next_command(
    state: GameState, bots: list[RandomBot], rng: random.Random, catch_rate: float
) -> tuple[int, Any]:
    if rng.random() < catch_rate:
        for seat in rng.sample(range(state.players), state.players):
            options = [c for c in legal_commands(state, seat) if c.type in OUT_OF_TURN]
            if options:
                return seat, bots[seat].choose(options)
    seat = state.pending[1]
    return seat, bots[seat].choose(legal_commands(state, seat))


def record_random_hands(game_id: UUID | str, *, seed: str, actor: str) -> int:
    """Record score-sheet hands with made-up results (by points, sometimes by cards) until the
    game is over. Returns the hands recorded."""
    rng = random.Random(seed)
    state = game_services.load_game(game_id=game_id)
    n = state.players
    hands = 0
    while not state.finished:
        out = rng.randrange(n)
        others = [seat for seat in range(n) if seat != out]
        points = {str(seat): rng.randrange(0, 40) for seat in others}
        remaining = None
        if rng.random() < 0.3:
            first = str(others[0])
            del points[first]
            remaining = {first: rng.sample(["R7", "G2", "BS", "YD2", "W", "W4", "B9"], 2)}
        services.record_hand(
            game_id=game_id, out=out, points=points, remaining=remaining, actor=actor
        )
        state = game_services.load_game(game_id=game_id)
        hands += 1
    return hands


def demo_exists() -> bool:
    return League.objects.filter(name=DEMO_LEAGUE).exists()


def seed_demo(
    *, nights: int = 4, target: int = 150, log: Callable[[str], None] = lambda text: None
) -> Season | None:
    """Create the demo club unless it exists (then do nothing and return ``None``): a league,
    its organiser, a season of ``nights`` weekly nights with two bot tables of four each night,
    and a score-sheet table on every other night. The season plays to ``target`` (150: short
    games, so the first start stays quick; a club's league would play to 500)."""
    # One transaction: the demo is all there or not at all (a failed seed leaves nothing that
    # would make the next start skip it), and SQLite syncs its file once instead of per command.
    with transaction.atomic():
        if demo_exists():
            return None
        return _seed(nights=nights, target=target, log=log)


def demo_sign_ins() -> list[tuple[str, str, str]]:
    """Give the demo club's organiser and player accounts new random passwords, and return
    them as (who, user name, password), to be shown once. For development only: the caller
    checks (``manage.py seed_demo`` does it only with ``DEBUG`` on)."""
    users = get_user_model().objects
    out = []
    for who, username in (
        (f"organiser of {DEMO_LEAGUE}", DEMO_ORGANISER),
        (f"player ({DEMO_PLAYERS[0]})", DEMO_PLAYER),
    ):
        user = users.filter(username=username).first()
        if user is None:
            continue
        password = secrets.token_urlsafe(9)
        user.set_password(password)
        user.save(update_fields=["password"])
        out.append((who, username, password))
    return out


def _seed(*, nights: int, target: int, log: Callable[[str], None]) -> Season:
    # Both accounts start with no usable password: ``demo_sign_ins`` gives them one.
    users = get_user_model().objects
    organiser, _ = users.get_or_create(username=DEMO_ORGANISER, defaults={"first_name": "Olga"})
    player, _ = users.get_or_create(username=DEMO_PLAYER, defaults={"first_name": "Ann"})
    for user in (organiser, player):
        if user.has_usable_password():
            user.set_unusable_password()
            user.save(update_fields=["password"])
    league = services.open_league(name=DEMO_LEAGUE, created_by=organiser)
    season = services.open_season(league=league, name=DEMO_SEASON, target=target, by=organiser)
    players = [
        services.register_player(league=league, name=name, user=player if i == 0 else None)
        for i, name in enumerate(DEMO_PLAYERS)
    ]
    rng = random.Random("demo club")
    first = timezone.localdate() - datetime.timedelta(weeks=nights)
    for number in range(1, nights + 1):
        night = services.open_night(
            season=season, date=first + datetime.timedelta(weeks=number - 1)
        )
        seated = rng.sample(players, len(players))
        for table, group in enumerate((seated[:4], seated[4:])):
            # A game that counts draws its own seed; the bots' choices are seeded for the demo.
            game = services.start_season_game(
                season=season, players=group, night=night, created_by=organiser
            )
            commands = play_with_bots(game.pk, seed=f"demo:{number}:{table}")
            log(f"night {number}, table {table + 1}: {commands} commands played by bots")
        if number % 2 == 0:
            group = rng.sample(players, 3)
            game = services.start_season_game(
                season=season, players=group, night=night, created_by=organiser, sheet=True
            )
            hands = record_random_hands(
                game.pk,
                seed=f"demo:{number}:sheet",
                actor=game_services.user_actor(organiser),
            )
            log(f"night {number}, score sheet: {hands} hands recorded")
        # Every table is over: the night closes, and its page shows how the standings moved.
        services.close_night(night=night, by=organiser)
    _dispute_a_wild_draw_four(season)
    return season


def _dispute_a_wild_draw_four(season: Season) -> None:
    """A player disputes the season's first Wild Draw 4, so a referee has one to rule on (from
    the season page: the table's replay lists its disputes)."""
    played = (
        Event.objects.filter(game__season_id=season.pk, type="card_played", data__card="W4")
        .order_by("position")
        .first()
    )
    if played is None:
        return
    seat = int(played.actor.removeprefix("seat:")) if played.actor.startswith("seat:") else 0
    players = Seat.objects.filter(game_id=played.game_id).count()
    game_services.open_dispute(
        game_id=played.game_id,
        version=played.version,
        claim="I think they had a card of the colour in play when they played this Wild Draw 4.",
        by=game_services.seat_actor((seat + 1) % players),
    )
