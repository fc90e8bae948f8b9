"""Each edition's module (games/pages/editions/) says everything the edition shows: words for
every command and event its rules have, help for its special buttons, a face for every special
card, a rules summary, and option fields that refuse a bad option in players' words."""

import pytest

from games.pages import narration
from games.pages.editions import EDITIONS, edition_for
from games.pages.faces import card_face
from games.pages.table import CARD_COMMANDS
from rules.cards import card_info
from rules.commands import COMMAND_TYPES
from rules.events import EVENT_TYPES
from rules.variants import get_variant, load_all, variant_names
from tests.web.conftest import seat_client

CORE_DECK = "classic"


def types_of(registry: dict, variant: str) -> set[str]:
    """The types of ``registry`` a game of ``variant`` can produce: the core rules' (modules
    outside rules.variants) and those of the edition's own modules (or, for a type that names
    its edition, as ``Command.edition`` does, that edition's)."""
    load_all()
    import rules.sheet  # noqa: F401  (the score sheet's command and event)

    own = f"rules.variants.{variant}"
    out = set()
    for kind, cls in registry.items():
        module = cls.__module__
        named = getattr(cls, "edition", None)
        if isinstance(named, str):
            if named == variant:
                out.add(kind)
        elif not module.startswith("rules.variants."):
            out.add(kind)
        elif module == own or module.startswith((own + ".", own + "_")):
            out.add(kind)
    return out


def test_there_is_one_module_for_each_edition_of_the_rules():
    assert set(EDITIONS) == set(variant_names())
    for name, edition in EDITIONS.items():
        assert edition.name == name
        assert type(edition).__module__ == f"games.pages.editions.{name}"


@pytest.mark.parametrize("variant", sorted(EDITIONS))
def test_every_event_an_editions_rules_have_has_words_in_its_module(variant):
    events = types_of(EVENT_TYPES, variant)

    assert events, "the registry of event types was not read"
    missing = events - set(edition_for(variant).events)
    assert not missing, f"{variant}: no words for the events {sorted(missing)}"


@pytest.mark.parametrize("variant", sorted(EDITIONS))
def test_every_command_an_editions_rules_have_has_words_in_its_module(variant):
    commands = types_of(COMMAND_TYPES, variant)
    edition = edition_for(variant)

    # "play" is worded by the edition itself (its card and what the edition adds to it).
    missing = commands - set(edition.commands) - {"play"}
    assert not missing, f"{variant}: no words for the commands {sorted(missing)}"
    assert "play" in commands


def test_a_new_command_without_words_is_caught(monkeypatch):
    class Shout:
        __module__ = "rules.variants.veto.commands"

    class Whirl:
        __module__ = "rules.commands"
        edition = "spin"

    monkeypatch.setitem(COMMAND_TYPES, "shout", Shout)
    monkeypatch.setitem(COMMAND_TYPES, "whirl", Whirl)

    assert "shout" in types_of(COMMAND_TYPES, "veto")
    assert "shout" not in edition_for("veto").commands
    assert "shout" not in types_of(COMMAND_TYPES, "spin")
    assert "whirl" in types_of(COMMAND_TYPES, "spin")
    assert "whirl" not in types_of(COMMAND_TYPES, "classic")


@pytest.mark.parametrize("variant", sorted(EDITIONS))
def test_every_special_button_of_an_edition_says_what_it_does(variant):
    own = types_of(COMMAND_TYPES, variant) - types_of(COMMAND_TYPES, CORE_DECK)
    buttons = own - CARD_COMMANDS - edition_for(variant).discard_commands
    edition = edition_for(variant)

    missing = buttons - set(edition.help)
    assert not missing, f"{variant}: no help for the buttons {sorted(missing)}"
    for kind in buttons:
        assert kind in edition.buttons, f"{variant}: {kind} has no place among the buttons"
    assert len(edition.summary) >= 2 and all(len(p) > 40 for p in edition.summary)


@pytest.mark.parametrize("variant", sorted(EDITIONS))
def test_every_special_card_has_a_face_of_its_own_that_reads_as_no_number(variant):
    deck = set(get_variant(variant).deck)
    faces = {}
    for code in deck:
        info = card_info(code)
        face = card_face(code)
        assert code not in (face.symbol, face.word), f"{code}'s face shows its code"
        if info.is_number:
            assert face.symbol == info.rank and face.word == ""
            continue
        assert face.word, f"{code} has no name on its face"
        assert not face.word.isdigit() and not face.symbol.isdigit()
        faces.setdefault(info.rank, (face.symbol, face.word))
    # Each kind of special card looks different from every other.
    assert len(set(faces.values())) == len(faces)
    assert len({symbol for symbol, _ in faces.values()}) == len(faces)


def test_grab_two_towers_does_not_read_as_a_green_two():
    face = card_face("BG2")

    assert face.word == "Grab 2 Towers"
    assert not any(ch.isdigit() for ch in face.symbol)
    assert "G2" not in (face.symbol, face.word, face.corner)
    assert face.colour_name == "blue"


def test_marked_number_cards_say_what_their_mark_is():
    spin = card_face("R3~")
    icon = card_face("B3:U")

    assert (spin.symbol, spin.mark, spin.mark_word) == ("3", "↻", "Spin")
    assert (icon.symbol, icon.mark, icon.mark_word) == ("3", "U", "U tower")
    # The words name the mark once: no "red 3 (spin) (Spin card)".
    assert (spin.label, icon.label) == ("red 3 (spin)", "blue 3 (U icon)")


def test_words_without_a_variant_are_those_of_the_edition_the_type_belongs_to():
    name = narration.Namer(["Ann", "Bob"], viewer=0)
    slap = {"type": "veto_slapped", "by": 0, "target": 1}

    assert narration.event_text(slap, name) == narration.event_text(slap, name, "veto")
    play = {"type": "play", "card": "WG", "colour": "R", "towers": ["U"]}
    assert narration.command_text(play, name) == "Play wild grab a tower: call red, grab U"
    assert narration.command_text(play, name, "power_grab") == narration.command_text(play, name)


# At the table -----------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_veto_table_explains_the_veto_beside_its_buttons(client, make_game):
    game = make_game(variant="veto", players=("Ann", "Bob", "Cy"), seed="veto-help")
    seat_client(client, game, 0)

    html = client.get(f"/table/{game.pk}/").text

    assert "Slap the VETO on Bob" in html
    assert "talks politics at the table" in html  # the button's help, beside it
    assert "How UNO VETO plays" in html  # the rules summary
    assert "<dt>Wild Customizable</dt>" in html  # its special card, in the summary's glossary
    assert "VETO Bob<" not in html


@pytest.mark.django_db
def test_the_rules_summary_names_the_games_options(client, make_game):
    options = {"customizable": ["joke", {"text": "Sing a song"}]}
    game = make_game(variant="veto", players=("Ann", "Bob"), seed="veto-opts", options=options)
    seat_client(client, game, 1)

    html = client.get(f"/table/{game.pk}/").text

    assert "2 Wild Customizable cards in the deck:" in html
    assert "card 2: “Sing a song”" in html


@pytest.mark.parametrize("variant", sorted(EDITIONS))
def test_the_rules_summary_says_what_every_special_card_does(variant):
    edition = edition_for(variant)
    names = {card_face(code).word for code in get_variant(variant).deck} - {""}

    missing = names - set(edition.card_help)
    assert not missing, f"{variant}: the summary says nothing of {sorted(missing)}"


@pytest.mark.django_db
def test_choosing_how_to_play_a_mod_card_says_what_it_does(client, make_game):
    from tests.web.table_support import drive

    game = make_game(variant="mod", players=("Ann", "Bob"), seed="mod-help")
    state = drive(game, until=lambda s: s.pending[0] == "turn" and "WM" in s.hands[s.pending[1]])
    assert "WM" in state.hands[state.pending[1]], "the deal never gave the player to move a Mod"
    seat_client(client, game, state.pending[1])

    html = client.get(f"/table/{game.pk}/?pick=WM").text

    assert "How do you play mod?" in html
    assert "<strong>Mod</strong>: gives away every card of the colour you name" in html
