"""`manage.py verify_events`: check every game's hash chain, and that its versions have no gap.

Exits 1 naming the first event that does not match (game id and version); exits 0 with a
summary when every chain is intact.
"""

from django.core.management.base import BaseCommand, CommandError

from games.models import Event, Game
from games.store import GENESIS, row_hash


def first_break(rows, games) -> str | None:
    """What is wrong with the log ``rows`` (ordered by game, then version), or None."""
    game_id, expected, prev = None, 0, GENESIS
    for row in rows:
        if row.game_id != game_id:
            if game_id is not None and (problem := _head_problem(games, game_id, expected)):
                return problem
            game_id, expected, prev = row.game_id, 0, GENESIS
        expected += 1
        where = f"game {row.game_id} version {row.version}"
        if row.version != expected:
            return f"{where}: expected version {expected} (a gap in the versions)"
        if row.prev_hash != prev:
            return f"{where}: prev_hash does not match the hash of version {expected - 1}"
        if row.hash != row_hash(row):
            return f"{where}: the hash does not match what the event records"
        prev = row.hash
    if game_id is not None:
        return _head_problem(games, game_id, expected)
    return None


def _head_problem(games, game_id, last_version) -> str | None:
    # Events cut off the end of a log leave a chain that verifies: the game's own version
    # (moved in the same transaction as every append) tells.
    version = games.get(game_id)
    if version is not None and version != last_version:
        return (
            f"game {game_id} version {last_version + 1}: missing; "
            f"the game is at version {version} but its log ends at {last_version}"
        )
    return None


class Command(BaseCommand):
    help = "Verify every game's event hash chain and versions; exit 1 at the first mismatch."

    def handle(self, *args, **options) -> None:
        games = dict(Game.objects.values_list("id", "version"))
        rows = Event.objects.order_by("game_id", "version").iterator(chunk_size=5000)
        try:
            problem = first_break(rows, games)
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
        count = Event.objects.count()
        self.stdout.write(f"verified {count} events in {len(games)} games: every chain intact")
