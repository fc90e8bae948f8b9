"""URLs of the tournaments app: its pages, and its JSON API under /api/ (API.md)."""

from django.urls import URLPattern, URLResolver, include, path

from tournaments import api, tournament_api, tournament_views, views

app_name = "tournaments"

# JSON API routes, relative to /api/ (e.g. path("leagues/", ...) serves /api/leagues/).
# The game routes come first in config/urls.py; games/<id>/hands/ is not one of them.
api_urlpatterns: list[URLPattern | URLResolver] = [
    path("leagues/", api.LeagueCreateView.as_view(), name="leagues"),
    path("leagues/<int:league_id>/", api.LeagueDetailView.as_view(), name="league"),
    path("leagues/<int:league_id>/seasons/", api.SeasonCreateView.as_view(), name="seasons"),
    path("leagues/<int:league_id>/players/", api.PlayerCreateView.as_view(), name="players"),
    path("seasons/<int:season_id>/", api.SeasonDetailView.as_view(), name="season"),
    path("seasons/<int:season_id>/games/", api.SeasonGamesView.as_view(), name="season-games"),
    path("seasons/<int:season_id>/standings/", api.StandingsView.as_view(), name="standings"),
    path(
        "seasons/<int:season_id>/standings.csv",
        api.StandingsCSVView.as_view(),
        name="standings-csv",
    ),
    path("players/<int:player_id>/", api.PlayerDetailView.as_view(), name="player"),
    path("games/<uuid:game_id>/hands/", api.HandsView.as_view(), name="hands"),
    path("tournaments/", tournament_api.TournamentCreateView.as_view(), name="tournaments"),
    path(
        "tournaments/<int:tournament_id>/",
        tournament_api.TournamentDetailView.as_view(),
        name="tournament",
    ),
    path(
        "tournaments/<int:tournament_id>/start/",
        tournament_api.TournamentStartView.as_view(),
        name="tournament-start",
    ),
    path(
        "tournaments/<int:tournament_id>/entries/",
        tournament_api.TournamentEntryView.as_view(),
        name="tournament-entries",
    ),
    path(
        "tournaments/<int:tournament_id>/entries/drop/",
        tournament_api.TournamentDropView.as_view(),
        name="tournament-drop",
    ),
]

# Pages (templates with htmx). Their names end in a word the API names above do not use.
page_urlpatterns: list[URLPattern | URLResolver] = [
    path("leagues/", views.league_list, name="league-list"),
    path("leagues/demo/", views.demo_league, name="demo-league"),
    path("leagues/<int:league_id>/", views.league_detail, name="league-detail"),
    path("seasons/<int:season_id>/", views.season_standings, name="season-standings"),
    path("players/<int:player_id>/", views.player_detail, name="player-detail"),
    path("score-sheets/<uuid:game_id>/", views.score_sheet, name="score-sheet"),
    path("score-sheets/<uuid:game_id>/undo/", views.score_sheet_undo, name="score-sheet-undo"),
    path(
        "tournaments/<int:tournament_id>/",
        tournament_views.tournament_page,
        name="tournament-page",
    ),
]

urlpatterns: list[URLPattern | URLResolver] = [
    path("api/", include(api_urlpatterns)),
    *page_urlpatterns,
]
