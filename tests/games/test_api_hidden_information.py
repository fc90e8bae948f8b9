"""Hidden information stays hidden: the walk.

At several moments of a game in progress, each seat calls every endpoint it can (the game, the
log, the disputes, the replay it is refused, a command) and every string of every answer is
checked against the truth the referee's replay gives at that moment: no card of another seat's
hand and no card of the draw pile may appear, unless the seat has seen that card code face up
(on the discard pile, in its own hand, or drawn by itself). Its own hand does appear. Once the
game is over, everyone sees everything.
"""

import re

import pytest

from tests.games.api_support import (
    bot_command,
    create_game,
    play_one,
    seats,
    strings,
    url,
    user_client,
)

pytestmark = pytest.mark.django_db

SEED = "walk-seed-7f3a"  # distinctive, so a leak of the seed would be found too
MOMENTS = 10
TOKEN = re.compile(r"[A-Za-z0-9~:!]+")

# Events whose cards everyone sees face up (a card played, a starter turned or sent back).
PUBLIC = {"card_played": "card", "starter_turned": "card", "starter_returned": "card"}


def tokens(answer):
    """Every word of every string of a JSON answer (card codes are whole words)."""
    for text in strings(answer):
        yield from TOKEN.findall(text)


def seen_by(seat, log):
    """Card codes ``seat`` has seen face up or held, from the referee's (unredacted) log."""
    seen = set()
    for event in log:
        data = event["data"]
        if event["type"] in PUBLIC:
            seen.add(data[PUBLIC[event["type"]]])
        elif event["type"] == "dealer_chosen":  # the dealer draw is face up, then reshuffled
            seen.update(card for draws in data["draws"] for card in draws if card)
        elif event["type"] == "hand_dealt":
            n, dealer, deck = data["players"], data["dealer"], data["deck"]
            seen.update(deck[(seat - dealer - 1) % n : n * 7 : n])
        elif event["type"] == "cards_drawn" and data["seat"] == seat:
            seen.update(data["cards"])
        elif event["type"] == "challenge_resolved" and seat in (
            data["challenger"],
            data["offender"],
        ):
            seen.update(data["evidence"])
            seen.update(data.get("hand") or ())  # the hand shown to the challenger
    return seen


def truth(referee, game):
    """What is hidden now: every seat's hand and the draw pile, from the referee's replay."""
    replay = referee.get(url(game, "replay/"))
    assert replay.status_code == 200
    state = replay.json()
    log = referee.get(url(game, "events/")).json()
    return {row["seat"]: row["hand"] for row in state["seats"]}, state["draw_pile"], log


def hidden_from(seat, hands, pile, log):
    others = {card for s, hand in hands.items() if s != seat for card in hand}
    return (others | set(pile)) - seen_by(seat, log)


def assert_nothing_hidden_in(answer, hidden, secrets, what):
    leaked = {word for word in tokens(answer) if word in hidden or word in secrets or word == SEED}
    assert not leaked, f"{what} shows {sorted(leaked)}"


def test_no_seat_ever_sees_another_hand_or_the_draw_pile_while_the_game_is_on():
    referee = user_client()
    game = create_game(referee, seed=SEED)
    clients = seats(game)
    secret = {row["seat"]: row["secret"] for row in game["seats"]}
    referee.post(
        url(game, "disputes/"), {"version": 2, "claim": "check the dealer draw"}, format="json"
    )
    checked_hidden = 0

    for _ in range(MOMENTS):
        hands, pile, log = truth(referee, game)
        status = referee.get(url(game)).json()["status"]
        assert status == "playing", "the walk needs a game in progress"
        waiting = referee.get(url(game)).json()["pending"]["seat"]
        for seat, client in enumerate(clients):
            hidden = hidden_from(seat, hands, pile, log)
            others_secrets = {s for n, s in secret.items() if n != seat}
            # Each other hand must be mostly unseen by this seat, or the walk proves little.
            assert len(hidden & set(pile)) >= 20
            checked_hidden += len(hidden)

            view = client.get(url(game))
            assert view.status_code == 200
            assert_nothing_hidden_in(view.json(), hidden, others_secrets, f"seat {seat}'s GET game")
            own = view.json()["seats"][seat]["hand"]
            assert sorted(own) == sorted(hands[seat])
            assert set(own) <= set(tokens(view.json()))
            assert "draw_pile" not in view.json()

            for tail in (
                "events/",
                "events/?after=3",
                "disputes/",
                "replay/",
                f"replay/?version={len(log)}",
            ):
                answer = client.get(url(game, tail))
                assert answer.status_code in (200, 403), tail
                assert_nothing_hidden_in(
                    answer.json(), hidden, others_secrets, f"seat {seat}'s GET {tail}"
                )
            events = client.get(url(game, "events/")).json()
            dealt = [e for e in events if e["type"] == "hand_dealt"]
            assert dealt and all(e["data"]["deck"] is None for e in dealt)

            if seat != waiting:
                # A command out of turn: the refusal tells nothing either.
                refused = client.post(url(game, "commands/"), {"type": "draw"}, format="json")
                assert refused.status_code == 409
                assert_nothing_hidden_in(
                    refused.json(), hidden, others_secrets, f"seat {seat}'s refusal"
                )

        # The waiting seat acts; its answer is checked against the truth after the command.
        legal = clients[waiting].get(url(game)).json()["legal"]
        answer = clients[waiting].post(url(game, "commands/"), bot_command(legal), format="json")
        assert answer.status_code == 201
        hands, pile, log = truth(referee, game)
        hidden = hidden_from(waiting, hands, pile, log)
        others_secrets = {s for n, s in secret.items() if n != waiting}
        assert_nothing_hidden_in(
            answer.json(), hidden, others_secrets, f"seat {waiting}'s command answer"
        )

    assert checked_hidden > MOMENTS * 3 * 20


def test_once_the_game_is_over_everyone_sees_everything():
    referee = user_client()
    game = create_game(referee, players=["Ann", "Bob", "Cy"], scoring="none", seed=SEED)
    clients = seats(game)
    for _ in range(3000):
        if play_one(game, clients) is None:
            break
    full = referee.get(url(game)).json()
    assert full["status"] == "finished"
    full_log = referee.get(url(game, "events/")).json()
    hands = [row["hand"] for row in full["seats"]]

    for client in clients:
        view = client.get(url(game)).json()
        assert [row["hand"] for row in view["seats"]] == hands
        assert view["draw_pile"] == full["draw_pile"]
        assert all("secret" not in row for row in view["seats"])
        assert client.get(url(game, "events/")).json() == full_log
        replay = client.get(url(game, "replay/?version=8"))
        assert replay.status_code == 200
        assert replay.json() == referee.get(url(game, "replay/?version=8")).json()
    assert any(e["type"] == "game_started" and e["data"]["seed"] == SEED for e in full_log)
