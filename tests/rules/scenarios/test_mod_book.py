"""UNO Mod, sentence by sentence (shared/rulebooks/uno-mod.txt): each scenario starts from
one position, sends the commands and checks what the book says happens."""

import sys
from collections import Counter

from rules.chance import Fixed
from rules.commands import (
    Accept,
    CallUno,
    Catch,
    Challenge,
    ChooseColour,
    DrawCard,
    Pass,
    PlayCard,
)
from rules.variants import get_variant
from rules.variants.mod.commands import ModPlay
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


def mod(**fields):
    return at(position("mod", **fields))


def test_every_scenario_quotes_the_book_word_for_word():
    check_quotes(sys.modules[__name__], "uno-mod.txt")


def test_the_deck_has_112_cards_with_four_mod_cards():
    """
    > 112 Cards as follows: … 4 Wild cards … 4 Wild Draw Four cards … 4 Mod Cards
    """
    deck = Counter(get_variant("mod").deck)
    assert sum(deck.values()) == 112
    assert (deck["W"], deck["W4"], deck["WM"]) == (4, 4, 4)
    assert sum(n for card, n in deck.items() if card[0] == "B" and card[1:].isdigit()) == 19


def test_the_dealer_deals_seven_cards_and_the_player_left_of_the_dealer_starts():
    """
    > The dealer shuffles and deals each player 7 cards. … Place the remainder of the deck
    > facedown to form a DRAW pile. … The top card of the DRAW pile is turned over to begin a
    > DISCARD pile. … The person to the left of the dealer starts play.
    """
    state, events = deal("mod", 3, dealer=1, starter="G5")
    assert [len(hand) for hand in state.hands] == [7, 7, 7]
    assert len(state.pile) - state.pos == 112 - 21 - 1  # the rest is the draw pile
    assert state.discard == ("G5",) and state.colour == "G"
    assert state.pending == ("turn", 2)


def test_a_card_matches_by_colour_or_number_or_a_wild_is_played():
    """
    > EXAMPLE: If the card on the DISCARD pile is a red 7, the player must put down a red card
    > OR any color 7. Alternatively, the player can put down a Wild card
    """
    state = mod(hands=[["B1"], ["R2", "G7", "B3", "W", "WM"], ["Y1"]], discard=["R7"])
    cards = {c.card for c in offers(state, 1) if isinstance(c, PlayCard)}
    assert cards == {"R2", "G7", "W", "WM"}
    assert refused(state, PlayCard(1, "B3")) == "B3 cannot be played on R7 with R in play"


def test_a_player_without_a_match_draws_and_plays_the_card_drawn_if_it_can():
    """
    > If you don't have a card that matches the one on the DISCARD pile, you must take a card
    > from the DRAW pile. If the card you picked up can be played, you are free to put it down in
    > the same turn.
    """
    state = mod(hands=[["B1"], ["B3", "G4"], ["Y1"]], discard=["R7"], pile=["R9"])
    assert {type(c).__name__ for c in offers(state, 1)} == {"DrawCard"}
    state, events = send(state, DrawCard(1))
    assert state.pending == ("drawn", 1) and state.drawn == "R9"
    state, events = send(state, PlayCard(1, "R9"))
    assert state.discard[-1] == "R9" and state.pending == ("turn", 2)


def test_a_card_drawn_that_cannot_be_played_passes_the_turn():
    """
    > Otherwise, play moves on to the next person in turn.
    """
    state = mod(hands=[["B1"], ["B3", "G4"], ["Y1"]], discard=["R7"], pile=["B9"])
    state, events = send(state, DrawCard(1))
    assert state.hands[1] == ("B3", "G4", "B9")
    assert state.pending == ("turn", 2)


def test_a_player_may_keep_a_playable_card_and_draw_but_then_plays_only_the_card_drawn():
    """
    > You may also choose NOT to play a playable card from your hand. If so, you must draw a card
    > from the DRAW pile. If playable, that card can be put down in the same turn, however you may
    > not play any other card from your hand after the draw.
    """
    state = mod(hands=[["B1"], ["R3", "G4"], ["Y1"]], discard=["R7"], pile=["R9"])
    state, _ = send(state, DrawCard(1))
    assert (
        refused(state, PlayCard(1, "R3")) == "after drawing, only the drawn card (R9) may be played"
    )
    assert {c.card for c in offers(state, 1) if isinstance(c, PlayCard)} == {"R9"}
    state, _ = send(state, Pass(1))
    assert state.pending == ("turn", 2) and "R9" in state.hands[1]


def test_a_draw_two_makes_the_next_player_draw_two_and_miss_their_turn():
    """
    > Draw Two card - When you play this card, the next player must draw 2 cards and miss their
    > turn. This card may only be played on a matching color or on another Draw Two card.
    """
    state = mod(hands=[["B1"], ["GD2", "Y5"], ["Y1", "Y2"]], discard=["RD2"], pile=["B7", "B8"])
    state, events = send(state, PlayCard(1, "GD2"))
    assert first(events, "cards_drawn").cards == ("B7", "B8")
    assert state.hands[2] == ("Y1", "Y2", "B7", "B8")
    assert state.pending == ("turn", 0)


def test_a_draw_two_turned_up_to_start_makes_the_first_player_draw_two_and_miss_the_turn():
    """
    > If turned up at the beginning of play, the same rule applies.
    """
    state, events = deal("mod", 3, dealer=0, starter="BD2")
    drawn = first(events, "cards_drawn")
    assert drawn.seat == 1 and len(drawn.cards) == 2
    assert len(state.hands[1]) == 9 and state.pending == ("turn", 2)


def test_a_reverse_turns_play_round_and_goes_on_another_reverse():
    """
    > Reverse card - When you play this card, the direction of play reverses (if play is
    > currently to the left, then play changes to the right, and vice versa). This card may only
    > be played on a matching color or on another Reverse card.
    """
    state = mod(hands=[["B1"], ["GV", "Y5"], ["Y1"]], discard=["RV"])
    state, events = send(state, PlayCard(1, "GV"))
    assert state.direction == -1 and state.pending == ("turn", 0)
    assert "direction_reversed" in kinds(events)


def test_a_reverse_turned_up_to_start_lets_the_dealer_go_first_to_the_right():
    """
    > If this card is turned up at the beginning of play, the dealer goes first, then play moves
    > to the right instead of the left.
    """
    state, _ = deal("mod", 3, dealer=0, starter="YV")
    assert state.pending == ("turn", 0) and state.direction == -1
    card = next(c for c in state.hands[0] if c[0] == "Y" or c[1:] == "V" or c[0] == "W")
    state, _ = send(state, PlayCard(0, card, colour="R" if card[0] == "W" else None))
    assert state.pending[1] == 2


def test_a_skip_makes_the_next_player_lose_their_turn():
    """
    > Skip card - When you play this card, the next player is "skipped" (loses their turn). This
    > card may only be played on a matching color or on another Skip card.
    """
    state = mod(hands=[["B1"], ["BS", "Y5"], ["Y1"]], discard=["RS"])
    state, events = send(state, PlayCard(1, "BS"))
    assert first(events, "seat_skipped").seat == 2
    assert state.pending == ("turn", 0)


def test_a_skip_turned_up_to_start_skips_the_player_left_of_the_dealer():
    """
    > If a Skip card is turned up at the beginning of play, the player to the left of the dealer
    > is "skipped," hence the player to the left of that player starts play.
    """
    state, _ = deal("mod", 3, dealer=0, starter="GS")
    assert state.pending == ("turn", 2)


def test_a_wild_calls_any_colour_even_the_one_in_play_and_with_a_playable_card_in_hand():
    """
    > Wild card - When you play this card, you get to choose the color that continues play (any
    > color including the color in play before the Wild card was laid down). You may play a Wild
    > card on your turn even if you have another playable card in your hand.
    """
    state = mod(hands=[["B1"], ["W", "R3"], ["Y1"]], discard=["R7"])
    state, events = send(state, PlayCard(1, "W", colour="R"))
    assert state.colour == "R" and state.pending == ("turn", 2)


def test_a_wild_turned_up_lets_the_player_left_of_the_dealer_choose_the_colour():
    """
    > If a Wild card is turned up at the beginning of play, the person to the left of the dealer
    > chooses the color that continues play.
    """
    state, _ = deal("mod", 3, dealer=2, starter="W")
    assert state.pending == ("colour", 0)
    assert "seat 0 chooses the colour" in refused(state, ChooseColour(1, "B"))
    state, _ = send(state, ChooseColour(0, "B"))
    assert state.colour == "B" and state.pending == ("turn", 0)


def test_a_wild_draw_four_makes_the_next_player_draw_four_and_lose_the_turn():
    """
    > Wild Draw 4 card - When you play this card, you get to choose the color that continues
    > play PLUS the next player must draw 4 cards from the DRAW pile and lose their turn.
    """
    state = mod(hands=[["B1"], ["W4", "G5"], ["Y1"]], discard=["R7"], pile=["B2", "B3", "B4", "B5"])
    state, _ = send(state, PlayCard(1, "W4", colour="G"))
    assert state.pending == ("challenge", 2)
    state, events = send(state, Accept(2))
    assert first(events, "cards_drawn").cards == ("B2", "B3", "B4", "B5")
    assert state.colour == "G" and state.pending == ("turn", 0)


def test_a_wild_draw_four_may_be_played_holding_a_matching_number_but_no_matching_colour():
    """
    > You may only play this card when you do NOT have another card in your hand that matches
    > the COLOR on the DISCARD pile (but it is acceptable to play this card if you have matching
    > number or Action Cards).
    """
    state = mod(hands=[["B1"], ["W4", "G7", "BD2"], ["Y1"]], discard=["R7", "RD2"], colour="R")
    state, events = send(state, PlayCard(1, "W4", colour="G"), Challenge(2))
    resolved = first(events, "challenge_resolved")
    assert not resolved.guilty and resolved.evidence == ()
    assert len(state.hands[2]) == 1 + 6  # innocent: the challenger draws six


def test_a_wild_draw_four_turned_up_goes_back_and_another_card_is_turned():
    """
    > If turned up at the beginning of play, return this card to the deck and pick another card.
    """
    state, events = deal("mod", 3, dealer=0, starter="W4")
    assert first(events, "starter_returned").card == "W4"
    assert state.discard[-1] != "W4" and state.pile[-1] == "W4"


def test_a_guilty_wild_draw_four_player_draws_the_four_cards_instead():
    """
    > If guilty, the challenged player must draw the 4 cards instead of you.
    """
    state = mod(hands=[["B1"], ["W4", "R3", "G5"], ["Y1"]], discard=["R7"])
    state, events = send(state, PlayCard(1, "W4", colour="G"), Challenge(2))
    resolved = first(events, "challenge_resolved")
    assert resolved.guilty and resolved.evidence == ("R3",)
    assert len(state.hands[1]) == 2 + 4 and state.hands[2] == ("Y1",)


def test_an_innocent_player_challenged_makes_the_challenger_draw_six():
    """
    > The challenged player must show you (the challenger) their hand. … However, if the
    > challenged player is innocent, you must draw the 4 cards PLUS an additional 2 cards (6
    > total)!
    """
    state = mod(hands=[["B1"], ["W4", "B3", "G5"], ["Y1"]], discard=["R7"])
    state, events = send(state, PlayCard(1, "W4", colour="G"), Challenge(2))
    resolved = first(events, "challenge_resolved")
    assert not resolved.guilty and resolved.hand == ("B3", "G5")
    assert len(state.hands[2]) == 7 and state.pending == ("turn", 0)


def test_a_mod_gives_the_colour_called_one_card_each_from_the_left_going_clockwise():
    """
    > When you play the Mod card, call out a color from your hand that you want to give away.
    > Then, starting with the player to your left and going clockwise, give one card to each
    > opponent in order until you run out of cards of that color (it's okay if players do not
    > receive the same number of cards).
    """
    state = mod(
        hands=[["B1"], ["WM", "G1", "G2", "G3", "R4", "Y4"], ["Y1"], ["B2"]],
        discard=["R7"],
        direction="-",
    )
    state, events = send(state, ModPlay(1, "WM", "B", give="G"))
    assert first(events, "cards_given").gifts == ((2, "G1"), (3, "G2"), (0, "G3"))
    assert state.hands[1] == ("R4", "Y4")
    assert (state.hands[0], state.hands[2], state.hands[3]) == (
        ("B1", "G3"),
        ("Y1", "G1"),
        ("B2", "G2"),
    )


def test_a_mod_needs_a_colour_the_player_holds():
    """
    > call out a color from your hand that you want to give away.
    """
    state = mod(hands=[["B1"], ["WM", "G1", "R4"], ["Y1"]], discard=["R7"])
    assert "needs a colour from your hand" in refused(state, ModPlay(1, "WM", "B"))
    assert "holds no Y card" in refused(state, ModPlay(1, "WM", "B", give="Y"))


def test_a_mod_is_a_wild_that_calls_the_colour_and_play_resumes_in_the_current_direction():
    """
    > This card is also a Wild card, so you call the color in play and play resumes in the
    > current direction.
    """
    state = mod(hands=[["B1"], ["WM", "G1", "R4", "R5"], ["Y1"]], discard=["R7"], direction="-")
    state, _ = send(state, ModPlay(1, "WM", "Y", give="G"))
    assert state.colour == "Y" and state.direction == -1 and state.pending == ("turn", 0)


def test_a_mod_turned_up_gives_nothing_and_the_player_left_of_the_dealer_chooses_the_colour():
    """
    > If this card is turned up at the beginning of the game, the action is disregarded and the
    > person to the left of the dealer chooses the color that begins play.
    """
    state, events = deal("mod", 3, dealer=0, starter="WM")
    assert "cards_given" not in kinds(events)
    assert [len(h) for h in state.hands] == [7, 7, 7]
    assert state.pending == ("colour", 1)
    state, _ = send(state, ChooseColour(1, "Y"))
    assert state.colour == "Y" and state.pending == ("turn", 1)


def test_a_player_who_does_not_yell_uno_and_is_caught_draws_two():
    """
    > When you play your next-to-last card, you must yell "UNO" (meaning "one") to indicate that
    > you have only one card left. If you don't yell "UNO" and you are caught before the next
    > player begins their turn, you must draw two cards.
    """
    state = mod(hands=[["B1"], ["R3", "G4"], ["Y1", "Y2"]], discard=["R7"], pile=["B8", "B9"])
    state, _ = send(state, PlayCard(1, "R3"))
    assert state.exposed == 1
    state, events = send(state, Catch(0, target=1))
    assert first(events, "uno_caught").by == 0
    assert state.hands[1] == ("G4", "B8", "B9")


def test_a_player_who_yells_uno_cannot_be_caught_and_the_window_closes_with_the_next_turn():
    """
    > If you don't yell "UNO" and you are caught before the next player begins their turn, you
    > must draw two cards.
    """
    state = mod(hands=[["B1"], ["R3", "G4"], ["Y1", "R2", "R5"]], discard=["R7"])
    called, events = send(state, PlayCard(1, "R3", uno=True))
    assert called.exposed is None and first(events, "card_played").uno
    assert refused(called, Catch(0, target=1)) == "seat 1 cannot be caught now"
    late, events = send(state, PlayCard(1, "R3"), PlayCard(2, "R2"))
    assert "uno_window_closed" in kinds(events) and late.exposed is None
    assert len(late.hands[1]) == 1
    saved, events = send(state, PlayCard(1, "R3"), CallUno(1))
    assert saved.exposed is None and "uno_called" in kinds(events)


def test_a_player_with_no_cards_left_ends_the_round_and_scores_the_cards_left():
    """
    > Once a player has no cards left, the round is over. … The first player to get rid of their
    > cards in a round receives points for all of the cards left in their opponents' hands
    """
    state = mod(hands=[["B1", "WM"], ["R3"], ["RD2", "W4", "Y9"]], discard=["R7"])
    state, events = send(state, PlayCard(1, "R3"))
    ended = first(events, "hand_ended")
    assert ended.winner == 1 and ended.held == (51, 0, 79)
    assert ended.gained == (0, 130, 0) and state.pending == ("deal", 1)


def test_a_draw_two_as_the_last_card_makes_the_next_player_draw_two_and_they_count():
    """
    > If the last card played in a round is a Draw Two or Wild Draw Four card, the next player
    > must draw the 2 or 4 cards respectively. These cards are counted when the points are
    > totaled.
    """
    state = mod(hands=[["B1"], ["RD2"], ["Y1"]], discard=["R7"], pile=["BD2", "B9"])
    state, events = send(state, PlayCard(1, "RD2"))
    assert first(events, "cards_drawn").cards == ("BD2", "B9")
    assert first(events, "hand_ended").held == (1, 0, 1 + 20 + 9)


def test_when_the_draw_pile_runs_out_the_discard_pile_is_reshuffled():
    """
    > If no player is out of cards by the time the DRAW pile is depleted, the DISCARD pile is
    > reshuffled and play continues.
    """
    text = position("mod", hands=[["B1"], ["B3", "G4"], ["Y1"]], discard=["R5", "R6", "R7"], rest=0)
    state = at(text)
    assert state.pile[state.pos :] == ()
    state, events = send(state, DrawCard(1), chance=Fixed(shuffles=[["R6", "R5"]]))
    assert first(events, "discard_reshuffled").order == ("R6", "R5")
    assert state.hands[1][-1] == "R6" and state.discard == ("R7",)


def test_the_cards_score_as_the_table_says_with_the_mod_at_50():
    """
    > All number cards (0-9)	Face Value
    > Draw Two	20 Points
    > Reverse	20 Points
    > Skip	20 Points
    > Wild	50 Points
    > Wild Draw Four	50 Points
    > MOD	50 Points
    """
    held = ["B7", "GD2", "YV", "RS", "W", "W4", "WM"]
    state = mod(hands=[held, ["R3"], ["Y0"]], discard=["R7"])
    _, events = send(state, PlayCard(1, "R3"))
    assert first(events, "hand_ended").held == (7 + 20 + 20 + 20 + 50 + 50 + 50, 0, 0)


def test_the_first_player_to_reach_500_points_wins():
    """
    > The WINNER is the first player to reach 500 points.
    """
    state = mod(hands=[["B9", "WM"], ["R3"], ["Y0"]], discard=["R7"], more="scores=100,450,300")
    state, events = send(state, PlayCard(1, "R3"))
    assert first(events, "game_ended").winner == 1
    assert state.pending[0] == "over" and state.scores == (100, 509, 300)


def test_in_alternative_scoring_the_lowest_total_wins_when_someone_reaches_500():
    """
    > Another way to score points is to keep a running tally of the points each player is left
    > with at the end of each round. When one player reaches 500 points, the player with the
    > lowest points is the winner.
    """
    state = mod(
        hands=[["B9", "WM"], ["R3"], ["Y0"]],
        discard=["R7"],
        more="scoring=alternative|scores=450,100,300",
    )
    state, events = send(state, PlayCard(1, "R3"))
    assert state.scores == (509, 100, 300)
    assert first(events, "game_ended").winner == 1


def test_a_mod_that_gives_away_the_last_cards_goes_out():
    """
    > Once a player has no cards left, the round is over.

    RULINGS.md M6: a player whose Mod gives away every card they have left goes out, and the
    cards given count in the receivers' hands.
    """
    state = mod(hands=[["B1"], ["WM", "G1", "G2"], ["Y1"]], discard=["R7"])
    state, events = send(state, ModPlay(1, "WM", "B", give="G"))
    ended = first(events, "hand_ended")
    assert ended.winner == 1 and ended.held == (1 + 2, 0, 1 + 1)


def test_with_two_players_the_one_opponent_receives_every_card_of_the_colour():
    """
    > give one card to each opponent in order until you run out of cards of that color (it's
    > okay if players do not receive the same number of cards).
    """
    state = mod(hands=[["B1", "Y1"], ["WM", "G1", "G2", "R3"]], discard=["R7"], pending="turn:1")
    state, events = send(state, ModPlay(1, "WM", "B", give="G"))
    assert first(events, "cards_given").gifts == ((0, "G1"), (0, "G2"))
    assert state.hands == (("B1", "Y1", "G1", "G2"), ("R3",))


def test_uno_is_called_with_a_mod_whose_giving_leaves_one_card():
    """
    > When you play your next-to-last card, you must yell "UNO" (meaning "one") to indicate that
    > you have only one card left.

    RULINGS.md M7: the call counts the cards left after the giving.
    """
    state = mod(hands=[["B1"], ["WM", "G1", "R3"], ["Y1"]], discard=["R7"])
    state, events = send(state, ModPlay(1, "WM", "B", give="G", uno=True))
    assert state.hands[1] == ("R3",) and state.exposed is None
    uncalled, _ = send(
        mod(hands=[["B1"], ["WM", "G1", "R3"], ["Y1"]], discard=["R7"]),
        ModPlay(1, "WM", "B", give="G"),
    )
    assert uncalled.exposed == 1


def test_the_challenger_of_a_guilty_wild_draw_four_then_plays():
    """
    > If guilty, the challenged player must draw the 4 cards instead of you.

    RULINGS.md C1: the colour called stands and the challenger takes their turn.
    """
    state = mod(hands=[["B1"], ["W4", "R3", "G5"], ["Y1", "G2"]], discard=["R7"])
    state, _ = send(state, PlayCard(1, "W4", colour="G"), Challenge(2))
    assert state.colour == "G" and state.pending == ("turn", 2)


def test_with_two_players_a_reverse_works_like_a_skip():
    """
    > Reverse card - When you play this card, the direction of play reverses

    RULINGS.md C4: with two players the player who played the Reverse plays again.
    """
    state = mod(hands=[["B1", "Y1"], ["RV", "R3", "G4"]], discard=["R7"])
    state, _ = send(state, PlayCard(1, "RV"))
    assert state.pending == ("turn", 1)
