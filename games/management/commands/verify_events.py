"""`manage.py verify_events`: check every game's record, as docs/TRUST.md promises.

For each game: the versions have no gap and end where the game's row says; every event's salted
commitment opens to its data; every hash links to the one before; the last event of every
command carries the server's signature of the chain's head (a key kept outside the database,
so a chain rewritten by someone who can only write to the database does not verify); and every
snapshot carries the server's MAC, names the head it was folded to, and equals the state the
events give when refolded. Exits 1 naming the first problem (game id and version); exits 0 with
a summary when everything holds.

Events recorded before commitments and signatures (an upgraded deployment) have a plain hash
chain only; they fail the check unless ``--allow-unsigned`` is given, and even then only at the
start of a game's log: an unsigned event after a signed one is never from before the upgrade.

Once every log holds, every game's seating (who sat at each seat, and the table a league or a
tournament seated it as) is checked against the server's signature of it (``games.seating``),
as is every record the server signs beside the games (``games.records``: a league player's
name, a season's standings settings, a night's number, a tournament's settings and entries),
and what other apps recorded from games' results is compared with the games
(``games.registry.verify_checks``: a tournament table's placings and a tournament's winner, a
season game's result, and a league's night rows, standings and ratings): exits 1 listing every
seating and record not as signed and every record that disagrees with its game.

On PostgreSQL everything is read from one snapshot of the database, in a read-only transaction
(REPEATABLE READ): a game that ends while the command runs is seen nowhere, neither in its log
nor in what was recorded from it, so a running league is not reported for a move made meanwhile,
and the command can change nothing it checks.
"""

from collections.abc import Iterator
from contextlib import contextmanager
from itertools import groupby
from uuid import UUID

from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction

from games import chain, records, registry, seating, store
from games.models import Event, Game, Snapshot
from games.store import snapshot_holds
from rules import ENGINE_VERSION, event_from_dict
from rules.engine import replay


def first_break(rows, games, *, public_keys=None, allow_unsigned=False) -> str | None:
    """What is wrong with the log ``rows`` (ordered by game, then version), or None."""
    keys = chain.server_public_keys() if public_keys is None else public_keys
    for game_id, game_rows in groupby(rows, key=lambda row: row.game_id):
        problem = game_problem(game_id, list(game_rows), games.get(game_id), keys, allow_unsigned)
        if problem is not None:
            return problem
    return None


def game_problem(game_id, rows, game_version, public_keys, allow_unsigned=False) -> str | None:
    """The first thing wrong with one game's log (its rows in version order), or None."""
    prev = chain.GENESIS
    signed_from = None  # the first version recorded with a commitment
    for i, row in enumerate(rows):
        where = f"game {game_id} version {row.version}"
        if row.version != i + 1:
            return f"{where}: expected version {i + 1} (a gap in the versions)"
        if row.prev_hash != prev:
            return f"{where}: prev_hash does not match the hash of version {i}"
        if not row.commitment:
            if not allow_unsigned:
                return (
                    f"{where}: recorded without a commitment or signature (from before they "
                    "were kept; --allow-unsigned accepts such games)"
                )
            if signed_from is not None:
                # An upgrade records unsigned events first, then signed ones, never the other
                # way: a game's end rewritten without the signing key would look so.
                return (
                    f"{where}: recorded without a commitment or signature after version "
                    f"{signed_from} was signed (only events from before the upgrade may be "
                    "unsigned)"
                )
        else:
            if signed_from is None:
                signed_from = row.version
            if chain.commitment(row.salt, row.data, row.key) != row.commitment:
                return f"{where}: the data does not open the event's commitment"
        if row.hash != chain.row_hash(row):
            return f"{where}: the hash does not match what the event records"
        ends_batch = i + 1 == len(rows) or rows[i + 1].batch != row.batch
        if (
            ends_batch
            and row.commitment
            and not chain.verify_signature(
                public_keys, row.signature, row.game_id, row.version, row.hash
            )
        ):
            signer = row.signature.partition(":")[0]
            unknown = (
                f" (signed by key {signer}, which this server does not know: see "
                "CHAIN_SIGNING_KEY and CHAIN_RETIRED_KEYS)"
                if signer and signer not in public_keys
                else ""
            )
            return f"{where}: the command that ends here has no valid server signature{unknown}"
        prev = row.hash
    if game_version is not None and game_version != len(rows):
        return (
            f"game {game_id} version {len(rows) + 1}: missing; "
            f"the game is at version {game_version} but its log ends at {len(rows)}"
        )
    return None


def snapshot_problem(game_id, rows, snapshots, public_keys) -> str | None:
    """The first snapshot of the game that is not what its events give, or None. One made
    under a retired key is never used (its MAC cannot be checked now), but is still refolded."""
    events = [event_from_dict({**row.data, "type": row.type}) for row in rows]
    current = chain.server_signer().id
    for snapshot in snapshots:
        where = f"game {game_id} snapshot at version {snapshot.version}"
        made_by = snapshot.mac.partition(":")[0]
        if made_by == current and not snapshot_holds(
            game_id, snapshot.version, snapshot.head, snapshot.mac, snapshot.state
        ):
            return f"{where}: its MAC does not match what it records (never used to serve)"
        if made_by != current and made_by not in public_keys:
            return f"{where}: its MAC is under no key this server knows (never used to serve)"
        if not 0 < snapshot.version <= len(rows) or rows[snapshot.version - 1].hash != (
            snapshot.head
        ):
            return f"{where}: it names a head that is not the event at its version"
        refolded = replay(events[: snapshot.version]).to_dict()
        if chain.canonical_json(refolded) != chain.canonical_json(snapshot.state):
            return f"{where}: its state is not what the events replayed to it give"
    return None


def recorded_results_problems(games: dict[UUID, int]) -> tuple[list[str], list[str]]:
    """Run every ``registry.verify_checks`` check over the games (id -> version, every log
    verified): what each compared, and every record that disagrees with its game."""

    def state_of(game_id):
        try:
            key = game_id if isinstance(game_id, UUID) else UUID(str(game_id))
        except ValueError:
            return None
        version = games.get(key)
        return None if version is None else store.state_at(key, version)

    checked, problems = [], []
    for check in registry.verify_checks:
        verified = check(state_of)
        checked.extend(verified.checked)
        problems.extend(verified.problems)
    return checked, problems


# How many games' seatings are read at a time: a large deployment's seats are never all in
# memory at once.
SEATING_CHUNK = 1000
PROGRESS_EVERY = 1000  # games between two lines of progress (``-v 2``)


def seating_problems(public_keys) -> list[str]:
    """Every game whose seating (its seats' names, and the table a league or a tournament
    seated it as) is not what the server signed, each named with what is wrong."""
    ids = list(Game.objects.order_by("pk").values_list("pk", flat=True))
    problems = []
    for start in range(0, len(ids), SEATING_CHUNK):
        chunk = ids[start : start + SEATING_CHUNK]
        games = Game.objects.filter(pk__in=chunk)
        signatures = dict(games.values_list("pk", "seating_signature"))
        for game_id, seated in seating.seatings(chunk).items():
            problem = seating.problem(game_id, seated, signatures[game_id], public_keys)
            if problem is not None:
                problems.append(f"game {game_id}: {problem}")
    return problems


def record_problems(public_keys) -> tuple[int, list[str], list[str]]:
    """How many records the server signs beside the games (``games.records``), what they are
    (``["leagues", "players", ...]``, the kinds there are rows of), and every one not as the
    server signed it, each named with what is wrong."""
    count = 0
    kinds: dict[str, None] = {}
    problems = []
    for model, problem in records.checked(public_keys):
        count += 1
        kinds[str(model._meta.verbose_name_plural)] = None
        if problem is not None:
            problems.append(problem)
    return count, list(kinds), problems


def listing(heading: str, items: list[str]) -> str:
    """``heading``, then each of ``items`` on a line of its own."""
    return heading + ":\n" + "\n".join(f"- {item}" for item in items)


@contextmanager
def one_snapshot() -> Iterator[None]:
    """Inside, every read sees the database as it was at the first one, and nothing can be
    written (PostgreSQL, outside any transaction; elsewhere reads as they come)."""
    if connection.vendor != "postgresql" or connection.in_atomic_block:
        yield
        return
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        yield


class Command(BaseCommand):
    help = (
        "Verify every game's record: versions, commitments, hash chain, signatures and "
        "snapshots; exit 1 at the first problem. Then compare what was recorded from games' "
        "results (tournament tables, season games) and who sat where with the games and the "
        "server's signatures; exit 1 listing each disagreement."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--allow-unsigned",
            action="store_true",
            help="accept games recorded before commitments and signatures were kept",
        )

    def handle(self, *args, **options) -> None:
        self.verbosity = options["verbosity"]
        with one_snapshot():
            self.verify(allow_unsigned=options["allow_unsigned"])

    def progress(self, text: str) -> None:
        """Tell an operator watching a long check how far it has come (``-v 2``), on stderr so
        that what the check found stays alone on stdout."""
        if self.verbosity >= 2:
            self.stderr.write(text)

    def verify(self, *, allow_unsigned: bool) -> None:
        games = dict(Game.objects.values_list("id", "version"))
        keys = chain.server_public_keys()
        rows = Event.objects.order_by("game_id", "version").iterator(chunk_size=5000)
        checked_snapshots = 0
        problem = None
        self.progress(f"checking the logs of {len(games)} games")
        try:
            for done, (game_id, game_rows) in enumerate(
                groupby(rows, key=lambda row: row.game_id), start=1
            ):
                if done % PROGRESS_EVERY == 0:
                    self.progress(f"{done} of {len(games)} logs checked")
                game_rows = list(game_rows)
                problem = game_problem(game_id, game_rows, games.get(game_id), keys, allow_unsigned)
                if problem is None:
                    snapshots = list(
                        Snapshot.objects.filter(
                            game_id=game_id, engine_version=ENGINE_VERSION
                        ).order_by("version")
                    )
                    checked_snapshots += len(snapshots)
                    problem = snapshot_problem(game_id, game_rows, snapshots, keys)
                if problem is not None:
                    break
        finally:
            # Close the server-side cursor now: left to the garbage collector, it may be closed
            # in the middle of the next query on the connection, and wait for it forever.
            rows.close()
        if problem is None:
            logged = set(Event.objects.values_list("game_id", flat=True).distinct())
            problem = next(
                (
                    f"game {game_id} version 1: missing; the game is at version {version} "
                    "but has no events"
                    for game_id, version in games.items()
                    if version and game_id not in logged
                ),
                None,
            )
        if problem is not None:
            raise CommandError(f"event log broken: {problem}", returncode=1)
        self.progress("checking who sat where")
        unsigned = seating_problems(keys)
        self.progress("checking the records beside the games")
        signed_records, kinds, changed = record_problems(keys)
        self.progress("comparing the recorded results with the games")
        checked, problems = recorded_results_problems(games)
        if unsigned or changed or problems:
            parts = []
            if unsigned:
                games_word = "games" if len(unsigned) > 1 else "game"
                parts.append(
                    listing(
                        f"{len(unsigned)} {games_word}: who sat where is not as the server "
                        "signed it",
                        unsigned,
                    )
                )
            if changed:
                many = len(changed) > 1
                parts.append(
                    listing(
                        f"{len(changed)} {'records are' if many else 'record is'} not as the "
                        f"server signed {'them' if many else 'it'}",
                        changed,
                    )
                )
            if problems:
                many = len(problems) > 1
                parts.append(
                    listing(
                        f"{len(problems)} recorded result{'s' if many else ''} "
                        f"disagree{'' if many else 's'} with the games",
                        problems,
                    )
                )
            raise CommandError("\n".join(parts), returncode=1)
        count = Event.objects.count()
        listed = ", ".join(checked[:-1]) + " and " * (len(checked) > 1) + "".join(checked[-1:])
        results = f"; {listed} match their games" if checked else ""
        what = f" ({', '.join(kinds)})" if kinds else ""
        self.stdout.write(
            f"verified {count} events in {len(games)} games: every chain intact, every "
            f"command signed, who sat where as signed, {signed_records} records{what} as "
            f"signed, {checked_snapshots} snapshots match their events{results}"
        )
