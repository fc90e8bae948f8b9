"""A table of people from the pages, its lobby (each seat's private link and QR code, for the
referee only), a seat opened on a second device, and rematches with the same seats."""

import html
import logging
import re

import pytest

from games import services
from games.models import Game, GameReferee, Seat
from tests.tournaments.brackets.support import cup_table
from tests.web.conftest import seat_client
from tests.web.table_support import night_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def referee(client, django_user_model):
    user = django_user_model.objects.create_user("rita", password="pw-rita-123")
    client.force_login(user)
    return user


def new_table(client, names="Ann\nBob\nCy", **fields):
    form = {
        "variant": "classic",
        "bots": "3",
        "players": names,
        "scoring": "none",
        "seed": "lobby-1",
        "mode": "people",
    }
    form.update(fields)
    return client.post("/play/", form)


def finish(game):
    """Play the game to its end with the seats' first legal commands."""
    from tests.web.table_support import drive

    drive(game, until=lambda s: s.finished)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED


# Setting up a table of people ------------------------------------------------------------------


def test_a_name_given_twice_is_refused_and_no_table_is_made(client, referee):
    response = new_table(client, names="Ann\nBob\nAnn")

    assert response.status_code == 400
    assert "Ann is named twice" in html.unescape(response.content.decode())
    assert not Game.objects.exists()


def test_a_signed_in_user_sets_up_a_table_of_people_and_gets_its_lobby(client, referee):
    response = new_table(client, names="Ann\n\n  Bob  \nCy\n")

    game = Game.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/table/{game.pk}/lobby/"
    assert [s.player for s in game.seats.all()] == ["Ann", "Bob", "Cy"]
    assert not game.seats.filter(bot=True).exists()
    assert game.created_by == referee
    assert services.is_referee(referee, game)


def test_a_visitor_is_asked_to_sign_in_to_set_up_a_table_of_people(client):
    response = new_table(client)

    assert response.status_code == 400
    assert "Sign in to set up a table of people" in response.text
    assert not Game.objects.exists()


@pytest.mark.parametrize(
    ("names", "words"),
    [
        ("Ann", "A table needs at least two players"),
        ("", "Name the players who sit at the table"),
        ("\n".join(f"P{n}" for n in range(11)), "players"),
        ("Ann\n" + "B" * 101, "at most 100 characters"),
    ],
)
def test_a_table_of_people_needs_two_to_ten_named_players(client, referee, names, words):
    response = new_table(client, names=names)

    assert response.status_code == 400
    assert words in response.text
    assert not Game.objects.exists()


# The lobby -------------------------------------------------------------------------------------


def test_the_lobby_shows_each_seats_link_and_qr_code_to_the_referee_only(client, referee):
    new_table(client)
    game = Game.objects.get()

    response = client.get(f"/table/{game.pk}/lobby/")

    assert response.status_code == 200
    assert response["Cache-Control"] == "no-store"
    assert response["Referrer-Policy"] == "no-referrer"
    html = response.text
    for seat in game.seats.all():
        link = f"http://testserver/table/{game.pk}/seat/{seat.secret}/"
        assert f'href="{link}"' in html
        assert f"QR code of {seat.player}'s seat link" in html
    assert html.count("<svg") == 3  # drawn by the server, inline: nothing from the network
    assert "<script" not in html.split("<main", 1)[1]
    assert "Not opened yet." in html


def text_of(response) -> str:
    main = re.search(r"<main.*?</main>", response.text, re.S).group(0)
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", main)))


def test_a_league_tables_lobby_leads_back_to_its_night_by_name(client, referee):
    game, night = night_table(referee)

    response = client.get(f"/table/{game.pk}/lobby/")

    assert response.status_code == 200
    back = re.search(r'<nav class="lobby-back".*?</nav>', response.text, re.S).group(0)
    assert f'<a href="/nights/{night.pk}/">Back to Night 2 of Spring</a>' in back
    assert f'<a href="/table/{game.pk}/">Back to the table</a>' in back
    assert "Back to Night 2 of Spring (a league night of Friday & Co)" in text_of(response)
    assert client.get(f"/nights/{night.pk}/").status_code == 200


def test_a_tournament_tables_lobby_leads_back_to_the_tournament_by_name(client, referee):
    game, cup = cup_table(referee)

    response = client.get(f"/table/{game.pk}/lobby/")

    assert response.status_code == 200
    back = re.search(r'<nav class="lobby-back".*?</nav>', response.text, re.S).group(0)
    assert f'<a href="/tournaments/{cup.pk}/">Back to Autumn &lt;Open&gt;</a>' in back
    assert "Back to Autumn <Open> (the tournament)" in text_of(response)
    assert "Back to the table" in back


def test_a_table_of_no_night_or_tournament_leads_back_to_the_table_only(client, referee):
    new_table(client)
    game = Game.objects.get()

    back = re.search(
        r'<nav class="lobby-back".*?</nav>', client.get(f"/table/{game.pk}/lobby/").text, re.S
    )

    assert back.group(0).count("<a ") == 1 and "Back to the table" in back.group(0)


def test_the_lobby_is_refused_to_seats_and_to_everyone_else(client, make_game, django_user_model):
    game = make_game()
    secrets = [s.secret for s in game.seats.all()]

    anonymous = client.get(f"/table/{game.pk}/lobby/")
    seat_client(client, game, 0)
    seated = client.get(f"/table/{game.pk}/lobby/")
    stranger = django_user_model.objects.create_user("sam", password="pw-sam-12345")
    client.force_login(stranger)
    signed_in = client.get(f"/table/{game.pk}/lobby/")

    for response in (anonymous, seated, signed_in):
        assert response.status_code == 403
        assert response["Cache-Control"] == "no-store"
        assert not any(secret in response.text for secret in secrets)


def test_a_named_referee_rules_but_gets_no_seat_links(client, make_game, django_user_model):
    """Whoever holds a seat's link can act as that seat, and the log cannot tell them from the
    player: only who seats the table (its creator, its league's or tournament's organisers)
    holds the links. A referee named to rule sees the game but not the lobby nor a secret."""
    game = make_game()
    user = django_user_model.objects.create_user("rex", password="pw-rex-12345")
    GameReferee.objects.create(game=game, user=user)
    client.force_login(user)

    table = client.get(f"/table/{game.pk}/").text
    lobby = client.get(f"/table/{game.pk}/lobby/")
    api = client.get(f"/api/games/{game.pk}/").json()

    assert f'href="/table/{game.pk}/lobby/"' not in table
    assert lobby.status_code == 403
    assert all("secret" not in seat for seat in api["seats"])
    assert api["seats"][0]["hand"]  # still the referee: every hand


def test_no_seats_page_names_a_secret_or_the_lobby(client, make_game):
    game = make_game()
    secrets = [s.secret for s in game.seats.all()]
    seat_client(client, game, 1)

    html = client.get(f"/table/{game.pk}/").text

    assert not any(secret in html for secret in secrets)
    assert "/lobby/" not in html


def test_a_bots_seat_has_no_link_in_the_lobby(client, referee):
    client.post(
        "/play/",
        {"variant": "classic", "bots": "2", "player": "Rita", "scoring": "none", "mode": "bots"},
    )
    game = Game.objects.get()
    bot = game.seats.get(seat=1)

    html = client.get(f"/table/{game.pk}/lobby/").text

    assert bot.secret not in html
    assert "A bot plays this seat." in html
    assert html.count("<svg") == 1


def test_a_mistyped_seat_link_is_logged_without_its_secret(client, referee, caplog):
    new_table(client)
    game = Game.objects.get()
    secret = game.seats.get(seat=0).secret

    with caplog.at_level(logging.INFO):
        client.get(f"/table/{game.pk}/seat/{secret}x/")  # a wrong link: logged as not found

    assert "Not Found: /table/" in caplog.text
    assert secret not in caplog.text


# A seat's link opened on a second device ------------------------------------------------------


def test_the_first_browser_takes_the_seat_and_a_second_one_is_told(client, make_game):
    from django.test import Client

    game = make_game()
    secret = game.seats.get(seat=0).secret
    first, second = client, Client()

    opened = first.get(f"/table/{game.pk}/seat/{secret}/")
    again = first.get(f"/table/{game.pk}/seat/{secret}/")
    elsewhere = second.get(f"/table/{game.pk}/seat/{secret}/")

    assert opened["Location"] == again["Location"] == f"/table/{game.pk}/"
    assert elsewhere.status_code == 302
    assert elsewhere["Location"] == f"/table/{game.pk}/second-device/"
    assert elsewhere["Cache-Control"] == "no-store"
    notice = second.get(elsewhere["Location"])
    assert notice.status_code == 200
    assert "Your seat is already open on another device" in notice.text
    assert "tell the referee" in notice.text
    assert secret not in notice.text
    # Both go on playing for the seat: the first is not put out.
    for browser in (first, second):
        page = browser.get(f"/table/{game.pk}/").text
        assert "You play as <strong>Ann</strong>" in page
    seat = game.seats.get(seat=0)
    assert seat.device and seat.joined_at is not None


def test_the_notice_page_is_for_a_browser_holding_the_seat_only(client, make_game):
    game = make_game()

    response = client.get(f"/table/{game.pk}/second-device/")

    assert response.status_code == 302
    assert response["Location"] == f"/table/{game.pk}/"


def test_the_lobby_says_which_seats_are_taken(client, referee, make_game):
    from django.test import Client

    new_table(client)
    game = Game.objects.get()
    Client().get(f"/table/{game.pk}/seat/{game.seats.get(seat=1).secret}/")

    html = client.get(f"/table/{game.pk}/lobby/").text

    assert html.count("Seated: opened on a device at") == 1
    assert html.count("Not opened yet.") == 2


# Rematches -------------------------------------------------------------------------------------


def test_a_rematch_has_the_same_seats_players_edition_and_options(django_user_model):
    user = django_user_model.objects.create_user("ria", password="pw-ria-12345")
    options = {"customizable": ["joke", {"text": "Sing"}]}
    game = services.create_game(
        variant="veto",
        players=["Ann", "Bob", "Cy"],
        scoring="none",
        target=500,
        seed="rematch-1",
        options=options,
        created_by=user,
    )
    Seat.objects.filter(game=game, seat=1).update(user=user, device="phone-b")
    finish(game)

    new = services.rematch(game_id=game.pk)

    assert new.pk != game.pk and new.rematch_of_id == game.pk
    assert (new.variant, new.scoring, new.target) == ("veto", "none", 500)
    assert new.created_by == user
    old_seats, new_seats = list(game.seats.all()), list(new.seats.all())
    assert [s.player for s in new_seats] == ["Ann", "Bob", "Cy"]
    assert [s.user_id for s in new_seats] == [s.user_id for s in old_seats]
    assert new_seats[1].device == "phone-b"
    assert not {s.secret for s in new_seats} & {s.secret for s in old_seats}
    started = new.events.get(version=1).data
    assert started["options"] == {"customizable": ["joke", "text:Sing"]}
    assert services.rematch(game_id=game.pk) == new  # asked again: the same rematch


def test_no_rematch_before_the_game_is_over(make_game):
    from rules import IllegalCommand

    game = make_game()

    with pytest.raises(IllegalCommand, match="once the game is over"):
        services.rematch(game_id=game.pk)
    assert not Game.objects.filter(rematch_of=game).exists()


def test_the_referee_starts_the_rematch_and_each_seat_goes_to_its_own_seat(client, referee):
    from django.test import Client

    new_table(client, names="Ann\nBob")
    game = Game.objects.get()
    ann, bob = Client(), Client()
    seat_client(ann, game, 0)
    seat_client(bob, game, 1)
    finish(game)

    waiting = ann.get(f"/table/{game.pk}/rematch/offer/")
    refused = ann.post(f"/table/{game.pk}/rematch/")
    started = client.post(f"/table/{game.pk}/rematch/")

    assert "Once the referee starts a rematch" in waiting.text
    assert "every 5s [document.visibilityState === 'visible']" in html.unescape(waiting.text)
    assert refused.status_code == 403
    new = Game.objects.get(rematch_of=game)
    assert started["Location"] == f"/table/{new.pk}/"
    assert f'href="/table/{new.pk}/lobby/"' in client.get(f"/table/{game.pk}/lobby/").text
    assert "This is a rematch" in client.get(f"/table/{new.pk}/lobby/").text
    offer = bob.get(f"/table/{game.pk}/rematch/offer/").text
    assert "Go to the rematch" in offer and "hx-trigger" not in offer
    moved = bob.get(f"/table/{game.pk}/rematch/")
    assert moved["Location"] == f"/table/{new.pk}/"
    page = bob.get(f"/table/{new.pk}/").text
    assert "You play as <strong>Bob</strong>" in page
    assert new.seats.get(seat=1).secret not in page
    # A browser that held no seat of the old game gets none of the new one.
    stranger = Client().get(f"/table/{game.pk}/rematch/")
    assert stranger.status_code == 403


def test_the_one_person_at_a_table_of_bots_starts_a_rematch(client):
    client.post(
        "/play/",
        {"variant": "classic", "bots": "1", "player": "Tess", "scoring": "none", "mode": "bots"},
    )
    game = Game.objects.get()
    finish(game)

    table = client.get(f"/table/{game.pk}/")
    offer = client.get(f"/table/{game.pk}/rematch/offer/").text
    started = client.post(f"/table/{game.pk}/rematch/")

    assert 'id="rematch"' in table.text
    assert "Rematch: the same players in the same seats" in offer
    new = Game.objects.get(rematch_of=game)
    assert started["Location"] == f"/table/{new.pk}/"
    assert list(new.seats.values_list("bot", flat=True)) == [False, True]
    assert "You play as <strong>Tess</strong>" in client.get(f"/table/{new.pk}/").text


def test_a_finished_seats_page_offers_the_rematch_box(client, make_game):
    game = make_game(scoring="none")
    seat_client(client, game, 2)
    finish(game)

    html = client.get(f"/table/{game.pk}/").text

    box = re.search(r'<div class="rematch" id="rematch"[^>]*>', html)
    assert box and f'hx-get="/table/{game.pk}/rematch/offer/"' in box.group(0)


def test_a_rematch_of_bots_sets_them_playing_once_it_is_committed(
    client, monkeypatch, django_capture_on_commit_callbacks
):
    from games import tasks

    client.post(
        "/play/",
        {"variant": "classic", "bots": "2", "player": "Tess", "scoring": "none", "mode": "bots"},
    )
    game = Game.objects.get()
    finish(game)
    enqueued = []
    monkeypatch.setattr(tasks.play_bots, "delay", lambda game_id: enqueued.append(game_id))

    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"/table/{game.pk}/rematch/")

    new = Game.objects.get(rematch_of=game)
    assert enqueued == [str(new.pk)]  # with the seats already marked as bots' (bots.bot_seats)
    assert sorted(new.seats.filter(bot=True).values_list("seat", flat=True)) == [1, 2]


def test_whoever_starts_a_rematch_referees_it(make_game, django_user_model):
    organiser = django_user_model.objects.create_user("ora", password="pw-ora-12345")
    other = django_user_model.objects.create_user("oli", password="pw-oli-12345")
    game = make_game(scoring="none")  # made by the system: no creator
    GameReferee.objects.create(game=game, user=other)
    finish(game)

    new = services.rematch(game_id=game.pk, by=organiser)

    assert new.created_by is None
    assert services.is_referee(organiser, new)
    assert services.is_referee(other, new)  # the old game's referees come along
