"""Who is calling the game API: a seat (``Authorization: Seat <secret>``) or a user.

A seat needs no account: each seat of a game gets its own secret when the game is created, and
the secret works only on that game's endpoints. Users authenticate with a session or a token
(``rest_framework.authtoken``) and are referees of the games they create or organise.
"""

from __future__ import annotations

import re

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import exceptions
from rest_framework.authentication import (
    BaseAuthentication,
    TokenAuthentication,
    get_authorization_header,
)

from games.callers import SeatPrincipal
from games.services import seat_among, table_of
from games.throttles import FailedSecrets

SEAT_KEYWORD = "Seat"
TOKEN_KEY = re.compile(r"[0-9a-f]{40}")


class SeatAuthentication(BaseAuthentication):
    """``Authorization: Seat <secret>`` on ``/api/games/{game_id}/...``.

    The game comes from the URL, so a secret is only ever checked against that game's seats:
    another game's secret is refused (403) rather than silently ignored. Wrong secrets are
    counted per client address; past the limit nothing is checked (429) until it has waited.
    """

    keyword = SEAT_KEYWORD

    def authenticate(self, request):
        parts = get_authorization_header(request).split()
        if not parts or parts[0].lower() != self.keyword.lower().encode():
            return None
        if len(parts) != 2:
            raise exceptions.AuthenticationFailed("Give the seat secret as 'Seat <secret>'.")
        try:
            secret = parts[1].decode()
        except UnicodeError:
            raise exceptions.AuthenticationFailed("A seat secret is plain text.") from None
        kwargs = (getattr(request, "parser_context", None) or {}).get("kwargs") or {}
        game_id = kwargs.get("game_id")
        if game_id is None:
            raise exceptions.PermissionDenied(
                "A seat secret only works on its own game's endpoints."
            )
        failures = FailedSecrets(request)
        wait = failures.wait()
        if wait is not None:
            raise exceptions.Throttled(wait, "Too many wrong seat secrets from this address.")
        seats = table_of(game_id)
        if not seats:
            failures.record()
            raise exceptions.NotFound("No such game.")
        seat = seat_among(seats, secret)
        if seat is None:
            failures.record()
            raise exceptions.PermissionDenied("This seat secret is not for this game.")
        game = seat.game
        principal = SeatPrincipal(
            game_id=game.pk, seat=seat.seat, player=seat.player, game=game, seats=tuple(seats)
        )
        return principal, secret

    def authenticate_header(self, request):
        return self.keyword


class UserTokenAuthentication(TokenAuthentication):
    """DRF's ``Authorization: Token <key>``, refusing a key that is not one (40 hex characters)
    before it reaches the database, which cannot even compare some text (a NUL)."""

    def authenticate_credentials(self, key):
        if not TOKEN_KEY.fullmatch(key):
            raise exceptions.AuthenticationFailed("Invalid token.")
        return super().authenticate_credentials(key)


class SeatScheme(OpenApiAuthenticationExtension):
    """Documents the seat scheme in the OpenAPI schema (``seatAuth``)."""

    target_class = SeatAuthentication
    name = "seatAuth"

    def get_security_definition(self, auto_schema):
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": "A seat of one game: `Seat <secret>` (the secret is handed out when "
            "the game is created; it works only on that game's endpoints).",
        }
