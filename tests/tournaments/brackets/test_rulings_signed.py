"""A tournament's rulings are numbered, chained and signed by the server, so that someone who
lifts the append-only triggers and changes, removes or adds a ruling is found by
`manage.py verify_events` (exit 1, naming the tournament and the ruling), where before only the
triggers kept them."""

import json

import pytest
from django.db import IntegrityError, connection, transaction
from rest_framework.test import APIClient

from games.chain import GENESIS, server_public_keys, signer_for
from tests.games.tampering import reported, tamper, verify
from tournaments.brackets import directing, rulings
from tournaments.brackets.models import Ruling, Table

from .support import cup_of_eight, play_game

pytestmark = pytest.mark.django_db

OTHER_KEY = "11" * 32  # a signing key that is not the server's


@pytest.fixture
def cup(organiser):
    """A cup of eight after round 1: table 1 played out, table 2 given time called, reopened by
    mistake and awarded as a forfeit: three rulings."""
    tournament = cup_of_eight(organiser)
    play_game(table(tournament, 1).game_id)
    at = {"tournament_id": tournament.pk, "round_number": 1}
    directing.call_time(**at, table_number=2, reason="time", by=organiser)
    directing.reopen_table(**at, table_number=2, reason="called too early", by=organiser)
    forfeits = table(tournament, 2).players[0]
    directing.award_against(
        **at, table_number=2, kind="forfeit", player=forfeits, reason="left", by=organiser
    )
    return tournament


def table(tournament, number):
    return Table.objects.get(round__tournament=tournament, round__number=1, number=number)


def chain(tournament) -> list[Ruling]:
    return list(Ruling.objects.filter(tournament=tournament).order_by("sequence"))


def on_rulings(sql: str, params) -> None:
    """What a database administrator does after lifting the rulings' triggers."""
    tamper(sql, params, table="tournaments_ruling")


def test_each_ruling_is_numbered_linked_to_the_one_before_and_signed(cup, organiser):
    made = chain(cup)

    assert [(r.sequence, r.kind) for r in made] == [
        (1, "time"),
        (2, "reopened"),
        (3, "forfeit"),
    ]
    previous = GENESIS
    for ruling in made:
        assert ruling.link == rulings.link_of(ruling, previous)
        assert rulings.chain_problems([ruling], {}) != []  # no key known: not the server's
        previous = ruling.link
    assert rulings.chain_problems(made, server_public_keys()) == []
    # Another tournament's rulings are numbered from 1 on their own.
    other = cup_of_eight(organiser, name="Plate")
    directing.call_time(
        tournament_id=other.pk, round_number=1, table_number=1, reason="time", by=organiser
    )
    assert [(r.sequence, r.link == rulings.link_of(r, GENESIS)) for r in chain(other)] == [
        (1, True)
    ]
    assert "(with 4 signed rulings)" in verify()


def test_a_ruling_changed_with_the_triggers_lifted_is_reported_by_number(cup):
    # The forfeit given to someone else, and the table's placings to match: each edit alone
    # was already found (the table against its ruling); together only the signature finds it.
    awarded = table(cup, 2)
    swapped = [awarded.placings[-1], *awarded.placings[:-1]]
    on_rulings(
        "UPDATE tournaments_ruling SET players = %s WHERE tournament_id = %s AND sequence = 3",
        [json.dumps(swapped), cup.pk],
    )
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE tournaments_table SET placings = %s WHERE id = %s",
            [json.dumps(swapped), awarded.pk],
        )

    message = reported()

    assert (
        f"tournament {cup.pk} (Cup): ruling 3 (forfeit, round 1, table 2) is not the ruling "
        "that was recorded" in message
    )


def test_a_ruling_relinked_without_the_servers_key_is_reported_as_unsigned(cup):
    # Someone who read this code recomputes the link of the changed ruling and of every one
    # after it; they cannot sign them.
    made = chain(cup)
    made[1].reason = "the director felt like it"
    previous = made[0].link
    for ruling in made[1:]:
        ruling.link = rulings.link_of(ruling, previous)
        on_rulings(
            "UPDATE tournaments_ruling SET reason = %s, link = %s WHERE id = %s",
            [ruling.reason, ruling.link, ruling.pk],
        )
        previous = ruling.link

    message = reported()

    assert (
        f"tournament {cup.pk} (Cup): ruling 2 (table reopened, round 1, table 2) does not "
        "carry the server's signature" in message
    )


def test_a_ruling_signed_with_another_key_is_reported(cup):
    made = chain(cup)
    forged = made[-1]
    signature = signer_for(OTHER_KEY).sign_message(
        rulings.head_message(cup.pk, forged.sequence, forged.link)
    )
    on_rulings("UPDATE tournaments_ruling SET signature = %s WHERE id = %s", [signature, forged.pk])

    assert "ruling 3 (forfeit, round 1, table 2) does not carry the server's signature" in (
        reported()
    )


def test_a_ruling_taken_out_of_the_middle_is_reported_missing(cup):
    on_rulings("DELETE FROM tournaments_ruling WHERE tournament_id = %s AND sequence = 2", [cup.pk])

    message = reported()

    assert (
        f"tournament {cup.pk} (Cup): ruling 2 is missing: the rulings go on with ruling 3 "
        "(forfeit, round 1, table 2)" in message
    )


def test_a_ruling_added_by_hand_is_reported(cup, organiser):
    last = chain(cup)[-1]
    on_rulings(
        "INSERT INTO tournaments_ruling (tournament_id, sequence, link, signature, "
        "round_number, table_number, kind, reason, players, by_id, created_at) "
        "VALUES (%s, 4, %s, '', 1, 4, 'disqualification', 'forged', '[]', %s, %s)",
        [cup.pk, "0" * 64, organiser.pk, last.created_at],
    )

    assert "ruling 4 (disqualification, round 1, table 4) is not the ruling that was" in (
        reported()
    )


def test_rulings_made_at_once_for_one_tournament_take_one_number_each(cup, organiser):
    # The services hold the tournament's row lock; the numbers' constraint backs it up.
    taken = chain(cup)[-1]
    with pytest.raises(IntegrityError), transaction.atomic():
        Ruling.objects.create(
            tournament=cup,
            sequence=taken.sequence,
            link=taken.link,
            signature=taken.signature,
            round_number=1,
            kind=Ruling.Kind.REPAIRED,
            reason="a second ruling 3",
        )


# A club checks the rulings from the API's answers alone ------------------------------------


def published(tournament) -> tuple[dict, dict]:
    """The tournament's detail and the server's public keys, as anyone may fetch them."""
    api = APIClient()
    detail = api.get(f"/api/tournaments/{tournament.pk}/").json()
    keys = {k["id"]: k["public_key"] for k in api.get("/api/chain/keys/").json()["keys"]}
    return detail, keys


def test_the_api_gives_each_ruling_with_what_checks_it_and_it_checks_out(cup):
    detail, keys = published(cup)

    made = chain(cup)
    assert [
        (r["number"], r["kind"], r["link"], r["signature"], r["made_by"]) for r in detail["rulings"]
    ] == [(r.sequence, r.kind, r.link, r.signature, r.by_id) for r in made]
    assert rulings.published_problems(detail, keys) == []
    # Checked with no key of the server's, nothing is the server's.
    assert rulings.published_problems(detail, {}) == [
        "ruling 1 (time called, round 1, table 2) does not carry the server's signature"
    ]


def test_a_ruling_changed_in_the_answer_is_found_from_the_answer_alone(cup):
    detail, keys = published(cup)
    detail["rulings"][1]["reason"] = "the director felt like it"

    assert rulings.published_problems(detail, keys) == [
        "ruling 2 (table reopened, round 1, table 2) is not the ruling that was recorded: its "
        "reason, players, maker or time were changed, or a ruling before it was"
    ]


@pytest.mark.parametrize(
    "field,value",
    [
        ("players", ["someone else"]),
        ("made_by", None),
        ("at", "2020-01-01T00:00:00Z"),
        ("table", 1),
        ("kind", "disqualification"),
    ],
)
def test_any_field_a_ruling_is_linked_over_is_held_by_its_link(cup, field, value):
    detail, keys = published(cup)
    detail["rulings"][2][field] = value

    [problem] = rulings.published_problems(detail, keys)
    assert problem.startswith("ruling 3 (") and "is not the ruling that was recorded" in problem


def test_a_ruling_left_out_of_the_answer_or_forged_is_named(cup):
    detail, keys = published(cup)
    middle = {**detail, "rulings": [detail["rulings"][0], detail["rulings"][2]]}
    assert rulings.published_problems(middle, keys) == [
        "ruling 2 is missing: the rulings go on with ruling 3 (forfeit, round 1, table 2)"
    ]

    last = detail["rulings"][-1]
    last["reason"] = "forged"
    previous = detail["rulings"][-2]["link"]
    row = rulings.published(detail)[-1]
    last["link"] = rulings.link_of(row, previous)
    last["signature"] = signer_for(OTHER_KEY).sign_message(
        rulings.head_message(cup.pk, 3, last["link"])
    )
    assert rulings.published_problems(detail, keys) == [
        "ruling 3 (forfeit, round 1, table 2) does not carry the server's signature"
    ]


def test_an_answer_without_what_checks_a_ruling_says_so(cup):
    detail, keys = published(cup)
    del detail["rulings"][1]["signature"]
    assert rulings.published_problems(detail, keys) == [
        "the tournament's rulings cannot be read: the 2nd ruling is not given in full ('signature')"
    ]
    detail["rulings"][1]["signature"] = "x"
    detail["rulings"][0]["at"] = "yesterday"
    [problem] = rulings.published_problems(detail, keys)
    assert problem.startswith("the tournament's rulings cannot be read: the 1st ruling")


def test_the_schema_says_how_a_ruling_is_checked():
    schema = APIClient().get("/api/schema/", {"format": "json"}).json()
    ruling = schema["components"]["schemas"]["DirectorRuling"]["properties"]
    assert {"number", "made_by", "link", "signature"} <= set(ruling)
    assert "/api/chain/keys/" in ruling["signature"]["description"]
