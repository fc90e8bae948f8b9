"""URLs of the tournaments app: the pages of leagues and tournaments, and their JSON API under
/api/ (API.md). One namespace, ``tournaments``, for both packages' views."""

from django.urls import URLPattern, URLResolver, include, path

from tournaments.brackets import api as bracket_api
from tournaments.brackets import views as bracket_views
from tournaments.leagues import api as league_api
from tournaments.leagues import views as league_views

app_name = "tournaments"

# JSON API routes, relative to /api/ (e.g. path("leagues/", ...) serves /api/leagues/).
# The game routes come first in config/urls.py; games/<id>/hands/ is not one of them.
api_urlpatterns: list[URLPattern | URLResolver] = [
    path("leagues/", league_api.LeagueCreateView.as_view(), name="leagues"),
    path("leagues/<int:league_id>/", league_api.LeagueDetailView.as_view(), name="league"),
    path("leagues/<int:league_id>/seasons/", league_api.SeasonCreateView.as_view(), name="seasons"),
    path("leagues/<int:league_id>/players/", league_api.PlayerCreateView.as_view(), name="players"),
    path("seasons/<int:season_id>/", league_api.SeasonDetailView.as_view(), name="season"),
    path(
        "seasons/<int:season_id>/games/", league_api.SeasonGamesView.as_view(), name="season-games"
    ),
    path(
        "seasons/<int:season_id>/standings/", league_api.StandingsView.as_view(), name="standings"
    ),
    path(
        "seasons/<int:season_id>/standings.csv",
        league_api.StandingsCSVView.as_view(),
        name="standings-csv",
    ),
    path("seasons/<int:season_id>/nights/", league_api.NightCreateView.as_view(), name="nights"),
    path("nights/<int:night_id>/", league_api.NightDetailView.as_view(), name="night"),
    path("nights/<int:night_id>/tables/", league_api.NightTableView.as_view(), name="night-tables"),
    path("nights/<int:night_id>/close/", league_api.NightCloseView.as_view(), name="night-closing"),
    path(
        "nights/<int:night_id>/tables/<uuid:game_id>/take-off/",
        league_api.NightTableOffView.as_view(),
        name="night-table-taking-off",
    ),
    path("leagues/<int:league_id>/roles/", league_api.LeagueRolesView.as_view(), name="roles"),
    path(
        "leagues/<int:league_id>/roles/<str:kind>/<int:role_id>/",
        league_api.LeagueRoleRemoveView.as_view(),
        name="role",
    ),
    path(
        "tournaments/<int:tournament_id>/referees/",
        bracket_api.TournamentRefereesView.as_view(),
        name="tournament-referees",
    ),
    path(
        "tournaments/<int:tournament_id>/referees/<int:role_id>/",
        bracket_api.TournamentRefereeRemoveView.as_view(),
        name="tournament-referee",
    ),
    path("players/<int:player_id>/", league_api.PlayerDetailView.as_view(), name="player"),
    path(
        "players/<int:player_id>/rename/",
        league_api.PlayerRenameView.as_view(),
        name="player-rename",
    ),
    path(
        "players/<int:player_id>/account/",
        league_api.PlayerAccountView.as_view(),
        name="player-account",
    ),
    path("games/<uuid:game_id>/hands/", league_api.HandsView.as_view(), name="hands"),
    path("tournaments/", bracket_api.TournamentCreateView.as_view(), name="tournaments"),
    path(
        "tournaments/<int:tournament_id>/",
        bracket_api.TournamentDetailView.as_view(),
        name="tournament",
    ),
    path(
        "tournaments/<int:tournament_id>/start/",
        bracket_api.TournamentStartView.as_view(),
        name="tournament-start",
    ),
    path(
        "tournaments/<int:tournament_id>/entries/",
        bracket_api.TournamentEntryView.as_view(),
        name="tournament-entries",
    ),
    path(
        "tournaments/<int:tournament_id>/entries/drop/",
        bracket_api.TournamentDropView.as_view(),
        name="tournament-drop",
    ),
    path(
        "tournaments/<int:tournament_id>/entries/check-in/",
        bracket_api.TournamentCheckInView.as_view(),
        name="tournament-check-in",
    ),
    path(
        "tournaments/<int:tournament_id>/entries/check-out/",
        bracket_api.TournamentCheckOutView.as_view(),
        name="tournament-check-out",
    ),
    path(
        "tournaments/<int:tournament_id>/entries/undrop/",
        bracket_api.TournamentUndropView.as_view(),
        name="tournament-undrop",
    ),
    path(
        "tournaments/<int:tournament_id>/advance/",
        bracket_api.TournamentAdvanceView.as_view(),
        name="tournament-advance",
    ),
    path(
        "tournaments/<int:tournament_id>/repair/",
        bracket_api.TournamentRepairView.as_view(),
        name="tournament-repair",
    ),
    path(
        "tournaments/<int:tournament_id>/rounds/<int:round_number>/tables/<int:table_number>/"
        "reopen/",
        bracket_api.TableReopenView.as_view(),
        name="tournament-table-reopen",
    ),
    path(
        "tournaments/<int:tournament_id>/rounds/<int:round_number>/tables/<int:table_number>/"
        "award/",
        bracket_api.TableAwardView.as_view(),
        name="tournament-table-award",
    ),
    path(
        "tournaments/<int:tournament_id>/rounds/<int:round_number>/tables/<int:table_number>/"
        "result/",
        bracket_api.TableResultView.as_view(),
        name="tournament-table-result",
    ),
    path(
        "tournaments/<int:tournament_id>/rounds/<int:round_number>/tables/<int:table_number>/"
        "call-time/",
        bracket_api.TableCallTimeView.as_view(),
        name="tournament-table-call-time",
    ),
]

# Pages (templates with htmx). Their names end in a word the API names above do not use.
page_urlpatterns: list[URLPattern | URLResolver] = [
    path("leagues/", league_views.league_list, name="league-list"),
    path("leagues/demo/", league_views.demo_league, name="demo-league"),
    path("leagues/new/", league_views.league_new, name="league-new"),
    path("leagues/<int:league_id>/", league_views.league_detail, name="league-detail"),
    path("leagues/<int:league_id>/seasons/new/", league_views.season_new, name="season-new"),
    path(
        "leagues/<int:league_id>/players/",
        league_views.league_players_add,
        name="league-players-add",
    ),
    path("leagues/<int:league_id>/roles/", league_views.league_role_name, name="league-role-name"),
    path(
        "leagues/<int:league_id>/roles/<slug:kind>/<int:role_id>/remove/",
        league_views.league_role_remove,
        name="league-role-remove",
    ),
    path("seasons/<int:season_id>/", league_views.season_standings, name="season-standings"),
    path("seasons/<int:season_id>/nights/new/", league_views.night_open, name="night-open"),
    path("nights/<int:night_id>/", league_views.night_page, name="night-page"),
    path("nights/<int:night_id>/tables/", league_views.night_seat, name="night-seat"),
    path("nights/<int:night_id>/close/", league_views.night_close, name="night-close"),
    path(
        "nights/<int:night_id>/tables/<uuid:game_id>/take-off/",
        league_views.night_table_off,
        name="night-table-off",
    ),
    path(
        "nights/<int:night_id>/tables/<uuid:game_id>/move/",
        league_views.night_table_move,
        name="night-table-move",
    ),
    path(
        "tournaments/<int:tournament_id>/referees/",
        league_views.tournament_referee_name,
        name="tournament-referee-name",
    ),
    path(
        "tournaments/<int:tournament_id>/referees/<int:referee_id>/remove/",
        league_views.tournament_referee_remove,
        name="tournament-referee-remove",
    ),
    path("players/<int:player_id>/", league_views.player_detail, name="player-detail"),
    path(
        "players/<int:player_id>/<str:what>/",
        league_views.player_edit,
        name="player-edit",
    ),
    path("score-sheets/<uuid:game_id>/", league_views.score_sheet, name="score-sheet"),
    path(
        "score-sheets/<uuid:game_id>/undo/", league_views.score_sheet_undo, name="score-sheet-undo"
    ),
    path("tournaments/", bracket_views.tournament_list, name="tournament-list"),
    path("tournaments/new/", bracket_views.tournament_create, name="tournament-create"),
    path(
        "tournaments/<int:tournament_id>/",
        bracket_views.tournament_page,
        name="tournament-page",
    ),
    path(
        "tournaments/<int:tournament_id>/players/",
        bracket_views.tournament_enter,
        name="tournament-enter",
    ),
    path(
        "tournaments/<int:tournament_id>/direct/<slug:action>/",
        bracket_views.tournament_direct,
        name="tournament-direct",
    ),
]

urlpatterns: list[URLPattern | URLResolver] = [
    path("api/", include(api_urlpatterns)),
    *page_urlpatterns,
]
