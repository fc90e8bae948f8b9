"""Site-wide middleware."""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import Resolver404, resolve

from config.views import DATABASE_AWAY, unavailable_json, unavailable_page

logger = logging.getLogger(__name__)

# Paths that keep Django's own answers: the API answers in JSON, the admin has its pages.
_NOT_PAGES = ("/api/", "/admin/", "/static/")


class NotFoundPageMiddleware:
    """The site's own "not here" page (404.html, which says what to do next) in development
    too. With ``DEBUG`` off Django shows it anyway; with ``DEBUG`` on it would show its
    technical page, listing the URL patterns, to anyone trying the demo. Only pages: the API
    and the admin answer as before. Listed after ``CommonMiddleware``, so a missing trailing
    slash is still redirected before anything is called not found."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def _applies(self, request: HttpRequest) -> bool:
        return settings.DEBUG and not request.path.startswith(_NOT_PAGES)

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if self._applies(request):
            try:
                resolve(request.path_info, getattr(request, "urlconf", None))
            except Resolver404:
                return self._page(request)
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, Http404) and self._applies(request):
            return self._page(request)
        return None

    @staticmethod
    def _page(request: HttpRequest) -> HttpResponse:
        return render(request, "404.html", {"request_path": request.path}, status=404)


class DatabaseAwayMiddleware:
    """A view that finds the database gone (PostgreSQL restarting, the network between) answers
    503 with a Retry-After, and says to try again in a moment, rather than a server error: the
    site's page for pages, JSON under /api/ (the API's own views answer so already; this covers
    what runs outside them). With ``DEBUG`` on too: an outage is not a bug to debug."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, DATABASE_AWAY):
            return None
        # The view's name, not the path: a seat's link carries its secret.
        view = getattr(request.resolver_match, "view_name", None)
        logger.warning("the database did not answer (%s %s): %s", request.method, view, exception)
        return unavailable_json() if request.path.startswith("/api/") else unavailable_page()
