"""The table page: reached by a seat's private link or by a signed-in player, it shows the
hand, the top card and colour, every seat's count and score and whose turn it is, and it
updates itself by fetching the game's version when its stream says the game moved."""

import re

import pytest
from django.contrib.auth import get_user_model

from games import services
from games.models import Seat
from games.pages.faces import card_face
from games.pages.narration import colour_word
from rules import legal_commands
from rules.cards import describe
from tests.web.conftest import seat_client
from tests.web.table_support import HTMX, Buttons, drive

pytestmark = pytest.mark.django_db


def test_the_seat_link_keeps_the_secret_in_the_session_and_redirects_to_a_clean_url(
    client, make_game
):
    game = make_game()
    secret = Seat.objects.get(game=game, seat=1).secret

    response = client.get(f"/table/{game.pk}/seat/{secret}/")

    assert response.status_code == 302
    assert response["Location"] == f"/table/{game.pk}/"
    assert response["Referrer-Policy"] == "no-referrer"
    assert client.session["table_seats"] == {str(game.pk): secret}
    page = client.get(response["Location"])
    assert "You play as <strong>Bob</strong>" in page.text


def test_the_page_never_shows_a_seat_secret(client, make_game):
    game = make_game()
    seat_client(client, game, 1)

    html = client.get(f"/table/{game.pk}/").text

    for seat in Seat.objects.filter(game=game):
        assert seat.secret not in html


def test_an_unknown_secret_or_another_games_secret_is_not_found(client, make_game):
    game, other = make_game(), make_game(seed="other")
    foreign = Seat.objects.get(game=other, seat=0).secret

    assert client.get(f"/table/{game.pk}/seat/not-a-secret/").status_code == 404
    assert client.get(f"/table/{game.pk}/seat/{foreign}/").status_code == 404


def test_without_a_seat_the_table_is_private_until_the_game_is_over(client, make_game):
    game = make_game()

    response = client.get(f"/table/{game.pk}/")

    assert response.status_code == 403
    assert "open it with your seat" in response.text
    assert client.get(f"/table/{game.pk}/version/?v=0").status_code == 403


def test_a_signed_in_player_reaches_their_seat_without_the_link(client, make_game):
    user = get_user_model().objects.create_user("bob", password="pw-bob-123")
    game = make_game()
    Seat.objects.filter(game=game, seat=1).update(user=user)
    client.force_login(user)

    response = client.get(f"/table/{game.pk}/")

    assert response.status_code == 200
    assert "You play as <strong>Bob</strong>" in response.text


def test_the_page_shows_the_top_card_colour_counts_scores_and_whose_turn(client, make_game):
    game = make_game()
    state = services.load_game(game_id=game.pk)
    seat_client(client, game, 0)

    html = client.get(f"/table/{game.pk}/").text

    assert f'aria-label="{describe(state.top)}"' in html
    # The colour in play in words beside its swatch (never by its letter alone).
    assert f"<strong>{colour_word(state.colour).capitalize()}</strong>" in html
    assert f"({state.colour})" not in html
    assert html.count("7 cards</span>") == 3
    assert html.count('class="score">0 points') == 3
    turn = state.pending[1]
    assert f"Waiting for {['Ann', 'Bob', 'Cy'][turn]}" in html
    assert 'aria-current="true"' in html


def test_the_playable_cards_are_buttons_and_the_others_are_not(client, make_game):
    game = make_game()
    state = services.load_game(game_id=game.pk)
    seat = state.pending[1]
    seat_client(client, game, seat)

    html = client.get(f"/table/{game.pk}/").text

    playable = {c.card for c in legal_commands(state, seat) if c.type == "play"}
    buttons = Buttons(html)
    offered = {c["card"] for c in buttons.commands if c["type"] == "play"} | set(buttons.picks)
    assert offered == playable
    for code in set(state.hands[seat]) - playable:
        assert f'aria-label="{describe(code)}, cannot be played now"' in html


def test_each_card_shows_its_number_or_symbol_never_its_code(client, make_game):
    game = make_game()
    state = services.load_game(game_id=game.pk)
    seat_client(client, game, 0)

    html = client.get(f"/table/{game.pk}/").text

    for code in state.hands[0]:
        face = card_face(code)
        assert f'<span class="card-corner" aria-hidden="true">{face.symbol}</span>' in html
        if face.word:
            assert f'<span class="card-word" aria-hidden="true">{face.word}</span>' in html
        assert f">{code}<" not in html


def test_the_poll_answers_204_while_the_version_stands(client, make_game):
    game = make_game()
    seat_client(client, game, 0)

    response = client.get(f"/table/{game.pk}/version/", {"v": game.version}, **HTMX)

    assert response.status_code == 204
    assert response.content == b""


def test_the_poll_swaps_the_fragments_out_of_band_when_the_version_moved(client, make_game, play):
    game = make_game()
    seat_client(client, game, 0)
    before = game.version
    play(game, commands=2)

    response = client.get(f"/table/{game.pk}/version/", {"v": before}, **HTMX)

    assert response.status_code == 200
    html = response.text
    assert "<html" not in html
    # The table's parts, what their buttons do, the dispute form's choice of event (it
    # follows the log) and the list of disputes; nothing else of the page.
    for fragment in (
        "board",
        "hand",
        "actions",
        "table-help",
        "log",
        "dispute-version",
        "disputes",
    ):
        assert f'id="{fragment}"' in html
    assert html.count('hx-swap-oob="true"') == 7
    assert 'id="dispute-claim"' not in html  # what a person is typing is never swapped
    assert f'name="v" value="{services.load_game(game_id=game.pk).version}"' in html


def test_polling_stops_once_the_game_is_over_and_seen(client, make_game):
    game = make_game(scoring="none")
    seat_client(client, game, 0)
    drive(game, until=lambda s: s.finished)
    game.refresh_from_db()

    response = client.get(f"/table/{game.pk}/version/", {"v": game.version}, **HTMX)

    assert response.status_code == 286  # htmx stops polling on 286


def test_once_the_game_is_over_anyone_may_look_and_the_replay_is_linked(client, make_game):
    game = make_game(scoring="none")
    drive(game, until=lambda s: s.finished)

    response = client.get(f"/table/{game.pk}/")

    assert response.status_code == 200
    assert "Final standings" in response.text
    assert f"/table/{game.pk}/replay/" in response.text


def test_the_log_tells_the_last_events_in_words(client, make_game, play):
    game = make_game()
    play(game, commands=3)
    seat_client(client, game, 0)

    html = client.get(f"/table/{game.pk}/").text

    assert "What happened" in html
    assert " played " in html or " drew " in html


def test_the_dispute_form_shows_only_where_someone_can_rule(client, django_user_model):
    from games.bots import start_quick_game

    # A visitor's game against bots: nobody referees it, so nobody is offered a dispute.
    game, seat = start_quick_game(
        variant="classic", bots=2, player="Tess", user=None, scoring="none", seed="d-1"
    )
    client.get(f"/table/{game.pk}/seat/{seat.secret}/")
    html = client.get(f"/table/{game.pk}/").text
    assert "Dispute something that happened" not in html and 'class="log-dispute"' not in html
    refused = client.post(f"/table/{game.pk}/disputes/", {"version": 1, "claim": "Not fair"})
    assert refused.status_code == 403
    assert "Nobody referees this game" in refused.text
    assert not game.disputes.exists()

    # A signed-in player's game against bots: they referee it.
    user = django_user_model.objects.create_user("rita", password="pw-rita-1")
    client.force_login(user)
    game, _ = start_quick_game(
        variant="classic", bots=2, player="Rita", user=user, scoring="none", seed="d-2"
    )
    html = client.get(f"/table/{game.pk}/").text
    assert "Dispute something that happened" in html and 'class="log-dispute"' in html


def test_the_dispute_choices_follow_the_log(client, make_game, play):
    game = make_game()
    seat_client(client, game, 0)
    first = client.get(f"/table/{game.pk}/").text
    before = first.split('id="dispute-version"')[1].split("</select>")[0]
    offered = re.findall(r'<option value="(\d+)"', before)
    play(game, commands=30)

    html = client.get(f"/table/{game.pk}/version/", {"v": game.version}, **HTMX).text

    choices = html.split('id="dispute-version"')[1].split("</select>")[0]
    now = [int(v) for v in re.findall(r'<option value="(\d+)"', choices)]
    logged = [int(v) for v in re.findall(r'<li data-version="(\d+)"', html)]
    assert now == sorted(logged, reverse=True)  # the log's events, newest first
    assert min(now) > max(map(int, offered))  # none of what it offered before the 30 moves


def test_filing_a_dispute_answers_with_the_form_and_the_tables_list(client, make_game):
    game = make_game()
    seat_client(client, game, 0)
    response = client.post(
        f"/table/{game.pk}/disputes/", {"version": 1, "claim": "Misdealt"}, **HTMX
    )
    assert response.status_code == 200
    assert "Your dispute was filed" in response.text
    assert 'id="disputes"' in response.text and "Misdealt" in response.text
    assert response.text.count('hx-swap-oob="true"') == 1  # the list, beside the form


def test_the_page_follows_its_stream_or_where_there_is_none_polls_only_while_shown(
    client, make_game, settings
):
    game = make_game()
    seat_client(client, game, 0)

    html = client.get(f"/table/{game.pk}/").text
    assert f'data-sse-url="/table/{game.pk}/live/"' in html and 'hx-ext="sse"' in html
    assert "sse:version[unoTable.moved(detail)]" in html and "every 1500ms" not in html

    settings.LIVE_UPDATES = "poll"
    html = client.get(f"/table/{game.pk}/").text
    assert "data-sse-url" not in html and "sse:version" not in html
    assert "every 1500ms [unoTable.shown()]" in html
