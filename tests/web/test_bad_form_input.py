"""Form input that once made a page answer a server error: a tampered table button, a NUL in a
text field, a number past any column. Each is a form error on the page, and nothing is
appended or stored."""

import html
import json

import pytest
from django.contrib.auth import get_user_model

from games import services
from games.models import Dispute, Event, Game
from rules import legal_commands
from tests.web.conftest import seat_client
from tests.web.league_pages_support import league, olga, season, sheet  # noqa: F401 (fixtures)
from tests.web.table_support import HTMX

pytestmark = pytest.mark.django_db

DEEP = "[" * 100_000 + "]" * 100_000


def version(game):
    return Game.objects.get(pk=game.pk).version


@pytest.fixture
def game(make_game):
    return make_game()


@pytest.fixture
def waiting(client, game):
    """The browser of the seat the game waits for."""
    return seat_client(client, game, services.load_game(game_id=game.pk).pending[1])


def press(client, game, command, **extra):
    raw = command if isinstance(command, str) else json.dumps(command)
    return client.post(
        f"/table/{game.pk}/command/", {"command": raw, "version": game.version, **extra}
    )


@pytest.mark.parametrize("kind", ["play", "discard", "keep", "keep_card"])
@pytest.mark.parametrize("card", [["R7"], {"code": "R7"}])
def test_a_card_given_as_a_list_or_an_object_is_a_form_error(waiting, game, kind, card):
    response = press(waiting, game, {"type": kind, "card": card})

    assert response.status_code == 400
    assert 'class="error" role="alert"' in response.text
    assert "must be a string" in html.unescape(response.text)
    assert version(game) == game.version


def test_with_htmx_the_error_comes_in_the_fragments(waiting, game):
    response = waiting.post(
        f"/table/{game.pk}/command/",
        {"command": json.dumps({"type": "play", "card": ["R7"]}), "version": game.version},
        **HTMX,
    )

    assert response.status_code == 200
    assert "must be a string" in html.unescape(response.text)
    assert version(game) == game.version


@pytest.mark.parametrize(
    "command",
    [
        DEEP,
        {"type": ["play"], "card": "R7"},
        {"type": {"play": 1}},
        "[]",
        "not json",
        # A discard whose cards are no list: "Say UNO" once counted them (a 500).
        {"type": "wheel_discard", "cards": 5},
        {"type": "wheel_discard", "cards": True},
        {"type": "wheel_discard", "cards": 1.5},
    ],
)
def test_a_button_that_names_no_command_is_a_form_error_even_saying_uno(waiting, game, command):
    response = press(waiting, game, command, say_uno="on")

    assert response.status_code == 400
    assert 'class="error" role="alert"' in response.text
    assert version(game) == game.version


def test_a_version_past_any_column_is_no_version(waiting, game):
    state = services.load_game(game_id=game.pk)
    draw = next(c for c in legal_commands(state, state.pending[1]) if c.type == "draw")

    response = press(waiting, game, draw.to_dict(), version=str(2**80))

    assert response.status_code == 302  # taken as sent without a version
    assert version(game) > game.version


@pytest.mark.parametrize(
    ("claim", "message"),
    [("she\x00cheated", "null characters"), ("x" * 2001, "at most 2000 characters")],
)
def test_a_dispute_claim_no_database_takes_is_a_form_error(waiting, game, claim, message):
    response = waiting.post(f"/table/{game.pk}/disputes/", {"version": 1, "claim": claim})

    assert response.status_code == 400
    assert message in html.unescape(response.text)
    assert not Dispute.objects.exists()


def test_with_htmx_a_dispute_claim_with_a_null_character_is_shown_in_the_fragment(waiting, game):
    response = waiting.post(f"/table/{game.pk}/disputes/", {"version": 1, "claim": "a\x00"}, **HTMX)

    assert response.status_code == 200
    assert "null characters" in html.unescape(response.text)
    assert not Dispute.objects.exists()


def test_a_referees_undo_reason_with_a_null_character_is_a_form_error(client, make_game, play):
    referee = get_user_model().objects.create_user("ref", password="pw")
    game = make_game(created_by=referee)
    play(game, commands=2)
    client.force_login(referee)
    before = version(game)

    response = client.post(
        f"/table/{game.pk}/replay/undo/",
        {"to_version": game.version, "reason": "oops\x00", "version": before},
    )

    assert response.status_code == 400
    assert "null characters" in html.unescape(response.text)
    assert version(game) == before


def test_score_sheet_points_past_any_column_are_a_form_error(client, olga, sheet):  # noqa: F811
    client.force_login(olga)
    before = version(sheet)

    response = client.post(
        f"/score-sheets/{sheet.pk}/", {"out": "0", "points-1": str(2**62), "points-2": "3"}
    )

    assert response.status_code == 200
    assert "more than a whole Classic UNO deck is worth (1240 points)" in html.unescape(
        response.text
    )
    assert version(sheet) == before


@pytest.mark.parametrize("key", ["k\x00", "k" * 201])
def test_a_score_sheet_key_no_database_takes_is_a_form_error(client, olga, sheet, key):  # noqa: F811
    client.force_login(olga)
    before = version(sheet)

    response = client.post(
        f"/score-sheets/{sheet.pk}/", {"out": "0", "points-1": "2", "points-2": "3", "key": key}
    )

    assert response.status_code == 200
    assert "This form was changed on its way" in html.unescape(response.text)
    assert version(sheet) == before


def test_a_seat_link_with_a_null_character_is_no_seat(client, game):
    response = client.get(f"/table/{game.pk}/seat/a%00b/")

    assert response.status_code == 404
    assert "table_seats" not in client.session


@pytest.mark.parametrize(
    ("undo_to", "message"),
    [
        ("two", "The event to go back to must be a whole number"),
        (str(2**80), "The event to go back to must be at most"),
    ],
)
def test_a_ruling_that_undoes_to_no_number_is_a_form_error(
    client, make_game, play, undo_to, message
):
    referee = get_user_model().objects.create_user("ref", password="pw")
    game = make_game(created_by=referee)
    play(game, commands=2)
    dispute = services.open_dispute(game_id=game.pk, version=2, claim="x", by="seat:0")
    client.force_login(referee)

    response = client.post(
        f"/table/{game.pk}/disputes/{dispute.pk}/ruling/",
        {"decision": "upheld", "note": "", "undo_to": undo_to},
    )

    assert response.status_code == 400
    assert message in html.unescape(response.text)
    dispute.refresh_from_db()
    assert dispute.status == "open"
    assert not Event.objects.filter(game=game, type="rewound").exists()


def test_a_dispute_about_no_event_number_is_a_form_error(waiting, game):
    response = waiting.post(f"/table/{game.pk}/disputes/", {"version": "first", "claim": "x"})

    assert response.status_code == 400
    assert "The version the page shows must be a whole number" in html.unescape(response.text)
    assert not Dispute.objects.exists()
