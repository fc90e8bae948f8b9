"""A tournament table's page, once the table is over or decided, shows its players the way on:
their next table once the next round seats them (taking their seat there from the same
browser, as a rematch does), else the tournament's page; a decided table marks nobody's turn."""

import pytest
from django.test import Client

from games import services as game_services
from games.models import Game, Seat
from tournaments.brackets import services as tournament_services
from tournaments.brackets import tasks
from tournaments.brackets.models import Table

from .support import play_game

pytestmark = pytest.mark.django_db

PLAYERS = ["Ann", "Bob", "Cid", "Dee"]


@pytest.fixture
def tournament(organiser):
    tournament = tournament_services.create_tournament(
        name="Spring Cup",
        organiser=organiser,
        format="elimination",
        table_size=2,
        scoring="none",
        players=PLAYERS,
    )
    return tournament_services.start_tournament(tournament_id=tournament.pk, by=organiser)


def seat_of(game_id, player) -> Client:
    """A browser that opened ``player``'s private link of the game."""
    client = Client()
    secret = Seat.objects.get(game_id=game_id, player=player).secret
    assert client.get(f"/table/{game_id}/seat/{secret}/").status_code == 302
    return client


def table_page(client, game_id) -> str:
    answer = client.get(f"/table/{game_id}/")
    assert answer.status_code == 200
    return answer.content.decode()


@pytest.mark.parametrize(
    ("kind", "words"),
    [
        ("forfeit", "{loser} forfeited"),
        ("disqualification", "{loser} was disqualified"),
        ("no_show", "{loser} did not show"),
    ],
)
def test_a_decided_table_says_at_the_table_who_the_ruling_is_against(
    tournament, organiser, kind, words
):
    first = Table.objects.get(round__number=1, number=1)
    winner, loser = first.players
    director = Client()
    director.force_login(organiser)
    director.post(
        f"/tournaments/{tournament.pk}/direct/award/",
        {"round": 1, "table": 1, "kind": kind, "player": loser, "reason": "left early"},
    )

    html = table_page(seat_of(first.game_id, winner), first.game_id).replace("&#x27;", "'")

    said = words.format(loser=loser)
    assert (
        f"The tournament's director awarded this table's result ({said}; placed 1st {winner}, "
        f"2nd {loser}): the game takes no more moves unless the director reopens the table."
    ) in html


def test_a_player_goes_from_a_decided_table_to_their_next_table(tournament, organiser):
    first, second = Table.objects.filter(round__number=1).order_by("number")
    winner, loser = first.players
    director = Client()
    director.force_login(organiser)
    answer = director.post(
        f"/tournaments/{tournament.pk}/direct/award/",
        {"round": 1, "table": 1, "kind": "no_show", "player": loser, "reason": "never came"},
    )
    assert answer.status_code == 302
    ann = seat_of(first.game_id, winner)

    # The other table still plays: no next table yet; the page asks again now and then.
    html = table_page(ann, first.game_id)
    assert "awarded this table&#x27;s result" in html
    assert "When you are seated in the next round, your table shows here." in html
    assert f'hx-get="/table/{first.game_id}/onward/"' in html
    assert f'href="/tournaments/{tournament.pk}/">Spring Cup</a>' in html
    assert "your turn" not in html and "their turn" not in html and "seat-turn" not in html

    play_game(second.game_id)
    tasks.table_finished(str(second.game_id))
    final = Table.objects.get(round__number=2)
    assert winner in final.players

    # The polled box now names the table and takes the player there, seated as themselves.
    box = ann.get(f"/table/{first.game_id}/onward/").content.decode()
    assert "Your next table: the final table of Spring Cup." in box  # as the tournament page says
    assert "Take your seat at the final table" in box
    assert "hx-get" not in box  # found: no more asking
    answer = ann.get(f"/table/{first.game_id}/next-table/")
    assert answer.status_code == 302 and answer["Location"] == f"/table/{final.game_id}/"
    html = table_page(ann, final.game_id)
    assert f"You play as <strong>{winner}</strong>" in html

    # The player who lost the table is seated nowhere: only the tournament's page.
    gone = seat_of(first.game_id, loser)
    html = table_page(gone, first.game_id)
    assert "Your next table" not in html and "Spring Cup</a>" in html
    answer = gone.get(f"/table/{first.game_id}/next-table/")
    assert answer["Location"] == f"/table/{first.game_id}/"


def test_once_the_tournament_is_over_a_table_names_no_next_table(tournament):
    first, second = Table.objects.filter(round__number=1).order_by("number")
    for table in (first, second):
        play_game(table.game_id)
        tasks.table_finished(str(table.game_id))
    final = Table.objects.get(round__number=2)
    play_game(final.game_id)
    tasks.table_finished(str(final.game_id))
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    winner = next(p for p in first.players if p in final.players)

    html = table_page(seat_of(first.game_id, winner), first.game_id)

    assert "Your next table" not in html and "Take your seat" not in html
    assert "You played on at the final table of Spring Cup" in html
    assert f'href="/table/{first.game_id}/next-table/">see that table</a>' in html
    assert "(the tournament is over)" in html


def test_someone_without_a_seat_is_seated_nowhere_by_the_next_table_link(tournament):
    first = Table.objects.get(round__number=1, number=1)
    play_game(first.game_id)
    tasks.table_finished(str(first.game_id))
    stranger = Client()
    html = table_page(stranger, first.game_id)
    assert "Your next table" not in html and f"/table/{first.game_id}/onward/" not in html
    answer = stranger.get(f"/table/{first.game_id}/next-table/")
    assert answer["Location"] == f"/table/{first.game_id}/"


def test_a_game_of_no_tournament_shows_no_way_on(organiser):
    game = game_services.create_game(
        variant="classic", players=["Ann", "Bob"], scoring="none", target=500
    )
    play_game(game.pk)
    ann = seat_of(game.pk, "Ann")
    assert 'id="onward"' not in table_page(ann, game.pk)
    assert ann.get(f"/table/{game.pk}/onward/").status_code == 204


def test_a_finished_tournament_table_offers_no_rematch(tournament, organiser):
    first = Table.objects.get(round__number=1, number=1)
    play_game(first.game_id)
    tasks.table_finished(str(first.game_id))
    referee = Client()
    referee.force_login(organiser)

    for client in (seat_of(first.game_id, first.players[0]), referee):
        html = table_page(client, first.game_id)
        assert "Final standings" in html and "ematch" not in html
        assert client.get(f"/table/{first.game_id}/rematch/offer/").status_code == 204

    refused = referee.post(f"/table/{first.game_id}/rematch/")

    assert refused.status_code == 403
    assert "A tournament&#x27;s table is played once, so it has no rematch" in refused.text
    assert not Game.objects.filter(rematch_of_id=first.game_id).exists()
