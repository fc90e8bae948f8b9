"""The game pages (htmx): the table a seat plays at, quick games against bots, the replay
viewer and disputes.

Each view parses its input, calls one service, chooses the template (for an htmx request only
the named fragment of the page, "games/table.html#updates") and returns. What a page may show
is decided in ``games.table`` with ``rules.views``.

A seat's private link, /table/<game>/seat/<secret>/, puts the secret in the session and
redirects to the clean /table/<game>/ at once, so the secret stays out of the address bar, the
history and any Referer (docs/decisions/0004-table-pages.md).
"""

from __future__ import annotations

import json
from typing import Any
from uuid import UUID

from django import forms
from django.contrib.auth import views as auth_views
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django.views.defaults import page_not_found

from games import bots, services, table
from games.errors import GameError, NotFound, Stale
from games.models import Game, Seat
from games.serializers import CLAIM_LENGTH, NOTE_LENGTH, REASON_LENGTH
from games.table import Viewer
from games.throttles import FailedSecrets, FailedSignIns
from games.visibility import is_revealed
from rules import IllegalCommand, InvalidCommand, RuleError
from rules.variants import get_variant, variant_names

SESSION_SEATS = "table_seats"  # {game id: seat secret}
MAX_FORM_INT = 2**31 - 1  # versions and seats are 32-bit columns or less
POLL_STOP = 286  # htmx stops polling on this status: the game is over and nothing moved


# Who is looking -------------------------------------------------------------------------------


def _game(game_id: UUID) -> Game:
    try:
        return services.get_game(game_id)
    except NotFound:
        raise Http404("No such game.") from None


def _viewer(request: HttpRequest, game: Game) -> Viewer:
    """The seat whose link this browser opened (or the signed-in user's seat), and whether
    the user referees the game."""
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
    return Viewer(seat.seat if seat else None, referee, actor)


def _forbidden(request: HttpRequest, game: Game, reason: str) -> HttpResponse:
    return render(request, "games/forbidden.html", {"game": game, "reason": reason}, status=403)


def _rule_error(exc: Exception) -> str:
    if isinstance(exc, Stale):
        return "The game moved on before your command arrived: look again and retry."
    return str(exc)


# The table ------------------------------------------------------------------------------------


@require_GET
def seat_link(request: HttpRequest, game_id: UUID, secret: str) -> HttpResponse:
    """A seat's private link: remember the seat in this browser, then the clean table URL.

    Every answer to this URL stays out of caches and Referer headers, and a wrong secret counts
    against the caller's address like a wrong ``Authorization: Seat`` (games.throttles)."""
    failures = FailedSecrets(request)
    wait = failures.wait()
    if wait is not None:
        response = HttpResponse(
            "Too many wrong seat links from this address: try again later.",
            status=429,
            content_type="text/plain; charset=utf-8",
        )
        response["Retry-After"] = str(wait)
    elif "\x00" in secret or services.seat_for_secret(game_id, secret) is None:
        # A NUL ("%00" in the link) is no secret, and PostgreSQL would refuse to look it up.
        failures.record()
        response = page_not_found(request, Http404("No such seat."))
    else:
        seats = dict(request.session.get(SESSION_SEATS, {}))
        seats[str(game_id)] = secret
        request.session[SESSION_SEATS] = seats
        response = redirect("games:table", game_id=game_id)
    response["Referrer-Policy"] = "no-referrer"
    response["Cache-Control"] = "no-store"
    return response


@require_GET
def table_page(request: HttpRequest, game_id: UUID) -> HttpResponse:
    game = _game(game_id)
    viewer = _viewer(request, game)
    if not (viewer.player or viewer.referee or is_revealed(game)):
        return _forbidden(request, game, "This table is private: open it with your seat's link.")
    pick = request.GET.get("pick") or None
    dispute = _int(request.GET.get("dispute"))
    context = table.table_context(game, viewer, pick=pick, dispute_version=dispute)
    template = "games/table.html"
    if request.htmx:
        template += "#dispute" if dispute is not None else "#actions"
    return render(request, template, context)


@require_GET
def table_version(request: HttpRequest, game_id: UUID) -> HttpResponse:
    """The poll: 204 while the game is at version ``v``; when it moved, the table's fragments
    (swapped out of band, so nothing else on the page is touched). A finished game the page
    showed held back (``revealed=0``) is shown again once it is revealed."""
    game = _game(game_id)
    viewer = _viewer(request, game)
    revealed = is_revealed(game)
    if not (viewer.player or viewer.referee or revealed):
        return HttpResponse(status=403)
    if _int(request.GET.get("v")) == game.version:
        if game.status != Game.Status.FINISHED:
            return HttpResponse(status=204)
        if revealed and request.GET.get("revealed") == "0":
            return render(request, "games/table.html#updates", table.table_context(game, viewer))
        return HttpResponse(status=POLL_STOP if revealed else 204)
    context = table.table_context(game, viewer)
    return render(request, "games/table.html#updates", context)


@require_POST
def table_command(request: HttpRequest, game_id: UUID) -> HttpResponse:
    """A button of the table: a command for the viewer's seat, or (``pick``) the ways to play
    one card."""
    game = _game(game_id)
    viewer = _viewer(request, game)
    if viewer.seat is None:
        return _forbidden(request, game, "Only a seat of this table can play at it.")
    pick = request.POST.get("pick") or None
    error = ""
    status = 200
    if pick is None:
        try:
            data = _command_data(request)
            table.send_from_table(
                game_id=game.pk,
                seat=viewer.seat,
                data=data,
                say_uno=request.POST.get("say_uno") == "on",
                expected_version=_int(request.POST.get("version")),
            )
        except (RuleError, GameError, ValueError) as exc:
            error = _rule_error(exc)
            # Not allowed now (409) or malformed (400), as the API answers.
            status = 409 if isinstance(exc, IllegalCommand | GameError) else 400
        else:
            if not request.htmx:
                return redirect("games:table", game_id=game.pk)
    game.refresh_from_db()
    context = table.table_context(game, viewer, pick=pick, error=error)
    if request.htmx:
        return render(request, "games/table.html#updates", context)
    return render(request, "games/table.html", context, status=status)


def _command_data(request: HttpRequest) -> dict[str, Any]:
    """The command a table button names (its JSON value), with a wheel discard's cards."""
    raw = request.POST.get("command", "")
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):  # RecursionError: arrays nested thousands deep
        raise ValueError("That button named no command.") from None
    if not isinstance(data, dict):
        raise ValueError("That button named no command.")
    if data.get("type") == "wheel_discard":
        cards = request.POST.getlist("cards")
        top = request.POST.get("top") or ""
        if top in cards:
            cards.remove(top)
            cards.append(top)  # the last card discarded lands on top
        data = {"type": "wheel_discard", "cards": cards}
        colour = request.POST.get("colour") or ""
        if colour:
            data["colour"] = colour
    return data


def _int(value: str | None) -> int | None:
    """A form's whole number (a version, a seat), or None. Past the range of the columns such
    numbers are compared with, a number means nothing: None too."""
    try:
        number = int(value) if value not in (None, "") else None
    except ValueError:
        return None
    return number if number is None or abs(number) <= MAX_FORM_INT else None


def _text(request: HttpRequest, name: str, limit: int) -> str:
    """A text field of a form, refused (naming it) when no database could store it or it is
    longer than the API takes."""
    value = request.POST.get(name, "")
    if "\x00" in value:
        raise InvalidCommand(f"{name}: null characters are not allowed", field=name)
    if len(value) > limit:
        raise InvalidCommand(f"{name}: at most {limit} characters", field=name)
    return value


# Disputes -------------------------------------------------------------------------------------


@require_POST
def dispute_open(request: HttpRequest, game_id: UUID) -> HttpResponse:
    """File a dispute about an event, from the table page (a seat) or the replay (referee)."""
    game = _game(game_id)
    viewer = _viewer(request, game)
    if not (viewer.player or viewer.referee):
        return _forbidden(request, game, "Only a seat or a referee of this game files disputes.")
    error = ""
    try:
        services.open_dispute(
            game_id=game.pk,
            version=_int(request.POST.get("version")),  # type: ignore[arg-type]
            claim=_text(request, "claim", CLAIM_LENGTH),
            by=viewer.actor,
        )
    except (RuleError, GameError) as exc:
        error = str(exc)
    if request.htmx:
        context = table.table_context(game, viewer, error=error)
        context["dispute_filed"] = not error
        context["dispute_error"] = error
        return render(request, "games/table.html#dispute", context)
    if error:
        context = table.table_context(game, viewer, error=error)
        return render(request, "games/table.html", context, status=400)
    return redirect(reverse("games:table", args=[game.pk]) + "#disputes")


@require_POST
def dispute_rule(request: HttpRequest, game_id: UUID, dispute_id: int) -> HttpResponse:
    game = _game(game_id)
    viewer = _viewer(request, game)
    if not viewer.referee:
        return _forbidden(request, game, "Only a referee of this game rules on disputes.")
    if not game.disputes.filter(pk=dispute_id).exists():
        raise Http404("No such dispute.")
    try:
        services.rule_on_dispute(
            dispute_id=dispute_id,
            decision=request.POST.get("decision", ""),
            note=_text(request, "note", NOTE_LENGTH),
            undo_to=_int(request.POST.get("undo_to")),
            by=viewer.actor,
        )
    except (RuleError, GameError) as exc:
        context = table.replay_context(game, viewer, _int(request.POST.get("v")))
        context["error"] = str(exc)
        return render(request, "games/replay.html", context, status=400)
    return redirect(reverse("games:replay", args=[game.pk]) + "#disputes")


# The replay viewer ----------------------------------------------------------------------------


@require_GET
def replay(request: HttpRequest, game_id: UUID) -> HttpResponse:
    game = _game(game_id)
    viewer = _viewer(request, game)
    if not (viewer.referee or is_revealed(game)):
        return _forbidden(
            request,
            game,
            "While the game is on (or held back for tables still playing the same deal), "
            "only its referee may replay it.",
        )
    context = table.replay_context(game, viewer, _int(request.GET.get("v")))
    template = "games/replay.html#frame" if request.htmx else "games/replay.html"
    return render(request, template, context)


@require_POST
def replay_undo(request: HttpRequest, game_id: UUID) -> HttpResponse:
    """A referee rewinds the game to a version, with a reason (a compensating event)."""
    game = _game(game_id)
    viewer = _viewer(request, game)
    if not viewer.referee:
        return _forbidden(request, game, "Only a referee of this game may undo.")
    to_version = _int(request.POST.get("to_version"))
    try:
        version = services.undo(
            game_id=game.pk,
            to_version=to_version,  # type: ignore[arg-type]
            reason=_text(request, "reason", REASON_LENGTH).strip() or "undone by the referee",
            by=viewer.actor,
            reopen=request.POST.get("reopen") == "on",
        )
    except (RuleError, GameError) as exc:
        context = table.replay_context(game, viewer, to_version)
        context["error"] = str(exc)
        return render(request, "games/replay.html", context, status=400)
    return redirect(reverse("games:replay", args=[game.pk]) + f"?v={version}")


# Quick games ----------------------------------------------------------------------------------


class QuickGameForm(forms.Form):
    variant = forms.ChoiceField(
        label="Edition",
        choices=[(name, get_variant(name).title) for name in variant_names()],
        initial="classic",
    )
    bots = forms.IntegerField(
        label="Bots", min_value=bots.MIN_BOTS, max_value=bots.MAX_BOTS, initial=3
    )
    player = forms.CharField(label="Your name", max_length=100, required=False, initial="Player")
    scoring = forms.ChoiceField(
        label="Length",
        choices=[("none", "One hand"), ("standard", "To 500 points (standard scoring)")],
        initial="none",
    )
    seed = forms.CharField(
        label="Deal number (optional: the same number deals the same cards)",
        max_length=64,
        required=False,
    )


@require_http_methods(["GET", "POST"])
def quick_game(request: HttpRequest) -> HttpResponse:
    """Start a game against 1 to 9 bots: signed-in users and visitors alike (a visitor's seat
    is kept in their session)."""
    form = QuickGameForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            game, seat = bots.start_quick_game(
                variant=data["variant"],
                bots=data["bots"],
                player=data["player"],
                user=request.user,
                scoring=data["scoring"],
                seed=data["seed"] or None,
            )
        except RuleError as exc:
            form.add_error(None, str(exc))
        else:
            seats = dict(request.session.get(SESSION_SEATS, {}))
            seats[str(game.pk)] = seat.secret
            request.session[SESSION_SEATS] = seats
            return redirect("games:table", game_id=game.pk)
    return render(request, "games/quick.html", {"form": form, "games": _my_games(request)})


def _my_games(request: HttpRequest) -> list[Game]:
    """The games this browser holds a seat of (or the signed-in user sits at), newest first."""
    ids = list(request.session.get(SESSION_SEATS, {}))
    games = Game.objects.filter(pk__in=ids)
    if request.user.is_authenticated:
        games = games | Game.objects.filter(seats__user=request.user)
    return list(games.distinct().order_by("-created_at")[:10])


# Signing in ----------------------------------------------------------------------------------


class SignInView(auth_views.LoginView):
    """Django's sign-in page, with wrong passwords limited per address (``FailedSignIns``):
    past the limit no password from that address is checked until the window ends."""

    template_name = "games/login.html"
    next_page = "games:quick"
    redirect_authenticated_user = True

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        failures = FailedSignIns(request)
        wait = failures.wait()
        if wait is not None:
            form = self.get_form()
            form.errors.clear()
            form.add_error(
                None, f"Too many wrong passwords from here: try again in {wait} seconds."
            )
            response = self.render_to_response(self.get_context_data(form=form), status=429)
            response["Retry-After"] = str(wait)
            return response
        response = super().post(request, *args, **kwargs)
        if response.status_code == 200:  # the form came back: the password was wrong
            failures.record()
        return response
