"""Commands in the API's JSON shape: strict parsing that names the bad field."""

import pytest

from rules.commands import Catch, ChooseColour, DrawCard, PlayCard, command_from_dict
from rules.errors import InvalidCommand


@pytest.mark.parametrize(
    ("data", "command"),
    [
        (
            {"type": "play", "card": "W4", "colour": "G", "uno": False},
            PlayCard(2, "W4", "G", False),
        ),
        ({"type": "play", "card": "R3"}, PlayCard(2, "R3")),
        ({"type": "draw"}, DrawCard(2)),
        ({"type": "catch", "seat": 0}, Catch(2, 0)),
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
        ({"type": "catch"}, "seat", "seat is required"),
        ({"type": "catch", "seat": "1"}, "seat", "expected a seat number"),
        ({"type": "dance"}, "type", "unknown command type 'dance'"),
        ({"type": "draw", "card": "R3"}, "card", "unknown field 'card'"),
        ({"card": "R3"}, "type", "unknown command type None"),
    ],
)
def test_a_bad_command_is_refused_naming_the_field(data, field, message):
    with pytest.raises(InvalidCommand, match=message) as err:
        command_from_dict(0, data)
    assert err.value.field == field


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
