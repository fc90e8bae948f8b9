"""The sweeper alone, with no broker and no task ever sent: it records every table whose game is
over, seats the round they complete exactly once however often it runs, finishes the tournament,
and fires the turn timers whose time ran out (tournaments.brackets.sweeper)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from games import registry
from games import services as game_services
from games.models import Game
from tournaments.brackets import listeners, services, sweeper, tasks
from tournaments.brackets.models import Round, Table, Tournament

from .support import cup_of_eight, play_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def lost_tasks(monkeypatch):
    """Games end and nothing is enqueued, as when the broker was down at every table's end."""
    monkeypatch.setattr(
        registry,
        "on_game_event",
        [f for f in registry.on_game_event if f is not listeners.after_append],
    )


def cup(organiser, **options):
    return cup_of_eight(organiser, "Sweep Cup", **options)


def test_beat_sends_both_sweeps_every_sweep_seconds():
    schedule = settings.CELERY_BEAT_SCHEDULE
    assert {entry["task"] for entry in schedule.values()} == {
        "tournaments.tasks.sweep_rounds",
        "tournaments.tasks.sweep_turn_timers",
    }
    assert {entry["schedule"] for entry in schedule.values()} == {float(settings.SWEEP_SECONDS)}
    assert settings.SWEEP_SECONDS == 30  # the shipped interval: the bound docs/TOURNAMENTS.md gives
    assert settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"] > 600  # longest retry


def test_the_sweeper_alone_advances_a_round_whose_tasks_were_lost(organiser, lost_tasks):
    tournament = cup(organiser)
    tables = list(Table.objects.filter(round__tournament=tournament))
    play_game(tables[0].game_id)
    assert sweeper.owed_tournaments() == [tournament.pk]
    tasks.sweep_rounds()  # one table over: recorded, the round not complete
    assert Table.objects.get(pk=tables[0].pk).status == Table.Status.FINISHED
    assert Round.objects.filter(tournament=tournament).count() == 1
    assert sweeper.owed_tournaments() == []

    play_game(tables[1].game_id)
    games_before = Game.objects.count()
    for _ in range(3):  # as often as beat likes: seated once
        tasks.sweep_rounds()
    assert Round.objects.filter(tournament=tournament).count() == 2
    assert Game.objects.count() == games_before + 1
    assert Round.objects.get(tournament=tournament, number=1).status == Round.Status.FINISHED
    assert sweeper.owed_tournaments() == []

    final = Table.objects.get(round__tournament=tournament, round__number=2)
    play_game(final.game_id)
    tasks.sweep_rounds()
    tasks.sweep_rounds()
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert tournament.winner == Table.objects.get(pk=final.pk).placings[0]
    assert sweeper.owed_tournaments() == []


def test_the_sweeper_and_a_late_task_seat_the_round_once(organiser, lost_tasks):
    tournament = cup(organiser)
    tables = list(Table.objects.filter(round__tournament=tournament))
    for table in tables:
        play_game(table.game_id)
    sweeper.sweep_rounds()
    for table in tables:  # the tasks arrive after all
        tasks.table_finished(str(table.game_id))
    assert Round.objects.filter(tournament=tournament).count() == 2


def test_the_sweeper_fires_a_turn_timer_that_never_came(organiser, lost_tasks):
    tournament = cup(organiser, turn_seconds=30)
    table = Table.objects.filter(round__tournament=tournament).first()
    state = game_services.load_game(game_id=table.game_id)
    assert sweeper.overdue_turns() == []  # the time has not run out
    later = timezone.now() + timedelta(seconds=31)
    assert (str(table.game_id), state.version) in sweeper.overdue_turns(later)
    fired = sweeper.sweep_turn_timers(later)
    assert fired >= 1
    after = game_services.load_game(game_id=table.game_id)
    assert after.version > state.version
    new = game_services.replay_events(game_id=table.game_id, after=state.version)
    assert new and all(row.actor == "system" for row in new)
    # The same sweep again at the same moment: every timer it fires is for a new version, and
    # a timer for a version already timed out appends nothing.
    assert services.time_out_turn(game_id=table.game_id, version=state.version) is False


@pytest.fixture
def with_a_broker():
    """Tasks are sent to a broker, not run in-process (the app's conf is restored after)."""
    conf = tasks.table_finished.app.conf
    before = conf.task_always_eager
    conf.task_always_eager = False
    yield
    conf.task_always_eager = before


def test_a_failed_enqueue_is_a_warning_and_loses_nothing(
    organiser, caplog, monkeypatch, django_capture_on_commit_callbacks, with_a_broker
):
    tournament = cup(organiser)
    tables = list(Table.objects.filter(round__tournament=tournament))

    def broker_down(*args, **kwargs):
        raise ConnectionRefusedError(111, "Connection refused")

    monkeypatch.setattr(tasks.table_finished, "delay", broker_down)
    for table in tables:
        with django_capture_on_commit_callbacks(execute=True):
            play_game(table.game_id)  # the command still succeeds
    warnings = [r for r in caplog.records if "could not enqueue the result" in r.getMessage()]
    assert len(warnings) == 2 and {r.levelname for r in warnings} == {"WARNING"}
    assert Round.objects.filter(tournament=tournament).count() == 1
    sweeper.sweep_rounds()
    assert Round.objects.filter(tournament=tournament).count() == 2
