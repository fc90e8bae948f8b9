"""Every operation of the served OpenAPI schema, fuzzed with schemathesis: valid and invalid
input alike never gets a server error, and every answer matches the schema.

The app is called in-process (WSGI), inside the test's transaction. Callers are real: a user
with a token who referees a game, organises a league and a tournament, and a seat of the game,
so the requests get past authentication to the parsing and the services. The examples are
derandomized and bounded so the whole run takes well under a minute.

Each operation's examples come from its schemathesis strategy under a plain ``@given``:
schemathesis' own pytest loader (``from_fixture``) renames test nodes through an attribute
pytest 9.2 no longer has.
"""

from __future__ import annotations

import functools

import pytest
import schemathesis
from django.core import signals
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, given, settings
from rest_framework.authtoken.models import Token
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import response_schema_conformance

from games import services as game_services
from tournaments.brackets import services as tournament_services
from tournaments.leagues import services as league_services

pytestmark = pytest.mark.django_db

EXAMPLES = 25  # per operation and generation mode (valid input, invalid input)


@pytest.fixture
def world(django_user_model):
    """What the examples act on: ids for the path parameters and each caller's credential."""
    user = django_user_model.objects.create_user("referee", password="pw")
    token = Token.objects.create(user=user).key
    game = game_services.create_game(
        variant="classic",
        players=["Ann", "Bob", "Cy"],
        scoring="standard",
        target=500,
        seed="fuzz",
        created_by=user,
    )
    dispute = game_services.open_dispute(game_id=game.pk, version=1, claim="x", by="user:1")
    sheet = game_services.create_game(
        variant="classic",
        players=["Ann", "Bob"],
        scoring="standard",
        target=500,
        seed="sheet",
        created_by=user,
        sheet=True,
    )
    league = league_services.open_league(name="Thursday Club", created_by=user)
    season = league_services.open_season(league=league, name="Autumn", by=user)
    player = league_services.register_player(league=league, name="Ann", by=user)
    night = league_services.open_night(season=season, by=user)
    django_user_model.objects.create_user("rita", password="pw")
    role = league_services.name_referee(league=league, username="rita", by=user)
    tournament = tournament_services.create_tournament(
        name="Winter Open",
        organiser=user,
        format="swiss",
        table_size=4,
        players=["Ann", "Bob", "Cy", "Dee"],
    )
    # Started, so the director's endpoints find round 1 and its table.
    tournament_services.start_tournament(tournament_id=tournament.pk, by=user)
    seat = game.seats.get(seat=game_services.load_game(game_id=game.pk).pending[1])
    return {
        "ids": {
            "game_id": str(game.pk),
            "dispute_id": dispute.pk,
            "league_id": league.pk,
            "season_id": season.pk,
            "player_id": player.pk,
            "night_id": night.pk,
            "kind": "referee",
            "role_id": role.pk,
            "tournament_id": tournament.pk,
            # The director's table endpoints: the first table of the first round.
            "round_number": 1,
            "table_number": 1,
        },
        "sheet_id": str(sheet.pk),
        "user": f"Token {token}",
        "seat": f"Seat {seat.secret}",
    }


@functools.cache
def api_schema() -> schemathesis.BaseSchema:
    """The schema as the app serves it (loaded once, when the tests are collected)."""
    return schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application())


def cases() -> list[tuple[str, GenerationMode]]:
    """Every operation with valid input; with invalid input too where it takes a body or a
    query (the path's ids and the credentials are the fixtures', never generated)."""
    out = []
    for result in api_schema().get_all_operations():
        operation = result.ok()
        out.append((operation.label, GenerationMode.POSITIVE))
        if len(operation.body) or len(operation.query):
            out.append((operation.label, GenerationMode.NEGATIVE))
    return out


@pytest.fixture
def in_process_requests():
    # Django's test client does the same: closing "old" connections at the end of a request
    # would close the test's own, in the middle of its transaction.
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


@pytest.mark.parametrize(("label", "mode"), cases())
def test_no_input_gets_a_server_error_and_every_answer_matches_the_schema(
    label, mode, world, in_process_requests
):
    operation = api_schema().find_operation_by_label(label)
    ids = dict(world["ids"])
    if operation.path.endswith("/hands/"):
        ids["game_id"] = world["sheet_id"]
    # A seat sends commands and opens disputes; the user referees and organises the rest.
    seat = operation.method == "post" and operation.path.endswith(("/commands/", "/disputes/"))
    strategy = operation.as_strategy(
        mode,
        path_parameters={p.name: ids[p.name] for p in operation.path_parameters},
        headers={"Authorization": world["seat" if seat else "user"]},
    )

    @given(strategy)
    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    def answers_well(case):
        case.call_and_validate(checks=[not_a_server_error, response_schema_conformance])

    answers_well()
