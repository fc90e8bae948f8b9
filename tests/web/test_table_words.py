"""Every event of every edition has words for the log, and commands read as their buttons."""

import pytest

from games.pages.editions.words import said_plainly
from games.pages.narration import _EVENTS, Namer, command_text, event_text
from rules.events import EVENT_TYPES
from rules.variants import load_all


def test_every_event_type_has_its_own_words():
    load_all()
    import rules.sheet  # noqa: F401  (the score sheet's event)

    assert set(EVENT_TYPES) <= set(_EVENTS)


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (
            {"type": "card_played", "seat": 1, "card": "W4", "colour": "G", "uno": True},
            "Bob played wild draw four and called green, saying UNO.",
        ),
        (
            {"type": "cards_drawn", "seat": 0, "cards": None, "count": 2, "reason": "draw_two"},
            "Ann (you) drew 2 cards (Draw Two).",
        ),
        (
            {"type": "cards_drawn", "seat": 0, "cards": ["R7"], "reason": "turn"},
            "Ann (you) drew red 7.",
        ),
        (
            {
                "type": "challenge_resolved",
                "challenger": 0,
                "offender": 1,
                "colour": "R",
                "guilty": True,
                "evidence": ["R3"],
            },
            "Ann (you) challenged Bob's Wild Draw 4: a bluff (Bob held red 3).",
        ),
        (
            {
                "type": "challenge_resolved",
                "challenger": 0,
                "offender": 1,
                "colour": "R",
                "guilty": False,
                "evidence": [],
                "hand": ["B3", "W"],
            },
            "Ann (you) challenged Bob's Wild Draw 4: it was legal (Bob showed blue 3, wild).",
        ),
    ],
)
def test_events_in_words_as_the_viewer_may_see_them(data, words):
    assert event_text(data, Namer(["Ann", "Bob"], viewer=0)) == words


def test_a_challenge_reads_without_the_hand_for_a_seat_it_was_not_shown_to():
    data = {
        "type": "challenge_resolved",
        "challenger": 1,
        "offender": 2,
        "colour": "R",
        "guilty": True,
        "evidence": None,
        "hand": None,
    }
    words = event_text(data, Namer(["Ann", "Bob", "Cy"], viewer=0))
    assert words == "Bob challenged Cy's Wild Draw 4: a bluff."


def test_a_name_starting_a_line_is_shown_as_written():
    name = Namer(["de Vries", "van Dam"], viewer=0)

    assert event_text({"type": "dealer_chosen", "dealer": 0}, name) == "de Vries (you) deals."
    assert event_text({"type": "dealer_chosen", "dealer": 1}, name) == "van Dam deals."
    assert event_text({"type": "turn_began", "seat": 1}, name) == "van Dam's turn."
    assert event_text({"type": "turn_began", "seat": 0}, name) == "Your turn."
    assert name.cap(-1) == "The referee" and name.cap(5) == "Player 6"


def test_commands_in_words():
    name = Namer(["Ann", "Bob"], viewer=0)

    assert command_text({"type": "catch", "seat": 1}, name) == "Catch Bob: no UNO!"
    assert command_text({"type": "play", "card": "WM", "colour": "R", "give": "B"}, name) == (
        "Play mod: call red, give away blue"
    )
    assert command_text({"type": "veto", "target": 1}, name) == "Slap the VETO on Bob"
    assert command_text({"type": "catch", "target": 1}, name) == "Catch Bob: no UNO!"


@pytest.mark.parametrize(
    ("message", "plainly"),
    [
        ("it is seat 2's turn", "it is Cy's turn"),
        ("seat 1 does not hold R5", "Bob (you) does not hold red 5"),
        ("cannot play W4 on G3~", "cannot play wild draw four on green 3 (spin)"),
        ("the VETO lies on seat 0; call UNO", "the VETO lies on Ann; call UNO"),
        ("WC and B1:U", "wild customizable and blue 1 (U icon)"),
        (
            "P7, OD2 and R4:! are in play",
            "purple 7, orange draw two and red 4 (! icon) are in play",
        ),
        ("the O tower, OK", "the O tower, OK"),
    ],
)
def test_a_rules_message_is_said_in_the_players_words(message, plainly):
    assert said_plainly(message, Namer(["Ann", "Bob", "Cy"], 1)) == plainly


def test_a_tower_grab_says_whose_tower_it_was():
    data = {
        "type": "towers_grabbed",
        "seat": 0,
        "card": "RG2",
        "towers": ["U", "N"],
        "previous": [1, None],
    }
    words = event_text(data, Namer(["Ann", "Bob"], viewer=0), "power_grab")
    assert words == "Ann (you) grabbed the U tower from Bob and the N tower from the middle."


def test_the_viewers_own_things_are_yours_not_you_s():
    """ "Your hand", never "Cy (you)'s hand"; another player's stay theirs."""
    shown = {"type": "hand_shown", "seat": 2, "hand": ["R1"]}
    assert event_text(shown, Namer(["Ann", "Bob", "Cy"], viewer=2), "spin").startswith(
        "Your hand is shown to everyone"
    )
    assert event_text(shown, Namer(["Ann", "Bob", "Cy"], viewer=0), "spin").startswith(
        "Cy's hand is shown to everyone"
    )
    from games.pages.editions.words import said_plainly

    assert said_plainly("seat 0's turn", Namer(["Ann", "Bob"], viewer=0)) == "your turn"
    assert said_plainly("seat 1's turn", Namer(["Ann", "Bob"], viewer=0)) == "Bob's turn"


@pytest.mark.parametrize(
    ("data", "variant", "words"),
    [
        ({"type": "turn_began", "seat": 1}, "classic", "Bob's turn."),
        ({"type": "turn_began", "seat": 0}, "classic", "Your turn."),
        (
            {"type": "starter_turned", "card": "R5:U"},
            "power_grab",
            "Red 5 (U icon) turned up to start.",
        ),
        (
            {"type": "rewound", "to_version": 25, "by": "user:1", "reason": "misdeal"},
            "classic",
            "A referee undid everything after event 25: misdeal",
        ),
        (
            {"type": "house_rules_drawn", "seat": 1, "rules": [], "drawn": None},
            "veto",
            "Bob drew no Wild Customizable card.",
        ),
        (
            {"type": "house_rules_drawn", "seat": 1, "rules": ["joke"], "drawn": "joke"},
            "veto",
            "Bob drew a Wild Customizable card, house rule: tell a joke: a laugh and you "
            "discard down to one card.",
        ),
    ],
)
def test_a_referees_replay_reads_in_the_players_words(data, variant, words):
    assert event_text(data, Namer(["Ann", "Bob"], viewer=0), variant) == words
