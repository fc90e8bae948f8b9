"""The tournament API (API.md, "Tournaments"): one small view per operation, beside the league
API. Each view parses, calls one service or selector, and returns the tournament as
``GET /api/tournaments/{id}/`` shows it. Reads are public; writes need a user, and the
services check that the user organises the tournament. The organiser reaches every table's
seats through ``GET /api/games/{id}/`` as referee.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.brackets import selectors, services
from tournaments.brackets.serializers import (
    PlayerNameSerializer,
    TournamentCreateSerializer,
    TournamentSerializer,
)
from tournaments.leagues.api import (
    ORGANISER_ERRORS,
    USER_AUTH,
    PublicView,
    UserView,
    error_response,
)

TOURNAMENT_ID = OpenApiParameter(
    "tournament_id", int, OpenApiParameter.PATH, description="The tournament."
)
CHANGE_ERRORS = {
    **ORGANISER_ERRORS,
    409: error_response("Not now: started, over, or already entered."),
}


def _detail(tournament_id: int, code: int = status.HTTP_200_OK) -> Response:
    return Response(selectors.tournament_detail(tournament_id), status=code)


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
        tournament = services.create_tournament(organiser=request.user, **serializer.validated_data)
        return _detail(tournament.pk, status.HTTP_201_CREATED)


class TournamentDetailView(PublicView):
    @extend_schema(
        operation_id="tournaments_retrieve",
        summary="A tournament: its rounds with their tables and placings, standings, winner",
        parameters=[TOURNAMENT_ID],
        responses={200: TournamentSerializer, 404: error_response("No such tournament.")},
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
        services.start_tournament(tournament_id=tournament_id, by=request.user)
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
        services.add_entry(
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
        services.drop_entry(
            tournament_id=tournament_id, player=serializer.validated_data["player"], by=request.user
        )
        return _detail(tournament_id)
