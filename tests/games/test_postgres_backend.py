"""The database the event store is built on: PostgreSQL through psycopg 3, with JSONB."""

import json

import pytest
from django.db import connection


@pytest.mark.postgres
@pytest.mark.django_db
def test_it_runs_on_postgresql_and_round_trips_jsonb():
    event = {"type": "CardPlayed", "seat": 1, "card": "W4", "colour": "G", "uno": False}

    with connection.cursor() as cursor:
        cursor.execute("CREATE TEMPORARY TABLE jsonb_probe (data jsonb NOT NULL)")
        cursor.execute("INSERT INTO jsonb_probe (data) VALUES (%s)", [json.dumps(event)])
        cursor.execute(
            "SELECT data, data ->> 'card' FROM jsonb_probe WHERE data @> %s",
            [json.dumps({"type": "CardPlayed"})],
        )
        stored, card = cursor.fetchone()

    assert connection.vendor == "postgresql"
    assert connection.Database.__name__ == "psycopg"  # psycopg 3, not psycopg2
    # Django loads jsonb as text and leaves decoding to JSONField; decode it the same way.
    assert json.loads(stored) == event
    assert card == "W4"
