"""UNO Spin in the engine: snapshots of the edition state, the legal list in its API shape,
what each seat sees, and simulations with zero problems at every table size."""

import json

import pytest

from rules.commands import command_from_dict
from rules.engine import legal_commands, step
from rules.simulate import run
from rules.state import GameState
from rules.variants import get_variant
from rules.variants.spin.commands import SpinWheel, WheelKeep
from rules.variants.spin.events import SpinState
from rules.variants.spin.variant import WHEEL
from rules.views import game_view

from .helpers import play
from .spin_helpers import at_spin, spun, stop_wheel_on, with_hands


def snapshot(state):
    return GameState.from_dict(json.loads(json.dumps(state.to_dict())))


def test_the_edition_state_round_trips_through_a_snapshot():
    state = at_spin()
    state.extra = SpinState(out=1, war=(9, 7), show=(2, 0), uno=(0, 3), uno_until=3)
    assert snapshot(state) == state


@pytest.mark.parametrize("segment", WHEEL)
def test_every_wheel_state_round_trips_through_a_snapshot(monkeypatch, segment):
    state, _ = spun(monkeypatch, segment)
    assert snapshot(state) == state
    assert get_variant("spin").invariants(state) == []


def test_a_traded_hand_uno_window_round_trips_through_a_snapshot(monkeypatch):
    stop_wheel_on(monkeypatch, "trade_hands")
    state = with_hands(at_spin(players=4), seat1=("B9",), seat3=("Y9",))
    state, _ = step(state, SpinWheel(2))
    assert state.extra.uno == (2,)
    assert snapshot(state) == state


@pytest.mark.parametrize(
    "segment", ["almost_uno", "almost_uno_top", "discard_number", "discard_colour", "war"]
)
def test_every_legal_wheel_command_round_trips_through_its_api_shape(monkeypatch, segment):
    hand = ["B1", "G2", "Y5", "B5", "R5~", "W", "GD2"]
    if segment == "almost_uno_top":
        state, _ = spun(monkeypatch, "almost_uno", hands={2: hand})
        state, _ = step(state, WheelKeep(2, ("B5", "R5~")))
    else:
        state, _ = spun(monkeypatch, segment, hands={2: hand})
    seat = state.pending[1]
    commands = legal_commands(state, seat)
    assert commands
    for cmd in commands:
        assert command_from_dict(seat, json.loads(json.dumps(cmd.to_dict()))) == cmd


def test_every_legal_wheel_command_is_accepted(monkeypatch):
    state, _ = spun(
        monkeypatch, "almost_uno", hands={2: ["B1", "G2", "Y5", "B5", "R5~", "W", "GD2"]}
    )
    for cmd in legal_commands(state, 2):
        kept, _ = play(state, cmd)
        for then in legal_commands(kept, 2):
            play(kept, then)


def test_the_table_view_tells_what_the_wheel_waits_for(monkeypatch):
    state, _ = spun(monkeypatch, "war")
    view = game_view(state, 0)
    assert view["pending"]["type"] == "war_discard"
    assert view["edition"]["war_numbers"] == list(state.extra.war)


@pytest.mark.parametrize("players", [2, 3, 4, 6, 10])
def test_random_hands_at_every_table_size_break_no_rule(players):
    report = run("spin", players, "spin-test", hands=60)
    assert report.hands == 60
    assert (
        report.invariant_violations,
        report.replay_mismatches,
        report.rejected_legal_commands,
    ) == (0, 0, 0)


@pytest.mark.parametrize("scoring,target", [("standard", 250), ("alternative", 250), ("none", 500)])
def test_whole_games_to_250_or_without_scoring_break_no_rule(scoring, target):
    report = run("spin", 3, "spin-games", games=3, scoring=scoring, target=target)
    assert report.games == 3
    assert (
        report.invariant_violations,
        report.replay_mismatches,
        report.rejected_legal_commands,
    ) == (0, 0, 0)
    if scoring == "none":
        assert report.hands == 3
