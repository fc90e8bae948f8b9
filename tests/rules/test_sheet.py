"""Score sheets: hands played with physical cards, recorded and scored."""

import pytest

from rules.commands import command_from_dict
from rules.engine import at_rest, legal_commands, new_game, replay, step
from rules.errors import IllegalCommand, InvalidCommand
from rules.events import GameEnded, HandEnded
from rules.sheet import HandRecorded, RecordHand


def sheet(players=3, scoring="standard", target=500, variant="classic"):
    state, events = new_game(
        players=players, scoring=scoring, target=target, seed="s", sheet=True, variant=variant
    )
    return state


def record(state, data):
    return step(state, command_from_dict(None, {"type": "record_hand", **data}))


def test_a_score_sheet_deals_nothing_and_waits_for_a_hand_to_be_recorded():
    state = sheet()
    assert state.hands == ((), (), ()) and state.pending == ("sheet", -1)
    assert at_rest(state) and legal_commands(state, 0) == []


def test_a_hand_recorded_with_cards_is_scored_from_the_cards():
    state, events = record(sheet(), {"out": 2, "remaining": {"0": ["R7", "W4"], "1": ["G2"]}})
    assert events[0] == HandRecorded(1, 2, (("R7", "W4"), ("G2",), ()), (57, 2, 0))
    assert events[1] == HandEnded(1, 2, (57, 2, 0), (0, 0, 59), (0, 0, 59))
    assert state.pending == ("sheet", -1)


def test_a_seat_cannot_record_a_hand_only_the_referee_can():
    with pytest.raises(IllegalCommand, match="only the referee records a hand"):
        step(sheet(), command_from_dict(2, {"type": "record_hand", "out": 2}))


def test_a_hand_recorded_with_points_is_scored_from_the_points():
    state, _ = record(sheet(), {"out": 2, "points": {"0": 57, "1": 2}})
    assert state.scores == (0, 0, 59)


def test_cards_and_points_may_be_mixed_seat_by_seat():
    state, _ = record(sheet(), {"out": 0, "remaining": {"1": ["RS"]}, "points": {"2": 13}})
    assert state.scores == (33, 0, 0)


def test_alternative_scoring_adds_what_each_seat_holds_and_ends_at_the_target():
    state = sheet(scoring="alternative", target=40)
    state, _ = record(state, {"out": 0, "points": {"1": 30, "2": 10}})
    assert not state.finished
    state, events = record(state, {"out": 1, "points": {"0": 45, "2": 5}})
    assert events[-1] == GameEnded(2, (2, 1, 0), (3, 2, 1), (45, 30, 15))


def test_recording_replays_like_any_other_event():
    state = sheet()
    events = []
    for data in (
        {"out": 2, "points": {"0": 5, "1": 7}},
        {"out": 1, "remaining": {"0": ["B9"], "2": ["W"]}},
    ):
        state, new = record(state, data)
        events += new
    start_events = new_game(players=3, seed="s", sheet=True)[1]
    assert replay(start_events + events) == state


@pytest.mark.parametrize(
    ("data", "message", "field"),
    [
        (
            {"out": 2, "remaining": {"0": ["R77"], "1": []}},
            "unknown card code 'R77'",
            "remaining.0",
        ),
        (
            {"out": 2, "remaining": {"0": ["WM"], "1": []}},
            "WM is not a card of Classic UNO",
            "remaining.0",
        ),
        (
            {"out": 2, "remaining": {"0": ["R0", "R0"], "1": []}},
            "2 copies of R0, but a Classic UNO deck has 1",
            "remaining",
        ),
        (
            {"out": 2, "remaining": {"0": ["R7"]}},
            "seat 1: give the cards left in the hand or the points",
            "remaining.1",
        ),
        ({"out": 5, "points": {"0": 1}}, "no seat 5", "out"),
        ({"out": 2, "points": {"0": -1, "1": 0}}, "from 0 to 10000", "points.0"),
        ({"out": 2, "points": {"0": 10_001, "1": 0}}, "from 0 to 10000", "points.0"),
        ({"out": 2, "points": {"0": 2**62, "1": 0}}, "from 0 to 10000", "points.0"),
        ({"out": 2, "points": {"0": 1, "1": 1, "2": 4}}, "went out and holds nothing", "out"),
        ({"out": 2, "points": {"x": 1}}, "'x' is not a seat number", "points"),
        ({"out": 2, "points": {"1_0": 1}}, "'1_0' is not a seat number", "points"),
        ({"out": 2, "remaining": {" 1": ["R1"]}}, "' 1' is not a seat number", "remaining"),
        (
            {"out": 2, "remaining": {"0": ["R1"], "1": []}, "points": {"0": 3}},
            "both cards and points",
            "points.0",
        ),
    ],
)
def test_a_bad_record_is_refused_naming_what_is_wrong(data, message, field):
    with pytest.raises(InvalidCommand, match=message) as err:
        record(sheet(), data)
    assert err.value.field == field


def test_a_played_game_takes_no_recorded_hands():
    state, _ = new_game(players=3, seed="p")
    with pytest.raises(IllegalCommand, match="only on a score sheet"):
        step(state, RecordHand(None, out=1, points=((0, 1), (2, 2))))


def test_the_state_counts_the_hands_each_seat_won_and_a_rewind_uncounts_them():
    from rules.events import Rewound

    start_events = new_game(players=3, seed="s", sheet=True)[1]
    state = replay(start_events)
    events = list(start_events)
    for out in (2, 2, 0):
        state, new = record(
            state, {"out": out, "points": {str(s): 1 for s in range(3) if s != out}}
        )
        events += new
    assert state.hands_won == (1, 0, 2)
    back = replay(events + [Rewound(len(start_events) + 3, "referee", "wrong sheet")])
    assert back.hands_won == (0, 0, 1)
