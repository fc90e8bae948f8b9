"""The tournament page: its rounds with their tables and placings, and its standings, kept live
by htmx polling a fragment of the same template while the tournament runs."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET
from django_htmx.http import HttpResponseStopPolling

from games.errors import NotFound
from tournaments.brackets import selectors

POLL_SECONDS = 5


@require_GET
def tournament_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    try:
        detail = selectors.tournament_detail(tournament_id)
    except NotFound as exc:
        raise Http404(str(exc)) from None
    context = {"t": detail, "poll": POLL_SECONDS, "live": detail["status"] == "running"}
    htmx = getattr(request, "htmx", None)
    if htmx and not htmx.history_restore_request:
        response = render(request, "tournaments/tournament.html#live", context)
        if not context["live"]:  # the tournament is over: the last fragment, and no more polls
            return HttpResponseStopPolling(response.content)
        return response
    return render(request, "tournaments/tournament.html", context)
