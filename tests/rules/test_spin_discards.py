"""UNO Spin: the segments that make the spinner discard (Almost UNO, Discard Number, Discard
Colour), the top card the spinner chooses, and going down to one card or none by the wheel."""

import pytest

from rules.commands import Catch, PlayCard, command_from_dict
from rules.engine import legal_commands, replay, step
from rules.errors import IllegalCommand, InvalidCommand
from rules.events import ChoiceOffered, HandEnded, TurnBegan, UnoCaught
from rules.position import PositionError, start_from
from rules.variants.spin.commands import SpinWheel, WheelDiscard, WheelKeep, WheelLay
from rules.variants.spin.events import WheelCardLaid, WheelCardsKept, WheelDiscarded, WheelSpun

from .helpers import play
from .spin_helpers import at_spin, spun, stop_wheel_on, table, with_hands

SPINNER = ["B1", "G2", "Y5", "B5", "R5~", "W", "GD2"]  # seat 2


def discard(cards, colour=None, uno=False, seat=2):
    return WheelDiscard(seat, tuple(cards), colour, uno)


def keep(cards, seat=2):
    return WheelKeep(seat, tuple(cards))


def lay(card, seat=2):
    return WheelLay(seat, card)


# Almost UNO ----------------------------------------------------------------------------------


def test_almost_uno_lets_the_spinner_keep_two_cards_of_their_choice_and_discard_the_rest(
    monkeypatch,
):
    state, events = spun(monkeypatch, "almost_uno", hands={2: SPINNER})
    assert events[-1] == ChoiceOffered(2, "almost_uno")
    state, events = play(state, keep(["R5~", "B5"]))
    assert events == [WheelCardsKept(2, ("B5", "R5~"))]  # in the order the hand holds them
    assert state.pending == ("almost_uno_top", 2) and state.hands[2] == tuple(SPINNER)
    state, events = play(state, discard(["B1", "G2", "Y5", "W", "GD2"]))
    assert state.hands[2] == ("B5", "R5~")
    assert events[0] == WheelDiscarded(2, ("B1", "G2", "Y5", "W", "GD2"), None, False)


def test_the_cards_kept_are_hidden_from_the_other_seats():
    kept = WheelCardsKept(2, ("B5", "R5~"))
    assert kept.redacted(2)["cards"] == ["B5", "R5~"]
    assert kept.redacted(0)["cards"] is None and kept.redacted(None)["cards"] is None
    # How many were kept shows: the second of two kept one at a time, or both at once.
    assert kept.redacted(0)["count"] == 2 and WheelCardsKept(2, ("B5",)).redacted(1)["count"] == 1


def test_almost_uno_keeps_exactly_two_cards_the_spinner_holds(monkeypatch):
    state, _ = spun(monkeypatch, "almost_uno", hands={2: SPINNER})
    with pytest.raises(InvalidCommand, match="name 1 card to keep \\(or both\\), not 3"):
        step(state, keep(["B1", "G2", "Y5"]))
    with pytest.raises(IllegalCommand, match="does not hold"):
        step(state, keep(["B1", "B1"]))
    with pytest.raises(IllegalCommand, match="first name the 2 cards to keep"):
        step(state, discard(["B1", "G2", "Y5", "W", "GD2"]))


def test_almost_uno_discards_every_card_but_the_two_kept(monkeypatch):
    state, _ = spun(monkeypatch, "almost_uno", hands={2: SPINNER})
    state, _ = play(state, keep(["B5", "R5~"]))
    with pytest.raises(IllegalCommand, match="every card but the 2 kept"):
        step(state, discard(["B1", "G2", "Y5", "GD2"]))
    with pytest.raises(IllegalCommand, match="every card but the 2 kept"):
        step(state, discard(["B1", "G2", "Y5", "GD2", "B5"]))


def test_almost_uno_offers_each_card_to_keep_then_every_discarded_card_on_top(monkeypatch):
    state, _ = spun(monkeypatch, "almost_uno", hands={2: SPINNER})
    state = with_hands(state, seat2=("B6", "G6", "Y7", "Y7", "W"))
    # The cards to keep, one at a time: each distinct card once, then each of the others.
    assert legal_commands(state, 2) == [keep([card]) for card in ("B6", "G6", "Y7", "W")]
    state, events = play(state, keep(["Y7"]))
    assert events == [WheelCardsKept(2, ("Y7",))]
    assert state.pending == ("almost_uno_second", 2) and state.extra.kept == ("Y7",)
    assert legal_commands(state, 2) == [keep([card]) for card in ("B6", "G6", "Y7", "W")]
    with pytest.raises(InvalidCommand, match="name the second card to keep, not 2"):
        step(state, keep(["B6", "G6"]))
    with pytest.raises(IllegalCommand, match="first name the 2 cards to keep"):
        step(state, discard(["B6", "G6", "Y7", "W"]))
    # Then each card discarded once on top (a wild with each colour).
    state, _ = play(state, keep(["B6"]))
    assert state.pending == ("almost_uno_top", 2) and state.extra.kept == ("Y7", "B6")
    tops = {(c.cards[-1], c.colour) for c in legal_commands(state, 2)}
    assert tops == {("G6", None), ("Y7", None), *(("W", colour) for colour in "RGBY")}
    assert all(sorted(c.cards) == ["G6", "W", "Y7"] for c in legal_commands(state, 2))


def test_almost_uno_discards_at_once_when_the_cards_left_are_all_the_same(monkeypatch):
    state, _ = spun(monkeypatch, "almost_uno", hands={2: SPINNER})
    state = with_hands(state, seat2=("B6", "G6", "Y7", "Y7"))
    both, events = play(state, keep(["B6", "G6"]))
    assert events[0] == WheelDiscarded(2, ("Y7", "Y7"), None, False)
    assert both.hands[2] == ("B6", "G6") and both.pending == ("turn", 0)
    # Kept one at a time: the same, as the second is kept.
    one_by_one, events = play(state, keep(["G6"]), keep(["B6"]))
    assert events[0] == WheelDiscarded(2, ("Y7", "Y7"), None, False)
    assert (one_by_one.hands, one_by_one.pending, one_by_one.extra) == (
        both.hands,
        both.pending,
        both.extra,
    )


def test_a_keep_of_both_cards_is_the_steps_in_one_command(monkeypatch):
    state, _ = spun(monkeypatch, "almost_uno", hands={2: SPINNER})
    both, _ = play(state, keep(["R5~", "B5"]))
    one_by_one, _ = play(state, keep(["R5~"]), keep(["B5"]))
    assert both.pending == one_by_one.pending == ("almost_uno_top", 2)
    assert sorted(both.extra.kept) == sorted(one_by_one.extra.kept) == ["B5", "R5~"]
    assert legal_commands(both, 2) == legal_commands(one_by_one, 2)


def test_a_big_hand_lists_each_card_to_keep_not_every_pair():
    hand = "R1,R2,R4,R6,R7,R8,R9,G1,G2,G4,G6,G7,G8,B1,B2,B4,B6,B7,B8,Y1,Y2"
    state, _ = start_from(
        "spin|players=3|hand=1|dealer=0|pending=almost_uno:2|dir=+|colour=R|discard=R3~"
        f"|pile=*|hands=G3,G5/Y5/{hand}",
        seed="s",
    )
    # 21 different cards: 210 pairs, listed as 21 cards to keep.
    assert len(legal_commands(state, 2)) == 21


def test_an_almost_uno_stored_in_one_step_replays_as_it_was(monkeypatch):
    # Before the two steps, the choice was answered by one wheel_discard: the events it left
    # in stored games fold to the state they always did.
    state, _ = spun(monkeypatch, "almost_uno", hands={2: SPINNER})
    stored = [WheelDiscarded(2, ("B1", "G2", "Y5", "W", "GD2"), None, False), TurnBegan(0)]
    after = replay(stored, state)
    assert after.hands[2] == ("B5", "R5~")
    assert after.discard[-5:] == ("B1", "G2", "Y5", "W", "GD2") and after.colour == "G"
    assert after.pending == ("turn", 0) and after.extra == state.extra
    assert after.version == state.version + 2


def test_almost_uno_with_two_cards_or_fewer_changes_nothing_and_play_moves_on(monkeypatch):
    stop_wheel_on(monkeypatch, "almost_uno")
    state = with_hands(at_spin(), seat2=("B6", "G6"))
    state, events = step(state, SpinWheel(2))
    assert events == [WheelSpun(2, "almost_uno"), TurnBegan(0)]
    assert state.hands[2] == ("B6", "G6")


# Discard Number ------------------------------------------------------------------------------


def test_discard_number_discards_every_card_of_the_chosen_number(monkeypatch):
    state, events = spun(monkeypatch, "discard_number", hands={2: SPINNER})
    assert events[-1] == ChoiceOffered(2, "discard_number")
    state, _ = play(state, discard(["Y5", "B5", "R5~"]))
    assert state.hands[2] == ("B1", "G2", "W", "GD2")


def test_discard_number_may_keep_some_cards_of_the_number(monkeypatch):
    state, _ = spun(monkeypatch, "discard_number", hands={2: SPINNER})
    state, _ = play(state, discard(["B5"]))
    assert state.hands[2] == ("B1", "G2", "Y5", "R5~", "W", "GD2")


def test_discard_number_takes_cards_of_one_number_only(monkeypatch):
    state, _ = spun(monkeypatch, "discard_number", hands={2: SPINNER})
    with pytest.raises(IllegalCommand, match="same number"):
        step(state, discard(["B1", "Y5"]))


def test_discard_number_takes_no_symbol_or_wild_card(monkeypatch):
    state, _ = spun(monkeypatch, "discard_number", hands={2: SPINNER})
    with pytest.raises(IllegalCommand, match="GD2 is not a number card"):
        step(state, discard(["GD2"]))


def test_discard_number_offers_each_card_of_a_number_a_card_at_a_time(monkeypatch):
    state, _ = spun(monkeypatch, "discard_number", hands={2: SPINNER})
    # Each number card alone, ending the discard with it on top; a card of a number with
    # another of that number in the hand may also be laid down first.
    assert legal_commands(state, 2) == [
        discard(["B1"]),
        discard(["G2"]),
        discard(["Y5"]),
        lay("Y5"),
        discard(["B5"]),
        lay("B5"),
        discard(["R5~"]),
        lay("R5~"),
    ]
    state, events = play(state, lay("B5"))
    assert events == [WheelCardLaid(2, "B5")]
    assert state.pending == ("discard_number_more", 2) and state.discard[-1] == "B5"
    # Now only the other fives, until the last of them ends the discard.
    assert legal_commands(state, 2) == [discard(["Y5"]), lay("Y5"), discard(["R5~"]), lay("R5~")]
    state, _ = play(state, lay("R5~"))
    assert legal_commands(state, 2) == [discard(["Y5"])]
    state, events = play(state, discard(["Y5"]))
    assert state.discard[-3:] == ("B5", "R5~", "Y5") and state.colour == "Y"
    assert state.hands[2] == ("B1", "G2", "W", "GD2") and events[-1] == TurnBegan(0)


def test_the_last_card_of_the_number_is_discarded_not_laid(monkeypatch):
    state, _ = spun(monkeypatch, "discard_number", hands={2: SPINNER})
    with pytest.raises(IllegalCommand, match="last card of its number"):
        step(state, lay("B1"))
    with pytest.raises(IllegalCommand, match="not a number card"):
        step(state, lay("GD2"))
    state, _ = play(state, lay("Y5"))
    with pytest.raises(IllegalCommand, match="must all be 5s, the number on top"):
        step(state, discard(["B1"]))
    with pytest.raises(IllegalCommand, match="must all be 5s, the number on top"):
        step(state, lay("G2"))


def test_a_discard_of_several_cards_is_the_steps_in_one_command(monkeypatch):
    state, _ = spun(monkeypatch, "discard_number", hands={2: SPINNER})
    in_one, events = play(state, discard(["Y5", "R5~", "B5"]))
    assert events[0] == WheelDiscarded(2, ("Y5", "R5~", "B5"), None, False)
    by_steps, _ = play(state, lay("Y5"), lay("R5~"), discard(["B5"]))
    assert (in_one.hands, in_one.discard, in_one.colour, in_one.pending) == (
        by_steps.hands,
        by_steps.discard,
        by_steps.colour,
        by_steps.pending,
    )
    # After a card is laid, the rest may go in one command too, of the number on top only.
    state, _ = play(state, lay("Y5"))
    with pytest.raises(IllegalCommand, match="must all be 5s, the number on top"):
        step(state, discard(["B5", "B1"]))
    state, _ = play(state, discard(["R5~", "B5"]))
    assert state.discard[-3:] == ("Y5", "R5~", "B5")


def test_a_card_is_laid_down_only_at_discard_number_or_colour(monkeypatch):
    state, _ = spun(monkeypatch, "almost_uno", hands={2: SPINNER})
    with pytest.raises(IllegalCommand):
        step(state, lay("Y5"))
    state, _ = play(state, keep(["B5", "R5~"]))
    with pytest.raises(IllegalCommand, match="only at Discard Number or Discard Colour"):
        step(state, lay("Y5"))


def test_discard_number_without_a_number_card_changes_nothing(monkeypatch):
    state, events = spun(
        monkeypatch, "discard_number", hands={2: ["W", "GD2", "BS", "YV", "RS", "GV", "W4"]}
    )
    assert events == [WheelSpun(2, "discard_number"), TurnBegan(0)]


# Discard Colour ------------------------------------------------------------------------------


def test_discard_colour_discards_cards_of_the_chosen_colour_and_may_keep_some(monkeypatch):
    state, events = spun(
        monkeypatch, "discard_colour", hands={2: ["G1", "G2", "GS", "B5", "G7", "W", "Y1"]}
    )
    assert events[-1] == ChoiceOffered(2, "discard_colour")
    state, _ = play(state, discard(["G1", "GS", "G2"]))
    assert state.hands[2] == ("B5", "G7", "W", "Y1")


def test_discard_colour_takes_cards_of_one_colour_only_and_no_wild(monkeypatch):
    state, _ = spun(
        monkeypatch, "discard_colour", hands={2: ["G1", "G2", "GS", "B5", "G7", "W", "Y1"]}
    )
    with pytest.raises(IllegalCommand, match="same colour"):
        step(state, discard(["G1", "B5"]))
    with pytest.raises(IllegalCommand, match="W has no colour"):
        step(state, discard(["G1", "W"]))


def test_discard_colour_with_only_wild_cards_changes_nothing(monkeypatch):
    state, events = spun(
        monkeypatch, "discard_colour", hands={2: ["W", "W", "W", "W", "W4", "W4", "W4"]}
    )
    assert events == [WheelSpun(2, "discard_colour"), TurnBegan(0)]


def test_a_discard_must_name_cards_the_spinner_holds(monkeypatch):
    state, _ = spun(monkeypatch, "discard_colour", hands={2: SPINNER})
    with pytest.raises(IllegalCommand, match="does not hold"):
        step(state, discard(["B1", "B9"]))
    with pytest.raises(IllegalCommand, match="does not hold"):
        step(state, discard(["B1", "B1"]))
    with pytest.raises(InvalidCommand, match="name the cards"):
        step(state, discard([]))


def test_only_the_spinner_discards(monkeypatch):
    state, _ = spun(monkeypatch, "discard_colour", hands={2: SPINNER})
    with pytest.raises(
        IllegalCommand,
        match=r"seat 0 cannot wheel_discard now: seat 2 discards cards of the colour on top",
    ):
        step(state, discard(["B1"], seat=0))


# After the wheel -----------------------------------------------------------------------------


def test_after_the_spinners_discard_play_moves_on_to_the_player_after_the_spinner(monkeypatch):
    state, _ = spun(monkeypatch, "discard_number", hands={2: SPINNER})
    state, events = play(state, discard(["B1"]))
    assert events[-1] == TurnBegan(0) and state.pending == ("turn", 0)


def test_play_moves_past_the_spinner_in_the_current_direction(monkeypatch):
    # Seat 1 reverses (play runs right: 1, 0, 2); seat 0 plays the Spin card; seat 2 spins;
    # seat 1 plays next.
    stop_wheel_on(monkeypatch, "discard_number")
    state = table(
        opener=["RV", "B9", "G9", "Y8", "B8", "G8", "Y9"],
        hands={0: ["R3~", "Y1", "Y2", "Y3", "Y4", "Y7", "Y7"], 2: SPINNER},
    )
    state, _ = play(state, PlayCard(1, "RV"), PlayCard(0, "R3~"))
    assert state.pending == ("spin", 2)
    state, events = play(state, SpinWheel(2), discard(["B1"]))
    assert state.pending == ("turn", 1)


# The top card --------------------------------------------------------------------------------


def test_the_spinner_chooses_which_discarded_card_lands_on_top(monkeypatch):
    state, _ = spun(monkeypatch, "discard_number", hands={2: SPINNER})
    state, _ = play(state, discard(["R5~", "B5", "Y5"]))
    assert state.discard[-3:] == ("R5~", "B5", "Y5")
    assert state.colour == "Y"
    # The next player matches the yellow 6: a yellow card or a 6.
    assert state.pending == ("turn", 0)


def test_a_wild_on_top_calls_the_colour_in_play(monkeypatch):
    state, _ = spun(monkeypatch, "almost_uno", hands={2: SPINNER})
    state, _ = play(state, keep(["B5", "R5~"]))
    state, _ = play(state, discard(["B1", "G2", "Y5", "GD2", "W"], colour="Y"))
    assert state.discard[-1] == "W" and state.colour == "Y"


def test_a_wild_on_top_needs_a_colour_and_only_a_wild_takes_one(monkeypatch):
    state, _ = spun(monkeypatch, "almost_uno", hands={2: SPINNER})
    state, _ = play(state, keep(["B5", "R5~"]))
    with pytest.raises(InvalidCommand, match="needs a colour"):
        step(state, discard(["B1", "G2", "Y5", "GD2", "W"]))
    with pytest.raises(InvalidCommand, match="only called with a wild"):
        step(state, discard(["B1", "G2", "Y5", "W", "GD2"], colour="Y"))


def test_an_action_card_discarded_on_top_changes_what_is_in_play_but_does_nothing(monkeypatch):
    state, _ = spun(monkeypatch, "almost_uno", hands={2: SPINNER})
    state, _ = play(state, keep(["B5", "R5~"]))
    state, events = play(state, discard(["B1", "G2", "Y5", "W", "GD2"]))
    assert state.discard[-1] == "GD2" and state.colour == "G"
    assert events[-1] == TurnBegan(0)  # seat 0 draws nothing and is not skipped
    assert len(state.hands[0]) == 7


def test_the_legal_list_offers_each_discarded_card_on_top_and_each_colour_for_a_wild(monkeypatch):
    state, _ = spun(monkeypatch, "almost_uno", hands={2: SPINNER})
    state, _ = play(state, keep(["B5", "R5~"]))
    tops = {(c.cards[-1], c.colour) for c in legal_commands(state, 2)}
    plain = {(card, None) for card in ("B1", "G2", "Y5", "GD2")}
    assert tops == plain | {("W", colour) for colour in "RGBY"}
    # Discard Colour: the card discarded last, after any laid down, is on top.
    state, _ = spun(monkeypatch, "discard_colour", hands={2: SPINNER})
    state = with_hands(state, seat2=("W", "B1", "G2", "G7"))
    tops = set()
    for first in ("G2", "G7"):
        after, _ = play(state, lay(first))
        tops |= {(c.cards[-1], c.colour) for c in legal_commands(after, 2)}
    assert tops == {("G2", None), ("G7", None)}


def test_discard_colour_lists_a_few_commands_for_a_hand_of_one_colour():
    # Twelve different red cards: a list of every set with each card on top would name
    # more than 24,000 discards; a card at a time, each is discarded or laid down.
    state, _ = start_from(
        "spin|players=2|hand=1|dealer=0|pending=discard_colour:1|dir=+|colour=R|discard=R3~"
        "|pile=*|hands=G1,G2/R0,R1,R2,R4,R5,R6,R7,R8,R9,RS,RV,RD2,G3",
        seed="s",
    )
    legal = legal_commands(state, 1)
    assert len(legal) == 12 * 2 + 1  # the G3 alone: discarded, not laid
    assert WheelDiscard(1, ("G3",)) in legal and WheelLay(1, "G3") not in legal


def test_a_discard_round_trips_through_its_api_shape():
    cmd = WheelDiscard(2, ("B1", "W"), "G", True)
    assert cmd.to_dict() == {
        "type": "wheel_discard",
        "cards": ["B1", "W"],
        "colour": "G",
        "uno": True,
    }
    assert command_from_dict(2, cmd.to_dict()) == cmd
    with pytest.raises(InvalidCommand, match="cards is required"):
        command_from_dict(2, {"type": "wheel_discard"})


# One card left, or none ----------------------------------------------------------------------


def test_a_discard_that_leaves_one_card_without_uno_can_be_caught_before_the_next_player_plays(
    monkeypatch,
):
    state, _ = spun(
        monkeypatch, "discard_colour", hands={2: ["G1", "G2", "GS", "B5", "G7", "GV", "G9"]}
    )
    state, _ = play(state, discard(["G1", "G2", "GS", "G7", "GV", "G9"]))
    assert state.hands[2] == ("B5",) and state.exposed == 2
    assert Catch(0, 2) in legal_commands(state, 0)
    state, events = step(state, Catch(1, 2))
    assert events[0] == UnoCaught(2, 1) and len(state.hands[2]) == 3


def test_uno_is_called_with_the_discard_that_leaves_one_card(monkeypatch):
    state, _ = spun(
        monkeypatch, "discard_colour", hands={2: ["G1", "G2", "GS", "B5", "G7", "GV", "G9"]}
    )
    by_steps, _ = play(state, *(lay(card) for card in ["G2", "GS", "G7", "GV", "G9"]))
    assert legal_commands(by_steps, 2) == [discard(["G1"]), discard(["G1"], uno=True)]
    by_steps, _ = play(by_steps, discard(["G1"], uno=True))
    assert by_steps.hands[2] == ("B5",) and by_steps.exposed is None
    state, _ = play(state, discard(["G1", "G2", "GS", "G7", "GV", "G9"], uno=True))
    assert state.exposed is None


def test_uno_is_refused_with_a_discard_that_leaves_more_than_one_card(monkeypatch):
    state, _ = spun(
        monkeypatch, "discard_colour", hands={2: ["G1", "G2", "GS", "B5", "G7", "GV", "G9"]}
    )
    with pytest.raises(IllegalCommand, match="leaves one card"):
        step(state, discard(["G1"], uno=True))


def test_a_player_whose_hand_the_wheel_empties_goes_out(monkeypatch):
    state, _ = spun(
        monkeypatch, "discard_colour", hands={2: ["G1", "G2", "GS", "G6", "G7", "GV", "G9"]}
    )
    state, events = play(state, discard(["G1", "G2", "GS", "G6", "G7", "GV", "G9"]))
    ended = next(e for e in events if type(e) is HandEnded)
    assert ended.winner == 2 and state.hands[2] == ()


def test_discard_colour_refuses_another_colour_once_a_card_is_down_in_words(monkeypatch):
    state, _ = spun(monkeypatch, "discard_colour", hands={2: SPINNER})
    state = with_hands(state, seat2=("W", "B1", "G2", "G7"))
    state, _ = play(state, lay("G7"))
    with pytest.raises(IllegalCommand, match="must all be green, the colour on top"):
        step(state, discard(["B1"]))


MORE = (
    "spin|players=2|hand=1|dealer=0|pending=discard_colour_more:1|dir=+|colour=R"
    "|discard={discard}|pile=*|hands=G1,G2/{hand}"
)


def test_a_position_may_wait_for_more_of_the_colour_on_top():
    state, _ = start_from(MORE.format(discard="R3~,R5", hand="R7,G3"), seed="s")
    assert state.pending == ("discard_colour_more", 1)
    assert legal_commands(state, 1) == [
        WheelDiscard(1, ("R7",)),
        WheelDiscard(1, ("R7",), uno=True),
    ]


@pytest.mark.parametrize(
    ("discard", "hand", "refusal"),
    [
        ("R3~,R5", "G3,B4", "holds no such card"),  # nothing more of red to discard
        ("R3~,W", "R7,G3", "which has none"),  # a wild on top has no colour
    ],
)
def test_a_position_waiting_for_more_of_a_colour_needs_it_on_top_and_in_the_hand(
    discard, hand, refusal
):
    with pytest.raises(PositionError, match=refusal):
        start_from(MORE.format(discard=discard, hand=hand), seed="s")
