"""The HTTP path costs little beside the store: the caller's game travels from authentication
to the answer, the append says what the view needs, events are made into JSON once. On
PostgreSQL a seat's GET of the game is one query and a command at most four (bench/http.py
measures the time)."""

from __future__ import annotations

import pytest

from games.models import Event
from games.serializers import EventSerializer, event_json
from tests.games.api_support import create_game, seats, url, user_client

pytestmark = pytest.mark.django_db(transaction=True)


def waiting_seat(game, clients):
    view = clients[0].get(url(game)).json()
    seat = view["pending"]["seat"]
    return seat, clients[seat].get(url(game)).json()


def send(game, clients, seat, view):
    command = {
        **view["legal"][0],
        "expected_version": view["version"],
        "key": f"k{view['version']}",
    }
    answer = clients[seat].post(url(game, "commands/"), command, format="json")
    assert answer.status_code == 201, answer.content
    return answer


@pytest.mark.postgres
def test_a_seat_reads_the_game_in_one_query_and_sends_a_command_in_at_most_four(
    django_assert_max_num_queries,
):
    game = create_game(user_client(), players=["Ann", "Bob", "Cy", "Dee"])
    clients = seats(game)
    for _ in range(3):  # this process learns the log's end, as a running server has
        seat, view = waiting_seat(game, clients)
        send(game, clients, seat, view)
    seat, _ = waiting_seat(game, clients)

    with django_assert_max_num_queries(1):
        view = clients[seat].get(url(game)).json()
    with django_assert_max_num_queries(4):
        answer = send(game, clients, seat, view)

    assert answer.json()["version"] > view["version"]
    assert answer.json()["receipt"]["version"] == answer.json()["version"]


def test_the_events_json_is_what_the_documented_serializer_gives(make_game, play):
    game = make_game()
    play(game, commands=4)
    rows = list(Event.objects.filter(game=game).order_by("version"))

    for viewer, revealed in ((0, False), (1, False), (None, True)):
        context = {"viewer": viewer, "revealed": revealed}
        documented = EventSerializer(rows, many=True, context=context).data
        assert [dict(e) for e in documented] == [
            event_json(row, viewer, revealed=revealed) for row in rows
        ]
        assert set(documented[0]) == set(EventSerializer().fields)
