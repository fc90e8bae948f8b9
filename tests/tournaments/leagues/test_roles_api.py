"""Organisers and referees through the API: a league's and a tournament's, named by the name
a person signs in with, and taken away; with API.md's error shapes."""

import pytest
from rest_framework.test import APIClient

from games.models import GameReferee
from tests.tournaments.leagues.test_api import client_for
from tournaments.brackets import services as tournament_services
from tournaments.leagues import services
from tournaments.leagues.models import Organiser, Referee

pytestmark = pytest.mark.django_db


@pytest.fixture
def olga():
    return client_for("olga")


@pytest.fixture
def rita():
    return client_for("rita")


@pytest.fixture
def league(olga):
    return olga.post("/api/leagues/", {"name": "Thursday Club"}, format="json").json()


def roles(league):
    return f"/api/leagues/{league['id']}/roles/"


def names(body, kind):
    return [person["name"] for person in body[kind]]


def test_an_organiser_names_a_referee_who_then_referees_the_leagues_games(olga, rita, league):
    response = olga.post(roles(league), {"username": "rita", "role": "referee"}, format="json")

    assert response.status_code == 201, response.content
    assert names(response.json(), "referees") == ["rita"]
    assert names(APIClient().get(roles(league)).json(), "organisers") == ["olga"]
    season = olga.post(
        f"/api/leagues/{league['id']}/seasons/", {"name": "Autumn"}, format="json"
    ).json()
    game = olga.post(
        "/api/games/", {"players": ["Ann", "Bob"], "season": season["id"]}, format="json"
    ).json()
    # Rita, a named referee, sees every hand of a season game.
    seen = rita.get(f"/api/games/{game['id']}/").json()
    assert all("hand" in seat for seat in seen["seats"])
    assert not GameReferee.objects.filter(game_id=game["id"], user=rita.user).exists()


def test_a_named_organiser_runs_the_league_and_the_last_one_stays(olga, rita, league):
    body = olga.post(roles(league), {"username": "rita", "role": "organiser"}, format="json")
    assert body.status_code == 201
    assert services.is_organiser(rita.user, league["id"])
    rita_role = next(p["id"] for p in body.json()["organisers"] if p["name"] == "rita")
    olga_role = next(p["id"] for p in body.json()["organisers"] if p["name"] == "olga")

    assert rita.delete(f"{roles(league)}organiser/{olga_role}/").status_code == 200
    last = rita.delete(f"{roles(league)}organiser/{rita_role}/")

    assert last.status_code == 409
    assert "needs at least one organiser" in last.json()["detail"]
    assert list(
        Organiser.objects.filter(league_id=league["id"]).values_list("user__username", flat=True)
    ) == ["rita"]


def test_taking_a_referee_away(olga, rita, league):
    named = olga.post(roles(league), {"username": "rita"}, format="json").json()
    role = named["referees"][0]["id"]

    response = olga.delete(f"{roles(league)}referee/{role}/")

    assert response.status_code == 200 and response.json()["referees"] == []
    assert olga.delete(f"{roles(league)}referee/{role}/").status_code == 404
    assert olga.delete(f"{roles(league)}boss/{role}/").status_code == 404


def test_only_an_organiser_names_or_removes(olga, rita, league):
    mallory = client_for("mallory")

    assert mallory.post(roles(league), {"username": "mallory"}, format="json").status_code == 403
    assert APIClient().post(roles(league), {"username": "x"}, format="json").status_code == 401
    organiser = Organiser.objects.get(league_id=league["id"])
    assert mallory.delete(f"{roles(league)}organiser/{organiser.pk}/").status_code == 403
    assert Referee.objects.count() == 0 and Organiser.objects.count() == 1


@pytest.mark.parametrize(
    ("body", "field", "words"),
    [
        ({"username": "nobody"}, "username", "nobody signs in as 'nobody'"),
        ({"username": ""}, "username", ""),
        ({"username": "rita", "role": "boss"}, "role", ""),
        ({"username": "rita", "extra": 1}, "extra", ""),
        ({}, "username", ""),
    ],
)
def test_a_wrong_naming_is_refused_naming_the_field(olga, rita, league, body, field, words):
    response = olga.post(roles(league), body, format="json")

    assert response.status_code == 400
    assert field in response.json()["detail"]
    assert words in str(response.json()["detail"])
    assert Referee.objects.count() == 0


def test_unknown_leagues_and_tournaments_are_404(olga):
    assert APIClient().get("/api/leagues/999999/roles/").status_code == 404
    assert (
        olga.post("/api/leagues/999999/roles/", {"username": "olga"}, format="json").status_code
        == 404
    )
    assert APIClient().get("/api/tournaments/999999/referees/").status_code == 404


def test_a_tournaments_organiser_names_and_removes_its_referees(olga, rita):
    tournament = tournament_services.create_tournament(
        name="Winter Open", organiser=olga.user, format="swiss", table_size=2, players=["A", "B"]
    )
    url = f"/api/tournaments/{tournament.pk}/referees/"

    assert client_for("mallory").post(url, {"username": "rita"}, format="json").status_code == 403
    named = olga.post(url, {"username": "rita"}, format="json")
    assert named.status_code == 201, named.content
    body = APIClient().get(url).json()
    assert body["organiser"] == "olga" and names(body, "referees") == ["rita"]
    role = body["referees"][0]["id"]
    assert rita.delete(f"{url}{role}/").status_code == 403  # a referee cannot unname itself
    assert olga.delete(f"{url}{role}/").json()["referees"] == []
