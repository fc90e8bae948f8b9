"""Fair chance at duplicate-deal tables: each round draws its own seed from ``secrets`` (no
seat can work one out from a finished table's log), and a table dealt the same cards as tables
still playing stays hidden until every table of its round has finished: its seats see no other
hand, only the redacted log and no replay, through the API and the pages; nobody else sees the
table at all; its organiser sees everything all along."""

import json
import re

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games import services
from games.models import Seat
from rules.views import event_view
from tests.web.conftest import seat_client
from tests.web.table_support import HTMX
from tournaments.brackets import services as tournament_services
from tournaments.brackets import tasks
from tournaments.brackets.models import Round, Table

from .support import play_game

pytestmark = pytest.mark.django_db

NAMES = [f"P{i}" for i in range(1, 9)]
DRAWN = re.compile(r"[0-9a-f]{32}")


def start(organiser, *, duplicate_deals=True):
    """Eight players at two tables of four; the winner of each meets at a final table."""
    tournament = tournament_services.create_tournament(
        name="Duplicate Cup",
        organiser=organiser,
        format="elimination",
        table_size=4,
        advance=1,
        scoring="none",
        players=NAMES,
        duplicate_deals=duplicate_deals,
    )
    return tournament_services.start_tournament(tournament_id=tournament.pk, by=organiser)


def tables(tournament, number=1):
    return list(
        Table.objects.filter(round__tournament=tournament, round__number=number).order_by("number")
    )


def finish(table):
    """Bots play the table's game to its end; then the task a worker would run."""
    play_game(table.game_id)
    tasks.table_finished(str(table.game_id))


def seat_api(table, seat):
    client = APIClient()
    secret = Seat.objects.get(game_id=table.game_id, seat=seat).secret
    client.credentials(HTTP_AUTHORIZATION=f"Seat {secret}")
    return client


def user_api(user):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    return client


def game_url(table, tail=""):
    return f"/api/games/{table.game_id}/{tail}"


def started_seed(game_id):
    started = services.replay_events(game_id=game_id)[0]
    assert started.type == "game_started"
    return started.data["seed"]


def holding_cards(table, but=None):
    """How many seats of the table (``but`` one) still hold cards: the hands a page can show."""
    state = services.load_game(game_id=table.game_id)
    return sum(1 for seat, hand in enumerate(state.hands) if hand and seat != but)


def redacted_log(table, seat):
    """The log as ``seat`` saw it while playing, in the API's JSON shape."""
    rows = services.replay_events(game_id=table.game_id)
    return json.loads(json.dumps([event_view(r.to_rules_event(), seat) for r in rows]))


def test_a_finished_table_stays_hidden_from_its_seats_until_its_round_is_over(organiser):
    a, b = tables(start(organiser))
    finish(a)
    assert services.get_game(a.game_id).status == "finished"
    assert services.get_game(b.game_id).status == "playing"

    for seat in range(4):
        api = seat_api(a, seat)
        view = api.get(game_url(a)).json()
        assert view["status"] == "finished"
        assert [("hand" in row) for row in view["seats"]] == [s == seat for s in range(4)]
        assert "draw_pile" not in view
        log = api.get(game_url(a, "events/")).json()
        assert [row["data"] for row in log] == redacted_log(a, seat)
        assert "seed" not in log[0]["data"]
        replay = api.get(game_url(a, "replay/"))
        assert replay.status_code == 403
        assert replay.json()["error"] == "forbidden"


def test_a_held_back_table_shows_its_seats_pages_nothing_more_and_others_nothing(organiser, client):
    a, b = tables(start(organiser))
    finish(a)

    assert client.get(f"/table/{a.game_id}/").status_code == 403
    assert client.get(f"/table/{a.game_id}/replay/").status_code == 403
    game = services.get_game(a.game_id)
    seat_client(client, game, 0)
    page = client.get(f"/table/{a.game_id}/")
    assert page.status_code == 200
    assert "Final standings" in page.text
    assert 'class="mini-hand"' not in page.text  # no other seat's cards
    assert f"/table/{a.game_id}/replay/" not in page.text
    assert "shown once the other tables dealt the same cards have finished" in page.text
    assert client.get(f"/table/{a.game_id}/replay/").status_code == 403
    # The poll goes on while the table is held back (it stops once there is nothing to wait for).
    poll = client.get(f"/table/{a.game_id}/version/", {"v": game.version, "revealed": "0"})
    assert poll.status_code == 204

    finish(b)

    poll = client.get(f"/table/{a.game_id}/version/", {"v": game.version, "revealed": "0"}, **HTMX)
    assert poll.status_code == 200 and 'class="mini-hand"' in poll.text
    page = client.get(f"/table/{a.game_id}/")
    assert page.text.count('class="mini-hand"') == holding_cards(a, but=0)
    assert client.get(f"/table/{a.game_id}/replay/").status_code == 200


def test_the_organiser_sees_a_held_back_table_whole(organiser, client):
    a, _ = tables(start(organiser))
    finish(a)
    api = user_api(organiser)

    view = api.get(game_url(a)).json()
    assert all("hand" in row for row in view["seats"]) and "draw_pile" in view
    log = api.get(game_url(a, "events/")).json()
    assert log[0]["data"]["seed"] == started_seed(a.game_id)
    assert api.get(game_url(a, "replay/")).status_code == 200
    client.force_login(organiser)
    page = client.get(f"/table/{a.game_id}/").text
    assert page.count('class="mini-hand"') == holding_cards(a) >= 2
    assert client.get(f"/table/{a.game_id}/replay/").status_code == 200


def test_once_every_table_of_the_round_has_finished_its_seats_see_everything(organiser):
    a, b = tables(start(organiser))
    finish(a)
    finish(b)

    for table in (a, b):
        api = seat_api(table, 1)
        view = api.get(game_url(table)).json()
        assert all("hand" in row for row in view["seats"]) and "draw_pile" in view
        log = api.get(game_url(table, "events/")).json()
        assert log[0]["data"]["seed"] == started_seed(table.game_id)
        assert api.get(game_url(table, "replay/")).status_code == 200


def test_each_duplicate_round_draws_a_seed_no_earlier_log_tells(organiser, client):
    tournament = start(organiser)
    first = tables(tournament)
    for table in first:
        finish(table)
    (final,) = tables(tournament, 2)
    one, two = (Round.objects.get(tournament=tournament, number=n) for n in (1, 2))

    # Tables of a round share the round's seed; every seed is 128 bits drawn for its round.
    assert {started_seed(t.game_id) for t in first} == {one.seed}
    assert started_seed(final.game_id) == two.seed
    assert DRAWN.fullmatch(one.seed) and DRAWN.fullmatch(two.seed)
    assert one.seed != two.seed
    assert one.deck == tournament_services.round_deck("classic", one.seed)
    assert two.deck == tournament_services.round_deck("classic", two.seed) != one.deck
    # Nothing a seat of round 1 reads once it is revealed names round 2's seed or its deal.
    for table in first:
        for seat in range(4):
            readable = json.dumps(seat_api(table, seat).get(game_url(table, "events/")).json())
            assert one.seed in readable
            assert two.seed not in readable
    # The round's seed is shown nowhere: not in the tournament's API nor its page.
    for answer in (
        client.get(f"/api/tournaments/{tournament.pk}/").text,
        client.get(f"/tournaments/{tournament.pk}/").text,
    ):
        assert one.seed not in answer and two.seed not in answer


def test_tables_of_a_round_without_duplicate_deals_draw_their_own_seeds(organiser, client):
    tournament = start(organiser, duplicate_deals=False)
    a, b = tables(tournament)
    seeds = [started_seed(a.game_id), started_seed(b.game_id)]

    assert all(DRAWN.fullmatch(seed) for seed in seeds)
    assert seeds[0] != seeds[1]
    assert Round.objects.get(tournament=tournament).seed == ""
    # Nothing is held back: a table is revealed when its own game ends.
    finish(a)
    api = seat_api(a, 0)
    assert api.get(game_url(a, "replay/")).status_code == 200
    assert client.get(f"/table/{a.game_id}/").status_code == 200
