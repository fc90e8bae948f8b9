"""The table page offers a button for every command the seat may send now (from
``legal_commands``), in every edition, and each one works when pressed: games are played to
the end through the page alone."""

import html
import json
from html import escape

import pytest
from django.test import Client

from games import services
from rules import legal_commands
from rules.bots import RandomBot
from rules.commands import DrawCard, PlayCard
from rules.engine import step
from tests.web.conftest import seat_client
from tests.web.table_support import HTMX, Buttons, deck_with

pytestmark = pytest.mark.django_db

CARD_COMMANDS = {"play", "discard", "keep", "keep_card"}
EDITIONS = ["classic", "mod", "veto", "spin", "power_grab"]


def without_uno(data):
    return {k: v for k, v in data.items() if k != "uno"}


def assert_offered(client, game, html, legal):
    """Every legal command can be sent from this page."""
    buttons = Buttons(html)
    picks = {}
    for data in legal:
        kind = data["type"]
        if kind in ("wheel_discard", "wheel_lay"):
            # Ticked with the others to discard, one of them on top (a card laid down at
            # Discard Number or Colour is one ticked under the top one).
            card = data["cards"][0] if kind == "wheel_discard" else data["card"]
            assert ("cards", card) in buttons.checkboxes
            assert {"type": "wheel_discard"} in buttons.commands
            continue
        if data.get("uno"):
            assert 'name="say_uno"' in html, f"no way to say UNO with {data}"
        if kind in CARD_COMMANDS and data["card"] in buttons.picks:
            card = data["card"]
            if card not in picks:
                fragment = client.get(f"/table/{game.pk}/", {"pick": card}, **HTMX).text
                picks[card] = Buttons(fragment).commands
            assert without_uno(data) in picks[card], f"{data} is not among the ways to play"
        elif kind in CARD_COMMANDS:
            assert without_uno(data) in buttons.commands, f"no button sends {data}"
        else:
            assert data in buttons.commands, f"no button sends {data}"


def press(client, game, data, version):
    """Send ``data`` as the table's buttons do."""
    form = {"version": str(version)}
    if data["type"] == "wheel_discard":
        form["command"] = json.dumps({"type": "wheel_discard"})
        form["cards"] = list(data["cards"])
        form["top"] = data["cards"][-1]
        if data.get("colour"):
            form["colour"] = data["colour"]
    else:
        form["command"] = json.dumps(without_uno(data))
    if data.get("uno"):
        form["say_uno"] = "on"
    return client.post(f"/table/{game.pk}/command/", form)


@pytest.mark.parametrize("variant", EDITIONS)
def test_every_legal_command_has_a_button_and_a_game_is_played_through_the_page(make_game, variant):
    game = make_game(
        players=("Ann", "Bob", "Cy", "Di"), variant=variant, scoring="none", seed=f"p-{variant}"
    )
    clients = [seat_client(Client(), game, seat) for seat in range(4)]
    seen: set[str] = set()
    for i in range(400):
        state = services.load_game(game_id=game.pk)
        if state.finished:
            break
        for seat in range(state.players):
            legal = [c.to_dict() for c in legal_commands(state, seat)]
            if {d["type"] for d in legal} - seen:
                html = clients[seat].get(f"/table/{game.pk}/").text
                assert_offered(clients[seat], game, html, legal)
                seen |= {d["type"] for d in legal}
        seat = state.pending[1]
        if seat < 0 or not legal_commands(state, seat):
            seat = next(s for s in range(state.players) if legal_commands(state, s))
        command = RandomBot(f"page:{i}").choose(legal_commands(state, seat))
        choice = command.to_dict()
        if choice["type"] == "wheel_lay":
            # On the page: the card ticked with the next one discarded, that one on top.
            after, _ = step(state, command)
            last = next(c for c in legal_commands(after, seat) if c.type == "wheel_discard")
            choice = {**last.to_dict(), "cards": [choice["card"], *last.cards]}
        response = press(clients[seat], game, choice, state.version)
        assert response.status_code == 302, response.content.decode()[:2000]
        assert services.load_game(game_id=game.pk).version > state.version
    assert services.load_game(game_id=game.pk).finished
    assert {"play", "draw"} <= seen


def test_a_wild_asks_for_the_colour_then_plays(client, make_game):
    deck = deck_with(
        {
            1: ["W", "G1", "G2", "G3", "G4", "G5", "G6"],
            0: ["B1", "B2", "B3", "B4", "B5", "B6", "B7"],
        },
        "R5",
    )
    game = make_game(players=("Ann", "Bob"), deck=deck, dealer=0, seed=None)
    seat_client(client, game, 1)

    asked = client.post(
        f"/table/{game.pk}/command/", {"pick": "W", "version": game.version}, **HTMX
    )

    assert asked.status_code == 200
    options = [c for c in Buttons(asked.text).commands if c.get("card") == "W"]
    assert {"type": "play", "card": "W", "colour": "B"} in options
    assert len(options) == 4
    assert "How do you play wild?" in asked.text
    played = press(client, game, {"type": "play", "card": "W", "colour": "B"}, game.version)
    assert played.status_code == 302
    state = services.load_game(game_id=game.pk)
    assert (state.top, state.colour) == ("W", "B")


@pytest.mark.parametrize(
    ("drawn", "button"),
    [
        ("R9", 'name="command" value="' + escape('{"card":"R9","type":"play"}') + '"'),
        ("W", 'name="pick" value="W"'),  # a wild asks for its colour next
    ],
)
def test_a_card_drawn_that_may_be_played_has_its_own_button(client, make_game, drawn, button):
    deck = deck_with(
        {
            1: ["G1", "G2", "G3", "G4", "G6", "G7", "G8"],
            0: ["B1", "B2", "B3", "B4", "B5", "B6", "B7"],
        },
        "R5",
        first_draws=[drawn],
    )
    game = make_game(players=("Ann", "Bob"), deck=deck, dealer=0, seed=None)
    seat_client(client, game, 1)
    assert 'id="play-drawn"' not in client.get(f"/table/{game.pk}/").text
    services.apply_command(game_id=game.pk, command=DrawCard(1), actor="seat:1")

    page = client.get(f"/table/{game.pk}/").text
    actions = page[page.index('id="actions"') :]
    assert 'id="play-drawn"' in actions and button in actions
    state = services.load_game(game_id=game.pk)
    if drawn == "R9":
        assert press(client, game, {"type": "play", "card": "R9"}, state.version).status_code == 302
        assert services.load_game(game_id=game.pk).top == "R9"


def test_a_card_drawn_that_cannot_be_played_has_no_button(client, make_game):
    deck = deck_with(
        {
            1: ["G1", "G2", "G3", "G4", "G6", "G7", "G8"],
            0: ["B1", "B2", "B3", "B4", "B5", "B6", "B7"],
        },
        "R5",
        first_draws=["Y9"],
    )
    game = make_game(players=("Ann", "Bob"), deck=deck, dealer=0, seed=None)
    seat_client(client, game, 1)
    services.apply_command(game_id=game.pk, command=DrawCard(1), actor="seat:1")
    assert 'id="play-drawn"' not in client.get(f"/table/{game.pk}/").text


def test_say_uno_goes_with_the_play_that_leaves_one_card(client, make_game):
    deck = deck_with(
        {
            1: ["R1", "R2", "R3", "R4", "R6", "R7", "R8"],
            0: ["B1", "B2", "B3", "B4", "B5", "B6", "B7"],
        },
        "R5",
        first_draws=["G9", "B9", "Y9", "G9", "B9"],
    )
    game = make_game(players=("Ann", "Bob"), deck=deck, dealer=0, seed=None, scoring="none")
    seat_client(client, game, 1)
    assert 'name="say_uno"' not in client.get(f"/table/{game.pk}/").text
    for card in ["R1", "R2", "R3", "R4", "R6"]:
        services.apply_command(game_id=game.pk, command=PlayCard(1, card), actor="seat:1")
        services.apply_command(game_id=game.pk, command=DrawCard(0), actor="seat:0")

    page = client.get(f"/table/{game.pk}/").text
    assert 'name="say_uno"' in page
    state = services.load_game(game_id=game.pk)
    press(client, game, {"type": "play", "card": "R7", "uno": True}, state.version)

    played = [e for e in services.replay_events(game_id=game.pk) if e.type == "card_played"]
    assert played[-1].data == {"seat": 1, "card": "R7", "colour": None, "uno": True}


def test_an_illegal_or_stale_press_says_why_and_appends_nothing(client, make_game):
    game = make_game()
    state = services.load_game(game_id=game.pk)
    waiting = state.pending[1]
    other = (waiting + 1) % 3
    seat_client(client, game, other)

    response = client.post(
        f"/table/{game.pk}/command/",
        {"command": json.dumps({"type": "draw"}), "version": game.version},
        **HTMX,
    )

    assert response.status_code == 200
    assert 'class="error" role="alert"' in response.text
    # In the players' words: the name, not "seat 1".
    said = html.unescape(response.text)
    assert f"it is {['Ann', 'Bob', 'Cy'][waiting]}'s turn" in said
    assert f"seat {waiting}" not in said
    assert services.load_game(game_id=game.pk).version == game.version

    # A card the player does not hold is named in words, not by its code.
    seat_client(client, game, waiting)
    missing = next(c for c in ("R7", "G7", "B7", "Y7") if c not in state.hands[waiting])
    refused = client.post(
        f"/table/{game.pk}/command/",
        {"command": json.dumps({"type": "play", "card": missing}), "version": game.version},
        **HTMX,
    )
    said = html.unescape(refused.text)
    colour = {"R": "red", "G": "green", "B": "blue", "Y": "yellow"}[missing[0]]
    assert f"does not hold {colour} 7" in said and f"hold {missing}" not in said
    assert services.load_game(game_id=game.pk).version == game.version


def test_a_stale_version_is_refused(client, make_game, play):
    game = make_game()
    seat_client(client, game, 0)
    before = game.version
    play(game, commands=1)
    state = services.load_game(game_id=game.pk)
    seat_client(client, game, state.pending[1])

    response = client.post(
        f"/table/{game.pk}/command/",
        {"command": json.dumps({"type": "draw"}), "version": before},
        **HTMX,
    )

    assert "The game moved on" in response.text
    assert services.load_game(game_id=game.pk).version == state.version


def test_an_htmx_press_answers_with_the_fragments_and_a_plain_one_redirects(client, make_game):
    game = make_game()
    state = services.load_game(game_id=game.pk)
    seat_client(client, game, state.pending[1])
    draw = {"command": json.dumps({"type": "draw"}), "version": state.version}

    response = client.post(f"/table/{game.pk}/command/", draw, **HTMX)

    assert response.status_code == 200
    # Board, hand, actions, their help, log, the dispute form's choice and the disputes.
    assert response.text.count('hx-swap-oob="true"') == 7
    assert "<html" not in response.text
    state = services.load_game(game_id=game.pk)
    follow = {"command": json.dumps(legal_commands(state, state.pending[1])[-1].to_dict())}
    seat_client(client, game, state.pending[1])
    assert client.post(f"/table/{game.pk}/command/", follow).status_code == 302


def test_only_a_seat_may_press(client, make_game):
    game = make_game()

    response = client.post(f"/table/{game.pk}/command/", {"command": '{"type":"draw"}'})

    assert response.status_code == 403


def _cards_kept_or_discarded():
    from tests.rules.test_position import SEVEN, discards_owed, veto_extra

    joke = veto_extra(["joke"], 2, player=0)
    return {
        # UNO Power Grab: all four towers held, an Instant UNO keeps one card.
        "instant uno": (
            "power_grab|players=3|hand=1|dealer=0|pending=keep:1|dir=+|colour=R|discard=R5:U"
            '|pile=*|hands=G7/R5,G2,B9/Y4|extra={"threat":null,"towers":[1,1,1,1]}',
            1,
            ("Keep red 5", "press the card you keep", "as you keep it"),
        ),
        # UNO VETO: someone laughed at the joke, the teller keeps one card.
        "joke": (
            'veto|players=2|options={"customizable":["joke"]}|hand=1|dealer=0'
            f"|pending=keep_card:0|dir=+|colour=P|discard=P7,WC|pile=*|hands=P1,G2/Y3,P5"
            f"|extra={joke}",
            0,
            ("Keep purple 1", "press the card you keep", "as you keep it"),
        ),
        # UNO VETO: down to seven cards, one card at a time.
        "down to seven": (
            discards_owed("seven_cards", 1, SEVEN, [[1, 7]]),
            1,
            ("Discard green 1", "press a raised card to discard it", None),
        ),
    }


@pytest.mark.parametrize("moment", ["instant uno", "joke", "down to seven"])
def test_a_card_kept_or_discarded_is_pressed_so_not_as_a_play(client, db, moment):
    """Where the hand's cards are kept or discarded, not played, their buttons and the hand's
    heading say so, and so does the UNO box where UNO may be said."""
    from django.contrib.auth import get_user_model

    position, seat, (label, hint, uno) = _cards_kept_or_discarded()[moment]
    referee = get_user_model().objects.create_user("ref-keep")
    game = services.create_game_from_position(
        position=position,
        players=["Ann", "Bob", "Cy"][: 2 if "players=2" in position else 3],
        created_by=referee,
    )
    page = seat_client(client, game, seat).get(f"/table/{game.pk}/").content.decode()
    assert f'aria-label="{label}"' in page and 'aria-label="Play ' not in page
    assert hint in page and "raised cards can be played" not in page
    assert "with this play" not in page
    if uno:
        assert uno in page
    if moment == "down to seven":  # how far down, for everyone at the table
        assert "Discarding by the house rule: Bob (you) down to 7 cards." in page
