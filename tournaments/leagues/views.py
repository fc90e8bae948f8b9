"""The league pages: leagues, a league (its organisers and referees), a season's standings, a
league night (its tables, live), a player, and the score sheet a referee fills in at a night;
and the organiser's forms: a new league, season and night, a table seated, a night closed.

Plain function views that parse, call one selector or service, and render. An htmx request
gets only the fragment it swaps (``template.html#fragment``); every page also works without
JavaScript (links and forms fall back to ordinary requests).
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from typing import Any
from uuid import UUID

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import NON_FIELD_ERRORS, PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.utils.formats import date_format
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET, require_http_methods

from games import services as game_services
from games.errors import CommandUndone, Forbidden, KeyClash, NotFound, Stale
from games.models import Game
from games.names import clean_name, sentence_start
from games.pages.card_words import cards_help
from games.pages.posting import posted_from
from rules import IllegalCommand, InvalidCommand
from tournaments.brackets.models import Tournament
from tournaments.leagues import selectors, services
from tournaments.leagues.charts import line_chart
from tournaments.leagues.demo import DEMO_LEAGUE
from tournaments.leagues.forms import (
    HandForm,
    LeagueForm,
    NightForm,
    PlayerAccountForm,
    PlayerNameForm,
    PlayersForm,
    RoleForm,
    SeasonForm,
    TableForm,
    UndoHandForm,
    players_added,
    service_error,
)
from tournaments.leagues.models import League, Night, Player, Referee, Season, SeasonGame


def _htmx(request: HttpRequest) -> bool:
    """An htmx request that swaps a fragment (a history restore wants the whole page)."""
    htmx = getattr(request, "htmx", None)
    return bool(htmx) and not htmx.history_restore_request


def _not_found(exc: NotFound) -> Http404:
    return Http404(str(exc))


# Leagues ----------------------------------------------------------------------------------------


@require_GET
def league_list(request: HttpRequest) -> HttpResponse:
    context = {"leagues": selectors.league_list(), "yours": selectors.yours(request.user)}
    return render(request, "tournaments/league_list.html", context)


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
    return render(request, "tournaments/league_detail.html", _league_context(request, league))


def _league_context(
    request: HttpRequest,
    league: dict[str, Any],
    role_form: RoleForm | None = None,
    players_form: PlayersForm | None = None,
) -> dict[str, Any]:
    organiser = services.is_organiser(request.user, league["id"])
    return {
        "league": league,
        "roles": selectors.league_roles(league["id"]),
        "organiser": organiser,
        "role_form": role_form or (RoleForm() if organiser else None),
        "players_form": players_form or (PlayersForm() if organiser else None),
    }


def _organiser_only(request: HttpRequest, league: League, doing: str) -> None:
    """403 unless the signed-in user organises ``league``, saying who can help."""
    if not services.is_organiser(request.user, league):
        names = ", ".join(selectors.league_organisers(league.pk)) or "nobody yet"
        raise PermissionDenied(
            f"Only the organisers of {league.name} {doing}. Its organisers: {names}; "
            "ask one of them to name you organiser on the league's page."
        )


def _get(rows: Any, pk: int, what: str) -> Any:
    """The row of ``rows`` (a model or a queryset) with this ``pk``, or 404."""
    queryset = rows.objects.all() if hasattr(rows, "objects") else rows
    found = queryset.filter(pk=pk).first()
    if found is None:
        raise Http404(f"No such {what}.")
    return found


# Organising: leagues, seasons, nights ------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def league_new(request: HttpRequest) -> HttpResponse:
    """Open a league; whoever opens it is its first organiser."""
    form = LeagueForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            league = services.open_league(**form.arguments(), created_by=request.user)
        except InvalidCommand as exc:
            service_error(form, exc)
        else:
            messages.info(request, f"{league.name} is open, with you as its organiser.")
            return redirect("tournaments:league-detail", league_id=league.pk)
    status = 400 if form.errors else 200
    return render(request, "tournaments/league_new.html", {"form": form}, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def season_new(request: HttpRequest, league_id: int) -> HttpResponse:
    league = _get(League, league_id, "league")
    _organiser_only(request, league, "open its seasons")
    form = SeasonForm(request.POST or None, league=league)
    if request.method == "POST" and form.is_valid():
        try:
            season = services.open_season(league=league, **form.arguments(), by=request.user)
        except InvalidCommand as exc:
            service_error(form, exc, names=[league.name])
        except Forbidden as exc:
            raise PermissionDenied(str(exc)) from None
        else:
            messages.info(request, f"{season.name} is open: open its first night below.")
            return redirect("tournaments:season-standings", season_id=season.pk)
    status = 400 if form.errors else 200
    context = {"form": form, "league": league}
    return render(request, "tournaments/season_new.html", context, status=status)


@login_required
@posted_from("tournaments:season-standings", "season_id")
def night_open(request: HttpRequest, season_id: int) -> HttpResponse:
    season = _get(Season.objects.select_related("league"), season_id, "season")
    _organiser_only(request, season.league, "open its nights")
    form = NightForm(request.POST)
    if not form.is_valid():
        messages.error(request, f"No night was opened: {form.errors['date'][0]}")
        return redirect(reverse("tournaments:season-standings", args=[season.pk]) + "#nights")
    date = form.cleaned_data["date"] or timezone.localdate()
    night, opened = services.open_night_once(season=season, date=date, by=request.user)
    if opened:
        messages.info(request, f"Night {night.number} is open: seat its tables.")
    else:
        on = date_format(night.date, "j F")
        messages.info(request, f"Night {night.number} is already open for {on}: seat its tables.")
    return redirect("tournaments:night-page", night_id=night.pk)


def _night_context(
    request: HttpRequest, night_id: int, table_form: TableForm | None = None
) -> dict[str, Any]:
    try:
        night = selectors.night_page(night_id)
    except NotFound as exc:
        raise _not_found(exc) from None
    organiser = services.is_organiser(request.user, night["league"]["id"])
    context: dict[str, Any] = {
        "night": night,
        "organiser": organiser,
        "referee": organiser or services.is_league_referee(request.user, night["league"]["id"]),
    }
    if organiser and not night["closed"]:
        players = selectors.league_detail(night["league"]["id"])["players"]
        context["table_form"] = table_form or TableForm(players=players)
    if night["closed"]:
        context["moves"] = selectors.standings_moves(night["season"]["id"], night["number"])
    if organiser:
        # The season's other nights, which a table seated at the wrong one may move to.
        context["other_nights"] = list(
            Night.objects.filter(season_id=night["season"]["id"])
            .exclude(pk=night_id)
            .order_by("number")
        )
        for table in night["tables"]:
            for seat in table["seats"]:
                if seat["secret"] and not table["sheet"]:
                    seat["link"] = request.build_absolute_uri(
                        reverse("games:seat-link", args=[table["game"], seat["secret"]])
                    )
    for table in night["tables"]:
        for seat in table["seats"]:
            seat.pop("secret", None)  # nobody but the organiser gets a seat's link
    return context


@require_GET
def night_page(request: HttpRequest, night_id: int) -> HttpResponse:
    """A league night: its tables as they play (an htmx poll refreshes them), the organiser's
    form to seat another table, and once closed, how the standings moved."""
    context = _night_context(request, night_id)
    if _htmx(request):
        response = render(request, "tournaments/night.html#night-tables", context)
    else:
        response = render(request, "tournaments/night.html", context)
    patch_vary_headers(response, ["HX-Request"])
    if context["organiser"]:
        # The organiser's page holds the seats' private links: kept out of caches, as the seat
        # links' own answers are (games.pages.views.seat_link). Its address holds no secret.
        response["Cache-Control"] = "no-store"
    return response


@login_required
@posted_from("tournaments:night-page", "night_id")
def night_table_off(request: HttpRequest, night_id: int, game_id: UUID) -> HttpResponse:
    """Take a table seated by mistake off the night (``services.take_table_off``)."""
    night = _get(Night.objects.select_related("season__league"), night_id, "night")
    _organiser_only(request, night.season.league, "take tables off")
    try:
        services.take_table_off(
            night=night, game_id=game_id, reason=request.POST.get("reason", ""), by=request.user
        )
    except NotFound:
        # A second press, or a second tab's form: the service's words name the game's id. A
        # table taken off is a closed game of no season.
        off = Game.objects.filter(pk=game_id, season_id=None).exclude(closed="").exists()
        messages.error(
            request,
            f"That table is not on night {night.number} any more: it was taken off already."
            if off
            else f"That table is not one of night {night.number}'s.",
        )
    except (InvalidCommand, IllegalCommand) as exc:
        names = _names(night.season.league)
        messages.error(request, f"The table is still on the night: {_sentence(str(exc), names)}")
    else:
        messages.info(request, "The table is taken off the night: it counts nowhere.")
    return redirect(reverse("tournaments:night-page", args=[night.pk]) + "#night-tables")


@login_required
@posted_from("tournaments:night-page", "night_id")
def night_table_move(request: HttpRequest, night_id: int, game_id: UUID) -> HttpResponse:
    """Move a table seated at the wrong night to another night of the season
    (``services.move_table``): its result, if it has one, counts on that night."""
    night = _get(Night.objects.select_related("season__league"), night_id, "night")
    _organiser_only(request, night.season.league, "move tables")
    back = reverse("tournaments:night-page", args=[night.pk]) + "#night-tables"
    chosen = request.POST.get("night", "")
    target = (
        Night.objects.select_related("season").filter(season=night.season, pk=chosen).first()
        if chosen.isdigit()
        else None
    )
    if target is None:
        messages.error(request, "Choose the night the table was played on.")
        return redirect(back)
    gone = f"That table is not one of night {night.number}'s any more."
    if not SeasonGame.objects.filter(game_id=game_id, night=night).exists():
        messages.error(request, gone)
        return redirect(back)
    try:
        services.move_table(game_id=game_id, night=target, by=request.user)
    except NotFound:  # taken off meanwhile
        messages.error(request, gone)
        return redirect(back)
    except (InvalidCommand, IllegalCommand) as exc:
        names = _names(night.season.league)
        messages.error(
            request, f"The table stays on night {night.number}: {_sentence(str(exc), names)}"
        )
        return redirect(back)
    messages.info(
        request, f"The table moved from night {night.number}: it counts on night {target.number}."
    )
    return redirect(reverse("tournaments:night-page", args=[target.pk]) + "#night-tables")


@login_required
@posted_from("tournaments:night-page", "night_id")
def night_seat(request: HttpRequest, night_id: int) -> HttpResponse:
    """Seat a table at the night: a game on the site, or a paper score sheet."""
    night = _get(Night.objects.select_related("season__league"), night_id, "night")
    league = night.season.league
    _organiser_only(request, league, "seat tables")
    players = selectors.league_detail(league.pk)["players"]
    form = TableForm(request.POST, players=players)
    if form.is_valid():
        try:
            game = services.start_season_game(
                season=night.season,
                night=night,
                players=form.cleaned_data["seated"],
                created_by=request.user,
                sheet=form.cleaned_data["kind"] == "sheet",
            )
        except services.PlayerBusy as exc:
            form.add_error(None, str(exc))  # a sentence already, names as typed
        except InvalidCommand as exc:
            form.add_error(None, _sentence(str(exc), _names(league)))
        except IllegalCommand as exc:  # the night was closed meanwhile: no form to show
            messages.error(request, f"No table was seated: {_sentence(str(exc), _names(league))}")
            return redirect("tournaments:night-page", night_id=night.pk)
        else:
            names = ", ".join(form.cleaned_data["seated"])
            kind = "score sheet" if game.sheet else "table"
            messages.info(request, f"A {kind} is seated: {names}.")
            return redirect(reverse("tournaments:night-page", args=[night.pk]) + "#night-tables")
    context = _night_context(request, night.pk, table_form=form)
    return render(request, "tournaments/night.html", context, status=400)


def _sentence(text: str, names: Iterable[str] = ()) -> str:
    """A service's refusal as a sentence: without the field it names, its first letter
    capitalised unless it starts with one of ``names`` (shown as written: "de Vries is another
    player")."""
    text = text.strip()
    for prefix in ("players: ", "night: ", "name: ", "username: "):
        text = text.removeprefix(prefix)
    text = sentence_start(text, names)
    return text if text.endswith(".") else text + "."


def _names(league: League) -> list[str]:
    """The names a refusal about ``league`` may start with: its own and its players'."""
    return [league.name, *league.players.values_list("name", flat=True)]


@login_required
@posted_from("tournaments:night-page", "night_id")
def night_close(request: HttpRequest, night_id: int) -> HttpResponse:
    """Close the night (every table over, or ``anyway``: the games still playing count when
    they end): the page then shows how the standings moved."""
    night = _get(Night.objects.select_related("season__league"), night_id, "night")
    _organiser_only(request, night.season.league, "close its nights")
    try:
        services.close_night(
            night=night, by=request.user, leave_playing=request.POST.get("anyway") == "1"
        )
    except IllegalCommand as exc:
        # Said in the close form itself (night.html), where the page comes back to.
        messages.error(
            request,
            f"The night is still open: {_sentence(str(exc), _names(night.season.league))}",
            extra_tags="close",
        )
        return redirect(reverse("tournaments:night-page", args=[night.pk]) + "#close")
    messages.info(request, f"Night {night.number} is closed. The standings after it are below.")
    return redirect(reverse("tournaments:night-page", args=[night.pk]) + "#moves")


# Roles: organisers and referees ------------------------------------------------------------------


@login_required
@posted_from("tournaments:league-detail", "league_id")
def league_role_name(request: HttpRequest, league_id: int) -> HttpResponse:
    league = _get(League, league_id, "league")
    _organiser_only(request, league, "name organisers and referees")
    form = RoleForm(request.POST)
    if form.is_valid():
        username, role = form.cleaned_data["username"], form.cleaned_data["role"]
        try:
            services.name_role(league=league, username=username, role=role, by=request.user)
        except InvalidCommand as exc:
            service_error(form, exc)
        else:
            messages.info(request, f"{username.strip()} is now {role} of {league.name}.")
            return redirect(reverse("tournaments:league-detail", args=[league.pk]) + "#roles")
    context = _league_context(request, selectors.league_detail(league.pk), role_form=form)
    return render(request, "tournaments/league_detail.html", context, status=400)


@login_required
@posted_from("tournaments:league-detail", "league_id")
def league_role_remove(
    request: HttpRequest, league_id: int, kind: str, role_id: int
) -> HttpResponse:
    league = _get(League, league_id, "league")
    _organiser_only(request, league, "change its organisers and referees")
    try:
        role = services.remove_role(league=league, kind=kind, role_id=role_id, by=request.user)
    except NotFound:
        raise Http404("No such role.") from None
    except IllegalCommand as exc:
        messages.error(request, f"Nobody was removed: {_sentence(str(exc), _names(league))}")
    else:
        messages.info(request, f"{role.user.get_username()} is no longer {kind} of {league.name}.")
    return redirect(reverse("tournaments:league-detail", args=[league.pk]) + "#roles")


def _tournament_organiser_only(request: HttpRequest, tournament: Tournament) -> None:
    if tournament.organiser_id != request.user.pk:
        raise PermissionDenied(
            f"Only the organiser of {tournament.name} names its referees: ask "
            f"{tournament.organiser.get_full_name() or tournament.organiser.get_username()}."
        )


@login_required
@posted_from("tournaments:tournament-page", "tournament_id")
def tournament_referee_name(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _get(Tournament.objects.select_related("organiser"), tournament_id, "tournament")
    _tournament_organiser_only(request, tournament)
    form = RoleForm({**request.POST.dict(), "role": "referee"}, roles=("referee",))
    page = reverse("tournaments:tournament-page", args=[tournament.pk]) + "#roles"
    if form.is_valid():
        try:
            services.name_referee(
                tournament=tournament, username=form.cleaned_data["username"], by=request.user
            )
        except InvalidCommand as exc:
            service_error(form, exc)
    if form.errors:
        problem = next(iter(form.errors.values()))[0]
        messages.error(request, f"Nobody was named referee: {problem}")
    else:
        name = form.cleaned_data["username"].strip()
        messages.info(request, f"{name} now referees every table of {tournament.name}.")
    return redirect(page)


@login_required
@posted_from("tournaments:tournament-page", "tournament_id")
def tournament_referee_remove(
    request: HttpRequest, tournament_id: int, referee_id: int
) -> HttpResponse:
    tournament = _get(Tournament.objects.select_related("organiser"), tournament_id, "tournament")
    _tournament_organiser_only(request, tournament)
    referee = (
        Referee.objects.select_related("user").filter(pk=referee_id, tournament=tournament).first()
    )
    if referee is None:
        raise Http404("No such referee.")
    services.remove_referee(referee=referee, by=request.user)
    messages.info(request, f"{referee.user.get_username()} no longer referees {tournament.name}.")
    return redirect(reverse("tournaments:tournament-page", args=[tournament.pk]) + "#roles")


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
        league_id = season["league"]["id"]
        context.update(
            season=season,
            nights=selectors.season_nights(season_id),
            organiser=services.is_organiser(request.user, league_id),
            referee=services.is_league_referee(request.user, league_id),
            night_form=NightForm(),
        )
        response = render(request, "tournaments/season_standings.html", context)
    # The same URL answers a fragment or a page: caches must tell them apart.
    patch_vary_headers(response, ["HX-Request"])
    return response


# Players ----------------------------------------------------------------------------------------


@login_required
@posted_from("tournaments:league-detail", "league_id")
def league_players_add(request: HttpRequest, league_id: int) -> HttpResponse:
    """Add players to the league by name (``services.register_players``): a name that is a
    player already is that player. A refused name adds nobody."""
    league = _get(League, league_id, "league")
    _organiser_only(request, league, "add its players")
    form = PlayersForm(request.POST)
    if form.is_valid():
        try:
            added = services.register_players(
                league=league, names=form.cleaned_data["names"], by=request.user
            )
        except InvalidCommand as exc:
            form.add_refusal(exc)
        except Forbidden as exc:  # no longer an organiser since the check above
            raise PermissionDenied(str(exc)) from None
        else:
            # Said in the players' section, where the page comes back to (league_detail.html).
            messages.info(request, players_added(added, league.name), extra_tags="players")
            return redirect(reverse("tournaments:league-detail", args=[league.pk]) + "#players")
    context = _league_context(request, selectors.league_detail(league.pk), players_form=form)
    return render(request, "tournaments/league_detail.html", context, status=400)


@require_GET
def player_detail(request: HttpRequest, player_id: int) -> HttpResponse:
    return render(request, "tournaments/player_detail.html", _player_context(request, player_id))


def _player_context(
    request: HttpRequest,
    player_id: int,
    name_form: PlayerNameForm | None = None,
    account_form: PlayerAccountForm | None = None,
) -> dict[str, Any]:
    """The player's page; for an organiser, the forms correcting their name and account (a
    refused one as it was sent)."""
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
    organiser = request.user.is_authenticated and services.is_organiser(
        request.user, player["league"]["id"]
    )
    context: dict[str, Any] = {
        "player": player,
        "referee": services.is_league_referee(request.user, player["league"]["id"]),
        "organiser": organiser,
    }
    if organiser:
        linked = Player.objects.filter(pk=player_id).values_list("user__username", flat=True)
        context["name_form"] = name_form or PlayerNameForm(
            initial={"name": player["name"]}, auto_id=PLAYER_FIELD_ID
        )
        context["account_form"] = account_form or PlayerAccountForm(
            initial={"username": linked.first() or ""}, auto_id=PLAYER_FIELD_ID
        )
    return context


PLAYER_FIELD_ID = "player-%s"  # the correction forms' fields: player-name, player-username


@login_required
@posted_from("tournaments:player-detail", "player_id")
def player_edit(request: HttpRequest, player_id: int, what: str) -> HttpResponse:
    """An organiser corrects a player's name (``rename``) or links the account they sign in
    with (``account``; empty: none). A refused correction is shown by its field on the
    player's page, as typed."""
    if what not in ("rename", "account"):
        raise Http404("No such change.")
    player = _get(Player.objects.select_related("league"), player_id, "player")
    _organiser_only(request, player.league, "change its players")
    form: PlayerNameForm | PlayerAccountForm
    if what == "rename":
        form = PlayerNameForm(request.POST, auto_id=PLAYER_FIELD_ID)
    else:
        form = PlayerAccountForm(request.POST, auto_id=PLAYER_FIELD_ID)
    if form.is_valid():
        try:
            if what == "rename":
                services.rename_player(
                    player=player, name=form.cleaned_data["name"], by=request.user
                )
                done = f"The player is now called {player.name}."
            else:
                services.link_account(
                    player=player, username=form.cleaned_data["username"], by=request.user
                )
                done = (
                    f"{player.name} plays signed in as {player.user.get_username()}."
                    if player.user
                    else f"{player.name} plays with no account."
                )
        except InvalidCommand as exc:
            names = [*_names(player.league), clean_name(str(request.POST.get("name", "")))]
            field = exc.field if exc.field in form.fields else None
            form.add_error(field, _sentence(str(exc), names))
        else:
            messages.info(request, done)
            return redirect(
                reverse("tournaments:player-detail", args=[player.pk]) + "#player-settings"
            )
    context = _player_context(
        request,
        player.pk,
        name_form=form if isinstance(form, PlayerNameForm) else None,
        account_form=form if isinstance(form, PlayerAccountForm) else None,
    )
    return render(request, "tournaments/player_detail.html", context, status=400)


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
# A confirmation sent again (the browser's Back) after its hand was recorded and changed, or
# after the hand it recorded was undone: the form starts over with a key of its own.
SENT_BEFORE = (
    "This form already recorded a hand, since changed or undone: check the hands above, then "
    "record this hand again if it is missing."
)
# An Undo hand from a page shown before the sheet changed.
UNDO_STALE = (
    "The sheet changed since this page was shown (someone recorded or undid a hand): nothing "
    "was undone. Check the hands above, then undo again if it is still needed."
)


def _sheet_for_referee(request: HttpRequest, game_id: UUID) -> dict[str, Any]:
    """The score sheet, if the signed-in user referees its game (404, or 403 if not)."""
    try:
        sheet = selectors.score_sheet(game_id)
        game = game_services.get_game(game_id)
    except NotFound as exc:
        raise _not_found(exc) from None
    if not game_services.is_referee(request.user, game):
        raise PermissionDenied(
            "Only the referees of this game keep its score sheet: the league's organisers and "
            "the referees they name. Ask an organiser to name you referee on the league's page."
        )
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
    cards_help_text = cards_help(sheet["variant"])
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
        "cards_help": cards_help_text,
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

    form = HandForm(
        request.POST,
        seats=len(sheet["seats"]),
        deck=services.deck_worth(game_id=game_id),
        variant=sheet["variant"],
    )
    if request.POST.get("edit"):  # "Change it" on the confirmation: the form, filled in again
        context = _sheet_context(sheet, values=request.POST)
        if _htmx(request):
            # The button pressed is gone with the confirmation: the focus goes to the form.
            context["focus_entry"] = True
            return _render_sheet_fragments(request, context, "entry-form", both=False)
        return render(request, "tournaments/score_sheet.html", context)
    # A hand is first shown as it would score, and recorded once confirmed ("confirm").
    confirmed = request.POST.get("confirm") == "1"
    preview = None
    values = request.POST
    if form.is_valid():
        try:
            # A form shown before the sheet changed is not checked against it: its hand may
            # be recorded already. (A confirmation sent twice is answered by its key.)
            shown_at = form.cleaned_data["version"]
            if not confirmed and shown_at is not None and shown_at != sheet["version"]:
                raise Stale(f"shown at version {shown_at}, now {sheet['version']}")
            if confirmed:
                services.record_hand(
                    game_id=game_id,
                    **form.command(),
                    actor=game_services.user_actor(request.user),
                    expected_version=form.cleaned_data["version"],
                    key=form.cleaned_data["key"],
                )
            else:
                preview = services.preview_hand(game_id=game_id, **form.command())
        except InvalidCommand as exc:
            form.add_engine_error(exc)
        except (KeyClash, CommandUndone):
            form.add_error(None, SENT_BEFORE)
            values = request.POST.copy()
            values["key"] = ""  # (a fresh one: ``_sheet_context``)
        except IllegalCommand as exc:
            form.add_error(None, _sentence(str(exc)))
        except Stale:
            form.add_error(None, STALE)
    errors = form.first_errors()
    if errors:
        sheet = selectors.score_sheet(game_id)  # a stale form gets the current hands
        context = _sheet_context(sheet, errors=errors, values=values)
        if _htmx(request):
            return _render_sheet_fragments(request, context, "entry-form", both=TOP in errors)
        return render(request, "tournaments/score_sheet.html", context, status=200)
    if preview is not None:
        context = _sheet_context(sheet, values=request.POST)
        context.update(preview=_preview(sheet, preview), hidden=form.hidden_values())
        if _htmx(request):
            return _render_sheet_fragments(request, context, "entry-form", both=False)
        return render(request, "tournaments/score_sheet.html", context)

    sheet = selectors.score_sheet(game_id)
    notice = f"Hand {sheet['hands'][-1]['number']} recorded." if sheet["hands"] else ""
    if _htmx(request):
        context = _sheet_context(sheet, notice=notice)
        context["focus_entry"] = True  # the next hand's form, as after "Change it"
        return _render_sheet_fragments(request, context, "entry-form", both=True)
    # Post/redirect/get: a reload does not send the hand again.
    messages.info(request, notice)
    return redirect(reverse("tournaments:score-sheet", args=[game_id]) + "#sheet-hands")


def _preview(sheet: dict[str, Any], preview: dict[str, Any]) -> dict[str, Any]:
    """The hand about to be recorded, in words: each player's points held, what the hand
    scores them and their total after it; and the winner, when the hand ends the game."""
    hand, game = preview["hand"], preview["game"]
    names = [seat["player"] for seat in sheet["seats"]]
    rows = [
        {
            "player": name,
            "out": seat == hand.winner,
            "held": hand.held[seat],
            "gained": hand.gained[seat],
            "total": hand.scores[seat],
        }
        for seat, name in enumerate(names)
    ]
    return {
        "number": sheet["next_hand"],
        "out": names[hand.winner],
        "rows": rows,
        "winner": names[game.winner] if game is not None else None,
    }


@login_required
@posted_from("tournaments:score-sheet", "game_id")
def score_sheet_undo(request: HttpRequest, game_id: UUID) -> HttpResponse:
    """Undo the last hand standing (``games.services.undo``: a compensating event, nothing is
    edited or deleted). The form names the hand it means, so a second click undoes nothing,
    and the sheet's version it was shown at, so it takes back nothing recorded since (a page
    from before forms named it is held to the sheet this request read)."""
    sheet = _sheet_for_referee(request, game_id)
    form = UndoHandForm(request.POST)
    hand = form.cleaned_data["hand"] if form.is_valid() else None
    # The hand as the page showed it (where its undo goes back to): a hand recorded again
    # since under the same number is another hand, not undone by a page shown before it.
    undo_to = form.cleaned_data["undo_to"] if form.is_valid() else None
    shown = form.cleaned_data["version"] if form.is_valid() else None
    last = sheet["hands"][-1] if sheet["hands"] else None
    if last is not None and undo_to is not None and last["undo_to"] != undo_to:
        last = None
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
                expected_version=sheet["version"] if shown is None else shown,
            )
            notice = f"Hand {hand} undone."
        except Stale:
            notice = UNDO_STALE
        except (InvalidCommand, IllegalCommand) as exc:
            notice = f"Nothing was undone: {_sentence(str(exc))}"
        sheet = selectors.score_sheet(game_id)
    if _htmx(request):
        context = _sheet_context(sheet, notice=notice)
        # The Undo button pressed is gone with the hands swapped: the focus goes to the form,
        # where the hand undone is written again (as after a hand recorded).
        context["focus_entry"] = True
        return _render_sheet_fragments(request, context, "hands", both=True)
    messages.info(request, notice)
    return redirect(reverse("tournaments:score-sheet", args=[game_id]) + "#sheet-hands")
