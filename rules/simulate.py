"""Play hands or whole games between random bots, checking the engine as it goes.

    python -m rules.simulate --variant classic --players 4 --hands 1000 --seed 7 --json

By default every event is followed by invariant checks (no card created or lost, the edition's
own checks) and every hand is replayed from its events and compared with the state the
decisions built. ``--fast`` skips the checks to measure speed. ``digest`` is a SHA-256 of every
event in order: the same seed gives the same digest on every run and machine.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from collections import Counter
from dataclasses import dataclass, field, fields
from operator import attrgetter
from random import Random  # seeded instances only: never the module-level generator
from typing import Any

from rules.bots import RandomBot
from rules.commands import COMMAND_TYPES, Command
from rules.engine import legal_commands, new_game, replay, step
from rules.errors import RuleError
from rules.events import Event
from rules.pending import Pending
from rules.state import GameState
from rules.variants import get_variant, variant_names

_GETTERS: dict[type, Any] = {}


def _values(event: Event) -> tuple[Any, ...]:
    getter = _GETTERS.get(type(event))
    if getter is None:
        names = [f.name for f in fields(event)]
        getter = _GETTERS[type(event)] = (
            (lambda e, g=attrgetter(*names): (e.type, g(e))) if names else (lambda e: (e.type,))
        )
    return getter(event)


def seat_order(gen: Random, players: int) -> list[int]:
    """The seats in a random order: what ``gen.sample(range(players), players)`` gives,
    drawing the same bits from the generator (so games and digests are the same), without
    its checks of the population on every call (a VETO hand looks out of turn about 20
    times)."""
    pool = list(range(players))
    order = []
    getrandbits = gen.getrandbits
    for left in range(players, 0, -1):
        k = left.bit_length()
        j = getrandbits(k)
        while j >= left:  # rejection sampling, as ``random.Random._randbelow`` does
            j = getrandbits(k)
        order.append(pool[j])
        pool[j] = pool[left - 1]  # the seat not chosen moves into the gap
    return order


# How often the other seats look at out-of-turn commands that are open all the time and sent
# rarely (``Variant.out_of_turn_rare``): checking every seat at every step would cost more
# than the rest of the step.
RARE_LOOK = 0.1
# How likely each other seat is to notice when it may act out of turn.
NOTICE = 0.35


@dataclass
class Report:
    variant: str
    players: int
    seed: str
    hands: int = 0
    games: int = 0
    events: int = 0
    commands: int = 0
    seconds: float = 0.0
    invariant_violations: int = 0
    replay_mismatches: int = 0
    rejected_legal_commands: int = 0
    checks: bool = True
    problems: list[str] = field(default_factory=list)
    digest: str = ""

    def as_dict(self) -> dict[str, Any]:
        seconds = self.seconds or 1e-9
        return {
            "variant": self.variant,
            "players": self.players,
            "hands": self.hands,
            "games": self.games,
            "seed": self.seed,
            "events": self.events,
            "commands": self.commands,
            "seconds": round(self.seconds, 4),
            "hands_per_second": round(self.hands / seconds, 1),
            "events_per_second": round(self.events / seconds, 1),
            "invariant_violations": self.invariant_violations,
            "replay_mismatches": self.replay_mismatches,
            "rejected_legal_commands": self.rejected_legal_commands,
            "checks": self.checks,
            "digest": self.digest,
            "problems": self.problems[:10],
        }


class Simulation:
    """Drives one game at a time with a bot per seat."""

    def __init__(
        self,
        variant: str,
        players: int,
        seed: str,
        *,
        checks: bool = True,
        options: dict[str, Any] | None = None,
    ):
        self.variant = get_variant(variant)
        self.players = players
        self.seed = seed
        self.checks = checks
        self.options = options or {}
        self.report = Report(variant, players, seed, checks=checks)
        self._hash = hashlib.sha256()
        self._deck = Counter(self.variant.deck)
        # The out-of-turn kinds bots send only now and then (a VETO slap), with their rates.
        self._rare_rates = [
            (kind, COMMAND_TYPES[kind].bot_rate)
            for kind in sorted(self.variant.out_of_turn_types)
            if COMMAND_TYPES[kind].bot_rate < 1.0
        ]

    def problem(self, text: str) -> None:
        if len(self.report.problems) < 50:
            self.report.problems.append(text)

    def _record(self, events: list[Event]) -> None:
        # Each event as (type, field values...): only strings, numbers, booleans, None and
        # tuples, whose repr is stable across runs, machines and Python versions.
        self._hash.update(repr([_values(e) for e in events]).encode())
        self.report.events += len(events)

    def check_state(self, s: GameState, where: str) -> None:
        if s.hand_number == 0 or s.pending[0] == Pending.START:
            return
        cards = Counter(s.all_cards())
        if cards != self._deck:
            self.report.invariant_violations += 1
            extra, missing = cards - self._deck, self._deck - cards
            self.problem(f"{where}: cards created {dict(extra)} lost {dict(missing)}")
        for text in self.variant.invariants(s):
            self.report.invariant_violations += 1
            self.problem(f"{where}: {text}")
        for part, text, _ in self.variant.unreachable(s):
            self.report.invariant_violations += 1
            self.problem(f"{where}: {part}: {text}")

    def out_of_turn(self, state: GameState, bots: list[RandomBot], rare: bool) -> Command | None:
        """Other seats get a chance to act first (catch a missed UNO, slap the VETO): in a
        random order, each notices with the chance ``NOTICE`` and sends one of its out-of-turn
        commands, a kind bots send only now and then kept with its rate (as ``RandomBot.usual``
        keeps it). ``rare``: only such kinds are open; a seat then draws first which of them
        it would send, and lists its commands only if it would send one. The draws are the
        ones ``usual`` makes, so the bots choose the same, without listing every seat's
        commands at every look."""
        out_types = self.variant.out_of_turn_types
        for seat in seat_order(bots[0].rng, self.players):
            bot = bots[seat]
            if bot.rng.random() >= NOTICE:
                continue
            if rare:
                kinds = {kind for kind, rate in self._rare_rates if bot.rng.random() < rate}
                if not kinds:
                    continue
                options = [c for c in legal_commands(state, seat) if c.type in kinds]
            else:
                options = [c for c in legal_commands(state, seat) if c.type in out_types]
                options = bot.usual(options)
            if options:
                return bot.rng.choice(options)
        return None

    def play(self, *, target: int, scoring: str, game_seed: str, max_hands: int | None) -> None:
        """Play one game until it ends or ``max_hands`` hands have been played."""
        state, events = new_game(
            variant=self.variant.name,
            players=self.players,
            scoring=scoring,
            target=target,
            seed=game_seed,
            options=self.options,
        )
        self._record(events)
        self._deck = Counter(self.variant.deck_for(state.options))  # options may change the deck
        bots = [RandomBot(f"{game_seed}:bot:{seat}") for seat in range(self.players)]
        checks = self.checks
        variant = self.variant
        hand_start = state
        hand_events: list[Event] = []
        hands = 0
        last_hand = state.last_hand
        report = self.report
        while state.pending[0] != Pending.OVER:
            kind, pseat = state.pending
            command = None
            if variant.out_of_turn_open(state):
                rare = variant.out_of_turn_rare(state)
                if not rare or bots[0].rng.random() < RARE_LOOK:
                    command = self.out_of_turn(state, bots, rare)
            if command is None:
                options = legal_commands(state, pseat)
                if not options:
                    report.invariant_violations += 1
                    self.problem(
                        f"v{state.version}: seat {pseat} has no legal command while {kind}"
                    )
                    return
                command = bots[pseat].choose(options)
            try:
                state, events = step(state, command)
            except RuleError as exc:
                report.rejected_legal_commands += 1
                self.problem(f"v{state.version}: legal command {command} rejected: {exc}")
                return
            report.commands += 1
            self._record(events)
            if checks:
                hand_events.extend(events)
                self.check_state(state, f"v{state.version}")
            if state.last_hand is not last_hand:  # a hand ended
                last_hand = state.last_hand
                hands += 1
                report.hands += 1
                if checks:
                    replayed = replay(hand_events, hand_start)
                    if replayed != state:
                        report.replay_mismatches += 1
                        self.problem(
                            f"hand {state.hand_number}: replay differs from the decided state"
                        )
                    hand_start, hand_events = state, []
                if max_hands is not None and hands >= max_hands:
                    return
        report.games += 1


def run(
    variant: str,
    players: int,
    seed: str,
    *,
    hands: int | None = None,
    games: int | None = None,
    checks: bool = True,
    target: int = 500,
    scoring: str = "standard",
    options: dict[str, Any] | None = None,
) -> Report:
    sim = Simulation(variant, players, seed, checks=checks, options=options)
    started = time.perf_counter()
    if games:
        for i in range(games):
            sim.play(target=target, scoring=scoring, game_seed=f"{seed}:game:{i}", max_hands=None)
    else:
        remaining = hands if hands is not None else 100
        i = 0
        while remaining > 0:
            # One long game that never reaches its target: hands follow each other with the
            # dealer moving on, as at a real table.
            before = sim.report.hands
            sim.play(
                target=10**9, scoring="standard", game_seed=f"{seed}:game:{i}", max_hands=remaining
            )
            played = sim.report.hands - before
            if played == 0:
                break
            remaining -= played
            i += 1
    sim.report.seconds = time.perf_counter() - started
    sim.report.digest = sim._hash.hexdigest()
    return sim.report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m rules.simulate", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--variant", default="classic", choices=variant_names())
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--hands", type=int, default=None, help="hands to play (default 100)")
    parser.add_argument(
        "--games", type=int, default=None, help="play whole games to the target instead"
    )
    parser.add_argument("--seed", default="1")
    parser.add_argument("--target", type=int, default=500)
    parser.add_argument(
        "--scoring", default="standard", choices=("standard", "alternative", "none")
    )
    parser.add_argument(
        "--option", action="append", default=[], metavar="NAME=JSON", help="an edition option"
    )
    parser.add_argument("--fast", action="store_true", help="skip invariant and replay checks")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    if not 2 <= args.players <= 10:
        parser.error("--players must be 2 to 10")
    options = {}
    for item in args.option:
        name, _, value = item.partition("=")
        try:
            options[name] = json.loads(value)
        except json.JSONDecodeError:
            options[name] = value
    report = run(
        args.variant,
        args.players,
        str(args.seed),
        hands=args.hands,
        games=args.games,
        checks=not args.fast,
        target=args.target,
        scoring=args.scoring,
        options=options,
    )
    out = report.as_dict()
    if args.json:
        print(json.dumps(out))
    else:
        for key, value in out.items():
            print(f"{key:>24}: {value}")
    bad = out["invariant_violations"] or out["replay_mismatches"] or out["rejected_legal_commands"]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
