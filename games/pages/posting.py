"""The pages' form endpoints, which act only on a POST. A GET of one (the page a refused form
was answered on, reloaded; a tab restored; an address from the history) goes back to the page
the form is on, instead of a bare "405 Method Not Allowed"."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import redirect


def posted_from(page: str, *keep: str) -> Callable[[Callable[..., HttpResponse]], Any]:
    """A view that acts on a POST; a GET or HEAD is sent to the page named ``page``, given the
    view's arguments named in ``keep`` (``posted_from("tournaments:night-page", "night_id")``).
    Any other method is refused, as ``require_POST`` refuses it."""

    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def posted(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if request.method == "POST":
                return view(request, *args, **kwargs)
            if request.method in ("GET", "HEAD"):
                return redirect(page, **{name: kwargs[name] for name in keep})
            return HttpResponseNotAllowed(["POST"])

        return posted

    return decorate
