"""The referee's "Set up a position" page, described field by field: each player's name, cards
and score, the discard pile, the colour, the dealer, whose turn and which way play goes (and in
UNO Power Grab who holds each tower), in the players' words. The game it starts is the position
described; each refusal is told on its field with names and cards in words, and nothing is
created."""

import html
import re

import pytest
from django.db import OperationalError
from django.db.backends.utils import CursorWrapper

from games import services
from games.models import Event, Game, Seat
from games.pages.card_words import card_phrases, cards_from_words
from rules.commands import Catch, Challenge, DrawCard, Pass, PlayCard
from rules.engine import legal_commands
from rules.variants import get_variant, variant_names
from rules.variants.classic.variant import COLOUR
from rules.variants.power_grab.commands import Block, ClaimInstantUno, Take
from rules.variants.spin.commands import (
    ClaimUnoSpin,
    SpinWheel,
    WheelDiscard,
    WheelKeep,
    WheelLay,
)
from rules.variants.veto.commands import (
    DiscardAllButOne,
    DiscardCard,
    NameColour,
    ReportJoke,
    ReportRooster,
)
from rules.views import game_view

pytestmark = pytest.mark.django_db

ANN_BOB_CY = {
    "how": "describe",
    "variant": "classic",
    "name_1": "Ann",
    "cards_1": "red 1, green two",
    "name_2": "Bob",
    "cards_2": "B3, R5, yellow skip",
    "score_2": "40",
    "name_3": "Cy",
    "cards_3": "wild draw 4",
    "top": "red 7",
    "under": "green 7",
    "colour": "",
    "dealer": "1",
    "turn": "2",
    "direction": "+",
}


@pytest.fixture
def referee(client, django_user_model):
    client.force_login(django_user_model.objects.create_user("rita", password="pw"))
    return client


def assert_refused(referee, data, field, words):
    """Posting ``data`` is refused (400), nothing is created, and ``words`` are in an error
    on ``field``."""
    response = referee.post("/play/set-up/", data)

    assert response.status_code == 400
    errors = response.context["described"].errors
    assert any(words in message for message in errors.get(field, [])), errors
    assert Game.objects.count() == 0


def test_the_page_asks_for_the_position_in_the_players_words(referee):
    page = referee.get("/play/set-up/").text

    for words in (
        "Player 1",
        "Cards in hand",
        "Playing to (points",
        "Alternative scoring (each player adds up",
        "The top card of the discard pile",
        "The colour in play",
        "Whose turn it is",
        "Which way play goes",
        "Chooses the colour of the wild card turned up to start the hand",
        "The U tower (blocks a Draw One)",
        "Or paste a position line",
    ):
        assert words in page
    assert "seat 0" not in page.lower()


def test_a_described_position_starts_the_game_it_describes(referee):
    response = referee.post("/play/set-up/", ANN_BOB_CY)

    game = Game.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/table/{game.pk}/replay/"
    assert game.set_up and game.season_id is None
    assert [s.player for s in game.seats.all()] == ["Ann", "Bob", "Cy"]
    state = services.current_state(game=game)
    assert state.hands == (("R1", "G2"), ("B3", "R5", "YS"), ("W4",))
    assert state.discard == ("G7", "R7")
    assert (state.colour, state.pending, state.dealer, state.direction) == ("R", ("turn", 1), 0, 1)
    assert state.scores == (0, 40, 0)
    assert len(state.pile) - state.pos == 108 - 8  # every card not placed, in the draw pile
    assert referee.get(response["Location"]).status_code == 200


def test_play_may_go_up_the_list_and_a_wild_on_top_takes_the_colour_chosen(referee):
    referee.post("/play/set-up/", {**ANN_BOB_CY, "top": "wild", "colour": "B", "direction": "-"})

    state = services.current_state(game=Game.objects.get())
    assert (state.discard[-1], state.colour, state.direction) == ("W", "B", -1)


def test_power_grab_towers_are_given_to_the_players_chosen(referee):
    referee.post(
        "/play/set-up/",
        {
            **ANN_BOB_CY,
            "variant": "power_grab",
            "cards_1": "red 5 (U icon), blue draw one",
            "cards_2": "red 5, Y1:U",
            "cards_3": "wild grab a tower",
            "under": "",
            "power_grab_tower_o": "3",
            "power_grab_tower_bang": "1",
        },
    )

    state = services.current_state(game=Game.objects.get())
    assert state.hands == (("R5:U", "BD1"), ("R5", "Y1:U"), ("WG",))
    assert state.extra.towers == (None, None, 2, 0)


def test_a_wild_draw_4_is_set_up_to_be_challenged_and_the_challenge_settles_it(referee):
    # Bob played the Wild Draw 4 on a red card while holding the red 5: Cy challenges.
    referee.post(
        "/play/set-up/",
        {
            **ANN_BOB_CY,
            "top": "wild draw 4",
            "under": "red 7",
            "colour": "G",
            "cards_3": "B9",
            "turn": "3",
            "waiting": "challenge",
            "before": "R",
        },
    )

    game = Game.objects.get()
    state = services.current_state(game=game)
    assert state.pending == ("challenge", 2)
    assert state.w4 == (1, "R", ("B3", "R5", "YS"))
    services.apply_command(game_id=game.pk, command=Challenge(2), actor="seat")
    assert len(services.current_state(game=game).hands[1]) == 3 + 4  # the bluff is caught


def test_a_player_who_forgot_uno_is_set_up_to_be_caught(referee):
    referee.post("/play/set-up/", {**ANN_BOB_CY, "forgot": "3"})

    game = Game.objects.get()
    assert services.current_state(game=game).exposed == 2
    services.apply_command(game_id=game.pk, command=Catch(0, 2), actor="seat")
    assert len(services.current_state(game=game).hands[2]) == 1 + 2


def test_the_game_is_played_to_the_target_and_by_the_scoring_chosen(referee):
    # A club playing to 1000: Bob's 600 points are a game still being played.
    referee.post(
        "/play/set-up/", {**ANN_BOB_CY, "target": "1000", "score_2": "600", "scoring": "standard"}
    )

    state = services.current_state(game=Game.objects.get())
    assert (state.scoring, state.target, state.scores) == ("standard", 1000, (0, 600, 0))


def test_alternative_scoring_may_be_chosen(referee):
    referee.post("/play/set-up/", {**ANN_BOB_CY, "scoring": "alternative", "target": "250"})

    state = services.current_state(game=Game.objects.get())
    assert (state.scoring, state.target) == ("alternative", 250)


def test_a_score_at_the_target_is_refused_on_that_players_score(referee):
    response = referee.post("/play/set-up/", {**ANN_BOB_CY, "score_2": "520"})

    assert response.status_code == 400
    (message,) = response.context["described"].errors["score_2"]
    assert message == (
        "Bob has 520 points, the target is 500: with standard scoring the game would be over"
    )
    assert Game.objects.count() == 0


def test_a_player_who_has_just_drawn_may_play_the_card_drawn_or_keep_it(referee):
    # Bob drew the red 5 on the red 7: he may play it, or keep it and play goes on.
    referee.post("/play/set-up/", {**ANN_BOB_CY, "waiting": "drawn", "drawn": "red 5"})

    game = Game.objects.get()
    state = services.current_state(game=game)
    assert (state.pending, state.drawn) == (("drawn", 1), "R5")
    assert set(legal_commands(state, 1)) == {PlayCard(1, "R5", None, False), Pass(1)}
    services.apply_command(game_id=game.pk, command=PlayCard(1, "R5"), actor="seat")
    assert services.current_state(game=game).discard[-1] == "R5"


POWER_GRAB_BLOCK = {
    **ANN_BOB_CY,
    "variant": "power_grab",
    "cards_3": "blue 9",
    "top": "red draw one",
    "under": "",
    "waiting": "block",
    "power_grab_tower_u": "2",
}


def test_a_draw_one_on_the_u_towers_holder_is_set_up_to_be_blocked(referee):
    # Ann played the Draw One on Bob, who holds the U tower: he blocks it and plays.
    referee.post("/play/set-up/", POWER_GRAB_BLOCK)

    game = Game.objects.get()
    state = services.current_state(game=game)
    assert state.pending == ("block", 1)
    assert state.extra.threat == ("RD1", 0, False)
    services.apply_command(game_id=game.pk, command=Block(1), actor="seat")
    state = services.current_state(game=game)
    assert state.pending == ("turn", 1) and len(state.hands[1]) == 3


def test_a_draw_one_taken_instead_of_blocked_is_drawn_and_the_turn_lost(referee):
    referee.post("/play/set-up/", POWER_GRAB_BLOCK)

    game = Game.objects.get()
    services.apply_command(game_id=game.pk, command=Take(1), actor="seat")
    state = services.current_state(game=game)
    assert state.pending == ("turn", 2) and len(state.hands[1]) == 4


def test_a_draw_one_that_went_out_is_set_up_to_be_blocked_as_the_hand_ends(referee):
    # Ann went out with the Draw One: Bob may still block its draw; then the hand is over.
    referee.post("/play/set-up/", {**POWER_GRAB_BLOCK, "cards_1": ""})

    game = Game.objects.get()
    assert services.current_state(game=game).extra.threat == ("RD1", 0, True)
    services.apply_command(game_id=game.pk, command=Block(1), actor="seat")
    state = services.current_state(game=game)
    assert state.last_hand.winner == 0 and len(state.hands[1]) == 3


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        ({"waiting": "drawn"}, "drawn", "Name the one card they have just drawn."),
        ({"waiting": "drawn", "drawn": "R5, B3"}, "drawn", "Name the one card they have just"),
        ({"waiting": "drawn", "drawn": "green 2"}, "drawn", "not in Bob's hand"),
        (
            {"waiting": "drawn", "drawn": "blue 3"},
            "drawn",
            "Bob drew blue 3, which cannot be played on red 7 with red in play",
        ),
        ({"drawn": "red 5"}, "drawn", "A card just drawn is only for a player who has just"),
        ({"waiting": "drawn", "drawn": "purple"}, "drawn", "“purple” is not a card"),
        (
            {"waiting": "block", "top": "red draw two"},
            "waiting",
            "That happens only in UNO Power Grab",
        ),
        ({"target": "lots"}, "target", "The score that ends the game is a whole number"),
        ({"target": "0"}, "target", "The score that ends the game is at least 1."),
        ({"scoring": "darts"}, "scoring", "Choose the scoring from the list."),
        ({"scoring": "none", "score_2": "40"}, "score_2", "Bob has 40 points in a game that"),
        ({"cards_2": "purple 7"}, "cards_2", "“purple 7” is not a card of Classic UNO"),
        ({"top": "wild", "colour": ""}, "colour", "The top card is a wild card: choose the colour"),
        ({"colour": "P"}, "colour", "Classic UNO is played in red, green, blue, yellow"),
        ({"colour": "B"}, "colour", "Red 7 is on top, so the colour in play is red, not blue"),
        ({"turn": "5"}, "turn", "There are 3 players: choose one of them."),
        ({"top": "red 7, red 8"}, "top", "Name one card: the one on top."),
        ({"name_2": ""}, "name_2", "Give player 2 a name, or clear their row."),
        ({"name_5": "Dee"}, "name_4", "Fill the players in from the top"),
        (
            {"name_2": "", "cards_2": "", "score_2": "", "name_3": "", "cards_3": ""},
            "name_1",
            "Name at least 2 players.",
        ),
        ({"cards_3": "red 7, red 7"}, None, "Red 7 is there 3 times"),
        ({"score_2": "-5"}, "score_2", "A score is at least 0."),
        ({"cards_3": ""}, "cards_3", "Cy holds no cards while the hand goes on: a hand is over"),
        ({"forgot": "2"}, "forgot", "Bob can only be caught holding one card"),
        ({"forgot": "4"}, "forgot", "There are 3 players: choose one of them."),
        ({"top": " , "}, "top", "Name the top card of the discard pile."),
        ({"dealer": "x"}, "dealer", "Choose the dealer from the list."),
        ({"turn": "11"}, "turn", "Choose whose turn it is from the list."),
        ({"variant": "uno_flip"}, "variant", "Choose an edition from the list."),
        ({"score_1": "lots"}, "score_1", "A score is a whole number of points."),
        ({"cards_1": "R1," * 700}, "cards_1", "Player 1's cards: at most 2000 characters"),
        ({"name_3": "C\x00y"}, "name_3", "Player 3's name: null characters are not allowed"),
        ({"waiting": "challenge", "before": "R"}, "waiting", "Only a Wild Draw 4 on top can"),
        (
            {"waiting": "challenge", "top": "wild draw 4", "colour": "G", "cards_3": "B9"},
            "before",
            "Choose the colour in play before the Wild Draw 4",
        ),
    ],
)
def test_each_refusal_is_told_on_its_field_in_words_and_nothing_is_created(
    referee, change, field, words
):
    response = referee.post("/play/set-up/", {**ANN_BOB_CY, **change})

    assert response.status_code == 400
    form = response.context["described"]
    assert any(words in message for message in form.errors.get(field or "__all__", [])), form.errors
    assert words in response.text.replace("&#x27;", "'")
    assert Game.objects.count() == 0


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"top": "red 7"}, "A tower blocks a Draw One, a Draw Two or a Skip, not a red 7."),
        ({"top": "wild draw 4", "colour": "R"}, "not a wild draw four"),
        ({"power_grab_tower_u": "3"}, "Bob does not hold the U tower, which blocks a Draw One"),
        ({"top": "red skip", "power_grab_tower_bang": ""}, "Bob does not hold the ! tower"),
        (
            {"top": "red skip", "power_grab_tower_bang": "2", "cards_1": ""},
            "Red skip was the last card: the hand is over, nothing to block",
        ),
    ],
)
def test_a_block_is_refused_without_an_action_card_or_the_tower_that_blocks_it(
    referee, change, words
):
    assert_refused(referee, {**POWER_GRAB_BLOCK, **change}, "waiting", words)


INSTANT_UNO = {
    **POWER_GRAB_BLOCK,
    "top": "green 5 (u icon)",
    "colour": "",
    "waiting": "keep",
    "power_grab_tower_u": "",
    "power_grab_tower_n": "2",
}


def test_instant_uno_is_set_up_for_the_player_who_grabbed_the_fourth_tower(referee):
    page = referee.get("/play/set-up/").text
    assert '<optgroup label="UNO Power Grab">' in page
    assert "Keeps one card and discards the rest, having grabbed the" in page

    # Bob's green 5 grabbed the U tower, his fourth: he keeps one card and discards the rest.
    response = referee.post("/play/set-up/", INSTANT_UNO)

    assert response.status_code == 302
    game = Game.objects.get()
    state = services.current_state(game=game)
    assert state.pending == ("keep", 1) and state.extra.towers == (1, 1, 1, 1)
    services.apply_command(game_id=game.pk, command=ClaimInstantUno(1, "R5"), actor="seat")
    state = services.current_state(game=game)
    assert state.hands[1] == ("R5",) and state.extra.towers == (None,) * 4
    # The cards discarded go under the card that grabbed the tower, which stays on top.
    assert state.discard == ("B3", "YS", "G5:U") and state.pending == ("turn", 2)


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        (
            {"power_grab_tower_o": "3"},
            "power_grab_tower_o",
            "Bob holds all four towers at Instant UNO, not Cy: choose Bob or leave it empty.",
        ),
        (
            {"cards_2": "red 5"},
            "waiting",
            "Bob holds 1 card: at Instant UNO with one card or none there is nothing to keep",
        ),
        (
            {"top": "green 5"},
            "top",
            "Bob came to hold all four towers with the card on top, which must be a card with "
            "a Power Icon, a Grab-2-Towers or a Wild Grab-A-Tower, not green 5",
        ),
    ],
)
def test_instant_uno_is_refused_on_its_field_when_it_could_not_happen(
    referee, change, field, words
):
    assert_refused(referee, {**INSTANT_UNO, **change}, field, words)


def test_a_seat_the_rules_refuse_is_named_by_its_player():
    from games.pages.setting_up import DescribedPositionForm

    # Cy holds all four towers without claiming Instant UNO: the rules name the seat.
    form = DescribedPositionForm(
        {
            **ANN_BOB_CY,
            "variant": "power_grab",
            "cards_3": "wild grab a tower, blue 9",
            "under": "",
            **{f"power_grab_tower_{key}": "3" for key in ("u", "n", "o", "bang")},
        }
    )

    assert not form.is_valid()
    (message,) = form.errors["__all__"]
    assert "Cy holds all four towers" in message and "seat" not in message


VETO_TABLE = {
    "how": "describe",
    "variant": "veto",
    "name_1": "Ann",
    "cards_1": "purple 1, green 2",
    "name_2": "Bob",
    "cards_2": "orange 3, purple 5",
    "name_3": "Cy",
    "cards_3": "yellow 4, purple 9",
    "top": "purple 7",
    "dealer": "3",
    "turn": "1",
    "direction": "+",
}


def test_the_veto_card_is_set_up_on_the_player_chosen_who_skips_their_next_turn(referee):
    page = referee.get("/play/set-up/").text
    assert "UNO VETO: the VETO card" in page and "Nobody: it lies in the middle" in page

    referee.post("/play/set-up/", {**VETO_TABLE, "veto_veto": "2"})

    game = Game.objects.get()
    assert services.current_state(game=game).extra.veto == 1
    services.apply_command(game_id=game.pk, command=PlayCard(0, "P1"), actor="seat")
    state = services.current_state(game=game)
    # Bob's turn is skipped for the VETO, which goes back to the middle: Cy plays.
    assert state.pending == ("turn", 2) and state.extra.veto is None
    assert Event.objects.filter(game=game, type="veto_served").exists()


def test_a_veto_slapped_on_the_player_whose_turn_it_is_skips_their_next_turn(referee):
    # Slapped during Ann's turn: she plays this turn and skips the next one.
    referee.post("/play/set-up/", {**VETO_TABLE, "veto_veto": "1"})

    game = Game.objects.get()
    for seat, card in ((0, "P1"), (1, "P5"), (2, "P9")):
        services.apply_command(game_id=game.pk, command=PlayCard(seat, card), actor="seat")
    state = services.current_state(game=game)
    assert state.pending == ("turn", 1) and state.extra.veto is None


def test_without_a_veto_chosen_it_lies_in_the_middle(referee):
    referee.post("/play/set-up/", VETO_TABLE)

    state = services.current_state(game=Game.objects.get())
    assert state.extra.veto is None and state.pending == ("turn", 0)


# Three Wild Customizable cards with different house rules: Ann played card 1 (the joke),
# Bob holds card 2 (the rooster call), card 3 (draw until a colour) is in the draw pile.
HOUSE_RULES = {
    **VETO_TABLE,
    "cards_2": "orange 3, purple 5, wild customizable",
    "top": "wild customizable",
    "under": "purple 7",
    "colour": "P",
    "veto_cards": "3",
    "veto_rule_1": "joke",
    "veto_rule_2": "rooster",
    "veto_rule_3": "draw_until_colour",
    "veto_where_1": "top",
    "veto_where_2": "p2",
    "waiting": "joke",
}


def test_a_joke_is_set_up_with_the_house_rules_and_where_each_card_is(referee):
    page = referee.get("/play/set-up/").text
    assert "Tells a joke (the house rule on top)" in page
    assert "Where card 1 is (asked when the cards&#x27; house rules differ)" in page

    response = referee.post("/play/set-up/", HOUSE_RULES)

    assert response.status_code == 302
    game = Game.objects.get()
    state = services.current_state(game=game)
    assert dict(state.options)["customizable"] == ("joke", "rooster", "draw_until_colour")
    assert state.pending == ("joke", 0) and state.extra.player == 0
    assert state.extra.held == ((), ("rooster",), ()) and state.extra.discard_rules == ("joke",)
    # Someone laughed: Ann keeps one card and discards the rest.
    services.apply_command(game_id=game.pk, command=ReportJoke(None, True), actor="referee")
    assert services.current_state(game=game).pending == ("keep_card", 0)
    services.apply_command(game_id=game.pk, command=DiscardAllButOne(0, "G2"), actor="seat")
    assert services.current_state(game=game).hands[0] == ("G2",)


def test_a_house_rule_of_the_tables_own_is_set_up_in_its_own_words(referee):
    # Bob's card carries a rule the table wrote itself, with a bar, a hash sign (which a
    # position otherwise reads as a hidden value) and quotation marks in it.
    own = "Sing | dance #1 “now”, ü"
    response = referee.post("/play/set-up/", {**HOUSE_RULES, "veto_rule_2": "", "veto_own_2": own})

    assert response.status_code == 302
    state = services.current_state(game=Game.objects.get())
    assert dict(state.options)["customizable"][1] == f"text:{own}"
    assert state.extra.held[1] == (f"text:{own}",)


def test_naming_a_colour_is_set_up_for_the_player_of_the_draw_until_a_colour_card(referee):
    # Ann's card on top is card 3: she names the colour Bob draws to.
    named = {**HOUSE_RULES, "veto_where_1": "", "veto_where_3": "top", "waiting": "name_colour"}
    response = referee.post("/play/set-up/", named)

    assert response.status_code == 302
    game = Game.objects.get()
    assert services.current_state(game=game).pending == ("name_colour", 0)
    services.apply_command(game_id=game.pk, command=NameColour(0, "Y"), actor="seat")
    state = services.current_state(game=game)
    assert COLOUR[state.hands[1][-1]] == "Y" or not state.pile[state.pos :]


def test_a_rooster_call_is_set_up_for_the_player_after_the_card(referee):
    # Every card carries the rooster call, so nobody says where each card is.
    rooster = {
        **HOUSE_RULES,
        **{f"veto_rule_{n}": "rooster" for n in (1, 2, 3)},
        "veto_where_1": "",
        "veto_where_2": "",
        "turn": "2",
        "waiting": "rooster",
    }
    response = referee.post("/play/set-up/", rooster)

    assert response.status_code == 302
    game = Game.objects.get()
    state = services.current_state(game=game)
    assert state.pending == ("rooster", 1) and state.extra.player == 0
    services.apply_command(game_id=game.pk, command=ReportRooster(None, False), actor="referee")
    assert len(services.current_state(game=game).hands[1]) == 3 + 4  # chickened out: four


def test_a_house_rule_moment_keeps_the_player_who_laughed_to_two_cards_or_more(referee):
    response = referee.post(
        "/play/set-up/", {**HOUSE_RULES, "cards_1": "green 2", "waiting": "keep_card"}
    )

    assert response.status_code == 400
    errors = response.context["described"].errors["waiting"]
    assert (
        "Ann holds 1 card: after a laugh at the joke a player with one card keeps it" in errors[0]
    )
    assert Game.objects.count() == 0


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        (
            {"top": "purple 8", "veto_where_1": ""},
            "waiting",
            "Telling a joke comes right after a Wild Customizable card with the house rule "
            "“Tell a joke: a laugh and you discard down to one card”: the top card is the "
            "purple 8.",
        ),
        (
            {"veto_where_1": "p2", "veto_where_2": "top"},
            "waiting",
            "Telling a joke comes after a Wild Customizable card with the house rule “Tell a "
            "joke: a laugh and you discard down to one card”; the one on top has “Next player "
            "does a rooster call or draws 4”. Choose its house rule below.",
        ),
        (
            {"veto_where_2": ""},
            "veto_where_1",
            "There is 1 Wild Customizable card in Bob's hand, and 0 said to be there: the "
            "cards' house rules differ, so say where each card is.",
        ),
        (
            {"veto_cards": "2", "veto_rule_3": "", "veto_where_3": "p1"},
            "veto_where_3",
            "The deck has 2 Wild Customizable cards: leave where card 3 is empty.",
        ),
        ({"veto_where_3": "p4"}, "veto_where_3", "There are 3 players: choose one of them."),
        (
            {"veto_own_1": "Sing"},
            "veto_own_1",
            "Card 1: choose a house rule from the list or write your own, not both.",
        ),
        (
            {"veto_rule_2": "", "veto_own_2": "x" * 201},
            "veto_own_2",
            "Your house rule for card 2 is too long: at most 200 characters.",
        ),
        (
            {"veto_cards": "1"},
            "veto_rule_2",
            "The deck has 1 Wild Customizable card: leave the house rule of card 2 empty",
        ),
    ],
)
def test_a_house_rule_set_up_that_could_not_be_is_refused_on_its_field(
    referee, change, field, words
):
    assert_refused(referee, {**HOUSE_RULES, **change}, field, words)


@pytest.mark.parametrize(
    ("veto", "words"),
    [
        ("4", "There are 3 players: choose one of them."),
        ("x", "Choose who the VETO card is on from the list."),
    ],
)
def test_a_veto_on_no_player_at_the_table_is_refused_on_its_field(referee, veto, words):
    assert_refused(referee, {**VETO_TABLE, "veto_veto": veto}, "veto_veto", words)


SPIN_WHEEL = {
    **ANN_BOB_CY,
    "variant": "spin",
    "cards_2": "blue 5, green 5, red 9",
    "cards_3": "yellow 4",
    "top": "red 3 (spin)",
    "under": "",
    "waiting": "discard_number",
}


def test_a_spin_wheel_segment_is_set_up_for_the_spinner_to_choose(referee):
    page = referee.get("/play/set-up/").text
    assert '<optgroup label="UNO Spin">' in page
    assert "The wheel landed on Almost UNO (keeps two cards" in page

    # Ann's Spin card sent Bob to the wheel, which landed on Discard Number: he drops his 5s.
    referee.post("/play/set-up/", SPIN_WHEEL)

    game = Game.objects.get()
    assert services.current_state(game=game).pending == ("discard_number", 1)
    services.apply_command(game_id=game.pk, command=WheelDiscard(1, ("B5", "G5")), actor="seat")
    state = services.current_state(game=game)
    assert state.hands[1] == ("R9",) and state.discard[-1] == "G5"


def test_a_spin_card_that_went_out_sends_the_next_player_to_the_wheel_then_ends_the_hand(
    referee,
):
    referee.post("/play/set-up/", {**SPIN_WHEEL, "cards_1": ""})

    game = Game.objects.get()
    assert services.current_state(game=game).extra.out == 0
    services.apply_command(game_id=game.pk, command=WheelDiscard(1, ("B5", "G5")), actor="seat")
    state = services.current_state(game=game)
    assert state.last_hand.winner == 0 and state.hands[1] == ("R9",)


@pytest.mark.parametrize("ann", ["red 1, green two", ""])
def test_a_spin_card_on_top_is_set_up_for_the_next_player_to_spin_the_wheel(referee, ann):
    assert "Spins the wheel after the Spin card on top" in referee.get("/play/set-up/").text
    # Ann played the red 3 Spin card (her last, or not): Bob spins the wheel.
    response = referee.post("/play/set-up/", {**SPIN_WHEEL, "cards_1": ann, "waiting": "spin"})

    assert response.status_code == 302
    game = Game.objects.get()
    state = services.current_state(game=game)
    assert state.pending == ("spin", 1) and state.extra.spins == 0
    result = services.apply_command(game_id=game.pk, command=SpinWheel(1), actor="seat")
    spun = result.events[0]
    assert spun.type == "wheel_spun" and spun.data["seat"] == 1
    # Ann is out as the wheel stops when the Spin card was her last.
    assert result.state.extra.out == (0 if not ann else None)


def test_an_uno_spin_is_set_up_for_every_player_to_race_to_claim(referee):
    # Bob's spin landed on UNO Spin: Cy claims it first and discards her yellow 4.
    response = referee.post("/play/set-up/", {**SPIN_WHEEL, "waiting": "uno_spin"})

    assert response.status_code == 302
    game = Game.objects.get()
    state = services.current_state(game=game)
    assert state.pending == ("uno_spin", 1)
    assert all(ClaimUnoSpin(seat) in legal_commands(state, seat) for seat in range(3))
    services.apply_command(game_id=game.pk, command=ClaimUnoSpin(2), actor="seat")
    services.apply_command(game_id=game.pk, command=WheelDiscard(2, ("Y4",)), actor="seat")
    state = services.current_state(game=game)
    assert state.last_hand.winner == 2


def test_almost_uno_with_two_cards_kept_is_set_up_for_the_card_on_top(referee):
    page = referee.get("/play/set-up/").text
    assert "At Almost UNO, once cards are kept: the card kept first, or both" in page

    # Bob kept his 5s at Almost UNO and puts the yellow 2 on top of his red 9.
    hand = {"cards_2": "blue 5, green 5, red 9, yellow 2", "spin_kept": "B5, green 5"}
    response = referee.post("/play/set-up/", {**SPIN_WHEEL, **hand, "waiting": "almost_uno_top"})

    assert response.status_code == 302
    game = Game.objects.get()
    state = services.current_state(game=game)
    assert state.pending == ("almost_uno_top", 1) and state.extra.kept == ("B5", "G5")
    services.apply_command(game_id=game.pk, command=WheelDiscard(1, ("R9", "Y2")), actor="seat")
    state = services.current_state(game=game)
    assert state.hands[1] == ("B5", "G5") and state.discard[-1] == "Y2"


def test_almost_uno_with_one_card_kept_is_set_up_for_the_second(referee):
    assert "Kept one card at Almost UNO and chooses the second to keep" in (
        referee.get("/play/set-up/").text
    )
    # Bob kept his blue 5 first at Almost UNO; he keeps the green 5 next.
    hand = {"cards_2": "blue 5, green 5, red 9, yellow 2", "spin_kept": "blue 5"}
    response = referee.post("/play/set-up/", {**SPIN_WHEEL, **hand, "waiting": "almost_uno_second"})

    assert response.status_code == 302
    game = Game.objects.get()
    state = services.current_state(game=game)
    assert state.pending == ("almost_uno_second", 1) and state.extra.kept == ("B5",)
    # The others do not see which card he kept.
    assert "B5" not in str(game_view(state, 2)["edition"])
    services.apply_command(game_id=game.pk, command=WheelKeep(1, ("G5",)), actor="seat")
    state = services.current_state(game=game)
    assert state.pending == ("almost_uno_top", 1) and state.extra.kept == ("B5", "G5")


@pytest.mark.parametrize("ann", ["red 1, green two", ""])
def test_a_card_put_down_at_discard_number_is_set_up_for_more_of_its_number(referee, ann):
    assert "Put down the card on top at Discard Number and may put down more" in (
        referee.get("/play/set-up/").text
    )
    # Bob put his green 5 on Ann's red 3 Spin card; his blue 5 may follow, his red 9 not.
    response = referee.post(
        "/play/set-up/",
        {
            **SPIN_WHEEL,
            "cards_1": ann,
            "cards_2": "blue 5, red 9",
            "top": "green 5",
            "under": "red 3 (spin)",
            "waiting": "discard_number_more",
        },
    )

    assert response.status_code == 302
    game = Game.objects.get()
    state = services.current_state(game=game)
    assert state.pending == ("discard_number_more", 1) and state.discard[-2:] == ("R3~", "G5")
    assert WheelDiscard(1, ("B5",)) in legal_commands(state, 1)
    services.apply_command(game_id=game.pk, command=WheelDiscard(1, ("B5",)), actor="seat")
    state = services.current_state(game=game)
    assert state.hands[1] == ("R9",) and state.discard[-1] == "B5"
    # Ann went out with the Spin card: the hand ends once the wheel is resolved.
    assert (state.last_hand is not None and state.last_hand.winner == 0) == (not ann)


def test_a_card_put_down_at_discard_colour_is_set_up_for_more_of_its_colour(referee):
    # Bob put his red 9 down at Discard Colour; he may lay his red 4 and end on his red 2.
    response = referee.post(
        "/play/set-up/",
        {
            **SPIN_WHEEL,
            "cards_2": "red 4, blue 5, red 2",
            "top": "red 9",
            "under": "red 3 (spin)",
            "waiting": "discard_colour_more",
        },
    )

    assert response.status_code == 302
    game = Game.objects.get()
    state = services.current_state(game=game)
    assert state.pending == ("discard_colour_more", 1)
    services.apply_command(game_id=game.pk, command=WheelLay(1, "R4"), actor="seat")
    services.apply_command(game_id=game.pk, command=WheelDiscard(1, ("R2",)), actor="seat")
    state = services.current_state(game=game)
    assert state.hands[1] == ("B5",) and state.discard[-3:] == ("R9", "R4", "R2")


@pytest.mark.parametrize("ann", ["red 1, green two", ""])
def test_a_war_won_is_set_up_for_the_winner_to_discard_the_war_cards(referee, ann):
    # Bob won the War with his 9 after a tie on 5s: he discards both War cards.
    response = referee.post(
        "/play/set-up/",
        {**SPIN_WHEEL, "cards_1": ann, "waiting": "war_discard", "spin_war": "5 and 9"},
    )

    assert response.status_code == 302
    game = Game.objects.get()
    state = services.current_state(game=game)
    assert state.pending == ("war_discard", 1) and state.extra.war == (5, 9)
    assert state.extra.out == (0 if not ann else None)
    services.apply_command(game_id=game.pk, command=WheelDiscard(1, ("B5", "R9")), actor="seat")
    state = services.current_state(game=game)
    assert state.hands[1] == ("G5",)
    # Ann went out with the Spin card: the hand ends once the wheel is resolved.
    assert (state.last_hand is not None and state.last_hand.winner == 0) == (not ann)


def test_an_uno_spin_claimed_is_set_up_for_the_claimer_to_discard_a_card(referee):
    response = referee.post("/play/set-up/", {**SPIN_WHEEL, "waiting": "uno_spin_discard"})

    assert response.status_code == 302
    game = Game.objects.get()
    assert services.current_state(game=game).pending == ("uno_spin_discard", 1)
    services.apply_command(game_id=game.pk, command=WheelDiscard(1, ("R9",)), actor="seat")
    assert services.current_state(game=game).hands[1] == ("B5", "G5")


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        ({"waiting": "almost_uno_top"}, "spin_kept", "Name the two cards Bob keeps at Almost"),
        (
            {"waiting": "almost_uno_top", "spin_kept": "red 1, blue 5"},
            "spin_kept",
            "Bob does not hold the red 1 and the blue 5 to keep.",
        ),
        (
            {"waiting": "almost_uno_top", "spin_kept": "blue 5, green 5"},
            "spin_kept",
            "Bob's other cards are all the red 9: they are discarded at once, with no card on "
            "top to choose.",
        ),
        (
            {"waiting": "almost_uno_top", "spin_kept": "blue 5, purple 5"},
            "spin_kept",
            "“purple 5” is not a card of UNO Spin (its colours are red, green, blue and yellow).",
        ),
        (
            {"spin_kept": "blue 5, green 5"},
            "spin_kept",
            "The cards kept are only for Almost UNO once cards are kept: choose that above",
        ),
        (
            {"waiting": "almost_uno_second", "spin_kept": "blue 5, green 5"},
            "spin_kept",
            "Name the card Bob kept first at Almost UNO: they choose the second now.",
        ),
        (
            {"waiting": "almost_uno_second", "spin_kept": "red 9", "cards_2": "B5, G5, Y2"},
            "spin_kept",
            "Bob does not hold the red 9 to keep.",
        ),
        ({"waiting": "war_discard"}, "spin_war", "Name the numbers of the War cards Bob played"),
        (
            {"waiting": "war_discard", "spin_war": "10"},
            "spin_war",
            "“10” is not a number from 0 to 9.",
        ),
        (
            {"waiting": "war_discard", "spin_war": "9, 9"},
            "spin_war",
            "Bob does not hold a card of each number of the War (9, 9)",
        ),
        (
            {"spin_war": "9"},
            "spin_war",
            "The War's numbers are only for a War's discard: choose that above, or clear this.",
        ),
        (
            {"waiting": "uno_spin_discard", "cards_2": ""},
            "waiting",
            "Bob holds no card: the UNO Spin has nothing to discard, and play goes on.",
        ),
        (
            {"waiting": "war_discard", "spin_war": "9", "top": "red 3"},
            "waiting",
            "The wheel is spun after a Spin card: the top card is the red 3",
        ),
    ],
)
def test_a_wheel_choice_is_refused_on_its_field_in_words(referee, change, field, words):
    assert_refused(referee, {**SPIN_WHEEL, **change}, field, words)


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"top": "red 3"}, "The wheel is spun after a Spin card: the top card is the red 3"),
        (
            {"top": "red 3", "waiting": "uno_spin"},
            "The wheel is spun after a Spin card: the top card is the red 3",
        ),
        (
            {"top": "red 3", "waiting": "spin"},
            "The wheel is spun after a Spin card: the top card is the red 3",
        ),
        (
            {"waiting": "almost_uno", "cards_2": "B5, G5"},
            "Bob holds 2 cards: Almost UNO has nothing to discard, and play goes on.",
        ),
        ({"cards_2": "wild"}, "Bob holds no number card: Discard Number has nothing to"),
        ({"waiting": "discard_colour", "cards_2": "wild, wild draw 4"}, "no coloured card"),
        ({"variant": "classic", "top": "red 3"}, "That happens only in UNO Spin"),
        (
            {"waiting": "almost_uno_second", "cards_2": "B5, G5", "spin_kept": "B5"},
            "Bob holds 2 cards: Almost UNO has nothing to discard, and play goes on.",
        ),
        (
            {"waiting": "discard_number_more", "top": "wild", "colour": "R"},
            "At Discard Number the card on top is the one Bob put down last, a number card: "
            "not the wild.",
        ),
        (
            {"waiting": "discard_number_more", "top": "yellow 7"},
            "Bob holds no other 7: the last one put down ends the discard.",
        ),
        (
            {"waiting": "discard_colour_more", "top": "yellow 4"},
            "Bob holds no other yellow card: the last one put down ends the discard.",
        ),
        (
            {"waiting": "discard_colour_more", "top": "wild draw 4", "colour": "B"},
            "At Discard Colour the card on top is the one Bob put down last, a coloured card: "
            "not the wild draw four.",
        ),
    ],
)
def test_a_wheel_moment_is_refused_without_a_spin_card_or_cards_to_choose(referee, change, words):
    assert_refused(referee, {**SPIN_WHEEL, **change}, "waiting", words)


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (
            {"waiting": "discard_number_more", "cards_2": "blue 5, red 9", "top": "green 5"},
            "Bob puts down more of the number of green 5 on the Spin card that sent them to the "
            "wheel, and no Spin card lies under the cards of that number (green 5 on top)",
        ),
        (
            {
                "waiting": "discard_colour_more",
                "cards_2": "red 4, blue 5",
                "top": "red 9",
                "under": "red 2, green 7, red 3 (spin)",
            },
            "Bob puts down more of the colour of red 9 on the Spin card that sent them to the "
            "wheel, and no Spin card lies under the cards of that colour (green 7, red 2, red 9 "
            "on top)",
        ),
    ],
)
def test_cards_put_down_at_the_wheel_are_refused_on_the_pile_without_a_spin_card_under(
    referee, change, words
):
    assert_refused(referee, {**SPIN_WHEEL, **change}, "top", words)


DOWN_TO_SEVEN = {
    **VETO_TABLE,
    "cards_2": "orange 1, orange 2, orange 3, orange 4, orange 5, orange 6, orange 7, orange 8",
    "top": "wild customizable",
    "colour": "P",
    "turn": "2",
    "veto_cards": "1",
    "veto_rule_1": "seven_cards",
    "waiting": "discard",
}
DOWN_TO_THREE = {
    **DOWN_TO_SEVEN,
    "cards_1": "purple 1, green 2, orange 3",
    "cards_2": "orange 1, orange 2, orange 4, orange 5, orange 6",
    "cards_3": "yellow 4, purple 9, yellow 5, yellow 6",
    "veto_rule_1": "three_cards",
    "veto_played": "1",
}


def test_a_discard_down_to_seven_is_set_up_for_the_next_player(referee):
    assert "Discards down to 7 or 3 cards (the house rule on top)" in (
        referee.get("/play/set-up/").text
    )
    # Ann played the Wild Customizable card: Bob, holding eight, discards one.
    response = referee.post("/play/set-up/", DOWN_TO_SEVEN)

    assert response.status_code == 302
    game = Game.objects.get()
    state = services.current_state(game=game)
    assert state.pending == ("discard", 1) and state.extra.queue == ((1, 7),)
    assert state.extra.player == 0
    services.apply_command(game_id=game.pk, command=DiscardCard(1, "O8"), actor="seat")
    state = services.current_state(game=game)
    assert len(state.hands[1]) == 7 and state.pending == ("turn", 1)


def test_a_discard_down_to_three_is_set_up_in_turn_from_who_played_the_card(referee):
    # Ann played it and is down to 3; Bob discards two, then Cy one, then Bob plays.
    response = referee.post("/play/set-up/", DOWN_TO_THREE)

    assert response.status_code == 302
    game = Game.objects.get()
    state = services.current_state(game=game)
    assert state.pending == ("discard", 1) and state.extra.queue == ((1, 3), (2, 3))
    for seat, card in ((1, "O1"), (1, "O2"), (2, "Y6")):
        services.apply_command(game_id=game.pk, command=DiscardCard(seat, card), actor="seat")
    state = services.current_state(game=game)
    assert [len(hand) for hand in state.hands] == [3, 3, 3] and state.pending == ("turn", 1)


@pytest.mark.parametrize(
    ("data", "field", "words"),
    [
        (
            {**DOWN_TO_SEVEN, "top": "purple 7", "colour": ""},
            "waiting",
            "Discarding down to 7 or 3 cards comes right after a Wild Customizable card with "
            "the house rule “Next player draws or discards to exactly 7 cards” or “Everyone "
            "draws or discards to exactly 3 cards”: the top card is the purple 7.",
        ),
        (
            {**DOWN_TO_SEVEN, "veto_rule_1": "joke"},
            "waiting",
            "the one on top has “Tell a joke: a laugh and you discard down to one card”.",
        ),
        (
            {**DOWN_TO_SEVEN, "cards_2": "orange 1"},
            "waiting",
            "Bob holds 1 card: down to 7 there is nothing to discard",
        ),
        (
            {**DOWN_TO_SEVEN, "veto_played": "3"},
            "veto_played",
            "Down to 7 cards, the player who discards is the one after whoever played the "
            "card: Ann.",
        ),
        (
            {**DOWN_TO_THREE, "veto_played": ""},
            "veto_played",
            "Say who played the Wild Customizable card: everyone discards down to 3 in turn",
        ),
        (
            {**DOWN_TO_THREE, "cards_1": "purple 1, green 2, orange 3, orange 7"},
            "waiting",
            "Ann holds 4 cards, but discards down to 3 before Bob does (in turn from Ann, who "
            "played the card).",
        ),
        (
            {**DOWN_TO_THREE, "cards_3": "yellow 4, purple 9"},
            "waiting",
            "Cy holds 2 cards: with everyone down to 3, a player with fewer draws up to 3",
        ),
        (
            {**DOWN_TO_THREE, "veto_played": "4"},
            "veto_played",
            "There are 3 players: choose one of them.",
        ),
        (
            {**VETO_TABLE, "veto_played": "2"},
            "veto_played",
            "Who played the card is only for a discard down to 3 cards",
        ),
    ],
)
def test_a_discard_down_to_seven_or_three_that_could_not_be_is_refused_on_its_field(
    referee, data, field, words
):
    assert_refused(referee, data, field, words)


def test_another_editions_fields_are_not_read(referee):
    # A tower holder left chosen, or a choice no list has, while the edition is classic UNO.
    referee.post("/play/set-up/", {**ANN_BOB_CY, "power_grab_tower_u": "2", "veto_veto": "x"})

    state = services.current_state(game=Game.objects.get())
    assert state.extra is None


@pytest.mark.parametrize("variant", variant_names())
def test_every_card_is_read_back_from_its_code_and_from_its_words(variant):
    from rules.cards import describe

    for code in set(get_variant(variant).deck):
        assert cards_from_words(code.lower(), variant) == (code,)
        assert cards_from_words(describe(code).upper(), variant) == (code,)
    phrases = card_phrases(variant)
    assert all(phrase == phrase.lower().strip() for phrase in phrases)


def test_cards_are_read_in_the_ways_players_write_them():
    assert cards_from_words("Red 7, blue draw 2; +4\nwild, green skip, r1 b3", "classic") == (
        "R7",
        "BD2",
        "W4",
        "W",
        "GS",
        "R1",
        "B3",
    )
    assert cards_from_words("yellow three (spin), red reverse", "spin") == ("Y3~", "RV")
    assert cards_from_words("", "classic") == ()
    with pytest.raises(ValueError, match="“red 7 spin” is not a card of Classic UNO"):
        cards_from_words("red 7 spin", "classic")
    # An edition with colours of its own says them.
    with pytest.raises(ValueError, match=r"is not a card of UNO VETO \(its colours are purple"):
        cards_from_words("red 7", "veto")


def test_what_was_typed_is_shown_back_escaped(referee):
    response = referee.post("/play/set-up/", {**ANN_BOB_CY, "cards_2": "<script>x</script>"})

    assert response.status_code == 400
    assert "<script>x" not in response.text
    assert "&lt;script&gt;x&lt;/script&gt;” is not a card" in response.text


@pytest.mark.django_db(transaction=True)
def test_the_database_going_away_as_the_game_is_recorded_leaves_nothing_half_made(
    referee, monkeypatch
):
    """The game's row, its seats and its first event go in together or not at all: the
    database failing at the event's insert rolls the row and seats back, the page says to try
    again (503), and sending the same form again sets the game up."""
    execute = CursorWrapper.execute

    def away_at_the_event(self, sql, params=None):
        if f"INSERT INTO {Event._meta.db_table}" in sql:
            raise OperationalError("server closed the connection unexpectedly")
        return execute(self, sql, params)

    monkeypatch.setattr(CursorWrapper, "execute", away_at_the_event)
    referee.raise_request_exception = False
    response = referee.post("/play/set-up/", ANN_BOB_CY)
    monkeypatch.undo()

    assert response.status_code == 503 and "Back in a moment" in response.text
    assert Game.objects.count() == 0 and Seat.objects.count() == 0

    assert referee.post("/play/set-up/", ANN_BOB_CY).status_code == 302
    assert services.current_state(game=Game.objects.get()).hands[2] == ("W4",)


def test_the_shared_page_code_names_no_edition():
    # What an edition adds to the pages, the set-up form's fields and moments included, lives
    # in its module under games/pages/editions/ (``edition_for``); shared code never asks
    # which edition a game is, nor reaches into an edition's rules.
    from pathlib import Path

    import games

    root = Path(games.__file__).parent
    asks = re.compile(
        r"rules\.variants\.(mod|veto|spin|power_grab)\b"
        r"|(==|!=)\s*[\"'](mod|veto|spin|power_grab)[\"']"
    )
    named = [
        f"{path.relative_to(root)}:{n}"
        for path in root.rglob("*.py")
        if "editions" not in path.parts and "migrations" not in path.parts
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if asks.search(line)
    ]
    assert named == []


WILD_TURNED_UP = {
    **ANN_BOB_CY,
    "cards_1": "red 1, green two, blue 3, yellow 4, red 5, green 6, blue 7",
    "cards_2": "red 9, green 9, blue 9, yellow 9, red 8, green 8, blue 8",
    "cards_3": "yellow 1, yellow 2, yellow 3, yellow 5, yellow 6, yellow 7, yellow 8",
    "score_2": "",
    "top": "wild",
    "under": "",
    "dealer": "3",
    "turn": "1",
    "waiting": "colour",
}


def test_a_wild_turned_up_to_start_is_set_up_for_the_player_after_the_dealer_to_choose(referee):
    response = referee.post("/play/set-up/", WILD_TURNED_UP)

    assert response.status_code == 302
    state = services.current_state(game=Game.objects.get())
    assert (state.discard, state.colour, state.pending) == (("W",), None, ("colour", 0))
    commands = legal_commands(state, 0)
    assert {c.colour for c in commands if c.type == "choose_colour"} == {"R", "G", "B", "Y"}


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        ({"colour": "B"}, "colour", "The colour is still to be chosen at this moment"),
        ({"turn": "2"}, "turn", "is chosen by the player after the dealer, Ann, not Bob"),
        ({"direction": "-"}, "direction", "down the list of players, Ann then Bob"),
        ({"under": "red 7"}, "top", "the discard pile is that one wild card, not red 7, wild"),
        ({"top": "red 7"}, "top", "the discard pile is that one wild card, not red 7"),
        ({"top": "wild draw 4"}, "top", "Wild draw four turned up to start goes back into the"),
    ],
)
def test_a_wild_turned_up_that_play_never_leaves_so_is_refused_on_its_field(
    referee, change, field, words
):
    assert_refused(referee, {**WILD_TURNED_UP, **change}, field, words)


SHOW_HAND = {
    **SPIN_WHEEL,
    "top": "blue 7",
    "under": "red 3 (spin)",
    "colour": "",
    "turn": "3",
    "waiting": "turn",
    "spin_showing": "2",
}


def test_a_hand_shown_by_the_wheel_is_set_up_face_up_until_the_next_players_turn_ends(
    referee,
):
    # Bob spun Show Hand (and discarded nothing); Cy plays now, and Bob's hand is shown.
    page = referee.get("/play/set-up/").text
    assert "Whose hand the wheel’s Show Hand has face up for everyone" in html.unescape(
        page
    ).replace("'", "’")

    response = referee.post("/play/set-up/", SHOW_HAND)

    assert response.status_code == 302, response.context["described"].errors
    game = Game.objects.get()
    state = services.current_state(game=game)
    assert state.shown == frozenset({1}) and state.extra.show == (1, 2)
    cy = game_view(state, 2)
    assert [seat.get("hand") for seat in cy["seats"]][:2] == [None, ["B5", "G5", "R9"]]
    # Cy's turn ends: Bob's hand is hidden again.
    services.apply_command(game_id=game.pk, command=DrawCard(2), actor="seat")
    state = services.current_state(game=game)
    if state.pending[0] == "drawn":
        services.apply_command(game_id=game.pk, command=Pass(2), actor="seat")
        state = services.current_state(game=game)
    assert state.shown == frozenset()


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"spin_showing": "1"}, "The hand shown is the spinner’s, who played before Cy"),
        ({"spin_showing": "4"}, "There are 3 players: choose one of them."),
        ({"waiting": "discard_number", "turn": "2"}, "until the next player’s turn ends"),
    ],
)
def test_a_shown_hand_that_could_not_be_is_refused_on_its_field(referee, change, words):
    assert_refused(referee, {**SHOW_HAND, **change}, "spin_showing", words.replace("’", "'"))


FACE_UP = {
    **VETO_TABLE,
    "veto_cards": "3",
    "veto_rule_1": "face_up",
    "veto_rule_2": "face_up",
    "veto_rule_3": "face_up",
    "veto_face_up": "3",
}


def test_hands_face_up_by_a_house_rule_are_set_up_until_that_players_next_turn(referee):
    response = referee.post("/play/set-up/", FACE_UP)

    assert response.status_code == 302, response.context["described"].errors
    game = Game.objects.get()
    state = services.current_state(game=game)
    assert state.shown == frozenset({0, 1, 2}) and state.extra.showing == (2,)
    ann = game_view(state, 0)
    assert [seat.get("hand") for seat in ann["seats"]][1] == ["O3", "P5"]
    # Ann and Bob play; Cy's turn begins and the hands go face down.
    services.apply_command(game_id=game.pk, command=PlayCard(0, "P1"), actor="seat")
    services.apply_command(game_id=game.pk, command=PlayCard(1, "P5"), actor="seat")
    assert services.current_state(game=game).shown == frozenset()


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"veto_face_up": "1"}, "Ann plays now: the hands went face down"),
        ({"veto_rule_1": "joke", "veto_rule_2": "joke", "veto_rule_3": "joke"}, "face-up house"),
        ({"veto_face_up": "5"}, "There are 3 players: choose one of them."),
    ],
)
def test_hands_face_up_that_could_not_be_are_refused_on_their_field(referee, change, words):
    assert_refused(referee, {**FACE_UP, **change}, "veto_face_up", words)
