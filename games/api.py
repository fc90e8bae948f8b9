"""The game API (API.md, version 1): one small view per operation.

Each view parses its input, calls the service that does the work, and shapes the answer. Who
the caller is at the table (a seat, a referee, or neither) is worked out once per request by
``GameAPIView.caller``, from what authentication read (a seat's game and table come with its
secret). What they may see is decided by ``rules.views`` (hands, redacted events),
``games.visibility`` (when a finished game is revealed) and ``games.serializers.event_json``
(hashes, salts and keys). Every error, from DRF, the services or the engine, leaves through
``exception_handler`` in API.md's shape.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from dataclasses import fields as dataclass_fields
from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import TooManyFieldsSent, TooManyFilesSent
from django.http import Http404
from django.urls import reverse
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import exceptions, status
from rest_framework.authentication import SessionAuthentication
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.parsers import JSONParser
from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView, set_rollback

from config.views import DATABASE_AWAY, RETRY_AFTER, UNAVAILABLE_DETAIL
from games import chain, errors, registry, seating, services
from games.auth import SeatAuthentication, SeatPrincipal, UserTokenAuthentication
from games.models import Dispute, Game
from games.serializers import (
    ChainKeysSerializer,
    CommandMetaSerializer,
    CommandRequestSerializer,
    CommandResultSerializer,
    DisputeCreateSerializer,
    DisputeSerializer,
    ErrorSerializer,
    EventSerializer,
    EventsQuerySerializer,
    GameCreatedSerializer,
    GameCreateSerializer,
    GameSetUpSerializer,
    GameViewSerializer,
    ReplayQuerySerializer,
    RulingSerializer,
    SeatingSerializer,
    TokenSerializer,
    UndoResultSerializer,
    UndoSerializer,
    event_json,
    present_game,
)
from games.throttles import CommandThrottle, SeatThrottle, TokenThrottle
from games.visibility import is_revealed
from rules import IllegalCommand, InvalidCard, InvalidCommand, command_from_dict
from rules.commands import COMMAND_TYPES
from rules.views import game_view

logger = logging.getLogger(__name__)

# On a game's endpoints a seat secret is the usual credential, so it comes first (and names
# the scheme a 401 asks for); elsewhere a seat secret is refused with a reason.
GAME_AUTHENTICATION = [SeatAuthentication, UserTokenAuthentication, SessionAuthentication]
USER_AUTHENTICATION = [UserTokenAuthentication, SessionAuthentication, SeatAuthentication]


def _error(description: str) -> OpenApiResponse:
    return OpenApiResponse(ErrorSerializer, description=description)


ERRORS_READ = {
    401: _error("No credentials."),
    403: _error("Not a seat of this game, nor its referee."),
    404: _error("No such game."),
    429: _error("Past a rate limit (`throttled`): `Retry-After` says in how many seconds to try."),
    503: _error(
        "The database is not answering (`unavailable`): send the request again after "
        "`Retry-After` seconds, a command with the same `key`."
    ),
}
ERRORS_WRITE = {
    400: _error("Malformed input: the field and what is wrong."),
    413: _error("The body is over the size limit (`invalid`)."),
    **ERRORS_READ,
}
GAME_ID = OpenApiParameter("game_id", str, OpenApiParameter.PATH, description="The game's id.")
GAME_CREATED = {
    201: GameCreatedSerializer,
    400: ERRORS_WRITE[400],
    401: ERRORS_READ[401],
    403: _error("A seat cannot create games."),
}


def _created_example(version: int) -> OpenApiExample:
    game = "3f0c6d9e-6a55-4d61-9a4c-2c1f3d1e8b7a"
    site = "https://club.example"
    return OpenApiExample(
        "created",
        value={
            "id": game,
            "version": version,
            "seats": [
                {
                    "seat": 0,
                    "player": "Ann",
                    "secret": "s3cr3t",
                    "link": f"{site}/table/{game}/seat/s3cr3t/",
                }
            ],
            "lobby": f"{site}/table/{game}/lobby/",
        },
        response_only=True,
        status_codes=["201"],
    )


# Who is calling ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Caller:
    """The caller as the game sees them: one of its seats, a referee, or neither."""

    game: Game
    seat: int | None
    referee: bool
    actor: str
    seats: tuple[Any, ...] = ()  # the game's seats, when authentication read them

    @property
    def finished(self) -> bool:
        return self.game.status == Game.Status.FINISHED

    @property
    def revealed(self) -> bool:
        """Whether every seat may now see the game's hidden information (its hands, log and
        salts): once it is over, unless something holds it back (games.visibility)."""
        return is_revealed(self.game)


class GameAPIView(APIView):
    """Base of the ``/api/games/{game_id}/...`` views."""

    authentication_classes = GAME_AUTHENTICATION
    throttle_classes = [SeatThrottle]
    parser_classes = [JSONParser]

    def caller(self) -> Caller:
        if not hasattr(self, "_caller"):
            user = self.request.user
            if isinstance(user, SeatPrincipal) and user.game is not None:
                # SeatAuthentication checked the secret against this game's seats, and read
                # the game's row with them.
                actor = services.seat_actor(user.seat)
                self._caller = Caller(user.game, user.seat, False, actor, user.seats)
                return self._caller
            game = services.get_game(self.kwargs["game_id"])
            if user.is_authenticated:
                referee = services.is_referee(user, game)
                self._caller = Caller(game, None, referee, services.user_actor(user))
            else:
                self._caller = Caller(game, None, False, "")
        return self._caller


class _GamePermission(BasePermission):
    """Asks ``allows(caller)``; anonymous callers are refused before the game is looked up
    (DRF then answers 401, not 403)."""

    def has_permission(self, request: Request, view: Any) -> bool:
        if not request.user or not request.user.is_authenticated:
            return False
        return self.allows(view.caller())

    def allows(self, caller: Caller) -> bool:
        raise NotImplementedError


class IsSeatOrReferee(_GamePermission):
    message = "Only a seat of this game or its referee may do this."

    def allows(self, caller: Caller) -> bool:
        return caller.seat is not None or caller.referee


class IsSeat(_GamePermission):
    message = "Only a seat of this game may send commands (Authorization: Seat <secret>)."

    def allows(self, caller: Caller) -> bool:
        return caller.seat is not None


class IsReferee(_GamePermission):
    message = "Only a referee of this game may do this."

    def allows(self, caller: Caller) -> bool:
        return caller.referee


class IsRefereeOrGameOver(_GamePermission):
    message = "While the game is on (or held back), only its referee may replay it."

    def allows(self, caller: Caller) -> bool:
        return caller.referee or (caller.seat is not None and caller.revealed)


class IsUser(BasePermission):
    """A user account (session or token), not a seat."""

    message = "Only a user (session or token) may do this."

    def has_permission(self, request: Request, view: Any) -> bool:
        user = request.user
        return bool(user and user.is_authenticated and not isinstance(user, SeatPrincipal))


def _events(rows: list[Any], caller: Caller, revealed: bool) -> list[dict[str, Any]]:
    revealed = caller.referee or revealed
    return [event_json(row, caller.seat, revealed=revealed) for row in rows]


# Users ------------------------------------------------------------------------------------------


def created_answer(request: Request, game: Game) -> Response:
    """The answer to a created game: its id and version, each seat's secret and private link
    (the table page, for the organiser to hand out), and the lobby page, where the referee
    finds every link with its QR code."""
    seats = [
        {
            "seat": seat.seat,
            "player": seat.player,
            "secret": seat.secret,
            "link": request.build_absolute_uri(
                reverse("games:seat-link", args=[game.pk, seat.secret])
            ),
        }
        for seat in game.seats.all()
    ]
    body = {
        "id": game.pk,
        "version": game.version,
        "seats": seats,
        "lobby": request.build_absolute_uri(reverse("games:lobby", args=[game.pk])),
    }
    return Response(GameCreatedSerializer(body).data, status=status.HTTP_201_CREATED)


class TokenView(ObtainAuthToken):
    """Exchange a username and password for the token of ``Authorization: Token <key>``."""

    throttle_classes = [TokenThrottle]

    @extend_schema(
        operation_id="auth_token",
        summary="Get an API token",
        request=AuthTokenSerializer,
        responses={200: TokenSerializer, 400: _error("Wrong username or password.")},
        examples=[
            OpenApiExample(
                "token",
                value={"token": "9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b"},
                response_only=True,
            )
        ],
        auth=[],
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().post(request, *args, **kwargs)


# Games ------------------------------------------------------------------------------------------


class GameCreateView(APIView):
    authentication_classes = USER_AUTHENTICATION
    permission_classes = [IsUser]
    parser_classes = [JSONParser]

    @extend_schema(
        operation_id="games_create",
        summary="Create a game and deal its first hand",
        description="A user creates a game and becomes its referee. Give `seed`, or (referee) an "
        "explicit `deck` (draw order, top first) and `dealer`. Each seat gets its own secret. "
        "With `season` (its league's organisers only) the game counts for that season: the "
        "season's variant, scoring and target are the defaults and its organisers referee it; "
        "it is dealt by chance alone (`seed`, `deck` and `dealer` are refused).",
        request=GameCreateSerializer,
        auth=[{"tokenAuth": []}, {"cookieAuth": []}],
        responses=GAME_CREATED,
        examples=[
            OpenApiExample(
                "seeded",
                value={
                    "variant": "classic",
                    "players": ["Ann", "Bob", "Cy"],
                    "scoring": "standard",
                    "target": 500,
                    "seed": 42,
                },
                request_only=True,
            ),
            _created_example(version=9),
        ],
    )
    def post(self, request: Request) -> Response:
        serializer = GameCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        given = {
            "players": data["players"],
            "seed": data.get("seed"),
            "deck": data.get("deck"),
            "dealer": data.get("dealer"),
            "options": data.get("options"),
            "created_by": request.user,
            "sheet": data["sheet"],
        }
        if data.get("season") is not None:
            # The season's app fills in its settings, checks the caller organises it and
            # records the seats (games never imports it: DESIGN.md).
            if registry.start_season_game is None:
                raise InvalidCommand("games cannot join seasons here", field="season")
            game = registry.start_season_game(
                season_id=data["season"],
                variant=data.get("variant"),
                scoring=data.get("scoring"),
                target=data.get("target"),
                **given,
            )
        else:
            game = services.create_game(
                variant=data.get("variant", "classic"),
                scoring=data.get("scoring", "standard"),
                target=data.get("target", 500),
                **given,
            )
        return created_answer(request, game)


class GameSetUpView(APIView):
    authentication_classes = USER_AUTHENTICATION
    permission_classes = [IsUser]
    parser_classes = [JSONParser]

    @extend_schema(
        operation_id="games_set_up",
        summary="Start a game from a position",
        description="A referee rebuilds a moment of a game (a dispute over a paper game) from a "
        "position (docs/POSITION.md): every card where it lies, the colour, whose turn, the "
        "scores and the edition's state. The user becomes the game's referee; each seat gets "
        "its own secret. The game is marked `set_up` and never counts: `season` is refused. "
        "An impossible position (a card created or lost, a seat that is not at the table, a "
        "turn that cannot be) is a 400 on `position` whose message names the position's field.",
        request=GameSetUpSerializer,
        auth=[{"tokenAuth": []}, {"cookieAuth": []}],
        responses=GAME_CREATED,
        examples=[
            OpenApiExample(
                "classic, seat 1 to play",
                value={
                    "position": "classic|players=2|hand=1|dealer=0|pending=turn:1|dir=+|"
                    "colour=R|discard=R7|pile=*|hands=R1,G2,W4/B3,YS",
                    "players": ["Ann", "Bob"],
                },
                request_only=True,
            ),
            _created_example(version=1),
            OpenApiExample(
                "a card created",
                value={
                    "error": "invalid",
                    "detail": {
                        "position": "cards: R7 is there 3 times; a Classic UNO deck has 2 "
                        "(a card created)"
                    },
                },
                response_only=True,
                status_codes=["400"],
            ),
        ],
    )
    def post(self, request: Request) -> Response:
        serializer = GameSetUpSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        game = services.create_game_from_position(
            position=data["position"],
            players=data["players"],
            created_by=request.user,
            season_id=data.get("season"),
        )
        return created_answer(request, game)


class GameDetailView(GameAPIView):
    permission_classes = [IsSeatOrReferee]

    @extend_schema(
        operation_id="games_retrieve",
        summary="The game as the caller may see it",
        description="`hand` appears for the caller's own seat only (every seat for a referee, or "
        "for everyone once the game is over); a referee also sees each seat's `secret`. `legal` "
        "lists every command the caller's seat may send now, in the shape it is sent.",
        parameters=[GAME_ID],
        responses={200: GameViewSerializer, **ERRORS_READ},
        examples=[
            OpenApiExample(
                "a seat's view",
                value={
                    "id": "3f0c6d9e-6a55-4d61-9a4c-2c1f3d1e8b7a",
                    "variant": "classic",
                    "version": 9,
                    "status": "playing",
                    "hand_number": 1,
                    "dealer": 0,
                    "turn": 1,
                    "direction": 1,
                    "top_card": "R7",
                    "colour": "R",
                    "draw_pile_count": 86,
                    "pending": {"type": "turn", "seat": 1, "text": "it is seat 1's turn"},
                    "seats": [
                        {
                            "seat": 0,
                            "player": "Ann",
                            "card_count": 7,
                            "score": 0,
                            "uno_exposed": False,
                        }
                    ],
                    "legal": [{"type": "play", "card": "R3"}, {"type": "draw"}],
                    "winner": None,
                },
                response_only=True,
            )
        ],
    )
    def get(self, request: Request, game_id: Any) -> Response:
        caller = self.caller()
        state = services.current_state(game=caller.game)
        view = game_view(state, caller.seat, referee=caller.referee, revealed=caller.revealed)
        seater = caller.referee and services.seats_players(self.request.user, caller.game)
        body = present_game(caller.game, view, secrets=seater, seats=caller.seats)
        return Response(body)


class CommandsView(GameAPIView):
    permission_classes = [IsSeat]
    throttle_classes = [SeatThrottle, CommandThrottle]

    @extend_schema(
        operation_id="games_commands_create",
        summary="Send one command for the caller's seat",
        description="The seat comes from `Authorization: Seat <secret>`, never from the body. "
        "`expected_version` (optional) answers 409 stale when the game has moved on. `key` is an "
        "idempotency key of the caller's own (another seat's keys never collide with it): the "
        "same key with the same command returns the first answer and appends nothing, also when "
        "it is sent again while the first is still being written, or with its "
        "`expected_version` after the game moved on; the same key with another command answers "
        "409 `key_clash`. Send both, so that a command sent again after its answer was lost is "
        "answered, never made twice. The answer's `receipt` is the "
        "server's signature of the chain head after the command: keep it to check the log "
        "once the game is over (docs/TRUST.md). A `play` carries the game's edition's own field "
        "when its card takes one (`give` in UNO Mod, `towers` in UNO Power Grab, `rule` in UNO "
        "VETO); another edition's field is refused (400, naming the field). A `catch` or a "
        "`veto` names the seat it is aimed at as `target`; its former name `seat` is still "
        "taken for one version (both together must agree), and a retry of a command recorded "
        "under the former name is the same command for its key.",
        parameters=[GAME_ID],
        request=CommandRequestSerializer,
        responses={
            201: CommandResultSerializer,
            **ERRORS_WRITE,
            409: _error(
                "The rules do not allow this now (illegal), expected_version is stale, or the "
                "key was used for another command (key_clash)."
            ),
        },
        examples=[
            OpenApiExample(
                "play a Wild Draw 4",
                value={
                    "type": "play",
                    "card": "W4",
                    "colour": "G",
                    "uno": False,
                    "expected_version": 9,
                    "key": "c-81f2",
                },
                request_only=True,
            ),
            OpenApiExample(
                "illegal",
                value={"error": "illegal", "detail": "it is seat 1's turn", "version": 9},
                response_only=True,
                status_codes=["409"],
            ),
        ],
    )
    def post(self, request: Request, game_id: Any) -> Response:
        caller = self.caller()
        body = request.data
        meta = CommandMetaSerializer(data=body if isinstance(body, dict) else {})
        meta.is_valid(raise_exception=True)
        try:
            # The game's edition picks its own play command (a field of another's is refused).
            command = command_from_dict(caller.seat, body, caller.game.variant)
            result = services.apply_command(
                game_id=caller.game.pk,
                command=command,
                actor=caller.actor,
                expected_version=meta.validated_data.get("expected_version"),
                key=meta.validated_data.get("key"),
            )
        except InvalidCommand as exc:
            if (sent := _as_sent(exc, body)) is exc:
                raise
            raise sent from exc
        if result.state is None:  # an answer given again: the game may have moved since
            game = services.get_game(caller.game.pk)
        else:
            game = caller.game
            game.version = result.state.version
            game.status = Game.Status.FINISHED if result.state.finished else Game.Status.PLAYING
        body = {
            "version": result.version,
            "events": _events(result.events, caller, is_revealed(game)),
            "receipt": result.receipt,
        }
        return Response(body, status=status.HTTP_201_CREATED)


def _as_sent(exc: InvalidCommand, body: Any) -> InvalidCommand:
    """``exc`` naming the field as the client sent it: a field sent by its former name (a
    catch's ``seat`` for ``target``, taken for one version) is named so in the error."""
    kind = body.get("type") if isinstance(body, dict) else None
    cls = COMMAND_TYPES.get(kind) if isinstance(kind, str) else None
    for f in dataclass_fields(cls) if cls is not None else ():
        name, former = f.metadata.get("json", f.name), f.metadata.get("old")
        if former and exc.field == name and former in body and name not in body:
            return InvalidCommand(str(exc), field=former)
    return exc


class EventsView(GameAPIView):
    permission_classes = [IsSeatOrReferee]

    @extend_schema(
        operation_id="games_events_list",
        summary="The audit log after version N",
        description="Each event as the caller may see it: for a seat, no other seat's cards and no "
        "draw pile order until the game is over. Each event's `hash` links the chain over its "
        "`commitment`, a salted hash of its data: nothing in them lets a seat test a guess. "
        "Once the game is over every `salt` is published, and anyone can recompute every "
        "commitment and hash and check every `signature` (docs/TRUST.md).",
        parameters=[GAME_ID, EventsQuerySerializer],
        responses={200: EventSerializer(many=True), **ERRORS_WRITE},
    )
    def get(self, request: Request, game_id: Any) -> Response:
        caller = self.caller()
        query = EventsQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        rows = services.replay_events(game_id=caller.game.pk, after=query.validated_data["after"])
        return Response(_events(rows, caller, caller.revealed))


class ReplayView(GameAPIView):
    permission_classes = [IsRefereeOrGameOver]

    @extend_schema(
        operation_id="games_replay_retrieve",
        summary="The full state at version N, every hand visible",
        description="For the referee, or for every seat once the game is over. Without `version`, "
        "the current state.",
        parameters=[GAME_ID, ReplayQuerySerializer],
        responses={200: GameViewSerializer, **ERRORS_WRITE},
    )
    def get(self, request: Request, game_id: Any) -> Response:
        caller = self.caller()
        query = ReplayQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        version = query.validated_data.get("version", caller.game.version)
        state = services.state_at(game_id=caller.game.pk, version=version)
        return Response(present_game(caller.game, game_view(state, None, referee=True)))


class UndoView(GameAPIView):
    permission_classes = [IsReferee]

    @extend_schema(
        operation_id="games_undo_create",
        summary="Rewind the game to version N (referee)",
        description="Appends a compensating event; nothing is deleted. The game continues from "
        "its state at `to_version`. A finished game showed every hand to every seat, so it is "
        "undone only with `reopen: true` and a `reason`, which the log records (409 otherwise). "
        "`expected_version` (optional) is the version the referee saw: when the game has moved "
        "on the answer is 409 stale and nothing is undone. `key` is an idempotency key of the "
        "referee's own, as a command's: the same undo sent again with it answers the first "
        "undo's version and appends nothing, even after the game moved on; the same key with "
        "another undo (or a command) answers 409 `key_clash`. Send both, so that an undo sent "
        "again after its answer was lost never takes back a move made since.",
        parameters=[GAME_ID],
        request=UndoSerializer,
        responses={
            201: UndoResultSerializer,
            **ERRORS_WRITE,
            409: _error(
                "The game is over and was not reopened (illegal), expected_version is stale, or "
                "the key was used for another undo or command (key_clash)."
            ),
        },
        examples=[
            OpenApiExample("undo", value={"to_version": 9, "reason": "misdeal"}, request_only=True),
            OpenApiExample(
                "undo sent safely again",
                value={
                    "to_version": 9,
                    "reason": "misdeal",
                    "expected_version": 12,
                    "key": "undo-5c1e",
                },
                request_only=True,
            ),
        ],
    )
    def post(self, request: Request, game_id: Any) -> Response:
        caller = self.caller()
        serializer = UndoSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        version = services.undo(
            game_id=caller.game.pk, by=caller.actor, **serializer.validated_data
        )
        return Response(
            UndoResultSerializer({"version": version}).data, status=status.HTTP_201_CREATED
        )


class DisputesView(GameAPIView):
    permission_classes = [IsSeatOrReferee]

    @extend_schema(
        operation_id="games_disputes_list",
        summary="The game's disputes",
        parameters=[GAME_ID],
        responses={200: DisputeSerializer(many=True), **ERRORS_READ},
    )
    def get(self, request: Request, game_id: Any) -> Response:
        disputes = Dispute.objects.filter(game=self.caller().game).order_by("pk")
        return Response(DisputeSerializer(disputes, many=True).data)

    @extend_schema(
        operation_id="games_disputes_create",
        summary="Open a dispute about event N",
        parameters=[GAME_ID],
        request=DisputeCreateSerializer,
        responses={201: DisputeSerializer, **ERRORS_WRITE},
        examples=[
            OpenApiExample(
                "dispute",
                value={
                    "version": 14,
                    "claim": "She held a red card when she played the Wild Draw 4.",
                },
                request_only=True,
            )
        ],
    )
    def post(self, request: Request, game_id: Any) -> Response:
        caller = self.caller()
        serializer = DisputeCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        dispute = services.open_dispute(
            game_id=caller.game.pk, by=caller.actor, **serializer.validated_data
        )
        return Response(DisputeSerializer(dispute).data, status=status.HTTP_201_CREATED)


class RulingView(GameAPIView):
    permission_classes = [IsReferee]

    @extend_schema(
        operation_id="games_disputes_ruling_create",
        summary="Rule on a dispute (referee)",
        description="`upheld` or `rejected`; an upheld dispute may rewind the game to `undo_to`. "
        "`expected_version` (optional) is the version the referee saw: with `undo_to`, when the "
        "game has moved on the answer is 409 stale naming it, and nothing is ruled or undone, "
        "so a ruling takes back no move its referee did not see. Send it with every ruling "
        "that undoes.",
        parameters=[GAME_ID, OpenApiParameter("dispute_id", int, OpenApiParameter.PATH)],
        request=RulingSerializer,
        responses={
            201: DisputeSerializer,
            **ERRORS_WRITE,
            409: _error(
                "Already ruled on, or the undo is not one the game allows (illegal), or "
                "expected_version is stale."
            ),
        },
        examples=[
            OpenApiExample(
                "ruling",
                value={
                    "decision": "upheld",
                    "note": "She held R3.",
                    "undo_to": 13,
                    "expected_version": 16,
                },
                request_only=True,
            )
        ],
    )
    def post(self, request: Request, game_id: Any, dispute_id: int) -> Response:
        caller = self.caller()
        if not Dispute.objects.filter(pk=dispute_id, game=caller.game).exists():
            raise exceptions.NotFound("No such dispute in this game.")
        serializer = RulingSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        dispute = services.rule_on_dispute(
            dispute_id=dispute_id, by=caller.actor, **serializer.validated_data
        )
        return Response(DisputeSerializer(dispute).data, status=status.HTTP_201_CREATED)


class SeatingView(GameAPIView):
    permission_classes = [IsSeatOrReferee]

    @extend_schema(
        operation_id="games_seating_retrieve",
        summary="Who sits where, signed by the server",
        description="The name at each seat, the season the game counts for and the table a "
        "league or a tournament seated it as, with the server's signature of them all, made "
        "again whenever an organiser changes them (a table moved to another night, a name "
        "corrected). Check the signature with `GET /api/chain/keys/` "
        "(`games.seating.published_problem`): a seat changed in the database by someone "
        "without the server's key no longer verifies (docs/TRUST.md).",
        parameters=[GAME_ID],
        responses={200: SeatingSerializer, **ERRORS_READ},
    )
    def get(self, request: Request, game_id: Any) -> Response:
        game = self.caller().game
        signature = Game.objects.values_list("seating_signature", flat=True).get(pk=game.pk)
        signed = seating.seatings([game.pk])[game.pk]
        return Response(seating.published(game.pk, signed, signature))


class ChainKeysView(APIView):
    """The public keys that sign the chains: what a seat checks receipts and logs with."""

    authentication_classes: list[Any] = []
    permission_classes: list[Any] = []

    @extend_schema(
        operation_id="chain_keys",
        summary="The server's public signing keys",
        description="Every command's last event and receipt carry an Ed25519 signature "
        '(`key id:hex`) of the chain head: the JSON array `["uno-chain-head-v2", game id, '
        "version, head hash]` without spaces. Check it with the key of that id.",
        responses={200: ChainKeysSerializer},
        auth=[],
    )
    def get(self, request: Request) -> Response:
        current = chain.server_signer().id
        keys = [
            {"id": kid, "public_key": public, "current": kid == current}
            for kid, public in chain.server_public_keys().items()
        ]
        return Response({"algorithm": "Ed25519", "keys": keys})


# Errors -----------------------------------------------------------------------------------------


def _texts(detail: Any, path: str = "") -> list[str]:
    """DRF's nested error details as flat messages, each item error prefixed with its place."""
    if isinstance(detail, dict):
        out: list[str] = []
        for key, value in detail.items():
            place = f"{path}[{key}]" if isinstance(key, int) or str(key).isdigit() else key
            out += _texts(value, place)
        return out
    if isinstance(detail, list):
        return [text for item in detail for text in _texts(item, path)]
    return [f"{path}: {detail}" if path else str(detail)]


def _invalid(detail: Any) -> dict[str, Any]:
    """``{"error": "invalid", "detail": {field: message}}`` from DRF's error detail."""
    if not isinstance(detail, dict):
        detail = {"non_field_errors": detail}
    fields = {
        str(field): " ".join(_texts(value, str(field) if isinstance(value, dict) else ""))
        for field, value in detail.items()
    }
    return {"error": "invalid", "detail": fields}


def _game_version(context: dict[str, Any]) -> int | None:
    game_id = (context.get("kwargs") or {}).get("game_id")
    if game_id is None:
        return None
    return Game.objects.filter(pk=game_id).values_list("version", flat=True).first()


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """Map every error to API.md's error table (and a ``"version"`` on a 409)."""
    headers: dict[str, str] = {}
    if isinstance(exc, Http404):
        exc = exceptions.NotFound(*exc.args)
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied(*exc.args)

    if isinstance(exc, exceptions.ValidationError):
        code, body = 400, _invalid(exc.detail)
    elif isinstance(exc, InvalidCommand):
        code, body = (
            400,
            {"error": "invalid", "detail": {exc.field or "non_field_errors": str(exc)}},
        )
    elif isinstance(exc, InvalidCard):
        code, body = 400, {"error": "invalid", "detail": {"card": str(exc)}}
    elif isinstance(exc, exceptions.ParseError):
        code, body = 400, {"error": "invalid", "detail": {"non_field_errors": str(exc.detail)}}
    elif isinstance(exc, (TooManyFieldsSent, TooManyFilesSent)):  # a form body (the token's)
        code, body = 400, {"error": "invalid", "detail": {"non_field_errors": str(exc)}}
    elif isinstance(exc, IllegalCommand):
        code, body = 409, {"error": "illegal", "detail": str(exc)}
        if (version := _game_version(context)) is not None:  # a game's, not a tournament's
            body["version"] = version
    elif isinstance(exc, errors.Stale):
        code, body = 409, {"error": "stale", "detail": str(exc), "version": exc.current_version}
    elif isinstance(exc, errors.KeyClash):
        code, body = (
            409,
            {"error": "key_clash", "detail": str(exc), "version": _game_version(context)},
        )
    elif isinstance(exc, (exceptions.NotAuthenticated, exceptions.AuthenticationFailed)):
        # DRF would answer 403 when the first authenticator names no scheme; API.md says 401.
        headers["WWW-Authenticate"] = getattr(exc, "auth_header", None) or "Token"
        code, body = 401, {"error": "forbidden", "detail": str(exc.detail)}
    elif isinstance(exc, (exceptions.PermissionDenied, errors.Forbidden)):
        code, body = 403, {"error": "forbidden", "detail": str(getattr(exc, "detail", exc))}
    elif isinstance(exc, (exceptions.NotFound, errors.NotFound)):
        code, body = 404, {"error": "not_found", "detail": str(getattr(exc, "detail", exc))}
    elif isinstance(exc, exceptions.Throttled):
        headers["Retry-After"] = str(exc.wait or 1)
        code, body = 429, {"error": "throttled", "detail": str(exc.detail)}
    elif isinstance(exc, exceptions.APIException):
        code, body = exc.status_code, {"error": exc.default_code, "detail": exc.detail}
    elif isinstance(exc, DATABASE_AWAY):
        # Not a bug: the database went away. The client may send the request again.
        logger.warning("the database did not answer: %s", exc)
        headers["Retry-After"] = str(RETRY_AFTER)
        code, body = 503, {"error": "unavailable", "detail": UNAVAILABLE_DETAIL}
    else:
        return None  # a bug: Django's 500
    set_rollback()
    return Response(body, status=code, headers=headers)
