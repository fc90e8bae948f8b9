"""On PostgreSQL: tables of one season finishing at the same moment, in racing transactions,
leave the same standings and ratings as a rebuild from the log: the season's lock serialises
their updates, and a game that commits after a later-positioned one recomputes the ratings.
And a league, season, night or tournament opened twice at once (a form sent twice, a request
retried) is opened once, and a score sheet's hand sent again at once is recorded once."""

import datetime
import random
import threading

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games import chain, rebuild, state_cache
from games.models import Event, Game
from rules import InvalidCommand
from tests.games.test_concurrency import hold_the_first_lock, run_threads
from tournaments.leagues import services
from tournaments.leagues.projections import standings_projector

from ..conftest import ended, hand
from .test_rebuild import projection_tables

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

TABLES = 8
COPIES = 16  # of one request sent again at once


def test_games_finishing_in_racing_transactions_equal_a_rebuild():
    organiser = get_user_model().objects.create_user("olga")
    league = services.open_league(name="Racing Club", created_by=organiser)
    season = services.open_season(league=league, name="Race", attendance_points=1)
    names = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]
    # A night a table: the same players are at several of them (one table a night each).
    games = [
        services.start_season_game(
            season=season,
            players=random.Random(i).sample(names, 3),
            created_by=organiser,
            sheet=True,
            target=60,
            night=services.open_night(season=season),
        )
        for i in range(TABLES)
    ]
    start = threading.Barrier(TABLES)
    errors = []

    def referee(game, seed):
        rng = random.Random(seed)
        try:
            start.wait()
            while True:
                out = rng.randrange(3)
                if ended(hand(game, out, {s: rng.randrange(10, 30) for s in range(3) if s != out})):
                    break
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=referee, args=(g, i)) for i, g in enumerate(games)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == []
    incremental = projection_tables()
    assert len(incremental["GameResult"]) == 3 * TABLES
    rebuild.rebuild([standings_projector])
    assert projection_tables() == incremental


def seat_at_once(night, organiser, tables):
    """Seat ``tables`` (lists of names) at ``night`` from as many threads, released together:
    the games seated and the refusals' words."""
    start = threading.Barrier(len(tables))
    seated, refused = [], []

    def seat(players):
        try:
            start.wait()
            seated.append(
                services.start_season_game(
                    season=night.season, night=night, players=players, created_by=organiser
                )
            )
        except services.PlayerBusy as exc:
            refused.append(str(exc))
        finally:
            connection.close()

    threads = [threading.Thread(target=seat, args=(t,)) for t in tables]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return seated, refused


def test_two_tables_seated_at_once_never_both_take_one_player():
    """The night's row is locked while a table is seated: of two tables asked for at the same
    moment with one player at both, one is seated and the other refused, naming the player."""
    organiser = get_user_model().objects.create_user("olga")
    league = services.open_league(name="Racing Club", created_by=organiser)
    season = services.open_season(league=league, name="Race")
    night = services.open_night(season=season, by=organiser)
    for number in range(1, 4):
        ann = f"Ann{number}"
        # Registered before: a new name's registration would itself make the two wait.
        for name in (ann, f"Bob{number}", f"Cy{number}"):
            services.register_player(league=league, name=name)
        seated, refused = seat_at_once(
            night, organiser, [[ann, f"Bob{number}"], [f"Cy{number}", ann]]
        )

        assert len(seated) == 1 and len(refused) == 1
        assert refused[0].startswith(f"{ann} (table {number}) is still playing tonight")


def at_once(count, opening):
    """``opening()`` in ``count`` threads started together: what they returned and raised."""
    start = threading.Barrier(count)
    done, errors = [], []

    def run():
        try:
            start.wait()
            done.append(opening())
        except Exception as exc:  # noqa: BLE001 - returned to the test
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return done, errors


def test_a_league_or_season_opened_twice_at_once_is_opened_once_and_the_other_told_why():
    organiser = get_user_model().objects.create_user("olga")

    leagues, refused = at_once(3, lambda: services.open_league(name="Twice", created_by=organiser))

    assert len(leagues) == 1 and len(refused) == 2
    assert all(isinstance(e, InvalidCommand) and e.field == "name" for e in refused), refused
    seasons, refused = at_once(
        3, lambda: services.open_season(league=leagues[0], name="Autumn", by=organiser)
    )
    assert len(seasons) == 1 and len(refused) == 2
    assert all("already has a season called “Autumn”" in str(e) for e in refused), refused


def test_a_night_opened_twice_at_once_on_one_date_is_one_night():
    """A form sent twice, or a retried request, racing the first: the season's row is locked
    while a night is opened, so both find the one night of that date."""
    organiser = get_user_model().objects.create_user("olga")
    league = services.open_league(name="Racing Club", created_by=organiser)
    season = services.open_season(league=league, name="Race")
    day = datetime.date(2026, 11, 26)

    opened, errors = at_once(
        4, lambda: services.open_night_once(season=season, date=day, by=organiser)
    )

    assert not errors
    assert len({night.pk for night, _ in opened}) == 1
    assert sorted(new for _, new in opened) == [False, False, False, True]
    assert season.nights.count() == 1


def test_a_tournament_created_twice_at_once_is_created_once():
    from tournaments.brackets import services as brackets
    from tournaments.brackets.models import Tournament

    organiser = get_user_model().objects.create_user("olga")

    made, refused = at_once(
        3,
        lambda: brackets.create_tournament(
            name="Cup", organiser=organiser, format="swiss", table_size=2, players=["Ann", "Bob"]
        ),
    )

    assert len(made) == 1 and Tournament.objects.count() == 1
    assert [e.field for e in refused] == ["name", "name"], refused


@pytest.mark.parametrize("path", ["locked", "one statement"])
def test_a_hand_sent_again_at_once_with_its_version_and_key_is_recorded_once(path, monkeypatch):
    """A score sheet's hand sent again while the first was still being recorded (a phone that
    timed out): every copy, each naming the sheet's version it was sent at, gets the first
    answer (the same version and receipt), never 409 stale, and the hand is recorded once."""
    organiser = get_user_model().objects.create_user("olga")
    league = services.open_league(name="Racing Club", created_by=organiser)
    season = services.open_season(league=league, name="Race")
    game = services.start_season_game(
        season=season, players=["Ann", "Bob", "Cy"], created_by=organiser, sheet=True
    )
    hand(game, 0, {1: 5, 2: 7}, actor=f"user:{organiser.pk}")
    version = Game.objects.get(pk=game.pk).version
    token = Token.objects.create(user=organiser).key
    body = {"out": 1, "points": {"0": 3, "2": 4}, "expected_version": version, "key": "hand-2"}
    if path == "locked":
        # Every copy takes the row's lock, and the first holds it a while: the others decide
        # on the same version and wait for it.
        state_cache.forget_head(game.pk)
        hold_the_first_lock(monkeypatch)

    def send():
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
        answer = client.post(f"/api/games/{game.pk}/hands/", body, format="json")
        return answer.status_code, answer.json()

    answers, errors = at_once(COPIES, send)

    assert not errors
    assert [code for code, _ in answers] == [201] * COPIES, answers
    answer = answers[0][1]
    assert all(other == answer for _, other in answers)
    recorded = Event.objects.filter(game=game, version__gt=version).order_by("version")
    assert answer["version"] == recorded.last().version == Game.objects.get(pk=game.pk).version
    assert answer["receipt"]["head"] == recorded.last().hash
    assert [e.type for e in recorded.filter(type="hand_recorded")] == ["hand_recorded"]
    assert set(recorded.values_list("batch", flat=True)) == {version + 1}


def test_a_table_moved_while_a_name_at_it_is_corrected_is_signed_with_both(monkeypatch):
    """The move signs its seating, then holds the game's row while the standings are made
    again; a name corrected at the table meanwhile (as the admin does) signs once the move has
    committed, so the signature covers both changes."""
    from games import seating
    from games.models import Seat
    from tests.games.tampering import verify
    from tests.tournaments.brackets.test_races import held_open

    from ..conftest import finish

    organiser = get_user_model().objects.create_user("olga")
    league = services.open_league(name="Moving Club", created_by=organiser)
    season = services.open_season(league=league, name="Spring", by=organiser)
    first, second = (services.open_night(season=season) for _ in range(2))
    game = services.start_season_game(
        season=season, players=["Ann", "Bob"], night=first, created_by=organiser, sheet=True
    )
    finish(game, winner=0, seats=2)
    moving = held_open(monkeypatch, services, "recompute_season")

    def change(i):
        if i == 0:
            services.move_table(game_id=game.pk, night=second, by=organiser)
            return
        assert moving.wait(10)
        with transaction.atomic():
            Seat.objects.filter(game=game, seat=0).update(player="Annie")
            seating.seal(game.pk)

    run_threads(2, change)

    signed = seating.seatings([game.pk])[game.pk]
    assert signed[0][0] == [0, "Annie", False]
    assert signed[2][0][2] == second.pk
    assert "who sat where as signed" in verify()


def test_a_league_being_saved_does_not_hold_up_a_player_registering_in_it():
    """Signing a record locks its row as the save's UPDATE does (FOR NO KEY UPDATE), so rows
    that refer to it are written meanwhile: a player registering while the league's settings
    are being saved does not wait for them (a lock taken FOR UPDATE would hold it up)."""
    from django.db import OperationalError

    organiser = get_user_model().objects.create_user("olga")
    league = services.open_league(name="Lock Club", created_by=organiser)
    saved, registered = threading.Event(), threading.Event()
    said = []

    def change(i):
        if i == 0:
            with transaction.atomic():
                league.target = 300
                league.save()
                saved.set()
                registered.wait(10)  # the league's row stays locked until the player is in
            return
        assert saved.wait(10)
        try:
            with transaction.atomic():
                with connection.cursor() as cursor:
                    cursor.execute("SET LOCAL lock_timeout = '2s'")
                said.append(services.register_player(league=league, name="Ann", by=organiser).name)
        except OperationalError as exc:
            said.append(str(exc))
        finally:
            registered.set()

    run_threads(2, change)

    assert said == ["Ann"]


# Corrects a league player's name (argv 1) and waits after the row's UPDATE, before its
# signature, until the test has cut PostgreSQL away (a marker file, argv 2, says it is there).
SAVE_THEN_PAUSE = """
import os, pathlib, sys, time
import django
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup()
from games import records
from tournaments.leagues.models import Player
real_sign = records.SignedRecord.sign
def paused(self, using=None):
    pathlib.Path(sys.argv[2]).touch()
    time.sleep(3)
    return real_sign(self, using)
records.SignedRecord.sign = paused
player = Player.objects.get(pk=int(sys.argv[1]))
player.name = "Anne"
try:
    player.save()
except Exception as exc:
    print(type(exc).__name__, exc)
    sys.exit(3)
"""


def cut_while_paused(script: str, args: list[str], tmp_path) -> tuple[int, str]:
    """Run ``script`` with ``args`` and a marker file's path in a process whose PostgreSQL is
    reached through a proxy, and cut the proxy once the script has made the marker (it then
    waits): its exit status and what it printed."""
    import os
    import subprocess
    import sys
    import time

    from django.conf import settings

    from tests.proxy import Proxy
    from tests.tournaments.brackets.test_worker import ROOT, database_url

    db = connection.settings_dict
    proxy = Proxy((db["HOST"] or "127.0.0.1", int(db["PORT"] or 5432)))
    proxy.up()
    marker = tmp_path / "written"
    env = {
        **os.environ,
        "DATABASE_URL": database_url().replace(f":{db['PORT'] or 5432}/", f":{proxy.port}/"),
        "CHAIN_SIGNING_KEY": settings.CHAIN_SIGNING_KEY,
    }
    running = subprocess.Popen(
        [sys.executable, "-c", script, *args, str(marker)],
        env=env,
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while not marker.exists():
            assert running.poll() is None, running.communicate()[0]
            assert time.monotonic() < deadline, "the process never reached its signature"
            time.sleep(0.05)
        proxy.down()  # the write is in; the connection is cut before the signature
        said, _ = running.communicate(timeout=60)
    finally:
        proxy.down()
        if running.poll() is None:
            running.kill()
    return running.returncode, said


def test_postgresql_gone_between_a_records_write_and_its_signature_leaves_neither(tmp_path):
    """A name corrected by a process that loses PostgreSQL after the row's UPDATE and before
    its signature: the transaction dies with the connection, so the row keeps its old name and
    the signature that covers it (never a new name under an old signature)."""
    from games import records
    from tournaments.leagues.models import Player

    organiser = get_user_model().objects.create_user("olga")
    league = services.open_league(name="Cut Club", created_by=organiser)
    ann = services.register_player(league=league, name="Ann", by=organiser)

    returncode, said = cut_while_paused(SAVE_THEN_PAUSE, [str(ann.pk)], tmp_path)

    assert returncode == 3, said
    assert "OperationalError" in said or "InterfaceError" in said, said
    stored = Player.objects.get(pk=ann.pk)
    assert (stored.name, stored.signature) == ("Ann", ann.signature)
    assert [p for _, p in records.checked(chain.server_public_keys()) if p] == []


# Starts a tournament (argv 1) and waits after the no-shows' drop is written, before the
# entries are signed again, until the test has cut PostgreSQL away (the marker, argv 2).
START_THEN_PAUSE = """
import os, pathlib, sys, time
import django
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup()
from games import records
from tournaments.brackets import services
from tournaments.brackets.models import Tournament
real_sign_rows = records.SignedRecord.sign_rows.__func__
def paused(cls, pks, using=None):
    pathlib.Path(sys.argv[2]).touch()
    time.sleep(3)
    return real_sign_rows(cls, pks, using)
records.SignedRecord.sign_rows = classmethod(paused)
tournament = Tournament.objects.get(pk=int(sys.argv[1]))
try:
    services.start_tournament(tournament_id=tournament.pk, by=tournament.organiser)
except Exception as exc:
    print(type(exc).__name__, exc)
    sys.exit(3)
"""


def test_postgresql_gone_between_the_no_shows_drop_and_its_signatures_leaves_neither(tmp_path):
    """A tournament started by a process that loses PostgreSQL after the no-shows are marked
    dropped and before their entries are signed again: nothing of the start is kept (no shows
    still entered, under their signatures; no round seated), and every entry verifies."""
    from games import records
    from tournaments.brackets import directing
    from tournaments.brackets import services as brackets
    from tournaments.brackets.models import Entry, Round, Tournament

    organiser = get_user_model().objects.create_user("olga")
    cup = brackets.create_tournament(
        name="Cut Cup",
        organiser=organiser,
        format="swiss",
        table_size=2,
        scoring="none",
        players=["Ann", "Bob", "Cid", "Dee"],
    )
    for player in ("Ann", "Bob"):
        directing.check_in(tournament_id=cup.pk, player=player, by=organiser)
    before = dict(Entry.objects.filter(tournament=cup).values_list("player", "signature"))

    returncode, said = cut_while_paused(START_THEN_PAUSE, [str(cup.pk)], tmp_path)

    assert returncode == 3, said
    assert "OperationalError" in said or "InterfaceError" in said, said
    entries = Entry.objects.filter(tournament=cup)
    assert not entries.filter(dropped=True).exists()
    assert dict(entries.values_list("player", "signature")) == before
    assert Tournament.objects.get(pk=cup.pk).status == Tournament.Status.DRAFT
    assert not Round.objects.filter(tournament=cup).exists()
    assert [p for _, p in records.checked(chain.server_public_keys()) if p] == []
