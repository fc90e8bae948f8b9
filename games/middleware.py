"""A check of every request body sent to the API (/api/), before any view reads it.

A body over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` would get Django's HTML "Bad Request" page; JSON
nested thousands deep would crash the parser (RecursionError, a server error); and text holding
a NUL character or half of a surrogate pair cannot be stored by PostgreSQL, in a text column or
in JSON. Each is answered here in the API's error shape (API.md: ``{"error": "invalid",
"detail": {field: message}}``), 413 for the size and 400 for the rest, so no view, service or
engine ever sees such a body. Anything else that is not valid JSON is left to the view's parser,
which names the problem.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, JsonResponse

API_PREFIX = "/api/"
# Objects and arrays inside one another: the deepest body the API takes (a score sheet's hand,
# an edition's options) is four deep.
MAX_JSON_DEPTH = 20
BODY = "non_field_errors"  # the API's name for what belongs to no one field


def invalid(field: str, message: str, status: int = 400) -> JsonResponse:
    return JsonResponse({"error": "invalid", "detail": {field: message}}, status=status)


class APIBodyMiddleware:
    """Answers a body under /api/ that is too large, too deep or holds text no database takes."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path.startswith(API_PREFIX):
            refused = self.check(request)
            if refused is not None:
                return refused
        return self.get_response(request)

    def check(self, request: HttpRequest) -> HttpResponse | None:
        try:
            body = request.body
        except RequestDataTooBig:
            limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
            return invalid(BODY, f"The request body is over the limit of {limit:,} bytes.", 413)
        if not body or not _is_json(request.content_type):
            return None
        try:
            data = json.loads(body)
        except RecursionError:
            return invalid(BODY, f"JSON nested more than {MAX_JSON_DEPTH} deep.")
        except ValueError:
            return None  # the view's parser says what is wrong with it
        problem = find_problem(data)
        return None if problem is None else invalid(*problem)


def _is_json(content_type: str) -> bool:
    return content_type == "application/json" or content_type.endswith("+json")


def find_problem(data: Any) -> tuple[str, str] | None:
    """The first thing in a parsed JSON body the API refuses outright, as (field, message): the
    field is the top-level key it is under."""
    stack: list[tuple[Any, int, str]] = [(data, 1, BODY)]
    while stack:
        value, depth, field = stack.pop()
        if isinstance(value, str):
            if problem := _text_problem(value):
                return field, problem
        elif isinstance(value, (dict, list)):
            if depth > MAX_JSON_DEPTH:
                return field, f"JSON nested more than {MAX_JSON_DEPTH} deep."
            if isinstance(value, dict):
                for key, item in value.items():
                    name = key if depth == 1 else field
                    if problem := _text_problem(key):
                        return name, problem
                    stack.append((item, depth + 1, name))
            else:
                stack.extend((item, depth + 1, field) for item in value)
    return None


def _text_problem(text: str) -> str | None:
    if "\x00" in text:
        return "Null characters are not allowed."
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return "Surrogate characters are not allowed."
    return None
