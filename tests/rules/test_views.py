"""Hidden information: what each viewer may see of a game and of its log."""

from rules.commands import DrawCard
from rules.engine import new_game, step
from rules.pending import SEATLESS, Pending
from rules.views import event_view, game_view

from .helpers import start


def test_a_seat_sees_its_own_hand_and_only_counts_of_the_others():
    state, _ = new_game(players=3, seed="v")
    view = game_view(state, 1)
    assert view["seats"][1]["hand"] == list(state.hands[1])
    assert "hand" not in view["seats"][0] and "hand" not in view["seats"][2]
    assert [s["card_count"] for s in view["seats"]] == [7, 7, 7]
    assert "draw_pile" not in view


def test_a_referee_sees_every_hand_and_the_draw_pile():
    state, _ = new_game(players=3, seed="v")
    view = game_view(state, None, referee=True)
    assert all("hand" in s for s in view["seats"])
    assert view["draw_pile"] == list(state.draw_pile)


def test_the_deal_shows_a_seat_its_own_cards_and_hides_the_deck_and_the_seed():
    state, events = new_game(players=3, seed="v")
    dealt = event_view(events[2], 1)
    assert dealt["deck"] is None and dealt["your_cards"] == list(state.hands[1])
    assert "seed" not in event_view(events[0], 1)
    assert event_view(events[0], None, referee=True)["seed"] == "v"


def test_a_draw_is_shown_to_the_drawer_and_counted_for_the_others():
    state, _ = start(
        players=3,
        dealer=0,
        hands={1: ["B1", "B2", "G3", "G4", "Y5", "Y6", "B7"]},
        starter="R9",
        draws=["G2"],
    )
    state, events = step(state, DrawCard(1))
    assert event_view(events[0], 1)["cards"] == ["G2"]
    assert event_view(events[0], 2)["cards"] is None and event_view(events[0], 2)["count"] == 1


def test_a_card_drawn_that_could_be_played_stays_hidden_while_its_player_decides():
    """The others see that the player may play the card just drawn (the book's flow shows it:
    docs/RULINGS.md, C8), never which card it is; the player and a referee see it."""
    state, _ = start(
        players=3,
        dealer=0,
        hands={1: ["B1", "B2", "G3", "G4", "Y5", "Y6", "B7"]},
        starter="R9",
        draws=["R2"],
    )
    state, events = step(state, DrawCard(1))
    assert state.pending == ("drawn", 1)
    for other in (0, 2):
        view = game_view(state, other)
        assert "drawn" not in view and "hand" not in view["seats"][1]
        assert event_view(events[0], other)["cards"] is None
    assert game_view(state, 1)["drawn"] == "R2"
    assert game_view(state, None, referee=True)["drawn"] == "R2"


def test_once_the_game_is_over_everyone_sees_everything():
    state, events = new_game(players=2, seed="v", scoring="none")
    from rules.bots import RandomBot
    from rules.engine import legal_commands

    bot = RandomBot("v")
    while not state.finished:
        kind, seat = state.pending
        state, new = step(state, bot.choose(legal_commands(state, seat)))
        events += new
    view = game_view(state, 0)
    assert all("hand" in s for s in view["seats"])
    assert event_view(events[2], 0, finished=True)["deck"] is not None


def test_every_wait_a_game_rests_in_is_told_in_words_not_by_its_code():
    """The views' ``pending.text`` and the refusals of commands sent at the wrong moment say
    what the game waits for in words, for the core engine's waits and every edition's."""
    within_a_decision = {Pending.STARTER, Pending.PLAYING, Pending.HAND_OVER}
    state, _ = new_game(players=3, seed="v")
    told = set()
    for kind in Pending:
        if kind in within_a_decision:
            continue
        waiting = state.copy()
        waiting.pending = (kind, -1 if kind in SEATLESS else 2)
        text = game_view(waiting, 0)["pending"]["text"]
        assert f"({kind})" not in text and "waiting for" not in text, (kind, text)
        if kind not in SEATLESS and kind != Pending.UNO_SPIN:  # (UNO Spin: any seat claims)
            assert "seat 2" in text, (kind, text)
        told.add(text)
    assert len(told) == len(Pending) - len(within_a_decision)  # no two waits told alike
