"""``games.registry.reveal_checks``: a finished game an app holds back shows its seats nothing
more than while it was played (no other hand, the redacted log, no replay) and everyone else
nothing, through the API and the pages; its referee sees everything; once every check agrees,
everyone sees everything, as for any finished game."""

import json

import pytest

from games import registry, services
from games.models import Seat
from games.visibility import is_revealed
from rules.views import event_view
from tests.games.api_support import seat_client, url, user_client
from tests.web.conftest import seat_client as page_seat_client

pytestmark = pytest.mark.django_db


@pytest.fixture
def held_back(monkeypatch):
    """A reveal check holding back every game in ``held``."""
    held = set()
    monkeypatch.setattr(registry, "reveal_checks", [lambda game: game.pk not in held])
    return held


@pytest.fixture
def finished(make_game, play):
    referee = user_client()
    game = make_game(scoring="none", created_by=referee.user)
    play(game)
    game.refresh_from_db()
    assert game.status == "finished"
    return game, referee


def secret(game, seat):
    return Seat.objects.get(game=game, seat=seat).secret


def test_a_game_is_revealed_once_over_and_every_check_agrees(make_game, finished, held_back):
    game, _ = finished
    assert not is_revealed(make_game())
    assert is_revealed(game)
    held_back.add(game.pk)
    assert not is_revealed(game)


def test_a_held_back_game_shows_a_seat_only_what_it_saw_while_playing(finished, held_back):
    game, referee = finished
    held_back.add(game.pk)
    rows = services.replay_events(game_id=game.pk)

    for seat in range(3):
        api = seat_client(secret(game, seat))
        view = api.get(url(str(game.pk))).json()
        assert view["status"] == "finished"
        assert [("hand" in row) for row in view["seats"]] == [s == seat for s in range(3)]
        assert "draw_pile" not in view
        log = api.get(url(str(game.pk), "events/")).json()
        redacted = [event_view(r.to_rules_event(), seat) for r in rows]
        assert [e["data"] for e in log] == json.loads(json.dumps(redacted))
        assert api.get(url(str(game.pk), "replay/")).status_code == 403

    full = referee.get(url(str(game.pk))).json()
    assert all("hand" in row for row in full["seats"]) and "draw_pile" in full
    assert referee.get(url(str(game.pk), "replay/")).status_code == 200


def test_a_held_back_game_has_no_public_page_and_no_replay(client, finished, held_back):
    game, _ = finished
    held_back.add(game.pk)

    assert client.get(f"/table/{game.pk}/").status_code == 403
    assert client.get(f"/table/{game.pk}/replay/").status_code == 403
    assert client.get(f"/table/{game.pk}/version/", {"v": 0}).status_code == 403
    page_seat_client(client, game, 1)
    page = client.get(f"/table/{game.pk}/")
    assert page.status_code == 200 and 'class="mini-hand"' not in page.text
    assert client.get(f"/table/{game.pk}/replay/").status_code == 403

    held_back.clear()

    page = client.get(f"/table/{game.pk}/")
    assert 'class="mini-hand"' in page.text
    assert client.get(f"/table/{game.pk}/replay/").status_code == 200
    assert seat_client(secret(game, 1)).get(url(str(game.pk), "replay/")).status_code == 200
