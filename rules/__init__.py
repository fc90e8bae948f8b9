"""A pure rules engine for classic UNO and its official editions.

``decide(state, command) -> events`` and ``evolve(state, event) -> state``; replay is a fold.
No Django, no I/O, no clock, no global random: chance is seeded per game and recorded in events.
"""

import rules.sheet  # noqa: F401  (registers the score sheet's command and event)
from rules.commands import Command, command_from_dict
from rules.engine import (
    ENGINE_VERSION,
    at_rest,
    decide,
    evolve,
    legal_commands,
    new_game,
    replay,
    step,
)
from rules.errors import IllegalCommand, InvalidCard, InvalidCommand, RuleError
from rules.events import Event, event_from_dict
from rules.pending import Pending
from rules.position import PositionError, format_position, parse_position, start_from
from rules.state import GameState

__all__ = [
    "ENGINE_VERSION",
    "Command",
    "Event",
    "GameState",
    "IllegalCommand",
    "InvalidCard",
    "InvalidCommand",
    "Pending",
    "PositionError",
    "RuleError",
    "at_rest",
    "command_from_dict",
    "decide",
    "event_from_dict",
    "evolve",
    "format_position",
    "legal_commands",
    "new_game",
    "parse_position",
    "replay",
    "start_from",
    "step",
]
