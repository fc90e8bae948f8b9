"""Tournaments: the tournament with its settings, its entries, and its rounds of tables (each
table a game). Changed only through ``tournaments.brackets.services``; the pure rules of seating
and advancing are ``tournaments.brackets.pairing`` and ``tournaments.brackets.rounds``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.db import models
from django.utils import timezone

from games.records import SignedRecord
from tournaments.leagues.models import SCORING_CHOICES


class Tournament(SignedRecord):
    """Rounds of tables; players advance by the format (docs/TOURNAMENTS.md). The organiser
    referees every table. Change it through ``tournaments.brackets.services``. Its name, its
    organiser and the settings its rounds are seated and decided by are signed
    (``games.records``)."""

    signed_fields = (
        "name",
        "organiser",
        "variant",
        "scoring",
        "target",
        "options",
        "format",
        "table_size",
        "advance",
        "rounds",
        "final_table",
        "duplicate_deals",
        "seeding",
        "turn_seconds",
    )

    class Format(models.TextChoices):
        ELIMINATION = "elimination"
        SWISS = "swiss"

    class Seeding(models.TextChoices):
        RATING = "rating"
        MANUAL = "manual"

    class Status(models.TextChoices):
        DRAFT = "draft", "taking entries"
        RUNNING = "running"
        FINISHED = "finished"

    name = models.CharField(max_length=100)
    organiser = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="tournaments"
    )
    variant = models.CharField(max_length=20, default="classic")
    scoring = models.CharField(max_length=20, choices=SCORING_CHOICES, default="standard")
    target = models.PositiveIntegerField(default=500)
    # The edition's options for its tables' games (UNO VETO's house rules), as the rules take them.
    options = models.JSONField(default=dict, blank=True)
    format = models.CharField(max_length=12, choices=Format.choices)
    table_size = models.PositiveSmallIntegerField(help_text="most seats at a table (2 to 10)")
    advance = models.PositiveSmallIntegerField(
        default=1, help_text="elimination: the top N of each table go on"
    )
    rounds = models.PositiveSmallIntegerField(default=1, help_text="Swiss rounds")
    final_table = models.BooleanField(default=False, help_text="Swiss: a final table after")
    duplicate_deals = models.BooleanField(default=False)
    seeding = models.CharField(max_length=10, choices=Seeding.choices, default=Seeding.MANUAL)
    turn_seconds = models.PositiveIntegerField(null=True, blank=True)
    # What the tables' seeds were derived from before every game drew its own (kept for the
    # record of older tournaments; nothing uses it, and it is never shown).
    legacy_seed = models.CharField(max_length=32, blank=True, default="")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.DRAFT)
    winner = models.CharField(max_length=100, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return self.name


class Entry(SignedRecord):
    """A player entered in a tournament, by name. ``seed`` 1 is the best; ``joined`` is the
    first round the player can be seated in (later for a late entry); a dropped player is
    seated no more. Every field but the id is signed (``games.records``): they decide who is
    seated in the next round, and where."""

    signed_fields = ("tournament", "player", "seed", "joined", "dropped", "checked_in")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    player = models.CharField(max_length=100)
    seed = models.PositiveIntegerField()
    joined = models.PositiveSmallIntegerField(default=1)
    dropped = models.BooleanField(default=False)
    checked_in = models.BooleanField(
        default=False, help_text="checked in before the start (once anyone is, the rest drop)"
    )

    class Meta:
        verbose_name_plural = "entries"
        ordering = ["tournament", "seed"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="tournaments_entry_once"),
        ]

    def __str__(self) -> str:
        return f"{self.player} (seed {self.seed})"

    @classmethod
    def described(cls, pk: Any, values: Mapping[str, Any]) -> str:
        return f"entry {pk} ({values['player']!r}, tournament {values['tournament_id']})"


class Round(models.Model):
    """A round of a tournament, seated all at once: unique per number, so seating it a second
    time fails instead of doubling it. With duplicate deals, ``seed`` is the round's own seed,
    drawn from ``secrets`` and shared by its tables' games, and ``deck`` the deal shuffled
    from it; both stay on the server (no API or page shows them)."""

    class Kind(models.TextChoices):
        ELIMINATION = "elimination"
        SWISS = "swiss"
        FINAL = "final"

    class Status(models.TextChoices):
        PLAYING = "playing"
        FINISHED = "finished"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=12, choices=Kind.choices)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PLAYING)
    byes = models.JSONField(default=list, help_text="players who sit the round out")
    deck = models.JSONField(null=True, blank=True, help_text="the duplicate deal, top first")
    seed = models.CharField(
        max_length=64, blank=True, default="", help_text="duplicate deals: the round's seed"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="tournaments_round_once"),
        ]

    def __str__(self) -> str:
        return f"round {self.number}"


class Table(models.Model):
    """A table of a round: its game, the players in seat order and, once decided, their
    placings (best first). ``decided_by`` says what decided them: the game's end, or a
    director's ruling (an awarded result, time called, every seat but one absent), which
    ``Ruling`` records with its reason."""

    class Status(models.TextChoices):
        PLAYING = "playing"
        FINISHED = "finished"

    class DecidedBy(models.TextChoices):
        NOTHING = "", "not decided"
        GAME = "game", "the game"
        AWARD = "award", "an awarded result"
        TIME = "time", "time called"
        ABSENT = "absent", "absent players"
        CARDS = "cards", "played with cards"

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    game = models.OneToOneField(
        "games.Game", on_delete=models.PROTECT, related_name="tournament_table"
    )
    players = models.JSONField(help_text="names in seat order")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PLAYING)
    placings = models.JSONField(default=list, help_text="names, best first")
    decided_by = models.CharField(
        max_length=10, choices=DecidedBy.choices, blank=True, default=DecidedBy.NOTHING
    )
    absent = models.JSONField(
        default=list, help_text="players ruled absent, in the order they were (they place last)"
    )
    timeouts = models.JSONField(
        default=dict,
        help_text="consecutive turn timeouts: player -> [count, version of the last timeout]",
    )
    held = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="reopened over a game still over, at this version of it: not recorded again "
        "until the game moves on (an undo) or the director advances",
    )

    class Meta:
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="tournaments_table_once"),
        ]

    def __str__(self) -> str:
        return f"table {self.number} of {self.round}"


class Ruling(models.Model):
    """The tournament's audit log of its director's decisions on tables: a result awarded,
    time called, a seat ruled absent, a table reopened (with the rounds it reset), a result
    withdrawn by an undo of the table's game. Shown on the tournament page.

    Append-only, enforced by the database (migration tournaments/0009): a ruling is never
    changed or deleted, so a tournament with rulings and a user who made one cannot be deleted
    (PROTECT), as a game with events cannot. Numbered, chained and signed (migration
    tournaments/0011, ``tournaments.brackets.rulings``), so a ruling changed with the triggers
    lifted is found by ``manage.py verify_events``."""

    class Kind(models.TextChoices):
        FORFEIT = "forfeit"
        DISQUALIFICATION = "disqualification"
        NO_SHOW = "no_show", "no-show"
        TIME = "time", "time called"
        ABSENT = "absent", "ruled absent"
        REOPENED = "reopened", "table reopened"
        WITHDRAWN = "withdrawn", "result withdrawn by an undo"
        REPAIRED = "repaired", "round re-paired"
        CARDS = "cards", "result of a table played with cards"

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="rulings")
    # Numbered in its tournament, linked to the ruling before it and signed by the server
    # (``tournaments.brackets.rulings``): made only by ``rulings.record``.
    sequence = models.PositiveIntegerField(editable=False)
    link = models.CharField(max_length=64, editable=False)
    signature = models.CharField(max_length=200, editable=False)
    round_number = models.PositiveSmallIntegerField()
    table_number = models.PositiveSmallIntegerField(null=True, blank=True)
    kind = models.CharField(max_length=20, choices=Kind.choices)
    reason = models.CharField(max_length=300)
    players = models.JSONField(default=list, help_text="the placings decided, or who it names")
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["tournament", "sequence"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "sequence"], name="tournaments_ruling_numbered_once"
            )
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} (round {self.round_number})"
