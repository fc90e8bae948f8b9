"""The admin edits leagues, seasons and players, shows the standings read-only, and recomputes
the table when a season's standings options change."""

from html.parser import HTMLParser

import pytest
from django.contrib.admin.sites import site
from django.urls import reverse

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
