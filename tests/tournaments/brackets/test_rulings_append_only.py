"""A tournament's rulings are append-only, and the database itself enforces it, as it does for
the games' log: raw SQL cannot change or delete a ruling on either backend, nor empty the table
on PostgreSQL. What used to delete or change rulings is refused in words instead: a tournament
with rulings, or a user who made one, cannot be deleted."""

import pytest
from django.contrib.auth import get_user_model
from django.db import DatabaseError, connection, transaction
from django.db.models import ProtectedError

from tournaments.brackets import directing, rulings, services
from tournaments.brackets.models import Entry, Ruling, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def ruling(organiser):
    """Time called on the first table of a running tournament: a ruling by its organiser."""
    tournament = services.create_tournament(
        name="Ruled Cup",
        organiser=organiser,
        format="elimination",
        table_size=2,
        players=["Ann", "Bob", "Cid", "Dee"],
    )
    services.start_tournament(tournament_id=tournament.pk, by=organiser)
    directing.call_time(
        tournament_id=tournament.pk,
        round_number=1,
        table_number=1,
        reason="the round's time is up",
        by=organiser,
    )
    return Ruling.objects.get(tournament=tournament)


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


def test_an_update_of_a_ruling_through_raw_sql_is_refused(ruling):
    message = refused(
        "UPDATE tournaments_ruling SET reason = 'forged', players = '[]' WHERE id = %s",
        [ruling.pk],
    )

    assert "append-only" in message
    ruling.refresh_from_db()
    assert ruling.reason == "the round's time is up" and len(ruling.players) == 2


def test_a_delete_of_a_ruling_through_raw_sql_is_refused(ruling):
    message = refused("DELETE FROM tournaments_ruling WHERE id = %s", [ruling.pk])

    assert "append-only" in message
    assert Ruling.objects.filter(pk=ruling.pk).exists()


def test_the_orm_cannot_change_or_delete_a_ruling_either(ruling):
    ruling.reason = "forged"
    with pytest.raises(DatabaseError), transaction.atomic():
        ruling.save()
    with pytest.raises(DatabaseError), transaction.atomic():
        Ruling.objects.filter(pk=ruling.pk).delete()
    with pytest.raises(DatabaseError), transaction.atomic():
        Ruling.objects.filter(pk=ruling.pk).update(by=None)

    ruling.refresh_from_db()
    assert ruling.reason == "the round's time is up" and ruling.by is not None


def test_a_tournament_with_rulings_cannot_be_deleted(ruling):
    with pytest.raises(ProtectedError):
        ruling.tournament.delete()

    assert Tournament.objects.filter(pk=ruling.tournament_id).exists()
    assert Ruling.objects.filter(pk=ruling.pk).exists()


def test_a_tournament_without_rulings_is_deleted_as_before(organiser):
    tournament = services.create_tournament(
        name="Mistake", organiser=organiser, format="swiss", table_size=2, players=["Ann", "Bob"]
    )

    tournament.delete()

    assert not Tournament.objects.filter(pk=tournament.pk).exists()
    assert not Entry.objects.filter(tournament_id=tournament.pk).exists()


def test_a_user_who_made_a_ruling_cannot_be_deleted(ruling):
    # Rulings are made by the tournament's organiser (whom the tournament protects already);
    # a ruling by anyone else keeps its maker too, rather than being emptied of them.
    rita = get_user_model().objects.create_user("rita", password="pw")
    by_rita = rulings.record(
        ruling.tournament,
        round_number=1,
        kind=Ruling.Kind.REPAIRED,
        reason="seated again",
        by=rita,
    )

    with pytest.raises(ProtectedError):
        rita.delete()

    by_rita.refresh_from_db()
    assert by_rita.by == rita


@pytest.mark.postgres
def test_truncating_the_rulings_is_refused_on_postgresql(ruling):
    message = refused("TRUNCATE tournaments_ruling")

    assert "append-only" in message
    assert Ruling.objects.filter(pk=ruling.pk).exists()


@pytest.mark.postgres
def test_truncating_the_tournaments_with_cascade_does_not_take_the_rulings_with_them(ruling):
    message = refused("TRUNCATE tournaments_tournament CASCADE")

    assert "append-only" in message
    assert Ruling.objects.filter(pk=ruling.pk).exists()


@pytest.mark.postgres
def test_truncating_no_rulings_is_allowed_as_it_destroys_nothing():
    # Django's test runner flushes every table with one TRUNCATE after a transactional test.
    with connection.cursor() as cursor:
        cursor.execute("TRUNCATE tournaments_ruling")

    assert not Ruling.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_a_transactional_test_that_records_rulings_is_flushed_after_it(ruling):
    # The conftest empties the rulings (tournaments.brackets.testing) before Django's flush,
    # which the triggers would refuse: this test's teardown fails without it.
    assert Ruling.objects.filter(pk=ruling.pk).exists()
