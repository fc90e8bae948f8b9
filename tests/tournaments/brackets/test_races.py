"""On PostgreSQL, each thread with its own connection, started together: two timers of one turn
(a late task and the sweep, or the task sent twice) time the turn out once, and only the one
that did it says so."""

import threading

import pytest
from django.contrib.auth import get_user_model

from games import services
from tests.games.test_concurrency import run_threads
from tournaments.brackets import services as tournament_services
from tournaments.brackets.models import Table

from .test_turn_timers import at_a_turn

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def table():
    organiser = get_user_model().objects.create_user("olga")
    tournament = tournament_services.create_tournament(
        name="Clock Cup",
        organiser=organiser,
        format="swiss",
        table_size=3,
        rounds=1,
        scoring="none",
        players=["Ann", "Bob", "Cid"],
        turn_seconds=30,
    )
    tournament_services.start_tournament(tournament_id=tournament.pk, by=organiser)
    return Table.objects.get(round__tournament=tournament)


def both_past_their_checks(monkeypatch):
    """Neither timer counts its timeout before both have read the game at the turn's version
    and found it waiting (so both are sure they are the turn's timer)."""
    count, barrier = tournament_services._count_timeout, threading.Barrier(2)

    def count_together(**kwargs):
        barrier.wait(timeout=30)
        return count(**kwargs)

    monkeypatch.setattr(tournament_services, "_count_timeout", count_together)


def race_two_timers(game_id, version):
    said = [None, None]

    def timer(i):
        said[i] = tournament_services.time_out_turn(game_id=game_id, version=version)

    run_threads(2, timer)
    return said


def test_two_timers_of_a_turn_time_it_out_once_and_one_says_so(table, monkeypatch):
    both_past_their_checks(monkeypatch)
    for _ in range(4):  # turns of different seats, none timed out three times in a row
        state = at_a_turn(table.game_id)
        seat = state.pending[1]
        assert sorted(race_two_timers(table.game_id, state.version)) == [False, True]
        new = services.replay_events(game_id=table.game_id, after=state.version)
        assert {row.actor for row in new} == {"system"}
        assert len({row.batch for row in new if row.key == f"timeout:{state.version}"}) == 1
        table.refresh_from_db()
        assert table.timeouts[table.players[seat]][1] == state.version
    table.refresh_from_db()
    assert sum(count for count, _ in table.timeouts.values()) == 4
    assert table.absent == []


def test_two_timers_of_the_turn_that_ends_the_table_end_it_once_and_one_says_so(table, monkeypatch):
    from tournaments.brackets.models import Ruling

    both_past_their_checks(monkeypatch)
    monkeypatch.setattr(tournament_services, "ABSENT_AFTER", 1)
    state = at_a_turn(table.game_id)
    seat = state.pending[1]
    gone = table.players[(seat + 1) % 3]
    Table.objects.filter(pk=table.pk).update(absent=[gone])
    assert sorted(race_two_timers(table.game_id, state.version)) == [False, True]
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    assert table.absent == [gone, table.players[seat]]
    assert Ruling.objects.filter(kind=Ruling.Kind.NO_SHOW).count() == 1
    assert Ruling.objects.filter(kind=Ruling.Kind.ABSENT).count() == 1
