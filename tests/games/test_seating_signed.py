"""Who sat where is signed by the server (``games.seating``): a name swapped at a seat behind the
service's back is found by ``manage.py verify_events``; every service that seats players signs
the seating again, so the service's own changes verify."""

from importlib import import_module

from django.apps import apps
from django.urls import reverse

from games import bots, seating, services
from games.chain import server_public_keys, signer_for
from games.models import Game, Seat
from tests.games.tampering import reported, tamper, verify
from tests.web.table_support import drive


def test_a_game_as_created_verifies_and_its_seating_is_signed(make_game):
    game = make_game(players=("Ann", "Bob", "Cy"))
    signature = Game.objects.get(pk=game.pk).seating_signature
    seated = seating.seatings([game.pk])[game.pk]

    assert seated[0] == [[0, "Ann", False], [1, "Bob", False], [2, "Cy", False]]
    assert seating.problem(game.pk, seated, signature, server_public_keys()) is None
    assert "who sat where as signed" in verify()


def test_names_swapped_at_two_seats_are_found(make_game, play):
    game, other = make_game(), make_game(players=("Dee", "Eve"))
    play(game, commands=4)
    tamper(
        "UPDATE games_seat SET player = 'X' WHERE game_id = %s AND seat = 0",
        [game.pk.hex],
        "games_seat",
    )
    tamper(
        "UPDATE games_seat SET player = 'Ann' WHERE game_id = %s AND seat = 1",
        [game.pk.hex],
        "games_seat",
    )
    tamper(
        "UPDATE games_seat SET player = 'Bob' WHERE game_id = %s AND seat = 0",
        [game.pk.hex],
        "games_seat",
    )

    message = reported()

    assert "1 game: who sat where is not as the server signed it" in message
    assert f"game {game.pk}: who sat where is not what the server signed" in message
    assert str(other.pk) not in message


def test_a_seat_handed_to_a_bot_behind_the_service_is_found(make_game):
    game = make_game()
    Seat.objects.filter(game=game, seat=2).update(bot=True)

    assert f"game {game.pk}: who sat where is not what the server signed" in reported()


def test_a_seating_never_signed_or_signed_by_an_unknown_key_is_named_so(make_game):
    unsigned, foreign = make_game(), make_game(players=("Dee", "Eve"))
    Game.objects.filter(pk=unsigned.pk).update(seating_signature="")
    stranger = signer_for("11" * 32)
    seated = seating.seatings([foreign.pk])[foreign.pk]
    Game.objects.filter(pk=foreign.pk).update(
        seating_signature=stranger.sign_message(seating.message(foreign.pk, seated))
    )

    message = reported()

    assert "2 games: who sat where is not as the server signed it" in message
    assert f"game {unsigned.pk}: who sat where was never signed by the server" in message
    assert f"game {foreign.pk}: who sat where is signed by key {stranger.id}" in message


def test_a_seating_signed_for_another_game_does_not_verify(make_game):
    # The same players at two tables: the signature names its game.
    first, second = make_game(), make_game()
    signature = Game.objects.get(pk=first.pk).seating_signature
    Game.objects.filter(pk=second.pk).update(seating_signature=signature)

    message = reported()
    assert f"game {second.pk}: who sat where is not what" in message
    assert str(first.pk) not in message


def test_a_game_against_bots_and_its_rematch_verify(db):
    game, _ = bots.start_quick_game(
        variant="classic", bots=2, player="Ann", user=None, scoring="none", seed="bots-1"
    )
    drive(game, until=lambda s: s.finished)
    rematch = services.rematch(game_id=game.pk)

    for played in (game, rematch):
        signed_seats = seating.seatings([played.pk])[played.pk][0]
        assert [bot for _, _, bot in signed_seats] == [False, True, True]
    assert "who sat where as signed" in verify()


def correct_in_the_admin(admin_client, game, seat_number: int, name: str):
    """The game's change page in the admin sent with the name at ``seat_number`` corrected."""
    seats = list(Seat.objects.filter(game=game).order_by("seat"))
    form = {
        "seats-TOTAL_FORMS": str(len(seats)),
        "seats-INITIAL_FORMS": str(len(seats)),
        "seats-MIN_NUM_FORMS": "0",
        "seats-MAX_NUM_FORMS": "1000",
        "referees-TOTAL_FORMS": "0",
        "referees-INITIAL_FORMS": "0",
        "referees-MIN_NUM_FORMS": "0",
        "referees-MAX_NUM_FORMS": "1000",
    }
    for i, seat in enumerate(seats):
        form[f"seats-{i}-id"] = str(seat.pk)
        form[f"seats-{i}-game"] = str(game.pk)
        form[f"seats-{i}-player"] = name if seat.seat == seat_number else seat.player
        form[f"seats-{i}-user"] = ""
    return admin_client.post(reverse("admin:games_game_change", args=[game.pk]), form)


def test_a_name_corrected_in_the_admin_is_signed_again(admin_client, make_game):
    game = make_game()

    response = correct_in_the_admin(admin_client, game, 0, "Annie")

    assert response.status_code == 302, response.content.decode()[:2000]
    assert Seat.objects.get(game=game, seat=0).player == "Annie"
    assert "who sat where as signed" in verify()


def test_a_correction_after_a_change_behind_the_servers_back_does_not_sign_the_change(
    admin_client, make_game, caplog
):
    # Bob's seat handed to Mallory in the database; the organiser then corrects Ann's name in
    # the admin: the correction is kept, but Mallory's seat is not signed with it.
    game = make_game()
    tamper(
        "UPDATE games_seat SET player = 'Mallory' WHERE game_id = %s AND seat = 1",
        [game.pk.hex],
        "games_seat",
    )

    with caplog.at_level("ERROR", logger="games.seating"):
        response = correct_in_the_admin(admin_client, game, 0, "Annie")

    assert response.status_code == 302
    assert Seat.objects.get(game=game, seat=0).player == "Annie"
    assert f"game {game.pk}: who sat where is not what the server signed" in reported()
    assert f"game {game.pk}: who sat where changed, but was not signed again" in caplog.text


def test_the_upgrade_signs_the_games_recorded_before(make_game):
    games = [make_game(), make_game(players=("Dee", "Eve"))]
    Game.objects.update(seating_signature="")
    assert "who sat where was never signed" in reported()

    migration = import_module("tournaments.migrations.0012_seating_signed")
    migration.sign_recorded(apps, None)

    assert all(Game.objects.get(pk=g.pk).seating_signature for g in games)
    assert "who sat where as signed" in verify()


def test_seatings_are_checked_a_chunk_of_games_at_a_time_and_none_is_missed(make_game, monkeypatch):
    from games.management.commands import verify_events

    monkeypatch.setattr(verify_events, "SEATING_CHUNK", 2)
    games = sorted((make_game(players=("Ann", f"P{i}")) for i in range(5)), key=lambda g: g.pk)
    assert "who sat where as signed" in verify()
    for game in (games[0], games[3], games[4]):  # in the first, second and last chunk
        tamper(
            "UPDATE games_seat SET player = 'Mallory' WHERE game_id = %s AND seat = 1",
            [game.pk.hex],
            "games_seat",
        )

    message = reported()

    assert "3 games: who sat where is not as the server signed it" in message
    for game in (games[0], games[3], games[4]):
        assert f"game {game.pk}: who sat where is not what the server signed" in message
