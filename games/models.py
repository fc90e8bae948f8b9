"""The event store's tables: games and seats, the append-only event log, snapshots, the table
view projection, and disputes.

The log (``Event``) is the truth. Everything else here is either a header the store keeps in
step with the log inside the same transaction (``Game.version``, ``Game.status``), a cache that
can be thrown away (``Snapshot``), or a read model rebuilt from the log (``TableView``).
The database refuses UPDATE, DELETE and TRUNCATE on the log (migration 0002).
"""

from __future__ import annotations

import secrets
import uuid

from django.conf import settings
from django.db import models
from django.utils import timezone

from rules import event_from_dict

KEY_LENGTH = 200  # an idempotency key's most characters


def new_seat_secret() -> str:
    """A private, URL-safe token that lets its holder act for one seat (``Seat <secret>``)."""
    return secrets.token_urlsafe(24)


class Game(models.Model):
    """One game (match) of a variant, played at one table. Its truth is its events; ``version``
    and ``status`` are kept in step with the log by the store, in the append's transaction."""

    class Status(models.TextChoices):
        PLAYING = "playing"
        FINISHED = "finished"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    variant = models.CharField(max_length=20)
    scoring = models.CharField(max_length=20)
    target = models.PositiveIntegerField(default=500)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PLAYING)
    version = models.PositiveIntegerField(default=0, help_text="the version of the last event")
    sheet = models.BooleanField(default=False, help_text="hands are played with physical cards")
    seed_chosen = models.BooleanField(
        default=False, help_text="a practice game whose seed a person chose (never one that counts)"
    )
    set_up = models.BooleanField(
        default=False,
        help_text="started from a position a referee set up (never one that counts)",
    )
    # A plain integer, not a foreign key: games never import tournaments (DESIGN.md).
    season_id = models.IntegerField(null=True, blank=True, db_index=True)
    # Why a game that is not over takes no more moves (a tournament table a director decided
    # by a ruling), in the players' words: every append is refused with it (the store reads it
    # with the lock, or the one-statement append finds the row closed), and the table's page
    # shows it. Empty while the game plays.
    closed = models.TextField(blank=True, default="")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="created_games",
    )
    created_at = models.DateTimeField(default=timezone.now)
    # The server's signature of who sat where (``games.seating``), made again by every
    # service that seats players or moves the table.
    seating_signature = models.CharField(max_length=200, blank=True, default="", editable=False)
    # A rematch: the finished game this one replays with the same seats (services.rematch).
    rematch_of = models.OneToOneField(
        "self",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="rematch",
        help_text="the finished game this one is the rematch of",
    )

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.variant} game {self.id} (v{self.version}, {self.status})"


class Seat(models.Model):
    """A position at the table, 0..n-1 clockwise, with its player and its secret."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    player = models.CharField(max_length=100)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="seats",
    )
    secret = models.CharField(max_length=64, unique=True, default=new_seat_secret, editable=False)
    # Quick games: the server plays this seat (games.bots) through the same services.
    bot = models.BooleanField(default=False, help_text="a bot plays this seat")
    # The first browser that opened the seat's link (a random token kept in its session), and
    # when: another browser opening the link is told the seat is already open elsewhere.
    device = models.CharField(max_length=64, blank=True, default="", editable=False)
    joined_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["game", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="games_seat_one_per_number"),
        ]

    def __str__(self) -> str:
        return f"seat {self.seat} ({self.player})"


class GameReferee(models.Model):
    """A user who referees a game besides its creator (organisers come through the registry)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="referees")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="refereed_games"
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="games_referee_once"),
        ]

    def __str__(self) -> str:
        return f"{self.user} referees {self.game_id}"


class Event(models.Model):
    """One immutable fact of a game's stream. Append-only (database triggers), hash-chained.

    ``version`` numbers a game's events 1, 2, 3, ... and is unique per game: that uniqueness is
    the optimistic-concurrency check's last line. ``batch`` is the version of the first event
    the same command appended, so a command's events can be found together (an idempotent
    retry answers with them; undo may only go back to the end of a batch, where the game
    rested). ``key`` (the command's idempotency key) is stored on the batch's first event only.
    """

    position = models.BigAutoField(primary_key=True)
    # PROTECT: a game with events cannot be deleted (the triggers would refuse anyway).
    # No separate index: the (game, version) constraint's index serves every lookup by game.
    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="events", db_index=False)
    version = models.PositiveIntegerField()
    batch = models.PositiveIntegerField()
    type = models.CharField(max_length=50)
    data = models.JSONField()
    actor = models.CharField(max_length=100, help_text='"seat:2", "user:7" or "system"')
    # NULL, not "": "no key" must stay out of the (game, key) uniqueness.
    key = models.CharField(max_length=KEY_LENGTH, null=True, blank=True)  # noqa: DJ001
    recorded_at = models.DateTimeField(default=timezone.now)
    hash = models.CharField(max_length=64)
    prev_hash = models.CharField(max_length=64)
    # The chain (games/chain.py, docs/decisions/0006): ``hash`` covers ``commitment``, a
    # salted hash of the data and key, never the data itself; ``salt`` stays secret until the
    # game is over. Rows from before commitments have both empty (and the old hash).
    salt = models.CharField(max_length=32, blank=True, default="")
    commitment = models.CharField(max_length=64, blank=True, default="")
    # On the last event of each command's batch: the server's signature of the chain head.
    signature = models.CharField(max_length=200, blank=True, default="")
    # On the batch's first event, with ``key``: what the command was, so a key sent again
    # with another command is told apart from a retry.
    command_digest = models.CharField(max_length=64, blank=True, default="")

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["game", "version"], name="games_event_one_per_version"),
            # Idempotency keys belong to the caller: two seats may use the same key.
            models.UniqueConstraint(
                fields=["game", "actor", "key"],
                condition=models.Q(key__isnull=False),
                name="games_event_key_once_per_actor",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game_id} v{self.version} {self.type}"

    def to_rules_event(self):
        """The engine's event this row records (the one it was made from, when the store
        made it in this process: no decoding)."""
        made_from = self.__dict__.get("rule_event")
        if made_from is not None:
            return made_from
        return event_from_dict({**self.data, "type": self.type})


class Snapshot(models.Model):
    """The whole state of a game at ``version``, so loading reads only the events after it.
    A cache: snapshots of another ``engine_version`` are ignored, and any can be deleted."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="snapshots")
    version = models.PositiveIntegerField()
    engine_version = models.PositiveIntegerField()
    state = models.JSONField()
    created_at = models.DateTimeField(default=timezone.now)
    # The hash of the event at ``version`` (what the state was folded to) and the server's MAC
    # over the game, versions, head and state: a snapshot edited in the database no longer
    # matches and is never used to serve a game.
    head = models.CharField(max_length=64, blank=True, default="")
    mac = models.CharField(max_length=100, blank=True, default="")

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["game", "engine_version", "version"], name="games_snapshot_once"
            ),
        ]

    def __str__(self) -> str:
        return f"snapshot of {self.game_id} at v{self.version} (engine {self.engine_version})"


class TableView(models.Model):
    """Projection: what a list of tables shows, one row per game, updated in the append's
    transaction and rebuilt from the log by ``manage.py rebuild_projections``."""

    game = models.OneToOneField(
        Game, on_delete=models.CASCADE, primary_key=True, related_name="table_view"
    )
    status = models.CharField(max_length=10, choices=Game.Status.choices)
    version = models.PositiveIntegerField()
    hand_number = models.PositiveIntegerField()
    turn = models.PositiveSmallIntegerField(null=True, blank=True)
    top_card = models.CharField(max_length=10, blank=True)
    colour = models.CharField(max_length=1, blank=True)
    scores = models.JSONField(default=list)
    card_counts = models.JSONField(default=list)
    winner = models.PositiveSmallIntegerField(null=True, blank=True)
    updated_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"table view of {self.game_id} at v{self.version}"


class Dispute(models.Model):
    """A claim about one event of a game, open until a referee rules on it (the ruling may
    rewind the game)."""

    class Status(models.TextChoices):
        OPEN = "open"
        UPHELD = "upheld"
        REJECTED = "rejected"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="disputes")
    version = models.PositiveIntegerField(help_text="the event the claim is about")
    claim = models.TextField()
    opened_by = models.CharField(max_length=100, help_text="actor, e.g. seat:2 or user:7")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    ruling = models.TextField(blank=True, help_text="the referee's note")
    undo_to = models.PositiveIntegerField(null=True, blank=True)
    ruled_by = models.CharField(max_length=100, blank=True)
    opened_at = models.DateTimeField(default=timezone.now)
    ruled_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-opened_at"]

    def __str__(self) -> str:
        return f"dispute {self.pk} on {self.game_id} v{self.version} ({self.status})"
