"""Many writers on one game, each thread with its own PostgreSQL connection: every version has
exactly one winner, the rest are told the game moved on (or are retried), copies of one keyed
command or undo sent at once all get the first one's answer, copies of one dispute sent at
once open it once, and the log stays a gapless, verifiable chain whose replay equals the
projection."""

import threading
import time
from collections import Counter
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection

from games import projections, services, state_cache, store, store_pg
from games.errors import Stale
from games.models import Dispute, Event, Game, TableView
from rules import IllegalCommand, legal_commands, replay
from tests.games.api_support import create_game, seat_client, seats, url, user_client

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

WRITERS = 24


def run_threads(count, target):
    """Run ``target(i)`` in ``count`` threads that start together; re-raise the first error."""
    barrier = threading.Barrier(count)
    errors = []

    def body(i):
        try:
            barrier.wait()
            target(i)
        except BaseException as exc:  # noqa: BLE001 - reported to the test below
            errors.append(exc)
        finally:
            connection.close()  # each thread has its own connection

    threads = [threading.Thread(target=body, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(thread.is_alive() for thread in threads), "a writer hung"
    if errors:
        raise errors[0]


@pytest.fixture
def count_store_stales(monkeypatch):
    """Count the appends the store refused as stale (the races that happened)."""
    stales = Counter()
    real = store.append

    def append(*args, **kwargs):
        try:
            return real(*args, **kwargs)
        except Stale:
            stales["append"] += 1
            raise

    monkeypatch.setattr(store, "append", append)
    return stales


def test_racing_writers_get_exactly_one_winner_per_version(count_store_stales):
    game = services.create_game(
        variant="classic", players=["A", "B", "C", "D"], scoring="standard", target=500, seed="race"
    )
    start = game.version
    stop_at = start + 150
    wins, outcomes, lock = [], Counter(), threading.Lock()

    def writer(i):
        # Half the writers name the version they decided on; the others let the service retry.
        expect = i % 2 == 0
        n = 0
        while True:
            state, version = store.load(game.pk)
            if state.finished or version >= stop_at:
                return
            seat = state.pending[1]
            command = legal_commands(state, seat)[0]
            n += 1
            try:
                result = services.apply_command(
                    game_id=game.pk,
                    command=command,
                    actor=f"seat:{seat}",
                    expected_version=version if expect else None,
                    key=f"writer-{i}-{n}",
                )
            except Stale:
                with lock:
                    outcomes["stale"] += 1
                continue
            except IllegalCommand:
                # A retry re-decided a command that someone else's move made illegal.
                with lock:
                    outcomes["illegal after retry"] += 1
                continue
            with lock:
                outcomes["won"] += 1
                wins.append([row.version for row in result.events])

    run_threads(WRITERS, writer)

    head = Game.objects.get(pk=game.pk).version
    versions = list(
        Event.objects.filter(game=game).order_by("version").values_list("version", flat=True)
    )
    assert versions == list(range(1, head + 1)), "versions must be 1..N with no gap or duplicate"
    # Every appended batch was won by exactly one writer, and the wins cover the log.
    won = sorted(v for batch in wins for v in batch)
    assert won == list(range(start + 1, head + 1))
    assert outcomes["stale"] + count_store_stales["append"] > 0, "the writers never raced"
    assert head >= stop_at or Game.objects.get(pk=game.pk).status == "finished"

    out = StringIO()
    call_command("verify_events", stdout=out)
    assert "every chain intact" in out.getvalue()

    rows = Event.objects.filter(game=game).order_by("version")
    replayed = replay([row.to_rules_event() for row in rows])
    assert store.load(game.pk)[0] == replayed
    view = TableView.objects.get(game=game)
    assert (view.version, view.card_counts, view.scores, view.top_card) == (
        replayed.version,
        [len(hand) for hand in replayed.hands],
        list(replayed.scores),
        replayed.top,
    )


def test_retries_of_one_keyed_command_append_it_once(count_store_stales):
    game = services.create_game(
        variant="classic", players=["A", "B", "C"], scoring="standard", target=500, seed="retry"
    )
    state, version = store.load(game.pk)
    seat = state.pending[1]
    command = legal_commands(state, seat)[0]
    results = [None] * 20

    def send(i):
        results[i] = services.apply_command(
            game_id=game.pk, command=command, actor=f"seat:{seat}", key="the-only-one"
        )

    run_threads(20, send)

    answers = {(r.version, tuple(row.pk for row in r.events)) for r in results}
    assert len(answers) == 1
    ((answer_version, positions),) = answers
    assert Game.objects.get(pk=game.pk).version == answer_version
    assert Event.objects.filter(game=game).count() == answer_version
    assert Event.objects.filter(game=game, key="the-only-one").count() == 1
    assert [
        row.pk for row in Event.objects.filter(game=game, version__gt=version).order_by("version")
    ] == list(positions)


@pytest.fixture
def count_one_statement_appends(monkeypatch):
    """Count the appends sent as one statement (whatever came of them), not those it handed
    to the locked path."""
    tries = Counter()
    real = store_pg.append_in_one_statement

    def append(*args, **kwargs):
        try:
            rows = real(*args, **kwargs)
        except Exception:
            tries["one statement"] += 1
            raise
        tries["one statement"] += rows is not None
        return rows

    monkeypatch.setattr(store_pg, "append_in_one_statement", append)
    return tries


def hold_the_first_lock(monkeypatch, seconds=0.5):
    """The first append through the locked path keeps the game's row locked ``seconds`` longer
    (its projections take that long), so copies of its request sent with it meet it there."""
    real, held = projections.project, threading.Event()

    def project(*args, **kwargs):
        if not held.is_set():
            held.set()
            time.sleep(seconds)
        return real(*args, **kwargs)

    monkeypatch.setattr(projections, "project", project)


@pytest.mark.parametrize("path", ["locked", "one statement"])
def test_a_keyed_command_with_its_expected_version_sent_again_at_once_gets_one_answer(
    path, count_store_stales, count_one_statement_appends, monkeypatch
):
    """A phone that timed out and sent its command again while the first was still being
    written: every copy, each naming the version it was decided on, gets the first answer
    (the same version and receipt), never 409 stale, and one batch is appended."""
    game = create_game(user_client(), seed="phones")
    clients = seats(game)
    view = clients[0].get(url(game)).json()
    seat = view["pending"]["seat"]
    first = {**clients[seat].get(url(game)).json()["legal"][0], "key": "warm-up"}
    assert clients[seat].post(url(game, "commands/"), first, format="json").status_code == 201
    view = clients[0].get(url(game)).json()
    seat = view["pending"]["seat"]
    legal = clients[seat].get(url(game)).json()["legal"][0]
    command = {**legal, "expected_version": view["version"], "key": "sent-again"}
    if path == "locked":
        # The process does not know the log's end: every copy takes the row's lock, and the
        # first holds it a while, so the others decide on the same version and wait for it.
        state_cache.forget_head(game["id"])
        hold_the_first_lock(monkeypatch)
    count_store_stales.clear()
    count_one_statement_appends.clear()
    answers = [None] * WRITERS

    def send(i):
        client = seat_client(game["seats"][seat]["secret"])
        answer = client.post(url(game, "commands/"), command, format="json")
        answers[i] = (answer.status_code, answer.json())

    run_threads(WRITERS, send)

    codes = Counter(code for code, _ in answers)
    assert codes == {201: WRITERS}, [body for code, body in answers if code != 201][:1]
    bodies = [body for _, body in answers]
    assert all(body == bodies[0] for body in bodies)
    answer = bodies[0]
    batch = Event.objects.filter(game_id=game["id"], version__gt=view["version"])
    batch = batch.order_by("version")
    assert Game.objects.get(pk=game["id"]).version == answer["version"] == batch.last().version
    assert batch.filter(key="sent-again").count() == 1
    assert set(batch.values_list("batch", flat=True)) == {view["version"] + 1}
    assert answer["receipt"]["version"] == answer["version"]
    assert answer["receipt"]["head"] == batch.last().hash
    if path == "locked":
        assert count_store_stales["append"] > 0, "the copies never raced"
        assert count_one_statement_appends["one statement"] == 0
    else:
        assert count_one_statement_appends["one statement"] > 0


def test_retries_of_one_keyed_undo_sent_at_once_undo_once(count_store_stales):
    game = services.create_game(
        variant="classic", players=["A", "B", "C"], scoring="standard", target=500, seed="undo"
    )
    start = game.version
    for _ in range(3):
        state, _ = store.load(game.pk)
        seat = state.pending[1]
        services.apply_command(
            game_id=game.pk, command=legal_commands(state, seat)[0], actor=f"seat:{seat}"
        )
    head = Game.objects.get(pk=game.pk).version
    answers = [None] * WRITERS

    def send(i):
        # Half name the version the referee saw; the others send the key alone.
        answers[i] = services.undo(
            game_id=game.pk,
            to_version=start,
            reason="misdeal",
            by="user:1",
            expected_version=head if i % 2 else None,
            key="the-only-undo",
        )

    run_threads(WRITERS, send)

    assert answers == [head + 1] * WRITERS
    assert Game.objects.get(pk=game.pk).version == head + 1
    rewound = Event.objects.filter(game=game, type="rewound")
    assert [(row.version, row.key) for row in rewound] == [(head + 1, "the-only-undo")]


def test_stale_writers_append_nothing(count_store_stales):
    game = services.create_game(
        variant="classic", players=["A", "B"], scoring="standard", target=500, seed="stale"
    )
    state, version = store.load(game.pk)
    seat = state.pending[1]
    command = legal_commands(state, seat)[0]
    outcomes = Counter()
    lock = threading.Lock()

    def send(i):
        try:
            services.apply_command(
                game_id=game.pk, command=command, actor=f"seat:{seat}", expected_version=version
            )
        except Stale as stale:
            with lock:
                outcomes[f"stale at {stale.current_version}"] += 1
        else:
            with lock:
                outcomes["won"] += 1

    run_threads(WRITERS, send)

    head = Game.objects.get(pk=game.pk).version
    assert outcomes == {"won": 1, f"stale at {head}": WRITERS - 1}
    assert list(
        Event.objects.filter(game=game).values_list("version", flat=True).order_by("version")
    ) == list(range(1, head + 1))


def hold_the_first_dispute(monkeypatch, seconds=0.5):
    """The first dispute written takes ``seconds`` longer to write (with the game's row
    locked), so the copies sent with it have all checked for an open one by then, or wait."""
    real, held = Dispute.objects.create, threading.Event()

    def create(**kwargs):
        if not held.is_set():
            held.set()
            time.sleep(seconds)
        return real(**kwargs)

    monkeypatch.setattr(Dispute.objects, "create", create)


@pytest.mark.parametrize("path", ["service", "api"])
def test_the_same_dispute_sent_again_at_once_is_one_dispute(path, monkeypatch):
    """A second tap, or a request sent again while the first was still being written: every
    copy gets the one dispute, whichever way it came."""
    game = create_game(user_client(), seed="dispute")
    clients = seats(game)
    seat = clients[0].get(url(game)).json()["pending"]["seat"]
    legal = clients[seat].get(url(game)).json()["legal"][0]
    assert clients[seat].post(url(game, "commands/"), legal, format="json").status_code == 201
    version = clients[0].get(url(game)).json()["version"]
    hold_the_first_dispute(monkeypatch)
    claim = {"version": version, "claim": "she held a red card"}
    answers = [None] * WRITERS

    def send(i):
        if path == "service":
            answers[i] = services.open_dispute(game_id=game["id"], **claim, by="seat:1").pk
            return
        client = seat_client(game["seats"][1]["secret"])
        answer = client.post(url(game, "disputes/"), claim, format="json")
        assert answer.status_code == 201, answer.content
        answers[i] = answer.json()["id"]

    run_threads(WRITERS, send)

    disputes = Dispute.objects.filter(game_id=game["id"])
    assert disputes.count() == 1
    assert answers == [disputes.get().pk] * WRITERS
    assert disputes.get().status == Dispute.Status.OPEN
