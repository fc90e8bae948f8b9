"""Project-level pages: the home page, the health check, and the answers when something
goes wrong on the server's side."""

import logging
import sys

from django.db import DatabaseError, InterfaceError, OperationalError, connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template import loader
from django.views.decorators.http import require_GET
from django.views.defaults import server_error as django_server_error

logger = logging.getLogger(__name__)

# Errors that mean the database could not be reached or dropped the connection (or gave up on a
# statement, as PostgreSQL does under a deadlock): the request may succeed if sent again.
DATABASE_AWAY = (OperationalError, InterfaceError)
# Seconds a client is asked to wait before sending again (the Retry-After header).
RETRY_AFTER = 5
UNAVAILABLE_DETAIL = (
    "The database is not answering. Send the request again in a few seconds: a command sent "
    "again with the same Idempotency-Key is recorded once."
)


def unavailable_page() -> HttpResponse:
    """The 503 page. Rendered without the request: the user and the session are in the
    database, which is what is missing."""
    response = HttpResponse(loader.render_to_string("503.html"), status=503)
    response["Retry-After"] = str(RETRY_AFTER)
    return response


def unavailable_json() -> JsonResponse:
    response = JsonResponse({"error": "unavailable", "detail": UNAVAILABLE_DETAIL}, status=503)
    response["Retry-After"] = str(RETRY_AFTER)
    return response


def server_error(request: HttpRequest) -> HttpResponse:
    """``handler500``: an error no view answered. When it is the database going away (in a
    middleware, say, saving the session), a 503 that says to try again, in JSON under /api/;
    otherwise Django's 500 with the site's 500.html."""
    exception = sys.exception()
    if isinstance(exception, DATABASE_AWAY):
        # The view's name, not the path (a seat's link carries its secret).
        view = getattr(request.resolver_match, "view_name", None) or "before any view"
        logger.warning("the database did not answer (%s %s): %s", request.method, view, exception)
        return unavailable_json() if request.path.startswith("/api/") else unavailable_page()
    return django_server_error(request)


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html")


@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """200 when the database answers, 503 when it does not (load balancers and compose use it)."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError:
        logger.exception("health check: the database did not answer")
        return JsonResponse({"status": "error", "database": "unavailable"}, status=503)
    return JsonResponse({"status": "ok", "database": connection.vendor})
