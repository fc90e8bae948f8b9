"""The project's URLs: each app brings its own pages and API under its urls.py."""

from django.conf import settings
from django.contrib import admin
from django.urls import include, path, reverse_lazy
from django.views.static import serve
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView

from config import views
from games.pages import views as game_views

handler500 = "config.views.server_error"

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    # Browsers ask for /favicon.ico on every page: the club's icon, vendored with the static files.
    path(
        "favicon.ico",
        serve,
        {"path": "favicon.ico", "document_root": settings.BASE_DIR / "games/static/images"},
        name="favicon",
    ),
    # The admin's sign-in checks passwords as the sign-in page does, under the same limit.
    path("admin/login/", game_views.admin_sign_in),
    # So does its password change (the old password first): the same counts.
    path(
        "admin/password_change/",
        admin.site.admin_view(
            game_views.PasswordChangeView.as_view(
                success_url=reverse_lazy("admin:password_change_done")
            )
        ),
    ),
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("api/redoc/", SpectacularRedocView.as_view(url_name="api-schema"), name="api-redoc"),
    path("api/", include("games.api_urls")),
    path("", include("games.urls")),
    path("", include("tournaments.urls")),
]
