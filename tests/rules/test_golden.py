"""Golden games: recorded games replayed, with their final state asserted (like chess perft).

A change to the engine that changes how a recorded classic game plays out fails here; if the
change is meant, record the games again with tests/rules/golden/record.py and say why.
"""

import json
import pathlib

import pytest

from rules.commands import command_from_dict
from rules.engine import new_game, replay, step
from rules.events import event_from_dict

GOLDEN = sorted((pathlib.Path(__file__).parent / "golden").glob("*.json"))


@pytest.fixture(params=GOLDEN, ids=lambda p: p.stem)
def golden(request):
    return json.loads(request.param.read_text())


def test_replaying_the_recorded_events_reaches_the_recorded_end(golden):
    state = replay([event_from_dict(e) for e in golden["events"]])
    final = golden["final"]
    assert state.finished
    assert state.version == final["version"]
    assert list(state.scores) == final["scores"]
    assert list(state.hands_won) == final["hands_won"]
    assert state.winner == final["winner"]
    assert list(state.placings) == final["placings"] and list(state.ranks) == final["ranks"]


def test_sending_the_recorded_commands_again_decides_the_same_events(golden):
    state, events = new_game(**golden["settings"])
    for sent in golden["commands"]:
        state, new = step(state, command_from_dict(sent["by"], sent["command"]))
        events += new
    assert [e.to_dict() for e in events] == golden["events"]
