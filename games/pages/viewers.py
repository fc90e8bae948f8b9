"""Who is looking at a game page: the seat this browser holds (from its seat link, kept in the
session) or the signed-in user's seat, and whether the user referees the game."""

from __future__ import annotations

from dataclasses import dataclass
from uuid import UUID

from django.http import HttpRequest

from games import services
from games.models import Game, Seat

SESSION_SEATS = "table_seats"  # {game id: seat secret}


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who looks at a game: one of its seats (``seat``), its referee, both or neither."""

    seat: int | None
    referee: bool
    actor: str
    seater: bool = False  # seats the game's players: holds its seats' links (the lobby)

    @property
    def player(self) -> bool:
        return self.seat is not None


def viewer_of(request: HttpRequest, game: Game) -> Viewer:
    """The seat whose link this browser opened (or the signed-in user's seat), and whether
    the user referees the game. The seat is looked up from its secret on every request, so a
    secret that stops matching stops working."""
    user = request.user
    seat: Seat | None = None
    secret = request.session.get(SESSION_SEATS, {}).get(str(game.pk))
    if secret:
        seat = services.seat_for_secret(game, secret)
    if seat is None and user.is_authenticated:
        seat = Seat.objects.filter(game=game, user=user).first()
    referee = services.is_referee(user, game)
    if seat is not None:
        actor = services.seat_actor(seat.seat)
    elif user.is_authenticated:
        actor = services.user_actor(user)
    else:
        actor = ""
    seater = referee and services.seats_players(user, game)
    return Viewer(seat.seat if seat else None, referee, actor, seater)


def remember_seat(request: HttpRequest, game_id: UUID, secret: str) -> None:
    """Keep a seat's secret in this browser's session (never in a URL or the page)."""
    seats = dict(request.session.get(SESSION_SEATS, {}))
    seats[str(game_id)] = secret
    request.session[SESSION_SEATS] = seats


def seated_games(request: HttpRequest) -> list[Game]:
    """The games this browser holds a seat of (or the signed-in user sits at), newest first."""
    ids = list(request.session.get(SESSION_SEATS, {}))
    games = Game.objects.filter(pk__in=ids)
    if request.user.is_authenticated:
        games = games | Game.objects.filter(seats__user=request.user)
    return list(games.distinct().order_by("-created_at")[:10])
