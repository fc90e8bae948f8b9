"""UNO VETO in the engine: legal lists, the simulator, snapshots, views and invariants."""

import json
from collections import Counter

import pytest

from rules.bots import RandomBot
from rules.commands import command_from_dict
from rules.engine import legal_commands, new_game, replay, step
from rules.simulate import Simulation, run
from rules.state import GameState
from rules.variants import get_variant
from rules.variants.veto.commands import SlapVeto
from rules.views import game_view

from .veto_helpers import table

VETO = get_variant("veto")

RULE_SETS = [
    ["draw_until_colour", "discard_wilds", "three_if_stuck"],
    ["extra_turn", "seven_cards", "three_cards"],
    ["face_up", "joke", "rooster"],
    ["elbows", "text:Sing", "blank"],
]


def walk(rules, players, seed, steps):
    """Play ``steps`` commands with random bots; yield every state on the way."""
    state, _ = new_game(variant="veto", players=players, seed=seed, options={"customizable": rules})
    bots = [RandomBot(f"{seed}:{seat}") for seat in range(players)]
    for _ in range(steps):
        if state.pending[0] == "over":
            return
        yield state
        seat = state.pending[1]
        state, _ = step(state, bots[seat].choose(legal_commands(state, seat)))


@pytest.mark.parametrize("rules", RULE_SETS)
def test_every_legal_command_round_trips_through_the_api_shape(rules):
    for state in walk(rules, 4, "api", 400):
        for seat in range(4):
            for command in legal_commands(state, seat):
                assert command_from_dict(seat, json.loads(json.dumps(command.to_dict()))) == command


@pytest.mark.parametrize("rules", RULE_SETS)
@pytest.mark.parametrize("players", [2, 3, 6])
def test_simulated_hands_keep_every_invariant_and_replay(rules, players):
    report = run("veto", players, "t", hands=25, options={"customizable": rules})
    assert report.hands == 25
    assert (
        report.invariant_violations,
        report.replay_mismatches,
        report.rejected_legal_commands,
    ) == (0, 0, 0)


def test_every_house_rule_is_reached_in_simulation():
    seen = Counter()
    for rules in RULE_SETS:
        sim = Simulation("veto", 4, "reach", options={"customizable": rules})
        record = sim._record

        def counting(events, record=record):
            for e in events:
                if e.type == "customizable_played":
                    seen[e.rule] += 1
                seen[e.type] += 1
            record(events)

        sim._record = counting
        sim.play(target=10**9, scoring="standard", game_seed="reach", max_hands=40)
    rules = {r for rs in RULE_SETS for r in rs}
    assert all(seen[r] for r in rules), {r: seen[r] for r in rules}
    for kind in (
        "colour_named",
        "cards_discarded",
        "stuck_checked",
        "hands_shown",
        "joke_reported",
        "rooster_reported",
        "veto_slapped",
        "veto_served",
    ):
        assert seen[kind], kind


def test_bots_slap_the_veto_now_and_then_but_rarely():
    sim = Simulation("veto", 4, "slaps")
    counts = Counter()
    record = sim._record

    def counting(events):
        counts.update(e.type for e in events)
        record(events)

    sim._record = counting
    sim.play(target=10**9, scoring="standard", game_seed="slaps", max_hands=100)
    assert 0 < counts["veto_slapped"] < 4 * 100
    assert counts["veto_slapped"] < counts["turn_began"] / 10


def test_a_snapshot_taken_in_play_restores_the_same_state():
    for state in walk(RULE_SETS[0], 3, "snap", 300):
        again = GameState.from_dict(json.loads(json.dumps(state.to_dict())))
        assert again == state


def test_a_game_replays_from_its_events():
    state, events = new_game(
        variant="veto", players=3, seed="rp", options={"customizable": RULE_SETS[2]}
    )
    bots = [RandomBot(f"rp:{seat}") for seat in range(3)]
    for _ in range(300):
        seat = state.pending[1]
        state, more = step(state, bots[seat].choose(legal_commands(state, seat)))
        events += more
    assert replay(events) == state


def test_the_view_shows_where_the_veto_is_and_the_house_rules():
    state, _ = step(table(["joke", "text:Hop"]), SlapVeto(0, 2))
    edition = game_view(state, 1)["edition"]
    assert edition["veto_on"] == 2
    assert edition["house_rules"][1] == {"rule": "text:Hop", "text": "Hop"}


def test_the_invariants_notice_a_customizable_card_without_its_house_rule():
    state = table(["joke", "rooster"], hands={1: ["WC", "WC"]})
    assert VETO.invariants(state) == []
    broken = state.copy()
    hands = list(broken.hands)
    hands[1] = tuple(c for c in hands[1] if c != "WC") + ("P9", "P9")
    broken.hands = tuple(hands)
    assert any("holds 0 WC but 2 house rules" in text for text in VETO.invariants(broken))


def test_the_invariants_notice_hands_face_up_without_the_rule():
    broken = table().copy()
    broken.shown = frozenset({0, 1, 2})
    assert VETO.invariants(broken) == [
        "hands face up without a face-up rule, or the other way round"
    ]


def test_a_score_sheet_checks_the_cards_against_the_games_deck():
    from rules.commands import command_from_dict
    from rules.errors import InvalidCommand

    state, _ = new_game(
        variant="veto", players=3, seed="s", sheet=True, options={"customizable": ["joke"]}
    )
    sheet = {"type": "record_hand", "out": 2, "remaining": {"0": ["WC", "WC"], "1": ["P2"]}}
    with pytest.raises(InvalidCommand, match="2 copies of WC, but a UNO VETO deck has 1"):
        step(state, command_from_dict(None, sheet))
    sheet["remaining"]["0"] = ["WC"]
    state, events = step(state, command_from_dict(None, sheet))
    assert state.scores == (0, 0, 42)
