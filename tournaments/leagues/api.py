"""The league API (API.md, "Leagues, seasons and score sheets"): one small view per operation.

Each view parses, calls one service or selector, and returns. Reads are public (a club's table
is for everyone to see); writes need a user, and the services check that the user organises
the league. Errors leave through ``games.api.exception_handler`` in API.md's shapes.

``POST /api/games/{id}/hands/`` lives here, under the game's path: the game URLs do not claim it,
and the score sheet is how league nights without the app's cards get into the standings.
"""

from __future__ import annotations

import csv
import io
from typing import Any
from uuid import UUID

from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.parsers import JSONParser
from rest_framework.permissions import AllowAny
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api import (
    ERRORS_WRITE,
    GAME_ID,
    USER_AUTHENTICATION,
    GameAPIView,
    IsReferee,
    IsUser,
    created_answer,
)
from games.errors import NotFound
from games.serializers import (
    CommandResultSerializer,
    ErrorSerializer,
    EventSerializer,
    GameCreatedSerializer,
)
from tournaments.leagues import selectors, services
from tournaments.leagues.models import Night, Player
from tournaments.leagues.serializers import (
    HandSerializer,
    LeagueCreateSerializer,
    LeagueSerializer,
    NightCloseSerializer,
    NightCreateSerializer,
    NightDetailSerializer,
    NightTableSerializer,
    PlayerAccountSerializer,
    PlayerCreateSerializer,
    PlayerSerializer,
    PlayerSummarySerializer,
    RoleCreateSerializer,
    RolesSerializer,
    SeasonCreateSerializer,
    SeasonGameSerializer,
    SeasonGamesQuerySerializer,
    SeasonSerializer,
    StandingsSerializer,
    TableOffSerializer,
)


def error_response(description: str) -> OpenApiResponse:
    return OpenApiResponse(ErrorSerializer, description=description)


USER_AUTH = [{"tokenAuth": []}, {"cookieAuth": []}]
ORGANISER_ERRORS = {
    400: error_response("Malformed input: the field and what is wrong."),
    401: error_response("No credentials."),
    403: error_response("Not an organiser of this league."),
    404: error_response("No such league."),
}
LEAGUE_ID = OpenApiParameter("league_id", int, OpenApiParameter.PATH, description="The league.")
SEASON_ID = OpenApiParameter("season_id", int, OpenApiParameter.PATH, description="The season.")
PLAYER_ID = OpenApiParameter("player_id", int, OpenApiParameter.PATH, description="The player.")
NIGHT_ID = OpenApiParameter("night_id", int, OpenApiParameter.PATH, description="The night.")
NOT_FOUND = {404: error_response("No such league, season, night or player.")}


class UserView(APIView):
    """A write by a user (session or token)."""

    authentication_classes = USER_AUTHENTICATION
    permission_classes = [IsUser]
    parser_classes = [JSONParser]


class PublicView(APIView):
    """A read anyone may make."""

    authentication_classes: list[Any] = []
    permission_classes = [AllowAny]


class ReadWriteView(APIView):
    """A read anyone may make (``get``) beside a write by a user."""

    authentication_classes = USER_AUTHENTICATION
    parser_classes = [JSONParser]

    def get_permissions(self) -> list[Any]:
        return [AllowAny()] if self.request.method == "GET" else [IsUser()]


# Leagues ----------------------------------------------------------------------------------------


class LeagueCreateView(UserView):
    @extend_schema(
        operation_id="leagues_create",
        summary="Open a league (the caller becomes its organiser)",
        request=LeagueCreateSerializer,
        auth=USER_AUTH,
        responses={201: LeagueSerializer, **ORGANISER_ERRORS},
        examples=[
            OpenApiExample(
                "league",
                value={
                    "name": "Thursday Club",
                    "variant": "classic",
                    "scoring": "standard",
                    "target": 500,
                },
                request_only=True,
            )
        ],
    )
    def post(self, request: Request) -> Response:
        serializer = LeagueCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        league = services.open_league(created_by=request.user, **serializer.validated_data)
        body = LeagueSerializer(selectors.league_detail(league.pk)).data
        return Response(body, status=status.HTTP_201_CREATED)


class LeagueDetailView(PublicView):
    @extend_schema(
        operation_id="leagues_retrieve",
        summary="A league with its seasons and players",
        parameters=[LEAGUE_ID],
        responses={200: LeagueSerializer, **NOT_FOUND},
        auth=[],
    )
    def get(self, request: Request, league_id: int) -> Response:
        return Response(LeagueSerializer(selectors.league_detail(league_id)).data)


class SeasonCreateView(UserView):
    @extend_schema(
        operation_id="leagues_seasons_create",
        summary="Open a season of the league (organiser)",
        description="`variant`, `scoring` and `target` override the league's; `best_nights` "
        "counts only each player's best N nights; `attendance_points` are league points for "
        "each night played (docs/STANDINGS.md).",
        parameters=[LEAGUE_ID],
        request=SeasonCreateSerializer,
        auth=USER_AUTH,
        responses={201: SeasonSerializer, **ORGANISER_ERRORS},
        examples=[OpenApiExample("season", value={"name": "Autumn 2026"}, request_only=True)],
    )
    def post(self, request: Request, league_id: int) -> Response:
        league = services.get_league(league_id)
        serializer = SeasonCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        season = services.open_season(league=league, by=request.user, **serializer.validated_data)
        body = SeasonSerializer(selectors.season_detail(season.pk)).data
        return Response(body, status=status.HTTP_201_CREATED)


class PlayerCreateView(UserView):
    @extend_schema(
        operation_id="leagues_players_create",
        summary="Register a player of the league (organiser)",
        description="A player needs no account. Registering a name that is already a player "
        "answers that player. Games started with `season` register new names by themselves.",
        parameters=[LEAGUE_ID],
        request=PlayerCreateSerializer,
        auth=USER_AUTH,
        responses={201: PlayerSummarySerializer, **ORGANISER_ERRORS},
    )
    def post(self, request: Request, league_id: int) -> Response:
        league = services.get_league(league_id)
        serializer = PlayerCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        player = services.register_player(
            league=league, name=serializer.validated_data["name"], by=request.user
        )
        body = PlayerSummarySerializer(player).data
        return Response(body, status=status.HTTP_201_CREATED)


# Seasons ----------------------------------------------------------------------------------------


class SeasonDetailView(PublicView):
    @extend_schema(
        operation_id="seasons_retrieve",
        summary="A season: its settings and nights",
        parameters=[SEASON_ID],
        responses={200: SeasonSerializer, **NOT_FOUND},
        auth=[],
    )
    def get(self, request: Request, season_id: int) -> Response:
        return Response(SeasonSerializer(selectors.season_detail(season_id)).data)


class SeasonGamesView(PublicView):
    @extend_schema(
        operation_id="seasons_games_list",
        summary="The season's games with their seats and, once over, their results",
        parameters=[SEASON_ID, SeasonGamesQuerySerializer],
        responses={200: SeasonGameSerializer(many=True), **NOT_FOUND},
        auth=[],
    )
    def get(self, request: Request, season_id: int) -> Response:
        query = SeasonGamesQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        games = selectors.season_games(season_id, night=query.validated_data.get("night"))
        return Response(SeasonGameSerializer(games, many=True).data)


STANDINGS_EXAMPLE = {
    "season": {"id": 1, "name": "Autumn 2026", "league": "Thursday Club"},
    "scoring": "standard",
    "points": "higher",
    "best_nights": None,
    "attendance_points": 0,
    "rows": [
        {
            "rank": 1,
            "player": "Ann",
            "player_id": 3,
            "nights": 4,
            "nights_counted": 4,
            "games": 12,
            "wins": 5,
            "placings": [5, 4, 2, 1],
            "average_placing": 1.92,
            "hands_won": 31,
            "points": 2310,
            "attendance_points": 0,
            "league_points": 5,
            "rating": 27.4,
            "rating_sigma": 5.91,
            "rated_games": 12,
        }
    ],
    "tie_breakers": ["wins", "points", "average_placing", "hands_won"],
    "tie_breaker_notes": ["Wins: games won; more is better.", "..."],
}


class StandingsView(PublicView):
    @extend_schema(
        operation_id="seasons_standings_retrieve",
        summary="The season's standings, with the tie-breakers they are sorted by",
        description="Computed from the event log (finished games only), never typed in. "
        "`tie_breakers` lists the columns the table is sorted by; players level on all of "
        "them share the rank. See docs/STANDINGS.md.",
        parameters=[SEASON_ID],
        responses={200: StandingsSerializer, **NOT_FOUND},
        examples=[OpenApiExample("standings", value=STANDINGS_EXAMPLE, response_only=True)],
        auth=[],
    )
    def get(self, request: Request, season_id: int) -> Response:
        return Response(StandingsSerializer(selectors.season_standings(season_id)).data)


class CSVRenderer(BaseRenderer):
    """Rows (lists) as CSV. A cell a spreadsheet would take for a formula is quoted with ``'``
    (player names are typed in by people)."""

    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(self, data: Any, accepted_media_type: Any = None, renderer_context: Any = None):
        if isinstance(data, dict):  # an error
            data = [list(data), [str(value) for value in data.values()]]
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        for row in data:
            writer.writerow([_safe_cell(cell) for cell in row])
        return out.getvalue().encode(self.charset)


def _safe_cell(cell: Any) -> Any:
    if isinstance(cell, str) and cell[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + cell
    return cell


class StandingsCSVView(PublicView):
    renderer_classes = [CSVRenderer, JSONRenderer]

    @extend_schema(
        operation_id="seasons_standings_csv",
        summary="The season's standings as CSV",
        description="The same table as the standings endpoint, header first; `placings` as "
        "`5/4/2/1` (games placed 1st/2nd/3rd/4th).",
        parameters=[SEASON_ID],
        responses={(200, "text/csv"): OpenApiTypes.STR, **NOT_FOUND},
        auth=[],
    )
    def get(self, request: Request, season_id: int) -> Response:
        rows = selectors.standings_csv_rows(season_id)
        filename = f"standings-season-{season_id}.csv"
        return Response(rows, headers={"Content-Disposition": f'attachment; filename="{filename}"'})


# Organisers and referees ------------------------------------------------------------------------

ROLE_ID = OpenApiParameter("role_id", int, OpenApiParameter.PATH, description="The role.")
ROLE_KIND = OpenApiParameter(
    "kind", str, OpenApiParameter.PATH, enum=["organiser", "referee"], description="The role."
)
ROLE_ERRORS = {
    **ORGANISER_ERRORS,
    404: error_response("No such league or role."),
    409: error_response("A league keeps at least one organiser."),
}


def _league_roles(league_id: int, answer: int = status.HTTP_200_OK) -> Response:
    services.get_league(league_id)  # 404 for a league that is not there
    return Response(RolesSerializer(selectors.league_roles(league_id)).data, status=answer)


class LeagueRolesView(ReadWriteView):
    @extend_schema(
        operation_id="leagues_roles_list",
        summary="The league's organisers and named referees",
        parameters=[LEAGUE_ID],
        responses={200: RolesSerializer, **NOT_FOUND},
        auth=[],
    )
    def get(self, request: Request, league_id: int) -> Response:
        return _league_roles(league_id)

    @extend_schema(
        operation_id="leagues_roles_create",
        summary="Name an organiser or a referee of the league (organiser)",
        description="By the name the person signs in with. Naming someone twice changes nothing.",
        parameters=[LEAGUE_ID],
        request=RoleCreateSerializer,
        auth=USER_AUTH,
        responses={201: RolesSerializer, **ROLE_ERRORS},
        examples=[
            OpenApiExample(
                "referee", value={"username": "rita", "role": "referee"}, request_only=True
            )
        ],
    )
    def post(self, request: Request, league_id: int) -> Response:
        league = services.get_league(league_id)
        services.require_organiser(request.user, league)
        serializer = RoleCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.name_role(league=league, by=request.user, **serializer.validated_data)
        return _league_roles(league.pk, status.HTTP_201_CREATED)


class LeagueRoleRemoveView(UserView):
    @extend_schema(
        operation_id="leagues_roles_destroy",
        summary="Take an organiser's or a referee's role away (organiser)",
        description="Nothing they already ruled is undone. A league keeps one organiser.",
        parameters=[LEAGUE_ID, ROLE_KIND, ROLE_ID],
        request=None,
        auth=USER_AUTH,
        responses={200: RolesSerializer, **ROLE_ERRORS},
    )
    def delete(self, request: Request, league_id: int, kind: str, role_id: int) -> Response:
        league = services.get_league(league_id)
        services.remove_role(league=league, kind=kind, role_id=role_id, by=request.user)
        return _league_roles(league.pk)


# League nights ----------------------------------------------------------------------------------


def _night(night_id: int) -> Night:
    night = Night.objects.select_related("season__league").filter(pk=night_id).first()
    if night is None:
        raise NotFound(f"no night {night_id}")
    return night


def _night_body(night_id: int) -> dict[str, Any]:
    """The night as every reader may see it (no seat's secret: the organiser, its referee,
    finds each table's seats in the game's own answer), with the standings' moves once closed."""
    night = selectors.night_page(night_id)
    if night["closed"]:
        night["moves"] = selectors.standings_moves(night["season"]["id"], night["number"])
    return NightDetailSerializer(night).data


NIGHT_ERRORS = {
    **ORGANISER_ERRORS,
    404: error_response("No such season or night."),
    409: error_response("The night is closed, or a player still plays at another table."),
}


class NightCreateView(UserView):
    @extend_schema(
        operation_id="seasons_nights_create",
        summary="Open a league night of the season (organiser)",
        description="Nights are numbered in order. A date on which the season already has "
        "a night open answers that night (200) instead of opening another: a request sent "
        "again after its answer was lost opens one night. A game started with `season` and "
        "no night joins the season's open night of the day (opened if there is none).",
        parameters=[SEASON_ID],
        request=NightCreateSerializer,
        auth=USER_AUTH,
        responses={201: NightDetailSerializer, 200: NightDetailSerializer, **NIGHT_ERRORS},
        examples=[OpenApiExample("night", value={"date": "2026-11-26"}, request_only=True)],
    )
    def post(self, request: Request, season_id: int) -> Response:
        season = services.get_season(season_id)
        serializer = NightCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        date = serializer.validated_data.get("date") or timezone.localdate()
        night, opened = services.open_night_once(season=season, date=date, by=request.user)
        answer = status.HTTP_201_CREATED if opened else status.HTTP_200_OK
        return Response(_night_body(night.pk), status=answer)


class NightDetailView(PublicView):
    @extend_schema(
        operation_id="nights_retrieve",
        summary="A league night: its tables as they play and, once closed, how the standings moved",
        parameters=[NIGHT_ID],
        responses={200: NightDetailSerializer, **NOT_FOUND},
        auth=[],
    )
    def get(self, request: Request, night_id: int) -> Response:
        return Response(_night_body(night_id))


class NightTableView(UserView):
    @extend_schema(
        operation_id="nights_tables_create",
        summary="Seat a table at the night (organiser)",
        description="A game on the site (each player opens their seat's `link`; the organiser "
        "finds them all on the `lobby` page) or, with `sheet`, a paper score sheet the organiser "
        "keeps (`POST /api/games/{id}/hands/`). The season's settings apply and the game "
        "counts in its standings. A player still playing at another table of the night is "
        "refused until that game is over.",
        parameters=[NIGHT_ID],
        request=NightTableSerializer,
        auth=USER_AUTH,
        responses={201: GameCreatedSerializer, **NIGHT_ERRORS},
        examples=[
            OpenApiExample(
                "table", value={"players": ["Ann", "Bob", "Cy"], "sheet": False}, request_only=True
            )
        ],
    )
    def post(self, request: Request, night_id: int) -> Response:
        night = _night(night_id)
        services.require_organiser(request.user, night.season.league)
        serializer = NightTableSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        game = services.start_season_game(
            season=night.season,
            night=night,
            players=serializer.validated_data["players"],
            created_by=request.user,
            sheet=serializer.validated_data["sheet"],
        )
        return created_answer(request, game)


class NightCloseView(UserView):
    @extend_schema(
        operation_id="nights_close",
        summary="Close the night (organiser)",
        description="No table is seated at a closed night. Refused while a table still plays, "
        "naming it, unless `leave_playing`. The answer holds how the standings moved.",
        parameters=[NIGHT_ID],
        request=NightCloseSerializer,
        auth=USER_AUTH,
        responses={200: NightDetailSerializer, **NIGHT_ERRORS},
    )
    def post(self, request: Request, night_id: int) -> Response:
        night = _night(night_id)
        serializer = NightCloseSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.close_night(
            night=night,
            by=request.user,
            leave_playing=serializer.validated_data["leave_playing"],
        )
        return Response(_night_body(night.pk))


class NightTableOffView(UserView):
    @extend_schema(
        operation_id="nights_tables_take_off",
        summary="Take a table seated by mistake off the night (organiser)",
        description="While its first hand is being played: its game takes no more moves and "
        "counts nowhere. 409 once a hand of it has ended (correct it with undo).",
        parameters=[
            NIGHT_ID,
            OpenApiParameter("game_id", str, OpenApiParameter.PATH, description="The game."),
        ],
        request=TableOffSerializer,
        auth=USER_AUTH,
        responses={200: NightDetailSerializer, **NIGHT_ERRORS},
        examples=[
            OpenApiExample("reason", value={"reason": "Bea seated as bea"}, request_only=True)
        ],
    )
    def post(self, request: Request, night_id: int, game_id: UUID) -> Response:
        night = _night(night_id)
        serializer = TableOffSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.take_table_off(
            night=night,
            game_id=game_id,
            reason=serializer.validated_data["reason"],
            by=request.user,
        )
        return Response(_night_body(night.pk))


# Players ----------------------------------------------------------------------------------------


class PlayerDetailView(PublicView):
    @extend_schema(
        operation_id="players_retrieve",
        summary="A player: each season's line and rating history, and their games",
        parameters=[PLAYER_ID],
        responses={200: PlayerSerializer, **NOT_FOUND},
        auth=[],
    )
    def get(self, request: Request, player_id: int) -> Response:
        return Response(PlayerSerializer(selectors.player_detail(player_id)).data)


def _player(player_id: int) -> Player:
    player = Player.objects.select_related("league").filter(pk=player_id).first()
    if player is None:
        raise NotFound(f"no player {player_id}")
    return player


PLAYER_ERRORS = {**ORGANISER_ERRORS, 404: error_response("No such player.")}


class PlayerRenameView(UserView):
    @extend_schema(
        operation_id="players_rename",
        summary="Correct a player's name (organiser)",
        description="Games already played keep the name they were played under. A name another "
        "player of the league has, in any capitals or form, is refused (400).",
        parameters=[PLAYER_ID],
        request=PlayerCreateSerializer,
        auth=USER_AUTH,
        responses={200: PlayerSerializer, **PLAYER_ERRORS},
        examples=[OpenApiExample("name", value={"name": "Bea"}, request_only=True)],
    )
    def post(self, request: Request, player_id: int) -> Response:
        player = _player(player_id)
        serializer = PlayerCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.rename_player(
            player=player, name=serializer.validated_data["name"], by=request.user
        )
        return Response(PlayerSerializer(selectors.player_detail(player_id)).data)


class PlayerAccountView(UserView):
    @extend_schema(
        operation_id="players_account",
        summary="Link the account a player signs in with, or unlink it (organiser)",
        description="An account plays under one name in a league (400 otherwise).",
        parameters=[PLAYER_ID],
        request=PlayerAccountSerializer,
        auth=USER_AUTH,
        responses={200: PlayerSerializer, **PLAYER_ERRORS},
        examples=[OpenApiExample("username", value={"username": "bea"}, request_only=True)],
    )
    def post(self, request: Request, player_id: int) -> Response:
        player = _player(player_id)
        serializer = PlayerAccountSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.link_account(
            player=player, username=serializer.validated_data["username"], by=request.user
        )
        return Response(PlayerSerializer(selectors.player_detail(player_id)).data)


# Score sheets -----------------------------------------------------------------------------------


class HandsView(GameAPIView):
    permission_classes = [IsReferee]

    @extend_schema(
        operation_id="games_hands_create",
        summary="Record a hand of a score-sheet game (referee)",
        description="Who went out, and for every other seat either the cards left in the hand "
        "(card notation, checked against the variant's deck) or their points. The hand is an "
        "event, scored by the game's scoring; a mistake is undone (`/undo/`), never edited. "
        "`expected_version` and `key` work as for commands.",
        parameters=[GAME_ID],
        request=HandSerializer,
        responses={
            201: CommandResultSerializer,
            **ERRORS_WRITE,
            409: error_response(
                "The game is not an open score sheet, or expected_version is stale."
            ),
        },
        examples=[
            OpenApiExample(
                "cards",
                value={"out": 2, "remaining": {"0": ["R7", "W4"], "1": ["G2"]}},
                request_only=True,
            ),
            OpenApiExample(
                "points", value={"out": 2, "points": {"0": 57, "1": 2}}, request_only=True
            ),
        ],
    )
    def post(self, request: Request, game_id: Any) -> Response:
        caller = self.caller()
        serializer = HandSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        result = services.record_hand(
            game_id=caller.game.pk,
            out=data["out"],
            remaining=data.get("remaining"),
            points=data.get("points"),
            actor=caller.actor,
            expected_version=data.get("expected_version"),
            key=data.get("key"),
        )
        # The referee sees every event whole.
        context = {"viewer": None, "revealed": True}
        events = EventSerializer(result.events, many=True, context=context).data
        return Response(
            {"version": result.version, "events": events, "receipt": result.receipt},
            status=status.HTTP_201_CREATED,
        )
