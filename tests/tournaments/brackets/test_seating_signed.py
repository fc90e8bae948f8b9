"""Who sat at a tournament's table is signed with the game's seats (``games.seating``): two
players' places swapped in the database, at the table and at the game's seats alike, so that
the table's placings still match the game, are found by ``manage.py verify_events``. The
director's repairs and reopenings sign again the tables they take down."""

import pytest

from games import seating
from games.models import Seat
from tests.games.tampering import reported, verify
from tests.tournaments.brackets.support import (
    cup_of_eight,
    play_game,
    play_round,
    swiss_of_four,
)
from tournaments.brackets import directing
from tournaments.brackets import services as brackets
from tournaments.brackets.models import Round, Table

pytestmark = pytest.mark.django_db


def test_a_table_signs_its_tournament_round_number_and_players(organiser):
    cup = cup_of_eight(organiser)
    table = Table.objects.get(round__tournament=cup, round__number=1, number=2)

    signed = seating.seatings([table.game_id])[table.game_id]

    assert [name for _, name, _ in signed[0]] == table.players
    assert signed[2] == [["tournament", cup.pk, 1, 2, table.players]]
    assert "who sat where as signed" in verify()


def test_two_players_swapped_at_a_table_and_at_its_seats_are_found(organiser):
    cup = cup_of_eight(organiser)
    play_round(cup)  # round 1 over, its placings recorded from the games
    table = Table.objects.get(round__tournament=cup, round__number=1, number=1)
    first, second = table.players[0], table.players[1]
    swap = {first: second, second: first}
    # The winner's place handed to the runner-up everywhere it is written: the table's players
    # and placings, and the names at the game's seats.
    Table.objects.filter(pk=table.pk).update(
        players=[swap.get(p, p) for p in table.players],
        placings=[swap.get(p, p) for p in table.placings],
    )
    for seat in Seat.objects.filter(game_id=table.game_id, player__in=swap):
        Seat.objects.filter(pk=seat.pk).update(player=f"swap:{seat.player}")
    for seat in Seat.objects.filter(game_id=table.game_id, player__startswith="swap:"):
        Seat.objects.filter(pk=seat.pk).update(player=swap[seat.player.removeprefix("swap:")])

    message = reported()

    assert f"game {table.game_id}: who sat where is not what the server signed" in message
    assert "recorded result" not in message  # the table still matches its game's placings


def test_the_tables_a_repair_takes_down_are_signed_again(organiser):
    cup = swiss_of_four(organiser)
    taken_down = [t.game_id for t in Table.objects.filter(round__tournament=cup)]
    brackets.drop_entry(tournament_id=cup.pk, player="Dee", by=organiser)

    directing.repair_round(tournament_id=cup.pk, reason="Dee went home", by=organiser)

    [rnd] = Round.objects.filter(tournament=cup)
    play_game(rnd.tables.get().game_id)
    for game_id in taken_down:
        assert seating.seatings([game_id])[game_id][2] == []  # no longer a tournament's table
    assert "who sat where as signed" in verify()
