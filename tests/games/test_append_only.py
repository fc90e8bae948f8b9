"""The event log is append-only, and the database itself enforces it: raw SQL cannot change or
delete an event on either backend, nor truncate the log on PostgreSQL."""

import pytest
from django.db import DatabaseError, connection, transaction
from django.db.models import ProtectedError

from games.models import Event, Game


@pytest.fixture
def event(db):
    game = Game.objects.create(variant="classic", scoring="standard", target=500, version=1)
    return Event.objects.create(
        game=game,
        version=1,
        batch=1,
        type="game_started",
        data={"players": 2},
        actor="system",
        hash="a" * 64,
        prev_hash="0" * 64,
    )


def refused(sql: str, params=()) -> str:
    """Run ``sql``, expect the database to refuse it, and return its message."""
    if connection.vendor == "postgresql":
        # Check the fixture's deferred foreign keys now: PostgreSQL refuses to truncate a
        # table with pending trigger events, which would hide what the test is about.
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    with pytest.raises(DatabaseError) as excinfo, transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
    return str(excinfo.value)


def test_an_update_of_an_event_through_raw_sql_is_refused(event):
    message = refused("UPDATE games_event SET type = 'forged' WHERE position = %s", [event.pk])

    assert "append-only" in message
    event.refresh_from_db()
    assert event.type == "game_started"


def test_a_delete_of_an_event_through_raw_sql_is_refused(event):
    message = refused("DELETE FROM games_event WHERE position = %s", [event.pk])

    assert "append-only" in message
    assert Event.objects.filter(pk=event.pk).exists()


def test_the_orm_cannot_change_or_delete_an_event_either(event):
    event.data = {"players": 3}
    with pytest.raises(DatabaseError), transaction.atomic():
        event.save()
    with pytest.raises(DatabaseError), transaction.atomic():
        Event.objects.filter(pk=event.pk).delete()

    event.refresh_from_db()
    assert event.data == {"players": 2}


def test_a_game_with_events_cannot_be_deleted(event):
    with pytest.raises(ProtectedError):
        event.game.delete()


@pytest.mark.postgres
def test_truncating_the_log_is_refused_on_postgresql(event):
    message = refused("TRUNCATE games_event")

    assert "append-only" in message
    assert Event.objects.filter(pk=event.pk).exists()


@pytest.mark.postgres
def test_truncating_the_games_with_cascade_does_not_take_the_log_with_them(event):
    message = refused("TRUNCATE games_game CASCADE")

    assert "append-only" in message
    assert Event.objects.filter(pk=event.pk).exists()


@pytest.mark.postgres
@pytest.mark.django_db
def test_truncating_an_empty_log_is_allowed_as_it_destroys_nothing():
    # Django's test runner flushes every table with one TRUNCATE after a transactional test.
    with connection.cursor() as cursor:
        cursor.execute("TRUNCATE games_event")

    assert not Event.objects.exists()
