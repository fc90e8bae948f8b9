"""Leagues and their seasons, nights, players and organisers; the games of a season and who sat
where; and the standings projections built from the event log.

Records (typed in by organisers or written by the services): ``League``, ``Organiser``,
``Referee`` (of a league or a tournament), ``Player``, ``Season``, ``Night``, ``SeasonGame``
and ``SeasonSeat``. Projections (derived from the log by ``tournaments.leagues.projections``,
thrown away and rebuilt by ``rebuild_projections``): ``GameResult``, ``NightRow``,
``StandingRow`` and ``RatingHistory``. Nobody types a result in.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.db import models
from django.utils import timezone

from games.records import SignedRecord
from rules.engine import SCORINGS

# Variants are not choices here: the engine grows editions, and the services check the name
# against it (a new edition then needs no migration).
SCORING_CHOICES = [(name, name) for name in SCORINGS]


class League(SignedRecord):
    """A club's competition. Its variant, scoring and target are the defaults of its seasons
    (and a season's are the defaults of its games). Its name and defaults are signed
    (``games.records``)."""

    signed_fields = ("name", "variant", "scoring", "target", "options")

    name = models.CharField(max_length=100)
    variant = models.CharField(max_length=20, default="classic")
    scoring = models.CharField(max_length=20, choices=SCORING_CHOICES, default="standard")
    target = models.PositiveIntegerField(default=500)
    # The edition's options for its games, as the rules take them (UNO VETO's house rules on
    # the Wild Customizable cards); a season of another edition plays that edition's defaults.
    options = models.JSONField(default=dict, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="created_leagues",
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["name", "pk"]

    def __str__(self) -> str:
        return self.name


class Organiser(models.Model):
    """A user who runs a league: opens its seasons and referees its games."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="organisers")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="organised"
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["league", "user"], name="tournaments_organiser_once"),
        ]

    def __str__(self) -> str:
        return f"{self.user} organises {self.league}"


class Referee(models.Model):
    """A user named referee of a league (every game of its seasons) or of a tournament (every
    table of it): a referee sees every hand, undoes and rules on disputes, but does not run the
    competition (organisers do). Exactly one of ``league`` and ``tournament`` is set."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="refereeing"
    )
    league = models.ForeignKey(
        League, null=True, blank=True, on_delete=models.CASCADE, related_name="referees"
    )
    tournament = models.ForeignKey(
        "tournaments.Tournament",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="referees",
    )
    named_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    named_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["named_at", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(league__isnull=False, tournament__isnull=True)
                | models.Q(league__isnull=True, tournament__isnull=False),
                name="tournaments_referee_of_one",
            ),
            models.UniqueConstraint(
                fields=["league", "user"],
                condition=models.Q(league__isnull=False),
                name="tournaments_league_referee_once",
            ),
            models.UniqueConstraint(
                fields=["tournament", "user"],
                condition=models.Q(tournament__isnull=False),
                name="tournaments_tournament_referee_once",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} referees {self.league or self.tournament}"


class Player(SignedRecord):
    """Someone who plays in a league, known by name; an account is optional (a club night needs
    none). Names are unique within the league: the name is how a table's seat finds its player.
    The name and the league are signed (``games.records``): the standings name players by it.
    The account is not (deleting an account unlinks it without a save)."""

    signed_fields = ("league", "name")

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(max_length=100)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="league_players",
    )

    class Meta:
        ordering = ["league", "name"]
        constraints = [
            models.UniqueConstraint(fields=["league", "name"], name="tournaments_player_name_once"),
            models.UniqueConstraint(
                fields=["league", "user"],
                condition=models.Q(user__isnull=False),
                name="tournaments_player_user_once",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class Season(SignedRecord):
    """One period of a league; standings are per season. ``variant``, ``scoring`` and ``target``
    override the league's when set. ``best_nights`` counts only each player's best N nights;
    ``attendance_points`` are league points for every night a player played (docs/STANDINGS.md).
    Change the standings options through ``services.set_standings_options`` (or the admin),
    which recomputes the table. What the standings are added up by is signed
    (``games.records``)."""

    signed_fields = (
        "league",
        "name",
        "variant",
        "scoring",
        "target",
        "best_nights",
        "attendance_points",
    )

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(max_length=100)
    variant = models.CharField(max_length=20, blank=True)
    scoring = models.CharField(max_length=20, choices=SCORING_CHOICES, blank=True)
    target = models.PositiveIntegerField(null=True, blank=True)
    best_nights = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="count only each player's best N nights (empty: all)"
    )
    attendance_points = models.PositiveSmallIntegerField(
        default=0, help_text="league points for each night a player played"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["league", "-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["league", "name"], name="tournaments_season_name_once"),
        ]

    def __str__(self) -> str:
        return f"{self.league}: {self.name}"

    @property
    def effective_variant(self) -> str:
        return self.variant or self.league.variant

    @property
    def effective_scoring(self) -> str:
        return self.scoring or self.league.scoring

    @property
    def effective_target(self) -> int:
        return self.target or self.league.target

    @property
    def effective_options(self) -> dict:
        """The league's options when the season plays the league's edition; none otherwise."""
        league = self.league
        return dict(league.options or {}) if self.effective_variant == league.variant else {}


class Night(SignedRecord):
    """A league night: the evening a season's games are played, numbered 1, 2, 3 ... Closed
    (``closed_at``) once its tables are over: no table is seated at a closed night. Its season,
    number and date are signed (``games.records``)."""

    signed_fields = ("season", "number", "date")

    @classmethod
    def described(cls, pk: object, values: Mapping[str, Any]) -> str:
        return f"night {pk} (number {values['number']} of season {values['season_id']})"

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="nights")
    number = models.PositiveSmallIntegerField()
    date = models.DateField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["season", "number"]
        constraints = [
            models.UniqueConstraint(fields=["season", "number"], name="tournaments_night_once"),
        ]

    def __str__(self) -> str:
        return f"night {self.number}" + (f" ({self.date})" if self.date else "")


class SeasonGame(models.Model):
    """A game (table) that counts for a season, on one of its nights."""

    game = models.OneToOneField(
        "games.Game", on_delete=models.CASCADE, primary_key=True, related_name="season_game"
    )
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="games")
    night = models.ForeignKey(Night, on_delete=models.PROTECT, related_name="games")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["created_at", "pk"]

    def __str__(self) -> str:
        return f"{self.game_id} ({self.season}, {self.night})"


class SeasonSeat(models.Model):
    """Who sat at a seat of a season game (seat numbers as in the game)."""

    season_game = models.ForeignKey(SeasonGame, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")

    class Meta:
        ordering = ["season_game", "seat"]
        constraints = [
            models.UniqueConstraint(
                fields=["season_game", "seat"], name="tournaments_season_seat_once"
            ),
            models.UniqueConstraint(
                fields=["season_game", "player"], name="tournaments_season_player_once"
            ),
        ]

    def __str__(self) -> str:
        return f"seat {self.seat}: {self.player}"


# Projections --------------------------------------------------------------------------------


class GameResult(models.Model):
    """Projection: one seat's result in a *finished* season game, as derived from the game's
    state. Only finished games have rows; a game rewound to before its end loses them.
    ``score`` is the seat's final total in the game's own ``scoring``; ``finished_at`` is the log
    position of the event that finished the game (ratings are updated in this order)."""

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    seat = models.PositiveSmallIntegerField()
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="+")
    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="results")
    players = models.PositiveSmallIntegerField(help_text="seats at the table")
    rank = models.PositiveSmallIntegerField(help_text="1 for the winner; equal results share")
    won = models.BooleanField()
    score = models.IntegerField()
    scoring = models.CharField(max_length=20)
    hands_won = models.PositiveIntegerField()
    finished_at = models.BigIntegerField()

    class Meta:
        ordering = ["finished_at", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="tournaments_result_once"),
        ]
        indexes = [models.Index(fields=["season", "finished_at"])]

    def __str__(self) -> str:
        return f"{self.player} placed {self.rank} in {self.game_id}"


class Totals(models.Model):
    """What night rows and standing rows both add up."""

    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    points = models.IntegerField(default=0)
    placing_sum = models.PositiveIntegerField(default=0, help_text="sum of the ranks placed")
    placings = models.JSONField(default=list, help_text="games placed 1st, 2nd, 3rd, ...")
    hands_won = models.PositiveIntegerField(default=0)

    class Meta:
        abstract = True


class NightRow(Totals):
    """Projection: a player's totals for one night (finished games only)."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="+")
    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["night", "player"], name="tournaments_night_row_once"),
        ]
        indexes = [models.Index(fields=["season", "player"])]

    def __str__(self) -> str:
        return f"{self.player} on {self.night}"


class StandingRow(Totals):
    """Projection: a player's line in the season's standings, from their counted nights (all,
    or the best N) plus attendance points, and their rating from every finished game."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="standing_rows")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="standing_rows")
    nights = models.PositiveIntegerField(default=0, help_text="nights played")
    nights_counted = models.PositiveIntegerField(default=0)
    attendance_points = models.PositiveIntegerField(default=0)
    league_points = models.PositiveIntegerField(default=0, help_text="wins + attendance points")
    rating = models.FloatField(null=True, blank=True, help_text="openskill mu")
    rating_sigma = models.FloatField(null=True, blank=True)
    rated_games = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["season", "player"], name="tournaments_standing_row_once"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.season}"


class RatingHistory(models.Model):
    """Projection: a player's rating after each finished game of the season, in finish order."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_history")
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    finished_at = models.BigIntegerField()
    rank = models.PositiveSmallIntegerField()
    players = models.PositiveSmallIntegerField()
    rating_before = models.FloatField()
    sigma_before = models.FloatField()
    rating = models.FloatField()
    sigma = models.FloatField()

    class Meta:
        verbose_name_plural = "rating histories"
        ordering = ["finished_at", "player"]
        constraints = [
            models.UniqueConstraint(fields=["game", "player"], name="tournaments_rating_once"),
        ]
        indexes = [models.Index(fields=["player", "finished_at"])]

    def __str__(self) -> str:
        return f"{self.player}: {self.rating:.2f} after {self.game_id}"
