"""What undo means, said once in the engine (``fold_with_rewinds``, ``live_entries``): a
``Rewound`` takes the game back to its state at ``to_version``, itself maybe reached through
earlier rewinds, while the version counter keeps counting."""

import pytest

from rules.bots import RandomBot
from rules.engine import legal_commands, live_entries, new_game, replay, step
from rules.events import Rewound


def played(commands: int):
    state, events = new_game(players=3, seed="undo")
    for _ in range(commands):
        seat = state.pending[1]
        state, more = step(state, legal_commands(state, seat)[0])
        events += more
    return state, events


def test_a_rewind_goes_back_to_the_state_at_its_version_and_the_count_goes_on():
    _, events = played(6)
    back_to = 9
    log = [*events, Rewound(back_to, "user:1", "misdeal")]

    state = replay(log)

    assert state.version == len(log)
    expected = replay(events[:back_to])
    assert state.hands == expected.hands and state.pending == expected.pending


def test_a_rewind_to_a_version_reached_through_an_earlier_rewind_keeps_that_history():
    _, events = played(4)
    first = [*events, Rewound(8, "user:1", "one")]  # back to 8; this rewind is version n+1
    then_more = [*first, events[8], Rewound(len(first), "user:1", "two")]

    assert replay(then_more).hands == replay(first).hands


def test_the_entries_that_stand_are_what_the_fold_keeps():
    log = [(1, "a"), (2, "b"), (3, "c"), (4, "back to 1"), (5, "d"), (6, "back to 5")]

    def rewound_to(entry):
        return int(entry.rsplit(" ", 1)[1]) if entry.startswith("back") else None

    assert live_entries(log, rewound_to) == ["a", "d"]
    assert live_entries(log[:4], rewound_to) == ["a"]
    assert live_entries(log[:3], rewound_to) == ["a", "b", "c"]


@pytest.mark.parametrize(
    ("variant", "options"),
    [
        ("classic", None),
        ("mod", None),
        ("veto", {"customizable": ["three_if_stuck", "face_up", "joke"]}),
        ("spin", None),
        ("power_grab", None),
    ],
)
def test_a_command_made_again_after_an_undo_meets_the_same_chance(variant, options):
    # An undo takes a game back while its version counts on. Whatever chance a command meets
    # (the next deal, a reshuffle, the wheel, the house rule a drawn card carries) must come
    # from where the game stands, not from that count, or undoing and trying again would
    # draw it anew. Every command of a few hands is decided twice, at two versions.
    state, _ = new_game(variant=variant, players=3, seed=f"again:{variant}", options=options)
    bots = [RandomBot(f"again:{seat}") for seat in range(3)]
    hands = 0
    for _ in range(1500):
        if state.finished or hands == 4:
            break
        seat = state.pending[1]
        command = bots[seat].choose(legal_commands(state, seat))
        later = state.copy()
        later.version += 1000
        after, events = step(state, command)
        assert step(later, command)[1] == events, f"v{state.version} {command}"
        hands += after.hand_number != state.hand_number
        state = after
    assert hands == 4
