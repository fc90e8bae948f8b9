"""On PostgreSQL, outside a transaction, an append whose log end this process knows is one
self-committing statement (games/store.py, "The append in one statement"): the same rows,
hashes, header, table view and snapshots as the locked path, and the same refusals."""

import logging
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from games import registry, services, state_cache, store
from games.errors import Stale
from games.models import Event, Game, Snapshot, TableView
from rules import legal_commands, replay
from rules.engine import step

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def send_next(game_id, key=None):
    """The waiting seat's first legal command, sent as the API sends it."""
    state, version = store.load(game_id)
    seat = state.pending[1]
    return services.apply_command(
        game_id=game_id,
        command=legal_commands(state, seat)[0],
        actor=f"seat:{seat}",
        expected_version=version,
        key=key,
    )


def appends_in(queries):
    return [q["sql"] for q in queries if "INSERT INTO games_event" in q["sql"]]


def test_a_command_after_the_first_is_appended_by_one_statement(make_game):
    game = make_game()
    send_next(game.pk)  # the process learns the end of the log
    with CaptureQueriesContext(connection) as queries:
        result = send_next(game.pk, key="k-1")
    statements = appends_in(queries)
    assert len(statements) == 1 and statements[0].startswith("WITH moved AS (UPDATE games_game")
    assert not any(q["sql"].startswith(("SAVEPOINT", "BEGIN")) for q in queries)
    # What it wrote is what the locked path writes.
    rows = list(Event.objects.filter(game=game).order_by("version"))
    assert [r.position for r in result.events] == [r.position for r in rows[-len(result.events) :]]
    assert rows[-len(result.events)].key == "k-1"
    assert Game.objects.get(pk=game.pk).version == result.version == rows[-1].version
    view = TableView.objects.get(game=game)
    state = replay([r.to_rules_event() for r in rows])
    assert view.version == state.version and view.card_counts == [len(h) for h in state.hands]
    out = StringIO()
    call_command("verify_events", stdout=out)
    assert "every chain intact" in out.getvalue()


def test_snapshots_are_written_by_the_statement_as_the_policy_says(make_game):
    game = make_game()
    while store.load(game.pk)[1] < 230:
        send_next(game.pk)
    versions = list(Snapshot.objects.filter(game=game).values_list("version", flat=True))
    assert len(versions) >= 2 and all(v >= 100 for v in versions)
    store.forget_all()
    rows = Event.objects.filter(game=game).order_by("version")
    assert store.load(game.pk)[0] == replay([r.to_rules_event() for r in rows])


def test_a_writer_whose_view_of_the_log_is_old_appends_nothing_and_is_told_stale(make_game):
    game = make_game()
    send_next(game.pk)
    state, version = store.load(game.pk)
    old_head = state_cache.head(game.pk)  # what another process, not yet told, would know
    send_next(game.pk)  # this "other process" moves the game on
    moved_on = Game.objects.get(pk=game.pk).version
    state_cache.forget_head(game.pk)
    state_cache.remember_head(game.pk, old_head)
    seat = state.pending[1]
    new_state, events = step(state, legal_commands(state, seat)[0])
    before = Event.objects.count()
    with pytest.raises(Stale) as stale:
        store.append(game.pk, version, events, actor=f"seat:{seat}", state=new_state)
    assert stale.value.current_version == moved_on
    assert Event.objects.count() == before
    assert TableView.objects.get(game=game).version == moved_on


def test_a_key_used_before_appends_nothing_and_answers_with_the_first_append(make_game):
    game = make_game()
    send_next(game.pk)
    before, _ = store.load(game.pk)
    sender = before.pending[1]
    sent = legal_commands(before, sender)[0]
    first = send_next(game.pk, key="once")
    state, version = store.load(game.pk)
    seat = state.pending[1]
    new_state, events = step(state, legal_commands(state, seat)[0])
    with pytest.raises(store.KeyUsed) as used:
        store.append(game.pk, version, events, actor=f"seat:{sender}", key="once", state=new_state)
    assert used.value.version == first.events[0].version
    assert used.value.digest == first.events[0].command_digest != ""
    assert Game.objects.get(pk=game.pk).version == version
    # Through the services the retry of the same command gets the first answer.
    again = services.apply_command(
        game_id=game.pk,
        command=sent,
        actor=f"seat:{sender}",
        expected_version=version,
        key="once",
    )
    assert [r.position for r in again.events] == [r.position for r in first.events]


def test_a_retry_sent_to_a_process_that_saw_the_game_before_it_gets_the_first_answer(make_game):
    """A command sent again, naming the version it was sent at, after the game moved on, to a
    process whose caches still hold that version: it is decided there as it was the first
    time, the append finds the key used, and the first answer is given."""
    game = make_game()
    send_next(game.pk)
    state, version = store.load(game.pk)
    old_state, old_head = state_cache.state(game.pk), state_cache.head(game.pk)
    assert old_state.version == old_head.version == version
    seat = state.pending[1]
    command = legal_commands(state, seat)[0]
    first = services.apply_command(
        game_id=game.pk,
        command=command,
        actor=f"seat:{seat}",
        expected_version=version,
        key="lost-answer",
    )
    send_next(game.pk)  # the next seat moves on
    moved_on = Game.objects.get(pk=game.pk).version
    store.forget_all()
    state_cache.remember(game.pk, old_state)
    state_cache.remember_head(game.pk, old_head)

    with CaptureQueriesContext(connection) as queries:
        again = services.apply_command(
            game_id=game.pk,
            command=command,
            actor=f"seat:{seat}",
            expected_version=version,
            key="lost-answer",
        )

    assert appends_in(queries)[0].startswith("WITH moved AS (UPDATE games_game")
    assert (again.version, again.receipt) == (first.version, first.receipt)
    assert [r.position for r in again.events] == [r.position for r in first.events]
    assert Game.objects.get(pk=game.pk).version == moved_on
    assert Event.objects.filter(game=game).count() == moved_on


def test_inside_a_transaction_the_locked_path_is_taken_and_rolls_back_with_it(make_game):
    game = make_game()
    send_next(game.pk)
    version = store.load(game.pk)[1]
    with pytest.raises(RuntimeError), transaction.atomic():
        with CaptureQueriesContext(connection) as queries:
            send_next(game.pk)
        assert any("FOR UPDATE" in q["sql"] for q in queries)
        raise RuntimeError("roll back")
    assert Game.objects.get(pk=game.pk).version == version
    assert send_next(game.pk).events[0].version == version + 1


def test_a_listener_that_fails_is_logged_and_the_append_stands(make_game, caplog, monkeypatch):
    game = make_game()
    send_next(game.pk)

    def broken(game, rows):
        raise ValueError("listener broke")

    monkeypatch.setattr(registry, "on_game_event", [*registry.on_game_event, broken])
    with caplog.at_level(logging.ERROR, logger="games.store"):
        result = send_next(game.pk)
    assert Game.objects.get(pk=game.pk).version == result.version
    assert "listener broke" in caplog.text


def test_the_table_view_the_statement_kept_is_the_one_a_rebuild_gives(make_game):
    games = [make_game(seed=f"view-{i}") for i in range(3)]
    for game in games:
        for _ in range(25):
            send_next(game.pk)
    columns = ("version", "status", "hand_number", "turn", "top_card", "colour", "scores")
    kept = {v["game_id"]: v for v in TableView.objects.values("game_id", *columns, "card_counts")}
    call_command("rebuild_projections", stdout=StringIO(), stderr=StringIO())
    rebuilt = {
        v["game_id"]: v for v in TableView.objects.values("game_id", *columns, "card_counts")
    }
    assert kept == rebuilt and len(kept) == 3


def test_the_append_statement_is_prepared_on_the_server(make_game):
    game = make_game()
    for _ in range(8):
        send_next(game.pk)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT generic_plans + custom_plans FROM pg_prepared_statements"
            " WHERE statement LIKE 'WITH moved AS (UPDATE games_game%%'"
        )
        runs = [n for (n,) in cursor.fetchall()]
    assert runs and max(runs) >= 2


def test_a_closed_game_appends_nothing_and_says_why_on_both_paths(make_game):
    """``Game.closed`` (a tournament table a director decided): the one-statement append finds
    the row closed and the locked path reads it with its lock; each refuses with the reason."""
    from rules import IllegalCommand

    game = make_game()
    send_next(game.pk)  # the process learns the end of the log: the next append is one statement
    reason = "The tournament's director awarded this table's result (1st Ann, 2nd Bob, 3rd Cy)"
    Game.objects.filter(pk=game.pk).update(closed=reason)
    version = Game.objects.get(pk=game.pk).version
    with CaptureQueriesContext(connection) as queries:
        with pytest.raises(IllegalCommand, match=r"awarded this table's result \(1st Ann"):
            send_next(game.pk)
    assert appends_in(queries)[0].startswith("WITH moved AS (UPDATE games_game")
    with transaction.atomic(), pytest.raises(IllegalCommand, match="awarded"):
        send_next(game.pk)  # inside a transaction: the locked path
    assert Game.objects.get(pk=game.pk).version == version
    assert Event.objects.filter(game=game).count() == version
    Game.objects.filter(pk=game.pk).update(closed="")
    assert send_next(game.pk).version > version
