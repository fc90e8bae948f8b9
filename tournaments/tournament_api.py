"""The tournament API (API.md, "Tournaments"): one small view per operation, beside the league
API. Each view parses, calls one service or selector, and returns the tournament as
``GET /api/tournaments/{id}/`` shows it. Reads are public; writes need a user, and the
services check that the user organises the tournament. The organiser reaches every table's
seats through ``GET /api/games/{id}/`` as referee.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

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
from tournaments import tournament_selectors, tournament_services
from tournaments.api import ORGANISER_ERRORS, USER_AUTH, PublicView, UserView, _error
from tournaments.pairing import MAX_TABLE, MIN_TABLE

TOURNAMENT_ID = OpenApiParameter(
    "tournament_id", int, OpenApiParameter.PATH, description="The tournament."
)
CHANGE_ERRORS = {**ORGANISER_ERRORS, 409: _error("Not now: started, over, or already entered.")}


# The ranges tournament_services.create_tournament checks, said in the schema too.
MAX_ROUNDS = 50
TURN_SECONDS = (5, 3600)


class TournamentCreateSerializer(StrictSerializer):
    name = StrictCharField(max_length=NAME_LENGTH)
    variant = serializers.ChoiceField(choices=variant_names(), default="classic")
    scoring = serializers.ChoiceField(choices=SCORINGS, default="standard")
    target = StrictIntegerField(min_value=1, max_value=MAX_TARGET, default=500)
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


class TableSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    game = serializers.UUIDField()
    players = serializers.ListField(child=serializers.CharField(), help_text="seat order")
    status = serializers.ChoiceField(choices=["playing", "finished"])
    placings = serializers.ListField(child=serializers.CharField(), help_text="best first")


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


class TournamentSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    status = serializers.ChoiceField(choices=["draft", "running", "finished"])
    settings = serializers.DictField()
    entries = EntrySerializer(many=True)
    rounds = RoundSerializer(many=True)
    standings = TournamentStandingSerializer(many=True)
    winner = serializers.CharField(allow_null=True)


def _detail(tournament_id: int, code: int = status.HTTP_200_OK) -> Response:
    return Response(tournament_selectors.tournament_detail(tournament_id), status=code)


class TournamentCreateView(UserView):
    @extend_schema(
        operation_id="tournaments_create",
        summary="Create a tournament (the caller becomes its organiser)",
        description="Players are seeded in the order given (`manual`) or by rating "
        "(`rating`). `POST /api/tournaments/{id}/start/` seats round 1 (docs/TOURNAMENTS.md).",
        request=TournamentCreateSerializer,
        auth=USER_AUTH,
        responses={201: TournamentSerializer, **ORGANISER_ERRORS},
        examples=[
            OpenApiExample(
                "swiss",
                value={
                    "name": "Winter Open",
                    "variant": "classic",
                    "scoring": "standard",
                    "target": 500,
                    "format": "swiss",
                    "table_size": 4,
                    "advance": 2,
                    "rounds": 3,
                    "final_table": True,
                    "duplicate_deals": False,
                    "players": ["Ann", "Bob", "Cid", "Dee", "Eve"],
                    "seeding": "manual",
                },
                request_only=True,
            )
        ],
    )
    def post(self, request: Request) -> Response:
        serializer = TournamentCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        tournament = tournament_services.create_tournament(
            organiser=request.user, **serializer.validated_data
        )
        return _detail(tournament.pk, status.HTTP_201_CREATED)


class TournamentDetailView(PublicView):
    @extend_schema(
        operation_id="tournaments_retrieve",
        summary="A tournament: its rounds with their tables and placings, standings, winner",
        parameters=[TOURNAMENT_ID],
        responses={200: TournamentSerializer, 404: _error("No such tournament.")},
        auth=[],
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        return _detail(tournament_id)


class TournamentStartView(UserView):
    @extend_schema(
        operation_id="tournaments_start",
        summary="Start the tournament: seat round 1 (organiser)",
        parameters=[TOURNAMENT_ID],
        request=None,
        auth=USER_AUTH,
        responses={200: TournamentSerializer, **CHANGE_ERRORS},
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        tournament_services.start_tournament(tournament_id=tournament_id, by=request.user)
        return _detail(tournament_id)


class TournamentEntryView(UserView):
    @extend_schema(
        operation_id="tournaments_entries_create",
        summary="Enter a player, also late, between rounds (organiser)",
        parameters=[TOURNAMENT_ID],
        request=PlayerNameSerializer,
        auth=USER_AUTH,
        responses={201: TournamentSerializer, **CHANGE_ERRORS},
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        serializer = PlayerNameSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        tournament_services.add_entry(
            tournament_id=tournament_id, player=serializer.validated_data["player"], by=request.user
        )
        return _detail(tournament_id, status.HTTP_201_CREATED)


class TournamentDropView(UserView):
    @extend_schema(
        operation_id="tournaments_entries_drop",
        summary="Drop a player out from the next round on (organiser)",
        parameters=[TOURNAMENT_ID],
        request=PlayerNameSerializer,
        auth=USER_AUTH,
        responses={200: TournamentSerializer, **CHANGE_ERRORS},
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        serializer = PlayerNameSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        tournament_services.drop_entry(
            tournament_id=tournament_id, player=serializer.validated_data["player"], by=request.user
        )
        return _detail(tournament_id)
