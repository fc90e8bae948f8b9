"""The OpenAPI schema at /api/schema/ documents every game endpoint API.md promises."""

import re

import pytest
from rest_framework.test import APIClient

from tests.beside import SHARED, need

pytestmark = pytest.mark.django_db

API_MD = SHARED / "API.md"

# The game API's part of API.md ("Who is calling" and "Games"), spelled as there; checked
# against API.md itself below when it is beside the project.
GAME_PATHS = {
    ("post", "/api/auth/token/"),
    ("post", "/api/games/"),
    ("get", "/api/games/{id}/"),
    ("post", "/api/games/{id}/commands/"),
    ("get", "/api/games/{id}/events/"),
    ("get", "/api/games/{id}/replay/"),
    ("post", "/api/games/{id}/undo/"),
    ("post", "/api/games/{id}/disputes/"),
    ("post", "/api/games/{id}/disputes/{dispute}/ruling/"),
}


def schema():
    response = APIClient().get("/api/schema/", {"format": "json"})
    assert response.status_code == 200
    return response.json()


def shape(path):
    """A path with its parameters unnamed: /api/games/{}/ for /api/games/{game_id}/."""
    return re.sub(r"\{[^}]*\}", "{}", path.split("?")[0])


def documented():
    return {(method, shape(path)) for path, item in schema()["paths"].items() for method in item}


def test_every_game_endpoint_of_the_api_is_in_the_schema():
    missing = {(m, p) for m, p in GAME_PATHS if (m, shape(p)) not in documented()}

    assert not missing


def test_the_list_above_is_api_md_game_section():
    need(API_MD, "the public API's description")
    text = API_MD.read_text()
    games = text[text.index("## Who is calling") : text.index("## Leagues")]
    promised = {(m.lower(), p) for m, p in re.findall(r"`(GET|POST) (/api/[^`\s]+)", games)}

    assert {(m, shape(p)) for m, p in promised} == {(m, shape(p)) for m, p in GAME_PATHS}
    assert ("get", "/api/games/{}/disputes/") in documented()


def test_every_operation_says_what_it_answers_and_how_to_authenticate():
    document = schema()
    schemes = document["components"]["securitySchemes"]
    assert schemes["seatAuth"] == {
        "type": "apiKey",
        "in": "header",
        "name": "Authorization",
        "description": schemes["seatAuth"]["description"],
    }
    assert "tokenAuth" in schemes and "cookieAuth" in schemes
    for path, item in document["paths"].items():
        for method, operation in item.items():
            assert any(code.startswith("2") for code in operation["responses"]), (method, path)
            if path.startswith("/api/games/{"):
                assert {"401", "403", "404"} <= set(operation["responses"]), (method, path)
                assert {"seatAuth": []} in operation["security"], (method, path)


def test_the_docs_pages_are_served():
    assert APIClient().get("/api/docs/").status_code == 200
    assert APIClient().get("/api/redoc/").status_code == 200


def test_a_ruling_documents_the_version_the_referee_saw():
    document = schema()
    ruling = next(
        item["post"] for path, item in document["paths"].items() if path.endswith("/ruling/")
    )
    body = ruling["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    fields = document["components"]["schemas"][body.rsplit("/", 1)[1]]["properties"]

    assert fields["expected_version"]["type"] == "integer"
    assert fields["expected_version"]["nullable"] is True
    assert "409 stale" in fields["expected_version"]["description"]
    assert "expected_version" in ruling["description"]
