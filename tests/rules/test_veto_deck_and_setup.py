"""UNO VETO: the deck, the options, the setup and the first card turned up."""

import json
from collections import Counter

import pytest

from rules.commands import ChooseColour, PlayCard
from rules.deck import main as print_deck
from rules.engine import legal_commands, new_game, replay, step
from rules.errors import IllegalCommand, InvalidCommand
from rules.events import DealerChosen, GameStarted, event_from_dict
from rules.state import GameState
from rules.variants import get_variant
from rules.variants.veto.events import CustomizablePlayed, VetoState

from .helpers import arranged_deck
from .veto_helpers import table

VETO = get_variant("veto")


# Contents -------------------------------------------------------------------------------------


def test_the_deck_has_the_rulebooks_contents_without_the_veto_card():
    # "112 cards": 19 of each colour 0 to 9, 8 Draw Two, 8 Reverse, 8 Skip, 4 Wild,
    # 4 Wild Draw Four, 1 VETO card, 3 Wild Customizable. The VETO card is never dealt.
    deck = Counter(VETO.deck)
    assert sum(deck.values()) + 1 == 112
    for colour in "PGOY":
        numbers = [c for c in deck.elements() if c[0] == colour and c[1:].isdigit()]
        assert len(numbers) == 19
        assert deck[f"{colour}0"] == 1
        assert all(deck[f"{colour}{n}"] == 2 for n in range(1, 10))
        assert deck[f"{colour}D2"] == deck[f"{colour}V"] == deck[f"{colour}S"] == 2
    assert deck["W"] == 4 and deck["W4"] == 4 and deck["WC"] == 3
    assert not any(c.startswith(("R", "B")) for c in deck)


def test_the_colours_are_purple_green_orange_and_yellow():
    assert VETO.colours == ("P", "G", "O", "Y")


def test_the_deck_printer_prints_the_veto_deck(capsys):
    assert print_deck(["--variant", "veto"]) == 0
    printed = capsys.readouterr().out.split()
    assert Counter(printed) == Counter(VETO.deck)
    assert len(printed) == 111


def test_the_deck_printer_follows_the_number_of_customizable_cards(capsys):
    assert print_deck(["--variant", "veto", "--option", 'customizable=["joke"]']) == 0
    printed = capsys.readouterr().out.split()
    assert len(printed) == 109 and printed.count("WC") == 1


def test_the_deck_printer_names_a_bad_option(capsys):
    with pytest.raises(SystemExit):
        print_deck(["--variant", "veto", "--option", "customizable=4"])
    assert "options.customizable" in capsys.readouterr().err


def test_a_customizable_card_scores_40_points():
    assert VETO.points("WC") == 40
    assert VETO.points("W") == VETO.points("W4") == 50
    assert VETO.points("PS") == VETO.points("GV") == VETO.points("OD2") == 20
    assert VETO.points("Y7") == 7


# Options ---------------------------------------------------------------------------------------


def options(value):
    return dict(VETO.parse_options({"customizable": value}))["customizable"]


def test_by_default_the_deck_has_three_blank_customizable_cards():
    assert VETO.parse_options({}) == (("customizable", ("blank", "blank", "blank")),)


@pytest.mark.parametrize("count", [0, 1, 2, 3])
def test_the_table_decides_how_many_customizable_cards_are_in_the_deck(count):
    # "Before the game begins, decide how many of these cards to include."
    rules = options(count)
    assert rules == ("blank",) * count
    deck = VETO.deck_for((("customizable", rules),))
    assert deck.count("WC") == count and len(deck) == 108 + count


def test_a_list_gives_each_card_its_house_rule():
    assert options(["joke", "extra_turn"]) == ("joke", "extra_turn")


def test_the_thought_starters_may_be_named_by_their_number_in_the_rulebook():
    assert options([1, 2, 3]) == ("draw_until_colour", "discard_wilds", "three_if_stuck")
    assert options([4, 5, 6]) == ("extra_turn", "seven_cards", "three_cards")
    assert options([7, 8, 9]) == ("face_up", "joke", "elbows")
    assert options([10]) == ("rooster",)


def test_a_house_rule_of_ones_own_is_written_as_free_text():
    assert options(["text:Sing the chorus", {"text": "Stand up"}]) == (
        "text:Sing the chorus",
        "text:Stand up",
    )


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (4, "0 to 3"),
        (-1, "0 to 3"),
        (True, "expected a list of house rules"),
        ("three", "expected a list of house rules"),
        (["joke"] * 4, "at most 3"),
        (["jokes"], r"options.customizable\[0\]: unknown house rule 'jokes'"),
        ([11], "numbered 1 to 10"),
        (
            ["blank", "text:   "],
            r"options.customizable\[1\]: a free-text house rule needs its text",
        ),
        ([{"rule": "x"}], "free-text house rule is"),
        ([None], "expected a house rule"),
        (["text:" + "x" * 201], "at most 200 characters"),
    ],
)
def test_a_bad_customizable_option_is_refused_naming_it(value, message):
    with pytest.raises(InvalidCommand, match=message) as error:
        VETO.parse_options({"customizable": value})
    assert error.value.field.startswith("options.customizable")


def test_an_unknown_option_is_refused_naming_it():
    with pytest.raises(InvalidCommand, match="unknown option 'vetoes'") as error:
        new_game(variant="veto", options={"vetoes": 2})
    assert error.value.field == "options.vetoes"


def test_the_options_are_recorded_as_parsed_and_survive_a_json_round_trip():
    state, events = new_game(variant="veto", seed="s", options={"customizable": [8, "text:Hop"]})
    started = events[0]
    assert started.options == (("customizable", ("joke", "text:Hop")),)
    again = event_from_dict(json.loads(json.dumps(started.to_dict())))
    assert again == started


def test_an_explicit_deck_must_have_as_many_customizable_cards_as_the_option_says():
    deck = arranged_deck("veto", 3, options={"customizable": 3})
    with pytest.raises(InvalidCommand, match="the deck has 3 of WC; a UNO VETO deck has 1"):
        new_game(variant="veto", players=3, dealer=0, deck=deck, options={"customizable": ["joke"]})
    short = arranged_deck("veto", 3, options={"customizable": 0})
    with pytest.raises(InvalidCommand, match="the deck has 0 of WC; a UNO VETO deck has 3"):
        new_game(variant="veto", players=3, dealer=0, deck=short)


def test_a_seeded_deal_uses_the_deck_the_option_makes():
    state, _ = new_game(variant="veto", players=4, seed="x", options={"customizable": 1})
    assert Counter(state.all_cards()) == Counter(VETO.deck_for(state.options))
    assert state.all_cards().count("WC") == 1


# Setup -----------------------------------------------------------------------------------------


def test_the_veto_card_starts_in_the_middle():
    # "Remove the VETO card from the deck and set it in middle of the playing area."
    state = table()
    assert isinstance(state.extra, VetoState) and state.extra.veto is None
    assert "VETO" not in state.all_cards()


def test_the_dealer_deals_seven_cards_each_and_the_player_left_of_the_dealer_starts():
    state = table(players=4, dealer=2)
    assert [len(h) for h in state.hands] == [7, 7, 7, 7]
    assert state.pending == ("turn", 3)
    assert len(state.draw_pile) == 111 - 28 - 1


def test_the_dealer_is_drawn_as_in_classic_uno_when_not_named():
    # The rulebook's setup has no dealer draw; the engine keeps the classic draw (C7).
    state, events = new_game(variant="veto", players=3, seed="dealer")
    drawn = next(e for e in events if type(e) is DealerChosen)
    assert drawn.draws and state.dealer == drawn.dealer
    assert VETO.dealer_value("WC") == 0 and VETO.dealer_value("P9") == 9


def test_the_dealer_draw_uses_the_game_deck():
    _, events = new_game(variant="veto", players=10, seed="d", options={"customizable": 0})
    drawn = next(e for e in events if type(e) is DealerChosen)
    assert all(card != "WC" for row in drawn.draws for card in row)


# The first card turned up ----------------------------------------------------------------------


def test_a_customizable_card_turned_up_lets_the_player_left_of_the_dealer_choose_the_colour():
    state = table(["extra_turn"], starter="WC")
    assert state.pending == ("colour", 1)
    assert legal_commands(state, 1)[:4] == [ChooseColour(1, c) for c in "PGOY"]
    state, _ = step(state, ChooseColour(1, "O"))
    assert state.colour == "O" and state.pending == ("turn", 1)


def test_the_house_rule_of_a_customizable_card_turned_up_does_not_apply():
    state = table(["extra_turn"], starter="WC")
    state, events = step(state, ChooseColour(1, "G"))
    assert not any(type(e) is CustomizablePlayed for e in events)
    state, _ = step(state, PlayCard(1, "G9"))
    assert state.pending == ("turn", 2)  # no extra turn for anyone


def test_a_colour_outside_the_edition_is_refused():
    state = table(starter="W")
    with pytest.raises(InvalidCommand, match="unknown colour 'R': expected one of P, G, O, Y"):
        step(state, ChooseColour(1, "R"))


def test_a_draw_two_turned_up_makes_the_first_player_draw_two_and_miss_the_turn():
    state = table(starter="OD2")
    assert len(state.hands[1]) == 9 and state.pending == ("turn", 2)


def test_a_wild_draw_four_turned_up_goes_back_into_the_deck():
    state = table(starter="W4")
    assert state.top != "W4" and state.draw_pile[-1] == "W4"


def test_the_edition_state_survives_a_snapshot():
    state = table(["joke", "rooster"], hands={1: ["WC"], 2: ["WC"] + ["G1"] * 2})
    again = GameState.from_dict(json.loads(json.dumps(state.to_dict())))
    assert again == state and isinstance(again.extra, VetoState)


def test_a_game_replays_to_the_same_state():
    state, events = new_game(
        variant="veto", players=4, seed="r", options={"customizable": [1, 7, 8]}
    )
    assert replay(events) == state
    assert type(events[0]) is GameStarted


def test_the_veto_card_cannot_be_slapped_before_the_game_starts():
    from rules.variants.veto.commands import SlapVeto

    with pytest.raises(IllegalCommand):
        step(GameState(), SlapVeto(0, 1))
