"""URLs of the games app: its pages, and its JSON API under /api/."""

from django.urls import URLPattern, URLResolver, include, path

app_name = "games"

# JSON API routes, relative to /api/ (e.g. path("games/", ...) serves /api/games/).
api_urlpatterns: list[URLPattern | URLResolver] = []

urlpatterns: list[URLPattern | URLResolver] = [
    path("api/", include(api_urlpatterns)),
]
