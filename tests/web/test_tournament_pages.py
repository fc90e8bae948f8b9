"""The tournament pages with Django's client: the list linked from home, a new tournament
from the form (every setting; bad input named on its field, nothing created), players entered
from the tournament page, the page in players' words; and the small page fixes: /favicon.ico,
ReDoc loading nothing from another host, the replay's "Around event" marker numbered by the
event's own number."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from games import services as game_services
from tournaments.brackets import services
from tournaments.brackets.models import Entry, Tournament

pytestmark = pytest.mark.django_db

GOOD = {
    "name": "Autumn Open",
    "format": "swiss",
    "table_size": "4",
    "advance": "2",
    "rounds": "3",
    "final_table": "on",
    "variant": "mod",
    "scoring": "alternative",
    "target": "250",
    "duplicate_deals": "on",
    "turn_seconds": "45",
    "seeding": "manual",
    "players": "Ann\n  Bob  \n\nCid\nDee\nEve\n",
}


@pytest.fixture
def olga(db):
    return get_user_model().objects.create_user("olga", password="pw-olga-123")


@pytest.fixture
def signed_in(client, olga):
    client.force_login(olga)
    return client


def text_of(response) -> str:
    main = re.search(r"<main.*?</main>", response.content.decode(), re.S).group(0)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", main))


# The list ----------------------------------------------------------------------------------------


def test_home_links_the_tournaments_list_which_links_each_tournament(client, olga):
    cup = services.create_tournament(
        name="Winter Cup", organiser=olga, format="elimination", table_size=2, players=["A", "B"]
    )
    assert 'href="/tournaments/"' in client.get("/").content.decode()
    page = client.get("/tournaments/")
    assert page.status_code == 200
    assert f'href="/tournaments/{cup.pk}/"' in page.content.decode()
    text = text_of(page)
    assert "Winter Cup" in text and "Taking entries" in text and "Elimination, Classic UNO" in text
    assert "Sign in to create a tournament" in text  # not signed in: no form, a way to sign in


def test_creating_needs_a_signed_in_user(client):
    answer = client.get("/tournaments/new/")
    assert answer.status_code == 302 and "/accounts/login/" in answer["Location"]
    answer = client.post("/tournaments/new/", GOOD)
    assert answer.status_code == 302 and not Tournament.objects.exists()


# Creating -----------------------------------------------------------------------------------


def test_a_tournament_is_created_with_every_setting_and_its_players_in_order(signed_in, olga):
    answer = signed_in.post("/tournaments/new/", GOOD)
    tournament = Tournament.objects.get()
    assert answer.status_code == 302 and answer["Location"] == f"/tournaments/{tournament.pk}/"
    assert tournament.organiser == olga
    assert (tournament.name, tournament.format, tournament.variant) == (
        "Autumn Open",
        "swiss",
        "mod",
    )
    assert (tournament.table_size, tournament.advance, tournament.rounds) == (4, 2, 3)
    assert tournament.final_table and tournament.duplicate_deals
    assert (tournament.scoring, tournament.target, tournament.turn_seconds) == (
        "alternative",
        250,
        45,
    )
    assert list(tournament.entries.values_list("player", "seed")) == [
        ("Ann", 1),
        ("Bob", 2),
        ("Cid", 3),
        ("Dee", 4),
        ("Eve", 5),
    ]
    page = signed_in.get(answer["Location"])
    text = text_of(page)
    assert "The tournament is created. Enter the players, then start it." in text
    assert "Swiss: 3 rounds, then a final table for the leaders" in text
    assert "UNO Mod" in text and "45 seconds a turn" in text and "dealt the same cards" in text


def test_without_a_timer_or_players_the_tournament_takes_entries_later(signed_in):
    body = {**GOOD, "turn_seconds": "", "players": "", "final_table": "", "duplicate_deals": ""}
    body = {k: v for k, v in body.items() if v != ""}
    assert signed_in.post("/tournaments/new/", body).status_code == 302
    tournament = Tournament.objects.get()
    assert tournament.turn_seconds is None and not tournament.final_table
    assert not tournament.duplicate_deals and not tournament.entries.exists()


def test_with_no_scoring_the_target_may_be_left_empty(signed_in):
    form = signed_in.get("/tournaments/new/").content.decode()
    target = re.search(r'<input[^>]*name="target"[^>]*>', form).group(0)
    assert " required" not in target  # the browser lets it be sent empty

    answer = signed_in.post("/tournaments/new/", {**GOOD, "scoring": "none", "target": ""})

    assert answer.status_code == 302
    tournament = Tournament.objects.get()
    assert (tournament.scoring, tournament.target) == ("none", 500)
    assert "games to" not in text_of(signed_in.get(answer["Location"]))


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        ({"name": "   "}, "name", "Give the tournament a name."),
        ({"format": ""}, "format", "Choose elimination or Swiss."),
        ({"format": "league"}, "format", "Choose elimination or Swiss."),
        ({"table_size": "11"}, "table_size", "A whole number from 2 to 10."),
        ({"table_size": "four"}, "table_size", "A whole number from 2 to 10."),
        ({"advance": "4"}, "advance", "at most 3 with tables of 4"),
        ({"rounds": "0"}, "rounds", "A whole number from 1 to 50."),
        ({"variant": "uno-flip"}, "variant", "Choose one of the listed ones."),
        ({"scoring": "golf"}, "scoring", "Choose one of the listed ones."),
        ({"target": "0"}, "target", "A whole number from 1 to 100000."),
        ({"target": ""}, "target", "Fill this in: a whole number from 1 to 100000."),
        ({"target": "", "scoring": "standard"}, "target", "Fill this in: a whole number"),
        ({"target": "0", "scoring": "none"}, "target", "A whole number from 1 to 100000."),
        ({"turn_seconds": "2"}, "turn_seconds", "A whole number from 5 to 3600."),
        ({"seeding": "random"}, "seeding", "Choose one of the listed ones."),
        ({"players": "Ann\nBob\nAnn"}, "players", "Ann is listed twice."),
        ({"players": "Ann\n" + "x" * 101}, "players", "A name has at most 100 characters"),
    ],
)
def test_a_bad_setting_is_named_on_its_field_and_nothing_is_created(
    signed_in, change, field, message
):
    answer = signed_in.post("/tournaments/new/", {**GOOD, **change})
    assert answer.status_code == 400
    html = answer.content.decode()
    error = re.search(rf'<p class="error" id="id_{field}_error">(.*?)</p>', html, re.S)
    assert error is not None, f"no error on {field}"
    assert message in error.group(1)
    assert "Nothing was created." in html
    assert re.search(rf'aria-invalid="true"[^>]*id="id_{field}"', html) or field in (
        "format",
        "seeding",
    )
    assert not Tournament.objects.exists() and not Entry.objects.exists()
    # What the person typed is kept.
    assert "Autumn Open" in html or field == "name"


def test_a_tournament_form_sent_twice_creates_one_and_names_the_first(signed_in):
    signed_in.post("/tournaments/new/", GOOD)

    again = signed_in.post("/tournaments/new/", GOOD)

    assert again.status_code == 400
    html = again.content.decode()
    error = re.search(r'<p class="error" id="id_name_error">(.*?)</p>', html, re.S)
    assert error is not None and "You already run a tournament called" in error.group(1)
    assert Tournament.objects.count() == 1


# Entering players and the page ---------------------------------------------------------------


@pytest.fixture
def cup(olga):
    return services.create_tournament(
        name="Cup", organiser=olga, format="swiss", table_size=2, players=["Ann", "Bob"]
    )


def test_the_organiser_enters_players_before_the_start_and_late_in_a_swiss(signed_in, olga):
    cup = services.create_tournament(
        name="Cup", organiser=olga, format="swiss", table_size=2, rounds=2, players=["Ann", "Bob"]
    )
    answer = signed_in.post(f"/tournaments/{cup.pk}/players/", {"player": "  Cid "})
    assert answer.status_code == 302
    assert list(cup.entries.values_list("player", flat=True)) == ["Ann", "Bob", "Cid"]
    assert "Cid is entered." in text_of(signed_in.get(f"/tournaments/{cup.pk}/"))
    services.start_tournament(tournament_id=cup.pk, by=olga)
    signed_in.post(f"/tournaments/{cup.pk}/players/", {"player": "Dee"})
    assert cup.entries.get(player="Dee").joined == 2  # from the next round on


def test_a_late_entry_after_the_last_swiss_round_is_seated_is_refused_in_words(
    signed_in, cup, olga
):
    services.start_tournament(tournament_id=cup.pk, by=olga)  # one Swiss round: seated

    answer = signed_in.post(f"/tournaments/{cup.pk}/players/", {"player": "Dee"})

    assert answer.status_code == 400
    assert "no round is left to seat a late entry in" in answer.content.decode()
    assert not cup.entries.filter(player="Dee").exists()


@pytest.mark.parametrize(
    ("name", "message"),
    [("", "This field is required."), ("Ann", "Ann is already entered."), ("x" * 101, "at most")],
)
def test_a_bad_entry_is_named_on_the_form_and_nobody_is_entered(signed_in, cup, name, message):
    answer = signed_in.post(f"/tournaments/{cup.pk}/players/", {"player": name})
    assert answer.status_code == 400
    error = re.search(r'<p class="error" id="id_player_error">(.*?)</p>', answer.content.decode())
    assert error is not None and message in error.group(1)
    assert cup.entries.count() == 2


def test_a_name_starting_a_refusal_is_shown_as_written(signed_in, olga):
    cup = services.create_tournament(
        name="Cup", organiser=olga, format="swiss", table_size=2, players=["de Vries", "Bob"]
    )

    answer = signed_in.post(f"/tournaments/{cup.pk}/players/", {"player": "De Vries"})

    assert answer.status_code == 400
    error = re.search(r'<p class="error" id="id_player_error">(.*?)</p>', answer.content.decode())
    assert error is not None and error.group(1).endswith("</strong> de Vries is already entered.")


def test_an_elimination_takes_no_entry_once_started(signed_in, olga):
    cup = services.create_tournament(
        name="KO", organiser=olga, format="elimination", table_size=2, players=["Ann", "Bob"]
    )
    services.start_tournament(tournament_id=cup.pk, by=olga)
    page = signed_in.get(f"/tournaments/{cup.pk}/").content.decode()
    assert "Enter the player" not in page  # no form offered
    answer = signed_in.post(f"/tournaments/{cup.pk}/players/", {"player": "Cid"})
    assert answer.status_code == 400 and "closed when it started" in answer.content.decode()
    assert cup.entries.count() == 2


def test_only_the_organiser_enters_players(client, cup):
    stranger = get_user_model().objects.create_user("sam", password="pw-sam-12345")
    client.force_login(stranger)
    assert client.post(f"/tournaments/{cup.pk}/players/", {"player": "Cid"}).status_code == 403
    assert Client().post(f"/tournaments/{cup.pk}/players/", {"player": "Cid"}).status_code == 302
    assert cup.entries.count() == 2


def test_the_page_is_styled_and_speaks_players_words(client, cup, olga):
    services.start_tournament(tournament_id=cup.pk, by=olga)
    html = client.get(f"/tournaments/{cup.pk}/").content.decode()
    assert "/static/tournaments/league.css" in html  # tables, captions hidden, errors
    assert '<caption id="standings-caption" class="visually-hidden">' in html
    text = text_of(client.get(f"/tournaments/{cup.pk}/"))
    for internal in ("docs/", "TOURNAMENTS.md", "draft", "seat:", "running", "swiss,", "classic"):
        assert internal not in text, internal
    assert "Under way." in text and "Round 1 (being played)" in text


def test_the_directors_tools_follow_a_round_seated_without_reloading_the_page(signed_in, cup, olga):
    """A poll that brings news (here: a round seated since) brings the director's tools too,
    out of band, rather than reloading the whole page, which wiped a reason being typed."""
    services.start_tournament(tournament_id=cup.pk, by=olga)
    page = signed_in.get(f"/tournaments/{cup.pk}/").content.decode()
    seen = re.search(r'hx-get="[^"]*\?seen=([^"]+)"', page).group(1)
    poll = signed_in.get(f"/tournaments/{cup.pk}/?seen={seen}", HTTP_HX_REQUEST="true")
    assert poll.status_code == 204 and "HX-Refresh" not in poll  # nothing new: no swap
    stale = signed_in.get(f"/tournaments/{cup.pk}/?seen=draft-0-0", HTTP_HX_REQUEST="true")
    assert stale.status_code == 200 and "HX-Refresh" not in stale
    fragment = stale.content.decode()
    assert fragment.index('id="live"') < fragment.index('id="director"')
    assert (
        '<section id="director" class="director" aria-labelledby="director-heading" '
        'hx-swap-oob="true">' in fragment
    )
    assert "Seat the next round" in fragment and "csrfmiddlewaretoken" in fragment
    assert "hx-swap-oob" not in page  # the whole page draws its tools in place
    # Someone who is not the director just gets the fragment.
    other = Client().get(f"/tournaments/{cup.pk}/?seen=draft-0-0", HTTP_HX_REQUEST="true")
    assert other.status_code == 200 and "HX-Refresh" not in other
    assert 'id="live"' in other.content.decode() and 'id="director"' not in other.content.decode()


def test_the_poll_answers_a_fragment_only_when_something_changed(client, cup, olga):
    services.start_tournament(tournament_id=cup.pk, by=olga)
    url = f"/tournaments/{cup.pk}/"
    seen = re.search(r'\?seen=([^"]+)"', client.get(url).content.decode()).group(1)
    assert client.get(url, {"seen": seen}, HTTP_HX_REQUEST="true").status_code == 204
    services.drop_entry(tournament_id=cup.pk, player="Bob", by=olga)  # the standings change
    changed = client.get(url, {"seen": seen}, HTTP_HX_REQUEST="true")
    assert changed.status_code == 200 and "Bob (dropped)" in changed.content.decode()
    new_seen = re.search(r'\?seen=([^"]+)"', changed.content.decode()).group(1)
    assert new_seen != seen
    assert client.get(url, {"seen": new_seen}, HTTP_HX_REQUEST="true").status_code == 204


# Favicon, ReDoc, the replay's marker ----------------------------------------------------------


def test_the_favicon_is_served_by_the_site(client):
    answer = client.get("/favicon.ico")
    assert answer.status_code == 200
    assert answer["Content-Type"] in ("image/vnd.microsoft.icon", "image/x-icon")
    assert b"".join(answer.streaming_content)[:4] == b"\x00\x00\x01\x00"  # an icon file


def test_redoc_loads_nothing_from_another_host(client):
    html = client.get("/api/redoc/").content.decode()
    addresses = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert addresses and all(a.startswith("/") for a in addresses), addresses
    assert "fonts.googleapis.com" not in html and "fonts.gstatic.com" not in html
    assert "/static/drf_spectacular_sidecar/redoc/" in html
    # The logo ReDoc's bundle asks cdn.redoc.ly for is pointed at the site's own file...
    mark = re.search(r'var local = "([^"]+)"', html).group(1)
    assert client.get(mark).status_code == 200
    # ... and the page's policy forbids loading from any other host.
    assert "Content-Security-Policy" in html and "img-src 'self'" in html


def test_the_around_event_marker_is_numbered_by_the_event(client, make_game, play, olga):
    game = make_game(created_by=olga)
    play(game, commands=200)
    last = game_services.load_game(game_id=game.pk).version
    version = 172 if last >= 172 else last - 5
    client.force_login(olga)  # the game's referee
    html = client.get(f"/table/{game.pk}/replay/", {"v": version}).content.decode()
    nearby = re.search(r'<ol class="event-list nearby">(.*?)</ol>', html, re.S).group(1)
    items = re.findall(r"<li ([^>]*)>", nearby)
    current = [attrs for attrs in items if 'aria-current="step"' in attrs]
    assert len(current) == 1 and f'value="{version}"' in current[0]
    assert items.index(current[0]) > 0  # a count of the list's items would say a smaller number
    assert 'class="current"' not in nearby  # the style that numbered it by counting items
    assert "now:" in nearby
    assert "seat:" not in text_of(client.get(f"/table/{game.pk}/replay/", {"v": version}))


def test_the_organiser_reaches_each_playing_tables_seat_links(signed_in, cup, olga):
    services.start_tournament(tournament_id=cup.pk, by=olga)
    table = cup.round_set.get().tables.get()
    page = signed_in.get(f"/tournaments/{cup.pk}/").content.decode()
    lobby = f"/table/{table.game_id}/lobby/"
    assert f'href="{lobby}"' in page
    assert signed_in.get(lobby).status_code == 200  # the organiser referees the table
    assert lobby not in Client().get(f"/tournaments/{cup.pk}/").content.decode()
