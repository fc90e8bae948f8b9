"""UNO Spin over many random games: no card created or lost, the edition's invariants hold,
replay gives the same state, snapshots and events round-trip, every legal command (the wheel's
choices and races included) is accepted, and no seat is shown another seat's traded hand."""

import json
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.bots import RandomBot
from rules.engine import legal_commands, new_game, replay, step
from rules.events import event_from_dict
from rules.state import GameState
from rules.variants import get_variant
from rules.variants.spin.events import HandsTraded

SPIN = get_variant("spin")

games = st.fixed_dictionaries(
    {
        "players": st.integers(min_value=2, max_value=10),
        "seed": st.text(min_size=1, max_size=12),
        "scoring": st.sampled_from(["standard", "alternative", "none"]),
        "target": st.sampled_from([100, 250, 500]),
        "steps": st.integers(min_value=1, max_value=400),
    }
)


def play_out(players, seed, scoring, target, steps):
    state, events = new_game(
        variant="spin", players=players, seed=seed, scoring=scoring, target=target
    )
    bots = [RandomBot(f"{seed}/{seat}") for seat in range(players)]
    states = [state]
    for i in range(steps):
        if state.finished:
            break
        # Now and then another seat acts out of turn (a catch, a late UNO, a claim).
        seat = state.pending[1]
        if SPIN.out_of_turn_open(state) and i % 3 == 0:
            other = bots[seat].rng.randrange(players)
            options = [c for c in legal_commands(state, other) if c.type in SPIN.out_of_turn_types]
            command = bots[other].choose(options) if options else None
        else:
            command = None
        if command is None:
            command = bots[seat].choose(legal_commands(state, seat))
        state, new = step(state, command)
        events += new
        states.append(state)
    return state, events, states


@settings(max_examples=40, deadline=None)
@given(games)
def test_no_card_is_created_or_lost_and_the_edition_invariants_hold(game):
    _, _, states = play_out(**game)
    deck = Counter(SPIN.deck)
    for s in states:
        assert Counter(s.all_cards()) == deck
        assert SPIN.invariants(s) == []


@settings(max_examples=40, deadline=None)
@given(games)
def test_replaying_the_events_gives_the_state_the_decisions_built(game):
    state, events, _ = play_out(**game)
    assert replay(events) == state


@settings(max_examples=25, deadline=None)
@given(games)
def test_snapshots_and_events_round_trip_through_json(game):
    state, events, _ = play_out(**game)
    assert GameState.from_dict(json.loads(json.dumps(state.to_dict()))) == state
    for event in events:
        assert event_from_dict(json.loads(json.dumps(event.to_dict()))) == event


@settings(max_examples=25, deadline=None)
@given(games)
def test_every_command_listed_as_legal_is_accepted(game):
    _, _, states = play_out(**game)
    for s in states[-6:]:
        for seat in range(s.players):
            for command in legal_commands(s, seat)[:200]:
                step(s, command)


@settings(max_examples=25, deadline=None)
@given(games)
def test_a_traded_hand_is_shown_only_to_the_seat_that_receives_it(game):
    _, events, _ = play_out(**game)
    for event in events:
        if type(event) is HandsTraded:
            for viewer in range(len(event.hands)):
                hands = event.redacted(viewer)["hands"]
                assert [h is not None for h in hands] == [
                    seat == viewer for seat in range(len(hands))
                ]
