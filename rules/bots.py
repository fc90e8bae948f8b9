"""Bots that play by choosing among ``legal_commands``: for the simulator, tests and quick games.

A bot has its own seeded generator, so a simulation with the same seed plays the same game.
The random bot mostly plays a card when it can, sometimes draws instead, bluffs a Wild Draw 4
when it holds one (the legal list offers it), challenges about half the time, forgets UNO about
half the time and catches others when it notices.
"""

from __future__ import annotations

import random

from rules.commands import Command


class RandomBot:
    """Chooses among the legal commands of a seat at random, with a preference for playing."""

    def __init__(self, seed: object, *, play_bias: float = 0.9, alert: float = 0.5) -> None:
        self.rng = random.Random(str(seed))
        self.play_bias = play_bias
        self.alert = alert  # how often the bot acts out of turn when it may (catch, slap, claim)

    def choose(self, commands: list[Command]) -> Command:
        """One of ``commands``: grouped by what is done (a card, a draw, ...) so that a wild's
        many colour options do not crowd out other choices, then an option of the group."""
        rng = self.rng
        plays: dict[object, list[Command]] = {}
        others: dict[object, list[Command]] = {}
        for cmd in commands:
            key = (cmd.type, getattr(cmd, "card", None))
            (plays if cmd.type == "play" else others).setdefault(key, []).append(cmd)
        if plays and (not others or rng.random() < self.play_bias):
            group = rng.choice(list(plays.values()))
        else:
            group = rng.choice(list(others.values()))
        return group[0] if len(group) == 1 else rng.choice(group)
