"""Properties over many random games: no card is created or lost, replay gives the same
state, evolve never changes its input, snapshots round-trip, and every legal command is
accepted."""

import json
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.bots import RandomBot
from rules.engine import evolve, legal_commands, new_game, replay, step
from rules.state import GameState
from rules.variants import get_variant

games = st.fixed_dictionaries(
    {
        "players": st.integers(min_value=2, max_value=10),
        "seed": st.text(min_size=1, max_size=12),
        "scoring": st.sampled_from(["standard", "alternative", "none"]),
        "target": st.sampled_from([50, 150, 500]),
        "steps": st.integers(min_value=1, max_value=400),
    }
)


def play_out(players, seed, scoring, target, steps):
    state, events = new_game(players=players, seed=seed, scoring=scoring, target=target)
    bots = [RandomBot(f"{seed}/{seat}") for seat in range(players)]
    states = [state]
    for _ in range(steps):
        if state.finished:
            break
        kind, seat = state.pending
        command = bots[seat].choose(legal_commands(state, seat))
        state, new = step(state, command)
        events += new
        states.append(state)
    return state, events, states


@settings(max_examples=60, deadline=None)
@given(games)
def test_no_card_is_ever_created_or_lost(game):
    state, events, states = play_out(**game)
    deck = Counter(get_variant("classic").deck)
    for s in states:
        assert Counter(s.all_cards()) == deck


@settings(max_examples=60, deadline=None)
@given(games)
def test_replaying_the_events_gives_the_state_the_decisions_built(game):
    state, events, _ = play_out(**game)
    assert replay(events) == state
    assert state.version == len(events)


@settings(max_examples=30, deadline=None)
@given(games)
def test_evolve_leaves_the_state_it_is_given_unchanged(game):
    state, events, _ = play_out(**game)
    s = GameState()
    for event in events:
        before = s.copy()
        after = evolve(s, event)
        assert s == before and after is not s
        s = after


@settings(max_examples=30, deadline=None)
@given(games)
def test_a_snapshot_round_trips_through_json(game):
    state, _, _ = play_out(**game)
    data = json.loads(json.dumps(state.to_dict()))
    assert GameState.from_dict(data) == state


@settings(max_examples=30, deadline=None)
@given(games)
def test_events_round_trip_through_their_stored_shape(game):
    from rules.events import event_from_dict

    _, events, _ = play_out(**game)
    for event in events:
        assert event_from_dict(json.loads(json.dumps(event.to_dict()))) == event


@settings(max_examples=40, deadline=None)
@given(games)
def test_every_command_listed_as_legal_is_accepted(game):
    _, _, states = play_out(**game)
    for s in states[-5:]:
        for seat in range(s.players):
            for command in legal_commands(s, seat):
                step(s, command)  # raises if the engine refuses what it listed


@settings(max_examples=40, deadline=None)
@given(games)
def test_every_play_the_engine_accepts_is_listed_as_legal(game):
    # The other half: a play of any card in the hand, with any colour and with or without
    # UNO, is accepted exactly when legal_commands lists it.
    from rules.commands import PlayCard
    from rules.errors import RuleError

    _, _, states = play_out(**game)
    for s in states[-5:]:
        kind, seat = s.pending
        if kind not in ("turn", "drawn"):
            continue
        listed = {c for c in legal_commands(s, seat) if isinstance(c, PlayCard)}
        for card in set(s.hands[seat]):
            for colour in (None, "R", "G", "B", "Y"):
                for uno in (False, True):
                    command = PlayCard(seat, card, colour, uno)
                    try:
                        step(s, command)
                    except RuleError:
                        assert command not in listed
                    else:
                        assert command in listed


def test_shuffled_deals_exactly_as_random_shuffle_did():
    # Recorded games and seeds keep dealing the same cards: the engine's shuffle draws the
    # same bits from the generator as ``random.Random.shuffle``.
    import random

    from rules.engine import shuffled
    from rules.variants.classic.variant import standard_deck

    deck = standard_deck(("R", "G", "B", "Y"))
    for seed in range(300):
        expected = list(deck[: 2 + seed % 107])
        theirs, ours = random.Random(f"s{seed}"), random.Random(f"s{seed}")
        theirs.shuffle(expected)
        assert shuffled(ours, deck[: 2 + seed % 107]) == expected
        assert ours.getstate() == theirs.getstate()  # no more and no fewer bits drawn
    assert shuffled(random.Random("one"), deck[:1]) == list(deck[:1])
    assert shuffled(random.Random("none"), ()) == []


def test_a_rewind_takes_the_game_back_to_the_state_at_that_version_and_play_goes_on():
    from rules.engine import at_rest
    from rules.events import Rewound

    state, events, states = play_out(
        players=3, seed="undo", scoring="standard", target=500, steps=40
    )
    back_to = next(v for v in range(12, len(events)) if at_rest(replay(events[:v])))
    rewound = replay(events + [Rewound(back_to, "referee", "misdeal")])
    expected = replay(events[:back_to])
    assert rewound.hands == expected.hands and rewound.pending == expected.pending
    assert rewound.version == len(events) + 1
    # Play continues from the rewound state; the stream keeps every event.
    kind, seat = rewound.pending
    command = legal_commands(rewound, seat)[0]
    after, more = step(rewound, command)
    assert replay(events + [Rewound(back_to, "referee", "misdeal")] + more) == after


def test_only_versions_where_the_game_waits_for_a_command_are_at_rest():
    from rules.engine import at_rest

    state, events, _ = play_out(players=3, seed="rest", scoring="standard", target=500, steps=30)
    rest = [v for v in range(len(events) + 1) if at_rest(replay(events[:v]))]
    assert 0 not in rest and len(events) in rest
    # In the middle of what one command caused (a card played, its effect not yet applied):
    assert any(
        replay(events[:v]).pending[0] == "playing" for v in range(len(events)) if v not in rest
    )
