"""The admin edits leagues, seasons and players, shows the standings read-only, and recomputes
the table when a season's standings options change."""

import re
from html.parser import HTMLParser

import pytest
from django.contrib.admin.sites import site
from django.urls import reverse

from tests.games.tampering import verify
from tournaments.leagues import services
from tournaments.leagues.models import GameResult, NightRow, RatingHistory, SeasonGame, StandingRow

from ..conftest import finish

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(season, organiser):
    for night_number in range(2):
        night = services.open_night(season=season)
        game = services.start_season_game(
            season=season,
            players=["Ann", "Bob"],
            night=night,
            created_by=organiser,
            sheet=True,
            target=50,
        )
        finish(game, winner=night_number, seats=2)
    return season


def test_every_tournaments_admin_page_opens(admin_client, played, organiser, django_user_model):
    django_user_model.objects.create_user("rita")
    services.name_referee(league=played.league, username="rita", by=organiser)
    season_game = SeasonGame.objects.first()
    pages = [
        reverse(f"admin:tournaments_{name}_changelist")
        for name in (
            "league",
            "organiser",
            "referee",
            "player",
            "season",
            "night",
            "seasongame",
            "gameresult",
            "nightrow",
            "standingrow",
            "ratinghistory",
        )
    ]
    pages += [
        reverse("admin:tournaments_league_change", args=[played.league_id]),
        reverse("admin:tournaments_season_change", args=[played.pk]),
        reverse("admin:tournaments_seasongame_change", args=[season_game.pk]),
    ]
    for page in pages:
        assert admin_client.get(page).status_code == 200, page


def test_nobody_edits_the_standings_in_the_admin(rf, admin_user, played):
    request = rf.get("/")
    request.user = admin_user
    for model in (GameResult, NightRow, StandingRow, RatingHistory):
        model_admin = site._registry[model]
        row = model.objects.first()
        assert model_admin.has_view_permission(request, row)
        assert not model_admin.has_add_permission(request)
        assert not model_admin.has_change_permission(request, row)
        assert not model_admin.has_delete_permission(request, row)


def test_a_season_game_is_not_deleted_in_the_admin_leaving_its_results(admin_client, played):
    season_game = SeasonGame.objects.first()
    results = GameResult.objects.filter(game_id=season_game.pk).count()

    page = admin_client.get(reverse("admin:tournaments_seasongame_delete", args=[season_game.pk]))
    posted = admin_client.post(
        reverse("admin:tournaments_seasongame_delete", args=[season_game.pk]), {"post": "yes"}
    )
    listed = admin_client.get(reverse("admin:tournaments_seasongame_changelist"))

    assert page.status_code == posted.status_code == 403
    assert "delete_selected" not in listed.content.decode()
    assert SeasonGame.objects.filter(pk=season_game.pk).exists()
    assert GameResult.objects.filter(game_id=season_game.pk).count() == results > 0
    assert "match their games" in verify()


def test_changing_the_best_nights_in_the_admin_recomputes_the_table(admin_client, played):
    assert StandingRow.objects.get(player__name="Ann").nights_counted == 2
    url = reverse("admin:tournaments_season_change", args=[played.pk])
    form = {
        "league": played.league_id,
        "name": played.name,
        "variant": "",
        "scoring": "",
        "target": "",
        "best_nights": "1",
        "attendance_points": "0",
        "nights-TOTAL_FORMS": "2",
        "nights-INITIAL_FORMS": "2",
        "nights-MIN_NUM_FORMS": "0",
        "nights-MAX_NUM_FORMS": "1000",
    }
    for i, night in enumerate(played.nights.order_by("number")):
        form |= {
            f"nights-{i}-id": night.pk,
            f"nights-{i}-season": played.pk,
            f"nights-{i}-number": night.number,
            f"nights-{i}-date": "",
        }

    response = admin_client.post(url, form)

    assert response.status_code == 302
    ann = StandingRow.objects.get(player__name="Ann")
    assert (ann.nights, ann.nights_counted, ann.games, ann.wins) == (2, 1, 1, 1)


class _ShownForm(HTMLParser):
    """The fields of an admin change page as a browser would send them back."""

    def __init__(self, html):
        super().__init__()
        self.data, self._select, self._text = {}, None, None
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        name = a.get("name")
        if tag == "input" and name:
            if a.get("type") in ("checkbox", "radio"):
                if "checked" in a:
                    self.data[name] = a.get("value", "on")
            elif a.get("type") not in ("submit", "button", "file"):
                self.data[name] = a.get("value", "")
        elif tag == "select" and name:
            self._select = name
            self.data.setdefault(name, "")
        elif tag == "option" and self._select and "selected" in a:
            self.data[self._select] = a.get("value", "")
        elif tag == "textarea" and name:
            self.data[name], self._text = "", name

    def handle_data(self, data):
        if self._text:
            self.data[self._text] += data

    def handle_endtag(self, tag):
        self._select = None if tag == "select" else self._select
        self._text = None if tag == "textarea" else self._text


def _shown(admin_client, url):
    return _ShownForm(admin_client.get(url).content.decode()).data


def test_a_seasons_options_changed_on_its_leagues_admin_page_recompute_its_table(
    admin_client, played
):
    assert StandingRow.objects.get(player__name="Ann").league_points == 1
    url = reverse("admin:tournaments_league_change", args=[played.league_id])
    form = _shown(admin_client, url)
    form["seasons-0-attendance_points"] = "3"

    assert admin_client.post(url, form).status_code == 302

    assert StandingRow.objects.get(player__name="Ann").league_points == 1 + 2 * 3


def test_a_leagues_scoring_changed_in_the_admin_recomputes_the_seasons_that_follow_it(
    admin_client, played
):
    assert played.scoring == ""  # (the season plays by the league's scoring)
    url = reverse("admin:tournaments_league_change", args=[played.league_id])
    form = _shown(admin_client, url)
    form["scoring"] = "none"

    assert admin_client.post(url, form).status_code == 302

    assert all(row.points == 0 for row in StandingRow.objects.filter(season=played))


def test_best_nights_of_zero_is_refused_in_the_admin_as_on_the_pages(admin_client, played):
    url = reverse("admin:tournaments_season_change", args=[played.pk])
    form = _shown(admin_client, url)
    form["best_nights"] = "0"

    response = admin_client.post(url, form)

    assert response.status_code == 200 and "best_nights must be a whole number of 1" in (
        response.content.decode()
    )
    played.refresh_from_db()
    assert played.best_nights is None


def test_a_leagues_house_rules_emptied_in_the_admin_are_none_not_a_server_error(
    admin_client, played
):
    url = reverse("admin:tournaments_league_change", args=[played.league_id])
    form = _shown(admin_client, url)
    form["options"] = ""

    assert admin_client.post(url, form).status_code == 302
    played.league.refresh_from_db()
    assert played.league.options == {}


# Moving a table to another night ------------------------------------------------------------


def _table_rows():
    return {
        (row.night.number, row.player.name): (row.games, row.wins)
        for row in NightRow.objects.select_related("night", "player")
    }


def _move(admin_client, season_game, night):
    url = reverse("admin:tournaments_seasongame_change", args=[season_game.pk])
    form = _shown(admin_client, url)
    form["night"] = str(night.pk)
    return admin_client.post(url, form)


def test_a_table_moved_to_another_night_in_the_admin_takes_its_result_with_it(
    admin_client, played, organiser
):
    third = services.open_night(season=played)
    won_by_ann = SeasonGame.objects.get(night__number=1)
    assert _table_rows() == {
        (1, "Ann"): (1, 1),
        (1, "Bob"): (1, 0),
        (2, "Ann"): (1, 0),
        (2, "Bob"): (1, 1),
    }

    response = _move(admin_client, won_by_ann, third)

    assert response.status_code == 302
    won_by_ann.refresh_from_db()
    assert won_by_ann.night == third
    assert set(GameResult.objects.filter(game=won_by_ann.game).values_list("night", flat=True)) == {
        third.pk
    }
    assert _table_rows() == {
        (2, "Ann"): (1, 0),
        (2, "Bob"): (1, 1),
        (3, "Ann"): (1, 1),
        (3, "Bob"): (1, 0),
    }
    assert StandingRow.objects.get(player__name="Ann").nights == 2
    assert "match their games" in verify()  # as a rebuild from the log would have it


def test_moving_a_table_counts_on_its_new_night_for_the_best_nights(admin_client, played):
    services.set_standings_options(season=played, best_nights=1, attendance_points=0)
    bob_won = SeasonGame.objects.get(night__number=2)
    ann_won = SeasonGame.objects.get(night__number=1)
    assert StandingRow.objects.get(player__name="Ann").wins == 1  # her best night counts

    # Both tables on night 1: that night is each player's only night, with both games.
    assert _move(admin_client, bob_won, ann_won.night).status_code == 302

    ann = StandingRow.objects.get(player__name="Ann")
    assert (ann.nights, ann.nights_counted, ann.games, ann.wins) == (1, 1, 2, 1)
    assert "match their games" in verify()


def test_a_table_is_not_moved_to_another_seasons_night(admin_client, played, organiser):
    spring = services.open_season(league=played.league, name="Spring", by=organiser)
    elsewhere = services.open_night(season=spring)
    season_game = SeasonGame.objects.get(night__number=1)
    before = _table_rows()

    response = _move(admin_client, season_game, elsewhere)

    assert response.status_code == 200
    assert "Choose a night of Autumn: a table stays in the season it was played for." in (
        response.content.decode()
    )
    season_game.refresh_from_db()
    assert season_game.night.number == 1 and _table_rows() == before


def test_a_table_still_playing_is_not_moved_to_a_closed_night(admin_client, played, organiser):
    night = services.open_night(season=played)
    playing = services.start_season_game(
        season=played, players=["Ann", "Cy"], night=night, created_by=organiser, sheet=True
    )
    closed = played.nights.get(number=1)
    services.close_night(night=closed)

    response = _move(admin_client, SeasonGame.objects.get(game=playing), closed)

    assert response.status_code == 200
    assert (
        "night 1 is closed: a table still being played moves only to an open night"
        in response.content.decode()
    )
    assert SeasonGame.objects.get(game=playing).night == night


def test_a_table_still_playing_is_not_moved_where_its_players_are_at_another_table(
    admin_client, played, organiser
):
    tonight = services.open_night(season=played)
    services.start_season_game(
        season=played, players=["Ann", "Cy"], night=tonight, created_by=organiser, sheet=True
    )
    other = services.open_night(season=played)
    moving = services.start_season_game(
        season=played, players=["Ann", "Dee"], night=other, created_by=organiser, sheet=True
    )

    response = _move(admin_client, SeasonGame.objects.get(game=moving), tonight)

    assert response.status_code == 200
    assert f"this table cannot move to night {tonight.number}: Ann (table 1) is still playing" in (
        response.content.decode()
    )
    assert SeasonGame.objects.get(game=moving).night == other


def test_the_admin_lists_a_seasons_tables_by_who_sat_there(admin_client, played):
    listed = admin_client.get(reverse("admin:tournaments_seasongame_changelist")).content.decode()
    index = admin_client.get(reverse("admin:index")).content.decode()

    assert listed.count("Ann, Bob") == 2  # both tables, by their players, not the game's id
    shown = re.sub(r"<[^>]*>", " ", listed.split("<tbody>")[1])  # the words, not the links
    assert "Ann, Bob" in shown and str(SeasonGame.objects.first().pk) not in shown
    assert "Rating histories" in index and "historys" not in index
