"""URLs of the tournaments app: its pages, and its JSON API under /api/."""

from django.urls import URLPattern, URLResolver, include, path

app_name = "tournaments"

# JSON API routes, relative to /api/ (e.g. path("tournaments/", ...) serves /api/tournaments/).
api_urlpatterns: list[URLPattern | URLResolver] = []

urlpatterns: list[URLPattern | URLResolver] = [
    path("api/", include(api_urlpatterns)),
]
