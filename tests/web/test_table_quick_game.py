"""Quick games: a visitor or a signed-in user starts a game against 1 to 9 bots in any edition;
the bots take their turns on the server through the same services."""

import pytest

from games import bots, services
from games.models import Game, Seat
from rules import legal_commands

pytestmark = pytest.mark.django_db


def start(client, **fields):
    form = {"variant": "classic", "bots": "3", "player": "Tess", "scoring": "none", "seed": "q1"}
    form.update(fields)
    return client.post("/play/", form)


@pytest.mark.parametrize("variant", ["classic", "mod", "veto", "spin", "power_grab"])
def test_a_visitor_starts_a_game_against_bots_in_any_edition(client, variant):
    response = start(client, variant=variant)

    game = Game.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/table/{game.pk}/"
    assert game.variant == variant
    assert game.created_by is None
    seats = list(Seat.objects.filter(game=game))
    assert [s.bot for s in seats] == [False, True, True, True]
    assert client.session["table_seats"] == {str(game.pk): seats[0].secret}
    page = client.get(response["Location"])
    assert page.status_code == 200
    assert "You play as <strong>Tess</strong>" in page.text


@pytest.mark.parametrize(
    ("count", "message"),
    [
        ("0", "At least 1 bot plays."),
        ("10", "At most 9 bots play."),
        ("many", "Choose how many bots play: 1 to 9."),
    ],
)
def test_one_to_nine_bots(client, count, message):
    response = start(client, bots=count)

    assert response.status_code == 400  # a form error, as every page answers one
    assert not Game.objects.exists()
    assert message in response.text


def test_a_signed_in_user_holds_the_seat_and_referees_the_game(client, django_user_model):
    user = django_user_model.objects.create_user("tess", password="pw-tess-123")
    client.force_login(user)

    start(client)

    game = Game.objects.get()
    assert game.created_by == user
    assert Seat.objects.get(game=game, seat=0).user == user
    assert services.is_referee(user, game)


def test_the_bots_play_until_a_person_must_act(client):
    start(client, bots="4", seed="bots-first")
    game = Game.objects.get()

    bots.play_bots(game.pk)  # the task's work (run in-process already where tasks are eager)

    state = services.load_game(game_id=game.pk)
    assert state.finished or legal_commands(state, 0)
    assert bots.next_bot_move(state, bots.bot_seats(game.pk), str(game.pk)) is None


def test_playing_the_bots_twice_changes_nothing_the_second_time(client):
    start(client, bots="2", seed="twice")
    game = Game.objects.get()
    bots.play_bots(game.pk)
    version = services.load_game(game_id=game.pk).version

    assert bots.play_bots(game.pk) == 0
    assert services.load_game(game_id=game.pk).version == version


def test_a_persons_command_enqueues_the_bots_and_theirs_do_not(
    client, monkeypatch, django_capture_on_commit_callbacks
):
    start(client, bots="2", seed="enqueue")
    game = Game.objects.get()
    bots.play_bots(game.pk)
    enqueued = []
    from games import tasks

    monkeypatch.setattr(tasks.play_bots, "delay", lambda game_id: enqueued.append(game_id))
    state = services.load_game(game_id=game.pk)
    if state.finished:
        pytest.skip("the bots finished the hand before the person played")
    command = legal_commands(state, 0)[0]
    with django_capture_on_commit_callbacks(execute=True):
        services.apply_command(game_id=game.pk, command=command, actor="seat:0")
    assert enqueued == [str(game.pk)]

    enqueued.clear()
    state = services.load_game(game_id=game.pk)
    move = bots.next_bot_move(state, bots.bot_seats(game.pk), str(game.pk))
    if move is not None:
        with django_capture_on_commit_callbacks(execute=True):
            services.apply_command(game_id=game.pk, command=move[1], actor=f"seat:{move[0]}")
        assert enqueued == []


def test_a_whole_quick_game_ends_with_the_person_playing_first_legal_commands(client):
    start(client, bots="3", seed="whole")
    game = Game.objects.get()
    for _ in range(500):
        bots.play_bots(game.pk)
        state = services.load_game(game_id=game.pk)
        if state.finished:
            break
        legal = legal_commands(state, 0)
        services.apply_command(game_id=game.pk, command=legal[0], actor="seat:0")
    assert services.load_game(game_id=game.pk).finished


def test_the_quick_game_page_lists_this_browsers_tables(client):
    start(client)
    game = Game.objects.get()

    page = client.get("/play/")

    assert f"/table/{game.pk}/" in page.text
