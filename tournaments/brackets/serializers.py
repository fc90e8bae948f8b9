"""The tournament API's input and output shapes (API.md, "Tournaments"). Input is strict like
the game API's: unknown fields are errors naming them, and a number is not a string."""

from __future__ import annotations

from rest_framework import serializers

from games.serializers import (
    MAX_TARGET,
    NAME_LENGTH,
    StrictBooleanField,
    StrictCharField,
    StrictIntegerField,
    StrictSerializer,
)
from rules.engine import SCORINGS
from rules.variants import variant_names
from tournaments.brackets.pairing import MAX_TABLE, MIN_TABLE

# The ranges services.create_tournament checks, said in the schema too.
MAX_ROUNDS = 50
TURN_SECONDS = (5, 3600)


class TournamentCreateSerializer(StrictSerializer):
    name = StrictCharField(max_length=NAME_LENGTH)
    variant = serializers.ChoiceField(choices=variant_names(), default="classic")
    scoring = serializers.ChoiceField(choices=SCORINGS, default="standard")
    target = StrictIntegerField(min_value=1, max_value=MAX_TARGET, default=500)
    options = serializers.DictField(
        default=dict,
        help_text="The edition's options for the tables' games, as POST /api/games/ takes them.",
    )
    format = serializers.ChoiceField(choices=["elimination", "swiss"])
    table_size = StrictIntegerField(min_value=MIN_TABLE, max_value=MAX_TABLE)
    advance = StrictIntegerField(
        min_value=1, max_value=MAX_TABLE - 1, default=1, help_text="Fewer than table_size."
    )
    rounds = StrictIntegerField(min_value=1, max_value=MAX_ROUNDS, default=1)
    final_table = StrictBooleanField(default=False)
    duplicate_deals = StrictBooleanField(default=False)
    players = serializers.ListField(child=StrictCharField(max_length=NAME_LENGTH), default=list)
    seeding = serializers.ChoiceField(choices=["rating", "manual"], default="manual")
    turn_seconds = StrictIntegerField(
        min_value=TURN_SECONDS[0],
        max_value=TURN_SECONDS[1],
        required=False,
        allow_null=True,
        default=None,
    )


class PlayerNameSerializer(StrictSerializer):
    player = StrictCharField(max_length=NAME_LENGTH)


REASON_LENGTH = 300


class ReasonSerializer(StrictSerializer):
    reason = StrictCharField(
        max_length=REASON_LENGTH, help_text="Why: shown on the tournament page."
    )


class ResultSerializer(StrictSerializer):
    placings = serializers.ListField(
        child=StrictCharField(max_length=NAME_LENGTH),
        allow_empty=False,
        help_text="Every player of the table once, in the order they placed, best first.",
    )
    reason = StrictCharField(
        max_length=REASON_LENGTH,
        default="played with cards",
        help_text="Shown on the tournament page with the result.",
    )


class AwardSerializer(StrictSerializer):
    kind = serializers.ChoiceField(choices=["forfeit", "disqualification", "no_show"])
    placings = serializers.ListField(
        child=StrictCharField(max_length=NAME_LENGTH),
        allow_empty=False,
        help_text="Every player of the table once, best first.",
    )
    reason = StrictCharField(
        max_length=REASON_LENGTH, help_text="Why: shown on the tournament page."
    )


class TableSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    game = serializers.UUIDField()
    players = serializers.ListField(child=serializers.CharField(), help_text="seat order")
    status = serializers.ChoiceField(choices=["playing", "finished"])
    placings = serializers.ListField(child=serializers.CharField(), help_text="best first")
    decided_by = serializers.ChoiceField(
        choices=["", "game", "award", "time", "absent", "cards"],
        help_text="what decided the placings: the game, or a ruling (see rulings)",
    )
    absent = serializers.ListField(
        child=serializers.CharField(), help_text="players ruled absent (they place last)"
    )


class RoundSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=["elimination", "swiss", "final"])
    status = serializers.ChoiceField(choices=["playing", "finished"])
    byes = serializers.ListField(child=serializers.CharField())
    tables = TableSerializer(many=True)


class TournamentStandingSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    player = serializers.CharField()
    seed = serializers.IntegerField()
    points = serializers.FloatField()
    wins = serializers.IntegerField()
    tables = serializers.IntegerField()
    byes = serializers.IntegerField()
    opponents_points = serializers.FloatField()
    final_placing = serializers.IntegerField(allow_null=True)
    dropped = serializers.BooleanField()


class EntrySerializer(serializers.Serializer):
    player = serializers.CharField()
    seed = serializers.IntegerField()
    joined = serializers.IntegerField(help_text="the first round the player can be seated in")
    dropped = serializers.BooleanField()
    checked_in = serializers.BooleanField()


class DirectorRulingSerializer(serializers.Serializer):
    """A decision of the tournament's director (schema component DirectorRuling), with what
    a club needs to check it was the server's: its number, link and signature
    (``tournaments.brackets.rulings.published_problems``, docs/TRUST.md)."""

    number = serializers.IntegerField(
        help_text="its place in the tournament's rulings: 1, 2, 3 … with none missing"
    )
    round = serializers.IntegerField()
    table = serializers.IntegerField(allow_null=True)
    kind = serializers.ChoiceField(
        choices=[
            "forfeit",
            "disqualification",
            "no_show",
            "time",
            "absent",
            "reopened",
            "withdrawn",
            "repaired",
            "cards",
        ]
    )
    reason = serializers.CharField()
    players = serializers.ListField(
        child=serializers.CharField(),
        help_text="the placings decided, best first, or the players it names",
    )
    against = serializers.ListField(
        child=serializers.CharField(),
        help_text="who forfeited, was disqualified or did not show (a forfeit, a "
        "disqualification, a no-show); empty for the other kinds",
    )
    at = serializers.DateTimeField()
    made_by = serializers.IntegerField(
        allow_null=True,
        help_text="the account of the director who made it; null when the service made it "
        "(a turn timer, a seat ruled absent by the sweeps)",
    )
    link = serializers.CharField(
        help_text="SHA-256 (hex) over the ruling before's link and this ruling's fields "
        "(docs/TRUST.md says which)"
    )
    signature = serializers.CharField(
        help_text="the server's Ed25519 signature of the tournament, the number and the link, "
        "checked with GET /api/chain/keys/"
    )


class TournamentSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    status = serializers.ChoiceField(choices=["draft", "running", "finished"])
    settings = serializers.DictField()
    entries = EntrySerializer(many=True)
    rounds = RoundSerializer(many=True)
    standings = TournamentStandingSerializer(many=True)
    rulings = DirectorRulingSerializer(
        many=True, help_text="the director's decisions, oldest first"
    )
    winner = serializers.CharField(allow_null=True)
