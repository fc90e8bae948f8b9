"""Upgrading keeps every row: a database at the migrations main had before the trusted record and
the per-round seeds (games 0003, tournaments 0002) holds a league, a season, a player, a
tournament with entries, a round and a table, and a game with seats and events; migrated to the
latest, every row is still there with its data. New columns come blank (an event's commitment,
salt, signature and command digest; a round's seed), and the tournament's old seed is kept as
``legacy_seed``.

Runs on SQLite and on PostgreSQL alike (whichever DATABASE_URL names), in a transactional test:
migrations cannot run inside the test's transaction. The log's triggers refuse the flush after
it, so the conftest empties the log first (``games.testing.erase_event_log_for_tests``).
"""

from __future__ import annotations

import uuid

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games.models import Event, Game, Seat
from tournaments.brackets.models import Entry, Round, Table, Tournament
from tournaments.brackets.services import closing_words
from tournaments.leagues.models import League, Player, Season

pytestmark = pytest.mark.django_db(transaction=True)

# What main had at 13a8b65, before the trusted record (games 0004) and the rounds' own seeds
# (tournaments 0003).
BEFORE = [("games", "0003_seat_bot"), ("tournaments", "0002_tournament_rounds_tables")]

GAME_ID = uuid.UUID("6f1c2a4e-0000-4000-8000-000000000001")
EVENTS = [
    # version, batch, type, data, actor, key
    (1, 1, "game_started", {"players": ["Ann", "Bob"], "seed": "old"}, "user:1", "start"),
    (2, 2, "hand_started", {"dealer": 0}, "system", None),
]


def migrate(executor: MigrationExecutor, targets: list[tuple[str, str]]) -> MigrationExecutor:
    executor.migrate(targets)
    executor.loader.build_graph()  # what is applied now
    return executor


def write_rows_before(apps) -> None:
    """Rows as main wrote them then, through the models as they were."""
    user = apps.get_model("auth", "User").objects.create(username="olga")
    game = apps.get_model("games", "Game").objects.create(
        id=GAME_ID, variant="classic", scoring="standard", target=500, version=2, created_by=user
    )
    seat_model = apps.get_model("games", "Seat")
    for number, name in enumerate(["Ann", "Bob"]):
        seat_model.objects.create(game=game, seat=number, player=name, secret=f"secret-{number}")
    event_model = apps.get_model("games", "Event")
    prev = "0" * 64
    for version, batch, kind, data, actor, key in EVENTS:
        digest = f"{version:064x}"
        event_model.objects.create(
            game=game,
            version=version,
            batch=batch,
            type=kind,
            data=data,
            actor=actor,
            key=key,
            hash=digest,
            prev_hash=prev,
        )
        prev = digest

    league = apps.get_model("tournaments", "League").objects.create(
        name="Thursday Club", scoring="alternative", target=300, created_by=user
    )
    apps.get_model("tournaments", "Season").objects.create(
        league=league, name="Autumn", best_nights=4, attendance_points=2
    )
    apps.get_model("tournaments", "Player").objects.create(league=league, name="Ann", user=user)
    tournament = apps.get_model("tournaments", "Tournament").objects.create(
        name="Cup",
        organiser=user,
        format="elimination",
        table_size=2,
        duplicate_deals=True,
        seed="s33d-of-old",
        status="running",
    )
    entry_model = apps.get_model("tournaments", "Entry")
    for seed, name in enumerate(["Ann", "Bob", "Cy"], start=1):
        entry_model.objects.create(
            tournament=tournament, player=name, seed=seed, dropped=name == "Cy"
        )
    rnd = apps.get_model("tournaments", "Round").objects.create(
        tournament=tournament, number=1, kind="elimination", byes=["Cy"], deck=["R1", "G2"]
    )
    apps.get_model("tournaments", "Table").objects.create(
        round=rnd, number=1, game=game, players=["Ann", "Bob"]
    )


def test_migrating_a_database_of_the_old_main_keeps_every_row():
    executor = migrate(MigrationExecutor(connection), BEFORE)
    write_rows_before(executor.loader.project_state(BEFORE).apps)

    migrate(executor, executor.loader.graph.leaf_nodes())

    assert not executor.migration_plan(executor.loader.graph.leaf_nodes())  # at the latest
    game = Game.objects.get(pk=GAME_ID)
    assert (game.variant, game.version, game.created_by.username) == ("classic", 2, "olga")
    assert game.seed_chosen is False
    assert list(Seat.objects.filter(game=game).values_list("seat", "player", "secret")) == [
        (0, "Ann", "secret-0"),
        (1, "Bob", "secret-1"),
    ]
    events = list(Event.objects.filter(game=game).order_by("version"))
    assert [(e.version, e.batch, e.type, e.data, e.actor, e.key) for e in events] == EVENTS
    assert [(e.hash, e.prev_hash) for e in events] == [
        (f"{1:064x}", "0" * 64),
        (f"{2:064x}", f"{1:064x}"),
    ]
    for event in events:  # columns of the trusted record, blank on rows from before it
        assert (event.commitment, event.salt, event.signature, event.command_digest) == (
            "",
            "",
            "",
            "",
        )

    league = League.objects.get()
    assert (league.name, league.scoring, league.target) == ("Thursday Club", "alternative", 300)
    season = Season.objects.get()
    assert (season.league, season.name, season.best_nights, season.attendance_points) == (
        league,
        "Autumn",
        4,
        2,
    )
    assert Player.objects.get().name == "Ann"

    tournament = Tournament.objects.get()
    assert tournament.legacy_seed == "s33d-of-old"
    assert (tournament.name, tournament.status, tournament.duplicate_deals) == (
        "Cup",
        "running",
        True,
    )
    assert list(Entry.objects.values_list("player", "seed", "dropped")) == [
        ("Ann", 1, False),
        ("Bob", 2, False),
        ("Cy", 3, True),
    ]
    rnd = Round.objects.get()
    assert (rnd.number, rnd.byes, rnd.deck, rnd.seed) == (1, ["Cy"], ["R1", "G2"], "")
    table = Table.objects.get()
    assert (table.round, table.game_id, table.players) == (rnd, GAME_ID, ["Ann", "Bob"])


# What main had before the tables a director decided were closed to moves (tournaments 0007).
BEFORE_CLOSING = [("games", "0007_game_closed"), ("tournaments", "0006_edition_options")]


def test_a_table_decided_by_a_ruling_before_games_were_closed_is_closed_by_the_upgrade():
    executor = migrate(MigrationExecutor(connection), BEFORE_CLOSING)
    apps = executor.loader.project_state(BEFORE_CLOSING).apps
    user = apps.get_model("auth", "User").objects.create(username="olga")
    game_model = apps.get_model("games", "Game")
    tournament = apps.get_model("tournaments", "Tournament").objects.create(
        name="Cup", organiser=user, format="elimination", table_size=2, status="running"
    )
    rnd = apps.get_model("tournaments", "Round").objects.create(
        tournament=tournament, number=1, kind="elimination"
    )
    rows = {
        # table: (game status, table status, decided by, placings)
        "awarded": ("playing", "finished", "award", ["Bob", "Ann"]),
        "timed": ("playing", "finished", "time", ["Cy", "Dee"]),
        "played out": ("finished", "finished", "game", ["Eve", "Flo"]),
        "playing": ("playing", "playing", "", []),
    }
    games = {}
    for number, (name, (game_status, status, decided_by, placings)) in enumerate(
        rows.items(), start=1
    ):
        games[name] = game_model.objects.create(
            variant="classic", scoring="standard", target=500, created_by=user, status=game_status
        )
        apps.get_model("tournaments", "Table").objects.create(
            round=rnd,
            number=number,
            game=games[name],
            players=placings or ["Gil", "Hal"],
            status=status,
            decided_by=decided_by,
            placings=placings,
        )

    migrate(executor, executor.loader.graph.leaf_nodes())

    closed = {name: Game.objects.get(pk=game.pk).closed for name, game in games.items()}
    assert closed == {
        "awarded": closing_words("award", ["Bob", "Ann"]),
        "timed": closing_words("time", ["Cy", "Dee"]),
        "played out": "",
        "playing": "",
    }
    assert "1st Bob, 2nd Ann" in closed["awarded"]


# What main had before a decided table said who the ruling is against (tournaments 0010).
BEFORE_SAYING_WHO = [("games", "0007_game_closed"), ("tournaments", "0009_rulings_append_only")]


def test_a_decided_table_closed_before_it_said_who_says_who_after_the_upgrade():
    executor = migrate(MigrationExecutor(connection), BEFORE_SAYING_WHO)
    apps = executor.loader.project_state(BEFORE_SAYING_WHO).apps
    user = apps.get_model("auth", "User").objects.create(username="olga")
    game_model = apps.get_model("games", "Game")
    tournament = apps.get_model("tournaments", "Tournament").objects.create(
        name="Cup", organiser=user, format="swiss", table_size=3, status="running"
    )
    rnd = apps.get_model("tournaments", "Round").objects.create(
        tournament=tournament, number=1, kind="swiss"
    )
    rows = {
        # table: (decided by, placings, absent, the ruling against someone, its words then)
        "forfeited": ("award", ["Bob", "Ann"], [], "forfeit", None),
        "ended": ("absent", ["Cy", "Dee", "Eve"], ["Eve", "Dee"], "no_show", None),
        "timed": ("time", ["Flo", "Gil"], [], "", None),
        "reopened": ("award", ["Hal", "Ida"], [], "disqualification", "Reopened: its deal shown."),
    }
    games = {}
    for number, (name, (decided_by, placings, absent, kind, words)) in enumerate(
        rows.items(), start=1
    ):
        games[name] = game_model.objects.create(
            variant="classic",
            scoring="standard",
            target=500,
            created_by=user,
            closed=words or closing_words(decided_by, placings),  # as decide_table wrote them
        )
        apps.get_model("tournaments", "Table").objects.create(
            round=rnd,
            number=number,
            game=games[name],
            players=placings,
            status="finished",
            decided_by=decided_by,
            placings=placings,
            absent=absent,
        )
        if kind:
            apps.get_model("tournaments", "Ruling").objects.create(
                tournament=tournament,
                round_number=1,
                table_number=number,
                kind=kind,
                reason="left early",
                players=placings,
                by=user if decided_by == "award" else None,
            )

    migrate(executor, executor.loader.graph.leaf_nodes())

    closed = {name: Game.objects.get(pk=game.pk).closed for name, game in games.items()}
    assert closed == {
        "forfeited": closing_words("award", ["Bob", "Ann"], "forfeit", ["Ann"]),
        "ended": closing_words("absent", ["Cy", "Dee", "Eve"], "no_show", ["Dee", "Eve"]),
        "timed": closing_words("time", ["Flo", "Gil"]),
        "reopened": "Reopened: its deal shown.",
    }
    assert "(Ann forfeited; placed 1st Bob, 2nd Ann)" in closed["forfeited"]
    assert "(Dee and Eve did not show; placed 1st Cy, 2nd Dee, 3rd Eve)" in closed["ended"]


# What main had before a tournament's rulings were signed (tournaments 0011).
BEFORE_SIGNING = [("games", "0007_game_closed"), ("tournaments", "0010_closed_tables_say_who")]


def test_rulings_recorded_before_they_were_signed_are_numbered_and_signed_by_the_upgrade():
    from datetime import timedelta

    from django.db import DatabaseError, transaction
    from django.utils import timezone

    from games.chain import server_public_keys
    from tests.games.tampering import verify
    from tournaments.brackets import rulings
    from tournaments.brackets.models import Ruling

    executor = migrate(MigrationExecutor(connection), BEFORE_SIGNING)
    apps = executor.loader.project_state(BEFORE_SIGNING).apps
    user = apps.get_model("auth", "User").objects.create(username="olga")
    ruling_model = apps.get_model("tournaments", "Ruling")
    start = timezone.now() - timedelta(days=3)
    made = {}
    for name in ("Cup", "Plate"):
        tournament = apps.get_model("tournaments", "Tournament").objects.create(
            name=name, organiser=user, format="swiss", table_size=2, status="running"
        )
        # Written out of the order they were made: the upgrade numbers them by their time.
        for minutes, kind in ((30, "time"), (10, "repaired"), (20, "reopened")):
            ruling_model.objects.create(
                tournament=tournament,
                round_number=1,
                table_number=None if kind == "repaired" else 1,
                kind=kind,
                reason=f"{kind} at {name}",
                players=["Ann", "Bob"] if kind == "time" else [],
                by=user,
                created_at=start + timedelta(minutes=minutes),
            )
        made[name] = tournament.pk

    migrate(executor, executor.loader.graph.leaf_nodes())

    for name, pk in made.items():
        signed = list(Ruling.objects.filter(tournament_id=pk).order_by("sequence"))
        assert [(r.sequence, r.kind, r.reason) for r in signed] == [
            (1, "repaired", f"repaired at {name}"),
            (2, "reopened", f"reopened at {name}"),
            (3, "time", f"time at {name}"),
        ]
        assert rulings.chain_problems(signed, server_public_keys()) == []
    assert "(with 6 signed rulings)" in verify()
    # The append-only triggers are in place again (SQLite's were dropped by the table's copies).
    with pytest.raises(DatabaseError), transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("UPDATE tournaments_ruling SET reason = 'forged'")
    # A ruling made after the upgrade goes on from the last number.
    tournament = Ruling.objects.filter(tournament_id=made["Cup"]).first().tournament
    with transaction.atomic():
        added = rulings.record(tournament, round_number=2, kind="repaired", reason="again")
    assert added.sequence == 4
    assert rulings.chain_problems(list(tournament.rulings.all()), server_public_keys()) == []


# What main had before who sat where was signed (games 0008, tournaments 0012).
BEFORE_SEATING = [("games", "0007_game_closed"), ("tournaments", "0011_rulings_signed")]


def test_who_sat_where_before_it_was_signed_is_signed_by_the_upgrade_as_the_service_reads_it():
    from games import seating
    from games.chain import server_public_keys
    from tests.games.tampering import verify

    executor = migrate(MigrationExecutor(connection), BEFORE_SEATING)
    apps = executor.loader.project_state(BEFORE_SEATING).apps
    model = apps.get_model
    user = model("auth", "User").objects.create(username="olga")
    games = []
    for i, names in enumerate((["Ann", "Bob", "Cy"], ["Dee", "Eve"], ["Fay", "Gus"])):
        game = model("games", "Game").objects.create(
            id=uuid.UUID(int=i + 1), variant="classic", scoring="standard", created_by=user
        )
        for number, name in reversed(list(enumerate(names))):  # rows out of seat order
            model("games", "Seat").objects.create(
                game=game, seat=number, player=name, secret=f"s-{i}-{number}", bot=number == 2
            )
        games.append(game)
    league = model("tournaments", "League").objects.create(name="Club", created_by=user)
    season = model("tournaments", "Season").objects.create(league=league, name="Spring")
    night = model("tournaments", "Night").objects.create(season=season, number=1)
    players = [model("tournaments", "Player").objects.create(league=league, name=n) for n in "AB"]
    model("games", "Game").objects.filter(pk=games[1].pk).update(season_id=season.pk)
    season_game = model("tournaments", "SeasonGame").objects.create(
        game=games[1], season=season, night=night
    )
    for number, player in reversed(list(enumerate(players))):
        model("tournaments", "SeasonSeat").objects.create(
            season_game=season_game, seat=number, player=player
        )
    cup = model("tournaments", "Tournament").objects.create(
        name="Cup", organiser=user, format="swiss", table_size=2, status="running"
    )
    rnd = model("tournaments", "Round").objects.create(tournament=cup, number=1, kind="swiss")
    model("tournaments", "Table").objects.create(
        round=rnd, number=1, game=games[2], players=["Fay", "Gus"]
    )

    migrate(executor, executor.loader.graph.leaf_nodes())

    signed = seating.seatings()
    assert signed[games[1].pk][2] == [["league", season.pk, night.pk, [p.pk for p in players]]]
    assert signed[games[2].pk][2] == [["tournament", cup.pk, 1, 1, ["Fay", "Gus"]]]
    for game in games:
        signature = Game.objects.get(pk=game.pk).seating_signature
        assert seating.problem(game.pk, signed[game.pk], signature, server_public_keys()) is None
    assert "who sat where as signed" in verify("--allow-unsigned")


BEFORE_RECORDS = [("tournaments", "0012_seating_signed")]


def test_records_written_before_they_were_signed_are_signed_by_the_upgrade():
    from games import records
    from games.chain import server_public_keys
    from tests.games.tampering import verify
    from tournaments.leagues.models import Night

    executor = migrate(MigrationExecutor(connection), BEFORE_RECORDS)
    model = executor.loader.project_state(BEFORE_RECORDS).apps.get_model
    user = model("auth", "User").objects.create(username="olga")
    league = model("tournaments", "League").objects.create(
        name="Club", created_by=user, options={"b": 1, "a": [2]}
    )
    season = model("tournaments", "Season").objects.create(
        league=league, name="Spring", best_nights=3, attendance_points=1
    )
    model("tournaments", "Night").objects.create(season=season, number=1, date="2026-03-05")
    for name in ("Ann", "Bob"):
        model("tournaments", "Player").objects.create(league=league, name=name)
    model("tournaments", "Tournament").objects.create(
        name="Cup", organiser=user, format="swiss", table_size=4, turn_seconds=45
    )

    migrate(executor, executor.loader.graph.leaf_nodes())

    found = list(records.checked(server_public_keys()))
    assert [problem for _, problem in found if problem] == []
    assert sorted(m.__name__ for m, _ in found) == [
        "League", "Night", "Player", "Player", "Season", "Tournament"
    ]  # fmt: skip
    # Signed as the service reads them: a save that changes nothing leaves the signature.
    night = Night.objects.get()
    signature = night.signature
    night.save()
    assert Night.objects.get().signature == signature
    assert "6 records (leagues, players, seasons, nights, tournaments) as signed" in verify()


BEFORE_ENTRIES = [("tournaments", "0013_records_signed")]


def test_entries_written_before_they_were_signed_are_signed_by_the_upgrade():
    from games import records
    from games.chain import server_public_keys
    from tests.games.tampering import verify

    executor = migrate(MigrationExecutor(connection), BEFORE_ENTRIES)
    model = executor.loader.project_state(BEFORE_ENTRIES).apps.get_model
    user = model("auth", "User").objects.create(username="olga")
    cup = model("tournaments", "Tournament").objects.create(
        name="Cup", organiser=user, format="swiss", table_size=4
    )
    entry = model("tournaments", "Entry")
    entry.objects.create(tournament=cup, player="Ann", seed=1, checked_in=True)
    entry.objects.create(tournament=cup, player="Bob", seed=2, joined=3, dropped=True)

    migrate(executor, executor.loader.graph.leaf_nodes())
    Tournament.objects.get().sign()  # (written at 0013 by the test, not by a service)

    found = [(m.__name__, problem) for m, problem in records.checked(server_public_keys())]
    assert sorted(found, key=str) == [("Entry", None), ("Entry", None), ("Tournament", None)]
    # Signed as the service reads them: a save that changes nothing leaves the signature.
    bob = Entry.objects.get(player="Bob")
    signature = bob.signature
    bob.save()
    assert Entry.objects.get(player="Bob").signature == signature
    assert "3 records (tournaments, entries) as signed" in verify()
