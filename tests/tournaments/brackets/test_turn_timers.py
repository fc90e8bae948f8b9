"""Turn timers and the games listener: a turn that runs out gets the default action (draw, then
pass) by the system; a late or repeated timer does nothing; the listener schedules a timer when
a turn begins and reports a table's end (tasks called in-process, the enqueueing mocked)."""

import pytest

from games import services
from tournaments.brackets import services as tournament_services
from tournaments.brackets import tasks
from tournaments.brackets.models import Table

from .support import clock_cup, play_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def broker_mode():
    """Set whether tasks run in-process (no broker) for one test; the app's conf is restored."""
    conf = tasks.turn_timeout.app.conf
    before = conf.task_always_eager

    def set_eager(value):
        conf.task_always_eager = value

    yield set_eager
    conf.task_always_eager = before


@pytest.fixture
def table(organiser):
    return clock_cup(organiser)


def at_a_turn(game_id):
    """The game's state once it waits for a turn (its deal is drawn: the card turned up may
    first want a colour chosen)."""
    from rules import legal_commands

    state = services.load_game(game_id=game_id)
    while state.pending[0] != "turn":
        seat = state.pending[1]
        services.apply_command(
            game_id=game_id,
            command=legal_commands(state, seat)[0],
            actor=services.seat_actor(seat),
            expected_version=state.version,
        )
        state = services.load_game(game_id=game_id)
    return state


def test_a_turn_that_runs_out_draws_then_passes_as_the_system(table):
    state = at_a_turn(table.game_id)
    kind, seat = state.pending
    tasks.turn_timeout(str(table.game_id), state.version)
    after = services.load_game(game_id=table.game_id)
    new = services.replay_events(game_id=table.game_id, after=state.version)
    assert new and all(row.actor == "system" for row in new)
    assert new[0].type == "card_drawn" or "draw" in new[0].type
    assert len(after.hands[seat]) == len(state.hands[seat]) + 1
    assert after.pending[1] != seat  # the turn went on


def test_a_late_timer_does_nothing(table):
    state = services.load_game(game_id=table.game_id)
    tasks.turn_timeout(str(table.game_id), state.version)
    version = services.load_game(game_id=table.game_id).version
    tasks.turn_timeout(str(table.game_id), state.version)  # the same timer again
    tasks.turn_timeout(str(table.game_id), state.version - 1)  # an older one
    assert services.load_game(game_id=table.game_id).version == version


def test_a_timer_after_the_player_acted_does_nothing(table):
    state = services.load_game(game_id=table.game_id)
    seat = state.pending[1]
    from rules import legal_commands

    services.apply_command(
        game_id=table.game_id,
        command=legal_commands(state, seat)[0],
        actor=services.seat_actor(seat),
        expected_version=state.version,
    )
    version = services.load_game(game_id=table.game_id).version
    assert tournament_services.time_out_turn(game_id=table.game_id, version=state.version) is False
    assert services.load_game(game_id=table.game_id).version == version


def test_a_seat_that_acts_after_its_timer_looked_is_not_counted_or_ruled_absent(table, monkeypatch):
    """The seat plays between the timer's look at the game and its count (a moment later):
    the count, holding the game's row, finds the game moved on and counts nothing, even a
    seat one timeout from being ruled absent."""
    from rules import legal_commands

    monkeypatch.setattr(tournament_services, "ABSENT_AFTER", 1)
    state = at_a_turn(table.game_id)
    seat = state.pending[1]
    count = tournament_services._count_timeout

    def played_first(**kwargs):
        services.apply_command(
            game_id=table.game_id,
            command=legal_commands(state, seat)[0],
            actor=services.seat_actor(seat),
            expected_version=state.version,
        )
        return count(**kwargs)

    monkeypatch.setattr(tournament_services, "_count_timeout", played_first)

    assert tournament_services.time_out_turn(game_id=table.game_id, version=state.version) is False
    table.refresh_from_db()
    assert table.timeouts == {} and table.absent == []
    assert table.status == Table.Status.PLAYING
    new = services.replay_events(game_id=table.game_id, after=state.version)
    assert new and {row.actor for row in new} == {services.seat_actor(seat)}


def test_a_timer_on_a_finished_game_does_nothing(table):
    final = play_game(table.game_id)
    assert tournament_services.time_out_turn(game_id=table.game_id, version=final.version) is False


def test_the_listener_schedules_a_timer_when_a_turn_begins(
    table, monkeypatch, django_capture_on_commit_callbacks, broker_mode
):
    scheduled = []
    broker_mode(False)
    monkeypatch.setattr(
        tasks.turn_timeout,
        "apply_async",
        lambda args, countdown: scheduled.append((args, countdown)),
    )
    state = services.load_game(game_id=table.game_id)
    with django_capture_on_commit_callbacks(execute=True):
        tournament_services.time_out_turn(game_id=table.game_id, version=state.version)
    now = services.load_game(game_id=table.game_id).version
    assert scheduled and scheduled[-1] == ((str(table.game_id), now), 30)


def test_without_a_broker_no_timer_is_scheduled(
    table, monkeypatch, django_capture_on_commit_callbacks, broker_mode
):
    broker_mode(True)
    monkeypatch.setattr(
        tasks.turn_timeout, "apply_async", lambda *a, **k: pytest.fail("scheduled a timer")
    )
    state = services.load_game(game_id=table.game_id)
    with django_capture_on_commit_callbacks(execute=True):
        tournament_services.time_out_turn(game_id=table.game_id, version=state.version)


def test_the_listener_reports_a_finished_table(
    table, monkeypatch, django_capture_on_commit_callbacks
):
    reported = []
    monkeypatch.setattr(tasks.table_finished, "delay", reported.append)
    monkeypatch.setattr(tasks.turn_timeout, "apply_async", lambda *a, **k: None)
    with django_capture_on_commit_callbacks(execute=True):
        play_game(table.game_id)
    assert reported == [str(table.game_id)]


EDITION_WAITS = {
    "spin": {"spin", "almost_uno", "discard_number", "discard_colour", "war_discard"},
    "power_grab": {"block", "keep"},
}


@pytest.mark.parametrize("variant", sorted(EDITION_WAITS))
def test_a_player_gone_at_an_editions_own_moment_is_answered_for_and_play_goes_on(
    organiser, variant
):
    """Bots play a tournament table until it waits for one of the edition's own choices (the
    Spin wheel, a Power Grab block); that player's time runs out: the timer answers for them as
    the system, every choice of the moment in one timeout, and the game then waits for someone
    else, or for that player's next turn."""
    table, state = table_at_an_editions_moment(organiser, variant, EDITION_WAITS[variant])
    kind, seat = state.pending
    assert kind in EDITION_WAITS[variant]
    assert tournament_services.time_out_turn(game_id=table.game_id, version=state.version)
    after = services.load_game(game_id=table.game_id)
    new = services.replay_events(game_id=table.game_id, after=state.version)
    assert new and all(row.actor == "system" for row in new)
    assert after.pending[1] != seat or after.pending[0] in ("turn", "deal")
    table.refresh_from_db()
    assert table.timeouts[table.players[seat]][0] == 1  # one timeout, not one a choice
    assert table.absent == []


def test_the_database_gone_between_a_moments_choices_leaves_the_rest_to_the_next_timer(
    organiser, monkeypatch
):
    """The wheel lands on Almost UNO for a player who is gone: the timer spins for them and
    the database goes away before the cards to keep are chosen. The spin stands, the error
    reaches the task (which Celery retries, finding the game moved on), and the timer of the
    moment the game now waits at answers the rest."""
    from django.db import OperationalError

    from rules.variants.spin import variant as spin

    monkeypatch.setattr(spin, "spin_wheel", lambda s: "almost_uno")
    table, state = table_at_an_editions_moment(organiser, "spin", {"spin"})
    seat = state.pending[1]
    sent = []
    apply = services.apply_command

    def gone_after_one(**kwargs):
        if sent:
            raise OperationalError("server closed the connection unexpectedly")
        sent.append(kwargs["command"])
        return apply(**kwargs)

    monkeypatch.setattr(services, "apply_command", gone_after_one)
    with pytest.raises(OperationalError):
        tournament_services.time_out_turn(game_id=table.game_id, version=state.version)
    between = services.load_game(game_id=table.game_id)
    assert [c.type for c in sent] == ["spin"] and between.pending == ("almost_uno", seat)
    # A retry of the same task finds the game moved on; the next moment's timer answers it.
    monkeypatch.setattr(services, "apply_command", apply)
    assert not tournament_services.time_out_turn(game_id=table.game_id, version=state.version)
    assert tournament_services.time_out_turn(game_id=table.game_id, version=between.version)
    after = services.load_game(game_id=table.game_id)
    assert after.pending[1] != seat or after.pending[0] in ("turn", "deal")
    assert len(after.hands[seat]) <= 2


def test_a_turn_answered_by_two_timers_across_an_outage_counts_once(organiser, monkeypatch):
    """The timer spins for a player who is gone and the database goes away before the wheel's
    choice is made; the task's retry and the sweep answer the rest. That is one turn timed
    out, not two: with seats ruled absent after two, the player is not ruled absent for it.
    Their next turn that runs out is the second."""
    from django.db import OperationalError
    from django.utils import timezone

    from games.bots import next_bot_move
    from rules import legal_commands
    from rules.variants.spin import variant as spin
    from tournaments.brackets import sweeper

    monkeypatch.setattr(spin, "spin_wheel", lambda s: "almost_uno")
    monkeypatch.setattr(tournament_services, "ABSENT_AFTER", 2)
    table, state = table_at_an_editions_moment(organiser, "spin", {"spin"})
    seat = state.pending[1]
    player = table.players[seat]
    apply = services.apply_command
    sent = []

    def gone_after_one(**kwargs):
        if sent:
            raise OperationalError("server closed the connection unexpectedly")
        sent.append(kwargs["command"])
        return apply(**kwargs)

    monkeypatch.setattr(services, "apply_command", gone_after_one)
    with pytest.raises(OperationalError):
        tournament_services.time_out_turn(game_id=table.game_id, version=state.version)
    monkeypatch.setattr(services, "apply_command", apply)
    assert not tournament_services.time_out_turn(game_id=table.game_id, version=state.version)
    between = services.load_game(game_id=table.game_id)
    assert between.pending == ("almost_uno", seat)
    later = timezone.now() + timezone.timedelta(hours=1)
    assert sweeper.sweep_turn_timers(now=later) == 1
    assert services.load_game(game_id=table.game_id).version > between.version

    table.refresh_from_db()
    assert table.timeouts[player] == [1, between.version]
    assert table.absent == []

    # The others play their own turns; the player's next moment that runs out counts again.
    for _ in range(200):
        now = services.load_game(game_id=table.game_id)
        if now.finished or table.absent:
            break
        if now.pending[1] == seat:
            tournament_services.time_out_turn(game_id=table.game_id, version=now.version)
        else:
            move = next_bot_move(now, frozenset({0, 1, 2} - {seat}), str(table.game_id))
            who, command = move or (now.pending[1], legal_commands(now, now.pending[1])[0])
            services.apply_command(
                game_id=table.game_id,
                command=command,
                actor=services.seat_actor(who),
                expected_version=now.version,
            )
        table.refresh_from_db()
    assert table.absent == [player]


def table_at_an_editions_moment(organiser, variant, waits):
    """A tournament table of ``variant`` that bots played until it waits for one of
    ``waits``, and the game's state then (a table whose one hand ended first is replaced)."""
    from games.bots import next_bot_move

    for attempt in range(10):
        tournament = tournament_services.create_tournament(
            name=f"{variant} clock {attempt}",
            organiser=organiser,
            format="swiss",
            table_size=3,
            rounds=1,
            variant=variant,
            target=2000,
            players=["Ann", "Bob", "Cid"],
            turn_seconds=30,
        )
        tournament_services.start_tournament(tournament_id=tournament.pk, by=organiser)
        table = Table.objects.get(round__tournament=tournament)
        state = services.load_game(game_id=table.game_id)
        for _ in range(3000):
            if state.finished or state.pending[0] in waits:
                break
            seat, command = next_bot_move(state, frozenset(range(3)), str(table.game_id))
            services.apply_command(
                game_id=table.game_id,
                command=command,
                actor=services.seat_actor(seat),
                expected_version=state.version,
            )
            state = services.load_game(game_id=table.game_id)
        if not state.finished:
            return table, state
    raise AssertionError(f"no {variant} table came to one of {sorted(waits)}")


def test_a_tournament_table_is_never_dealt_from_a_deck_set_up(table, organiser):
    """A table counts for its tournament: the services refuse its referee a deal with a deck
    set up card by card (``games.registry.counts_checks``), as in a season's game."""
    from rules import IllegalCommand
    from rules.commands import DealHand
    from rules.variants import get_variant

    state = services.load_game(game_id=table.game_id)
    with pytest.raises(IllegalCommand, match="dealt a shuffled deck"):
        services.apply_command(
            game_id=table.game_id,
            command=DealHand(None, get_variant("classic").deck),
            actor=services.user_actor(organiser),
        )
    assert services.load_game(game_id=table.game_id).version == state.version


def another_timer_first(monkeypatch, game_id, version, answered):
    """The next timer of the turn at ``version`` to count its timeout first lets another timer
    of the same turn (the task and the sweep, or the task sent twice) run whole: it loses the
    race as when both read the game at ``version`` before either wrote. ``answered`` gets what
    the other one's call returned."""
    count = tournament_services._count_timeout

    def other_first(**kwargs):
        monkeypatch.setattr(tournament_services, "_count_timeout", count)
        answered.append(tournament_services.time_out_turn(game_id=game_id, version=version))
        return count(**kwargs)

    monkeypatch.setattr(tournament_services, "_count_timeout", other_first)


def test_a_timer_that_lost_the_race_to_another_of_its_turn_says_it_did_nothing(
    table, monkeypatch, caplog
):
    """A late task and the sweep both time out one turn: the one that did it says so, the
    other says it did nothing (the sweep counts no timer and warns of none fired late)."""
    from django.utils import timezone

    from tournaments.brackets import sweeper

    state = at_a_turn(table.game_id)
    seat = state.pending[1]
    answered = []
    another_timer_first(monkeypatch, table.game_id, state.version, answered)
    later = timezone.now() + timezone.timedelta(hours=1)
    assert sweeper.sweep_turn_timers(now=later) == 0
    assert answered == [True]
    assert not [r for r in caplog.records if "fired late" in r.getMessage()]
    new = services.replay_events(game_id=table.game_id, after=state.version)
    assert new and {row.actor for row in new} == {"system"}
    assert len({row.batch for row in new if row.key == f"timeout:{state.version}"}) == 1
    table.refresh_from_db()
    assert table.timeouts[table.players[seat]] == [1, state.version]


def test_a_timer_that_lost_the_race_to_the_one_that_ended_the_table_says_it_did_nothing(
    table, monkeypatch
):
    """The other timer's timeout ruled its seat absent and ended the table: the one behind it
    finds the table decided and says it did nothing."""
    monkeypatch.setattr(tournament_services, "ABSENT_AFTER", 1)
    state = at_a_turn(table.game_id)
    seat = state.pending[1]
    gone = table.players[(seat + 1) % 3]
    Table.objects.filter(pk=table.pk).update(absent=[gone])
    answered = []
    another_timer_first(monkeypatch, table.game_id, state.version, answered)
    assert tournament_services.time_out_turn(game_id=table.game_id, version=state.version) is False
    assert answered == [True]
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    assert table.absent == [gone, table.players[seat]]
    assert services.load_game(game_id=table.game_id).version == state.version
