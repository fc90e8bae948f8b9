"""UNO VETO: the house rules a Wild Customizable card carries (the rulebook's thought-starters)."""

import pytest

from rules.commands import Catch, PlayCard, command_from_dict
from rules.engine import legal_commands, step
from rules.errors import IllegalCommand, InvalidCommand
from rules.events import (
    CardsDrawn,
    ChoiceOffered,
    DiscardReshuffled,
    HandEnded,
    Passed,
    TurnBegan,
    UnoCaught,
)
from rules.variants.veto.commands import (
    DiscardAllButOne,
    DiscardCard,
    NameColour,
    ReportJoke,
    ReportRooster,
)
from rules.variants.veto.events import (
    CardsDiscarded,
    ColourNamed,
    HandsHidden,
    HandsShown,
    JokeReported,
    RoosterReported,
    StuckChecked,
)
from rules.views import game_view

from .helpers import play
from .veto_helpers import PLAIN_0, PLAIN_2, seated, table

HAND = ["P1", "O2", "G9", "Y8", "PS", "OV"]  # seat 1's other cards


def rule_table(rule, **kwargs):
    kwargs.setdefault("hands", {1: ["WC"] + HAND})
    return table([rule], **kwargs)


# 1. The next player draws until they draw a card of a colour the player names ------------------


def test_draw_until_colour_lets_the_player_name_the_colour():
    state = rule_table("draw_until_colour")
    state, events = step(state, PlayCard(1, "WC", "G"))
    assert state.pending == ("name_colour", 1) and state.colour == "G"
    assert legal_commands(state, 1)[:4] == [NameColour(1, c) for c in "PGOY"]


def test_the_next_player_draws_until_a_card_of_the_named_colour_and_then_plays():
    state = rule_table("draw_until_colour", draws=["G1", "W", "Y2", "O3", "P4"])
    state, events = play(state, PlayCard(1, "WC", "G"), NameColour(1, "O"))
    assert events[0] == ColourNamed(1, "O", 2)
    drawn = [c for e in events if type(e) is CardsDrawn for c in e.cards]
    assert drawn == ["G1", "W", "Y2", "O3"]  # a wild is no colour
    assert state.hands[2][-4:] == ("G1", "W", "Y2", "O3")
    assert events[-1] == TurnBegan(2) and state.colour == "G"


def test_drawing_until_a_colour_reshuffles_the_discard_pile_when_the_draw_pile_runs_out():
    # One card left to draw (the rest of the deck is in seat 0's hand) and an orange card
    # in the discard pile.
    state = seated(
        ["draw_until_colour"],
        hands={1: ["WC"] + HAND},
        discard=["O3", "G7", "P5"],
        pile=["G1"],
        rest_to=0,
    )
    state, events = play(state, PlayCard(1, "WC", "G"), NameColour(1, "O"))
    assert any(type(e) is DiscardReshuffled for e in events)
    assert state.hands[2][-1] == "O3" and "G1" in state.hands[2]


def test_drawing_until_a_colour_stops_when_no_card_is_left_to_draw():
    state = seated(["draw_until_colour"], hands={1: ["WC"] + HAND}, pile=["G1", "Y2"], rest_to=0)
    state, events = play(state, PlayCard(1, "WC", "G"), NameColour(1, "O"))
    # The draw pile, then the discard pile but its top card (the P5 under the WC): no orange.
    assert state.hands[2][-3:] == ("G1", "Y2", "P5") and state.discard == ("WC",)
    assert state.pending == ("turn", 2)


def test_only_the_player_names_the_colour():
    state, _ = play(rule_table("draw_until_colour"), PlayCard(1, "WC", "G"))
    with pytest.raises(IllegalCommand, match="seat 2 cannot name_colour now"):
        step(state, NameColour(2, "O"))
    with pytest.raises(InvalidCommand, match="unknown colour 'R'"):
        step(state, NameColour(1, "R"))


# 2. Everyone but you discards all their wild cards ------------------------------------------------


def wilds_table():
    return table(
        ["discard_wilds", "discard_wilds"],
        hands={1: ["WC", "W"] + HAND[:5], 2: ["W", "W4"] + PLAIN_2[:5], 0: ["WC"] + PLAIN_0[:6]},
    )


def test_everyone_but_the_player_discards_all_their_wild_cards():
    state, events = step(wilds_table(), PlayCard(1, "WC", "P"))
    discarded = [e for e in events if type(e) is CardsDiscarded]
    assert discarded == [
        CardsDiscarded(2, ("W", "W4"), (), "discard_wilds"),
        CardsDiscarded(0, ("WC",), ("discard_wilds",), "discard_wilds"),
    ]
    assert "W" in state.hands[1]  # the player keeps theirs
    assert not any(c in ("W", "W4", "WC") for seat in (0, 2) for c in state.hands[seat])
    assert state.pending == ("turn", 2)


def test_discarded_cards_go_under_the_top_card_so_the_colour_in_play_stays():
    state, _ = step(wilds_table(), PlayCard(1, "WC", "P"))
    assert state.discard == ("P5", "W", "W4", "WC", "WC")
    assert state.top == "WC" and state.colour == "P"


def test_a_player_left_with_no_cards_by_the_house_rule_goes_out():
    state = seated(
        ["discard_wilds", "discard_wilds"],
        hands={1: ["WC", "W"] + HAND[:5], 2: ["W"], 0: ["WC"] + PLAIN_0[:6]},
    )
    state, events = step(state, PlayCard(1, "WC", "P"))
    ended = next(e for e in events if type(e) is HandEnded)
    assert ended.winner == 2


# 3. If the next player cannot play a card, they take three cards -------------------------------


def test_a_next_player_who_cannot_play_takes_three_cards_and_the_turn_passes():
    state = rule_table("three_if_stuck", draws=["P2", "P3", "P4"])
    state, events = step(state, PlayCard(1, "WC", "O"))  # seat 2 holds only green
    assert StuckChecked(2, True) in events
    assert CardsDrawn(2, ("P2", "P3", "P4"), "three_if_stuck") in events
    assert events[-2:] == [Passed(2), TurnBegan(0)]
    assert len(state.hands[2]) == 10


def test_a_next_player_who_can_play_plays_as_usual():
    state = rule_table("three_if_stuck")
    state, events = step(state, PlayCard(1, "WC", "G"))
    assert StuckChecked(2, False) in events
    assert state.pending == ("turn", 2) and len(state.hands[2]) == 7
    assert state.extra.stuck == ()


def test_the_three_card_rule_waits_for_a_turn_the_next_player_really_begins():
    from rules.variants.veto.commands import SlapVeto

    state = rule_table("three_if_stuck")
    state, events = play(state, SlapVeto(0, 2), PlayCard(1, "WC", "O"))
    assert state.pending == ("turn", 0) and state.extra.stuck == (2,)


# 4. Take an extra turn --------------------------------------------------------------------------


def test_extra_turn_gives_the_player_another_turn():
    state, events = step(rule_table("extra_turn"), PlayCard(1, "WC", "P"))
    assert events[-1] == TurnBegan(1) and state.pending == ("turn", 1)


# 5. The next player draws or discards until they hold exactly 7 -------------------------------


def test_a_next_player_with_fewer_than_seven_draws_up_to_seven():
    state = seated(["seven_cards"], hands={1: ["WC"] + HAND, 2: ["G1", "G2", "G3"]})
    state, events = step(state, PlayCard(1, "WC", "P"))
    assert len(state.hands[2]) == 7 and events[-1] == TurnBegan(2)
    assert next(e for e in events if type(e) is CardsDrawn).cards.__len__() == 4


def test_a_next_player_with_seven_does_nothing():
    state, events = step(rule_table("seven_cards"), PlayCard(1, "WC", "P"))
    assert not any(type(e) in (CardsDrawn, CardsDiscarded) for e in events)
    assert state.pending == ("turn", 2)


def test_a_next_player_with_more_than_seven_chooses_the_cards_to_discard():
    state = seated(["seven_cards"], hands={1: ["WC"] + HAND, 2: PLAIN_2 + ["G8", "G9"]})
    state, _ = step(state, PlayCard(1, "WC", "P"))
    assert state.pending == ("discard", 2)
    choices = [c for c in legal_commands(state, 2) if c.type == "discard"]
    assert {c.card for c in choices} == set(state.hands[2])
    for c in choices:
        assert command_from_dict(2, c.to_dict()) == c
    state, events = step(state, DiscardCard(2, "G3"))
    assert events == [CardsDiscarded(2, ("G3",), (), "house_rule")] and state.pending == (
        "discard",
        2,
    )
    state, events = step(state, DiscardCard(2, "G5"))
    assert len(state.hands[2]) == 7 and events[-1] == TurnBegan(2)
    assert state.top == "WC" and state.colour == "P" and state.discard[-3:] == ("G3", "G5", "WC")


def test_only_the_discarding_player_discards_and_only_cards_they_hold():
    state = seated(["seven_cards"], hands={1: ["WC"] + HAND, 2: PLAIN_2 + ["G8", "G9"]})
    state, _ = step(state, PlayCard(1, "WC", "P"))
    with pytest.raises(IllegalCommand, match="seat 0 cannot discard now"):
        step(state, DiscardCard(0, "Y1"))
    with pytest.raises(IllegalCommand, match="seat 2 does not hold Y1"):
        step(state, DiscardCard(2, "Y1"))


# 6. Everyone draws or discards until they hold exactly 3 -------------------------------------


def test_everyone_discards_down_to_three_in_turn_order_from_the_player():
    state = rule_table("three_cards")
    state, events = step(state, PlayCard(1, "WC", "P"))
    assert events[-1] == ChoiceOffered(1, "discard") and state.extra.queue == (
        (1, 3),
        (2, 3),
        (0, 3),
    )
    for card in ("P1", "O2", "G9"):
        state, _ = step(state, DiscardCard(1, card))
    assert state.pending == ("discard", 2)
    for card in ("G1", "G2", "G3", "G4"):
        state, _ = step(state, DiscardCard(2, card))
    assert state.pending == ("discard", 0)
    for card in ("Y1", "Y2", "Y3"):
        state, _ = step(state, DiscardCard(0, card))
    state, events = step(state, DiscardCard(0, "Y4"))
    assert [len(h) for h in state.hands] == [3, 3, 3]
    assert events[-1] == TurnBegan(2)


def test_a_player_with_fewer_than_three_draws_up_to_three():
    state = seated(["three_cards"], hands={1: ["WC"] + HAND, 0: ["Y1"]})
    state, events = step(state, PlayCard(1, "WC", "P"))
    assert len(state.hands[0]) == 3
    assert state.extra.queue == ((1, 3), (2, 3))


# 7. Everyone plays with their hand face up until your next turn ---------------------------------


def test_face_up_shows_every_hand_until_the_players_next_turn():
    state = rule_table("face_up")
    state, events = step(state, PlayCard(1, "WC", "G"))
    assert HandsShown(1) in events and state.shown == frozenset({0, 1, 2})
    assert game_view(state, 2)["seats"][0]["hand"] == list(state.hands[0])
    state, _ = play(state, PlayCard(2, "G1"))
    assert state.shown == frozenset({0, 1, 2})


def test_the_hands_go_back_when_the_players_next_turn_begins():
    state = rule_table("face_up", hands={1: ["WC"] + HAND, 0: ["G8"] + PLAIN_0[:6]})
    state, _ = play(state, PlayCard(1, "WC", "G"), PlayCard(2, "G1"))
    assert state.shown == frozenset({0, 1, 2})
    state, events = step(state, PlayCard(0, "G8"))
    assert events[-2:] == [HandsHidden(1), TurnBegan(1)]
    assert "hand" not in game_view(state, 2)["seats"][0]


# 8. Tell a joke ----------------------------------------------------------------------------------


def joke_played():
    state, _ = step(rule_table("joke"), PlayCard(1, "WC", "G"))
    return state


def test_after_a_joke_the_table_reports_whether_someone_laughed():
    state = joke_played()
    assert state.pending == ("joke", 1)
    assert [c for c in legal_commands(state, 1) if c.type == "report_joke"] == [
        ReportJoke(1, True),
        ReportJoke(1, False),
    ]
    assert ReportJoke(1, True).to_dict() == {"type": "report_joke", "laughed": True}
    assert command_from_dict(1, {"type": "report_joke", "laughed": False}) == ReportJoke(1, False)


def test_if_no_one_laughs_the_player_draws_four():
    state, events = step(joke_played(), ReportJoke(1, False))
    assert events[0] == JokeReported(1, False, 1)
    assert len(state.hands[1]) == 6 + 4 and events[-1] == TurnBegan(2)


def test_if_someone_laughs_the_player_keeps_one_card_and_discards_the_rest():
    state, events = step(joke_played(), ReportJoke(1, True))
    assert state.pending == ("keep_card", 1)
    keeps = [c for c in legal_commands(state, 1) if c.type == "keep_card"]
    assert {c.card for c in keeps} == set(HAND) and {c.uno for c in keeps} == {True, False}
    state, events = step(state, DiscardAllButOne(1, "PS", uno=True))
    assert events[0] == CardsDiscarded(1, ("P1", "O2", "G9", "Y8", "OV"), (), "joke", True)
    assert state.hands[1] == ("PS",) and state.exposed is None
    assert state.top == "WC" and state.colour == "G" and events[-1] == TurnBegan(2)


def test_a_player_who_forgets_uno_after_the_joke_can_be_caught():
    # "(don't forget to yell "UNO!")"
    state, _ = play(joke_played(), ReportJoke(1, True), DiscardAllButOne(1, "PS"))
    assert state.exposed == 1
    state, events = step(state, Catch(0, 1))
    assert type(events[0]) is UnoCaught and len(state.hands[1]) == 3


def test_a_referee_may_report_the_joke_but_another_player_may_not():
    state = joke_played()
    with pytest.raises(IllegalCommand, match="cannot report_joke now: only seat 1 or a referee"):
        step(state, ReportJoke(2, False))
    state, events = step(state, ReportJoke(None, False))
    assert events[0] == JokeReported(1, False, None)


def test_a_player_with_one_card_left_who_makes_the_table_laugh_keeps_it():
    state = seated(["joke"], hands={1: ["WC", "P1"]})
    state, events = play(state, PlayCard(1, "WC", "G", uno=True), ReportJoke(1, True))
    assert state.hands[1] == ("P1",) and events[-1] == TurnBegan(2)


# 10. The next player performs a rooster call or chickens out and draws four ---------------------


def rooster_played():
    state, _ = step(rule_table("rooster"), PlayCard(1, "WC", "G"))
    return state


def test_the_next_player_reports_the_rooster_call():
    state = rooster_played()
    assert state.pending == ("rooster", 2)
    assert [c for c in legal_commands(state, 2) if c.type == "report_rooster"] == [
        ReportRooster(2, True),
        ReportRooster(2, False),
    ]


def test_a_rooster_call_performed_costs_nothing():
    state, events = step(rooster_played(), ReportRooster(2, True))
    assert events == [RoosterReported(2, True, 2), TurnBegan(2)]


def test_chickening_out_draws_four_and_then_the_player_takes_the_turn():
    state, events = step(rooster_played(), ReportRooster(2, False))
    assert len(state.hands[2]) == 11 and events[-1] == TurnBegan(2)


def test_only_the_next_player_or_a_referee_reports_the_rooster_call():
    state = rooster_played()
    with pytest.raises(IllegalCommand):
        step(state, ReportRooster(1, True))
    state, events = step(state, ReportRooster(None, False))
    assert events[0] == RoosterReported(2, False, None)


# The UNO call around house rules --------------------------------------------------------------


def test_a_house_rule_choice_does_not_close_the_uno_catch_window():
    state = seated(["rooster"], hands={1: ["WC", "P1"]})
    state, _ = play(state, PlayCard(1, "WC", "G"), ReportRooster(2, True))
    assert state.exposed == 1
    state, events = step(state, Catch(0, 1))
    assert type(events[0]) is UnoCaught


def test_a_player_left_with_one_card_by_discarding_wilds_need_not_call_uno():
    # The UNO call is made with a play; discarding under a house rule is none (but the joke's,
    # whose words say so).
    state = seated(["discard_wilds"], hands={1: ["WC"] + HAND, 2: ["W", "G1"]})
    state, _ = step(state, PlayCard(1, "WC", "G"))
    assert state.hands[2] == ("G1",) and state.exposed is None


def test_a_seat_discarding_one_of_several_customizable_cards_names_its_rule():
    # Which card went to whom is chance; this position fixes it: seat 1 holds seven_cards.
    state = seated(
        ["seven_cards", "joke", "rooster"],
        hands={1: ["WC"] + HAND, 2: ["WC", "WC"] + PLAIN_2},
        held={1: ["seven_cards"], 2: ["joke", "rooster"]},
    )
    state, _ = step(state, PlayCard(1, "WC", "P"))
    choices = [c for c in legal_commands(state, 2) if c.type == "discard" and c.card == "WC"]
    assert {c.rule for c in choices} == {"joke", "rooster"}
    with pytest.raises(
        InvalidCommand, match="name the house rule of the Customizable card to discard"
    ):
        step(state, DiscardCard(2, "WC"))
    state, events = step(state, DiscardCard(2, "WC", rule="rooster"))
    assert events[0] == CardsDiscarded(2, ("WC",), ("rooster",), "house_rule")
    assert state.extra.held[2] == ("joke",)


def test_hands_stay_face_up_until_every_player_who_turned_them_up_has_had_a_turn():
    state = table(["face_up", "face_up"], hands={1: ["WC"] + HAND, 2: ["WC"] + PLAIN_2[:6]})
    state, _ = play(state, PlayCard(1, "WC", "Y"), PlayCard(2, "WC", "Y"), PlayCard(0, "Y1"))
    assert state.pending == ("turn", 1) and state.shown == frozenset({0, 1, 2})
    state, events = step(state, PlayCard(1, "Y8"))
    assert events[-2:] == [HandsHidden(2), TurnBegan(2)] and state.shown == frozenset()


def test_a_turn_skipped_by_the_veto_does_not_end_the_face_up_rule():
    from rules.variants.veto.commands import SlapVeto

    state = rule_table("face_up")
    state, _ = play(
        state, PlayCard(1, "WC", "G"), SlapVeto(2, 1), PlayCard(2, "G1"), PlayCard(0, "Y1")
    )
    # Seat 1's turn was skipped: the hands stay face up until seat 1 really plays.
    assert state.pending == ("turn", 2) and state.shown == frozenset({0, 1, 2})
