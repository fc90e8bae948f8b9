"""The league pages: the leagues index, a league, a season's standings (sortable by any column,
a fragment for htmx and the whole page otherwise) and a player's page with the rating chart."""

# The fixtures are imported from the support module; pytest passes them in by name.
# ruff: noqa: F811

import re
import xml.etree.ElementTree as ET
from html import unescape
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from tests.web.league_pages_support import (  # noqa: F401 (fixtures)
    htmx,
    league,
    olga,
    played,
    player_order,
    season,
)
from tournaments.leagues import selectors, services
from tournaments.leagues.demo import DEMO_LEAGUE
from tournaments.models import Player, RatingHistory

pytestmark = pytest.mark.django_db

# played: Dee, Ann and Cy won a game each (Dee scored 150, Ann 120, Cy 105), Bob none.
OFFICIAL = ["Dee", "Ann", "Cy", "Bob"]


def standings_url(season):
    return reverse("tournaments:season-standings", args=[season.pk])


# Leagues --------------------------------------------------------------------------------------


def test_the_nav_links_the_leagues_index(client):
    response = client.get("/")

    assert f'href="{reverse("tournaments:league-list")}"' in response.text
    assert ">Leagues</a>" in response.text


def test_the_leagues_index_lists_each_league_with_its_newest_season(client, played, league):
    response = client.get(reverse("tournaments:league-list"))

    assert response.status_code == 200
    assert 'aria-current="page">Leagues</a>' in response.text
    assert f'href="{reverse("tournaments:league-detail", args=[league.pk])}"' in response.text
    assert f'href="{standings_url(played)}">Autumn standings</a>' in response.text


def test_the_leagues_index_says_when_there_are_none(client, db):
    response = client.get(reverse("tournaments:league-list"))

    assert response.status_code == 200
    assert "No leagues yet" in response.text


def test_the_league_page_shows_its_seasons_settings_organisers_and_players(
    client, played, league, olga
):
    services.open_season(league=league, name="Winter", scoring="alternative", best_nights=3)

    response = client.get(reverse("tournaments:league-detail", args=[league.pk]))

    html = response.text
    assert response.status_code == 200
    assert "<h1>Thursday Club</h1>" in html
    assert f'href="{standings_url(played)}">Autumn</a>' in html
    assert "Winter</a>" in html and "alternative scoring" in html and "best 3 nights" in html
    assert "Classic UNO" in html and "Standard scoring" in html and "100 points" in html
    assert "<li>Olga (olga)" in html  # the organiser, by full name and user name
    for name in OFFICIAL:
        player = Player.objects.get(league=league, name=name)
        assert f'href="{reverse("tournaments:player-detail", args=[player.pk])}">{name}</a>' in html


def test_the_home_page_links_the_leagues_and_the_demo_club(client, db):
    html = client.get("/").text
    demo = reverse("tournaments:demo-league")

    assert f'href="{demo}"' in html
    assert client.get(demo).status_code == 404  # not seeded
    club = services.open_league(name=DEMO_LEAGUE)
    response = client.get(demo)
    assert response.status_code == 302
    assert response["Location"] == reverse("tournaments:league-detail", args=[club.pk])


def test_an_unknown_league_season_or_player_is_404(client, db):
    for name in ("league-detail", "season-standings", "player-detail"):
        assert client.get(reverse(f"tournaments:{name}", args=[999])).status_code == 404


# Standings ------------------------------------------------------------------------------------


def test_the_standings_page_shows_the_table_its_options_tie_breakers_csv_and_nights(client, played):
    response = client.get(standings_url(played))

    html = response.text
    assert response.status_code == 200
    assert player_order(html) == OFFICIAL
    for heading in (
        "Rank",
        "Player",
        "Nights",
        "Games",
        "Wins",
        "Placings",
        "Hands won",
        "Points scored",
        "Average placing",
        "Rating",
    ):
        assert f">{heading}" in html, heading
    assert "Every night" in html and "Attendance points" in html
    assert "Wins: games won; more is better." in html  # the tie-breakers, in words
    assert "Points: card points scored; more is better." in html
    assert f'href="/api/seasons/{played.pk}/standings.csv"' in html
    assert "Night 1" in html and "Night 2" in html
    assert "1st 1 time, 2nd 1 time" in html  # Ann's placings, in words for screen readers
    assert 'aria-sort="ascending"' in html  # sorted by rank


class StandingsCells(HTMLParser):
    """The standings table's headings and each row's cells, as text, left to right."""

    def __init__(self):
        super().__init__()
        self.rows, self.cell, self.hidden = [], None, 0

    def handle_starttag(self, tag, attrs):
        if tag == "tr":
            self.rows.append([])
        elif tag in ("th", "td") and self.rows:
            self.cell = ""
        elif tag == "span" and "visually-hidden" in (dict(attrs).get("class") or ""):
            self.hidden += 1

    def handle_endtag(self, tag):
        if tag in ("th", "td") and self.cell is not None:
            self.rows[-1].append(" ".join(self.cell.replace("▲", "").split()))
            self.cell = None
        elif tag == "span" and self.hidden:
            self.hidden -= 1

    def handle_data(self, data):
        if self.cell is not None and not self.hidden:
            self.cell += data


def standings_cells(client, season):
    """The season page's standings: its headings, and its rows' cells."""
    html = client.get(standings_url(season)).text
    parser = StandingsCells()
    table = html[html.index('<table class="standings">') : html.index("</table>")]
    parser.feed(table)
    headings, *rows = parser.rows
    return headings, rows


def test_the_league_points_that_decide_the_order_come_right_after_the_players_name(client, played):
    services.set_standings_options(season=played, best_nights=None, attendance_points=2)

    headings, rows = standings_cells(client, played)

    assert headings == [
        "Rank",
        "Player",
        "League points",
        "Nights",
        "Games",
        "Wins",
        "Placings",
        "Hands won",
        "Points scored",
        "Average placing",
        "Rating",
        "Attendance points",
    ]
    # Each cell under its heading: Dee won a game over two nights (1 + 2 x 2 league points),
    # Bob none on the one night he played (0 + 2).
    by_player = {row[1]: dict(zip(headings, row, strict=True)) for row in rows}
    counts = ("League points", "Wins", "Nights", "Attendance points")
    assert [by_player["Dee"][heading] for heading in counts] == ["5", "1", "2", "4"]
    assert [by_player["Bob"][heading] for heading in counts] == ["2", "0", "1", "2"]
    assert [row[1] for row in rows] == OFFICIAL


def test_without_attendance_points_the_wins_that_decide_the_order_follow_the_name(client, played):
    headings, rows = standings_cells(client, played)

    assert headings[:4] == ["Rank", "Player", "Wins", "Nights"]
    assert "League points" not in headings
    by_player = {row[1]: dict(zip(headings, row, strict=True)) for row in rows}
    assert by_player["Cy"]["Wins"] == "1" and by_player["Cy"]["Games"] == "3"
    assert by_player["Bob"]["Wins"] == "0" and by_player["Bob"]["Points scored"] == "0"


def test_a_held_points_season_heads_the_column_points_held(client, league, olga):
    winter = services.open_season(league=league, name="Winter", scoring="alternative", by=olga)

    html = client.get(standings_url(winter)).text

    assert "Points held" in html and "Points scored" not in html
    assert "card points held at the end of each game; fewer is better" in html


def test_an_htmx_sort_gets_only_the_table_fragment(client, played):
    response = htmx(client, standings_url(played), sort="player", dir="asc")

    html = response.text
    assert response.status_code == 200
    assert html.lstrip().startswith('<div id="standings"')
    assert "<html" not in html and "<h1" not in html and "Nights and games" not in html
    assert player_order(html) == ["Ann", "Bob", "Cy", "Dee"]
    assert "HX-Request" in response["Vary"]


def test_the_same_sort_without_htmx_gets_the_whole_page_sorted(client, played):
    response = client.get(standings_url(played), {"sort": "player", "dir": "desc"})

    html = response.text
    assert "<html" in html and "Nights and games" in html
    assert player_order(html) == ["Dee", "Cy", "Bob", "Ann"]
    assert "HX-Request" in response["Vary"]


def test_a_history_restore_gets_the_whole_page(client, played):
    response = client.get(
        standings_url(played),
        {"sort": "wins"},
        HTTP_HX_REQUEST="true",
        HTTP_HX_HISTORY_RESTORE_REQUEST="true",
    )

    assert "<html" in response.text


@pytest.mark.parametrize(
    ("sort", "direction", "order"),
    [
        ("rank", "asc", OFFICIAL),
        ("rank", "desc", ["Bob", "Cy", "Ann", "Dee"]),
        ("player", "asc", ["Ann", "Bob", "Cy", "Dee"]),
        ("nights", "desc", ["Dee", "Ann", "Cy", "Bob"]),
        ("nights", "asc", ["Bob", "Dee", "Ann", "Cy"]),
        ("games", "desc", ["Cy", "Dee", "Ann", "Bob"]),
        ("games", "asc", ["Dee", "Ann", "Bob", "Cy"]),
        ("wins", "desc", ["Dee", "Ann", "Cy", "Bob"]),
        ("wins", "asc", ["Bob", "Dee", "Ann", "Cy"]),
        ("placings", "desc", ["Cy", "Dee", "Ann", "Bob"]),
        ("hands_won", "desc", ["Cy", "Dee", "Ann", "Bob"]),
        ("points", "desc", ["Dee", "Ann", "Cy", "Bob"]),
        ("points", "asc", ["Bob", "Cy", "Ann", "Dee"]),
        ("average_placing", "asc", ["Dee", "Ann", "Cy", "Bob"]),
        ("average_placing", "desc", ["Bob", "Cy", "Dee", "Ann"]),
    ],
)
def test_sorting_orders_the_rows_and_keeps_the_official_order_among_equals(
    client, played, sort, direction, order
):
    response = htmx(client, standings_url(played), sort=sort, dir=direction)

    assert player_order(response.text) == order


def test_every_column_sorts_both_ways_as_a_fragment_and_as_a_page(client, played):
    services.set_standings_options(season=played, best_nights=None, attendance_points=2)
    table = selectors.sorted_standings(played.pk, None, None)
    names = [c["name"] for c in table["columns"]]
    assert {"attendance_points", "league_points", "rating"} <= set(names)
    rows = {row["player"]: row for row in selectors.season_standings(played.pk)["rows"]}

    for name in names:
        for direction in ("asc", "desc"):
            fragment = htmx(client, standings_url(played), sort=name, dir=direction).text
            page = client.get(standings_url(played), {"sort": name, "dir": direction}).text
            assert fragment.lstrip().startswith('<div id="standings"'), name
            assert "<html" in page, name
            order = player_order(fragment)
            assert order == player_order(page), name
            assert sorted(order) == sorted(rows), name
            values = [sort_value(rows[player], name) for player in order]
            assert values == sorted(values, reverse=direction == "desc"), (name, direction)
            assert f'aria-sort="{"ascending" if direction == "asc" else "descending"}"' in fragment


def sort_value(row, column):
    if column == "player":
        return row["player"].casefold()
    if column == "placings":
        return tuple(row["placings"])
    return row[column]


def test_each_heading_links_its_sort_in_the_querystring_for_htmx_and_without_javascript(
    client, played
):
    html = client.get(standings_url(played), {"sort": "wins", "dir": "desc"}).text
    url = standings_url(played)

    headings = re.findall(r'<a id="sort-(\w+)" href="([^"]+)"\s+hx-get="([^"]+)"', html)
    assert len(headings) == 10
    for name, href, hx_get in headings:
        assert href == hx_get
        assert href.startswith(f"{url}?sort={name}&amp;dir=")
    links = dict((name, href) for name, href, _ in headings)
    assert links["wins"].endswith("dir=asc")  # the sorted column turns round
    assert links["player"].endswith("dir=asc") and links["points"].endswith("dir=desc")
    assert html.count('hx-push-url="true"') == 10
    assert html.count('hx-target="#standings"') == 10


def test_an_unknown_sort_falls_back_to_the_official_order(client, played):
    response = client.get(standings_url(played), {"sort": "password", "dir": "sideways"})

    assert response.status_code == 200
    assert player_order(response.text) == OFFICIAL


def test_an_organiser_sees_the_links_to_the_score_sheets(client, played, olga):
    assert "score sheet</a>" not in client.get(standings_url(played)).text

    client.force_login(olga)
    html = client.get(standings_url(played)).text

    assert html.count("The score sheet</a>") == 3


def test_every_game_of_the_season_links_its_table_and_its_replay(client, played):
    html = client.get(standings_url(played)).text
    games = selectors.season_games(played.pk)

    assert len(games) == 3
    for game in games:
        assert f'href="/table/{game["game"]}/"' in html
        assert f'href="/table/{game["game"]}/replay/"' in html


# Players --------------------------------------------------------------------------------------


def chart_points(html):
    """The circles of each rating chart on a page, chart by chart."""
    charts = re.findall(r"<svg .*?</svg>", html, flags=re.S)
    svg = "{http://www.w3.org/2000/svg}"
    return [ET.fromstring(chart).findall(f".//{svg}circle") for chart in charts]


def test_the_player_page_lists_their_games_with_season_night_placing_and_points(
    client, played, league
):
    cy = Player.objects.get(league=league, name="Cy")

    html = client.get(reverse("tournaments:player-detail", args=[cy.pk])).text

    assert "<h1>Cy</h1>" in html
    games = html.split('id="games-caption"')[1]
    assert games.count(f'href="{standings_url(played)}">Autumn</a>') == 3
    assert games.count("1st of 3 (won)") == 1 and games.count("2nd of 3") == 2
    assert "105 <span" in games  # the points Cy scored in the game won
    assert re.search(r'<td class="number">2(</td>| <span)', games)  # night 2


def test_the_rating_chart_has_one_point_per_rating_history_entry(client, played, league):
    for name in OFFICIAL:
        player = Player.objects.get(league=league, name=name)
        history = list(RatingHistory.objects.filter(player=player).order_by("finished_at"))

        html = client.get(reverse("tournaments:player-detail", args=[player.pk])).text

        (points,) = chart_points(html)
        assert len(points) == len(history) == player.results.count()
        titles = [p.find("{http://www.w3.org/2000/svg}title").text for p in points]
        assert titles == [f"{i}: {round(h.rating, 2):g}" for i, h in enumerate(history, 1)]
        assert 'role="img"' in html and "rating in Autumn, game by game" in html


def test_a_player_without_games_has_no_chart(client, league):
    newcomer = services.register_player(league=league, name="Eve")

    html = client.get(reverse("tournaments:player-detail", args=[newcomer.pk])).text

    assert "<svg" not in html
    assert "Eve has not finished a game yet." in html


def test_a_league_without_scoring_is_named_so_in_words_and_without_a_target(client, olga):
    """ "no scoring", never the setting's code ("none scoring"), and no target it does not use."""
    league = services.open_league(name="Quick Club", scoring="none", created_by=olga)
    season = services.open_season(league=league, name="Spring", by=olga)
    listed = client.get(reverse("tournaments:league-list")).content.decode()
    assert "no scoring" in listed and "none scoring" not in listed
    client.force_login(olga)
    page = client.get(f"/leagues/{league.pk}/").content.decode()
    assert "no scoring" in page and "none scoring" not in page
    form = client.get(f"/leagues/{league.pk}/seasons/new/").content.decode()
    assert "As the league (no scoring)" in form
    night = services.night_of(season=season)
    assert "no scoring" in client.get(f"/nights/{night.pk}/").content.decode()


def test_an_organiser_corrects_a_players_name_and_links_their_account(client, league, olga):
    from django.contrib.auth import get_user_model as users

    from tournaments.leagues import services as league_services

    cy = league_services.register_player(league=league, name="Cy", by=olga)
    bea = league_services.register_player(league=league, name="Baa", by=olga)
    bea_account = users().objects.create_user("bea", password="pw-bea-12345")
    page = f"/players/{bea.pk}/"
    assert "Correct Baa" not in client.get(page).text  # not for visitors
    client.force_login(olga)
    assert "Correct Baa's name or account" in client.get(page).text

    taken = client.post(f"/players/{bea.pk}/rename/", {"name": "cy"})
    assert taken.status_code == 400
    assert field_error(taken, "name") == "Cy is another player of Thursday Club."
    renamed = client.post(f"/players/{bea.pk}/rename/", {"name": " Bea "}, follow=True).text
    assert "The player is now called Bea." in renamed
    bea.refresh_from_db()
    assert bea.name == "Bea"

    unknown = client.post(f"/players/{bea.pk}/account/", {"username": "ghost"})
    assert field_error(unknown, "username") == "Nobody signs in as 'ghost'."
    linked = client.post(f"/players/{bea.pk}/account/", {"username": "bea"}, follow=True).text
    assert "Bea plays signed in as bea." in linked
    bea.refresh_from_db()
    assert bea.user == bea_account
    twice = client.post(f"/players/{cy.pk}/account/", {"username": "bea"})
    assert (
        field_error(twice, "username") == "The account bea already plays in Thursday Club as Bea."
    )
    client.post(f"/players/{bea.pk}/account/", {"username": ""})
    bea.refresh_from_db()
    assert bea.user is None
    assert client.post(f"/players/{bea.pk}/delete/").status_code == 404

    client.force_login(bea_account)  # not an organiser
    assert client.post(f"/players/{bea.pk}/rename/", {"name": "B"}).status_code == 403


def test_a_name_starting_a_refusal_on_a_players_page_is_shown_as_written(client, league, olga):
    from tournaments.leagues import services as league_services

    league_services.register_player(league=league, name="de Vries", by=olga)
    bob = league_services.register_player(league=league, name="Bob", by=olga)
    client.force_login(olga)

    taken = client.post(f"/players/{bob.pk}/rename/", {"name": "De Vries"})

    assert field_error(taken, "name") == "de Vries is another player of Thursday Club."


@pytest.mark.parametrize("correction", ["", "right"])
def test_an_account_unlinked_or_replaced_no_longer_opens_the_players_seat(
    client, league, season, olga, correction
):
    from django.contrib.auth import get_user_model as users
    from django.test import Client

    wrong = users().objects.create_user("wrong", password="pw-wrong-12345")
    right = users().objects.create_user("right", password="pw-right-12345")
    bea = services.register_player(league=league, name="Bea", by=olga)
    services.link_account(player=bea, username="wrong", by=olga)  # the wrong account
    table = services.start_season_game(season=season, players=["Ann", "Bea"], created_by=olga)

    def plays_as_bea(user):
        viewer = Client()
        viewer.force_login(user)
        return "You play as <strong>Bea</strong>" in viewer.get(f"/table/{table.pk}/").text

    assert plays_as_bea(wrong)
    client.force_login(olga)
    assert client.post(f"/players/{bea.pk}/account/", {"username": correction}).status_code == 302

    assert not plays_as_bea(wrong)  # nor sees Bea's cards, nor moves for her
    assert plays_as_bea(right) == (correction == "right")


@pytest.mark.parametrize("correction", ["", "right"])
def test_an_account_unlinked_or_replaced_no_longer_opens_the_players_seats_at_rematches(
    client, league, season, olga, correction
):
    from django.contrib.auth import get_user_model as users
    from django.test import Client

    from games import services as game_services
    from games.models import Game
    from tests.web.table_support import drive

    wrong = users().objects.create_user("wrong", password="pw-wrong-12345")
    right = users().objects.create_user("right", password="pw-right-12345")
    bea = services.register_player(league=league, name="Bea", by=olga)
    services.link_account(player=bea, username="wrong", by=olga)  # the wrong account
    table = services.start_season_game(season=season, players=["Ann", "Bea"], created_by=olga)
    drive(table, until=lambda state: False, limit=5000)
    client.force_login(olga)
    assert client.post(f"/table/{table.pk}/rematch/").status_code == 302
    rematch = Game.objects.get(rematch_of=table)
    drive(rematch, until=lambda state: False, limit=5000)
    again = game_services.rematch(game_id=rematch.pk, by=olga)  # a rematch of the rematch
    # The wrong account goes to each rematch from the table before it, signed in.
    browser = Client()
    browser.force_login(wrong)
    for before, game in ((table, rematch), (rematch, again)):
        went = browser.get(f"/table/{before.pk}/rematch/")
        assert went.status_code == 302 and went["Location"] == f"/table/{game.pk}/"

    def plays_as_bea(viewer, game):
        return "You play as <strong>Bea</strong>" in viewer.get(f"/table/{game.pk}/").text

    def signed_in(user):
        viewer = Client()
        viewer.force_login(user)
        return viewer

    assert plays_as_bea(browser, rematch) and plays_as_bea(browser, again)
    assert client.post(f"/players/{bea.pk}/account/", {"username": correction}).status_code == 302

    for game in (rematch, again):
        assert not plays_as_bea(browser, game)  # the browser that went there kept no secret
        assert not plays_as_bea(signed_in(wrong), game)
        assert plays_as_bea(signed_in(right), game) == (correction == "right")


def field_error(response, field):
    """The error shown by the player page's field ``name`` or ``username``, as read."""
    error = re.search(rf'<p class="error" id="player-{field}_error">(.*?)</p>', response.text, re.S)
    words = unescape(re.sub(r"<[^>]+>", "", error.group(1))) if error else ""
    return words.removeprefix("Error:").strip()


def typed(response, field):
    """What the player page's field ``name`` or ``username`` holds."""
    tag = re.search(rf'<input[^>]*id="player-{field}"[^>]*>', response.text)
    value = re.search(r'value="([^"]*)"', tag.group(0)) if tag else None
    return unescape(value.group(1)) if value else ""


@pytest.mark.parametrize(
    ("action", "field", "sent", "message"),
    [
        ("rename", "name", "Ann", "Ann is another player of Thursday Club."),
        ("rename", "name", " ANN ", "Ann is another player of Thursday Club."),
        ("rename", "name", "", "Give the player's name."),
        (
            "rename",
            "name",
            "\u200b\u2060",
            "The name shows nothing: it holds only characters that do not show. Type it again.",
        ),
        ("rename", "name", "x" * 101, "A name has at most 100 characters; this one has 101."),
        (
            "rename",
            "name",
            "Bo\x00b",
            "The name holds a character that is not text: type it again.",
        ),
        ("account", "username", "nobody", "Nobody signs in as 'nobody'."),
        ("account", "username", "ann", "The account ann already plays in Thursday Club as Ann."),
        (
            "account",
            "username",
            "y" * 151,
            "A user name has at most 150 characters; this one has 151.",
        ),
        (
            "account",
            "username",
            "an\x00n",
            "The user name holds a character that is not text: type it again.",
        ),
    ],
)
def test_a_refused_correction_shows_the_page_again_with_what_was_typed_by_the_field(
    client, league, olga, action, field, sent, message
):
    from django.contrib.auth import get_user_model as users

    ann = services.register_player(league=league, name="Ann", by=olga)
    users().objects.create_user("ann", password="pw-ann-12345")
    services.link_account(player=ann, username="ann", by=olga)
    bea = services.register_player(league=league, name="Baa", by=olga)
    client.force_login(olga)

    answer = client.post(f"/players/{bea.pk}/{action}/", {field: sent})

    assert answer.status_code == 400
    assert field_error(answer, field) == message
    assert "Nothing was saved." in answer.text
    assert typed(answer, field) == sent  # as typed, not as it was before
    other = {"name": "username", "username": "name"}[field]
    assert typed(answer, other) == {"name": "Baa", "username": ""}[other]  # the other form
    assert '<details id="player-settings" class="player-settings" open>' in answer.text
    assert f'action="/players/{bea.pk}/{action}/#player-settings"' in answer.text
    assert "<h1>Baa</h1>" in answer.text
    bea.refresh_from_db()
    assert (bea.name, bea.user) == ("Baa", None)


def test_a_refused_correction_of_a_player_with_an_account_keeps_the_account_shown(
    client, league, olga
):
    from django.contrib.auth import get_user_model as users

    services.register_player(league=league, name="Ann", by=olga)
    bea = services.register_player(league=league, name="Bea", by=olga)
    users().objects.create_user("bea", password="pw-bea-12345")
    services.link_account(player=bea, username="bea", by=olga)
    client.force_login(olga)

    answer = client.post(f"/players/{bea.pk}/rename/", {"name": "Ann"})

    assert (typed(answer, "name"), typed(answer, "username")) == ("Ann", "bea")
    refused = client.post(f"/players/{bea.pk}/account/", {"username": "nobody"})
    assert (typed(refused, "name"), typed(refused, "username")) == ("Bea", "nobody")
    bea.refresh_from_db()
    assert bea.user.get_username() == "bea"


def test_a_correction_made_still_goes_back_to_the_page_and_says_so(client, league, olga):
    bea = services.register_player(league=league, name="Baa", by=olga)
    client.force_login(olga)

    answer = client.post(f"/players/{bea.pk}/rename/", {"name": "Bea"})

    assert answer.status_code == 302
    assert answer["Location"] == f"/players/{bea.pk}/#player-settings"
    page = client.get(answer["Location"])
    assert "The player is now called Bea." in page.text
    assert typed(page, "name") == "Bea" and not field_error(page, "name")
    for action in ("rename", "account"):  # the form's address opened with a GET
        back = client.get(f"/players/{bea.pk}/{action}/")
        assert (back.status_code, back["Location"]) == (302, f"/players/{bea.pk}/")
