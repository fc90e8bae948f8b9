"""UNO Spin, sentence by sentence (shared/rulebooks/uno-spin.txt): each scenario starts from
one position, sends the commands (the wheel stopped where the scenario needs it) and checks what
the book says happens (and docs/RULINGS.md where the book leaves the engine to decide)."""

import sys
from collections import Counter

from rules.chance import Fixed
from rules.commands import Accept, Catch, ChooseColour, DrawCard, PlayCard
from rules.variants import get_variant
from rules.variants.spin.commands import ClaimUnoSpin, SpinWheel, WheelDiscard, WheelKeep
from tests.rules.scenarios.support import (
    at,
    check_quotes,
    deal,
    first,
    kinds,
    offers,
    position,
    refused,
    send,
)

# Seat 1 opens with a red 3 Spin card on a red 7: seat 2 spins, seat 0 plays after seat 2.
OPENER = ["R3~", "B9"]


def spin(**fields):
    return at(position("spin", **fields))


def spun(segment: str, *, seat2, seat0=("G0",), opener=OPENER, pile=(), discard=("R7",), **more):
    """Seat 1 has played R3~ and seat 2 has spun ``segment``: the state and the spin's events."""
    state = spin(
        hands=[list(seat0), list(opener), list(seat2)],
        discard=list(discard),
        pile=list(pile),
        **more,
    )
    state, _ = send(state, PlayCard(1, "R3~"))
    return send(state, SpinWheel(2), chance=Fixed(wheel=[segment]))


def test_every_scenario_quotes_the_book_word_for_word():
    check_quotes(sys.modules[__name__], "uno-spin.txt")


def test_each_colour_has_19_number_cards_with_five_spin_cards_1_to_5():
    """
    > 19 Blue cards** - 0 to 9 (includes 5 Spin Cards #1-5)
    """
    deck = Counter(get_variant("spin").deck)
    assert sum(deck.values()) == 108  # the four Wheel Reference cards are not played
    blue = [card for card in deck.elements() if card[0] == "B" and card[1].isdigit()]
    assert len(blue) == 19
    assert sorted(card for card in blue if card.endswith("~")) == [f"B{n}~" for n in range(1, 6)]


def test_seven_cards_are_dealt_and_the_player_left_of_the_dealer_starts():
    """
    > Once the cards are shuffled each player is dealt 7 cards. … The person to the left of the
    > dealer starts play.
    """
    state, _ = deal("spin", 3, dealer=2, starter="B6")
    assert [len(hand) for hand in state.hands] == [7, 7, 7]
    assert state.pending == ("turn", 0)


def test_a_card_matches_by_number_or_colour_or_a_wild_is_played():
    """
    > For example, if the card is a red 7, the player must put down a red card or any color 7.
    > Alternatively, the player can put down a Wild card
    """
    state = spin(hands=[["B1"], ["R2~", "G7", "B3", "W", "Y4~"], ["Y1"]], discard=["R7"])
    assert {c.card for c in offers(state, 1) if isinstance(c, PlayCard)} == {"R2~", "G7", "W"}
    assert refused(state, PlayCard(1, "Y4~")) == "Y4~ cannot be played on R7 with R in play"


def test_a_spin_card_is_played_as_a_number_card_and_the_next_player_must_spin():
    """
    > A player may play a Spin card as they would a regular number card, however, whenever a Spin
    > card is played, the next player must spin the wheel. Spinning the wheel takes the place of
    > that player's turn.
    """
    state = spin(hands=[["B1"], ["G3~", "B9"], ["R1", "G1"]], discard=["R3"])
    state, _ = send(state, PlayCard(1, "G3~", uno=True))
    assert state.pending == ("spin", 2)
    assert offers(state, 2) == [SpinWheel(2)]
    assert "seat 2 spins the wheel" in refused(state, PlayCard(2, "G1"))


def test_a_player_without_a_match_draws_and_may_play_the_card_drawn():
    """
    > If the player doesn't have a card to match the one on the DISCARD pile, they must take a
    > card from the DRAW pile. If the card picked up can be played, the player is free to put it
    > down in the same turn.
    """
    state = spin(hands=[["B1"], ["B3", "G4"], ["Y1"]], discard=["R7"], pile=["Y7"])
    state, _ = send(state, DrawCard(1), PlayCard(1, "Y7"))
    assert state.discard[-1] == "Y7" and state.pending == ("turn", 2)


def test_after_drawing_a_player_may_not_play_a_card_already_in_their_hand():
    """
    > If playable, the card just drawn can be played immediately, but that player may not play a
    > card that was already in their hand prior to the draw.
    """
    state = spin(hands=[["B1"], ["R3", "G4"], ["Y1"]], discard=["R7"], pile=["R9"])
    state, _ = send(state, DrawCard(1))
    assert "only the drawn card" in refused(state, PlayCard(1, "R3"))


def test_a_draw_two_turned_up_makes_the_first_player_draw_two_and_miss_the_turn():
    """
    > Draw Two Card - When this card is played, the next person to play must draw 2 cards and miss
    > their turn. This card can only be played on matching colors and other Draw Two cards. If
    > turned up at the beginning of play, the same rule applies.
    """
    state, events = deal("spin", 3, dealer=0, starter="YD2")
    assert first(events, "cards_drawn").seat == 1 and len(state.hands[1]) == 9
    assert state.pending == ("turn", 2)


def test_a_reverse_turned_up_lets_the_dealer_go_first_to_the_right():
    """
    > If this card is turned up at the beginning of play, the dealer goes first, and then play
    > moves to the right instead of the left.
    """
    state, _ = deal("spin", 3, dealer=2, starter="RV")
    assert state.pending == ("turn", 2) and state.direction == -1


def test_a_skip_turned_up_skips_the_player_left_of_the_dealer():
    """
    > If a Skip card is turned up at the beginning of play, the player to the left of the dealer
    > is "skipped," hence the player to the left of that player commences play.
    """
    state, _ = deal("spin", 3, dealer=0, starter="BS")
    assert state.pending == ("turn", 2)


def test_a_wild_turned_up_lets_the_player_left_of_the_dealer_choose_the_colour():
    """
    > If a Wild card is turned up at the beginning of play, the person to the left of the dealer
    > determines the color, which continues play.
    """
    state, _ = deal("spin", 3, dealer=0, starter="W")
    state, _ = send(state, ChooseColour(1, "G"))
    assert state.colour == "G" and state.pending == ("turn", 1)


def test_a_wild_draw_four_makes_the_next_player_draw_four_and_one_turned_up_goes_back():
    """
    > Wild Draw Four Card - This card allows you to call the next color played and requires the
    > next player to draw 4 cards from the DRAW pile and forfeit their turn. If turned up at the
    > beginning of play, return this card to the deck and pick another card.
    """
    state = spin(
        hands=[["B1"], ["W4", "G5"], ["Y1"]], discard=["R7"], pile=["B2", "B3", "B4", "B5"]
    )
    state, _ = send(state, PlayCard(1, "W4", "G"), Accept(2))
    assert state.hands[2] == ("Y1", "B2", "B3", "B4", "B5") and state.pending == ("turn", 0)
    _, events = deal("spin", 3, dealer=0, starter="W4")
    assert first(events, "starter_returned").card == "W4"


def test_almost_uno_discards_all_but_two_cards():
    """
    > Almost UNO® - The player that spun the wheel discards all but 2 cards.
    """
    state, _ = spun("almost_uno", seat2=["G1", "B2", "Y5", "R8", "G6"])
    assert state.pending == ("almost_uno", 2)
    state, _ = send(state, WheelKeep(2, ("G1", "Y5")))
    state, events = send(state, WheelDiscard(2, ("B2", "G6", "R8")))
    assert state.hands[2] == ("G1", "Y5")
    assert state.discard[-3:] == ("B2", "G6", "R8") and state.pending == ("turn", 0)


def test_discard_number_discards_cards_of_one_number_and_may_keep_some():
    """
    > Discard Number - The player that spun the wheel chooses a number in their hand and can
    > discard all cards of that same number. You can choose to keep some cards of that number if
    > you do not wish to discard all of them.
    """
    state, _ = spun("discard_number", seat2=["G4", "B4", "Y4~", "R8"])
    assert state.pending == ("discard_number", 2)
    assert "the same number" in refused(state, WheelDiscard(2, ("G4", "R8")))
    state, _ = send(state, WheelDiscard(2, ("G4", "Y4~")))
    assert state.hands[2] == ("B4", "R8") and state.discard[-1] == "Y4~"
    assert state.pending == ("turn", 0)


def test_discard_colour_discards_cards_of_one_colour_and_may_keep_some():
    """
    > Discard Color - The player that spun the wheel chooses a color in their hand and can discard
    > all cards of that same color. You can choose to keep some cards of that color if you do not
    > wish to discard all of them.
    """
    state, _ = spun("discard_colour", seat2=["G4", "G7", "GS", "R8", "W"])
    assert "the same colour" in refused(state, WheelDiscard(2, ("G4", "R8")))
    state, _ = send(state, WheelDiscard(2, ("G7", "GS")))
    assert state.hands[2] == ("G4", "R8", "W") and state.discard[-1] == "GS"
    assert state.pending == ("turn", 0)


def test_draw_red_draws_until_a_red_card_and_keeps_every_card_drawn():
    """
    > Draw Red - Draw until you pick up a red card (or Wild card). You must keep all of the cards
    > you have drawn.
    """
    state, events = spun("draw_red", seat2=["G1"], pile=["B2", "Y3", "R4", "R5"])
    assert state.hands[2] == ("G1", "B2", "Y3", "R4") and state.pending == ("turn", 0)


def test_draw_blue_stops_at_a_wild_card_too():
    """
    > Draw Blue - Draw until you pick up a blue card (or Wild card). You must keep all of the
    > cards you have drawn.
    """
    state, events = spun("draw_blue", seat2=["G1"], pile=["R2", "W4", "B4"])
    assert state.hands[2] == ("G1", "R2", "W4")


def test_trade_hands_passes_every_hand_to_the_left():
    """
    > Trade Hands - All players trade hands, passing to the left.
    """
    state, events = spun(
        "trade_hands", seat2=["G1", "G2"], seat0=["Y1", "Y2", "Y3"], opener=["R3~", "B9", "B8"]
    )
    assert state.hands == (("G1", "G2"), ("Y1", "Y2", "Y3"), ("B9", "B8"))
    assert state.pending == ("turn", 0)


def test_a_player_who_receives_a_one_card_hand_must_yell_uno_or_draw_two():
    """
    > If any player receives a hand with only one card, that player must yell "UNO" or the 2-card
    > penalty applies.
    """
    state, events = spun("trade_hands", seat2=["G1", "G2"], opener=["R3~", "B9"], pile=["B1", "B2"])
    # Seat 1 is left with B9 alone after the Spin card; seat 2 receives it.
    assert state.hands[2] == ("B9",)
    state, events = send(state, Catch(1, target=2))
    assert state.hands[2] == ("B9", "B1", "B2")


def test_show_hand_shows_the_spinners_hand_to_every_player_and_play_resumes():
    """
    > Show Hand - Show your hand to all other players, giving them an opportunity to see it, and
    > then resume normal play.
    """
    state, events = spun("show_hand", seat2=["G1", "Y6"])
    assert first(events, "hand_shown").cards == ("G1", "Y6")
    assert 2 in state.shown and state.pending == ("turn", 0)


def test_war_lets_the_highest_number_card_discard_and_the_others_keep_theirs():
    """
    > War - Each player selects the highest number card of any color in their hand (if they have
    > one) and reveals them at the same time. The player with the highest card gets to discard
    > that card and all other players put their cards back in their hands.
    """
    state, events = spun("war", seat2=["G9", "G1"], seat0=["Y6", "YS"], opener=["R3~", "B7", "B2"])
    war = first(events, "war_fought")
    assert war.winner == 2
    assert state.pending == ("war_discard", 2)
    state, events = send(state, WheelDiscard(2, ("G9",)))
    assert state.hands == (("Y6", "YS"), ("B7", "B2"), ("G1",))


def test_war_tied_players_face_off_with_their_next_highest_and_the_winner_discards_both():
    """
    > If there is a tie, the tied players face-off with their next highest card, and the winner
    > discards all the War cards they played. Play then continues with the next person after the
    > winner taking their turn (in the current direction of play).
    """
    state, events = spun(
        "war", seat2=["G9", "G5", "G1"], seat0=["Y9", "Y4"], opener=["R3~", "B2", "B1"]
    )
    war = first(events, "war_fought")
    assert war.winner == 2 and war.rounds[0][2] == 9 and war.rounds[0][0] == 9
    state, _ = send(state, WheelDiscard(2, ("G9", "G5")))
    assert state.hands[2] == ("G1",)
    assert state.pending == ("turn", 0)
    assert state.hands[0] == ("Y9", "Y4")


def test_uno_spin_goes_to_the_first_player_to_yell_who_discards_one_card():
    """
    > UNO Spin™ - All players rush to yell "UNO Spin." The first player to yell it gets to discard
    > one card of their choice. Play then continues with the next person after the winner taking
    > their turn (in the current direction of play).
    """
    state, _ = spun("uno_spin", seat2=["G1", "G2"], seat0=["Y1", "Y2"], opener=["R3~", "B7", "B2"])
    state, events = send(state, ClaimUnoSpin(0))
    assert "uno_spin_claimed" in kinds(events)
    assert refused(state, ClaimUnoSpin(1)) == "seat 0 already claimed the UNO Spin"
    state, _ = send(state, WheelDiscard(0, ("Y2",)))
    assert state.hands[0] == ("Y1",) and state.pending == ("turn", 1)


def test_the_spinner_chooses_which_discarded_card_lands_on_top():
    """
    > If the Wheel causes you to discard multiple cards, you get to decide which of your cards is
    > placed on the top of the DISCARD pile, affecting the next player's turn. Thus, you can
    > change the color, number or symbol that is in play.
    """
    state, _ = spun("discard_colour", seat2=["G4", "G7", "B1"], seat0=["Y7", "G0"])
    state, _ = send(state, WheelDiscard(2, ("G4", "G7")))
    assert state.discard[-1] == "G7" and state.colour == "G"
    assert {c.card for c in offers(state, 0) if isinstance(c, PlayCard)} == {"Y7", "G0"}


def test_a_player_who_does_not_yell_uno_can_be_caught_before_the_next_player_plays():
    """
    > If you don't yell "UNO" and another player catches you before the next player plays, you
    > must draw two cards.
    """
    state = spin(hands=[["B1"], ["R3~", "G4"], ["Y1", "Y2"]], discard=["R7"], pile=["B8", "B9"])
    state, _ = send(state, PlayCard(1, "R3~"))
    assert state.exposed == 1
    caught, _ = send(state, Catch(0, target=1))
    assert caught.hands[1] == ("G4", "B8", "B9")
    late, events = send(state, SpinWheel(2), chance=Fixed(wheel=["show_hand"]))
    assert "uno_window_closed" in kinds(events) and late.exposed is None


def test_a_spin_card_as_the_last_card_is_resolved_before_the_points_are_totaled():
    """
    > Likewise, if the last card played is a Spin card, the next player must spin the wheel and
    > that action must be resolved, so that any cards drawn or discarded also affect the points
    > totaled.
    """
    state = spin(hands=[["B1"], ["R3~"], ["G1"]], discard=["R7"], pile=["B2", "R9"])
    state, events = send(state, PlayCard(1, "R3~"))
    assert state.pending == ("spin", 2) and "hand_ended" not in kinds(events)
    state, events = send(state, SpinWheel(2), chance=Fixed(wheel=["draw_red"]))
    ended = first(events, "hand_ended")
    assert ended.winner == 1 and ended.held == (1, 0, 1 + 2 + 9)


def test_the_cards_left_score_as_the_table_says():
    """
    > All number cards (0-9)Face Value
    > Draw Two20 Points
    > Reverse20 Points
    > Skip20 Points
    > Wild50 Points
    > Wild Draw Four50 Points
    """
    held = ["B7", "G4~", "YD2", "RV", "GS", "W", "W4"]
    state = spin(hands=[held, ["R3"], ["Y0"]], discard=["R7"])
    _, events = send(state, PlayCard(1, "R3"))
    assert first(events, "hand_ended").held == (7 + 4 + 20 + 20 + 20 + 50 + 50, 0, 0)


def test_players_may_play_to_another_target_such_as_250():
    """
    > At the beginning of a game, players may decide on a different point value to play to (i.e.
    > 250) instead of 500, for longer or shorter games.
    """
    state = spin(
        hands=[["W", "W"], ["R3"], ["Y9"]], discard=["R7"], more="target=250|scores=0,150,0"
    )
    state, events = send(state, PlayCard(1, "R3"))
    assert first(events, "game_ended").winner == 1 and state.scores == (0, 259, 0)


def test_without_keeping_score_the_first_player_out_wins():
    """
    > Players may also choose to play without keeping score, so that the first player to get rid
    > of all of their cards is the winner.
    """
    state = spin(hands=[["W", "W"], ["R3"], ["Y9"]], discard=["R7"], more="scoring=none")
    state, events = send(state, PlayCard(1, "R3"))
    assert first(events, "game_ended").winner == 1 and state.scores == (0, 0, 0)


def test_after_a_war_won_by_another_player_play_continues_after_the_winner():
    """
    > Play then continues with the next person after the winner taking their turn (in the current
    > direction of play).
    """
    state, events = spun("war", seat2=["G2", "G1"], seat0=["Y8", "YS"], opener=["R3~", "B7", "B5"])
    assert first(events, "war_fought").winner == 0
    state, _ = send(state, WheelDiscard(0, ("Y8",)))
    assert state.hands[0] == ("YS",) and state.pending == ("turn", 1)


def test_almost_uno_with_two_cards_or_fewer_discards_nothing():
    """
    > Almost UNO® - The player that spun the wheel discards all but 2 cards.
    """
    state, events = spun("almost_uno", seat2=["G1", "B2"])
    assert state.hands[2] == ("G1", "B2") and state.pending == ("turn", 0)


def test_a_wild_discarded_on_top_by_the_wheel_calls_the_colour_in_play():
    """
    > Thus, you can change the color, number or symbol that is in play.

    RULINGS.md S6: a wild on top calls the colour in play; a card discarded does nothing else.
    """
    state, _ = spun("almost_uno", seat2=["G1", "B2", "W", "YD2"], seat0=["Y7", "G0"])
    state, _ = send(state, WheelKeep(2, ("G1", "B2")))
    assert "colour" in refused(state, WheelDiscard(2, ("YD2", "W")))
    state, _ = send(state, WheelDiscard(2, ("YD2", "W"), "Y"))
    assert state.colour == "Y" and state.pending == ("turn", 0)
    assert state.hands[0] == ("Y7", "G0")  # the Draw Two under it made no one draw


def test_hands_pass_to_the_left_even_when_play_runs_to_the_right():
    """
    > Trade Hands - All players trade hands, passing to the left.
    """
    state = spin(
        hands=[["R3~", "B9", "B8"], ["G1", "G2"], ["Y1", "Y2", "Y3"]],
        discard=["R7"],
        direction="-",
        pending="turn:0",
    )
    state, _ = send(state, PlayCard(0, "R3~"))
    assert state.pending == ("spin", 2)
    state, _ = send(state, SpinWheel(2), chance=Fixed(wheel=["trade_hands"]))
    assert state.hands == (("Y1", "Y2", "Y3"), ("B9", "B8"), ("G1", "G2"))
    assert state.pending == ("turn", 1)


def test_a_spin_card_turned_up_to_start_is_no_spin():
    """
    > whenever a Spin card is played, the next player must spin the wheel.

    RULINGS.md S2: a Spin card turned up was not played; nobody spins.
    """
    state, events = deal("spin", 3, dealer=0, starter="G4~")
    assert state.pending == ("turn", 1) and "wheel_spun" not in kinds(events)


def test_the_spinner_may_race_for_the_uno_spin_too():
    """
    > All players rush to yell "UNO Spin." The first player to yell it gets to discard one card
    > of their choice.
    """
    state, _ = spun("uno_spin", seat2=["G1", "G2"], seat0=["Y1", "Y2"], opener=["R3~", "B7", "B2"])
    state, _ = send(state, ClaimUnoSpin(2), WheelDiscard(2, ("G2",)))
    assert state.hands[2] == ("G1",) and state.pending == ("turn", 0)


def test_a_player_who_discards_their_last_card_after_the_uno_spin_goes_out():
    """
    > The first player to yell it gets to discard one card of their choice. … Once a player has
    > no cards left, the round is over.
    """
    state, _ = spun("uno_spin", seat2=["G1", "G2"], seat0=["Y1"], opener=["R3~", "B7", "B2"])
    state, events = send(state, ClaimUnoSpin(0), WheelDiscard(0, ("Y1",)))
    ended = first(events, "hand_ended")
    assert ended.winner == 0 and ended.held == (0, 7 + 2, 1 + 2)


def test_a_player_without_a_number_card_takes_no_part_in_war():
    """
    > Each player selects the highest number card of any color in their hand (if they have one)
    > and reveals them at the same time.
    """
    state, events = spun("war", seat2=["GS", "W"], seat0=["Y3"], opener=["R3~", "B7", "B2"])
    war = first(events, "war_fought")
    assert war.rounds == ((3, 7, None),) and war.winner == 1
    state, _ = send(state, WheelDiscard(1, ("B7",)))
    assert state.hands[1] == ("B2",) and state.pending == ("turn", 2)


def test_a_trade_after_the_last_card_leaves_the_player_who_went_out_out_of_it():
    """
    > Likewise, if the last card played is a Spin card, the next player must spin the wheel and
    > that action must be resolved

    RULINGS.md S15: the others pass their hands among themselves, skipping the empty hand.
    """
    state = spin(hands=[["B1", "B2"], ["R3~"], ["G1"]], discard=["R7"])
    state, events = send(
        state, PlayCard(1, "R3~"), SpinWheel(2), chance=Fixed(wheel=["trade_hands"])
    )
    assert state.hands == (("G1",), (), ("B1", "B2"))
    ended = first(events, "hand_ended")
    assert ended.winner == 1 and ended.held == (1, 0, 3)
