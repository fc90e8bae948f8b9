"""UNO Mod: the legal commands, hidden gifts, stored shapes, invariants, bots and simulation."""

from collections import Counter

import pytest

from rules.bots import RandomBot
from rules.commands import DrawCard, Pass, PlayCard, command_from_dict
from rules.engine import legal_commands, replay
from rules.events import event_from_dict
from rules.simulate import run
from rules.state import GameState
from rules.variants import get_variant
from rules.variants.mod.commands import ModPlay
from rules.variants.mod.events import CardsGiven
from rules.views import event_view, game_view
from tests.rules.helpers import play, start

GIVER = ["WM", "G1", "B4", "G2", "Y5", "G3", "R6"]


def table(giver=GIVER):
    state, events = start("mod", 3, dealer=0, hands={1: giver}, starter="R3")
    return state, events


def mod_options(state, seat):
    return [c for c in legal_commands(state, seat) if c.type == "play" and c.card == "WM"]


# Legal commands ------------------------------------------------------------------------------


def test_the_legal_commands_offer_every_colour_held_to_give_and_every_colour_to_call():
    state, _ = table()
    options = mod_options(state, 1)
    assert {(c.give, c.colour) for c in options} == {(g, c) for g in "RGBY" for c in "RGBY"}
    assert len(options) == 16 and not any(c.uno for c in options)


def test_the_legal_commands_offer_uno_with_the_gift_that_leaves_one_card():
    state, _ = table(["WM", "G1", "G2", "G3", "G4", "G5", "B4"])
    options = mod_options(state, 1)
    assert {(c.give, c.uno) for c in options} == {("G", False), ("G", True), ("B", False)}


def test_the_legal_commands_offer_a_mod_without_a_gift_when_only_wilds_remain():
    state, _ = table(["WM", "W", "W4", "WM", "B1", "B2", "B3"])
    state, _ = play(state, ModPlay(1, "WM", "B", give="B"))
    assert state.hands[1] == ("W", "W4", "WM")
    while state.pending != ("turn", 1):  # the others draw and keep what they draw
        kind, seat = state.pending
        state, _ = play(state, DrawCard(seat) if kind == "turn" else Pass(seat))
    options = mod_options(state, 1)
    # Nothing to give: plain plays of the Mod.
    assert set(options) == {PlayCard(1, "WM", c) for c in "RGBY"}


def test_the_legal_commands_of_a_mod_game_are_all_accepted():
    state, _ = table()
    for command in legal_commands(state, 1):
        play(state, command)


def test_every_legal_command_round_trips_through_the_api_shape():
    state, _ = table()
    for command in legal_commands(state, 1):
        assert command_from_dict(1, command.to_dict()) == command


def test_a_play_with_a_gift_reads_from_the_api_shape():
    data = {"type": "play", "card": "WM", "colour": "B", "give": "G"}
    assert command_from_dict(1, data) == ModPlay(1, "WM", "B", give="G")


# Hidden information ----------------------------------------------------------------------------


def given_event():
    state, _ = table()
    _, events = play(state, ModPlay(1, "WM", "B", give="G"))
    return next(e for e in events if type(e) is CardsGiven)


def test_the_giver_sees_every_card_given():
    view = given_event().redacted(1)
    assert view["gifts"] == [[2, "G1"], [0, "G2"], [2, "G3"]]


def test_a_receiver_sees_only_the_cards_given_to_them():
    assert given_event().redacted(2)["gifts"] == [[2, "G1"], [0, None], [2, "G3"]]
    assert given_event().redacted(0)["gifts"] == [[2, None], [0, "G2"], [2, None]]


def test_a_spectator_sees_the_colour_and_how_many_cards_each_seat_received():
    view = given_event().redacted(None)
    assert view["gifts"] == [[2, None], [0, None], [2, None]]
    assert view["colour"] == "G"
    assert view["counts"] == [[2, 2], [0, 1]]


def test_a_referee_sees_every_card_given():
    assert event_view(given_event(), None, referee=True)["gifts"] == [
        [2, "G1"],
        [0, "G2"],
        [2, "G3"],
    ]


def test_a_seat_sees_the_cards_it_received_in_its_hand_and_only_counts_of_the_others():
    state, _ = table()
    state, _ = play(state, ModPlay(1, "WM", "B", give="G"))
    view = game_view(state, 2)
    assert "G1" in view["seats"][2]["hand"] and "G3" in view["seats"][2]["hand"]
    assert "hand" not in view["seats"][0] and view["seats"][0]["card_count"] == 8


# Stored shapes ---------------------------------------------------------------------------------


def test_cards_given_round_trips_through_its_stored_shape():
    event = given_event()
    assert event_from_dict(event.to_dict()) == event


def test_a_mod_game_state_round_trips_through_a_snapshot():
    state, _ = table()
    state, _ = play(state, ModPlay(1, "WM", "B", give="G"))
    assert GameState.from_dict(state.to_dict()) == state


def test_a_hand_with_gifts_replays_to_the_same_state():
    state, events = table()
    after, more = play(state, ModPlay(1, "WM", "B", give="G"))
    assert replay(events + more) == after


# Invariants ------------------------------------------------------------------------------------


def test_the_invariants_hold_after_a_mod():
    state, _ = table(["WM", "G1", "G2", "G3", "G4", "G5", "B4"])
    state, _ = play(state, ModPlay(1, "WM", "B", give="G"))
    assert state.exposed == 1
    assert get_variant("mod").invariants(state) == []
    assert Counter(state.all_cards()) == Counter(get_variant("mod").deck)


def test_the_invariants_flag_a_seat_open_to_a_catch_while_holding_several_cards():
    state, _ = table()
    state.exposed = 2
    assert get_variant("mod").invariants(state) == ["seat 2 may be caught for UNO holding 7 cards"]


def test_the_invariants_flag_a_mod_on_top_without_a_colour_in_play():
    state, _ = table()
    state, _ = play(state, ModPlay(1, "WM", "B", give="G"))
    state.colour = None
    assert get_variant("mod").invariants(state) == ["a Mod is on top with no colour in play (None)"]


# Bots and simulation ----------------------------------------------------------------------------


def test_the_random_bot_sometimes_plays_a_mod_with_each_gift():
    state, _ = table()
    bot = RandomBot("gifts")
    chosen = Counter()
    for _ in range(2000):
        command = bot.choose(legal_commands(state, 1))
        if command.type == "play" and command.card == "WM":
            chosen[command.give] += 1
    assert set(chosen) == {"R", "G", "B", "Y"}


@pytest.mark.parametrize("players", [2, 3, 4, 6, 10])
def test_a_simulation_of_mod_hands_finds_no_problem(players):
    report = run("mod", players, "test", hands=40)
    assert report.hands == 40
    assert (
        report.invariant_violations,
        report.replay_mismatches,
        report.rejected_legal_commands,
    ) == (0, 0, 0)


def test_a_simulation_of_whole_mod_games_finds_no_problem():
    report = run("mod", 4, "games", games=2, target=200, scoring="alternative")
    assert report.games == 2
    assert (
        report.invariant_violations,
        report.replay_mismatches,
        report.rejected_legal_commands,
    ) == (0, 0, 0)
