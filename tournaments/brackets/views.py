"""The tournament page: its rounds with their tables and placings, and its standings, kept live
by htmx polling a fragment of the same template while the tournament runs."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

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
        if not context["live"]:
            response.status_code = 286  # htmx: stop polling, the tournament is over
        return response
    return render(request, "tournaments/tournament.html", context)
