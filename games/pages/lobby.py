"""A table's lobby, rematches and the second-device notice.

The lobby (/table/<game>/lobby/) is for the game's referee or organiser only: each seat's
private link and its QR code (drawn by the server with segno, as inline SVG), so that players
take their seats by scanning with their phones, without accounts. The links are secrets: the
page answers ``Cache-Control: no-store`` and ``Referrer-Policy: no-referrer`` like the seat link
itself, and nothing else shows them.

A rematch (``services.rematch``) is started from a finished table by its referee (or by the one
person at a table of bots); each seat's page then offers to go to it, which carries the seat
this browser held over to the same seat of the rematch (by its new link's secret when the
browser held it by its link; a seat held by the signed-in account stays the account's).

See docs/decisions/0011-joining-a-table.md.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

import segno
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.views.decorators.http import require_GET, require_http_methods

from games import registry, services
from games.errors import NotFound
from games.models import Game, Seat
from games.pages.editions import edition_for
from games.pages.viewers import SESSION_SEATS, remember_seat, viewer_of
from rules import RuleError
from rules.variants import get_variant

SESSION_DEVICE = "table_device"  # this browser's random token (games.services.take_seat)
# A tournament's table is played once: its players go on to the tournament's next round.
NO_EVENT_REMATCH = (
    "A tournament's table is played once, so it has no rematch: the tournament's page shows "
    "where its players go next."
)
# How often a finished table asks whether a rematch started: only while the tab is shown.
REMATCH_POLL = "every 5s [document.visibilityState === 'visible']"


@dataclass(frozen=True, slots=True)
class SeatLink:
    """One seat of the lobby: who sits there, its private link and that link's QR code."""

    name: str
    bot: bool
    url: str
    qr: SafeString
    joined_at: datetime | None


def qr_svg(url: str, title: str) -> SafeString:
    """``url`` as a QR code: inline SVG (no script, no network), dark on white, with a quiet
    zone, big enough for a phone's camera at arm's length."""
    code = segno.make(url, error="m", micro=False)
    # Sized by its viewBox: the page's CSS scales it to the screen, never clipping a module.
    svg = code.svg_inline(border=4, omitsize=True, dark="#000", light="#fff", title=title)
    # segno escapes the title; the rest is its own markup.
    return mark_safe(svg)


def _private(response: HttpResponse) -> HttpResponse:
    response["Cache-Control"] = "no-store"
    response["Referrer-Policy"] = "no-referrer"
    return response


def _game(game_id: UUID) -> Game:
    try:
        return services.get_game(game_id)
    except NotFound:
        raise Http404("No such game.") from None


def _forbidden(request: HttpRequest, game: Game, reason: str) -> HttpResponse:
    response = render(request, "games/forbidden.html", {"game": game, "reason": reason}, status=403)
    return _private(response)


# The lobby ------------------------------------------------------------------------------------


@require_GET
def lobby(request: HttpRequest, game_id: UUID) -> HttpResponse:
    game = _game(game_id)
    viewer = viewer_of(request, game)
    if not viewer.seater:
        return _forbidden(
            request, game, "Only whoever seats this table's players sees their seat links."
        )
    seats = []
    for seat in Seat.objects.filter(game=game).order_by("seat"):
        url = request.build_absolute_uri(reverse("games:seat-link", args=[game.pk, seat.secret]))
        seats.append(
            SeatLink(
                name=seat.player,
                bot=seat.bot,
                url="" if seat.bot else url,
                qr=mark_safe("") if seat.bot else qr_svg(url, f"{seat.player}'s seat"),
                joined_at=seat.joined_at,
            )
        )
    state = services.load_game(game_id=game.pk)
    context = {
        "game": game,
        "title": get_variant(game.variant).title,
        "seats": seats,
        "options": edition_for(game.variant).option_lines(state.options),
        "finished": game.status == Game.Status.FINISHED,
        "rematch_of": game.rematch_of,
        "rematch_game": _rematch_of(game),
        # Where the organiser came from: the league night or the tournament of the table.
        "event": registry.event_page(game),
    }
    return _private(render(request, "games/lobby.html", context))


# Rematches ------------------------------------------------------------------------------------


def _rematch_of(game: Game) -> Game | None:
    return Game.objects.filter(rematch_of=game).first()


@require_http_methods(["GET", "POST"])
def rematch(request: HttpRequest, game_id: UUID) -> HttpResponse:
    """POST: start the rematch (the referee, or the one person at a table of bots). GET: go to
    the rematch, carrying this browser's seat over to the same seat there."""
    game = _game(game_id)
    viewer = viewer_of(request, game)
    if not (viewer.player or viewer.referee):
        return _forbidden(request, game, "Only a seat or a referee of this game can rematch.")
    new = _rematch_of(game)
    if request.method == "POST" and new is None:
        if onward_context(game, None) is not None:
            return _forbidden(request, game, NO_EVENT_REMATCH)
        if not services.may_start_rematch(request.user, game, viewer.seat):
            return _forbidden(request, game, "Only the referee of this game starts a rematch.")
        try:
            new = services.rematch(game_id=game.pk, by=request.user)
        except RuleError as exc:
            return _forbidden(request, game, str(exc))
    if new is None:
        return redirect("games:table", game_id=game.pk)
    if viewer.seat is not None:
        _carry_seat(request, game, new, viewer.seat)
    return redirect("games:table", game_id=new.pk)


def _carry_seat(request: HttpRequest, old: Game, new: Game, number: int) -> None:
    """This browser takes the same seat of the rematch ``new``: a seat it held by its link, by
    the new seat's secret, kept in the session as if it had opened the new link; a seat the
    signed-in account holds, by the account, which the rematch's seat has too
    (``services.rematch``). So an account that no longer holds the seat (unlinked from a
    league's player) no longer opens it here either: no secret was kept for it."""
    seat = Seat.objects.filter(game=new, seat=number).first()
    if seat is None:
        return
    secret = request.session.get(SESSION_SEATS, {}).get(str(old.pk))
    held = services.seat_for_secret(old, secret) if secret else None
    if held is not None and held.seat == number:
        remember_seat(request, new.pk, seat.secret)
    elif seat.user_id is None or seat.user_id != request.user.pk:
        return  # the account holds no seat there (any more): nothing to take
    services.take_seat(seat=seat, device=_device(request))


@require_GET
def rematch_offer(request: HttpRequest, game_id: UUID) -> HttpResponse:
    """The finished table's rematch box (games/rematch.html), polled until a rematch starts."""
    game = _game(game_id)
    viewer = viewer_of(request, game)
    if not (viewer.player or viewer.referee):
        return HttpResponse(status=403)
    if onward_context(game, None) is not None:
        return HttpResponse(status=204)  # nothing to offer: no rematch at a tournament's table
    context = {
        "game": game,
        "rematch_game": _rematch_of(game),
        "may_start": services.may_start_rematch(request.user, game, viewer.seat),
        "poll": REMATCH_POLL,
        "loaded": True,
    }
    return render(request, "games/rematch.html", context)


# A tournament's next table ----------------------------------------------------------------------


def onward_context(game: Game, seat: int | None) -> dict[str, Any] | None:
    """What games/onward.html shows on a table of a tournament (or another event that seats its
    players again): the event's page and, for ``seat``'s player, their next table; None for a
    game of no such event."""
    if registry.onward is None:
        return None
    player = Seat.objects.get(game=game, seat=seat).player if seat is not None else None
    where = registry.onward(game, player)
    if where is None:
        return None
    # A seat not yet seated again asks now and then, until it is or the event is over.
    poll = seat is not None and where.next_game is None and not where.over
    return {"onward": where, "onward_poll": poll, "poll": REMATCH_POLL}


@require_GET
def onward_offer(request: HttpRequest, game_id: UUID) -> HttpResponse:
    """The table's way on (games/onward.html), polled by a seat until its next table is seated."""
    game = _game(game_id)
    viewer = viewer_of(request, game)
    context = onward_context(game, viewer.seat)
    if context is None:
        return HttpResponse(status=204)
    return render(request, "games/onward.html", {"game": game, **context})


@require_GET
def next_table(request: HttpRequest, game_id: UUID) -> HttpResponse:
    """Go to this seat's player's next table of the tournament, taking their seat there (its
    secret kept in the session, as if this browser had opened the new seat's link)."""
    game = _game(game_id)
    viewer = viewer_of(request, game)
    context = onward_context(game, viewer.seat) if viewer.seat is not None else None
    where = context["onward"] if context else None
    if where is None or where.next_game is None:
        return redirect("games:table", game_id=game.pk)
    player = Seat.objects.get(game=game, seat=viewer.seat).player
    seat = Seat.objects.filter(game_id=where.next_game, player=player).first()
    if seat is not None:
        remember_seat(request, where.next_game, seat.secret)
        services.take_seat(seat=seat, device=_device(request))
    return redirect("games:table", game_id=where.next_game)


# A seat opened on a second device -------------------------------------------------------------


def _device(request: HttpRequest) -> str:
    """This browser's device token (made on first use, kept in its session)."""
    token = request.session.get(SESSION_DEVICE)
    if not isinstance(token, str) or not token:
        token = secrets.token_urlsafe(18)
        request.session[SESSION_DEVICE] = token
    return token


def opened_elsewhere(request: HttpRequest, seat: Seat) -> bool:
    """Record that this browser opened ``seat``'s link; True when another browser holds it."""
    return services.take_seat(seat=seat, device=_device(request))


@require_GET
def second_device(request: HttpRequest, game_id: UUID) -> HttpResponse:
    """What a browser is told when it opened a seat's link that another browser holds."""
    game = _game(game_id)
    viewer = viewer_of(request, game)
    if viewer.seat is None or str(game.pk) not in request.session.get(SESSION_SEATS, {}):
        return redirect("games:table", game_id=game.pk)
    seat = Seat.objects.get(game=game, seat=viewer.seat)
    context = {"game": game, "name": seat.player, "joined_at": seat.joined_at}
    return _private(render(request, "games/second_device.html", context))
