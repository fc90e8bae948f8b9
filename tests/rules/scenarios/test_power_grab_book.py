"""UNO Power Grab, sentence by sentence (shared/rulebooks/uno-power-grab.txt): each scenario
starts from one position, sends the commands and checks what the book says happens (and
docs/RULINGS.md where the book leaves the engine to decide)."""

import json
import sys
from collections import Counter

from rules.commands import Accept, Catch, Challenge, ChooseColour, DrawCard, PlayCard
from rules.variants import get_variant
from rules.variants.power_grab.commands import Block, ClaimInstantUno, PowerGrabPlay, Take
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

ORDER = ("U", "N", "O", "!")


def grab(towers: dict[str, int] | None = None, **fields):
    """The position, ``towers`` saying who holds which Power Tower (the others unclaimed)."""
    held = [(towers or {}).get(tower) for tower in ORDER]
    extra = "extra=" + json.dumps({"threat": None, "towers": held}, separators=(",", ":"))
    return at(position("power_grab", extra=extra, **fields))


def holders(state) -> dict[str, int | None]:
    return dict(zip(ORDER, state.extra.towers, strict=True))


def test_every_scenario_quotes_the_book_word_for_word():
    check_quotes(sys.modules[__name__], "uno-power-grab.txt")


def test_the_deck_has_the_112_cards_of_the_contents():
    """
    > 112 cards as follows: … 18 Blue Cards - 1 to 9 … 8 Draw One Cards - 2 each in blue, green,
    > red and yellow … 4 Reverse Cards - 1 each in blue, green, red and yellow … 4 Grab-2-Towers
    > Cards - 1 each in blue, green, red and yellow … 4 Wild Grab-A-Tower Cards … 4 Wild Draw
    > Four Cards
    """
    deck = Counter(get_variant("power_grab").deck)
    assert sum(deck.values()) == 112
    blue = [c for c in deck.elements() if c[0] == "B" and c[1].isdigit()]
    assert len(blue) == 18 and {c[1] for c in blue} == set("123456789")
    assert (deck["BD1"], deck["BD2"], deck["BS"], deck["BV"], deck["BG2"]) == (2, 2, 2, 1, 1)
    assert (deck["WG"], deck["W4"]) == (4, 4)


def test_each_power_icon_appears_twice_in_each_colour():
    """
    > Each of the four (4) Power Icons appears twice in each of the four color suits in the deck.
    """
    deck = get_variant("power_grab").deck
    icons = Counter((card[0], card.split(":")[1]) for card in deck if ":" in card)
    assert icons == {(colour, icon): 2 for colour in "BGRY" for icon in ORDER}


def test_the_towers_start_unclaimed_and_the_player_left_of_the_dealer_starts():
    """
    > Place the four (4) Power Towers next to the Play Tray. … The person to the left of the
    > dealer starts play.
    """
    state, _ = deal("power_grab", 3, dealer=1, starter="G6")
    assert holders(state) == dict.fromkeys(ORDER)
    assert [len(hand) for hand in state.hands] == [7, 7, 7] and state.pending == ("turn", 2)


def test_a_card_matches_by_colour_or_number_or_a_wild_is_played():
    """
    > EXAMPLE: If the card on the DISCARD pile is a red 7, the player must put down a red card OR
    > any color 7. Alternatively, the player can put down a Wild card
    """
    state = grab(hands=[["B1"], ["R2", "G7:O", "B3", "WG", "W4"], ["Y1"]], discard=["R7:O"])
    plays = {c.card for c in offers(state, 1) if isinstance(c, PlayCard)}
    assert plays == {"R2", "G7:O", "WG", "W4"}


def test_cards_are_never_matched_by_power_icon():
    """
    > You may NOT match cards by the Power Icon. Match these cards by color or number as you would
    > any Number Card.
    """
    state = grab(hands=[["B1"], ["G5:U", "G2"], ["Y1"]], discard=["R1:U"])
    assert refused(state, PlayCard(1, "G5:U")) == "G5:U cannot be played on R1:U with R in play"


def test_a_player_who_draws_a_playable_card_may_play_it_but_no_other():
    """
    > You may also choose NOT to play a playable card from your hand. If so, you must draw a card
    > from the DRAW pile. If playable, that card can be put down in the same turn, however you may
    > not play any other card from your hand after the draw.
    """
    state = grab(hands=[["B1"], ["R3", "G4"], ["Y1"]], discard=["R7"], pile=["R9"])
    state, _ = send(state, DrawCard(1))
    assert {c.card for c in offers(state, 1) if isinstance(c, PlayCard)} == {"R9"}
    assert "only the drawn card" in refused(state, PlayCard(1, "R3"))


def test_a_draw_one_makes_the_next_player_draw_one_and_miss_their_turn():
    """
    > Draw One Card - When you play this card, the next player must draw 1 card and miss their
    > turn. This card may only be played on a matching color or on another Draw One card.
    """
    state = grab(hands=[["B1"], ["GD1", "Y5"], ["Y1"]], discard=["RD1"], pile=["B6"])
    state, events = send(state, PlayCard(1, "GD1"))
    assert state.hands[2] == ("Y1", "B6") and state.pending == ("turn", 0)


def test_a_draw_one_turned_up_makes_the_first_player_draw_one_and_miss_the_turn():
    """
    > If turned up at the beginning of play, the same rule applies.
    """
    state, events = deal("power_grab", 3, dealer=0, starter="YD1")
    assert first(events, "cards_drawn").seat == 1 and len(state.hands[1]) == 8
    assert state.pending == ("turn", 2)


def test_a_draw_two_makes_the_next_player_draw_two_and_miss_their_turn():
    """
    > Draw Two Card - When you play this card, the next player must draw 2 cards and miss their
    > turn. Either of these cards may only be played on a matching color or on another Draw Two
    > card.
    """
    state = grab(hands=[["B1"], ["GD2", "Y5"], ["Y1"]], discard=["RD2"], pile=["B6", "B7"])
    state, _ = send(state, PlayCard(1, "GD2"))
    assert state.hands[2] == ("Y1", "B6", "B7") and state.pending == ("turn", 0)


def test_a_reverse_turned_up_lets_the_dealer_go_first_to_the_right():
    """
    > If this card is turned up at the beginning of play, the dealer goes first, then play moves
    > to the right instead of the left.
    """
    state, _ = deal("power_grab", 3, dealer=0, starter="GV")
    assert state.pending == ("turn", 0) and state.direction == -1


def test_a_skip_makes_the_next_player_lose_their_turn_and_one_turned_up_skips_the_first():
    """
    > Skip Card - When you play this card, the next player is "skipped" (loses their turn). … If
    > a Skip card is turned up at the beginning of play, the player to the left of the dealer is
    > "skipped," hence the player to the left of that player starts play.
    """
    state = grab(hands=[["B1"], ["BS", "Y5"], ["Y1"]], discard=["RS"])
    state, _ = send(state, PlayCard(1, "BS"))
    assert state.pending == ("turn", 0)
    state, _ = deal("power_grab", 3, dealer=0, starter="RS")
    assert state.pending == ("turn", 2)


def test_grab_two_towers_grabs_two_towers_from_a_player_and_the_unclaimed_ones():
    """
    > Grab-2-Towers Card - When you play this card, you get to grab any two (2) Power Towers of
    > your choosing. You may take the Power Towers from another player, from the unclaimed Power
    > Towers next to the Play Tray, or a combination of the two.
    """
    state = grab({"N": 2}, hands=[["B1"], ["RG2", "Y5"], ["Y1"]], discard=["R7"])
    state, events = send(state, PowerGrabPlay(1, "RG2", towers=("N", "O")))
    assert first(events, "towers_grabbed").towers == ("N", "O")
    assert holders(state) == {"U": None, "N": 1, "O": 1, "!": None}
    assert "RG2 grabs 2 towers" in refused(
        grab(hands=[["B1"], ["RG2", "Y5"], ["Y1"]], discard=["R7"]),
        PowerGrabPlay(1, "RG2", towers=("N",)),
    )


def test_grab_two_towers_goes_only_on_its_colour_or_another_grab_two_towers():
    """
    > This card may only be played on a matching color or on another Grab-2-Towers card.
    """
    state = grab(hands=[["B1"], ["RG2", "YG2", "Y5"], ["Y1"]], discard=["R7", "BG2"], colour="B")
    plays = {c.card for c in offers(state, 1) if isinstance(c, PlayCard)}
    assert plays == {"RG2", "YG2"}


def test_a_grab_two_towers_turned_up_grabs_nothing_and_is_matched_by_colour_only():
    """
    > If this card is turned up by the dealer at the beginning of the game, the first player does
    > not get to grab Towers but matches this card by color only.
    """
    state, events = deal("power_grab", 3, dealer=0, starter="BG2", hands={1: ["RG2", "B5", "Y6"]})
    assert "towers_grabbed" not in kinds(events) and holders(state) == dict.fromkeys(ORDER)
    plays = {c.card for c in offers(state, 1) if isinstance(c, PlayCard)}
    assert "B5" in plays and "RG2" not in plays


def test_wild_grab_a_tower_grabs_one_tower_and_calls_any_colour():
    """
    > Wild Grab-A-Tower Card - When you play this card, you get to grab any one (1) Power Tower of
    > your choosing, either from another player or from the unclaimed Power Towers by the Play
    > Tray. This card is also a Wild card, so you get to choose the color that continues play (any
    > color including the color in play before the Wild card was laid down).
    """
    state = grab({"!": 0}, hands=[["B1"], ["WG", "R5"], ["Y1"]], discard=["R7"])
    state, events = send(state, PowerGrabPlay(1, "WG", "R", towers=("!",)))
    assert holders(state)["!"] == 1 and state.colour == "R" and state.pending == ("turn", 2)


def test_a_wild_grab_a_tower_turned_up_grabs_nothing_and_the_first_player_chooses_the_colour():
    """
    > If this card is turned up by the dealer at the beginning of the game, the first player does
    > not get to grab a Tower but does get to choose the color that begins play.
    """
    state, events = deal("power_grab", 3, dealer=2, starter="WG")
    assert state.pending == ("colour", 0)
    state, events = send(state, ChooseColour(0, "Y"))
    assert state.colour == "Y" and holders(state) == dict.fromkeys(ORDER)


def test_a_wild_draw_four_challenge_costs_the_guilty_four_and_the_wrong_challenger_six():
    """
    > If guilty, the challenged player must draw the 4 cards instead of you. However, if the
    > challenged player is innocent, you must draw the 4 cards PLUS an additional 2 cards (6
    > total)!
    """
    guilty = grab(hands=[["B1"], ["W4", "R3", "G5"], ["Y1"]], discard=["R7"])
    guilty, events = send(guilty, PlayCard(1, "W4", "G"), Challenge(2))
    assert first(events, "challenge_resolved").guilty and len(guilty.hands[1]) == 6
    innocent = grab(hands=[["B1"], ["W4", "B3", "G5"], ["Y1"]], discard=["R7"])
    innocent, _ = send(innocent, PlayCard(1, "W4", "G"), Challenge(2))
    assert len(innocent.hands[2]) == 7 and innocent.pending == ("turn", 0)


def test_a_power_icon_card_claims_its_tower_even_from_another_player():
    """
    > When you play a card with a Power Icon on it, you get to claim the corresponding Power Tower
    > as your own; that means you can grab it even if another player already has it! NOTE: The
    > color of the Power Tower does NOT have to match the color of the Power Icon card played.
    """
    state = grab({"U": 2}, hands=[["B1"], ["G5:U", "Y5"], ["Y1"]], discard=["G7"])
    state, events = send(state, PlayCard(1, "G5:U"))
    grabbed = first(events, "towers_grabbed")
    assert grabbed.towers == ("U",) and grabbed.previous == (2,)
    assert holders(state)["U"] == 1


def test_the_u_tower_blocks_a_draw_one_and_the_victim_may_take_it_instead():
    """
    > U: If you play a card with the "U" on it, grab the red "U" Power Tower. You now have
    > protection against Draw One cards! … That means that when that Action Card is played
    > against you, you have the power to block it: You don't have to perform the action, whether
    > it is to draw cards or skip.
    """
    state = grab(
        {"U": 2}, hands=[["B1"], ["RD1", "Y5", "Y6"], ["Y1", "R2"]], discard=["R7"], pile=["B6"]
    )
    state, _ = send(state, PlayCard(1, "RD1"))
    assert state.pending == ("block", 2) and offers(state, 2) == [Block(2), Take(2)]
    blocked, events = send(state, Block(2))
    assert blocked.hands[2] == ("Y1", "R2") and blocked.pending == ("turn", 2)
    taken, _ = send(state, Take(2))
    assert taken.hands[2] == ("Y1", "R2", "B6") and taken.pending == ("turn", 0)


def test_the_n_tower_blocks_a_draw_two():
    """
    > N: If you play a card with the "N" on it, grab the blue "N" Power Tower. You now have
    > protection against Draw Two cards.
    """
    state = grab({"N": 2}, hands=[["B1"], ["RD2", "Y5"], ["Y1", "R2"]], discard=["R7"])
    state, _ = send(state, PlayCard(1, "RD2"), Block(2))
    assert state.hands[2] == ("Y1", "R2") and state.pending == ("turn", 2)


def test_the_o_tower_blocks_a_wild_draw_four():
    """
    > 0: If you play a card with the "0" on it, grab the green "0" Power Tower. You now have
    > protection against Wild Draw Four cards.
    """
    state = grab({"O": 2}, hands=[["B1"], ["W4", "Y5", "Y6"], ["Y1", "G2"]], discard=["R7"])
    state, _ = send(state, PlayCard(1, "W4", "G"))
    assert set(offers(state, 2)) == {Block(2), Challenge(2), Accept(2)}
    state, _ = send(state, Block(2))
    assert state.hands[2] == ("Y1", "G2") and state.pending == ("turn", 2)


def test_the_exclamation_tower_blocks_a_skip():
    """
    > !: If you play a card with the "!" on it, grab the yellow "!" Power Tower. You now have
    > protection against Skip cards.
    """
    state = grab({"!": 2}, hands=[["B1"], ["RS", "Y5"], ["Y1", "R2"]], discard=["R7"])
    state, _ = send(state, PlayCard(1, "RS"), Block(2))
    assert state.pending == ("turn", 2)


def test_after_a_block_the_card_is_matched_as_a_regular_colour_card():
    """
    > After you have blocked an Action Card with your Power Tower, treat it like a regular color
    > or Wild card and play by matching it accordingly.
    """
    state = grab({"N": 2}, hands=[["B1"], ["RD2", "Y5"], ["Y1", "R2", "GD2", "B9"]], discard=["R7"])
    state, _ = send(state, PlayCard(1, "RD2"), Block(2))
    assert {c.card for c in offers(state, 2) if isinstance(c, PlayCard)} == {"R2", "GD2"}


def test_the_protection_lasts_as_long_as_the_tower_is_held():
    """
    > You retain the protection from your Power Tower for the entire time you are in possession
    > of it.
    """
    state = grab(
        {"!": 2},
        hands=[["B1", "R5"], ["RS", "RS", "Y5"], ["Y1", "R2", "R3"]],
        discard=["R7"],
    )
    state, _ = send(state, PlayCard(1, "RS"), Block(2), PlayCard(2, "R2"), PlayCard(0, "R5"))
    state, _ = send(state, PlayCard(1, "RS"))
    assert state.pending == ("block", 2) and holders(state)["!"] == 2


def test_holding_all_four_towers_discards_all_cards_but_one_and_returns_the_towers():
    """
    > If you are skillful enough to have all 4 Power Towers in your possession, you get to discard
    > all of your cards EXCEPT one (you must still yell "UNO!" See "Going Out"). Return all the
    > Power Towers to the neutral spot next to the Play Tray.
    """
    state = grab(
        {"U": 1, "N": 1, "O": 1},
        hands=[["B1"], ["R4:!", "G2", "B3", "Y9"], ["Y1"]],
        discard=["R7"],
    )
    state, _ = send(state, PlayCard(1, "R4:!"))
    assert state.pending == ("keep", 1)
    state, events = send(state, ClaimInstantUno(1, "B3", uno=True))
    assert state.hands[1] == ("B3",) and state.exposed is None
    assert holders(state) == dict.fromkeys(ORDER) and state.pending == ("turn", 2)
    assert state.discard[-1] == "R4:!"


def test_a_player_who_does_not_yell_uno_and_is_caught_draws_two():
    """
    > If you don't yell "UNO" and you are caught before the next player begins their turn, you
    > must draw two cards.
    """
    state = grab(hands=[["B1"], ["R3", "G4"], ["Y1", "Y2"]], discard=["R7"], pile=["B8", "B9"])
    state, _ = send(state, PlayCard(1, "R3"), Catch(0, target=1))
    assert state.hands[1] == ("G4", "B8", "B9")


def test_a_draw_one_as_the_last_card_makes_the_next_player_draw_one_and_it_counts():
    """
    > If the last card played in a round is a Draw One, Draw Two or Wild Draw Four card, the next
    > player must draw the 1, 2 or 4 cards respectively. These cards are counted when the points
    > are totaled.
    """
    state = grab(hands=[["B1"], ["RD1"], ["Y1"]], discard=["R7"], pile=["BG2"])
    state, events = send(state, PlayCard(1, "RD1"))
    assert first(events, "hand_ended").held == (1, 0, 1 + 50)


def test_the_cards_left_score_as_the_table_says():
    """
    > Draw One	20 Points
    > Draw Two	20 Points
    > Reverse	20 Points
    > Skip	20 Points
    > Grab-2-Towers	50 Points
    > Wild Grab-A-Tower	50 Points
    > Wild Draw Four	50 Points
    """
    held = ["BD1", "GD2", "YV", "RS", "BG2", "WG", "W4", "Y5:U"]
    state = grab(hands=[held, ["R3"], ["Y9"]], discard=["R7"])
    _, events = send(state, PlayCard(1, "R3"))
    assert first(events, "hand_ended").held == (4 * 20 + 3 * 50 + 5, 0, 9)


def test_in_alternative_scoring_the_lowest_total_wins_when_someone_reaches_500():
    """
    > Another way to score points is to keep a running tally of the points each player is left
    > with at the end of each round. When one player reaches 500 points, the player with the
    > lowest points is the winner.
    """
    state = grab(
        hands=[["WG", "W4"], ["R3"], ["Y9"]],
        discard=["R7"],
        more="scoring=alternative|scores=420,30,10",
    )
    state, events = send(state, PlayCard(1, "R3"))
    assert state.scores == (520, 30, 19)
    assert first(events, "game_ended").winner == 2


def test_grabbing_the_fourth_tower_with_grab_two_towers_gives_instant_uno():
    """
    > GRAB ALL FOUR POWER TOWERS FOR Instant UNO®! If you are skillful enough to have all 4 Power
    > Towers in your possession, you get to discard all of your cards EXCEPT one
    """
    state = grab(
        {"U": 1, "N": 1, "O": 0},
        hands=[["B1"], ["RG2", "G2", "B3", "Y9"], ["Y1"]],
        discard=["R7"],
    )
    state, _ = send(state, PowerGrabPlay(1, "RG2", towers=("O", "!")))
    assert state.pending == ("keep", 1)
    state, events = send(state, ClaimInstantUno(1, "Y9"))
    assert first(events, "instant_uno_claimed").discarded == ("G2", "B3")
    assert state.exposed == 1  # UNO not yelled: the player can be caught


def test_the_tower_holder_may_block_the_last_cards_draw():
    """
    > You retain the protection from your Power Tower for the entire time you are in possession
    > of it.

    RULINGS.md P10: the holder may block the last card's draw (the hand ends, nothing drawn).
    """
    state = grab({"N": 2}, hands=[["B1"], ["RD2"], ["Y1"]], discard=["R7"], pile=["BG2", "B9"])
    state, _ = send(state, PlayCard(1, "RD2"))
    assert state.pending == ("block", 2)
    state, events = send(state, Block(2))
    assert first(events, "hand_ended").held == (1, 0, 1)


def test_a_tower_protects_only_against_its_own_action_card():
    """
    > Notice that each Power Tower also has a symbol that represents an Action Card. When you
    > possess a Power Tower, you have protection against the corresponding Action Card!
    """
    state = grab(
        {"U": 2, "!": 2}, hands=[["B1"], ["RD2", "Y5"], ["Y1"]], discard=["R7"], pile=["B6", "B7"]
    )
    state, _ = send(state, PlayCard(1, "RD2"))
    assert state.hands[2] == ("Y1", "B6", "B7") and state.pending == ("turn", 0)


def test_a_guilty_wild_draw_four_player_draws_four_even_holding_the_o_tower():
    """
    > If guilty, the challenged player must draw the 4 cards instead of you.

    RULINGS.md P9: the penalty is no Wild Draw 4 played on them, so no tower blocks it.
    """
    state = grab({"O": 1}, hands=[["B1"], ["W4", "R3", "G5"], ["Y1"]], discard=["R7"])
    state, events = send(state, PlayCard(1, "W4", "G"), Challenge(2))
    assert len(state.hands[1]) == 2 + 4 and "block_offered" not in kinds(events)


def test_either_draw_card_goes_on_its_own_symbol_and_not_on_the_other():
    """
    > Either of these cards may only be played on a matching color or on another Draw Two card.

    RULINGS.md P17: a Draw One goes on a Draw One, a Draw Two on a Draw Two; they are different
    symbols.
    """
    on_two = grab(hands=[["B1"], ["GD1", "GD2", "Y5"], ["Y1"]], discard=["R7", "RD2"])
    assert {c.card for c in offers(on_two, 1) if isinstance(c, PlayCard)} == {"GD2"}
    on_one = grab(hands=[["B1"], ["GD1", "GD2", "Y5"], ["Y1"]], discard=["R7", "RD1"])
    assert {c.card for c in offers(on_one, 1) if isinstance(c, PlayCard)} == {"GD1"}


def test_a_fourth_tower_grabbed_from_another_player_gives_instant_uno():
    """
    > If you are skillful enough to have all 4 Power Towers in your possession, you get to discard
    > all of your cards EXCEPT one
    """
    state = grab(
        {"U": 1, "N": 1, "O": 1, "!": 2},
        hands=[["B1"], ["R4:!", "G2", "B3"], ["Y1"]],
        discard=["R7"],
    )
    state, events = send(state, PlayCard(1, "R4:!"))
    assert first(events, "towers_grabbed").previous == (2,)
    assert state.pending == ("keep", 1)


def test_a_draw_two_played_on_a_blocked_draw_two_makes_the_next_player_draw_two_only():
    """
    > After you have blocked an Action Card with your Power Tower, treat it like a regular color
    > or Wild card and play by matching it accordingly.

    RULINGS.md P8: there is no stacking; the blocked draw is gone.
    """
    state = grab(
        {"N": 2},
        hands=[["B1", "B2"], ["RD2", "Y5", "Y6"], ["Y1", "GD2", "R2"]],
        discard=["R7"],
        pile=["B3", "B4", "B5", "B6"],
    )
    state, _ = send(state, PlayCard(1, "RD2"), Block(2), PlayCard(2, "GD2"))
    assert state.hands[0] == ("B1", "B2", "B3", "B4") and state.pending == ("turn", 1)


def test_the_o_tower_holder_who_blocks_a_wild_draw_four_plays_on_the_colour_called():
    """
    > After you have blocked an Action Card with your Power Tower, treat it like a regular color
    > or Wild card and play by matching it accordingly.
    """
    state = grab({"O": 2}, hands=[["B1"], ["W4", "Y5", "Y6"], ["Y1", "G2", "B2"]], discard=["R7"])
    state, _ = send(state, PlayCard(1, "W4", "G"), Block(2))
    assert {c.card for c in offers(state, 2) if isinstance(c, PlayCard)} == {"G2"}


def test_with_two_players_a_reverse_is_no_skip_card_for_the_exclamation_tower():
    """
    > !: If you play a card with the "!" on it, grab the yellow "!" Power Tower. You now have
    > protection against Skip cards.

    RULINGS.md P7 and C4: with two players a Reverse works like a Skip but is not a Skip card.
    """
    state = grab({"!": 0}, hands=[["B1", "B2"], ["RV", "Y5", "Y6"]], discard=["R7"])
    state, events = send(state, PlayCard(1, "RV"))
    assert "block_offered" not in kinds(events) and state.pending == ("turn", 1)
