"""UNO VETO and Wild Customizable, sentence by sentence
(shared/rulebooks/uno-veto-customizable.txt): each scenario starts from one position, sends
the commands and checks what the book says happens (and docs/RULINGS.md where the book leaves
the engine to decide)."""

import sys
from collections import Counter

from rules.chance import Fixed
from rules.commands import Catch, Challenge, ChooseColour, DealHand, DrawCard, PlayCard
from rules.variants import get_variant
from rules.variants.veto.commands import (
    DiscardAllButOne,
    DiscardCard,
    NameColour,
    ReportJoke,
    ReportRooster,
    SlapVeto,
)
from tests.rules.helpers import arranged_deck
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


def veto(rule: str | None = None, **fields):
    """The position, with one house rule on every Customizable card when ``rule`` is given."""
    options = {"customizable": [rule, rule, rule]} if rule else None
    return at(position("veto", options=options, **fields))


def test_every_scenario_quotes_the_book_word_for_word():
    check_quotes(sys.modules[__name__], "uno-veto-customizable.txt")


def test_the_deck_has_four_colours_and_three_customizable_cards_and_no_veto_card_to_deal():
    """
    > 19 Purple cards 0 to 9 … 4 Wild cards … 4 Wild Draw Four cards … 1 Double-sided VETO card
    > … 3 Wild Customizable cards … Remove the VETO card from the deck and set it in middle of
    > the playing area where all players can reach it.
    """
    deck = Counter(get_variant("veto").deck)
    assert sum(deck.values()) == 111  # the 112 cards less the VETO, which is never dealt
    assert (deck["W"], deck["W4"], deck["WC"]) == (4, 4, 3)
    assert {card[0] for card in deck} == {"P", "G", "O", "Y", "W"}
    state, _ = deal("veto", 3, dealer=0, starter="P5")
    assert state.extra.veto is None


def test_the_table_decides_how_many_customizable_cards_to_include():
    """
    > Before the game begins, decide how many of these cards to include. You may use only 1 or
    > all 3, it's up to you.
    """
    edition = get_variant("veto")
    one = edition.deck_for(edition.parse_options({"customizable": ["extra_turn"]}))
    assert Counter(one)["WC"] == 1 and len(one) == 109
    state, _ = deal("veto", 3, dealer=0, starter="P5", options={"customizable": ["joke"]})
    assert sum(hand.count("WC") for hand in state.hands) + state.pile.count("WC") == 1


def test_the_dealer_deals_seven_cards_and_the_player_left_of_the_dealer_starts():
    """
    > The dealer shuffles and deals each player 7 cards. … The person to the left of the dealer
    > starts play.
    """
    state, _ = deal("veto", 4, dealer=3, starter="O4")
    assert [len(hand) for hand in state.hands] == [7, 7, 7, 7]
    assert state.pending == ("turn", 0) and state.colour == "O"


def test_a_card_matches_by_colour_or_number_or_a_wild_is_played():
    """
    > EXAMPLE: If the card on the DISCARD pile is a orange 7, the player must put down a orange
    > card OR any color 7. Alternatively, the player can put down a Wild card
    """
    state = veto(hands=[["P1"], ["O2", "G7", "P3", "W", "WC"], ["Y1"]], discard=["O7"])
    assert {c.card for c in offers(state, 1) if isinstance(c, PlayCard)} == {"O2", "G7", "W", "WC"}
    assert refused(state, PlayCard(1, "P3")) == "P3 cannot be played on O7 with O in play"


def test_a_player_who_draws_a_playable_card_may_play_it_but_no_other():
    """
    > You may also choose NOT to play a playable card from your hand. If so, you must draw a card
    > from the DRAW pile. If playable, that card can be put down in the same turn, however you may
    > not play any other card from your hand after the draw.
    """
    state = veto(hands=[["P1"], ["O3", "G4"], ["Y1"]], discard=["O7"], pile=["G7"])
    state, _ = send(state, DrawCard(1))
    assert {c.card for c in offers(state, 1) if isinstance(c, PlayCard)} == {"G7"}
    assert "only the drawn card" in refused(state, PlayCard(1, "O3"))


def test_a_draw_two_makes_the_next_player_draw_two_and_miss_their_turn():
    """
    > Draw Two card - When you play this card, the next player must draw 2 cards and miss their
    > turn. This card may only be played on a matching color or on another Draw Two card.
    """
    state = veto(hands=[["P1"], ["GD2", "Y5"], ["Y1"]], discard=["OD2"], pile=["P7", "P8"])
    state, events = send(state, PlayCard(1, "GD2"))
    assert state.hands[2] == ("Y1", "P7", "P8") and state.pending == ("turn", 0)


def test_a_reverse_turned_up_lets_the_dealer_go_first_to_the_right():
    """
    > If this card is turned up at the beginning of play, the dealer goes first, then play moves
    > to the right instead of the left.
    """
    state, _ = deal("veto", 3, dealer=1, starter="GV")
    assert state.pending == ("turn", 1) and state.direction == -1


def test_a_skip_turned_up_skips_the_player_left_of_the_dealer():
    """
    > If a Skip card is turned up at the beginning of play, the player to the left of the dealer
    > is "skipped," hence the player to the left of that player starts play.
    """
    state, _ = deal("veto", 4, dealer=1, starter="YS")
    assert state.pending == ("turn", 3)


def test_a_challenge_costs_the_guilty_player_four_and_the_wrong_challenger_six():
    """
    > If guilty, the challenged player must draw the 4 cards instead of you. However, if the
    > challenged player is innocent, you must draw the 4 cards PLUS an additional 2 cards (6
    > total)!
    """
    guilty = veto(hands=[["P1"], ["W4", "O3", "G5"], ["Y1"]], discard=["O7"])
    guilty, events = send(guilty, PlayCard(1, "W4", "G"), Challenge(2))
    assert first(events, "challenge_resolved").guilty and len(guilty.hands[1]) == 6
    innocent = veto(hands=[["P1"], ["W4", "P3", "G5"], ["Y1"]], discard=["O7"])
    innocent, events = send(innocent, PlayCard(1, "W4", "G"), Challenge(2))
    assert not first(events, "challenge_resolved").guilty and len(innocent.hands[2]) == 7
    assert innocent.pending == ("turn", 0)


def test_a_wild_draw_four_turned_up_goes_back_and_another_card_is_turned():
    """
    > If turned up at the beginning of play, return this card to the deck and pick another card.
    """
    state, events = deal("veto", 3, dealer=0, starter="W4")
    assert first(events, "starter_returned").card == "W4" and state.discard[-1] != "W4"


def test_a_customizable_card_is_a_wild_played_with_a_playable_card_in_hand_and_calls_the_colour():
    """
    > This is a wild card so you may play it on your turn even if you have another playable card
    > in your hand. Also, you choose the color that resumes play.
    """
    state = veto(hands=[["P1"], ["WC", "O3", "G5"], ["Y1"]], discard=["O7"])
    state, events = send(state, PlayCard(1, "WC", "O"))
    assert state.colour == "O" and state.pending == ("turn", 2)
    assert "a colour" in refused(
        veto(hands=[["P1"], ["WC", "O3"], ["Y1"]], discard=["O7"]), PlayCard(1, "WC")
    )


def test_a_customizable_card_turned_up_lets_the_player_left_of_the_dealer_choose_the_colour():
    """
    > If this card is turned up at the beginning of play, the person to the left of the dealer
    > chooses the color that begins play.
    """
    state, events = deal(
        "veto", 3, dealer=0, starter="WC", options={"customizable": ["extra_turn"]}
    )
    assert state.pending == ("colour", 1)
    state, events = send(state, ChooseColour(1, "P"))
    assert state.colour == "P" and state.pending == ("turn", 1)
    assert "customizable_played" not in kinds(events)


def test_any_other_player_may_slap_the_veto_and_the_player_skips_their_next_turn():
    """
    > VETO card - if any player starts talking politics during the game, any other player can
    > slap the VETO card on them. They must then (1) stop talking politics and (2) skip their
    > next turn.
    """
    state = veto(hands=[["P1", "P2"], ["O3", "G5"], ["Y1", "Y2"]], discard=["O7"])
    state, events = send(state, SlapVeto(0, target=2))
    assert state.extra.veto == 2
    state, events = send(state, PlayCard(1, "O3"))
    assert first(events, "veto_served").seat == 2
    assert state.pending == ("turn", 0)


def test_a_player_cannot_slap_the_veto_on_themselves():
    """
    > any other player can slap the VETO card on them.
    """
    state = veto(hands=[["P1", "P2"], ["O3", "G5"], ["Y1", "Y2"]], discard=["O7"])
    assert (
        refused(state, SlapVeto(2, target=2)) == "a player cannot slap the VETO card on themselves"
    )


def test_the_veto_goes_back_to_the_middle_after_the_skipped_turn_for_the_next_offender():
    """
    > After they skip their turn, the VETO card goes back to the middle and may be played on the
    > next offender.
    """
    state = veto(hands=[["P1", "P2"], ["O3", "O5", "G5"], ["Y1", "Y2"]], discard=["O7"])
    state, _ = send(state, SlapVeto(0, target=2))
    assert (
        refused(state, SlapVeto(1, target=0))
        == "the VETO card is not in the middle: seat 2 has it until they skip a turn"
    )
    state, _ = send(state, PlayCard(1, "O3"))
    assert state.extra.veto is None
    state, events = send(state, SlapVeto(2, target=1))
    assert first(events, "veto_slapped").target == 1


def test_draw_until_a_colour_makes_the_next_player_draw_until_the_colour_named():
    """
    > 1. The next player must draw until they draw a card of a certain color.
    """
    state = veto(
        "draw_until_colour",
        hands=[["P1"], ["WC", "O3"], ["Y1"]],
        discard=["O7"],
        pile=["P2", "W", "G3", "Y4"],
    )
    state, _ = send(state, PlayCard(1, "WC", "O"))
    assert state.pending == ("name_colour", 1)
    state, events = send(state, NameColour(1, "G"))
    assert state.hands[2] == ("Y1", "P2", "W", "G3")
    assert state.pending == ("turn", 2)


def test_everyone_but_the_player_discards_all_their_wild_cards():
    """
    > Everyone but you must discard all their Wild cards.
    """
    state = veto(
        "discard_wilds",
        hands=[["P1", "W", "W4"], ["WC", "O3", "W"], ["Y1", "WC"]],
        discard=["O7"],
    )
    state, events = send(state, PlayCard(1, "WC", "O"))
    assert state.hands == (("P1",), ("O3", "W"), ("Y1",))
    assert state.discard[-1] == "WC" and state.colour == "O"


def test_a_next_player_who_cannot_play_takes_three_cards():
    """
    > 3. If the next player can't play a card, they take THREE cards from the DRAW pile.
    """
    state = veto(
        "three_if_stuck",
        hands=[["P1"], ["WC", "O3"], ["Y1", "G2"]],
        discard=["O7"],
        pile=["P4", "P5", "P6"],
    )
    state, events = send(state, PlayCard(1, "WC", "O"))
    assert state.hands[2] == ("Y1", "G2", "P4", "P5", "P6")
    assert state.pending == ("turn", 0)


def test_a_missed_uno_can_still_be_caught_when_the_next_player_takes_three_cards():
    """
    > 3. If the next player can't play a card, they take THREE cards from the DRAW pile.

    > If you don't yell "UNO" and you are caught before the next player begins their turn, you
    > must draw two cards.
    """
    table = dict(
        hands=[["O1", "P2", "P3"], ["WC", "O3"], ["Y1", "G2"]],
        discard=["O7"],
        pile=["P4", "P5", "P6", "P7", "P8"],
    )
    state, events = send(veto("three_if_stuck", **table), PlayCard(1, "WC", "O"))
    assert state.hands[2] == ("Y1", "G2", "P4", "P5", "P6") and state.pending == ("turn", 0)
    # Taking three cards is not a turn the player began: as after a Draw Two, the window
    # stays open until the player after them begins theirs.
    assert "uno_window_closed" not in kinds(events) and state.exposed == 1
    assert Catch(0, 1) in offers(state, 0) and Catch(2, 1) in offers(state, 2)
    caught, _ = send(state, Catch(2, 1))
    assert caught.hands[1] == ("O3", "P7", "P8")
    played, events = send(state, PlayCard(0, "O1"))
    assert "uno_window_closed" in kinds(events) and played.exposed is None
    assert "cannot be caught" in refused(played, Catch(2, 1))


def test_take_an_extra_turn():
    """
    > 4. Take an extra turn.
    """
    state = veto("extra_turn", hands=[["P1"], ["WC", "O3"], ["Y1"]], discard=["O7"])
    state, _ = send(state, PlayCard(1, "WC", "O"))
    assert state.pending == ("turn", 1)


def test_the_next_player_draws_or_discards_to_exactly_seven():
    """
    > 5. The next player must draw or discard until they have exactly 7 cards.
    """
    few = veto(
        "seven_cards",
        hands=[["P1"], ["WC", "O3"], ["Y1", "Y2"]],
        discard=["O7"],
        pile=["P2", "P3", "P4", "P5", "P6"],
    )
    few, _ = send(few, PlayCard(1, "WC", "O"))
    assert len(few.hands[2]) == 7 and few.pending == ("turn", 2)
    many = veto(
        "seven_cards",
        hands=[["P1"], ["WC", "O3"], ["Y1", "Y2", "Y3", "Y4", "Y5", "Y6", "Y7", "Y8"]],
        discard=["O7"],
    )
    many, _ = send(many, PlayCard(1, "WC", "O"))
    assert many.pending == ("discard", 2)
    many, _ = send(many, DiscardCard(2, "Y8"))
    assert len(many.hands[2]) == 7 and many.pending == ("turn", 2)


def test_everyone_discards_or_draws_to_exactly_three():
    """
    > 6. Everyone must discard (or draws) until they have exactly 3 cards.
    """
    state = veto(
        "three_cards",
        hands=[["P1", "P2", "P3", "P4"], ["WC", "O3", "O4"], ["Y1"]],
        discard=["O7"],
        pile=["G1", "G2"],
    )
    state, _ = send(state, PlayCard(1, "WC", "O"))
    while state.pending[0] == "discard":
        seat = state.pending[1]
        state, _ = send(state, DiscardCard(seat, state.hands[seat][-1]))
    assert [len(hand) for hand in state.hands] == [3, 3, 3]
    assert state.pending == ("turn", 2)


def test_a_player_the_piles_cannot_bring_up_to_three_draws_the_rest_after_the_discards():
    """
    > 6. Everyone must discard (or draws) until they have exactly 3 cards.
    """
    # The draw pile is empty and the discard pile holds one card under the Customizable card:
    # seat 0 gets that one card at once and the rest once the others' discards are down.
    state = veto(
        "three_cards",
        hands=[["P1"], ["WC", "O3", "O4", "O5", "O6"], []],
        discard=["O7"],
        rest=2,
    )
    state, events = send(state, PlayCard(1, "WC", "O"))
    assert state.hands[0] == ("P1", "O7") and state.pending == ("discard", 1)
    while state.pending[0] == "discard":
        seat = state.pending[1]
        state, events = send(state, DiscardCard(seat, state.hands[seat][-1]))
    assert kinds(events)[-3:] == ["discard_reshuffled", "cards_drawn", "turn_began"]
    assert first(events, "cards_drawn").seat == 0
    assert [len(hand) for hand in state.hands] == [3, 3, 3]
    assert state.pending == ("turn", 2)


def test_everyone_plays_with_their_hand_face_up_until_the_players_next_turn():
    """
    > 7. Everyone must play with their hand face up until your next turn.
    """
    state = veto("face_up", hands=[["P1", "O1"], ["WC", "O3", "O5"], ["Y1", "O2"]], discard=["O7"])
    state, _ = send(state, PlayCard(1, "WC", "O"))
    assert state.shown == frozenset({0, 1, 2})
    state, _ = send(state, PlayCard(2, "O2"), PlayCard(0, "O1"))
    assert state.pending == ("turn", 1) and state.shown == frozenset()


def test_a_joke_that_makes_someone_laugh_discards_down_to_one_card_with_uno():
    """
    > Tell a joke. If someone laughs, discard down to 1 card (don't forget to yell "UNO!"). If no
    > one laughs, draw 4 cards.
    """
    start = veto(
        "joke", hands=[["P1"], ["WC", "O3", "O5", "G2"], ["Y1"]], discard=["O7"], pile=["P2"]
    )
    state, _ = send(start, PlayCard(1, "WC", "O"))
    assert state.pending == ("joke", 1)
    laughed, _ = send(state, ReportJoke(1, True))
    assert laughed.pending == ("keep_card", 1)
    laughed, events = send(laughed, DiscardAllButOne(1, "O5", uno=True))
    assert laughed.hands[1] == ("O5",) and laughed.exposed is None
    silent, _ = send(state, ReportJoke(1, False))
    assert len(silent.hands[1]) == 3 + 4 and silent.pending == ("turn", 2)


def test_the_next_player_performs_a_rooster_call_or_chickens_out_and_draws_four():
    """
    > 10. The next player must perform their best rooster call or "chicken out" and draw 4 cards.
    """
    state = veto("rooster", hands=[["P1"], ["WC", "O3"], ["Y1"]], discard=["O7"])
    state, _ = send(state, PlayCard(1, "WC", "O"))
    assert state.pending == ("rooster", 2)
    chicken, _ = send(state, ReportRooster(2, False))
    assert len(chicken.hands[2]) == 5 and chicken.pending == ("turn", 2)
    crowed, _ = send(state, ReportRooster(2, True))
    assert crowed.hands[2] == ("Y1",) and crowed.pending == ("turn", 2)


def test_a_player_who_does_not_yell_uno_and_is_caught_draws_two():
    """
    > If you don't yell "UNO" and you are caught before the next player begins their turn, you
    > must draw two cards.
    """
    state = veto(hands=[["P1"], ["O3", "G4"], ["Y1", "Y2"]], discard=["O7"], pile=["P8", "P9"])
    state, _ = send(state, PlayCard(1, "O3"), Catch(2, target=1))
    assert state.hands[1] == ("G4", "P8", "P9")


def test_a_wild_draw_four_as_the_last_card_makes_the_next_player_draw_four_and_they_count():
    """
    > If the last card played in a round is a Draw Two or Wild Draw Four card, the next player
    > must draw the 2 or 4 cards respectively. These cards are counted when the points are
    > totaled.
    """
    state = veto(hands=[["P1"], ["W4"], ["Y1"]], discard=["O7"], pile=["P2", "P3", "P4", "WC"])
    state, events = send(state, PlayCard(1, "W4", "G"))
    assert first(events, "hand_ended").held == (1, 0, 1 + 2 + 3 + 4 + 40)


def test_a_customizable_card_left_in_a_hand_scores_40():
    """
    > Customizable	40 Points
    """
    state = veto(hands=[["WC", "OS", "PV", "GD2", "W", "W4", "Y9"], ["O3"], ["P0"]], discard=["O7"])
    state, events = send(state, PlayCard(1, "O3"))
    assert first(events, "hand_ended").held == (40 + 20 + 20 + 20 + 50 + 50 + 9, 0, 0)


def test_the_first_player_to_reach_500_points_wins():
    """
    > The WINNER is the first player to reach 500 points.
    """
    state = veto(hands=[["WC", "W"], ["O3"], ["P0"]], discard=["O7"], more="scores=0,420,0")
    state, events = send(state, PlayCard(1, "O3"))
    assert first(events, "game_ended").winner == 1 and state.scores == (0, 510, 0)


def test_a_veto_on_the_player_whose_turn_it_is_costs_their_next_turn():
    """
    > They must then (1) stop talking politics and (2) skip their next turn.

    RULINGS.md V20: the current turn goes on; the following one is skipped.
    """
    state = veto(hands=[["P1", "O1"], ["O3", "O4", "G5"], ["Y1", "O2"]], discard=["O7"])
    state, _ = send(state, SlapVeto(2, target=1), PlayCard(1, "O3"))
    assert state.pending == ("turn", 2)
    state, events = send(state, PlayCard(2, "O2"), PlayCard(0, "O1"))
    assert first(events, "veto_served").seat == 1 and state.pending == ("turn", 2)


def test_a_turn_lost_to_a_skip_does_not_serve_the_veto():
    """
    > After they skip their turn, the VETO card goes back to the middle

    RULINGS.md V20: a turn lost to a Skip never began, so the VETO is still owed.
    """
    state = veto(hands=[["P1", "O1"], ["OS", "O4", "G5"], ["Y1", "O2"]], discard=["O7"])
    state, events = send(state, SlapVeto(0, target=2), PlayCard(1, "OS"))
    assert "veto_served" not in kinds(events) and state.extra.veto == 2
    assert state.pending == ("turn", 0)


def test_the_veto_goes_back_to_the_middle_when_the_hand_ends():
    """
    > set it in middle of the playing area where all players can reach it.

    RULINGS.md V21: every hand starts with the VETO in the middle.
    """
    state = veto(hands=[["P1", "O1"], ["O3"], ["Y1", "O2"]], discard=["O7"])
    state, events = send(state, SlapVeto(1, target=2), PlayCard(1, "O3"))
    assert "hand_ended" in kinds(events)
    order = arranged_deck("veto", 3, dealer=1, starter="P5")
    state, events = send(state, DealHand(1), chance=Fixed(shuffles=[order]))
    assert state.extra.veto is None and "veto_served" not in kinds(events)
    assert state.pending == ("turn", 2)  # the player it was slapped on plays first


def test_the_house_rule_of_a_customizable_card_played_as_the_last_card_is_not_carried_out():
    """
    > Once a player has no cards left, the round is over.

    RULINGS.md V7: the hand ends; the card's house rule is not carried out.
    """
    state = veto("rooster", hands=[["P1"], ["WC"], ["Y1"]], discard=["O7"])
    state, events = send(state, PlayCard(1, "WC", "O"))
    assert first(events, "hand_ended").winner == 1 and "rooster_reported" not in kinds(events)


def test_the_elbows_rule_is_recorded_and_plays_as_a_plain_wild():
    """
    > 9. The next player cannot bend their elbows until someone says "UNO!"

    RULINGS.md V8: recorded in customizable_played; otherwise a plain wild.
    """
    state = veto("elbows", hands=[["P1"], ["WC", "O3"], ["Y1"]], discard=["O7"])
    state, events = send(state, PlayCard(1, "WC", "G"))
    assert first(events, "customizable_played").rule == "elbows"
    assert state.colour == "G" and state.pending == ("turn", 2)


def test_a_next_player_who_can_play_plays_as_usual_under_the_three_card_rule():
    """
    > 3. If the next player can't play a card, they take THREE cards from the DRAW pile.
    """
    state = veto("three_if_stuck", hands=[["P1"], ["WC", "O3"], ["Y1", "O2"]], discard=["O7"])
    state, _ = send(state, PlayCard(1, "WC", "O"))
    assert state.hands[2] == ("Y1", "O2") and state.pending == ("turn", 2)
    state, _ = send(state, PlayCard(2, "O2"))
    assert state.pending == ("turn", 0)


def test_a_house_rule_of_the_tables_own_is_recorded_with_its_words_and_plays_as_a_wild():
    """
    > Wild Customizable card - Use a #2 pencil to write any house rule you wish on a card. The
    > only limit is your imagination (and the consent of the other players).

    RULINGS.md V2 and V8: free text, recorded in customizable_played, otherwise a plain wild.
    """
    state = at(
        position(
            "veto",
            options={"customizable": ["text:Sing a song"]},
            hands=[["P1"], ["WC", "O3"], ["Y1"]],
            discard=["O7"],
        )
    )
    state, events = send(state, PlayCard(1, "WC", "Y"))
    assert first(events, "customizable_played").text == "Sing a song"
    assert state.colour == "Y" and state.pending == ("turn", 2)


def test_with_two_players_a_veto_on_the_opponent_gives_the_slapper_another_turn():
    """
    > any other player can slap the VETO card on them. They must then (1) stop talking politics
    > and (2) skip their next turn.
    """
    state = veto(hands=[["P1", "P2"], ["O3", "O4", "G5"]], discard=["O7"])
    state, events = send(state, SlapVeto(1, target=0), PlayCard(1, "O3"))
    assert first(events, "veto_served").seat == 0 and state.pending == ("turn", 1)
