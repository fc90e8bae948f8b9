"""A seat's page never holds another seat's cards while the game is on: the HTML is scanned
for the codes and the words of every card only other hands hold."""

import re

import pytest

from games import services
from rules.cards import card_info, describe
from rules.views import event_view, game_view
from tests.web.conftest import seat_client
from tests.web.table_support import HTMX, code_pattern, drive

pytestmark = pytest.mark.django_db

EDITIONS = ["classic", "mod", "veto", "spin", "power_grab"]


def public_cards(game, state, seat) -> set[str]:
    """Every card the seat may know of: its hand, the discard pile, hands an edition shows,
    and whatever its redacted log names."""
    known = set(state.hands[seat]) | set(state.discard)
    for row in game_view(state, seat)["seats"]:
        known |= set(row.get("hand") or ())
    for row in services.replay_events(game_id=game.pk):
        data = event_view(row.to_rules_event(), seat)
        for value in data.values():
            if isinstance(value, str):
                known.add(value)
            elif isinstance(value, list):
                for item in value:
                    if isinstance(item, str):
                        known.add(item)
                    elif isinstance(item, list):
                        known |= {x for x in item if isinstance(x, str)}
    return known


def assert_hides_the_others(html, game, state, seat):
    hidden = {c for other, hand in enumerate(state.hands) if other != seat for c in hand}
    hidden -= public_cards(game, state, seat)
    for code in hidden:
        assert f'data-card="{code}"' not in html, f"seat {seat}'s page shows {code}"
        assert f'aria-hidden="true">{code}<' not in html, f"seat {seat}'s page shows {code}"
        if len(code) > 1:  # "W" alone is also a wild's symbol
            assert not code_pattern(code).search(html), f"seat {seat}'s page shows {code}"
        if card_info(code).colour is not None:  # "wild" alone is a word of many texts
            words = re.compile(re.escape(describe(code)) + r"(?![\w]| \()")
            assert not words.search(html), f"seat {seat}'s page names {describe(code)}"


@pytest.mark.parametrize("variant", EDITIONS)
@pytest.mark.parametrize("commands", [0, 7, 25])
def test_a_seats_page_holds_no_other_hand(client, make_game, variant, commands):
    game = make_game(variant=variant, seed=f"hidden-{variant}")
    start = services.load_game(game_id=game.pk).version
    state = drive(game, until=lambda s: s.version >= start + commands, seed=f"h{commands}")
    if state.finished:
        pytest.skip("the game ended before this point")
    for seat in range(state.players):
        client.cookies.clear()
        seat_client(client, game, seat)
        page = client.get(f"/table/{game.pk}/").text
        poll = client.get(f"/table/{game.pk}/version/", {"v": 0}, **HTMX).text

        assert_hides_the_others(page, game, state, seat)
        assert_hides_the_others(poll, game, state, seat)
        # ...while its own hand is all there.
        for code in state.hands[seat]:
            assert f'data-card="{code}"' in page


def test_the_referee_watching_the_table_sees_every_hand(client, make_game, django_user_model):
    user = django_user_model.objects.create_user("ref", password="pw-ref-123")
    game = make_game(created_by=user)
    state = services.load_game(game_id=game.pk)
    client.force_login(user)

    html = client.get(f"/table/{game.pk}/").text

    for hand in state.hands:
        for code in hand:
            assert f'data-card="{code}"' in html
