"""Card notation: strict parsing, formatting and the points each card scores."""

import re

import pytest

from rules.cards import CARD_PATTERN, card_info, describe, format_card, parse_cards, parse_colour
from rules.errors import InvalidCard
from rules.variants import get_variant, variant_names


@pytest.mark.parametrize(
    ("code", "colour", "rank", "mark", "points"),
    [
        ("R7", "R", "7", None, 7),
        ("B0", "B", "0", None, 0),
        ("GS", "G", "S", None, 20),
        ("YV", "Y", "V", None, 20),
        ("RD2", "R", "D2", None, 20),
        ("BD1", "B", "D1", None, 20),
        ("YG2", "Y", "G2", None, 50),
        ("W", None, "W", None, 50),
        ("W4", None, "W4", None, 50),
        ("WM", None, "WM", None, 50),
        ("WC", None, "WC", None, 40),
        ("WG", None, "WG", None, 50),
        ("G3~", "G", "3", "~", 3),
        ("R5:U", "R", "5", "U", 5),
        ("P9", "P", "9", None, 9),
        ("O1:!", "O", "1", "!", 1),
    ],
)
def test_every_example_of_the_notation_parses_to_its_parts(code, colour, rank, mark, points):
    card = card_info(code)
    assert (card.colour, card.rank, card.mark, card.points) == (colour, rank, mark, points)
    assert format_card(colour, rank, mark) == code


@pytest.mark.parametrize(
    "code",
    ["r7", "R10", "X7", "W5", "RW", "R", "", "RS~", "R7:X", "W4~", " R7", "R7 ", "R7\n", "D2"],
)
def test_an_unknown_code_is_refused_naming_the_code(code):
    with pytest.raises(InvalidCard) as err:
        card_info(code)
    assert repr(code) in str(err.value)


@pytest.mark.parametrize("code", [7, None, ["R7"], {"card": "R7"}, [[1]]])
def test_a_code_that_is_not_a_string_is_refused(code):
    # A list or an object (from JSON) is refused like a number, not with a TypeError.
    with pytest.raises(InvalidCard, match="must be a string"):
        card_info(code)


def test_the_schema_pattern_of_a_code_takes_every_card_and_the_notation_only():
    # The API's schema states it; a mark on a card that is not a number ("RS~") fits the
    # pattern and is refused by the parser alone.
    pattern = re.compile(CARD_PATTERN)
    for variant in variant_names():
        assert all(pattern.fullmatch(code) for code in get_variant(variant).deck)
    for code in ["r7", "R10", "X7", "W5", "R7:X", "W4~", " R7", "D2"]:
        assert not pattern.search(code)


def test_a_list_of_codes_names_the_position_of_the_bad_one():
    with pytest.raises(InvalidCard, match=r"card 2: unknown card code 'Q1'"):
        parse_cards(["R1", "G2", "Q1"])


def test_a_colour_outside_the_variant_is_refused():
    with pytest.raises(InvalidCard, match="unknown colour 'P'"):
        parse_colour("P", ("R", "G", "B", "Y"))


def test_cards_are_described_in_words_for_pages_and_logs():
    assert describe("R7") == "red 7"
    assert describe("W4") == "wild draw four"
    assert describe("G3~") == "green 3 (spin)"


def test_the_classic_deck_has_the_108_cards_of_the_rulebooks():
    deck = get_variant("classic").deck
    assert len(deck) == 108
    for colour in "RGBY":
        assert deck.count(f"{colour}0") == 1
        for n in range(1, 10):
            assert deck.count(f"{colour}{n}") == 2
        for rank in ("S", "V", "D2"):
            assert deck.count(f"{colour}{rank}") == 2
    assert deck.count("W") == 4 and deck.count("W4") == 4


def test_the_deck_printer_lists_the_deck_one_card_per_line(capsys):
    from rules.deck import main

    assert main(["--variant", "classic"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines == list(get_variant("classic").deck)
