"""UNO Power Grab in the engine: snapshots, the API shape of its commands, what seats see, the
edition's invariants, and whole simulated hands played by the random bots."""

import json
from collections import Counter

import pytest

import rules.simulate as simulate
from rules.commands import PlayCard, command_from_dict
from rules.engine import legal_commands, step
from rules.errors import InvalidCommand
from rules.events import event_from_dict
from rules.simulate import run
from rules.state import GameState
from rules.variants import get_variant
from rules.variants.power_grab.commands import Block, ClaimInstantUno, PowerGrabPlay, Take
from rules.variants.power_grab.events import PowerGrabState
from rules.views import game_view
from tests.rules.helpers import play

from .power_grab_helpers import table

PG = get_variant("power_grab")


def test_the_edition_state_round_trips_through_a_snapshot():
    state = table({1: ["RD1"]}, towers={"U": 2, "O": 0})
    state, _ = play(state, PlayCard(1, "RD1"))
    assert state.extra == PowerGrabState((2, None, 0, None), ("RD1", 1, False))
    again = GameState.from_dict(json.loads(json.dumps(state.to_dict())))
    assert again == state
    assert again.extra == state.extra


def test_the_edition_commands_round_trip_through_the_api_shape():
    for command in (
        Block(2),
        Take(0),
        ClaimInstantUno(1, "R5:U", uno=True),
        PowerGrabPlay(1, "RG2", towers=("U", "!")),
    ):
        assert command_from_dict(command.seat, json.loads(json.dumps(command.to_dict()))) == command
    assert ClaimInstantUno(1, "B2").to_dict() == {"type": "keep", "card": "B2"}


def test_a_keep_command_needs_a_card():
    with pytest.raises(InvalidCommand, match="card is required for a 'keep' command"):
        command_from_dict(1, {"type": "keep"})


def test_the_edition_events_round_trip_through_their_stored_shape():
    state = table({1: ["R8:!", "B2"]}, towers={"U": 1, "N": 1, "O": 1})
    state, played = play(state, PlayCard(1, "R8:!"))
    state, kept = play(state, ClaimInstantUno(1, "B2", uno=False))
    for e in played + kept:
        assert event_from_dict(json.loads(json.dumps(e.to_dict()))) == e


def test_every_seat_sees_who_holds_each_tower_and_what_may_be_blocked():
    state = table({1: ["RD1"]}, towers={"U": 2})
    state, _ = play(state, PlayCard(1, "RD1"))
    view = game_view(state, 0)
    assert view["edition"] == {
        "towers": {"U": 2, "N": None, "O": None, "!": None},
        "threat": {"card": "RD1", "by": 1, "last_card": False},
    }
    assert game_view(state, 2)["legal"] == [{"type": "block"}, {"type": "take"}]


def test_the_invariants_catch_a_block_offered_to_a_seat_without_the_tower():
    state = table({1: ["RD1"]}, towers={"U": 2})
    state, _ = play(state, PlayCard(1, "RD1"))
    assert PG.invariants(state) == []
    wrong = state.copy()
    wrong.extra = PowerGrabState((0, None, None, None), state.extra.threat)
    assert PG.invariants(wrong) == ["seat 2 may block RD1 without the tower"]


def test_the_invariants_catch_a_tower_held_by_a_seat_not_at_the_table():
    state = table({})
    state.extra = PowerGrabState((None, 7, None, None))
    assert PG.invariants(state) == ["the N tower is held by seat 7, not at this table"]


def bot_commands(players, hands, seed="pg"):
    """Every command the random bots send in ``hands`` hands, with the state it was sent in."""
    seen = []
    real_step = simulate.step

    def recording_step(state, command):
        seen.append((state, command))
        return real_step(state, command)

    simulate.step = recording_step
    try:
        report = run("power_grab", players, seed, hands=hands)
    finally:
        simulate.step = real_step
    return report, seen


@pytest.mark.parametrize("players", [2, 3, 4, 6, 10])
def test_simulated_hands_break_no_invariant_and_replay_identically(players):
    report = run("power_grab", players, "tests", hands=60)
    assert report.hands == 60
    assert (
        report.invariant_violations,
        report.replay_mismatches,
        report.rejected_legal_commands,
    ) == (0, 0, 0)
    assert report.problems == []


def test_simulated_whole_games_reach_the_target():
    report = run("power_grab", 4, "tests", games=2)
    assert report.games == 2
    assert (
        report.invariant_violations,
        report.replay_mismatches,
        report.rejected_legal_commands,
    ) == (0, 0, 0)


def test_the_bots_use_every_command_of_the_edition():
    _, seen = bot_commands(4, 250)
    kinds = Counter()
    for state, command in seen:
        kind = command.type
        if kind == "block":
            kind += " " + (state.extra.threat[0][1:] if state.extra.threat else "W4")
        elif kind == "take":
            kind += " " + state.extra.threat[0][1:]
        elif isinstance(command, PowerGrabPlay):
            previous = {state.extra.towers["UNO!".index(t)] for t in command.towers}
            kind += " grabbing from " + ("others" if previous - {None} else "the unclaimed spot")
        elif kind in ("challenge", "accept") and state.extra.towers[2] == command.seat:
            kind += " holding O"
        kinds[kind] += 1
    expected = {
        "block D1",
        "block D2",
        "block S",
        "block W4",
        "take D1",
        "take D2",
        "take S",
        "keep",
        "challenge holding O",
        "accept holding O",
        "play grabbing from others",
        "play grabbing from the unclaimed spot",
    }
    assert expected <= set(kinds), sorted(expected - set(kinds))


def test_every_legal_command_is_accepted_and_round_trips_through_the_api_shape():
    _, seen = bot_commands(3, 12, seed="legal")
    checked = Counter()
    for state, _ in seen[::2]:
        for seat in range(state.players):
            for command in legal_commands(state, seat):
                assert command_from_dict(seat, json.loads(json.dumps(command.to_dict()))) == command
                step(state, command)  # raises if a listed command is refused
                checked[command.type] += 1
    assert {"play", "draw", "block", "take", "keep"} <= set(checked)
