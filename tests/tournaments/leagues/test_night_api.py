"""A league night through the API: open it, seat a digital table and a score sheet, follow
them, close the night and read how the standings moved; with API.md's error shapes."""

import pytest
from rest_framework.test import APIClient

from games.models import Event
from tests.tournaments.leagues.test_api import client_for, play_out, record
from tournaments.leagues.models import Night, SeasonGame

pytestmark = pytest.mark.django_db


@pytest.fixture
def olga():
    return client_for("olga")


@pytest.fixture
def season(olga):
    league = olga.post("/api/leagues/", {"name": "Thursday Club"}, format="json").json()
    response = olga.post(
        f"/api/leagues/{league['id']}/seasons/",
        {"name": "Autumn 2026", "target": 100, "attendance_points": 2},
        format="json",
    )
    assert response.status_code == 201, response.content
    return response.json()


@pytest.fixture
def night(olga, season):
    response = olga.post(
        f"/api/seasons/{season['id']}/nights/", {"date": "2026-11-26"}, format="json"
    )
    assert response.status_code == 201, response.content
    return response.json()


def seat(client, night, players, sheet=False):
    return client.post(
        f"/api/nights/{night['id']}/tables/", {"players": players, "sheet": sheet}, format="json"
    )


def test_an_organiser_opens_numbered_nights(olga, season, night):
    assert (night["number"], night["date"], night["closed"]) == (1, "2026-11-26", False)
    assert night["season"] == {"id": season["id"], "name": "Autumn 2026"}
    assert night["tables"] == [] and night["playing"] == 0
    second = olga.post(f"/api/seasons/{season['id']}/nights/", {}, format="json")
    assert second.status_code == 201 and second.json()["number"] == 2
    assert second.json()["date"] is not None  # today by default


def test_a_night_opened_again_on_its_date_answers_the_open_night(olga, season, night):
    again = olga.post(f"/api/seasons/{season['id']}/nights/", {"date": "2026-11-26"}, format="json")

    assert again.status_code == 200 and again.json()["id"] == night["id"]
    assert Night.objects.count() == 1
    olga.post(f"/api/nights/{night['id']}/close/", {}, format="json")
    after = olga.post(f"/api/seasons/{season['id']}/nights/", {"date": "2026-11-26"}, format="json")
    assert after.status_code == 201 and after.json()["number"] == 2


def test_a_whole_night_seats_a_digital_table_and_a_sheet_closes_and_moves_the_standings(
    olga, night
):
    digital = seat(olga, night, ["Ann", "Bob"])
    assert digital.status_code == 201, digital.content
    table = digital.json()
    assert [s["player"] for s in table["seats"]] == ["Ann", "Bob"]
    assert all(s["link"].endswith(f"/seat/{s['secret']}/") for s in table["seats"])
    assert table["lobby"].endswith(f"/table/{table['id']}/lobby/")
    # The organiser referees it: every hand and seat is theirs to see.
    assert olga.get(f"/api/games/{table['id']}/").json()["seats"][1]["hand"]

    paper = seat(olga, night, ["Cy", "Dee", "Eve"], sheet=True).json()
    play_out(olga, paper, 0, {"1": 40, "2": 70})

    followed = APIClient().get(f"/api/nights/{night['id']}/").json()
    assert [(t["number"], t["sheet"], t["finished"]) for t in followed["tables"]] == [
        (1, False, False),
        (2, True, True),
    ]
    assert followed["playing"] == 1
    assert "secret" not in str(followed)  # a night's page is public: no seat's link in it
    sheet_seats = followed["tables"][1]["seats"]
    assert [s["player"] for s in sheet_seats] == ["Cy", "Dee", "Eve"]
    assert sheet_seats[0]["rank"] == 1 and sheet_seats[0]["won"]
    assert all(s["rank"] > 1 and not s["won"] for s in sheet_seats[1:])

    refused = olga.post(f"/api/nights/{night['id']}/close/", {}, format="json")
    assert refused.status_code == 409
    assert "still has tables playing (table 1)" in refused.json()["detail"]
    assert Night.objects.get(pk=night["id"]).closed_at is None

    closed = olga.post(f"/api/nights/{night['id']}/close/", {"leave_playing": True}, format="json")
    assert closed.status_code == 200, closed.content
    body = closed.json()
    assert body["closed"] and body["closed_at"]
    moves = {m["player"]: m for m in body["moves"]}
    assert moves["Cy"]["rank"] == 1 and moves["Cy"]["before"] is None
    # A closed night seats nothing more.
    late = seat(olga, night, ["Fay", "Gus"])
    assert late.status_code == 409 and "closed" in late.json()["detail"]
    assert SeasonGame.objects.filter(night_id=night["id"]).count() == 2


def test_a_player_still_playing_tonight_is_not_seated_twice(olga, night):
    assert seat(olga, night, ["Ann", "Bob"]).status_code == 201
    before = Event.objects.count()

    response = seat(olga, night, ["Cy", "ann"])

    assert response.status_code == 409
    assert response.json()["detail"].startswith("Ann (table 1) is still playing tonight")
    assert Event.objects.count() == before


def test_a_season_game_through_the_games_api_is_not_seated_beside_a_table_still_playing(
    olga, season
):
    # POST /api/games/ with a season seats tonight's table, refused the same way.
    first = olga.post(
        "/api/games/", {"season": season["id"], "players": ["Ann", "Bob"]}, format="json"
    )
    assert first.status_code == 201, first.content
    before = Event.objects.count()

    again = olga.post(
        "/api/games/", {"season": season["id"], "players": ["Cy", "Ann"]}, format="json"
    )

    assert again.status_code == 409, again.content
    assert again.json()["detail"].startswith("Ann (table 1) is still playing tonight")
    assert Event.objects.count() == before


def test_only_an_organiser_seats_tables_and_closes_the_night(night):
    mallory = client_for("mallory")

    assert seat(mallory, night, ["Ann", "Bob"]).status_code == 403
    assert mallory.post(f"/api/nights/{night['id']}/close/", {}, format="json").status_code == 403
    assert seat(APIClient(), night, ["Ann", "Bob"]).status_code == 401
    assert SeasonGame.objects.filter(night_id=night["id"]).count() == 0


def test_only_an_organiser_opens_a_night(season):
    response = client_for("mallory").post(f"/api/seasons/{season['id']}/nights/", {}, format="json")
    assert response.status_code == 403
    assert not Night.objects.filter(season_id=season["id"]).exists()


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"players": ["Ann"]}, "players"),
        ({"players": "Ann, Bob"}, "players"),
        ({"players": ["Ann", "Bob"], "sheet": "yes"}, "sheet"),
        ({"players": ["Ann", "Bob"], "seed": 4}, "seed"),
        ({}, "players"),
    ],
)
def test_a_malformed_table_is_refused_naming_the_field(olga, night, body, field):
    response = olga.post(f"/api/nights/{night['id']}/tables/", body, format="json")

    assert response.status_code == 400
    assert field in response.json()["detail"]
    assert SeasonGame.objects.count() == 0


def test_a_malformed_night_or_closing_is_refused_naming_the_field(olga, season, night):
    bad_date = olga.post(f"/api/seasons/{season['id']}/nights/", {"date": "soon"}, format="json")
    assert bad_date.status_code == 400 and "date" in bad_date.json()["detail"]
    bad_close = olga.post(
        f"/api/nights/{night['id']}/close/", {"leave_playing": "no"}, format="json"
    )
    assert bad_close.status_code == 400 and "leave_playing" in bad_close.json()["detail"]


def test_unknown_nights_and_seasons_are_404(olga):
    assert APIClient().get("/api/nights/999999/").status_code == 404
    assert olga.post("/api/nights/999999/close/", {}, format="json").status_code == 404
    assert seat(olga, {"id": 999999}, ["Ann", "Bob"]).status_code == 404
    assert olga.post("/api/seasons/999999/nights/", {}, format="json").status_code == 404


def test_a_score_sheet_hand_recorded_through_the_night_counts(olga, night):
    paper = seat(olga, night, ["Ann", "Bob"], sheet=True).json()

    assert record(olga, paper, {"out": 1, "points": {"0": 12}}).status_code == 201
    table = APIClient().get(f"/api/nights/{night['id']}/").json()["tables"][0]
    assert [s["total"] for s in table["seats"]] == [0, 12]


def test_a_table_seated_by_mistake_is_taken_off_through_the_api(olga, night):
    game = seat(olga, night, ["Ann", "Bob"]).json()["id"]
    url = f"/api/nights/{night['id']}/tables/{game}/take-off/"
    mallory = client_for("mallory")

    assert mallory.post(url, {"reason": "x"}, format="json").status_code == 403
    assert olga.post(url, {}, format="json").status_code == 400
    assert olga.post(url, {"reason": "x" * 301}, format="json").status_code == 400
    answer = olga.post(url, {"reason": "wrong players"}, format="json")

    assert answer.status_code == 200, answer.content
    assert answer.json()["tables"] == []
    assert not SeasonGame.objects.filter(game_id=game).exists()
    again = olga.post(url, {"reason": "wrong players"}, format="json")
    assert again.status_code == 404
