"""The game API's routes, served under /api/ (API.md). Names are namespaced: ``api:game``."""

from django.urls import path

from games import api

app_name = "api"

urlpatterns = [
    path("auth/token/", api.TokenView.as_view(), name="token"),
    path("chain/keys/", api.ChainKeysView.as_view(), name="chain-keys"),
    path("games/", api.GameCreateView.as_view(), name="games"),
    path("games/set-up/", api.GameSetUpView.as_view(), name="games-set-up"),
    path("games/<uuid:game_id>/", api.GameDetailView.as_view(), name="game"),
    path("games/<uuid:game_id>/commands/", api.CommandsView.as_view(), name="commands"),
    path("games/<uuid:game_id>/events/", api.EventsView.as_view(), name="events"),
    path("games/<uuid:game_id>/seating/", api.SeatingView.as_view(), name="seating"),
    path("games/<uuid:game_id>/replay/", api.ReplayView.as_view(), name="replay"),
    path("games/<uuid:game_id>/undo/", api.UndoView.as_view(), name="undo"),
    path("games/<uuid:game_id>/disputes/", api.DisputesView.as_view(), name="disputes"),
    path(
        "games/<uuid:game_id>/disputes/<int:dispute_id>/ruling/",
        api.RulingView.as_view(),
        name="ruling",
    ),
]
