"""The league pages: leagues, a league, a season's standings, a player, and the score sheet a
referee fills in at a league night.

Plain function views that parse, call one selector or service, and render. An htmx request
gets only the fragment it swaps (``template.html#fragment``); every page also works without
JavaScript (links and forms fall back to ordinary requests).
"""

from __future__ import annotations

import secrets
from typing import Any
from uuid import UUID

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import NON_FIELD_ERRORS, PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games import services as game_services
from games.errors import NotFound, Stale
from rules import IllegalCommand, InvalidCommand
from tournaments.leagues import selectors, services
from tournaments.leagues.charts import line_chart
from tournaments.leagues.demo import DEMO_LEAGUE
from tournaments.leagues.forms import HandForm, UndoHandForm
from tournaments.leagues.models import League


def _htmx(request: HttpRequest) -> bool:
    """An htmx request that swaps a fragment (a history restore wants the whole page)."""
    htmx = getattr(request, "htmx", None)
    return bool(htmx) and not htmx.history_restore_request


def _not_found(exc: NotFound) -> Http404:
    return Http404(str(exc))


# Leagues ----------------------------------------------------------------------------------------


@require_GET
def league_list(request: HttpRequest) -> HttpResponse:
    return render(request, "tournaments/league_list.html", {"leagues": selectors.league_list()})


@require_GET
def demo_league(request: HttpRequest) -> HttpResponse:
    """The demo club's page (``manage.py seed_demo``), so the home page can link it by name."""
    league = League.objects.filter(name=DEMO_LEAGUE).order_by("pk").first()
    if league is None:
        raise Http404("no demo club yet: run `manage.py seed_demo`")
    return redirect("tournaments:league-detail", league_id=league.pk)


@require_GET
def league_detail(request: HttpRequest, league_id: int) -> HttpResponse:
    try:
        league = selectors.league_detail(league_id)
    except NotFound as exc:
        raise _not_found(exc) from None
    context = {"league": league, "organisers": selectors.league_organisers(league_id)}
    return render(request, "tournaments/league_detail.html", context)


# A season's standings ---------------------------------------------------------------------------


@require_GET
def season_standings(request: HttpRequest, season_id: int) -> HttpResponse:
    """The season's standings sorted by ``?sort=column&dir=asc|desc``; an htmx request (a click
    on a column heading) gets only the table."""
    try:
        table = selectors.sorted_standings(
            season_id, request.GET.get("sort"), request.GET.get("dir")
        )
    except NotFound as exc:
        raise _not_found(exc) from None
    context: dict[str, Any] = {"table": table, "season_id": season_id}
    if _htmx(request):
        response = render(request, "tournaments/season_standings.html#standings-table", context)
    else:
        season = selectors.season_detail(season_id)
        context.update(
            season=season,
            nights=selectors.season_nights(season_id),
            organiser=services.is_organiser(request.user, season["league"]["id"]),
        )
        response = render(request, "tournaments/season_standings.html", context)
    # The same URL answers a fragment or a page: caches must tell them apart.
    patch_vary_headers(response, ["HX-Request"])
    return response


# Players ----------------------------------------------------------------------------------------


@require_GET
def player_detail(request: HttpRequest, player_id: int) -> HttpResponse:
    try:
        player = selectors.player_page(player_id)
    except NotFound as exc:
        raise _not_found(exc) from None
    for season in player["seasons"]:
        history = season["rating_history"]
        season["chart"] = mark_safe(  # noqa: S308 (line_chart escapes every text it draws)
            line_chart(
                [(str(entry["number"]), entry["rating"]) for entry in history],
                title=f"{player['name']}'s rating in {season['season']}, game by game",
                description=_rating_description(history),
                x_label="games rated",
                y_label="rating",
                id_prefix=f"rating-{season['season_id']}",
            )
        )
    return render(request, "tournaments/player_detail.html", {"player": player})


def _rating_description(history: list[dict[str, Any]]) -> str:
    if not history:
        return "No rated games yet."
    first, last = history[0], history[-1]
    return (
        f"{len(history)} rated games: from {first['rating_before']} before the first to "
        f"{last['rating']} after the last."
    )


# Score sheets -----------------------------------------------------------------------------------

TOP = NON_FIELD_ERRORS  # errors that belong to no one field
STALE = (
    "The sheet changed while you were typing (someone recorded or undid a hand): check the "
    "hands above, then record this hand again if it is missing."
)


def _sheet_for_referee(request: HttpRequest, game_id: UUID) -> dict[str, Any]:
    """The score sheet, if the signed-in user referees its game (404, or 403 if not)."""
    try:
        sheet = selectors.score_sheet(game_id)
        game = game_services.get_game(game_id)
    except NotFound as exc:
        raise _not_found(exc) from None
    if not game_services.is_referee(request.user, game):
        raise PermissionDenied("only the game's referees (the league's organisers) keep its sheet")
    return sheet


def _sheet_context(
    sheet: dict[str, Any],
    *,
    errors: dict[str, str] | None = None,
    values: Any = None,
    notice: str = "",
) -> dict[str, Any]:
    errors = errors or {}
    rows = []
    for seat in sheet["seats"]:
        n = seat["seat"]
        rows.append(
            {
                **seat,
                "cards": values.get(f"cards-{n}", "") if values else "",
                "points": values.get(f"points-{n}", "") if values else "",
                "cards_field": f"cards-{n}",
                "points_field": f"points-{n}",
                "cards_error": errors.get(f"cards-{n}", ""),
                "points_error": errors.get(f"points-{n}", ""),
                "checked": bool(values) and values.get("out") == str(n),
            }
        )
    first_error = next(
        (
            name
            for name in ["out"]
            + [f"{k}-{s['seat']}" for s in sheet["seats"] for k in ("cards", "points")]
            if name in errors
        ),
        None,
    )
    return {
        "sheet": sheet,
        "entry_rows": rows,
        "errors": errors,
        "top_error": errors.get(TOP, ""),
        "out_error": errors.get("out", ""),
        "first_error": first_error,
        "notice": notice,
        # A fresh key per form shown: a double submit of the same hand appends it once.
        "key": values.get("key") if values and values.get("key") else secrets.token_hex(12),
    }


def _render_sheet_fragments(
    request: HttpRequest, context: dict[str, Any], main: str, *, both: bool
) -> HttpResponse:
    """The fragment the request swaps (``main``), with the other one out of band when both
    changed (a hand appended or undone changes the hands and the form's version)."""
    template = "tournaments/score_sheet.html"
    other = "entry-form" if main == "hands" else "hands"
    oob = {**context, "oob": True}
    html = render_to_string(f"{template}#{main}", context, request)
    if both:
        html += render_to_string(f"{template}#{other}", oob, request)
    # The status line stays in the page (a live region) and gets the notice, if any.
    html += render_to_string(f"{template}#status", oob, request)
    return HttpResponse(html)


@login_required
@require_http_methods(["GET", "POST"])
def score_sheet(request: HttpRequest, game_id: UUID) -> HttpResponse:
    """The score sheet of a game played with physical cards: its hands so far with running
    totals, and the form for the next hand (referees only). A hand goes through
    ``services.record_hand``; an error is shown next to the field it names and appends
    nothing."""
    sheet = _sheet_for_referee(request, game_id)
    if request.method == "GET":
        return render(request, "tournaments/score_sheet.html", _sheet_context(sheet))

    form = HandForm(request.POST, seats=len(sheet["seats"]))
    if form.is_valid():
        try:
            services.record_hand(
                game_id=game_id,
                **form.command(),
                actor=game_services.user_actor(request.user),
                expected_version=form.cleaned_data["version"],
                key=form.cleaned_data["key"],
            )
        except InvalidCommand as exc:
            form.add_engine_error(exc)
        except IllegalCommand as exc:
            form.add_error(None, f"{exc}.")
        except Stale:
            form.add_error(None, STALE)
    errors = form.first_errors()
    if errors:
        sheet = selectors.score_sheet(game_id)  # a stale form gets the current hands
        context = _sheet_context(sheet, errors=errors, values=request.POST)
        if _htmx(request):
            return _render_sheet_fragments(request, context, "entry-form", both=TOP in errors)
        return render(request, "tournaments/score_sheet.html", context, status=200)

    sheet = selectors.score_sheet(game_id)
    notice = f"Hand {sheet['hands'][-1]['number']} recorded." if sheet["hands"] else ""
    if _htmx(request):
        context = _sheet_context(sheet, notice=notice)
        return _render_sheet_fragments(request, context, "entry-form", both=True)
    # Post/redirect/get: a reload does not send the hand again.
    messages.info(request, notice)
    return redirect(reverse("tournaments:score-sheet", args=[game_id]) + "#sheet-hands")


@login_required
@require_POST
def score_sheet_undo(request: HttpRequest, game_id: UUID) -> HttpResponse:
    """Undo the last hand standing (``games.services.undo``: a compensating event, nothing is
    edited or deleted). The form names the hand it means, so a second click undoes nothing."""
    sheet = _sheet_for_referee(request, game_id)
    form = UndoHandForm(request.POST)
    hand = form.cleaned_data["hand"] if form.is_valid() else None
    last = sheet["hands"][-1] if sheet["hands"] else None
    if last is None or last["number"] != hand:
        notice = (
            f"Hand {hand} is not the last hand any more: nothing was undone."
            if hand is not None
            else "Nothing to undo."
        )
    else:
        try:
            game_services.undo(
                game_id=game_id,
                to_version=last["undo_to"],
                reason=f"score sheet: hand {hand} undone",
                by=game_services.user_actor(request.user),
            )
            notice = f"Hand {hand} undone."
        except (InvalidCommand, Stale) as exc:
            notice = f"Nothing was undone: {exc}"
        sheet = selectors.score_sheet(game_id)
    if _htmx(request):
        context = _sheet_context(sheet, notice=notice)
        return _render_sheet_fragments(request, context, "hands", both=True)
    messages.info(request, notice)
    return redirect(reverse("tournaments:score-sheet", args=[game_id]) + "#sheet-hands")
