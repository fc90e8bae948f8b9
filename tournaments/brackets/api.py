"""The tournament API (API.md, "Tournaments"): one small view per operation, beside the league
API. Each view parses, calls one service or selector, and returns the tournament as
``GET /api/tournaments/{id}/`` shows it. Reads are public; writes need a user, and the
services check that the user organises the tournament. The organiser reaches every table's
seats through ``GET /api/games/{id}/`` as referee.
"""

from __future__ import annotations

from collections.abc import Callable

from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from games.errors import NotFound
from tournaments.brackets import directing, selectors, services
from tournaments.brackets.serializers import (
    AwardSerializer,
    PlayerNameSerializer,
    ReasonSerializer,
    ResultSerializer,
    TournamentCreateSerializer,
    TournamentSerializer,
)
from tournaments.leagues import selectors as league_selectors
from tournaments.leagues import services as league_services
from tournaments.leagues.api import (
    NOT_FOUND,
    ORGANISER_ERRORS,
    ROLE_ID,
    USER_AUTH,
    PublicView,
    ReadWriteView,
    UserView,
    error_response,
)
from tournaments.leagues.models import Referee
from tournaments.leagues.serializers import RefereeCreateSerializer, TournamentRolesSerializer

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


class DirectorView(UserView):
    """A director's request: the organiser is checked first (403 before any 400)."""

    def initial(self, request: Request, *args: object, **kwargs: object) -> None:
        super().initial(request, *args, **kwargs)
        directing.require_director(tournament_id=kwargs["tournament_id"], by=request.user)


class TournamentEntryView(DirectorView):
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


class TournamentDropView(DirectorView):
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


# The director's tools (docs/TOURNAMENTS.md, "The director's tools") ---------------------------

ROUND_NUMBER = OpenApiParameter(
    "round_number", int, OpenApiParameter.PATH, description="The round."
)
TABLE_NUMBER = OpenApiParameter(
    "table_number", int, OpenApiParameter.PATH, description="The table, in its round."
)
DIRECTOR_ERRORS = {
    400: error_response("Malformed input: the field and what is wrong."),
    401: error_response("No credentials."),
    403: error_response("Not the tournament's organiser."),
    404: error_response("No such tournament, round or table."),
    409: error_response("Not now: a table still plays, play has begun, already decided, over."),
}
REASON_EXAMPLE = OpenApiExample(
    "reason", value={"reason": "the deal was wrong at table 2"}, request_only=True
)


def _parsed(serializer_class: type, request: Request) -> dict:
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def _entry_tool(
    service: Callable[..., None], operation_id: str, summary: str, description: str
) -> type[DirectorView]:
    """A director's tool on one entry before the start (``{"player"}``), answering with the
    tournament: check-in, taking a check-in back, taking a drop back."""

    class EntryToolView(DirectorView):
        @extend_schema(
            operation_id=operation_id,
            summary=summary,
            description=description,
            parameters=[TOURNAMENT_ID],
            request=PlayerNameSerializer,
            auth=USER_AUTH,
            responses={200: TournamentSerializer, **DIRECTOR_ERRORS},
            examples=[OpenApiExample("player", value={"player": "Ann"}, request_only=True)],
        )
        def post(self, request: Request, tournament_id: int) -> Response:
            data = _parsed(PlayerNameSerializer, request)
            service(tournament_id=tournament_id, player=data["player"], by=request.user)
            return _detail(tournament_id)

    return EntryToolView


TournamentCheckInView = _entry_tool(
    directing.check_in,
    "tournaments_entries_check_in",
    "Check a player in before the start (organiser)",
    "Once anyone is checked in, starting drops the players who are not.",
)
TournamentCheckOutView = _entry_tool(
    directing.check_out,
    "tournaments_entries_check_out",
    "Take back a player's check-in before the start (organiser)",
    "For a player checked in by mistake; 409 if they are not checked in.",
)
TournamentUndropView = _entry_tool(
    directing.take_back_drop,
    "tournaments_entries_undrop",
    "Take back a player's drop before the start (organiser)",
    "For a player dropped by mistake: entered again, not checked in; 409 if not dropped.",
)


class TournamentAdvanceView(DirectorView):
    @extend_schema(
        operation_id="tournaments_advance",
        summary="Seat the next round now that no table plays (organiser)",
        description="Records every table whose game is over, then seats the next round or "
        "ends the tournament. 409 while a table still plays.",
        parameters=[TOURNAMENT_ID],
        request=None,
        auth=USER_AUTH,
        responses={200: TournamentSerializer, **DIRECTOR_ERRORS},
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        directing.advance_round(tournament_id=tournament_id, by=request.user)
        return _detail(tournament_id)


class TournamentRepairView(DirectorView):
    @extend_schema(
        operation_id="tournaments_repair",
        summary="Seat the last round again before anyone has played at it (organiser)",
        description="After a drop or a check-in: the round's tables are taken down and the "
        "round is seated from the entries as they are now. 409 once play has begun.",
        parameters=[TOURNAMENT_ID],
        request=ReasonSerializer,
        auth=USER_AUTH,
        responses={200: TournamentSerializer, **DIRECTOR_ERRORS},
        examples=[OpenApiExample("reason", value={"reason": "Dee went home"}, request_only=True)],
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        data = _parsed(ReasonSerializer, request)
        directing.repair_round(tournament_id=tournament_id, reason=data["reason"], by=request.user)
        return _detail(tournament_id)


class TableReopenView(DirectorView):
    @extend_schema(
        operation_id="tournaments_tables_reopen",
        summary="Reopen a decided table; the rounds seated from it are reset (organiser)",
        description="Its result is withdrawn and every later round taken down. Then its game "
        "may be undone (`POST /api/games/{id}/undo/`), a result awarded or time called.",
        parameters=[TOURNAMENT_ID, ROUND_NUMBER, TABLE_NUMBER],
        request=ReasonSerializer,
        auth=USER_AUTH,
        responses={200: TournamentSerializer, **DIRECTOR_ERRORS},
        examples=[REASON_EXAMPLE],
    )
    def post(
        self, request: Request, tournament_id: int, round_number: int, table_number: int
    ) -> Response:
        data = _parsed(ReasonSerializer, request)
        directing.reopen_table(
            tournament_id=tournament_id,
            round_number=round_number,
            table_number=table_number,
            reason=data["reason"],
            by=request.user,
        )
        return _detail(tournament_id)


class TableAwardView(DirectorView):
    @extend_schema(
        operation_id="tournaments_tables_award",
        summary="Award a playing table's result: forfeit, disqualification, no-show (organiser)",
        description="`placings` lists every player of the table once, best first. The ruling "
        "and its reason are shown on the tournament page; the table's game is left where it "
        "stands.",
        parameters=[TOURNAMENT_ID, ROUND_NUMBER, TABLE_NUMBER],
        request=AwardSerializer,
        auth=USER_AUTH,
        responses={200: TournamentSerializer, **DIRECTOR_ERRORS},
        examples=[
            OpenApiExample(
                "no-show",
                value={
                    "kind": "no_show",
                    "placings": ["Ann", "Bob"],
                    "reason": "Bob did not come back from the break",
                },
                request_only=True,
            )
        ],
    )
    def post(
        self, request: Request, tournament_id: int, round_number: int, table_number: int
    ) -> Response:
        data = _parsed(AwardSerializer, request)
        directing.award_result(
            tournament_id=tournament_id,
            round_number=round_number,
            table_number=table_number,
            by=request.user,
            **data,
        )
        return _detail(tournament_id)


class TableResultView(DirectorView):
    @extend_schema(
        operation_id="tournaments_tables_result",
        summary="Enter the result of a table played with cards, as its players report it "
        "(organiser)",
        description="`placings` lists every player of the table once, best first. Recorded "
        "as the director's ruling (kind `cards`), against nobody; the table's game on the "
        "site is left where it stands.",
        parameters=[TOURNAMENT_ID, ROUND_NUMBER, TABLE_NUMBER],
        request=ResultSerializer,
        auth=USER_AUTH,
        responses={200: TournamentSerializer, **DIRECTOR_ERRORS},
        examples=[
            OpenApiExample(
                "played with cards",
                value={"placings": ["Bob", "Ann"], "reason": "played with cards"},
                request_only=True,
            )
        ],
    )
    def post(
        self, request: Request, tournament_id: int, round_number: int, table_number: int
    ) -> Response:
        data = _parsed(ResultSerializer, request)
        directing.enter_result(
            tournament_id=tournament_id,
            round_number=round_number,
            table_number=table_number,
            by=request.user,
            **data,
        )
        return _detail(tournament_id)


class TableCallTimeView(DirectorView):
    @extend_schema(
        operation_id="tournaments_tables_call_time",
        summary="Call time on a playing table: ranked as its game stands (organiser)",
        description="By the game's total so far, then fewest points in hand, then fewest "
        "cards (docs/TOURNAMENTS.md).",
        parameters=[TOURNAMENT_ID, ROUND_NUMBER, TABLE_NUMBER],
        request=ReasonSerializer,
        auth=USER_AUTH,
        responses={200: TournamentSerializer, **DIRECTOR_ERRORS},
        examples=[
            OpenApiExample(
                "time", value={"reason": "the round's 40 minutes are up"}, request_only=True
            )
        ],
    )
    def post(
        self, request: Request, tournament_id: int, round_number: int, table_number: int
    ) -> Response:
        data = _parsed(ReasonSerializer, request)
        directing.call_time(
            tournament_id=tournament_id,
            round_number=round_number,
            table_number=table_number,
            reason=data["reason"],
            by=request.user,
        )
        return _detail(tournament_id)


# Referees ----------------------------------------------------------------------------------------


REFEREE_ERRORS = {
    **ORGANISER_ERRORS,
    404: error_response("No such tournament, or no such referee of it."),
}


def _tournament_roles(tournament_id: int, answer: int = status.HTTP_200_OK) -> Response:
    body = TournamentRolesSerializer(league_selectors.tournament_roles(tournament_id)).data
    return Response(body, status=answer)


class TournamentRefereesView(ReadWriteView):
    @extend_schema(
        operation_id="tournaments_referees_list",
        summary="The tournament's organiser and named referees",
        parameters=[TOURNAMENT_ID],
        responses={200: TournamentRolesSerializer, **NOT_FOUND},
        auth=[],
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        return _tournament_roles(tournament_id)

    @extend_schema(
        operation_id="tournaments_referees_create",
        summary="Name a referee of the tournament (its organiser)",
        description="By the name the person signs in with; they referee every table of it.",
        parameters=[TOURNAMENT_ID],
        request=RefereeCreateSerializer,
        auth=USER_AUTH,
        responses={201: TournamentRolesSerializer, **REFEREE_ERRORS},
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        tournament = services.get_tournament(tournament_id)
        league_services.require_tournament_organiser(request.user, tournament)
        serializer = RefereeCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        league_services.name_referee(
            tournament=tournament,
            username=serializer.validated_data["username"],
            by=request.user,
        )
        return _tournament_roles(tournament.pk, status.HTTP_201_CREATED)


class TournamentRefereeRemoveView(UserView):
    @extend_schema(
        operation_id="tournaments_referees_destroy",
        summary="Take a referee's role away (the tournament's organiser)",
        parameters=[TOURNAMENT_ID, ROLE_ID],
        request=None,
        auth=USER_AUTH,
        responses={200: TournamentRolesSerializer, **REFEREE_ERRORS},
    )
    def delete(self, request: Request, tournament_id: int, role_id: int) -> Response:
        tournament = services.get_tournament(tournament_id)
        league_services.require_tournament_organiser(request.user, tournament)
        referee = Referee.objects.filter(pk=role_id, tournament=tournament).first()
        if referee is None:
            raise NotFound(f"no referee role {role_id} in {tournament.name}")
        league_services.remove_referee(referee=referee, by=request.user)
        return _tournament_roles(tournament.pk)
