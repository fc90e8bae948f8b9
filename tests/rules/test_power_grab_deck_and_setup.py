"""UNO Power Grab: the 112-card deck and its Power Icons, card points, the dealer draw, the
towers at the start of a hand and the card turned up to start."""

from collections import Counter

import pytest

from rules.commands import ChooseColour, DealHand, DrawCard, PlayCard
from rules.deck import main as print_deck
from rules.engine import legal_commands, new_game
from rules.errors import IllegalCommand, InvalidCommand
from rules.events import CardsDrawn, DirectionReversed, SeatSkipped, StarterReturned, TurnBegan
from rules.variants import get_variant, variant_names
from rules.variants.classic.variant import COLOUR, RANK
from rules.variants.power_grab.commands import PowerGrabPlay
from rules.variants.power_grab.events import TOWERS, TowersGrabbed
from rules.variants.power_grab.variant import ICON, PowerGrab
from tests.rules.helpers import arranged_deck, play, types

from .power_grab_helpers import holders, table

PG = get_variant("power_grab")
DECK = Counter(PG.deck)
UNCLAIMED = dict.fromkeys(TOWERS)
# Two seats, dealer 0: seat 1 plays six Skips in a row (seat 0 never gets a turn) and then
# its last card, a blue one, to go out on the last Skip.
SKIPS = ["RS", "RS", "GS", "GS", "BS", "BS"]


def turned_up(starter):
    """A new three-player game, dealer 0, with ``starter`` turned up: its state and events."""
    return new_game(
        variant="power_grab",
        players=3,
        dealer=0,
        deck=arranged_deck("power_grab", 3, starter=starter),
    )


def go_out(state, last):
    for card in SKIPS[:-1]:
        state, _ = play(state, PlayCard(1, card))
    state, _ = play(state, PlayCard(1, "BS", uno=True))
    return play(state, PlayCard(1, last))


# The deck (CONTENTS) ----------------------------------------------------------------------------


def test_the_edition_is_registered_as_power_grab():
    assert "power_grab" in variant_names()
    assert isinstance(PG, PowerGrab)


def test_the_deck_has_112_cards():
    assert sum(DECK.values()) == 112


def test_each_colour_has_the_numbers_1_to_9_twice_and_no_zero():
    for colour in "RGBY":
        numbers = Counter(
            RANK[c] for c in DECK.elements() if COLOUR[c] == colour and RANK[c].isdigit()
        )
        assert sum(numbers.values()) == 18
        assert numbers == Counter({str(n): 2 for n in range(1, 10)})
        assert not PG.has_card(f"{colour}0")


def test_each_colour_has_two_draw_one_two_draw_two_and_two_skip_cards():
    for colour in "RGBY":
        assert DECK[f"{colour}D1"] == 2
        assert DECK[f"{colour}D2"] == 2
        assert DECK[f"{colour}S"] == 2


def test_each_colour_has_one_reverse_and_one_grab_two_towers():
    for colour in "RGBY":
        assert DECK[f"{colour}V"] == 1
        assert DECK[f"{colour}G2"] == 1


def test_there_are_four_wild_grab_a_tower_and_four_wild_draw_four_and_no_plain_wild():
    assert DECK["WG"] == 4
    assert DECK["W4"] == 4
    assert DECK["W"] == 0


def test_each_power_icon_appears_twice_in_each_colour():
    for colour in "RGBY":
        icons = Counter(ICON[c] for c in DECK.elements() if COLOUR[c] == colour and c in ICON)
        assert icons == Counter({"U": 2, "N": 2, "O": 2, "!": 2})


def test_the_icons_are_on_the_first_copy_of_1_to_8_the_same_in_every_colour():
    # U on 1 and 5, N on 2 and 6, O on 3 and 7, ! on 4 and 8; both 9s and the second copy
    # of every number are plain (docs/RULINGS.md).
    for colour in "RGBY":
        marked = sorted((int(RANK[c]), ICON[c]) for c in DECK if COLOUR[c] == colour and c in ICON)
        assert marked == [
            (1, "U"),
            (2, "N"),
            (3, "O"),
            (4, "!"),
            (5, "U"),
            (6, "N"),
            (7, "O"),
            (8, "!"),
        ]
        assert DECK[f"{colour}9"] == 2
        assert all(DECK[f"{colour}{n}"] == 1 for n in range(1, 9))


def test_only_number_cards_carry_a_power_icon():
    assert all(RANK[c].isdigit() for c in ICON)
    assert not PG.has_card("R9:U")


def test_the_deck_printer_prints_the_power_grab_deck(capsys):
    assert print_deck(["--variant", "power_grab"]) == 0
    printed = capsys.readouterr().out.split()
    assert len(printed) == 112
    assert Counter(printed) == DECK
    assert "R5:U" in printed and "YG2" in printed and "BD1" in printed


def test_an_explicit_deck_must_be_a_complete_power_grab_deck():
    deck = arranged_deck("power_grab", 3)
    deck[deck.index("R1:U")] = "R1"
    with pytest.raises(InvalidCommand, match="the deck has 2 of R1; a UNO Power Grab deck has 1"):
        new_game(variant="power_grab", players=3, dealer=0, deck=deck)


# Scoring ----------------------------------------------------------------------------------------


def test_number_cards_score_their_face_value_with_or_without_an_icon():
    assert [PG.points(c) for c in ("R1", "R1:U", "G5:U", "B8:!", "Y9")] == [1, 1, 5, 8, 9]


def test_draw_one_draw_two_reverse_and_skip_score_20():
    assert [PG.points(c) for c in ("RD1", "GD2", "BV", "YS")] == [20, 20, 20, 20]


def test_grab_two_towers_wild_grab_a_tower_and_wild_draw_four_score_50():
    assert [PG.points(c) for c in ("RG2", "WG", "W4")] == [50, 50, 50]


def test_the_player_who_goes_out_scores_the_cards_left_in_the_opponents_hands():
    left = ["RD1", "WG", "B5:U", "YG2", "G9", "Y2", "Y4"]  # 20 + 50 + 5 + 50 + 9 + 2 + 4
    state = table({1: SKIPS + ["B7"], 0: left}, players=2)
    state, events = go_out(state, "B7")
    ended = next(e for e in events if e.type == "hand_ended")
    assert ended.held == (140, 0)
    assert ended.gained == (0, 140)


def test_the_game_is_won_by_the_first_player_to_reach_the_target():
    left = ["RD1", "WG", "B5:U", "YG2", "G9", "Y2", "Y4"]
    state = table({1: SKIPS + ["B7"], 0: left}, players=2, target=100)
    state, events = go_out(state, "B7")
    assert state.finished and state.winner == 1 and state.scores == (0, 140)


def test_in_alternative_scoring_the_lowest_total_wins_when_someone_reaches_the_target():
    left = ["RD1", "WG", "B5:U", "YG2", "G9", "Y2", "Y4"]
    state = table({1: SKIPS + ["B7"], 0: left}, players=2, target=100, scoring="alternative")
    state, events = go_out(state, "B7")
    assert state.finished and state.winner == 1 and state.scores == (140, 0)


# Setup ------------------------------------------------------------------------------------------


def test_action_cards_count_zero_in_the_dealer_draw():
    assert [PG.dealer_value(c) for c in ("RD1", "RG2", "WG", "W4", "BS", "GV", "YD2")] == [0] * 7


def test_a_number_card_with_an_icon_counts_its_number_in_the_dealer_draw():
    assert PG.dealer_value("R7:O") == 7


def test_the_four_towers_start_unclaimed():
    state = table({})
    assert holders(state) == UNCLAIMED


def test_every_new_hand_starts_with_the_towers_unclaimed_again():
    # Seat 1 grabs the U tower (seat 0 draws a card it cannot play), then goes out.
    state = table(
        {1: ["RS", "R1:U"] + SKIPS[1:], 0: ["Y2", "Y4", "Y6", "Y7", "Y8", "B2", "B4"]},
        players=2,
        draws=["Y9"],
    )
    state, _ = play(state, PlayCard(1, "RS"), PlayCard(1, "R1:U"), DrawCard(0))
    assert holders(state)["U"] == 1
    state, _ = play(
        state, PlayCard(1, "RS"), PlayCard(1, "GS"), PlayCard(1, "GS"), PlayCard(1, "BS", uno=True)
    )
    state, _ = play(state, PlayCard(1, "BS"))
    assert state.pending == ("deal", 1) and holders(state)["U"] == 1
    state, _ = play(state, DealHand(1))
    assert holders(state) == UNCLAIMED


# The card turned up to start ---------------------------------------------------------------------


def test_a_draw_one_turned_up_makes_the_first_player_draw_one_and_miss_the_turn():
    state = table({}, starter="BD1", draws=["G9"])
    assert state.hands[1][-1] == "G9" and len(state.hands[1]) == 8
    assert state.pending == ("turn", 2)


def test_nobody_can_block_the_draw_one_turned_up_as_no_tower_is_held_yet():
    state, events = turned_up("BD1")
    assert types(events)[-4:] == ["starter_turned", "cards_drawn", "seat_skipped", "turn_began"]
    assert events[-3] == CardsDrawn(1, events[-3].cards, "draw_one") and len(events[-3].cards) == 1
    assert events[-2] == SeatSkipped(1)


def test_a_draw_two_turned_up_makes_the_first_player_draw_two_and_miss_the_turn():
    state = table({}, starter="GD2")
    assert len(state.hands[1]) == 9
    assert state.pending == ("turn", 2)


def test_a_skip_turned_up_skips_the_first_player():
    state, events = turned_up("YS")
    assert SeatSkipped(1) in events
    assert state.pending == ("turn", 2)


def test_a_reverse_turned_up_lets_the_dealer_go_first_and_play_moves_to_the_right():
    state, events = turned_up("RV")
    assert DirectionReversed(-1) in events
    assert events[-1] == TurnBegan(0)


def test_a_grab_two_towers_turned_up_grabs_no_tower():
    state, events = turned_up("RG2")
    assert not any(type(e) is TowersGrabbed for e in events)
    assert holders(state) == UNCLAIMED
    assert state.pending == ("turn", 1)


def test_a_power_icon_card_turned_up_grabs_no_tower_and_play_starts_as_usual():
    state, events = turned_up("R5:U")
    assert state.discard == ("R5:U",)
    assert not any(type(e) is TowersGrabbed for e in events)
    assert holders(state) == UNCLAIMED
    assert state.pending == ("turn", 1) and state.colour == "R"


def test_the_grab_two_towers_turned_up_is_matched_by_colour():
    state = table({1: ["R8"]}, starter="RG2")
    state, _ = play(state, PlayCard(1, "R8"))
    assert state.top == "R8"


def test_another_grab_two_towers_cannot_be_played_on_the_one_turned_up():
    state = table({1: ["BG2"]}, starter="RG2")
    assert not any(getattr(c, "card", None) == "BG2" for c in legal_commands(state, 1))
    with pytest.raises(IllegalCommand, match="BG2 cannot be played on RG2"):
        play(state, PowerGrabPlay(1, "BG2", towers=("U", "N")))


def test_a_wild_may_be_played_on_the_grab_two_towers_turned_up():
    state = table({1: ["WG"]}, starter="RG2")
    state, _ = play(state, PowerGrabPlay(1, "WG", "B", towers=("O",)))
    assert state.colour == "B" and holders(state)["O"] == 1


def test_the_grab_two_towers_turned_up_stays_colour_only_for_the_next_players():
    # Seat 1 draws and keeps its card; the turned-up card is still alone on the pile.
    state = table({2: ["GG2"]}, starter="RG2", draws=["B9"])
    state, _ = play(state, DrawCard(1))
    assert state.pending == ("turn", 2)
    with pytest.raises(IllegalCommand, match="GG2 cannot be played on RG2"):
        play(state, PowerGrabPlay(2, "GG2", towers=("U", "N")))


def test_a_grab_two_towers_played_later_may_be_covered_by_another():
    state = table({1: ["RG2", "B2"], 2: ["BG2", "G2"]})
    state, _ = play(
        state,
        PowerGrabPlay(1, "RG2", towers=("U", "N")),
        PowerGrabPlay(2, "BG2", towers=("U", "O")),
    )
    assert state.top == "BG2" and holders(state) == {"U": 2, "N": 1, "O": 2, "!": None}


def test_a_wild_grab_a_tower_turned_up_lets_the_first_player_choose_the_colour_without_a_tower():
    state = table({}, starter="WG")
    assert state.pending == ("colour", 1)
    state, events = play(state, ChooseColour(1, "Y"))
    assert state.colour == "Y" and state.pending == ("turn", 1)
    assert holders(state) == UNCLAIMED


def test_a_wild_draw_four_turned_up_goes_back_into_the_deck():
    deck = arranged_deck("power_grab", 3)
    deck.insert(21, deck.pop(deck.index("W4")))  # the card turned up after the deal
    state, events = new_game(variant="power_grab", players=3, dealer=0, deck=deck)
    assert events[types(events).index("starter_returned")] == StarterReturned("W4")
    assert state.top != "W4" and state.pile[-1] == "W4"
