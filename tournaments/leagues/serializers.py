"""The league API's input and output shapes (API.md, "Leagues, seasons and score sheets").

Input is strict like the game API's: unknown fields are errors naming them, a number is not a
string. Outputs document (and pass through) what ``tournaments.leagues.selectors`` returns.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.models import KEY_LENGTH
from games.serializers import (
    MAX_TARGET,
    MAX_VERSION,
    NAME_LENGTH,
    StrictBooleanField,
    StrictCharField,
    StrictIntegerField,
    StrictSerializer,
)
from rules.cards import CARD_PATTERN
from rules.commands import MAX_HAND_POINTS
from rules.engine import MAX_PLAYERS, MIN_PLAYERS, SCORINGS
from rules.variants import variant_names

# Requests -----------------------------------------------------------------------------------

# The standings options' ranges (docs/STANDINGS.md): more nights than a season has are no
# limit, and attendance worth more than a thousand wins is no league.
MAX_BEST_NIGHTS = 1000
MAX_ATTENDANCE_POINTS = 1000
MAX_NIGHT = 32767  # a night's number is a small integer column


class LeagueCreateSerializer(StrictSerializer):
    name = StrictCharField(max_length=NAME_LENGTH)
    variant = serializers.ChoiceField(choices=variant_names(), required=False, default="classic")
    scoring = serializers.ChoiceField(choices=SCORINGS, required=False, default="standard")
    target = StrictIntegerField(min_value=1, max_value=MAX_TARGET, required=False, default=500)
    options = serializers.DictField(
        required=False,
        default=dict,
        help_text="The edition's options for the league's games, as POST /api/games/ takes "
        'them (UNO VETO: {"customizable": ["joke", "rooster"]}).',
    )


class SeasonCreateSerializer(StrictSerializer):
    name = StrictCharField(max_length=NAME_LENGTH)
    variant = serializers.ChoiceField(
        choices=variant_names(), required=False, help_text="Default: the league's."
    )
    scoring = serializers.ChoiceField(
        choices=SCORINGS, required=False, help_text="Default: the league's."
    )
    target = StrictIntegerField(
        min_value=1, max_value=MAX_TARGET, required=False, help_text="Default: the league's."
    )
    best_nights = StrictIntegerField(
        min_value=1,
        max_value=MAX_BEST_NIGHTS,
        required=False,
        allow_null=True,
        help_text="Count only each player's best N nights (default: every night).",
    )
    attendance_points = StrictIntegerField(
        min_value=0,
        max_value=MAX_ATTENDANCE_POINTS,
        required=False,
        default=0,
        help_text="League points per night played.",
    )


class PlayerCreateSerializer(StrictSerializer):
    name = StrictCharField(max_length=NAME_LENGTH)


class PlayerAccountSerializer(StrictSerializer):
    username = StrictCharField(
        max_length=150,
        allow_blank=True,
        help_text="The user name the player signs in with; empty: no account.",
    )


class RoleCreateSerializer(StrictSerializer):
    username = StrictCharField(
        max_length=150, help_text="The name the person signs in with (they need an account)."
    )
    role = serializers.ChoiceField(
        choices=["organiser", "referee"],
        required=False,
        default="referee",
        help_text="A referee sees every hand, undoes mistakes and rules on disputes; an "
        "organiser also opens seasons and nights and seats tables.",
    )


class RefereeCreateSerializer(StrictSerializer):
    username = StrictCharField(
        max_length=150, help_text="The name the person signs in with (they need an account)."
    )


class NightCreateSerializer(StrictSerializer):
    date = serializers.DateField(
        required=False, allow_null=True, help_text="The night's date (default: today)."
    )


class NightTableSerializer(StrictSerializer):
    players = serializers.ListField(
        child=StrictCharField(max_length=NAME_LENGTH),
        min_length=MIN_PLAYERS,
        max_length=MAX_PLAYERS,
        help_text="Who sits at the table, in seat order: the league's players by name; new "
        "names join the league.",
    )
    sheet = StrictBooleanField(
        required=False,
        default=False,
        help_text="A paper score sheet (the table plays with cards) instead of a game on the site.",
    )


class TableOffSerializer(StrictSerializer):
    reason = StrictCharField(max_length=300, help_text="Why the table is taken off the night.")


class NightCloseSerializer(StrictSerializer):
    leave_playing = StrictBooleanField(
        required=False,
        default=False,
        help_text="Close the night although tables still play: their games count when they end.",
    )


SEATS = [str(seat) for seat in range(MAX_PLAYERS)]


def _seat_map_schema(value: dict[str, object]) -> dict[str, object]:
    """An object keyed by seat number ("0" to "9"), as the engine takes one."""
    return {
        "type": "object",
        "properties": {seat: value for seat in SEATS},
        "additionalProperties": False,
    }


class SeatMapField(serializers.DictField):
    """``{"<seat>": value}``: the keys are seat numbers, "0" to "9"."""

    def to_internal_value(self, data: object) -> dict[str, object]:
        if isinstance(data, dict):
            for key in data:
                if key not in SEATS:
                    raise serializers.ValidationError(
                        f"{key!r} is not a seat number (0 to {MAX_PLAYERS - 1})."
                    )
        return super().to_internal_value(data)


@extend_schema_field(
    _seat_map_schema({"type": "array", "items": {"type": "string", "pattern": CARD_PATTERN}})
)
class SeatCardsField(SeatMapField):
    pass


@extend_schema_field(
    _seat_map_schema({"type": "integer", "minimum": 0, "maximum": MAX_HAND_POINTS})
)
class SeatPointsField(SeatMapField):
    pass


class HandSerializer(StrictSerializer):
    """One hand of a score sheet. Every seat but ``out`` appears in ``remaining`` (its cards, in
    card notation) or in ``points`` (its points)."""

    type = serializers.ChoiceField(
        choices=["record_hand"], required=False, help_text="Optional: always record_hand."
    )
    out = StrictIntegerField(
        min_value=0, max_value=MAX_PLAYERS - 1, help_text="The seat that went out."
    )
    remaining = SeatCardsField(
        child=serializers.ListField(child=StrictCharField()),
        required=False,
        help_text='Seat number -> the cards left in that hand, e.g. {"0": ["R7", "W4"]}.',
    )
    points = SeatPointsField(
        child=StrictIntegerField(min_value=0, max_value=MAX_HAND_POINTS),
        required=False,
        help_text='Seat number -> the points left in that hand, e.g. {"1": 2}.',
    )
    expected_version = StrictIntegerField(
        min_value=0,
        max_value=MAX_VERSION,
        required=False,
        allow_null=True,
        help_text="409 stale if older.",
    )
    key = StrictCharField(
        max_length=KEY_LENGTH, required=False, allow_null=True, help_text="Idempotency key."
    )


class SeasonGamesQuerySerializer(serializers.Serializer):
    night = serializers.IntegerField(
        min_value=1, max_value=MAX_NIGHT, required=False, help_text="Only this night."
    )


# Responses ----------------------------------------------------------------------------------


class SettingsFields(serializers.Serializer):
    variant = serializers.CharField()
    scoring = serializers.CharField()
    target = serializers.IntegerField()


class SeasonSummarySerializer(SettingsFields):
    id = serializers.IntegerField()
    name = serializers.CharField()
    games = serializers.IntegerField()
    best_nights = serializers.IntegerField(allow_null=True)
    attendance_points = serializers.IntegerField()
    created_at = serializers.DateTimeField()


SIGNATURE_HELP = (
    "The server's Ed25519 signature (`key id:hex`, keys at `GET /api/chain/keys/`) of this "
    "record as stored (docs/TRUST.md); `tournaments.leagues.verification.published_problems` "
    "checks a league's answer with it."
)


class PlayerSummarySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    signature = serializers.CharField(help_text=SIGNATURE_HELP)


class LeagueSerializer(SettingsFields):
    id = serializers.IntegerField()
    name = serializers.CharField()
    options = serializers.DictField(help_text="The edition's options for the league's games.")
    signature = serializers.CharField(help_text=SIGNATURE_HELP)
    seasons = SeasonSummarySerializer(many=True)
    players = PlayerSummarySerializer(many=True)


class NamedSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class NightSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    date = serializers.DateField(allow_null=True)
    games = serializers.IntegerField()
    finished = serializers.IntegerField()


class RolesSerializer(serializers.Serializer):
    organisers = NamedSerializer(many=True, help_text="Each role's id and the person.")
    referees = NamedSerializer(many=True, help_text="Each role's id and the person.")


class TournamentRolesSerializer(serializers.Serializer):
    organiser = serializers.CharField(help_text="The tournament's organiser.")
    referees = NamedSerializer(many=True, help_text="Each role's id and the person.")


class SeasonSerializer(SettingsFields):
    id = serializers.IntegerField()
    name = serializers.CharField()
    league = NamedSerializer()
    best_nights = serializers.IntegerField(allow_null=True)
    attendance_points = serializers.IntegerField()
    overrides = serializers.DictField(help_text="The settings the season sets itself.")
    games = serializers.IntegerField()
    finished = serializers.IntegerField()
    nights = NightSerializer(many=True)
    created_at = serializers.DateTimeField()


class StandingRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField(help_text="Players level on every tie-breaker share a rank.")
    player = serializers.CharField()
    player_id = serializers.IntegerField()
    nights = serializers.IntegerField(help_text="Nights played.")
    nights_counted = serializers.IntegerField(help_text="Nights counted (best N).")
    games = serializers.IntegerField(help_text="Finished games in the counted nights.")
    wins = serializers.IntegerField()
    placings = serializers.ListField(
        child=serializers.IntegerField(), help_text="Games placed 1st, 2nd, 3rd, ..."
    )
    average_placing = serializers.FloatField(allow_null=True)
    hands_won = serializers.IntegerField()
    points = serializers.IntegerField(help_text="Scored (standard) or held (alternative).")
    attendance_points = serializers.IntegerField()
    league_points = serializers.IntegerField(help_text="Wins plus attendance points.")
    rating = serializers.FloatField(allow_null=True, help_text="openskill mu, every game counted.")
    rating_sigma = serializers.FloatField(allow_null=True)
    rated_games = serializers.IntegerField()


class StandingsSeasonSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    league = serializers.CharField()


class StandingsSerializer(serializers.Serializer):
    season = StandingsSeasonSerializer()
    scoring = serializers.CharField()
    points = serializers.ChoiceField(
        choices=["higher", "lower"], help_text="Whether more or fewer points rank higher."
    )
    best_nights = serializers.IntegerField(allow_null=True)
    attendance_points = serializers.IntegerField()
    rows = StandingRowSerializer(many=True)
    tie_breakers = serializers.ListField(
        child=serializers.CharField(), help_text="The columns the table is sorted by, in order."
    )
    tie_breaker_notes = serializers.ListField(
        child=serializers.CharField(), help_text="The tie-breakers as sentences, for the page."
    )


class GameSeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    player_id = serializers.IntegerField()
    player = serializers.CharField()
    rank = serializers.IntegerField(allow_null=True, help_text="Once the game is over.")
    score = serializers.IntegerField(allow_null=True)
    won = serializers.BooleanField(allow_null=True)


class NightSeatSerializer(GameSeatSerializer):
    total = serializers.IntegerField(allow_null=True, help_text="The game's score so far.")
    cards = serializers.IntegerField(allow_null=True, help_text="Cards held now.")
    to_play = serializers.BooleanField(help_text="Whether the table waits for this player.")


class NightTableDetailSerializer(serializers.Serializer):
    number = serializers.IntegerField(help_text="The table's number at the night.")
    game = serializers.UUIDField()
    sheet = serializers.BooleanField()
    status = serializers.CharField()
    version = serializers.IntegerField()
    hand = serializers.IntegerField(allow_null=True, help_text="The hand being played.")
    finished = serializers.BooleanField()
    seats = NightSeatSerializer(many=True)


class StandingMoveSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    player = serializers.CharField()
    player_id = serializers.IntegerField()
    before = serializers.IntegerField(allow_null=True, help_text="The rank before the night.")
    moved = serializers.IntegerField(help_text="Places gained (negative: lost).")


class NightDetailSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    date = serializers.DateField(allow_null=True)
    closed = serializers.BooleanField()
    closed_at = serializers.DateTimeField(allow_null=True)
    season = NamedSerializer()
    league = NamedSerializer()
    tables = NightTableDetailSerializer(many=True)
    playing = serializers.IntegerField(help_text="Tables still playing.")
    moves = StandingMoveSerializer(
        many=True,
        required=False,
        help_text="Once the night is closed: the standings beside those before the night.",
    )


class SeasonGameSerializer(SettingsFields):
    game = serializers.UUIDField()
    season_id = serializers.IntegerField()
    night = serializers.IntegerField()
    date = serializers.DateField(allow_null=True)
    sheet = serializers.BooleanField()
    status = serializers.CharField()
    version = serializers.IntegerField()
    seats = GameSeatSerializer(many=True)


class RatingStepSerializer(serializers.Serializer):
    game = serializers.UUIDField()
    rank = serializers.IntegerField()
    players = serializers.IntegerField()
    rating_before = serializers.FloatField()
    rating = serializers.FloatField()
    sigma = serializers.FloatField()


class PlayerSeasonSerializer(serializers.Serializer):
    season_id = serializers.IntegerField()
    season = serializers.CharField()
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    points = serializers.IntegerField()
    hands_won = serializers.IntegerField()
    average_placing = serializers.FloatField(allow_null=True)
    rating = serializers.FloatField(allow_null=True)
    rating_sigma = serializers.FloatField(allow_null=True)
    rating_history = RatingStepSerializer(many=True)


class PlayerSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    league = NamedSerializer()
    has_account = serializers.BooleanField()
    seasons = PlayerSeasonSerializer(many=True)
    games = SeasonGameSerializer(many=True)
