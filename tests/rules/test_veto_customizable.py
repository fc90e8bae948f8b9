"""UNO VETO: playing a Wild Customizable card, and which card carries which house rule."""

import pytest

from rules.commands import DrawCard, Pass, PlayCard, command_from_dict
from rules.engine import legal_commands, step
from rules.errors import IllegalCommand, InvalidCommand
from rules.events import CardPlayed, HandEnded, TurnBegan
from rules.variants.veto.commands import VetoPlay
from rules.variants.veto.events import CustomizableDealt, CustomizablePlayed, HouseRulesDrawn
from rules.views import event_view, game_view

from .helpers import play, start
from .veto_helpers import seated, table

HAND = ["P1", "O2", "G9", "Y8", "PS", "OV"]


# Matching (as classic UNO, in the edition's colours) -------------------------------------------


def test_on_an_orange_7_an_orange_card_or_any_7_may_be_played():
    # The rulebook's example: "If the card on the DISCARD pile is a orange 7, the player must
    # put down a orange card OR any color 7."
    state = table(hands={1: ["O2", "P7", "G5", "Y1", "WC", "G2", "Y3"]}, starter="O7")
    plays = {c.card for c in legal_commands(state, 1) if c.type == "play"}
    assert plays == {"O2", "P7", "WC"}
    with pytest.raises(IllegalCommand, match="G5 cannot be played on O7"):
        step(state, PlayCard(1, "G5"))


# Playing a Customizable card -------------------------------------------------------------------


def test_a_customizable_card_may_be_played_even_with_another_playable_card_and_calls_the_colour():
    state = table(hands={1: ["WC", "P1"]}, starter="P5")
    state, events = step(state, PlayCard(1, "WC", "G"))
    assert events[0] == CardPlayed(1, "WC", "G", False)
    assert state.colour == "G" and state.top == "WC" and state.pending == ("turn", 2)


def test_a_customizable_card_needs_a_colour_of_the_edition():
    state = table(hands={1: ["WC"]})
    with pytest.raises(InvalidCommand, match="playing WC needs a colour"):
        step(state, PlayCard(1, "WC"))
    with pytest.raises(InvalidCommand, match="unknown colour 'B'"):
        step(state, PlayCard(1, "WC", "B"))


def test_the_colour_in_play_may_be_called_again():
    state = table(hands={1: ["WC"]}, starter="P5")
    state, _ = step(state, PlayCard(1, "WC", "P"))
    assert state.colour == "P"


def test_a_blank_customizable_card_plays_as_a_plain_wild():
    state = table(["blank"], hands={1: ["WC"] + HAND})
    state, events = step(state, PlayCard(1, "WC", "Y"))
    assert CustomizablePlayed(1, "blank", "") in events
    assert state.pending == ("turn", 2) and len(state.hands[2]) == 7


def test_a_free_text_house_rule_is_recorded_and_plays_as_a_plain_wild():
    state = table(["text:Everyone stands up"], hands={1: ["WC"] + HAND})
    state, events = step(state, PlayCard(1, "WC", "Y"))
    assert CustomizablePlayed(1, "text:Everyone stands up", "Everyone stands up") in events
    assert state.pending == ("turn", 2)


def test_the_elbows_rule_is_recorded_with_its_words_and_plays_as_a_plain_wild():
    state = table(["elbows"], hands={1: ["WC"] + HAND})
    state, events = step(state, PlayCard(1, "WC", "Y"))
    played = next(e for e in events if type(e) is CustomizablePlayed)
    assert played.rule == "elbows" and "bend their elbows" in played.text
    assert state.pending == ("turn", 2) and len(state.hands[2]) == 7


def test_the_rule_is_for_customizable_cards_only():
    state = table(hands={1: ["P1"]})
    with pytest.raises(InvalidCommand, match="rule is only for Wild Customizable cards"):
        step(state, VetoPlay(1, "P1", rule="joke"))


def test_the_house_rule_of_a_customizable_card_played_as_the_last_card_is_not_carried_out():
    # "Once a player has no cards left, the round is over."
    state = seated(["seven_cards"], hands={1: ["WC"]})
    state, events = step(state, PlayCard(1, "WC", "G", uno=False))
    assert CustomizablePlayed(1, "seven_cards", events[1].text) in events
    ended = next(e for e in events if type(e) is HandEnded)
    assert ended.winner == 1 and len(state.hands[2]) == 7


# Which card is which ---------------------------------------------------------------------------


def two_rules():
    """Seat 1 holds both Customizable cards of the deck: one says extra_turn, one face_up."""
    return table(["extra_turn", "face_up"], hands={1: ["WC", "WC"] + HAND[:5]})


def test_the_deal_records_the_house_rules_each_seat_was_dealt():
    state, events = play(two_rules())
    assert state.extra.held[1] == ("extra_turn", "face_up")
    assert state.extra.held[0] == state.extra.held[2] == ()


def test_a_hand_holding_cards_with_different_rules_names_the_one_it_plays():
    state = two_rules()
    with pytest.raises(
        InvalidCommand, match="name the house rule .*: one of extra_turn, face_up"
    ) as error:
        step(state, PlayCard(1, "WC", "G"))
    assert error.value.field == "rule"
    state, events = step(state, VetoPlay(1, "WC", "G", rule="face_up"))
    assert CustomizablePlayed(1, "face_up", events[1].text) in events
    assert state.extra.held[1] == ("extra_turn",)


def test_a_rule_the_hand_does_not_hold_is_refused():
    with pytest.raises(
        IllegalCommand, match="holds no Wild Customizable card with the house rule 'joke'"
    ):
        step(two_rules(), VetoPlay(1, "WC", "G", rule="joke"))


def test_the_legal_plays_name_each_rule_the_hand_holds():
    wilds = [c for c in legal_commands(two_rules(), 1) if c.type == "play" and c.card == "WC"]
    assert {c.rule for c in wilds} == {"extra_turn", "face_up"}
    assert len(wilds) == 8  # two rules, four colours
    for c in wilds:
        assert command_from_dict(1, c.to_dict()) == c


def test_a_customizable_card_drawn_carries_one_of_the_rules_left_in_the_draw_pile():
    # Seat 1 holds the extra_turn card; the only card left in the pile carries the joke.
    state = table(["extra_turn", "joke"], hands={1: ["WC", "G1"]}, starter="P5", draws=["WC"])
    state, events = step(state, DrawCard(1))
    assert HouseRulesDrawn(1, ("joke",), "joke") in events
    assert state.pending == ("drawn", 1) and state.extra.held[1] == ("extra_turn", "joke")


def test_a_customizable_card_drawn_again_after_an_undo_carries_the_same_rule():
    # An undo takes the game back while its version counts on; the rule a card drawn again
    # carries must not depend on that count, or a referee's undo would draw the rules anew.
    rules = ["three_if_stuck", "face_up", "joke"]
    for n in range(8):
        state = table(rules, hands={1: ["G1", "G2"]}, starter="P5", draws=["WC"])
        state.seed = f"undo-{n}"  # another game, another draw of the rules
        _, first = step(state, DrawCard(1))
        picked = {next(e for e in first if type(e) is HouseRulesDrawn).rules}
        for later in (1, 5, 40):
            again = state.copy()
            again.version += later
            _, events = step(again, DrawCard(1))
            picked.add(next(e for e in events if type(e) is HouseRulesDrawn).rules)
        assert len(picked) == 1, picked


def test_after_drawing_a_customizable_card_only_that_card_may_be_played():
    state = table(["extra_turn", "joke"], hands={1: ["WC", "G1"]}, starter="P5", draws=["WC"])
    state, _ = step(state, DrawCard(1))
    plays = [c for c in legal_commands(state, 1) if c.type == "play"]
    assert {c.rule for c in plays} == {"joke"}
    with pytest.raises(IllegalCommand, match="only the card drawn may be played"):
        step(state, VetoPlay(1, "WC", "G", rule="extra_turn"))
    state, events = step(state, PlayCard(1, "WC", "G"))
    assert CustomizablePlayed(1, "joke", events[1].text) in events


def test_a_customizable_card_drawn_and_kept_stays_with_its_rule():
    state = table(["extra_turn", "joke"], hands={1: ["WC", "G1"]}, starter="P5", draws=["WC"])
    state, _ = play(state, DrawCard(1), Pass(1))
    assert state.extra.held[1] == ("extra_turn", "joke")


def test_a_seat_sees_the_rules_of_its_own_cards_and_not_of_others():
    state = two_rules()
    mine = game_view(state, 1)["seats"][1]
    assert mine["hand_details"] == {"wild_customizable": ["extra_turn", "face_up"]}
    theirs = game_view(state, 2)["seats"][1]
    assert "hand" not in theirs and "hand_details" not in theirs


def test_the_deal_event_shows_each_seat_only_its_own_rules():
    state, events = start(
        "veto",
        3,
        hands={1: ["WC"], 2: ["WC", "G1"]},
        options={"customizable": ["extra_turn", "face_up"]},
    )
    dealt = next(e for e in events if type(e) is CustomizableDealt)
    assert sorted(dealt.held[1] + dealt.held[2]) == ["extra_turn", "face_up"]
    seen = event_view(dealt, 1)
    assert (
        seen["held"][1] == list(dealt.held[1])
        and seen["held"][2] is None
        and seen["held"][0] is None
    )


def test_every_draw_is_followed_by_a_record_that_tells_other_seats_nothing():
    state = table(["extra_turn", "joke"], hands={1: ["WC", "G1"]}, starter="P5", draws=["G2"])
    state, events = step(state, DrawCard(1))
    noted = next(e for e in events if type(e) is HouseRulesDrawn)
    assert noted == HouseRulesDrawn(1, (), None)
    assert event_view(noted, 2) == {
        "type": "house_rules_drawn",
        "seat": 1,
        "rules": None,
        "drawn": None,
    }


def test_cards_that_all_carry_the_same_rule_are_not_told_apart():
    state = table(["joke", "joke"], hands={1: ["WC", "G1"]}, starter="P5", draws=["WC"])
    state, events = step(state, DrawCard(1))
    assert not any(type(e) is HouseRulesDrawn for e in events)
    assert game_view(state, 1)["seats"][1]["hand_details"] == {
        "wild_customizable": ["joke", "joke"]
    }
    state, events = step(state, PlayCard(1, "WC", "G"))
    assert CustomizablePlayed(1, "joke", events[1].text) in events


def test_the_next_turn_begins_after_a_plain_customizable_card():
    state = table(["blank"], hands={1: ["WC", "P1"]})
    _, events = step(state, PlayCard(1, "WC", "O"))
    assert events[-1] == TurnBegan(2)
