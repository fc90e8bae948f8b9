"""The game pages (htmx): the table a seat plays at, quick games against bots, the replay
viewer and disputes.

Each view parses its input with a form (``games.pages.forms``), calls one service, chooses the
template (for an htmx request only the named fragment of the page,
"games/table.html#updates") and returns. What a page may show is decided in
``games.pages.table`` and ``games.pages.replay`` with ``rules.views``.

A seat's private link, /table/<game>/seat/<secret>/, puts the secret in the session and
redirects to the clean /table/<game>/ at once, so the secret stays out of the address bar, the
history and any Referer (docs/decisions/0004-table-pages.md).
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django import forms
from django.conf import settings
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse, reverse_lazy
from django.views.decorators.http import require_GET, require_http_methods
from django.views.decorators.vary import vary_on_headers
from django.views.defaults import page_not_found
from django_htmx.http import HttpResponseStopPolling

from games import bots, registry, services
from games.errors import CommandUndone, GameError, KeyClash, NotFound, Stale
from games.models import Dispute, Game
from games.pages import lobby
from games.pages.card_words import CARDS_HELP
from games.pages.editions.words import Namer, said_plainly
from games.pages.forms import (
    CommandForm,
    CountedPasswordChangeForm,
    CountedSignInForm,
    DisputeForm,
    PollQuery,
    PositionForm,
    QuickGameForm,
    ReplayQuery,
    RulingForm,
    TableQuery,
    UndoForm,
    error_text,
    position_problem,
)
from games.pages.posting import posted_from
from games.pages.replay import actor_words, replay_context
from games.pages.setting_up import DescribedPositionForm
from games.pages.table import someone_rules, table_context
from games.pages.viewers import Viewer, remember_seat, seated_games, viewer_of
from games.throttles import FailedSecrets, FailedSignIns
from games.visibility import is_revealed
from rules import IllegalCommand, RuleError, parse_position
from rules.variants import get_variant

# Shared by the views ---------------------------------------------------------------------------


def _game(game_id: UUID) -> Game:
    try:
        return services.get_game(game_id)
    except NotFound:
        raise Http404("No such game.") from None


def _forbidden(request: HttpRequest, game: Game, reason: str) -> HttpResponse:
    return render(request, "games/forbidden.html", {"game": game, "reason": reason}, status=403)


def _rule_error(exc: Exception, game: Game, viewer_seat: int | None) -> str:
    """Why a command was refused, in the players' words (names, not seat numbers; cards in
    words, not codes)."""
    if isinstance(exc, Stale):
        return "The game moved on before your command arrived: look again and retry."
    names = [seat.player for seat in game.seats.all()]
    return said_plainly(str(exc), Namer(names, viewer_seat))


def _query(form_class: type[forms.Form], request: HttpRequest) -> dict[str, Any]:
    """A page's query string through its form: what parses; a part that does not is left
    out, and the page is shown as without it."""
    form = form_class(request.GET)
    form.is_valid()
    return form.cleaned_data


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
    elif "\x00" in secret or (seat := services.seat_for_secret(game_id, secret)) is None:
        # A NUL ("%00" in the link) is no secret, and PostgreSQL would refuse to look it up.
        failures.record()
        response = page_not_found(request, Http404("No such seat."))
    else:
        remember_seat(request, game_id, secret)
        # Opened while another browser holds the seat: both play, and this one is told so.
        second = lobby.opened_elsewhere(request, seat)
        response = redirect("games:second-device" if second else "games:table", game_id=game_id)
    response["Referrer-Policy"] = "no-referrer"
    response["Cache-Control"] = "no-store"
    return response


@require_GET
@vary_on_headers("HX-Request")
def table_page(request: HttpRequest, game_id: UUID) -> HttpResponse:
    game = _game(game_id)
    viewer = viewer_of(request, game)
    if not (viewer.player or viewer.referee or is_revealed(game)):
        return _forbidden(request, game, "This table is private: open it with your seat's link.")
    query = _query(TableQuery, request)
    dispute, hand = query.get("dispute"), query.get("dispute_hand")
    context = table_context(
        game,
        viewer,
        pick=query.get("pick") or None,
        dispute_version=dispute,
        dispute_hand=hand,
    )
    looking = dispute is None and hand is not None and context["dispute_hand"] is not None
    if looking:
        # A player looking further back: the hand's newest moment chosen, the choice focused.
        context["dispute_look"] = True
        context["dispute_version"] = context["dispute_choices"][-1][1][0].version
    if request.htmx:
        part = "#dispute" if dispute is not None else "#dispute_choices" if looking else "#actions"
        return render(request, "games/table.html" + part, context)
    return _table(request, game, context)


@require_GET
def table_version(request: HttpRequest, game_id: UUID) -> HttpResponse:
    """The page's fetch by version, when its stream says the game moved (games.pages.live) or
    it catches up (shown again, reconnected), or the poll where there is no stream: 204 while
    the game is at version ``v``; when it moved, the table's fragments (swapped out of band,
    so nothing else on the page is touched). A finished game the page
    showed held back (``revealed=0``) is shown again once it is revealed; once it is over and
    shown, the answer stops the poll."""
    game = _game(game_id)
    viewer = viewer_of(request, game)
    revealed = is_revealed(game)
    if not (viewer.player or viewer.referee or revealed):
        return HttpResponse(status=403)
    query = _query(PollQuery, request)
    if query.get("v") == game.version:
        if game.status != Game.Status.FINISHED or not revealed:
            return HttpResponse(status=204)
        if query.get("revealed") != "0":
            return HttpResponseStopPolling()  # over and shown: nothing will move again
    context = table_context(game, viewer, dispute_hand=query.get("dispute_hand"))
    return render(request, "games/table.html#updates", context)


@posted_from("games:table", "game_id")
def table_command(request: HttpRequest, game_id: UUID) -> HttpResponse:
    """A button of the table: a command for the viewer's seat, or (``pick``) the ways to play
    one card."""
    game = _game(game_id)
    viewer = viewer_of(request, game)
    if viewer.seat is None:
        return _forbidden(request, game, "Only a seat of this table can play at it.")
    form = CommandForm(request.POST, game_id=game.pk, seat=viewer.seat)
    error = ""
    status = 200
    if not form.is_valid():
        error, status = error_text(form), 400
    elif form.cleaned_data["command"] is not None:
        try:
            services.apply_command(
                game_id=game.pk,
                command=form.cleaned_data["command"],
                actor=services.seat_actor(viewer.seat),
                expected_version=form.cleaned_data["version"],
            )
        except (RuleError, GameError) as exc:
            error = _rule_error(exc, game, viewer.seat)
            # Not allowed now (409) or malformed (400), as the API answers.
            status = 409 if isinstance(exc, IllegalCommand | GameError) else 400
        else:
            if not request.htmx:
                return redirect("games:table", game_id=game.pk)
    game.refresh_from_db()
    pick = form.cleaned_data.get("pick") or None
    context = table_context(game, viewer, pick=pick, error=error)
    if request.htmx:
        return render(request, "games/table.html#updates", context)
    return _table(request, game, context, status=status)


# Disputes -------------------------------------------------------------------------------------


@posted_from("games:table", "game_id")
def dispute_open(request: HttpRequest, game_id: UUID) -> HttpResponse:
    """File a dispute about an event, from the table page (a seat) or the replay (referee)."""
    game = _game(game_id)
    viewer = viewer_of(request, game)
    if not (viewer.player or viewer.referee):
        return _forbidden(request, game, "Only a seat or a referee of this game files disputes.")
    if not someone_rules(game, viewer):
        return _forbidden(
            request, game, "Nobody referees this game, so there is no one to rule on a dispute."
        )
    form = DisputeForm(request.POST)
    error = ""
    if not form.is_valid():
        error = error_text(form)
    else:
        try:
            services.open_dispute(
                game_id=game.pk,
                version=form.cleaned_data["version"],
                claim=form.cleaned_data["claim"],
                by=viewer.actor,
            )
        except (RuleError, GameError) as exc:
            error = str(exc)
    if not request.htmx and not error:
        return redirect(reverse("games:table", args=[game.pk]) + "#disputes")
    # Refused, the form comes back as it was sent: the moment chosen (with the rest of its
    # hand when the log no longer shows it), the words typed.
    chosen = form.cleaned_data.get("version") if error else None
    context = table_context(game, viewer, dispute_version=chosen)
    context["dispute_filed"] = not error
    context["dispute_error"] = error
    context["dispute_claim"] = request.POST.get("claim", "") if error else ""
    if request.htmx:
        # The form again, and the table's list of disputes (out of band) with the new one.
        return render(request, "games/table.html#dispute_reply", context)
    return _table(request, game, context, status=400)


def _table(
    request: HttpRequest, game: Game, context: dict[str, Any], status: int = 200
) -> HttpResponse:
    """The whole table page: the fragments' context, and in its header the way back to the
    league night or tournament the table is played at (looked up for the whole page only,
    never for the fragments the page fetches as the game moves)."""
    context["event"] = registry.event_page(game)
    return render(request, "games/table.html", context, status=status)


RULED_TOO_LATE = (
    "The game has moved on since this page was shown, so nothing was ruled or undone: look at "
    "the moves made since, then choose again how far to undo."
)


@posted_from("games:table", "game_id")
def dispute_rule(request: HttpRequest, game_id: UUID, dispute_id: int) -> HttpResponse:
    game = _game(game_id)
    viewer = viewer_of(request, game)
    if not viewer.referee:
        return _forbidden(request, game, "Only a referee of this game rules on disputes.")
    if not game.disputes.filter(pk=dispute_id).exists():
        raise Http404("No such dispute.")
    form = RulingForm(request.POST)
    # A refused ruling comes back in its own form, with what the referee chose and wrote.
    sent = {
        "pk": dispute_id,
        "decision": request.POST.get("decision", ""),
        "note": request.POST.get("note", ""),
        "undo_to": request.POST.get("undo_to", ""),
    }
    if not form.is_valid():
        return _replay_refused(request, game, viewer, error_text(form), ruling=sent)
    undo_to = form.cleaned_data["undo_to"]
    # A finished game's undo reopens it (services.undo), as the form says when the game is over.
    reopen = undo_to is not None and game.status == Game.Status.FINISHED and not game.sheet
    if reopen and not form.cleaned_data["reopen"]:
        error = (
            "The game ended after this page was shown: an undo now reopens it, as the form "
            "says. Look the ruling over and rule again."
        )
        return _replay_refused(request, game, viewer, error, ruling=sent)
    try:
        services.rule_on_dispute(
            dispute_id=dispute_id,
            decision=form.cleaned_data["decision"],
            note=form.cleaned_data["note"],
            undo_to=undo_to,
            reopen=reopen,
            by=viewer.actor,
            expected_version=form.cleaned_data["version"],
        )
    except Stale:
        return _replay_refused(request, game, viewer, RULED_TOO_LATE, ruling=sent, status=409)
    except (RuleError, GameError) as exc:
        ruled = game.disputes.exclude(status=Dispute.Status.OPEN).filter(pk=dispute_id).first()
        if ruled is not None:  # another referee's ruling (or this form's) came first
            return _replay_refused(request, game, viewer, _ruled_before(ruled, viewer), status=409)
        return _replay_refused(request, game, viewer, str(exc), ruling=sent)
    return redirect(reverse("games:replay", args=[game.pk]) + "#disputes")


def _ruled_before(dispute: Dispute, viewer: Viewer) -> str:
    """Why a ruling was not recorded: the dispute had been ruled before it arrived. Said by
    what the dispute claims and who opened it, with the ruling that stands."""
    names = [seat.player for seat in dispute.game.seats.all()]
    opened_by = actor_words(dispute.opened_by, names)
    whose = "your" if dispute.opened_by == viewer.actor else f"{opened_by}'s"
    ruled_by = "you" if dispute.ruled_by == viewer.actor else actor_words(dispute.ruled_by, names)
    note = f", noting “{dispute.ruling}”" if dispute.ruling else ""
    return (
        f"Nothing was ruled or undone: {whose} dispute “{dispute.claim}” had already been "
        f"ruled {dispute.status} by {ruled_by}{note}, when this ruling arrived. The ruling "
        "that stands is under Disputes."
    )


# The replay viewer ----------------------------------------------------------------------------


@require_GET
@vary_on_headers("HX-Request")
def replay(request: HttpRequest, game_id: UUID) -> HttpResponse:
    game = _game(game_id)
    viewer = viewer_of(request, game)
    if not (viewer.referee or is_revealed(game)):
        return _forbidden(
            request,
            game,
            "While the game is on (or held back for tables still playing the same deal), "
            "only its referee may replay it.",
        )
    query = _query(ReplayQuery, request)
    version, rule = query.get("v"), query.get("rule")
    # "Rule on a dispute with an undo to here": its form with that moment chosen.
    chosen = None if rule is None else {"pk": rule, "undo_to": str(version)}
    context = replay_context(game, viewer, version, ruling=chosen)
    # The stepper pushes each frame's URL: going back to one htmx has not kept asks for it
    # again (a history restore), and gets the whole page, not the frame.
    frame = request.htmx and not request.htmx.history_restore_request
    return render(request, "games/replay.html#frame" if frame else "games/replay.html", context)


@posted_from("games:replay", "game_id")
def replay_undo(request: HttpRequest, game_id: UUID) -> HttpResponse:
    """A referee rewinds the game to a version, with a reason (a compensating event); a
    finished game only reopened, with a reason of the referee's own."""
    game = _game(game_id)
    viewer = viewer_of(request, game)
    if not viewer.referee:
        return _forbidden(request, game, "Only a referee of this game may undo.")
    form = UndoForm(request.POST)
    valid = form.is_valid()
    to_version = form.cleaned_data.get("to_version")
    if not valid:
        return _replay_refused(request, game, viewer, error_text(form), version=to_version)
    if game.status == Game.Status.FINISHED and not game.sheet and not form.cleaned_data["reopen"]:
        error = (
            "The game is over and every player has seen every hand: to play on from an earlier "
            "moment, tick “Reopen the finished game” and give the reason."
        )
        return _replay_refused(request, game, viewer, error, version=to_version)
    try:
        version = services.undo(
            game_id=game.pk,
            to_version=form.cleaned_data["to_version"],
            reason=form.cleaned_data["reason"],
            by=viewer.actor,
            reopen=form.cleaned_data["reopen"],
            expected_version=form.cleaned_data["version"],
            key=form.cleaned_data["key"],
        )
    except (Stale, KeyClash, CommandUndone) as exc:
        # Shown the game as it stands now, where nothing is offered to undo until the referee
        # steps back to a moment again.
        return _replay_refused(request, game, viewer, _undo_refused(exc), status=409)
    except (RuleError, GameError) as exc:
        return _replay_refused(request, game, viewer, str(exc), version=to_version)
    # (An undo sent twice is answered the same: the same page again.)
    return redirect(reverse("games:replay", args=[game.pk]) + f"?v={version}")


def _undo_refused(exc: Exception) -> str:
    """Why an undo from a page undid nothing, in the referee's words: the game moved on since
    the page was shown, or the form had been sent before."""
    if isinstance(exc, Stale):
        return (
            "The game has moved on since this page was shown, so nothing was undone. Here is "
            "the game as it stands now: step back to the moment to return to and undo again."
        )
    if isinstance(exc, CommandUndone):
        return (
            "This undo was made when the form was first sent, and has been undone since: "
            "nothing more was undone. Here is the game as it stands now."
        )
    return (
        "This form was already sent with other choices, and that undo was made: nothing more "
        "was undone. Here is the game as it stands now."
    )


def _replay_refused(
    request: HttpRequest,
    game: Game,
    viewer: Viewer,
    error: str,
    *,
    version: int | None = None,
    ruling: dict[str, Any] | None = None,
    status: int = 400,
) -> HttpResponse:
    """The replay viewer again, at ``version`` (the last when None), saying what was wrong: in
    the dispute's own ruling form, filled in as sent, for a refused ``ruling``."""
    sent = None if ruling is None else {**ruling, "error": error}
    context = replay_context(game, viewer, version, ruling=sent)
    if ruling is None:
        context["error"] = error
    return render(request, "games/replay.html", context, status=status)


# Quick games ----------------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def quick_game(request: HttpRequest) -> HttpResponse:
    """Start a game against 1 to 9 bots (signed-in users and visitors alike: a visitor's seat
    is kept in their session), or a table of people for a signed-in user, who referees it and
    gets each seat's link and QR code in the table's lobby. Either with the edition's options."""
    form = QuickGameForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        if data["mode"] == "people":
            if not request.user.is_authenticated:
                form.add_error(
                    "players",
                    "Sign in to set up a table of people: you referee it and hand out their "
                    "seat links.",
                )
            else:
                try:
                    game = services.create_game(
                        variant=data["variant"],
                        players=data["players"],
                        scoring=data["scoring"],
                        target=500,
                        seed=data["seed"] or None,
                        options=data["options"],
                        created_by=request.user,
                    )
                except RuleError as exc:
                    field = "players" if getattr(exc, "field", None) == "players" else None
                    form.add_error(field, str(exc))
                else:
                    return redirect("games:lobby", game_id=game.pk)
        else:
            try:
                game, seat = bots.start_quick_game(
                    variant=data["variant"],
                    bots=data["bots"],
                    player=data["player"],
                    user=request.user,
                    scoring=data["scoring"],
                    seed=data["seed"] or None,
                    options=data["options"],
                )
            except RuleError as exc:
                form.add_error(None, str(exc))
            else:
                remember_seat(request, game.pk, seat.secret)
                lobby.opened_elsewhere(request, seat)
                return redirect("games:table", game_id=game.pk)
    status = 400 if form.errors else 200
    games = [(g, get_variant(g.variant).title) for g in seated_games(request)]
    context = {"form": form, "games": games}
    return render(request, "games/quick.html", context, status=status)


# Setting up a position ------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def set_up_position(request: HttpRequest) -> HttpResponse:
    """A referee starts a game from a position, to rebuild a disputed moment of a paper game,
    and goes to its replay. The game never counts. The position is described field by field
    (``DescribedPositionForm``) or pasted as a line (docs/POSITION.md)."""
    if not request.user.is_authenticated:
        return redirect(f"{reverse('games:login')}?next={request.path}")
    data = request.POST if request.method == "POST" else None
    # The line's form says so; a request with only a "position" is the line too (as the page
    # sent it before it had the described form).
    line_sent = data is not None and data.get("how", "line" if "position" in data else "") == "line"
    described = DescribedPositionForm(data if data is not None and not line_sent else None)
    line = PositionForm(data if line_sent else None)
    form = None if data is None else line if line_sent else described
    if form is not None and form.is_valid():
        cleaned = form.cleaned_data
        position = cleaned["position"]
        names = cleaned["players"] if form is line else cleaned["names"]
        try:
            state = parse_position(position, seed="-")
            names = names or [f"Player {n}" for n in range(1, state.players + 1)]
            game = services.create_game_from_position(
                position=position, players=names, created_by=request.user
            )
        except RuleError as exc:
            if form is line:
                field = "players" if getattr(exc, "field", None) == "players" else "position"
                form.add_error(field, position_problem(exc, names))
            else:
                form.add_error(None, said_plainly(str(exc), Namer(names)))
        else:
            return redirect("games:replay", game_id=game.pk)
    status = 400 if form is not None and form.errors else 200
    context = {"described": described, "form": line, "cards_help": CARDS_HELP}
    return render(request, "games/set_up.html", context, status=status)


# Signing in ----------------------------------------------------------------------------------


class Counted:
    """A view whose form counts wrong passwords (``CountedSignInForm``,
    ``CountedPasswordChangeForm``): past the limit the form comes back as 429, with
    ``Retry-After``."""

    def form_invalid(self, form: Any) -> HttpResponse:
        response = super().form_invalid(form)  # type: ignore[misc]
        if form.wait is not None:
            response.status_code = 429
            response["Retry-After"] = str(form.wait)
        return response


class SignInView(Counted, auth_views.LoginView):
    """Django's sign-in page, with wrong passwords limited per address (``CountedSignInForm``):
    past the limit no password from that address is checked until the window ends, and the
    answer is 429 with ``Retry-After``. Without a ``next``, a signed-in person goes to the
    leagues (where organisers run their nights)."""

    template_name = "registration/login.html"
    next_page = "tournaments:league-list"
    redirect_authenticated_user = True
    form_class = CountedSignInForm

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        # Where the demo's sign-ins are is a word for someone trying the site on their own
        # machine, never for a club's visitors.
        return super().get_context_data(**kwargs, own_machine=not settings.IS_PRODUCTION)


def admin_sign_in(request: HttpRequest) -> HttpResponse:
    """The admin's sign-in, with wrong passwords counted per address as on the sign-in page
    (``FailedSignIns``, the same count): it checks passwords too, so it is no way round it."""
    failures = FailedSignIns(request)
    if request.method == "POST" and (wait := failures.wait()) is not None:
        response = HttpResponse(
            f"Too many wrong passwords from here: try again in {wait} seconds.",
            status=429,
            content_type="text/plain; charset=utf-8",
        )
        response["Retry-After"] = str(wait)
        return response
    response = admin.site.login(request)
    if request.method == "POST" and response.status_code == 200:  # the form came back
        failures.record()
    return response


class PasswordChangeView(Counted, auth_views.PasswordChangeView):
    """Change one's own password (the old one first); the session stays signed in. Wrong old
    passwords are limited as the sign-in page's (``CountedPasswordChangeForm``); past the
    limit the answer is 429 with ``Retry-After``."""

    template_name = "registration/password_change_form.html"
    success_url = reverse_lazy("games:password-change-done")
    form_class = CountedPasswordChangeForm

    def get_form_kwargs(self) -> dict[str, Any]:
        return {**super().get_form_kwargs(), "request": self.request}


class PasswordChangeDoneView(auth_views.PasswordChangeDoneView):
    template_name = "registration/password_change_done.html"
