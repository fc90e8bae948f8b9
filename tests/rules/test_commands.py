"""Commands in the API's JSON shape: strict parsing that names the bad field."""

from dataclasses import fields

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.commands import (
    COMMAND_TYPES,
    Catch,
    ChooseColour,
    DrawCard,
    PlayCard,
    command_from_dict,
    play_fields,
)
from rules.engine import new_game, step
from rules.errors import InvalidCommand, RuleError
from rules.variants import load_all, variant_names


@pytest.mark.parametrize(
    ("data", "command"),
    [
        (
            {"type": "play", "card": "W4", "colour": "G", "uno": False},
            PlayCard(2, "W4", "G", False),
        ),
        ({"type": "play", "card": "R3"}, PlayCard(2, "R3")),
        ({"type": "draw"}, DrawCard(2)),
        ({"type": "catch", "target": 0}, Catch(2, 0)),
        ({"type": "choose_colour", "colour": "Y"}, ChooseColour(2, "Y")),
        ({"type": "play", "card": "R3", "expected_version": 9, "key": "c-81f2"}, PlayCard(2, "R3")),
    ],
)
def test_commands_parse_from_the_api_shape_and_format_back_to_it(data, command):
    assert command_from_dict(2, data) == command
    shape = {
        k: v for k, v in data.items() if k not in ("expected_version", "key") and v is not False
    }
    assert command.to_dict() == shape


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        ({"type": "play", "card": "R10"}, "card", "unknown card code 'R10'"),
        ({"type": "play"}, "card", "card is required"),
        ({"type": "play", "card": "W", "colour": "Q"}, "colour", "unknown colour 'Q'"),
        ({"type": "play", "card": "R3", "uno": "yes"}, "uno", "expected true or false"),
        ({"type": "catch"}, "target", "target is required"),
        ({"type": "catch", "target": "1"}, "target", "expected a seat number"),
        ({"type": "catch", "seat": "1"}, "target", "expected a seat number"),
        ({"type": "catch", "target": 1, "seat": 2}, "target", "target and seat .* differ"),
        ({"type": "veto", "target": 1, "seat": 2}, "target", "target and seat .* differ"),
        ({"type": "dance"}, "type", "unknown command type 'dance'"),
        ({"type": "draw", "card": "R3"}, "card", "unknown field 'card'"),
        ({"card": "R3"}, "type", "unknown command type None"),
    ],
)
def test_a_bad_command_is_refused_naming_the_field(data, field, message):
    with pytest.raises(InvalidCommand, match=message) as err:
        command_from_dict(0, data)
    assert err.value.field == field


@pytest.mark.parametrize("kind", ["play", "discard", "keep", "keep_card"])
@pytest.mark.parametrize("card", [["R7"], {"code": "R7"}, 7, True])
def test_a_card_that_is_not_a_string_is_refused_naming_the_card_in_every_edition(kind, card):
    with pytest.raises(InvalidCommand, match="must be a string") as err:
        command_from_dict(0, {"type": kind, "card": card})
    assert err.value.field == "card"


@pytest.mark.parametrize("cards", [[["R7"]], [{"code": "R7"}], "R7", {"0": "R7"}])
def test_a_wheel_discard_of_anything_but_card_codes_is_refused_naming_the_cards(cards):
    with pytest.raises(InvalidCommand) as err:
        command_from_dict(0, {"type": "wheel_discard", "cards": cards})
    assert err.value.field == "cards"


# Any JSON value, small: what a client may put in any field of a command.
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner),
    max_leaves=6,
)
CARDS = st.sampled_from(["R7", "W", "W4", "G3~", "R5:U", "WC", "RS~", "R10", ""])


def _started(variant):
    state, _ = new_game(variant=variant, players=3, seed="any-json")
    return state


@settings(max_examples=200, deadline=None, derandomize=True, database=None)
@given(data=st.data())
def test_any_json_in_any_command_of_any_edition_is_decided_or_refused_as_a_rule_error(data):
    load_all()
    variant = data.draw(st.sampled_from(variant_names()))
    kind = data.draw(st.sampled_from(sorted(COMMAND_TYPES)))
    body = {"type": kind}
    for f in play_fields() if kind == "play" else fields(COMMAND_TYPES[kind]):
        if f.name != "seat" and data.draw(st.booleans()):
            body[f.metadata.get("json", f.name)] = data.draw(JSON | CARDS | st.lists(CARDS))
            if "old" in f.metadata and data.draw(st.booleans()):
                body[f.metadata["old"]] = data.draw(JSON | st.just(body[f.metadata["json"]]))
    state = _started(variant)
    seat = data.draw(st.integers(0, state.players - 1))

    try:
        step(state, command_from_dict(seat, body, data.draw(st.sampled_from([None, variant]))))
    except RuleError:
        pass  # the API's 400 or 409; anything else would be a server error


@pytest.mark.parametrize("kind", ["catch", "veto"])
def test_a_target_is_named_target_and_its_former_name_seat_is_still_taken(kind):
    new = command_from_dict(0, {"type": kind, "target": 2})
    assert command_from_dict(0, {"type": kind, "seat": 2}) == new
    assert command_from_dict(0, {"type": kind, "seat": 2, "target": 2}) == new
    assert new.target == 2 and new.seat == 0  # the sender comes from who is calling
    assert new.to_dict() == {"type": kind, "target": 2}  # the legal list names it target


@pytest.mark.parametrize(
    ("body", "variant", "field", "message"),
    [
        ({"card": "WM", "colour": "B", "give": "G"}, "classic", "give", "only for the Mod card"),
        ({"card": "RG2", "towers": ["U", "N"]}, "mod", "towers", "only for Power Grab cards"),
        ({"card": "WC", "colour": "P", "rule": "joke"}, "spin", "rule", "only for Wild Custom"),
    ],
)
def test_a_play_carrying_another_editions_field_is_refused_naming_the_field(
    body, variant, field, message
):
    data = {"type": "play", **body}
    with pytest.raises(InvalidCommand, match=message) as err:
        command_from_dict(1, data, variant=variant)
    assert err.value.field == field
    # Parsed without the game's edition, the engine refuses it the same way.
    state = _started(variant)
    with pytest.raises(InvalidCommand, match=message) as err:
        step(state, command_from_dict(state.pending[1], data))
    assert err.value.field == field


@pytest.mark.parametrize("variant", ["classic", "mod", "veto", "spin", "power_grab", None])
def test_an_editions_field_sent_empty_is_not_given(variant):
    """A client that sends every field it knows, ``null`` when it has nothing to say, plays a
    plain card: ``"give": null`` is no unknown field, in a game of any edition."""
    empty = {"give": None, "towers": None, "rule": None}
    data = {"type": "play", "card": "R1", **empty}
    assert command_from_dict(1, data, variant) == PlayCard(1, "R1")
    wild = {"type": "play", "card": "WM", "colour": "R", "give": None}
    assert command_from_dict(1, wild, variant) == PlayCard(1, "WM", "R")


def test_a_play_is_parsed_as_the_editions_own_play_command():
    from rules.variants.mod.commands import ModPlay
    from rules.variants.power_grab.commands import PowerGrabPlay
    from rules.variants.veto.commands import VetoPlay

    play = {"type": "play", "card": "WM", "colour": "B"}
    assert command_from_dict(1, {**play, "give": "G"}, "mod") == ModPlay(1, "WM", "B", give="G")
    assert command_from_dict(1, play, "mod") == PlayCard(1, "WM", "B")  # nothing to give
    grab = {"type": "play", "card": "RG2", "towers": ["U"]}
    assert command_from_dict(1, grab, "power_grab") == PowerGrabPlay(1, "RG2", towers=("U",))
    assert command_from_dict(1, {**grab, "towers": []}, "power_grab") == PlayCard(1, "RG2")
    wc = {"type": "play", "card": "WC", "colour": "P", "rule": "joke"}
    assert command_from_dict(1, wc) == VetoPlay(1, "WC", "P", rule="joke")
    for command in (ModPlay(1, "WM", "B", give="G"), VetoPlay(1, "WC", "P", rule="joke")):
        assert command.to_dict()["type"] == "play"
        assert command_from_dict(1, command.to_dict(), command.edition) == command


def test_a_command_must_be_a_json_object():
    with pytest.raises(InvalidCommand, match="JSON object"):
        command_from_dict(0, ["play"])


def test_stored_events_and_commands_of_every_edition_load_without_importing_the_edition_first():
    import subprocess
    import sys

    code = (
        "from rules.events import event_from_dict\n"
        "from rules.commands import command_from_dict\n"
        "e = event_from_dict({'type': 'cards_given', 'seat': 0, 'colour': 'R',"
        " 'gifts': [[1, 'R1']], 'uno': False})\n"
        "assert e.type == 'cards_given'\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_a_renamed_field_gives_the_commands_former_shape_and_others_have_none():
    from rules.variants.veto.commands import SlapVeto

    assert Catch(1, 2).former_dict() == {"type": "catch", "seat": 2}
    assert SlapVeto(1, 0).former_dict() == {"type": "veto", "seat": 0}
    assert command_from_dict(1, Catch(1, 2).former_dict()) == Catch(1, 2)
    assert PlayCard(1, "R5", uno=True).former_dict() is None
