"""The tournament page: its bracket drawn as a picture, its rounds with their tables and
placings, its standings and the director's rulings, kept live by htmx polling a fragment of
the same template while the tournament runs; and, for its organiser, the director's tools (one
form each, posted to ``tournament_direct``, which calls one service and comes back)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseStopPolling

from games.errors import Forbidden, NotFound
from rules import RuleError
from tournaments.brackets import directing, drawing, selectors, services
from tournaments.brackets.forms import AwardForm, PlayerForm, ReasonForm, TableReasonForm

POLL_SECONDS = 5


@require_GET
def tournament_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    try:
        detail = selectors.tournament_detail(tournament_id)
    except NotFound as exc:
        raise Http404(str(exc)) from None
    context = {
        "t": detail,
        "poll": POLL_SECONDS,
        "live": detail["status"] == "running",
        "bracket": drawing.bracket_svg(detail),
        "director": directing.is_director(request.user, tournament_id),
        "award_choices": AwardForm.base_fields["kind"].choices,
    }
    htmx = getattr(request, "htmx", None)
    if htmx and not htmx.history_restore_request:
        response = render(request, "tournaments/tournament.html#live", context)
        if not context["live"]:  # the tournament is over: the last fragment, and no more polls
            return HttpResponseStopPolling(response.content)
        return response
    return render(request, "tournaments/tournament.html", context)


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
    "drop": (
        PlayerForm,
        lambda t, d, by: services.drop_entry(tournament_id=t, player=d["player"], by=by),
        "Dropped from the next round on.",
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
@require_POST
def tournament_direct(request: HttpRequest, tournament_id: int, action: str) -> HttpResponse:
    """One of the director's tools, from the tournament page: the organiser only (403)."""
    if action not in ACTIONS:
        raise Http404("no such tool")
    try:
        directing.require_director(tournament_id=tournament_id, by=request.user)
    except NotFound as exc:
        raise Http404(str(exc)) from None
    except Forbidden as exc:
        raise PermissionDenied(str(exc)) from None
    form_class, service, done = ACTIONS[action]
    data: dict[str, Any] = {}
    if form_class is not None:
        form = form_class(request.POST)
        if not form.is_valid():
            problems = "; ".join(
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
