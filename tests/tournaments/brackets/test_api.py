"""The tournament API (API.md, "Tournaments") and page: create, start, the rounds with their
tables live as tables finish, the organiser reaching each table's seats as referee."""

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from tournaments.brackets import tasks
from tournaments.brackets.models import Tournament

from .support import play_game

pytestmark = pytest.mark.django_db

BODY = {
    "name": "Winter Open",
    "variant": "classic",
    "scoring": "none",
    "target": 500,
    "format": "elimination",
    "table_size": 4,
    "advance": 2,
    "rounds": 3,
    "final_table": True,
    "duplicate_deals": False,
    "players": ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"],
    "seeding": "manual",
}


@pytest.fixture
def client(organiser):
    api = APIClient()
    api.force_authenticate(organiser)
    return api


def test_create_start_and_follow_a_tournament(client):
    created = client.post("/api/tournaments/", BODY, format="json")
    assert created.status_code == 201, created.json()
    body = created.json()
    assert body["status"] == "draft" and body["rounds"] == [] and body["winner"] is None
    tid = body["id"]

    started = client.post(f"/api/tournaments/{tid}/start/")
    assert started.status_code == 200
    body = APIClient().get(f"/api/tournaments/{tid}/").json()
    assert body["status"] == "running"
    [first] = body["rounds"]
    assert first["number"] == 1 and len(first["tables"]) == 2
    table = first["tables"][0]
    assert set(table) >= {"game", "players", "status", "placings"}
    assert table["status"] == "playing" and table["placings"] == []
    assert len(body["standings"]) == 8

    for t in first["tables"]:
        play_game(t["game"])
        tasks.table_finished(t["game"])
    body = APIClient().get(f"/api/tournaments/{tid}/").json()
    assert [t["status"] for t in body["rounds"][0]["tables"]] == ["finished", "finished"]
    assert len(body["rounds"][0]["tables"][0]["placings"]) == 4
    final = body["rounds"][1]["tables"][0]
    play_game(final["game"])
    tasks.table_finished(final["game"])
    body = APIClient().get(f"/api/tournaments/{tid}/").json()
    assert body["status"] == "finished"
    assert body["winner"] == body["rounds"][1]["tables"][0]["placings"][0]
    assert body["standings"][0]["player"] == body["winner"]


def test_the_organiser_sees_every_seats_secret_as_referee(client):
    tid = client.post("/api/tournaments/", BODY, format="json").json()["id"]
    game = client.post(f"/api/tournaments/{tid}/start/").json()["rounds"][0]["tables"][0]["game"]
    seats = client.get(f"/api/games/{game}/").json()["seats"]
    assert all(seat.get("secret") for seat in seats)


def test_only_the_organiser_starts_it_and_only_once(client):
    tid = client.post("/api/tournaments/", BODY, format="json").json()["id"]
    stranger = APIClient()
    stranger.force_authenticate(get_user_model().objects.create_user("sam", password="pw"))
    assert stranger.post(f"/api/tournaments/{tid}/start/").status_code == 403
    assert APIClient().post(f"/api/tournaments/{tid}/start/").status_code in (401, 403)
    assert client.post(f"/api/tournaments/{tid}/start/").status_code == 200
    again = client.post(f"/api/tournaments/{tid}/start/")
    assert again.status_code == 409 and again.json()["error"] == "illegal"


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"table_size": 11}, "table_size"),
        ({"advance": 4}, "advance"),
        ({"format": "league"}, "format"),
        ({"variant": "nope"}, "variant"),
        ({"players": ["Ann", "Ann"]}, "players"),
    ],
)
def test_bad_settings_are_refused_naming_the_field(client, change, field):
    response = client.post("/api/tournaments/", {**BODY, **change}, format="json")
    assert response.status_code == 400
    assert response.json()["error"] == "invalid"
    assert field in str(response.json()["detail"])


def test_a_tournament_sent_twice_is_created_once_until_it_is_over(client):
    first = client.post("/api/tournaments/", BODY, format="json")

    again = client.post("/api/tournaments/", {**BODY, "name": "winter open"}, format="json")

    assert again.status_code == 400
    assert "already run a tournament called “winter open”" in str(again.json()["detail"]["name"])
    assert Tournament.objects.count() == 1
    Tournament.objects.filter(pk=first.json()["id"]).update(status=Tournament.Status.FINISHED)
    assert client.post("/api/tournaments/", BODY, format="json").status_code == 201  # next year's


def test_with_no_scoring_the_target_may_be_left_out_as_on_the_page(client):
    body = {k: v for k, v in BODY.items() if k != "target"}

    created = client.post("/api/tournaments/", body, format="json")

    assert created.status_code == 201, created.json()
    assert created.json()["settings"]["scoring"] == "none"


def test_late_entries_and_drops(client):
    tid = client.post("/api/tournaments/", BODY, format="json").json()["id"]
    added = client.post(f"/api/tournaments/{tid}/entries/", {"player": "Ivy"}, format="json")
    assert added.status_code == 201
    assert [e["player"] for e in added.json()["entries"]][-1] == "Ivy"
    dropped = client.post(f"/api/tournaments/{tid}/entries/drop/", {"player": "Ann"}, format="json")
    assert dropped.status_code == 200
    assert [e["dropped"] for e in dropped.json()["entries"] if e["player"] == "Ann"] == [True]
    assert client.get("/api/tournaments/999/").status_code == 404


def test_the_page_shows_the_rounds_and_polls_while_running(client):
    tid = client.post("/api/tournaments/", BODY, format="json").json()["id"]
    body = client.post(f"/api/tournaments/{tid}/start/").json()
    page = client.get(f"/tournaments/{tid}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Round 1" in html and "hx-trigger" in html and "Standings" in html
    assert all(name in html for name in BODY["players"])
    fragment = client.get(f"/tournaments/{tid}/", HTTP_HX_REQUEST="true")
    assert fragment.status_code == 200
    assert "<html" not in fragment.content.decode() and 'id="live"' in fragment.content.decode()
    for rnd in range(2):
        tables = body["rounds"][rnd]["tables"]
        for t in tables:
            play_game(t["game"])
            tasks.table_finished(t["game"])
        body = client.get(f"/api/tournaments/{tid}/").json()
    done = client.get(f"/tournaments/{tid}/", HTTP_HX_REQUEST="true")
    assert done.status_code == 286  # stop polling
    assert "Winner" in done.content.decode()
