"""The record a club can trust (docs/TRUST.md): what a seat reads lets it test no guess about
hidden cards or the seed; once the game is over a seat verifies the whole chain and its receipts
from the API alone; a chain rewritten without the server's key, and an edited snapshot, are
reported; an idempotency key belongs to its caller; a finished game is undone only reopened."""

from __future__ import annotations

import hashlib
import itertools
import json

import pytest
from django.core.management import CommandError

from games import chain, store
from games.models import Event, Game, Snapshot
from rules.variants import get_variant
from tests.games.api_support import (
    bot_command,
    create_game,
    play_one,
    seats,
    url,
    user_client,
)
from tests.games.tampering import tamper, verify

pytestmark = pytest.mark.django_db

CARD_CODES = sorted(set(get_variant("classic").deck))


def guesses_of(shown: dict, full: dict, game_id: str) -> set[str]:
    """Every hash a seat could compute for the full event ``full`` without its salt: the old
    chain's hash over the data, the commitment with no or an empty salt, the link hash over
    such a commitment, and a plain sha256 of the data."""
    key = None
    data = {k: v for k, v in full.items() if k != "type"}
    out = {
        chain.legacy_hash(
            prev_hash=prev,
            game_id=game_id,
            version=shown["version"],
            batch=shown["batch"],
            type=shown["type"],
            data=data,
            actor=shown["actor"],
            key=key,
        )
        for prev in (shown.get("prev_hash") or chain.GENESIS, chain.GENESIS)
    }
    for salt in ("", "0" * 32):
        committed = chain.commitment(salt, data, key)
        out.add(committed)
        out.add(
            chain.link_hash(
                prev_hash=chain.GENESIS,
                game_id=game_id,
                version=shown["version"],
                batch=shown["batch"],
                type=shown["type"],
                actor=shown["actor"],
                commitment=committed,
            )
        )
    out.add(hashlib.sha256(chain.canonical_json(data).encode()).hexdigest())
    return out


def matches(shown: dict, full: dict, game_id: str) -> bool:
    return bool(guesses_of(shown, full, game_id) & {shown["hash"], shown["commitment"]})


def test_a_seats_log_singles_out_no_hidden_card_and_no_small_seed():
    referee = user_client()
    game = create_game(referee, seed=42)  # API.md's own example: a small, guessable seed
    clients = seats(game)
    hidden_draws = []
    for _ in range(40):
        play_one(game, clients)
        log = clients[0].get(url(game, "events/")).json()
        hidden_draws = [e for e in log if e["type"] == "cards_drawn" and e["data"]["cards"] is None]
        if any(e["data"]["count"] <= 2 for e in hidden_draws):
            break
    log = clients[0].get(url(game, "events/")).json()
    assert all(e["salt"] is None and e["key"] is None for e in log)
    assert hidden_draws, "no other seat drew a card: the walk found nothing to guess"

    for shown in hidden_draws:
        count = shown["data"]["count"]
        assert count <= 4
        base = {k: v for k, v in shown["data"].items() if k != "count"}
        candidates = itertools.product(CARD_CODES, repeat=count) if count <= 2 else []
        assert not any(
            matches(shown, {**base, "cards": list(cards)}, game["id"]) for cards in candidates
        )
        # The harness finds the truth as soon as the salt is known: it is the salt that hides.
        row = Event.objects.get(game_id=game["id"], version=shown["version"])
        assert chain.commitment(row.salt, row.data, row.key) == shown["commitment"]

    started = log[0]
    assert "seed" not in started["data"]
    tries = [str(n) for n in range(0, 2000)]
    assert not any(
        matches(started, {**started["data"], "seed": seed, "seed_chosen": True}, game["id"])
        or matches(started, {**started["data"], "seed": seed}, game["id"])
        for seed in tries
    )


def finished_game(scoring: str = "none") -> tuple[dict, list, list[dict]]:
    """A game played to its end through the API by bots; the receipts each command returned."""
    referee = user_client()
    game = create_game(referee, scoring=scoring)
    clients = seats(game)
    receipts = []
    while (played := play_one(game, clients)) is not None:
        receipts.append(played[1]["receipt"])
    return game, clients, receipts


def test_once_the_game_is_over_a_seat_verifies_the_chain_and_its_receipts_from_the_api():
    game, clients, receipts = finished_game()
    keys = {k["id"]: k["public_key"] for k in clients[1].get("/api/chain/keys/").json()["keys"]}

    log = clients[1].get(url(game, "events/")).json()

    assert all(e["salt"] for e in log)
    assert chain.verify_revealed_log(game["id"], log, keys, receipts) == []
    assert all(chain.verify_receipt(r, keys) for r in receipts)
    # A receipt the log does not bear out, and a log changed after the fact, are reported.
    wrong = dict(receipts[3], head="f" * 64)
    assert chain.verify_revealed_log(game["id"], log, keys, [wrong]) == [
        f"receipt for version {wrong['version']}: the log has another event there"
    ]
    changed = [dict(e) for e in log]
    changed[5]["data"] = {**changed[5]["data"], "seat": 9}
    assert "version 6: the data does not open its commitment" in chain.verify_revealed_log(
        game["id"], changed, keys
    )


def test_a_receipt_comes_with_every_command_and_its_signature_checks_with_the_published_key():
    referee = user_client()
    game = create_game(referee)
    clients = seats(game)
    seat, answer = play_one(game, clients)
    receipt = answer["receipt"]
    keys = clients[seat].get("/api/chain/keys/").json()

    assert keys["algorithm"] == "Ed25519" and [k["current"] for k in keys["keys"]] == [True]
    assert receipt["game"] == game["id"] and receipt["version"] == answer["version"]
    assert receipt["head"] == answer["events"][-1]["hash"]
    assert receipt["signature"] == answer["events"][-1]["signature"]
    public = {k["id"]: k["public_key"] for k in keys["keys"]}
    assert chain.verify_receipt(receipt, public)
    assert not chain.verify_receipt(dict(receipt, version=receipt["version"] + 1), public)


def rewrite_from(game_id, version: int, change) -> None:
    """Change event ``version``'s data with ``change`` and recompute its commitment and every
    hash after it, exactly as the chain is made: all a forger without the key can do."""
    rows = list(Event.objects.filter(game_id=game_id).order_by("version"))
    prev = rows[version - 2].hash if version > 1 else chain.GENESIS
    for row in rows[version - 1 :]:
        if row.version == version:
            row.data = change(row.data)
            row.salt = chain.new_salt()
            row.commitment = chain.commitment(row.salt, row.data, row.key)
        row.prev_hash = prev
        row.hash = prev = chain.row_hash(row)
        tamper(
            "UPDATE games_event SET data = %s, salt = %s, commitment = %s, prev_hash = %s,"
            " hash = %s WHERE position = %s",
            [json.dumps(row.data), row.salt, row.commitment, row.prev_hash, row.hash, row.pk],
        )


def test_a_chain_recomputed_without_the_key_is_reported(make_game, play):
    game = make_game()
    play(game, commands=12)
    assert "every chain intact" in verify()
    hand = Event.objects.get(game=game, type="hand_dealt")

    def stack_the_deck(data):
        return {**data, "deck": sorted(data["deck"], key=lambda c: c.startswith("W"))[::-1]}

    rewrite_from(game.pk, hand.version, stack_the_deck)
    # The first signature the forger cannot make: the one of the command that dealt the hand.
    signed = Event.objects.filter(game=game, batch=hand.batch).order_by("-version")[0].version

    with pytest.raises(CommandError, match=f"game {game.pk} version {signed}: the command"):
        verify()


def test_a_chain_signed_with_another_key_is_reported(make_game, play):
    game = make_game()
    play(game, commands=6)
    forger = chain.signer_for("11" * 32)
    last = Event.objects.filter(game=game).order_by("-version").first()
    rewrite_from(game.pk, last.version, lambda data: {**data, "seat": 0})
    last.refresh_from_db()
    tamper(
        "UPDATE games_event SET signature = %s WHERE position = %s",
        [forger.sign(game.pk, last.version, last.hash), last.pk],
    )

    with pytest.raises(CommandError, match="no valid server signature"):
        verify()


def test_an_edited_snapshot_is_never_used_and_is_reported(make_game, play):
    game = make_game()
    play(game, until_version=110)
    snapshot = Snapshot.objects.filter(game=game).order_by("-version").first()
    assert snapshot is not None and snapshot.mac
    truth = store.state_at(game.pk, Game.objects.get(pk=game.pk).version)
    state = dict(snapshot.state)
    hands = [list(h) for h in state["hands"]]
    hands[0] = ["W"] * 7
    state["hands"] = hands
    Snapshot.objects.filter(pk=snapshot.pk).update(state=state)
    store.forget_all()  # a process that starts now, with nothing cached

    loaded, _ = store.load(game.pk)

    assert list(loaded.hands[0]) != ["W"] * 7
    assert loaded.to_dict() == truth.to_dict()
    with pytest.raises(CommandError, match=f"snapshot at version {snapshot.version}: its MAC"):
        verify()


def test_a_snapshot_whose_mac_was_recomputed_is_still_found_by_refolding(make_game, play):
    # Someone with the key but a bug, or a stale engine: verify refolds and compares.
    game = make_game()
    play(game, until_version=110)
    snapshot = Snapshot.objects.filter(game=game).order_by("-version").first()
    state = dict(snapshot.state, scores=[99] * len(snapshot.state["scores"]))
    mac = chain.server_signer().snapshot_mac(
        game.pk, snapshot.version, snapshot.engine_version, snapshot.head, state
    )
    Snapshot.objects.filter(pk=snapshot.pk).update(state=state, mac=mac)

    with pytest.raises(CommandError, match="not what the events replayed to it give"):
        verify()


# Idempotency keys ------------------------------------------------------------------------------


def waiting(game, clients):
    view = clients[0].get(url(game)).json()
    seat = view["pending"]["seat"]
    return seat, clients[seat].get(url(game)).json()["legal"]


def test_two_seats_may_use_the_same_key_and_each_gets_its_own_command_appended():
    referee = user_client()
    game = create_game(referee)
    clients = seats(game)
    first_seat, legal = waiting(game, clients)
    first = clients[first_seat].post(
        url(game, "commands/"), {**bot_command(legal), "key": "1"}, format="json"
    )
    second_seat, legal = waiting(game, clients)
    assert second_seat != first_seat

    second = clients[second_seat].post(
        url(game, "commands/"), {**bot_command(legal), "key": "1"}, format="json"
    )

    assert first.status_code == second.status_code == 201
    assert second.json()["version"] > first.json()["version"]
    assert {e["actor"] for e in second.json()["events"]} == {f"seat:{second_seat}"}


def test_the_same_key_with_another_command_is_a_clash_and_appends_nothing():
    referee = user_client()
    game = create_game(referee)
    clients = seats(game)
    seat, legal = waiting(game, clients)
    sent = {**bot_command(legal), "key": "c-1"}
    first = clients[seat].post(url(game, "commands/"), sent, format="json")
    before = Event.objects.filter(game_id=game["id"]).count()

    again = clients[seat].post(url(game, "commands/"), sent, format="json")
    other = clients[seat].post(
        url(game, "commands/"), {"type": "call_uno", "key": "c-1"}, format="json"
    )

    assert again.status_code == 201 and again.json() == first.json()
    assert other.status_code == 409
    assert other.json()["error"] == "key_clash"
    assert "'c-1' was already used for another command" in other.json()["detail"]
    assert Event.objects.filter(game_id=game["id"]).count() == before


# Seat 0 went down to one card without UNO; seat 1 is to play.
CAUGHT = (
    "classic|players=3|hand=1|dealer=2|pending=turn:1|dir=+|colour=R|discard=G7,R7"
    "|pile=*|hands=R1/B3,R5,YS/W4,G2|exposed=0"
)


def test_a_retry_of_a_catch_recorded_under_the_targets_former_name_is_that_catch():
    # Before the rename a catch was recorded as {"type": "catch", "seat": 0}; its key, retried
    # now as {"type": "catch", "target": 0}, answers what it answered (not a key clash).
    referee = user_client()
    game = referee.post(
        "/api/games/set-up/", {"players": ["Ann", "Bob", "Cy"], "position": CAUGHT}, format="json"
    ).json()
    cy = seats(game)[2]
    first = cy.post(
        url(game, "commands/"), {"type": "catch", "target": 0, "key": "k"}, format="json"
    )
    assert first.status_code == 201, first.content
    recorded = Event.objects.get(game_id=game["id"], key="k")
    assert recorded.command_digest == chain.command_digest({"type": "catch", "target": 0})
    former = chain.command_digest({"type": "catch", "seat": 0})
    tamper(
        f"UPDATE games_event SET command_digest = %s WHERE {Event._meta.pk.column} = %s",
        [former, recorded.pk],
    )
    before = Event.objects.filter(game_id=game["id"]).count()

    again = [
        cy.post(url(game, "commands/"), {"type": "catch", name: 0, "key": "k"}, format="json")
        for name in ("target", "seat")
    ]
    other = cy.post(
        url(game, "commands/"), {"type": "catch", "target": 1, "key": "k"}, format="json"
    )

    assert [r.status_code for r in again] == [201, 201]
    assert [r.json() for r in again] == [first.json()] * 2
    assert other.status_code == 409 and other.json()["error"] == "key_clash"
    assert Event.objects.filter(game_id=game["id"]).count() == before


# Undo of a finished game -----------------------------------------------------------------------


def test_a_finished_game_is_undone_only_when_the_referee_reopens_it_with_a_reason():
    referee = user_client()
    game = create_game(referee, scoring="none")
    clients = seats(game)
    while play_one(game, clients) is not None:
        pass
    finished = referee.get(url(game)).json()
    assert finished["status"] == "finished"
    before = Event.objects.filter(game_id=game["id"]).count()
    to = Event.objects.filter(game_id=game["id"], batch=1).order_by("-version")[0].version

    refused = referee.post(url(game, "undo/"), {"to_version": to, "reason": "x"}, format="json")
    no_reason = referee.post(
        url(game, "undo/"), {"to_version": to, "reason": " ", "reopen": True}, format="json"
    )
    assert refused.status_code == 409 and "reopen" in refused.json()["detail"]
    assert no_reason.status_code == 400 and "reason" in no_reason.json()["detail"]
    assert Event.objects.filter(game_id=game["id"]).count() == before

    reopened = referee.post(
        url(game, "undo/"),
        {"to_version": to, "reason": "Bob's card count was wrong", "reopen": True},
        format="json",
    )

    assert reopened.status_code == 201
    assert referee.get(url(game)).json()["status"] == "playing"
    last = referee.get(url(game, "events/")).json()[-1]
    assert last["type"] == "rewound"
    assert last["data"]["reopened"] is True
    assert last["data"]["reason"] == "Bob's card count was wrong"


def test_a_chosen_seed_is_recorded_and_a_drawn_one_has_128_bits():
    referee = user_client()
    chosen = create_game(referee, seed=42)
    drawn = create_game(referee, seed=None)

    chosen_view = referee.get(url(chosen)).json()
    drawn_log = referee.get(url(drawn, "events/")).json()

    assert chosen_view["seed_chosen"] is True
    assert referee.get(url(chosen, "events/")).json()[0]["data"]["seed_chosen"] is True
    assert referee.get(url(drawn)).json()["seed_chosen"] is False
    seed = drawn_log[0]["data"]["seed"]
    assert len(seed) == 32 and int(seed, 16) >= 0
    assert "seed_chosen" not in drawn_log[0]["data"]


def test_after_a_key_rotation_old_signatures_verify_with_the_retired_key_listed(
    make_game, play, settings
):
    game = make_game()
    play(game, until_version=110)
    old = chain.server_signer()
    settings.CHAIN_SIGNING_KEY = "22" * 32

    with pytest.raises(CommandError, match=f"signed by key {old.id}, which this server"):
        verify()

    settings.CHAIN_RETIRED_KEYS = [old.public_hex]
    assert "every chain intact" in verify()
    # The old snapshots cannot be checked with the new key: they are not used, and a load
    # that folds the events saves one under the new key.
    store.forget_all()
    loaded, version = store.load(game.pk)
    newest = Snapshot.objects.filter(game=game).order_by("-version").first()
    assert newest.mac.startswith(chain.server_signer().id + ":")
    assert loaded.to_dict() == store.state_at(game.pk, version).to_dict()


def make_legacy(game_id, *, start: int = 1, forge: bool = False) -> None:
    """Rewrite a game's log from version ``start`` on as it was recorded before commitments
    (plain hashes over data); ``forge``: each event's data changed too."""
    rows = list(Event.objects.filter(game_id=game_id).order_by("version"))
    prev = rows[start - 2].hash if start > 1 else chain.GENESIS
    for row in rows[start - 1 :]:
        if forge:
            row.data = {**row.data, "forged": True}
        row.salt = row.commitment = row.signature = ""
        row.prev_hash = prev
        row.hash = prev = chain.row_hash(row)
        tamper(
            "UPDATE games_event SET salt = '', commitment = '', signature = '', prev_hash = %s,"
            " hash = %s WHERE position = %s",
            [row.prev_hash, row.hash, row.pk],
        )
        if forge:  # (PostgreSQL only)
            tamper(
                "UPDATE games_event SET data = %s::jsonb WHERE position = %s",
                [chain.canonical_json(row.data), row.pk],
            )


def test_a_log_from_before_commitments_verifies_only_when_allowed_and_hides_its_hashes():
    referee = user_client()
    game = create_game(referee)
    clients = seats(game)
    for _ in range(4):
        play_one(game, clients)
    make_legacy(game["id"])

    with pytest.raises(CommandError, match="recorded without a commitment"):
        verify()
    allowed = verify("--allow-unsigned")
    log = clients[0].get(url(game, "events/")).json()

    assert "every chain intact" in allowed
    assert all(e["hash"] is None for e in log)
    assert referee.get(url(game, "events/")).json()[0]["hash"] is not None


@pytest.mark.postgres
def test_a_signed_games_end_rewritten_as_from_before_commitments_is_found_even_when_allowed():
    """Only the start of a log can be from before the upgrade: an unsigned event after a
    signed one is a rewrite by someone without the signing key."""
    referee = user_client()
    game = create_game(referee)
    clients = seats(game)
    for _ in range(6):
        play_one(game, clients)
    last_batch = Event.objects.filter(game_id=game["id"]).order_by("-version").first().batch
    make_legacy(game["id"], start=last_batch, forge=True)

    with pytest.raises(CommandError, match="after version 1 was signed"):
        verify("--allow-unsigned")


def test_a_game_from_before_commitments_played_on_after_the_upgrade_verifies_when_allowed():
    referee = user_client()
    game = create_game(referee)
    clients = seats(game)
    for _ in range(3):
        play_one(game, clients)
    make_legacy(game["id"])
    store.forget_all()
    for _ in range(3):
        play_one(game, clients)  # recorded with commitments and signatures, after the old part

    assert Event.objects.filter(game_id=game["id"]).exclude(commitment="").exists()
    assert "every chain intact" in verify("--allow-unsigned")
