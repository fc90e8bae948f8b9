"""Site-wide middleware."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import Resolver404, resolve

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
