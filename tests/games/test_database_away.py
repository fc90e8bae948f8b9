"""When the database goes away, the service says so and asks to be tried again: 503 with a
Retry-After, in JSON for the API and on the site's own page for pages, never a server error,
and nothing half recorded. Any other unexpected error is the site's 500 page.

The first tests make every query fail (on SQLite and PostgreSQL alike); the last one, on
PostgreSQL, reaches the real server through a proxy it closes and opens again."""

from __future__ import annotations

import logging

import pytest
from django.contrib.sessions.middleware import SessionMiddleware
from django.db import OperationalError, close_old_connections, connection
from django.db.backends.utils import CursorWrapper
from django.test import Client

from tests.games.api_support import arranged_deck, create_game, event_count, seats, url, user_client
from tests.proxy import Proxy

HANDS = {
    1: ["Y1", "R2", "R3", "R4", "R5", "R6", "R7"],
    2: ["G1", "G2", "G3", "G4", "G5", "G6", "G7"],
    0: ["B1", "B2", "B3", "B4", "B5", "B6", "B7"],
}
PLAY = {"type": "play", "card": "Y1", "key": "away-1"}


@pytest.fixture
def game():
    return create_game(user_client(), deck=arranged_deck(3, HANDS, starter="Y9"), dealer=0)


class Database:
    """``away()``: from now on every query fails as when PostgreSQL has closed the
    connection; ``back()``: queries work again."""

    def __init__(self, monkeypatch):
        self.monkeypatch = monkeypatch

    def away(self):
        def gone(*args, **kwargs):
            raise OperationalError("server closed the connection unexpectedly")

        self.monkeypatch.setattr(CursorWrapper, "execute", gone)
        self.monkeypatch.setattr(CursorWrapper, "executemany", gone)

    def back(self):
        self.monkeypatch.undo()


@pytest.fixture
def database(monkeypatch):
    return Database(monkeypatch)


def assert_unavailable_json(response):
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    body = response.json()
    assert body["error"] == "unavailable"
    assert "again" in body["detail"] and "Idempotency-Key" in body["detail"]


@pytest.mark.django_db(transaction=True)
def test_an_api_read_answers_503_with_retry_after_while_the_database_is_away(game, database):
    seat = seats(game)[1]
    database.away()

    assert_unavailable_json(seat.get(url(game)))
    assert_unavailable_json(seat.get(url(game, "events/")))

    database.back()
    assert seat.get(url(game)).status_code == 200


@pytest.mark.django_db(transaction=True)
def test_a_command_while_the_database_is_away_appends_nothing_and_goes_through_when_sent_again(
    game, database
):
    count = event_count(game)
    seat = seats(game)[1]
    database.away()

    assert_unavailable_json(seat.post(url(game, "commands/"), PLAY, format="json"))

    database.back()
    assert event_count(game) == count
    again = seat.post(url(game, "commands/"), PLAY, format="json")
    assert again.status_code == 201
    assert again.json()["events"][0]["data"]["card"] == "Y1"


@pytest.mark.django_db(transaction=True)
def test_a_page_while_the_database_is_away_is_the_back_in_a_moment_page(database, caplog):
    database.away()
    with caplog.at_level(logging.WARNING, logger="config.middleware"):
        response = Client().get("/leagues/")
    database.back()

    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    page = response.content.decode()
    assert "Back in a moment" in page and "load the page again" in page
    assert "Traceback" not in page and "OperationalError" not in page
    assert "the database did not answer (GET tournaments:league-list)" in caplog.text


def session_fails(monkeypatch, error: Exception) -> None:
    """A middleware that reaches the database before any view runs (the session's) raises
    ``error``."""

    def fails(self, request):
        raise error

    monkeypatch.setattr(SessionMiddleware, "process_request", fails)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("path, json", [("/leagues/", False), ("/api/leagues/", True)])
def test_the_database_going_away_outside_any_view_answers_503_too(monkeypatch, path, json):
    session_fails(monkeypatch, OperationalError("the connection was lost"))

    response = Client(raise_request_exception=False).get(path)

    if json:
        assert_unavailable_json(response)
    else:
        assert response.status_code == 503
        assert "Back in a moment" in response.content.decode()


def warnings_and_errors(caplog):
    return [(r.name, r.levelname) for r in caplog.records if r.levelno >= logging.WARNING]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("api", [False, True])
def test_a_request_turned_away_is_one_warning_in_the_log_not_also_an_error(
    game, database, caplog, api
):
    seat = seats(game)[1]
    database.away()
    with caplog.at_level(logging.INFO):
        response = seat.get(url(game)) if api else Client().get("/leagues/")
    database.back()

    assert response.status_code == 503
    # Django's own "Service Unavailable" error for the same request is left out.
    assert warnings_and_errors(caplog) == [("games.api" if api else "config.middleware", "WARNING")]


@pytest.mark.django_db(transaction=True)
def test_the_database_going_away_outside_any_view_is_one_warning_too(monkeypatch, caplog):
    session_fails(monkeypatch, OperationalError("the connection was lost"))
    with caplog.at_level(logging.INFO):
        response = Client(raise_request_exception=False).get("/leagues/")

    assert response.status_code == 503
    assert warnings_and_errors(caplog) == [("config.views", "WARNING")]
    assert "the database did not answer (GET before any view)" in caplog.text


@pytest.mark.django_db
def test_any_other_error_is_the_sites_500_page(monkeypatch, caplog):
    session_fails(monkeypatch, RuntimeError("a bug"))
    with caplog.at_level(logging.INFO):
        response = Client(raise_request_exception=False).get("/leagues/")

    assert response.status_code == 500
    page = response.content.decode()
    assert "Something went wrong on our side" in page and "a bug" not in page
    # A bug is still Django's error in the log, with its traceback.
    [error] = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert error.name == "django.request" and error.exc_info is not None


@pytest.fixture
def through_proxy():
    """This test's connection to PostgreSQL goes through a proxy the test can close."""
    settings = connection.settings_dict
    host, port = settings["HOST"] or "127.0.0.1", int(settings["PORT"] or 5432)
    proxy = Proxy((host, port))
    proxy.up()
    connection.close()
    settings["HOST"], settings["PORT"] = "127.0.0.1", str(proxy.port)
    try:
        yield proxy
    finally:
        proxy.up() if proxy.listener is None else None
        connection.close()
        settings["HOST"], settings["PORT"] = host, str(port)
        proxy.down()


def request(send, *args, **kwargs):
    """A request as the server makes it: Django drops a connection that failed at the start of
    the next request (``close_old_connections``), which the test client leaves to the test."""
    close_old_connections()
    return send(*args, **kwargs)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_with_postgresql_really_gone_the_api_answers_503_and_recovers_when_it_is_back(
    game, through_proxy, caplog
):
    seat = seats(game)[1]
    assert request(seat.get, url(game)).status_code == 200
    count = event_count(game)

    through_proxy.down()  # the open connection is cut, new ones are refused
    with caplog.at_level(logging.INFO):
        assert_unavailable_json(request(seat.get, url(game)))
        assert_unavailable_json(request(seat.post, url(game, "commands/"), PLAY, format="json"))
        assert request(Client().get, "/leagues/").status_code == 503
    # Each request turned away is one warning, none an error.
    assert [level for _, level in warnings_and_errors(caplog)] == ["WARNING"] * 3

    through_proxy.up()
    assert request(seat.get, url(game)).status_code == 200
    assert event_count(game) == count
    again = request(seat.post, url(game, "commands/"), PLAY, format="json")
    assert again.status_code == 201
    assert event_count(game) == count + len(again.json()["events"])
