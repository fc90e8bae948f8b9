"""`manage.py verify_events` compares a bracket with the games and rulings it came from: a table
decided by its game records the game's placings, one decided by a ruling the ruling's, and a
finished tournament's winner is the one its tables give. A result edited in the database alone
is reported by tournament, round and table, and the command exits 1."""

import json

import pytest
from django.core.management import CommandError
from django.db import connection

from tests.games.tampering import verify
from tournaments.brackets import directing
from tournaments.brackets.models import Table, Tournament

from .support import cup_of_eight, play_game, play_round, play_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def cup(organiser):
    """A cup of eight played out: round 1's table 1 by its game, table 2 by time called (then
    reopened by mistake and called again), and the final by its game."""
    tournament = cup_of_eight(organiser)
    play_game(table(tournament, 1, 1).game_id)
    at_table_2 = {"tournament_id": tournament.pk, "round_number": 1, "table_number": 2}
    directing.call_time(**at_table_2, reason="time", by=organiser)
    directing.reopen_table(**at_table_2, reason="called too early", by=organiser)
    directing.call_time(**at_table_2, reason="time, now", by=organiser)
    play_tournament(tournament)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    return tournament


def table(tournament, round_number, number):
    return Table.objects.get(
        round__tournament=tournament, round__number=round_number, number=number
    )


def edit(sql: str, params) -> None:
    """What a database administrator does with psql (tables are not append-only)."""
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def reported(tournament) -> str:
    with pytest.raises(CommandError) as excinfo:
        verify()
    assert excinfo.value.returncode == 1
    return str(excinfo.value)


def test_a_tournament_played_and_directed_verifies(cup):
    out = verify()

    assert (
        "3 decided tournament tables (with 3 signed rulings), the winner of 1 finished "
        "tournament, the results of 0 season games and the night rows, standings and ratings "
        "of 0 seasons match their games" in out
    )
    assert table(cup, 1, 2).decided_by == Table.DecidedBy.TIME


def test_placings_of_a_table_decided_by_its_game_edited_in_the_database_are_reported(cup):
    played = table(cup, 1, 1)
    swapped = [played.placings[1], played.placings[0], *played.placings[2:]]
    edit(
        "UPDATE tournaments_table SET placings = %s WHERE id = %s", [json.dumps(swapped), played.pk]
    )

    message = reported(cup)

    assert f"tournament {cup.pk} (Cup) round 1 table 1: records the placings" in message
    assert f"but its game {played.game_id} placed {', '.join(played.placings)}" in message
    assert "1 recorded result disagrees with the games" in message


def test_a_final_and_a_winner_edited_together_are_reported_at_the_final(cup):
    final = table(cup, 2, 1)
    runner_up = final.placings[1]
    edit(
        "UPDATE tournaments_table SET placings = %s WHERE id = %s",
        [json.dumps([runner_up, final.placings[0], *final.placings[2:]]), final.pk],
    )
    edit("UPDATE tournaments_tournament SET winner = %s WHERE id = %s", [runner_up, cup.pk])

    message = reported(cup)

    assert f"tournament {cup.pk} (Cup) round 2 table 1" in message
    assert f"placed {', '.join(final.placings)}" in message


def test_a_winner_edited_alone_is_reported(cup):
    winner = cup.winner
    other = "P1" if winner != "P1" else "P2"
    edit("UPDATE tournaments_tournament SET winner = %s WHERE id = %s", [other, cup.pk])

    message = reported(cup)

    assert f"tournament {cup.pk} (Cup): records {other} as its winner, but its tables give " in (
        message
    )
    assert message.endswith(f"give {winner}")


def test_placings_of_a_table_decided_by_a_ruling_edited_in_the_database_are_reported(cup):
    ruled = table(cup, 1, 2)
    edit(
        "UPDATE tournaments_table SET placings = %s WHERE id = %s",
        [json.dumps(list(reversed(ruled.placings))), ruled.pk],
    )

    message = reported(cup)

    assert f"tournament {cup.pk} (Cup) round 1 table 2: records the placings" in message
    assert f"but the ruling that decided it placed {', '.join(ruled.placings)}" in message


@pytest.mark.parametrize("decided_by", ["award", ""])
def test_a_game_result_passed_off_as_a_ruling_or_as_nothing_is_reported(cup, decided_by):
    played = table(cup, 1, 1)
    edit(
        "UPDATE tournaments_table SET decided_by = %s, placings = %s WHERE id = %s",
        [decided_by, json.dumps(list(reversed(played.placings))), played.pk],
    )

    message = reported(cup)

    assert f"tournament {cup.pk} (Cup) round 1 table 1:" in message
    assert ("nothing decided it" if not decided_by else "no ruling of the tournament") in message


def test_a_table_recorded_while_its_game_plays_on_is_reported(organiser):
    tournament = cup_of_eight(organiser)
    playing = table(tournament, 1, 1)
    edit(
        "UPDATE tournaments_table SET status = 'finished', decided_by = 'game', placings = %s "
        "WHERE id = %s",
        [json.dumps(playing.players), playing.pk],
    )

    message = reported(tournament)

    assert f"round 1 table 1: recorded as decided by its game {playing.game_id}, which is not" in (
        message
    )


def test_junk_written_over_a_table_is_reported_not_a_crash(cup):
    played = table(cup, 1, 1)
    edit(
        "UPDATE tournaments_table SET players = %s, absent = %s WHERE id = %s",
        [json.dumps({"not": "a list"}), json.dumps(7), played.pk],
    )
    ruled = table(cup, 1, 2)
    edit("UPDATE tournaments_table SET placings = %s WHERE id = %s", ['"P1"', ruled.pk])

    message = reported(cup)

    assert "2 recorded results disagree" in message
    assert "round 1 table 1: seats {'not': 'a list'}" in message
    assert "round 1 table 2: records the placings 'P1'" in message


def test_a_round_still_playing_verifies_and_a_running_tournament_has_no_winner(organiser):
    tournament = cup_of_eight(organiser, name="Open")
    play_round(tournament)
    assert "decided tournament tables" in verify()

    edit("UPDATE tournaments_tournament SET winner = 'P1' WHERE id = %s", [tournament.pk])

    assert "records P1 as its winner while it is running" in reported(tournament)
