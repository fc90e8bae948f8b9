"""Bots that play by choosing among ``legal_commands``: for the simulator, tests and quick games.

A bot has its own seeded generator, so a simulation with the same seed plays the same game.
The random bot mostly plays a card when it can, sometimes draws instead, bluffs a Wild Draw 4
when it holds one (the legal list offers it), challenges about half the time, forgets UNO about
half the time and catches others when it notices.
"""

from __future__ import annotations

from random import Random  # seeded instances only: never the module-level generator

from rules.commands import Command


class RandomBot:
    """Chooses among the legal commands of a seat at random, with a preference for playing."""

    def __init__(self, seed: object, *, play_bias: float = 0.9, alert: float = 0.5) -> None:
        self.rng = Random(str(seed))
        self.play_bias = play_bias
        self.alert = alert  # how often the bot acts out of turn when it may (catch, slap, claim)

    def choose(self, commands: list[Command]) -> Command:
        """One of ``commands``. Plays come first in a legal list, each card's options (wild
        colours, UNO or not) side by side: the bot picks a card, then one of its options, so
        a wild's many options do not make it play wilds more often than other cards."""
        rng = self.rng
        n = len(commands)
        if n == 1:
            return commands[0]
        starts = []
        last = None
        k = 0
        for k, cmd in enumerate(commands):
            if cmd.type != "play":
                break
            card = cmd.card  # type: ignore[attr-defined]
            if card != last:
                starts.append(k)
                last = card
        else:
            k = n
        if starts and (k == n or rng.random() < self.play_bias):
            i = rng.randrange(len(starts))
            lo = starts[i]
            hi = starts[i + 1] if i + 1 < len(starts) else k
            return commands[lo] if hi - lo == 1 else commands[rng.randrange(lo, hi)]
        for i in range(k, n):
            if commands[i].bot_rate < 1.0:
                rest = self.usual(commands[k:]) or commands[k:]
                return rest[rng.randrange(len(rest))]
        return commands[rng.randrange(k, n)]

    def usual(self, commands: list[Command]) -> list[Command]:
        """``commands`` without the kinds a bot sends only now and then (``bot_rate`` below 1,
        such as a VETO slap), each such kind kept with its rate. The generator is used only
        when there is such a kind, so other games play exactly as before."""
        rates = {c.type: c.bot_rate for c in commands if c.bot_rate < 1.0}
        if not rates:
            return commands
        drop = {kind for kind, rate in rates.items() if self.rng.random() >= rate}
        return [c for c in commands if c.type not in drop] if drop else commands
