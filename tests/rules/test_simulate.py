"""The simulator's contract: its JSON, its checks and its digest."""

import json
from random import Random

from rules.simulate import main, run, seat_order


def test_the_simulator_prints_one_json_object_with_the_contracted_fields(capsys):
    assert (
        main(["--variant", "classic", "--players", "4", "--hands", "20", "--seed", "7", "--json"])
        == 0
    )
    out = json.loads(capsys.readouterr().out)
    for key in (
        "variant",
        "players",
        "hands",
        "seed",
        "events",
        "seconds",
        "hands_per_second",
        "events_per_second",
        "invariant_violations",
        "replay_mismatches",
        "digest",
    ):
        assert key in out
    assert out["hands"] == 20 and out["players"] == 4 and out["variant"] == "classic"
    assert out["invariant_violations"] == 0 and out["replay_mismatches"] == 0


def test_the_same_seed_gives_the_same_digest_and_another_seed_another():
    a = run("classic", 3, "7", hands=15)
    b = run("classic", 3, "7", hands=15)
    c = run("classic", 3, "8", hands=15)
    assert a.digest == b.digest and a.events == b.events
    assert a.digest != c.digest


def test_fast_mode_plays_the_same_game_without_the_checks():
    checked = run("classic", 2, "5", hands=10)
    fast = run("classic", 2, "5", hands=10, checks=False)
    assert fast.digest == checked.digest
    assert fast.as_dict()["checks"] is False


def test_whole_games_are_played_to_the_target():
    report = run("classic", 3, "9", games=2, target=200)
    assert report.games == 2 and report.hands >= 2


def test_a_broken_engine_is_reported_as_a_violation(monkeypatch):
    from rules import engine

    original = engine.APPLY[engine.CardsDrawn]

    def drop_a_card(s, e):
        original(s, e)
        if e.cards:
            hands = list(s.hands)
            hands[e.seat] = hands[e.seat][:-1]  # a card vanishes
            s.hands = tuple(hands)

    monkeypatch.setitem(engine.APPLY, engine.CardsDrawn, drop_a_card)
    report = run("classic", 2, "3", hands=2)
    assert report.invariant_violations > 0


def test_seats_look_out_of_turn_in_the_order_random_sample_gives():
    # Recorded simulations stay the same: the order is the one ``Random.sample`` draws, and
    # the generator is left where ``sample`` leaves it.
    for players in range(2, 11):
        for seed in range(200):
            ours, sampled = Random(f"order:{seed}"), Random(f"order:{seed}")
            assert seat_order(ours, players) == sampled.sample(range(players), players)
            assert ours.random() == sampled.random()
