"""URLs of the game pages (games.pages.views). The JSON API's are in games/api_urls.py."""

from django.contrib.auth import views as auth_views
from django.urls import URLPattern, URLResolver, path

from games.pages import live, lobby, views

app_name = "games"

urlpatterns: list[URLPattern | URLResolver] = [
    path("play/", views.quick_game, name="quick"),
    path("play/set-up/", views.set_up_position, name="set-up"),
    path("table/<uuid:game_id>/", views.table_page, name="table"),
    # A seat's private link: remembered in the session, then redirected to the clean URL.
    path("table/<uuid:game_id>/seat/<str:secret>/", views.seat_link, name="seat-link"),
    path("table/<uuid:game_id>/version/", views.table_version, name="table-version"),
    # The table's live updates: a stream of server-sent events (games.pages.live).
    path("table/<uuid:game_id>/live/", live.table_live, name="table-live"),
    path("table/<uuid:game_id>/command/", views.table_command, name="table-command"),
    path("table/<uuid:game_id>/disputes/", views.dispute_open, name="dispute-open"),
    path(
        "table/<uuid:game_id>/disputes/<int:dispute_id>/ruling/",
        views.dispute_rule,
        name="dispute-rule",
    ),
    path("table/<uuid:game_id>/replay/", views.replay, name="replay"),
    path("table/<uuid:game_id>/replay/undo/", views.replay_undo, name="replay-undo"),
    # The referee's lobby (each seat's link and QR code), rematches, a seat's second browser.
    path("table/<uuid:game_id>/lobby/", lobby.lobby, name="lobby"),
    path("table/<uuid:game_id>/rematch/", lobby.rematch, name="rematch"),
    path("table/<uuid:game_id>/rematch/offer/", lobby.rematch_offer, name="rematch-offer"),
    path("table/<uuid:game_id>/onward/", lobby.onward_offer, name="onward"),
    path("table/<uuid:game_id>/next-table/", lobby.next_table, name="next-table"),
    path("table/<uuid:game_id>/second-device/", lobby.second_device, name="second-device"),
    # Players and referees sign in here (the admin's sign-in is for staff only).
    path("accounts/login/", views.SignInView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(next_page="home"), name="logout"),
    path("accounts/password/", views.PasswordChangeView.as_view(), name="password-change"),
    path(
        "accounts/password/done/",
        views.PasswordChangeDoneView.as_view(),
        name="password-change-done",
    ),
]
