"""The tournament pages: the list of tournaments; a new tournament (every setting and its
players, for any signed-in user, who becomes its organiser); and the tournament page: its
bracket drawn as a picture, its rounds with their tables and placings, its standings and the
director's rulings, kept live by htmx polling a fragment of the same template while the
tournament runs. For its organiser, the director's tools, which follow the poll's news out of
band: entering players (``tournament_enter``) and one form each for the rest, posted to
``tournament_direct``, which calls one service and comes back. Every write is a call of the
same services the API calls."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Count, F, Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_GET, require_http_methods
from django_htmx.http import HttpResponseStopPolling

from games.errors import Forbidden, NotFound
from games.models import Game
from games.names import sentence_start
from games.pages.posting import posted_from
from rules import IllegalCommand, InvalidCommand, RuleError
from tournaments.brackets import directing, drawing, selectors, services
from tournaments.brackets.forms import (
    AwardForm,
    EntryForm,
    PlayerForm,
    ReasonForm,
    ResultForm,
    TableReasonForm,
    TournamentForm,
)
from tournaments.brackets.models import Entry, Table, Tournament

POLL_SECONDS = 5
LIST_LIMIT = 200


@require_GET
def tournament_list(request: HttpRequest) -> HttpResponse:
    """Every tournament, newest first (the newest ``LIST_LIMIT``), and the way to a new one."""
    tournaments = Tournament.objects.annotate(
        players=Count("entries", filter=Q(entries__dropped=False))
    ).order_by("-created_at", "-pk")[:LIST_LIMIT]
    return render(request, "tournaments/tournament_list.html", {"tournaments": tournaments})


@login_required
@require_http_methods(["GET", "POST"])
def tournament_create(request: HttpRequest) -> HttpResponse:
    """A new tournament, organised by the signed-in user: bad settings are shown on their
    fields and nothing is created."""
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        tournament = form.create(organiser=request.user)
        if tournament is not None:
            messages.success(
                request,
                "The tournament is created. Enter the players, then start it."
                if tournament.status == Tournament.Status.DRAFT
                else "The tournament is created.",
            )
            return redirect("tournaments:tournament-page", tournament_id=tournament.pk)
    status = 400 if form.is_bound else 200
    return render(request, "tournaments/tournament_create.html", {"form": form}, status=status)


def _page_context(request: HttpRequest, tournament_id: int) -> dict[str, Any]:
    try:
        detail = selectors.tournament_detail(tournament_id)
    except NotFound as exc:
        raise Http404(str(exc)) from None
    director = directing.is_director(request.user, tournament_id)
    return {
        "t": detail,
        "seen": _seen(detail),
        "poll": POLL_SECONDS,
        "live": detail["status"] == "running",
        "bracket": drawing.bracket_svg(detail),
        "director": director,
        # A late entry: before the start, or between the rounds of a Swiss.
        "can_enter": director
        and (
            detail["status"] == "draft"
            or (detail["status"] == "running" and detail["settings"]["format"] == "swiss")
        ),
        "entry_form": EntryForm(),
        "award_choices": AwardForm.base_fields["kind"].choices,
        # Names the box dropping a player by who may be dropped: a new list makes a new box.
        "playing_key": _digest([e["player"] for e in detail["entries"] if not e["dropped"]]),
    }


def _ranked_now(context: dict[str, Any], tournament_id: int) -> dict[str, Any]:
    """For the director's tools (drawn with the whole page, and by a poll that brings news):
    each playing table's players as its game stands now (``ranked_now``), the order calling
    time gives them, and an award the order of the others. Not part of what the poll compares
    (``seen``)."""
    if not context["director"]:
        return context
    detail = context["t"]
    playing = Table.objects.filter(
        round__tournament_id=tournament_id, status=Table.Status.PLAYING
    ).select_related("round")
    now = {(t.round.number, t.number): services.ranked_now(t) for t in playing}
    # A game over whose result is not recorded yet: awards and time are refused there
    # (``directing._decide``), so the page says so in place of them.
    over = set(
        playing.filter(game__status=Game.Status.FINISHED)
        .exclude(held=F("game__version"))
        .values_list("round__number", "number")
    )
    for rnd in detail["rounds"]:
        for table in rnd["tables"]:
            at = (rnd["number"], table["number"])
            table["ranked_now"] = now.get(at, [])
            table["result_owed"] = at in over
    return context


def _digest(value: Any) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True, default=str).encode()).hexdigest()[:16]


def _seen(detail: dict[str, Any]) -> str:
    """What the page shows, sent back by its poll: the status, the rounds seated, and a digest
    of everything else (tables, placings, entries, rulings)."""
    return f"{detail['status']}-{len(detail['rounds'])}-{_digest(detail)}"


@require_GET
def tournament_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    context = _page_context(request, tournament_id)
    htmx = getattr(request, "htmx", None)
    if htmx and not htmx.history_restore_request:
        seen = request.GET.get("seen", "")
        if seen == context["seen"] and context["live"]:
            # Nothing new: no swap, so a bracket scrolled sideways on a phone stays put.
            response = HttpResponse(status=204)
        else:
            response = render(request, "tournaments/tournament.html#live", context)
            if context["director"]:
                # The director's tools follow (a table decided, a round seated, the end), out
                # of band: not the whole page again, which wiped a reason being typed. Each of
                # their boxes still about the same thing is kept as the director left it.
                tools = _ranked_now({**context, "oob": True}, tournament_id)
                response.content += render_to_string(
                    "tournaments/tournament.html#director", tools, request
                ).encode()
        if not context["live"]:  # the tournament is over: the last fragment, and no more polls
            response = HttpResponseStopPolling(response.content)
    else:
        response = render(
            request, "tournaments/tournament.html", _ranked_now(context, tournament_id)
        )
    # The same URL answers a fragment or a page: caches must tell them apart.
    patch_vary_headers(response, ["HX-Request"])
    return response


@login_required
@posted_from("tournaments:tournament-page", "tournament_id")
def tournament_enter(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Enter a player (the organiser only): ``services.add_entry``, as the API does. A bad
    name or a refusal (already entered, started) is shown on the form; nothing is entered."""
    _require_director(request, tournament_id)
    form = EntryForm(request.POST)
    if form.is_valid():
        player = form.cleaned_data["player"]
        try:
            services.add_entry(tournament_id=tournament_id, player=player, by=request.user)
        except (InvalidCommand, IllegalCommand) as exc:
            entered = Entry.objects.filter(tournament_id=tournament_id)
            names = [player, *entered.values_list("player", flat=True)]
            form.add_error("player", f"{sentence_start(str(exc), names)}.")
        except NotFound as exc:
            raise Http404(str(exc)) from None
        else:
            messages.success(request, f"{player} is entered.")
            return redirect(
                reverse("tournaments:tournament-page", args=[tournament_id]) + "#enter-heading"
            )
    # The form is shown with its error even where it is no longer offered (it just closed).
    context = {**_page_context(request, tournament_id), "entry_form": form, "can_enter": True}
    return render(
        request, "tournaments/tournament.html", _ranked_now(context, tournament_id), status=400
    )


def _require_director(request: HttpRequest, tournament_id: int) -> None:
    try:
        directing.require_director(tournament_id=tournament_id, by=request.user)
    except NotFound as exc:
        raise Http404(str(exc)) from None
    except Forbidden as exc:
        raise PermissionDenied(str(exc)) from None


def _table_args(data: dict[str, Any]) -> dict[str, Any]:
    return {"round_number": data["round"], "table_number": data["table"]}


# action -> (form, service called with the tournament, the cleaned data and the user, done)
ACTIONS: dict[str, tuple[type[forms.Form] | None, Callable[..., Any], str]] = {
    "start": (None, lambda t, d, by: services.start_tournament(tournament_id=t, by=by), "Started."),
    "check-in": (
        PlayerForm,
        lambda t, d, by: directing.check_in(tournament_id=t, player=d["player"], by=by),
        "Checked in.",
    ),
    "check-out": (
        PlayerForm,
        lambda t, d, by: directing.check_out(tournament_id=t, player=d["player"], by=by),
        "Check-in taken back.",
    ),
    "drop": (
        PlayerForm,
        lambda t, d, by: services.drop_entry(tournament_id=t, player=d["player"], by=by),
        "Dropped: not seated at any table from now on.",
    ),
    "undrop": (
        PlayerForm,
        lambda t, d, by: directing.take_back_drop(tournament_id=t, player=d["player"], by=by),
        "Drop taken back: entered again.",
    ),
    "advance": (
        None,
        lambda t, d, by: directing.advance_round(tournament_id=t, by=by),
        "The next round is seated.",
    ),
    "repair": (
        ReasonForm,
        lambda t, d, by: directing.repair_round(tournament_id=t, reason=d["reason"], by=by),
        "The round is seated again.",
    ),
    "reopen": (
        TableReasonForm,
        lambda t, d, by: directing.reopen_table(
            tournament_id=t, reason=d["reason"], by=by, **_table_args(d)
        ),
        "The table is reopened.",
    ),
    "call-time": (
        TableReasonForm,
        lambda t, d, by: directing.call_time(
            tournament_id=t, reason=d["reason"], by=by, **_table_args(d)
        ),
        "Time called: the table is ranked as its game stands.",
    ),
    "result": (
        ResultForm,
        lambda t, d, by: directing.enter_result(
            tournament_id=t, placings=d["placings"], reason=d["reason"], by=by, **_table_args(d)
        ),
        "Result entered.",
    ),
    "award": (
        AwardForm,
        lambda t, d, by: directing.award_against(
            tournament_id=t,
            kind=d["kind"],
            player=d["player"],
            reason=d["reason"],
            by=by,
            **_table_args(d),
        ),
        "Result awarded.",
    ),
}


@login_required
@posted_from("tournaments:tournament-page", "tournament_id")
def tournament_direct(request: HttpRequest, tournament_id: int, action: str) -> HttpResponse:
    """One of the director's tools, from the tournament page: the organiser only (403)."""
    if action not in ACTIONS:
        raise Http404("no such tool")
    _require_director(request, tournament_id)
    form_class, service, done = ACTIONS[action]
    data: dict[str, Any] = {}
    if form_class is not None:
        form = form_class(request.POST)
        if not form.is_valid():
            problems = " ".join(
                f"{form.fields[name].label or name}: {' '.join(errors)}"
                if name in form.fields
                else " ".join(errors)
                for name, errors in form.errors.items()
            )
            messages.error(request, f"Nothing was done. {problems}")
            return redirect(reverse("tournaments:tournament-page", args=[tournament_id]))
        data = form.cleaned_data
    try:
        service(tournament_id, data, request.user)
        messages.success(request, done)
    except (RuleError, NotFound) as exc:
        messages.error(request, f"Nothing was done: {exc}")
    return redirect(reverse("tournaments:tournament-page", args=[tournament_id]) + "#director")
