"""The organiser's pages, by the Django client: signing in and out and changing a password,
the styled 403 and 404, opening a league, a season and a night, seating tables, closing the
night, naming organisers and referees, and the score sheet's confirmation step. Each bad input
gets a clear message and records nothing."""

# The fixtures are imported from the support module; pytest passes them in by name.
# ruff: noqa: F811

import re
from html import unescape

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from games.models import Event, Game, Seat
from tests.web.league_pages_support import (  # noqa: F401 (fixtures)
    league,
    olga,
    record,
    season,
    sheet,
)
from tournaments.brackets import services as brackets
from tournaments.leagues import services
from tournaments.leagues.models import League, Night, Organiser, Player, Referee, Season

pytestmark = pytest.mark.django_db


def text(response):
    """The page's words, tags taken out, as a person reads them."""
    html = re.sub(r"</?(a|strong|span|em|kbd|code)\b[^>]*>", "", response.content.decode())
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


@pytest.fixture
def organiser(client, olga):
    client.force_login(olga)
    return client


@pytest.fixture
def mallory(db):
    return get_user_model().objects.create_user("mallory", password="pw-mallory-2026")


# Accounts -----------------------------------------------------------------------------------------


def test_signing_in_goes_to_the_leagues_and_signing_out_comes_back_home(client, olga):
    page = client.get("/accounts/login/")
    assert page.status_code == 200 and "Sign in" in text(page)

    response = client.post("/accounts/login/", {"username": "olga", "password": "pw"})
    assert response.status_code == 302 and response["Location"] == "/leagues/"
    assert "Sign out (olga)" in text(client.get("/leagues/"))

    out = client.post("/accounts/logout/")
    assert out.status_code == 302 and "_auth_user_id" not in client.session


def test_a_wrong_password_is_refused_in_words(client, olga):
    response = client.post("/accounts/login/", {"username": "olga", "password": "nope"})

    assert response.status_code == 200
    assert "enter a correct username and password" in text(response)
    assert "_auth_user_id" not in client.session


def test_the_demos_sign_ins_are_mentioned_only_off_a_production_server(client, settings):
    hint = "printed a demo organiser"
    assert hint in client.get("/accounts/login/").content.decode()

    settings.IS_PRODUCTION = True

    page = client.get("/accounts/login/").content.decode()
    assert hint not in page and "config/dev.py" not in page
    assert "ask them for one" in page and "play a quick game as a visitor" in page


def test_a_password_is_changed_with_the_old_one_first(organiser, olga):
    wrong = organiser.post(
        "/accounts/password/",
        {"old_password": "nope", "new_password1": "Tables-at-8", "new_password2": "Tables-at-8"},
    )
    assert wrong.status_code == 200 and "old password was entered incorrectly" in text(wrong)

    done = organiser.post(
        "/accounts/password/",
        {"old_password": "pw", "new_password1": "Tables-at-8", "new_password2": "Tables-at-8"},
    )
    assert done.status_code == 302 and done["Location"] == "/accounts/password/done/"
    olga.refresh_from_db()
    assert olga.check_password("Tables-at-8")


def test_the_password_page_needs_a_sign_in(client):
    response = client.get("/accounts/password/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


# 403 and 404 --------------------------------------------------------------------------------------


def test_a_non_organiser_gets_a_styled_403_saying_whom_to_ask(client, mallory, league):
    client.force_login(mallory)

    response = client.get(reverse("tournaments:season-new", args=[league.pk]))

    assert response.status_code == 403
    words = text(response)
    assert "You may not do this" in words and "Only the organisers of Thursday Club" in words
    assert "Its organisers: Olga" in words and "signed in as mallory" in words
    assert '<link rel="stylesheet"' in response.content.decode()


@pytest.mark.parametrize("debug", [False, True])
def test_a_missing_page_gets_a_styled_404_with_ways_on(client, settings, debug):
    settings.DEBUG = debug  # development shows the same page

    missing = (
        "/nights/999999/",
        "/leagues/999999/",
        "/seasons/999999/",
        "/players/999999/",
        "/tournaments/999999/",
        "/table/00000000-0000-4000-8000-000000000000/",
        "/table/00000000-0000-4000-8000-000000000000/replay/",
        "/no-such-page/",
    )
    for url in missing:
        response = client.get(url)

        assert response.status_code == 404, url
        words = text(response)
        assert "This page is not here" in words and "the leagues" in words, url
        assert "URL patterns" not in words and "DEBUG" not in words


@pytest.mark.parametrize("debug", [False, True])
def test_not_found_keeps_the_apis_json_and_the_trailing_slash_redirect(client, settings, debug):
    settings.DEBUG = debug

    api = client.get("/api/games/00000000-0000-4000-8000-000000000000/")
    assert api.status_code in (401, 404) and api["Content-Type"] == "application/json"
    assert client.get("/leagues").status_code == 301  # a missing slash is added, not refused


def test_a_non_referee_at_a_score_sheet_is_told_what_to_do(client, mallory, sheet):
    client.force_login(mallory)

    response = client.get(reverse("tournaments:score-sheet", args=[sheet.pk]))

    assert response.status_code == 403
    assert "Ask an organiser to name you referee" in text(response)


# A league, a season, a night ----------------------------------------------------------------------


LEAGUE = {"name": "Friday Club", "variant": "classic", "scoring": "standard", "target": "250"}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"name": ""}, "Give the league a name."),
        ({"target": "0"}, "The target score must be at least 1."),
        ({"target": "lots"}, "The target score must be a whole number."),
        ({"variant": "poker"}, "Select a valid choice."),
        ({"scoring": ""}, "This field is required."),
    ],
)
def test_a_bad_league_form_says_what_is_wrong_and_opens_nothing(organiser, change, message):
    response = organiser.post("/leagues/new/", {**LEAGUE, **change})

    assert response.status_code == 400
    assert message in text(response)
    assert not League.objects.filter(name="Friday Club").exists()


def test_opening_a_league_makes_the_opener_its_organiser(organiser, olga):
    response = organiser.post("/leagues/new/", LEAGUE)

    league = League.objects.get(name="Friday Club")
    assert response.status_code == 302 and response["Location"] == f"/leagues/{league.pk}/"
    assert (league.target, league.scoring) == (250, "standard")
    assert Organiser.objects.filter(league=league, user=olga).exists()
    page = text(organiser.get(response["Location"]))
    assert "Friday Club is open, with you as its organiser." in page
    assert "Open a new season" in page


def test_a_league_form_sent_twice_opens_one_league(organiser, olga, mallory, client):
    organiser.post("/leagues/new/", LEAGUE)

    again = organiser.post("/leagues/new/", {**LEAGUE, "name": "friday club"})

    assert again.status_code == 400
    assert "You already run a league called “friday club”" in text(again)
    assert League.objects.filter(name__iexact="Friday Club").count() == 1
    client.force_login(mallory)  # another organiser's league may share the name
    assert client.post("/leagues/new/", LEAGUE).status_code == 302
    assert League.objects.filter(name="Friday Club").count() == 2


def test_opening_a_league_needs_a_sign_in(client):
    response = client.get("/leagues/new/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


SEASON = {
    "name": "Winter",
    "variant": "",
    "scoring": "",
    "target": "",
    "best_nights": "",
    "attendance_points": "0",
}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"name": "Autumn"}, "Thursday Club already has a season called “Autumn”"),
        ({"name": " "}, "Give the season a name."),
        ({"best_nights": "0"}, "The nights counted must be at least 1."),
        ({"attendance_points": "-1"}, "The attendance points must be at least 0."),
        ({"attendance_points": ""}, "Give the attendance points (0 for none)."),
        ({"target": "10001"}, "The target score must be at most 10000."),
    ],
)
def test_a_bad_season_form_says_what_is_wrong_and_opens_nothing(organiser, season, change, message):
    response = organiser.post(
        reverse("tournaments:season-new", args=[season.league.pk]), {**SEASON, **change}
    )

    assert response.status_code == 400
    assert message in text(response)
    assert Season.objects.filter(league=season.league).count() == 1


def test_a_league_named_in_lower_case_is_named_as_written(organiser, season, olga):
    league = season.league
    league.name = "de Kaartclub"
    league.save(update_fields=["name"])

    taken = organiser.post(
        reverse("tournaments:season-new", args=[league.pk]), {**SEASON, "name": season.name}
    )
    last = Organiser.objects.get(league=league, user=olga)
    removed = organiser.post(
        reverse("tournaments:league-role-remove", args=[league.pk, "organiser", last.pk]),
        follow=True,
    )

    assert f"de Kaartclub already has a season called “{season.name}”" in text(taken)
    assert "Nobody was removed: de Kaartclub needs at least one organiser." in text(removed)


def test_a_season_keeps_its_rules_and_standings_options(organiser, league):
    response = organiser.post(
        reverse("tournaments:season-new", args=[league.pk]),
        {
            **SEASON,
            "scoring": "alternative",
            "target": "200",
            "best_nights": "3",
            "attendance_points": "2",
        },
    )

    season = Season.objects.get(name="Winter")
    assert response.status_code == 302
    assert response["Location"] == reverse("tournaments:season-standings", args=[season.pk])
    assert (season.effective_scoring, season.target) == ("alternative", 200)
    assert (season.best_nights, season.attendance_points, season.variant) == (3, 2, "")


def test_a_night_opens_and_a_bad_date_opens_none(organiser, season):
    url = reverse("tournaments:night-open", args=[season.pk])

    bad = organiser.post(url, {"date": "next Thursday"}, follow=True)
    assert "No night was opened: Give the date as year-month-day" in text(bad)
    assert not Night.objects.exists()

    response = organiser.post(url, {"date": "2026-11-26"})
    night = Night.objects.get()
    assert response["Location"] == reverse("tournaments:night-page", args=[night.pk])
    assert (night.number, str(night.date)) == (1, "2026-11-26")


def test_a_night_form_sent_twice_opens_one_night_and_says_it_is_open(organiser, season):
    url = reverse("tournaments:night-open", args=[season.pk])
    organiser.post(url, {"date": "2026-11-26"})

    again = organiser.post(url, {"date": "2026-11-26"}, follow=True)

    night = Night.objects.get()
    assert again.redirect_chain[-1][0] == reverse("tournaments:night-page", args=[night.pk])
    assert "Night 1 is already open for 26 November: seat its tables." in text(again)
    services.close_night(night=night)
    organiser.post(url, {"date": "2026-11-26"})  # closed: the same day may have another
    assert list(Night.objects.values_list("number", flat=True)) == [1, 2]


def test_only_organisers_open_nights(client, mallory, season):
    client.force_login(mallory)
    response = client.post(reverse("tournaments:night-open", args=[season.pk]), {"date": ""})
    assert response.status_code == 403 and not Night.objects.exists()


# Seating tables ----------------------------------------------------------------------------------


@pytest.fixture
def night(season):
    return services.open_night(season=season)


def seat(client, night, **data):
    return client.post(reverse("tournaments:night-seat", args=[night.pk]), data)


def test_a_refused_form_reloaded_goes_back_to_its_page_not_to_a_bare_405(
    organiser, olga, night, sheet
):
    # A refused "Seat the table" is answered at the form's address; reloading it (or a phone
    # restoring the tab) sends a GET there, which goes back to the night's page.
    refused = seat(organiser, night, kind="sheet", new_players="Zed")
    assert refused.status_code == 400

    cup = brackets.create_tournament(
        name="Cup", organiser=olga, format="swiss", table_size=2, players=["Ann", "Bob"]
    )
    tournament = f"/tournaments/{cup.pk}/"
    player = Player.objects.get(name="Ann")
    back = {
        reverse("tournaments:night-seat", args=[night.pk]): f"/nights/{night.pk}/",
        reverse("tournaments:night-close", args=[night.pk]): f"/nights/{night.pk}/",
        reverse("tournaments:player-edit", args=[player.pk, "rename"]): f"/players/{player.pk}/",
        reverse("tournaments:score-sheet-undo", args=[sheet.pk]): f"/score-sheets/{sheet.pk}/",
        reverse("tournaments:tournament-enter", args=[cup.pk]): tournament,
        reverse("games:table-command", args=[sheet.pk]): f"/table/{sheet.pk}/",
        reverse("games:replay-undo", args=[sheet.pk]): f"/table/{sheet.pk}/replay/",
    }
    for address, page in back.items():
        answer = organiser.get(address)
        assert (answer.status_code, answer["Location"]) == (302, page), address
        assert organiser.get(page).status_code == 200, page
    assert organiser.put(reverse("tournaments:night-seat", args=[night.pk])).status_code == 405


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"kind": "digital", "new_players": "Ann"}, "A table seats 2 to 10 players; 1 was chosen."),
        ({"kind": "digital", "new_players": "Ann\nann"}, "Ann, ann would sit at the table twice."),
        (
            {"kind": "digital", "new_players": "\n".join(f"P{n}" for n in range(11))},
            "A table seats 2 to 10 players; 11 were chosen.",
        ),
        ({"new_players": "Ann\nBob"}, "Choose how the table plays."),
        ({"kind": "digital", "new_players": "Ann\n" + "x" * 101}, "at most 100 characters"),
    ],
)
def test_a_bad_table_says_what_is_wrong_and_seats_nothing(organiser, night, data, message):
    response = seat(organiser, night, **data)

    assert response.status_code == 400
    assert message in text(response)
    assert not Game.objects.exists()


@pytest.mark.parametrize("form", ["league", "season", "table"])
def test_a_refused_forms_summary_of_what_is_wrong_takes_the_focus(organiser, night, form):
    season = night.season
    if form == "league":
        response = organiser.post("/leagues/new/", {**LEAGUE, "name": ""})
    elif form == "season":
        url = reverse("tournaments:season-new", args=[season.league.pk])
        response = organiser.post(url, {**SEASON, "attendance_points": ""})
    else:  # a form's own error (not a field's): a table of one
        response = seat(organiser, night, kind="digital", new_players="Ann")

    html = response.content.decode()
    assert response.status_code == 400
    # The summary is the first thing on the page to take the focus, and it can take it.
    summary = re.search(r'<div class="error-summary"[^>]*>', html).group(0)
    assert 'tabindex="-1"' in summary and "autofocus" in summary
    assert html.index("autofocus") > html.index('<div class="error-summary"')
    assert ("Nothing was saved." in text(response)) == (form != "table")


def test_a_digital_table_shows_its_seat_links_to_the_organiser_only(client, organiser, night):
    response = seat(organiser, night, kind="digital", new_players="Ann\nBob\nCy")
    assert response.status_code == 302

    game = Game.objects.get()
    assert not game.sheet and game.season_game.night == night
    response = organiser.get(reverse("tournaments:night-page", args=[night.pk]))
    assert response["Cache-Control"] == "no-store"
    page = response.content.decode()
    for secret in Seat.objects.filter(game=game).values_list("secret", flat=True):
        assert f"/table/{game.pk}/seat/{secret}/" in page
    assert f'href="/table/{game.pk}/replay/"' in page
    lobby = reverse("games:lobby", args=[game.pk])
    assert lobby in page and organiser.get(lobby).status_code == 200

    client.logout()
    public = client.get(reverse("tournaments:night-page", args=[night.pk])).content.decode()
    assert "/seat/" not in public and "Ann" in public


def test_a_paper_table_links_its_score_sheet_and_league_players_can_be_ticked(organiser, night):
    ann = services.register_player(league=night.season.league, name="Ann")
    response = seat(organiser, night, kind="sheet", players=[str(ann.pk)], new_players="Bob")
    assert response.status_code == 302

    game = Game.objects.get()
    assert game.sheet and list(game.seats.values_list("player", flat=True)) == ["Ann", "Bob"]
    page = organiser.get(reverse("tournaments:night-page", args=[night.pk])).content.decode()
    assert reverse("tournaments:score-sheet", args=[game.pk]) in page


def test_a_score_sheet_table_shows_the_hand_the_sheet_is_at(organiser, night):
    seat(organiser, night, kind="sheet", new_players="Ann\nBob")
    game = Game.objects.get()
    url = reverse("tournaments:night-page", args=[night.pk])
    assert "Playing hand 1." in text(organiser.get(url))

    record(game, 0, {1: 10})

    assert "Playing hand 2." in text(organiser.get(url))
    assert organiser.get(f"/api/nights/{night.pk}/").json()["tables"][0]["hand"] == 2


def test_the_htmx_poll_gets_only_the_tables(organiser, night):
    seat(organiser, night, kind="sheet", new_players="Ann\nBob")
    response = organiser.get(
        reverse("tournaments:night-page", args=[night.pk]), HTTP_HX_REQUEST="true"
    )
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="night-tables"') and "<html" not in html


# Closing the night -------------------------------------------------------------------------------


def test_closing_waits_for_every_table_then_shows_the_standings_moving(organiser, night):
    seat(organiser, night, kind="sheet", new_players="Ann\nBob")
    game = Game.objects.get()
    url = reverse("tournaments:night-close", args=[night.pk])

    page = text(organiser.get(reverse("tournaments:night-page", args=[night.pk])))
    assert "The game counts in the standings once it is over: the first to 100 points" in page
    early = organiser.post(url, follow=True)
    assert "The night is still open: Night 1 still has tables playing (table 1)" in text(early)
    # Said in the close form, where the page comes back to (#close), not at the top.
    html = early.content.decode()
    form = html[html.index('id="close"') :]
    assert '<p class="error" role="alert">The night is still open' in form
    assert "The night is still open" not in html[: html.index('id="close"')]
    night.refresh_from_db()
    assert night.closed_at is None

    record(game, 0, {1: 120})
    closed = organiser.post(url, follow=True)
    words = text(closed)
    assert "Night 1 is closed." in words and "The standings after night 1" in words
    assert "Ann new in the table" in words
    night.refresh_from_db()
    assert night.closed_at is not None
    # No more tables at a closed night: no form, and a post is refused.
    assert "Seat a table" not in words
    late = organiser.post(
        reverse("tournaments:night-seat", args=[night.pk]),
        {"kind": "sheet", "new_players": "Cy\nDee"},
        follow=True,
    )
    assert "No table was seated: Night 1 is closed: open a new night" in text(late)
    assert Game.objects.count() == 1


# Organisers and referees --------------------------------------------------------------------------


def test_an_organiser_names_a_referee_who_then_keeps_the_score_sheet(
    client, organiser, league, mallory, sheet
):
    url = reverse("tournaments:league-role-name", args=[league.pk])

    unknown = organiser.post(url, {"username": "ghost", "role": "referee"})
    assert unknown.status_code == 400 and "Nobody signs in as 'ghost'" in text(unknown)

    named = organiser.post(url, {"username": "mallory", "role": "referee"}, follow=True)
    assert "mallory is now referee of Thursday Club." in text(named)
    referee = Referee.objects.get(league=league, user=mallory)

    client.force_login(mallory)
    assert client.get(reverse("tournaments:score-sheet", args=[sheet.pk])).status_code == 200

    client.force_login(league.created_by)
    client.post(reverse("tournaments:league-role-remove", args=[league.pk, "referee", referee.pk]))
    assert not Referee.objects.exists()


def test_the_last_organiser_cannot_be_removed(organiser, league, olga):
    role = Organiser.objects.get(league=league, user=olga)
    response = organiser.post(
        reverse("tournaments:league-role-remove", args=[league.pk, "organiser", role.pk]),
        follow=True,
    )
    assert "Nobody was removed: Thursday Club needs at least one organiser." in text(response)
    assert Organiser.objects.filter(league=league).count() == 1


def test_only_an_organiser_names_anyone(client, mallory, league):
    client.force_login(mallory)
    response = client.post(
        reverse("tournaments:league-role-name", args=[league.pk]),
        {"username": "mallory", "role": "organiser"},
    )
    assert response.status_code == 403 and not Organiser.objects.filter(user=mallory).exists()


# The score sheet's confirmation -------------------------------------------------------------------


def sheet_url(game):
    return reverse("tournaments:score-sheet", args=[game.pk])


def test_a_hand_is_shown_with_what_each_player_scores_before_it_is_recorded(organiser, sheet):
    before = Event.objects.filter(game=sheet).count()

    shown = organiser.post(sheet_url(sheet), {"out": "0", "points-1": "20", "cards-2": "r7 w4"})

    words = text(shown)
    assert "Check hand 1 before recording it" in words and "Ann went out." in words
    assert "Ann (went out) 0 77 77" in words and "Cy 57 0 0" in words
    assert "Nothing is recorded until you confirm." in words
    assert Event.objects.filter(game=sheet).count() == before

    confirmed = organiser.post(
        sheet_url(sheet),
        {
            "out": "0",
            "points-1": "20",
            "cards-2": "R7 W4",
            "confirm": "1",
            "version": str(Game.objects.get(pk=sheet.pk).version),
        },
    )
    assert confirmed.status_code == 302
    assert Event.objects.filter(game=sheet, type="hand_recorded").count() == 1


def test_change_it_brings_the_form_back_filled_in(organiser, sheet):
    response = organiser.post(
        sheet_url(sheet), {"out": "1", "points-0": "5", "points-2": "6", "edit": "1"}
    )
    html = response.content.decode()
    assert 'id="record-hand"' in html and 'value="5"' in html and 'value="6"' in html
    assert not Event.objects.filter(game=sheet, type="hand_recorded").exists()


def test_the_hand_that_ends_the_game_says_who_wins(organiser, sheet):
    shown = organiser.post(sheet_url(sheet), {"out": "2", "points-0": "60", "points-1": "50"})
    assert "This hand ends the game: Cy wins" in text(shown)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            {"out": "0", "points-1": "99999", "points-2": "0"},
            "Bob's points: 99999 points is more than a whole Classic UNO deck is worth (1240",
        ),
        (
            {"out": "0", "points-1": "700", "points-2": "600"},
            "The hands add up to 1300 points, more than a whole Classic UNO deck is worth",
        ),
        (
            {"out": "0", "cards-1": "W4 W4 W4", "cards-2": "W4 W4"},
            "The hands hold 5 cards “wild draw four”, but a Classic UNO deck has only 4",
        ),
        (
            {"out": "0", "cards-1": "R1", "points-1": "3", "points-2": "1"},
            "Give either the cards left or the points, not both.",
        ),
        (
            {"out": "0", "points-0": "4", "points-1": "1", "points-2": "1"},
            "The player who went out holds no cards",
        ),
    ],
)
def test_impossible_hands_are_refused_in_the_players_words(organiser, sheet, data, message):
    for confirm in ({}, {"confirm": "1"}):
        response = organiser.post(sheet_url(sheet), {**data, **confirm})
        html = response.content.decode()
        summary = html[html.index('class="error-summary"') : html.index('<fieldset class="out"')]
        words = text(response)
        assert "The hand was not recorded." in words and message in words
        for internal in ("seat ", "W4", "remaining", "points.", "copies of"):
            assert internal not in unescape(summary), internal
    assert not Event.objects.filter(game=sheet, type="hand_recorded").exists()


# A tournament's referees -----------------------------------------------------------------------


@pytest.fixture
def cup(olga):
    from tournaments.brackets import services as bracket_services

    return bracket_services.create_tournament(
        name="Cup", organiser=olga, format="swiss", table_size=2, players=["Ann", "Bob"]
    )


def test_the_tournament_page_names_its_referees_and_its_organiser_adds_one(
    client, organiser, cup, mallory
):
    page = reverse("tournaments:tournament-page", args=[cup.pk])
    assert "None named: the organiser referees." in text(organiser.get(page))

    unknown = organiser.post(
        reverse("tournaments:tournament-referee-name", args=[cup.pk]),
        {"username": "ghost"},
        follow=True,
    )
    assert "Nobody was named referee: Nobody signs in as 'ghost'" in text(unknown)
    named = organiser.post(
        reverse("tournaments:tournament-referee-name", args=[cup.pk]),
        {"username": "mallory"},
        follow=True,
    )
    assert "mallory now referees every table of Cup." in text(named)
    assert Referee.objects.filter(tournament=cup, user=mallory).exists()

    client.force_login(mallory)
    seen = text(client.get(page))
    assert "mallory" in seen and "Name a referee" not in seen
    refused = client.post(
        reverse("tournaments:tournament-referee-name", args=[cup.pk]), {"username": "mallory"}
    )
    assert refused.status_code == 403


def test_a_paper_tables_table_and_replay_links_open_for_its_organiser(organiser, sheet):
    record(sheet, 0, {1: 5, 2: 6})
    for name in ("games:table", "games:replay"):
        response = organiser.get(reverse(name, args=[sheet.pk]))
        assert response.status_code == 200, name


def test_a_superuser_is_told_how_to_become_an_organiser(client, league, sheet):
    admin = get_user_model().objects.create_superuser("root", password="pw-root-2026")
    client.force_login(admin)

    response = client.get(reverse("tournaments:score-sheet", args=[sheet.pk]))

    assert response.status_code == 403
    assert "add yourself as an organiser of a league in the admin" in text(response)


def test_a_ruling_without_a_decision_says_so_in_words(organiser, olga, season):
    from games import services as game_services
    from games.models import Dispute

    game = services.start_season_game(season=season, players=["Ann", "Bob"], created_by=olga)
    dispute = game_services.open_dispute(game_id=game.pk, version=1, claim="A", by="seat:0")

    response = organiser.post(
        reverse("games:dispute-rule", args=[game.pk, dispute.pk]), {"note": "n"}
    )

    assert response.status_code == 400
    assert "Choose the ruling: upheld or rejected." in text(response)
    assert "decision" not in text(response).replace("Decisions", "")
    assert Dispute.objects.get().status == Dispute.Status.OPEN


def test_a_night_closed_anyway_lets_its_unfinished_table_count_when_it_ends(organiser, night):
    seat(organiser, night, kind="sheet", new_players="Ann\nBob")
    game = Game.objects.get()

    closed = organiser.post(
        reverse("tournaments:night-close", args=[night.pk]), {"anyway": "1"}, follow=True
    )

    words = text(closed)
    assert "Night 1 is closed." in words and "1 table still playing" in words
    assert "No finished games yet." in words
    record(game, 1, {0: 150})
    after = text(organiser.get(reverse("tournaments:night-page", args=[night.pk])))
    assert "Bob new in the table" in after


def test_a_player_still_playing_tonight_is_not_seated_at_a_second_table(organiser, night):
    seat(organiser, night, kind="sheet", new_players="Ann\nBob")

    response = seat(organiser, night, kind="digital", new_players="cy\nann")

    assert response.status_code == 400
    assert "Ann (table 1) is still playing tonight" in text(response)  # "ann" is Ann
    assert Game.objects.count() == 1
    record(Game.objects.get(), 0, {1: 150})
    assert seat(organiser, night, kind="digital", new_players="Cy\nAnn").status_code == 302


def test_the_leagues_page_shows_a_person_what_is_theirs(client, olga, season, mallory):
    services.register_player(league=season.league, name="Mal", user=mallory)
    game = services.start_season_game(season=season, players=["Mal", "Ann"], created_by=olga)
    client.force_login(mallory)

    words = text(client.get("/leagues/"))

    assert "You play as Mal in Thursday Club." in words
    assert "Your table of night 1 of Autumn (Thursday Club) is playing: go to your seat." in words
    assert f'href="/table/{game.pk}/"' in client.get("/leagues/").content.decode()
    seat_page = client.get(f"/table/{game.pk}/")
    assert seat_page.status_code == 200  # signed in, Mal plays at his seat without a link
    client.force_login(olga)
    assert "You organise Thursday Club." in text(client.get("/leagues/"))


def test_a_dispute_waiting_for_a_ruling_shows_on_the_night_with_the_way_to_rule(organiser, night):
    from django.test import Client

    from games import services as game_services

    seat(organiser, night, kind="digital", new_players="Ann\nBob")
    game = Game.objects.get()
    url = reverse("tournaments:night-page", args=[night.pk])
    assert "dispute" not in text(organiser.get(url))
    dispute = game_services.open_dispute(game_id=game.pk, version=2, claim="x", by="seat:0")

    html = organiser.get(url).content.decode()
    assert f'href="/table/{game.pk}/replay/#disputes">Rule on it' in html
    assert "1 dispute" in text(organiser.get(url))
    assert "1 dispute waiting for the referee's ruling" in text(Client().get(url))

    game_services.rule_on_dispute(dispute_id=dispute.pk, decision="rejected", note="", by="user:1")
    assert "dispute" not in text(organiser.get(url))


def test_a_table_seated_by_mistake_is_taken_off_the_night_while_its_first_hand_plays(
    organiser, night
):
    from django.test import Client

    from games import services as game_services
    from games.models import TableView
    from rules import IllegalCommand, legal_commands
    from tournaments.leagues.models import SeasonGame

    seat(organiser, night, kind="digital", new_players="Ann\nbea")
    seat(organiser, night, kind="sheet", new_players="Cy\nDee")
    wrong, paper = Game.objects.order_by("created_at")
    url = reverse("tournaments:night-page", args=[night.pk])
    off = reverse("tournaments:night-table-off", args=[night.pk, wrong.pk])
    assert off in organiser.get(url).content.decode()
    assert off not in Client().get(url).content.decode()

    refused = organiser.post(off, {"reason": ""}, follow=True)
    assert "The table is still on the night: Reason: say why" in text(refused)
    refused = organiser.post(off, {"reason": "a typo\x00"}, follow=True)
    assert "still on the night: Reason: a NUL character is not text" in text(refused)
    assert Game.objects.get(pk=wrong.pk).closed == ""
    answer = organiser.post(off, {"reason": "Bea is Bea, not bea"}, follow=True)

    assert "The table is taken off the night: it counts nowhere." in text(answer)
    assert not SeasonGame.objects.filter(game=wrong).exists()
    wrong.refresh_from_db()
    assert wrong.season_id is None and "took this table off night 1" in wrong.closed
    state = game_services.load_game(game_id=wrong.pk)
    seat_no = state.pending[1]
    with pytest.raises(IllegalCommand, match="took this table off"):
        game_services.apply_command(
            game_id=wrong.pk,
            command=legal_commands(state, seat_no)[0],
            actor=game_services.seat_actor(seat_no),
        )
    assert "Bea is Bea" not in text(organiser.get(url))  # the night lists it no more

    # A table with a hand recorded is corrected by undo, not taken off.
    record(paper, 0, {1: 10})
    assert TableView.objects.get(game=paper).hand_number == 1
    sheet_off = reverse("tournaments:night-table-off", args=[night.pk, paper.pk])
    assert sheet_off not in organiser.get(url).content.decode()
    refused = organiser.post(sheet_off, {"reason": "oops"}, follow=True)
    assert "A hand of this table has ended" in text(refused)
    assert SeasonGame.objects.filter(game=paper).exists()


def test_a_table_taken_off_twice_says_it_is_off_already_in_words(organiser, night):
    # The organiser's second tab (or a second press) still shows the form of a table taken off.
    seat(organiser, night, kind="digital", new_players="Ann\nbea")
    wrong = Game.objects.get()
    off = reverse("tournaments:night-table-off", args=[night.pk, wrong.pk])
    organiser.post(off, {"reason": "Bea is Bea, not bea"})

    again = text(organiser.post(off, {"reason": "Bea is Bea, not bea"}, follow=True))

    assert "That table is not on night 1 any more: it was taken off already." in again
    assert "still on the night" not in again
    assert str(wrong.pk) not in again and "plays game" not in again


def test_a_table_seated_at_the_wrong_night_is_moved_from_the_night_page(organiser, olga, night):
    from django.test import Client

    from tests.games.tampering import verify
    from tournaments.leagues.models import SeasonGame, StandingRow

    seat(organiser, night, kind="sheet", new_players="Ann\nBob")
    table = Game.objects.get()
    record(table, 0, {1: 500})  # Ann wins the table: it is over
    second = services.open_night(season=night.season)
    here = reverse("tournaments:night-page", args=[night.pk])
    move = reverse("tournaments:night-table-move", args=[night.pk, table.pk])
    page = organiser.get(here).content.decode()
    assert move in page and "Played on another night? Move this table" in page
    assert f'<option value="{second.pk}">Night 2' in page
    assert move not in Client().get(here).content.decode()

    answer = organiser.post(move, {"night": str(second.pk)}, follow=True)

    assert (
        answer.redirect_chain[-1][0]
        == reverse("tournaments:night-page", args=[second.pk]) + "#night-tables"
    )
    assert "The table moved from night 1: it counts on night 2." in text(answer)
    assert SeasonGame.objects.get(game=table).night == second
    assert "Ann" in text(answer) and "No tables yet" in text(organiser.get(here))
    assert StandingRow.objects.get(player__name="Ann").wins == 1
    assert "who sat where as signed" in verify()


def test_a_move_the_rules_refuse_says_why_in_words_and_moves_nothing(organiser, olga, night):
    from tournaments.leagues.models import SeasonGame

    seat(organiser, night, kind="sheet", new_players="Ann\nBob")
    table = Game.objects.get()  # still playing
    closed = services.open_night(season=night.season)
    services.close_night(night=closed, by=olga)
    other = services.open_season(league=night.season.league, name="Spring", by=olga)
    elsewhere = services.open_night(season=other)
    move = reverse("tournaments:night-table-move", args=[night.pk, table.pk])

    refused = text(organiser.post(move, {"night": str(closed.pk)}, follow=True))
    assert "The table stays on night 1: Night 2 is closed" in refused
    for chosen in (str(elsewhere.pk), "", "two", str(night.pk + 99)):
        answer = text(organiser.post(move, {"night": chosen}, follow=True))
        assert "Choose the night the table was played on." in answer, chosen
    assert SeasonGame.objects.get(game=table).night == night
    assert str(table.pk) not in refused


def test_only_an_organiser_moves_a_table(client, mallory, olga, night):
    from tournaments.leagues.models import SeasonGame

    client.force_login(olga)
    seat(client, night, kind="sheet", new_players="Ann\nBob")
    table = Game.objects.get()
    second = services.open_night(season=night.season)
    client.force_login(mallory)

    refused = client.post(
        reverse("tournaments:night-table-move", args=[night.pk, table.pk]), {"night": second.pk}
    )

    assert refused.status_code == 403
    assert SeasonGame.objects.get(game=table).night == night


def test_a_table_taken_off_while_it_is_being_moved_is_said_in_words(
    organiser, olga, night, monkeypatch
):
    # Another tab takes the table off between the page's look and the move.
    seat(organiser, night, kind="sheet", new_players="Ann\nBob")
    table = Game.objects.get()
    second = services.open_night(season=night.season)
    real_move = services.move_table

    def taken_off_first(**kwargs):
        services.take_table_off(night=night, game_id=table.pk, reason="wrong table", by=olga)
        return real_move(**kwargs)

    monkeypatch.setattr(services, "move_table", taken_off_first)
    move = reverse("tournaments:night-table-move", args=[night.pk, table.pk])

    answer = organiser.post(move, {"night": str(second.pk)}, follow=True)

    assert answer.status_code == 200
    assert "That table is not one of night 1's any more." in text(answer)
