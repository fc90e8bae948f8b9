"""On PostgreSQL, each thread with its own connection, started together: two timers of one turn
(a late task and the sweep, or the task sent twice) time the turn out once, and only the one
that did it says so; an award sent as the table's last card is played never decides a
table whose game is over; and a seat that plays as its timeout ends the table is never both
ruled absent and taken at its move."""

import threading
import time

import pytest
from django.contrib.auth import get_user_model

from games import services
from tests.games.test_concurrency import run_threads
from tournaments.brackets import services as tournament_services
from tournaments.brackets.models import Table

from .support import clock_cup
from .test_turn_timers import at_a_turn

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def table():
    organiser = get_user_model().objects.create_user("olga")
    return clock_cup(organiser)


def both_past_their_checks(monkeypatch):
    """Neither timer counts its timeout before both have read the game at the turn's version
    and found it waiting (so both are sure they are the turn's timer)."""
    count, barrier = tournament_services._count_timeout, threading.Barrier(2)

    def count_together(**kwargs):
        barrier.wait(timeout=30)
        return count(**kwargs)

    monkeypatch.setattr(tournament_services, "_count_timeout", count_together)


def held_open(monkeypatch, owner, name: str, seconds: float = 0.5) -> threading.Event:
    """``owner.name`` made to wait ``seconds`` before it goes on, whatever its caller holds
    (a row lock, an open transaction) held meanwhile; the event is set once it is called."""
    real, called = getattr(owner, name), threading.Event()

    def slowly(*args, **kwargs):
        called.set()
        time.sleep(seconds)
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, slowly)
    return called


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


def at_the_last_command(game_id):
    """Bots play the game until the next command ends it; returns (state, seat, command)."""
    from games.bots import next_bot_move
    from rules import step

    for _ in range(5000):
        state = services.load_game(game_id=game_id)
        seat, command = next_bot_move(state, frozenset(range(state.players)), str(game_id))
        if step(state, command)[0].finished:
            return state, seat, command
        services.apply_command(
            game_id=game_id,
            command=command,
            actor=services.seat_actor(seat),
            expected_version=state.version,
        )
    raise AssertionError("the game did not end")


def test_an_award_sent_as_the_last_card_is_played_is_refused_once_the_game_is_over(
    monkeypatch,
):
    """The director awards a table at the moment its last card is played: the card's
    append holds the game's row while it is written, and the award, waiting for that row,
    then finds the game over and is refused. The table is never decided by an award over a
    game that ended, and the game's result is recorded as any other."""
    from games import projections, state_cache
    from rules import IllegalCommand
    from tests.games.tampering import verify
    from tournaments.brackets import directing, tasks
    from tournaments.brackets.models import Ruling

    organiser = get_user_model().objects.create_user("olga")
    tournament = tournament_services.create_tournament(
        name="Last Card Cup",
        organiser=organiser,
        format="elimination",
        table_size=2,
        scoring="none",
        players=["Ann", "Bob", "Cid", "Dee"],
    )
    tournament_services.start_tournament(tournament_id=tournament.pk, by=organiser)
    table = Table.objects.get(round__tournament=tournament, number=1)
    state, seat, command = at_the_last_command(table.game_id)
    writing = held_open(monkeypatch, projections, "project")  # the game's row held meanwhile
    # The process forgets the log's end: the card takes the locked path, through ``project``.
    state_cache.forget_head(str(table.game_id))
    outcomes = [None, None]

    def send(i):
        if i == 0:
            services.apply_command(
                game_id=table.game_id,
                command=command,
                actor=services.seat_actor(seat),
                expected_version=state.version,
            )
            outcomes[0] = "played"
            return
        assert writing.wait(timeout=30)
        try:
            directing.award_result(
                tournament_id=tournament.pk,
                round_number=1,
                table_number=1,
                kind="forfeit",
                placings=list(reversed(table.players)),
                reason="left",
                by=organiser,
            )
        except IllegalCommand as refused:
            outcomes[1] = str(refused)
        else:
            outcomes[1] = "awarded"

    run_threads(2, send)

    assert outcomes[0] == "played"
    assert "game is over and its result is being recorded" in outcomes[1]
    assert not Ruling.objects.filter(tournament=tournament).exists()
    tasks.table_finished(str(table.game_id))
    table.refresh_from_db()
    assert table.decided_by == Table.DecidedBy.GAME
    verify()


def test_a_move_sent_while_the_timeout_that_ends_the_table_is_counted_waits_and_is_refused(
    table, monkeypatch
):
    """The seat's third timeout in a row is being counted (ruling it absent ends the table)
    when the seat plays: the count holds the game's row, so the move waits for it and then
    finds the table decided and the game closed. Without the row held, the move went in and
    the seat was ruled absent all the same, the table decided against a game that had
    taken the seat's move."""
    from rules import IllegalCommand, legal_commands
    from tournaments.brackets import rulings
    from tournaments.brackets.models import Ruling

    monkeypatch.setattr(tournament_services, "ABSENT_AFTER", 1)
    state = at_a_turn(table.game_id)
    seat = state.pending[1]
    gone = table.players[(seat + 1) % 3]
    Table.objects.filter(pk=table.pk).update(absent=[gone])
    counting = held_open(monkeypatch, rulings, "record")  # the count's transaction open
    outcomes = [None, None]

    def run(i):
        if i == 0:
            outcomes[0] = tournament_services.time_out_turn(
                game_id=table.game_id, version=state.version
            )
            return
        assert counting.wait(timeout=30)
        try:
            services.apply_command(
                game_id=table.game_id,
                command=legal_commands(state, seat)[0],
                actor=services.seat_actor(seat),
                expected_version=state.version,
            )
        except IllegalCommand as refused:
            outcomes[1] = str(refused)
        else:
            outcomes[1] = "played"

    run_threads(2, run)

    table.refresh_from_db()
    assert outcomes[0] is True and table.status == Table.Status.FINISHED
    assert table.absent == [gone, table.players[seat]]
    assert outcomes[1] != "played" and "takes no more moves" in outcomes[1]
    assert services.replay_events(game_id=table.game_id, after=state.version) == []
    assert Ruling.objects.filter(kind=Ruling.Kind.NO_SHOW).count() == 1
