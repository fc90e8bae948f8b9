"""The event chain: commitments that hide, hashes that link, and signatures only the server makes.

Each event is committed to with a secret salt of its own, and the chain links the commitments:

    commitment = sha256(salt || canonical([data, key]))
    hash       = sha256(canonical(["uno-chain-v2", prev_hash, game, version, batch, type, actor,
                                   commitment]))

A seat sees every ``hash`` and ``commitment`` while the game is on and can check that they link,
but cannot test a guess about a hidden card: without the 128-bit salt every guess is equally
likely to match. The salts are published once the game's hidden information is (the game is
over), and from then on anyone can recompute every commitment and hash.

The last event of each command's batch carries the server's Ed25519 signature of the chain's head
(game, version, hash): a command's receipt. Someone who can write to the database but lacks the
key (CHAIN_SIGNING_KEY, kept outside it) cannot make a chain that verifies. Snapshots carry a
MAC under a key derived from the same secret, so an edited snapshot is never used.

``verify_revealed_log`` and ``verify_receipt`` need neither Django nor the database: they check
the log as the API gives it, the way a seat would. docs/decisions/0006-trusted-record.md has the
design; docs/TRUST.md says what it means for a club.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any
from uuid import UUID

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

GENESIS = "0" * 64  # the prev_hash of a game's first event
SALT_BYTES = 16
_LINK = "uno-chain-v2"
_HEAD = "uno-chain-head-v2"
_SNAPSHOT = "uno-snapshot-v1"


def canonical_json(value: Any) -> str:
    """One spelling of a JSON value: sorted keys, no spaces (what every hash is taken over)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def new_salt() -> str:
    return secrets.token_hex(SALT_BYTES)


def commitment(salt: str, data: Mapping[str, Any], key: str | None) -> str:
    """The salted commitment to an event's data and its command's idempotency key."""
    return hashlib.sha256((salt + canonical_json([data, key])).encode()).hexdigest()


def link_hash(
    *,
    prev_hash: str,
    game_id: UUID | str,
    version: int,
    batch: int,
    type: str,
    actor: str,
    commitment: str,
) -> str:
    """The event's place in the chain: everything public about it and its commitment."""
    payload = [_LINK, prev_hash, str(game_id), version, batch, type, actor, commitment]
    return hashlib.sha256(canonical_json(payload).encode()).hexdigest()


def legacy_hash(
    *,
    prev_hash: str,
    game_id: UUID | str,
    version: int,
    batch: int,
    type: str,
    data: Mapping[str, Any],
    actor: str,
    key: str | None,
) -> str:
    """The hash of events recorded before commitments (no salt): over the data itself. Such
    rows are still verified, and a seat is never shown their hash while the game is on."""
    payload = [prev_hash, str(game_id), version, batch, type, data, actor, key]
    return hashlib.sha256(canonical_json(payload).encode()).hexdigest()


def row_hash(row: Any) -> str:
    """The hash an event row should carry, recomputed from what it records."""
    if not row.commitment:
        return legacy_hash(
            prev_hash=row.prev_hash,
            game_id=row.game_id,
            version=row.version,
            batch=row.batch,
            type=row.type,
            data=row.data,
            actor=row.actor,
            key=row.key,
        )
    return link_hash(
        prev_hash=row.prev_hash,
        game_id=row.game_id,
        version=row.version,
        batch=row.batch,
        type=row.type,
        actor=row.actor,
        commitment=row.commitment,
    )


def command_digest(command: Mapping[str, Any]) -> str:
    """What a command was, to tell a retry of it from another command with the same key."""
    return hashlib.sha256(canonical_json(command).encode()).hexdigest()


# Signing -------------------------------------------------------------------------------------


def head_message(game_id: UUID | str, version: int, head: str) -> bytes:
    """The statement a receipt signs: this game's chain ended at ``version`` with ``head``."""
    return canonical_json([_HEAD, str(game_id), version, head]).encode()


def key_id(public_key_hex: str) -> str:
    """A short name for a public key, written before each signature it made."""
    return hashlib.sha256(bytes.fromhex(public_key_hex)).hexdigest()[:16]


@dataclass(frozen=True)
class Signer:
    """The server's signing key: signs chain heads, MACs snapshots."""

    private: Ed25519PrivateKey
    public_hex: str
    id: str
    mac_key: bytes

    def sign(self, game_id: UUID | str, version: int, head: str) -> str:
        return self.sign_message(head_message(game_id, version, head))

    def sign_message(self, message: bytes) -> str:
        """``key id:hex``: the signature of ``message`` (a statement of the server's, such as
        ``head_message``; a tournament's rulings sign their own)."""
        return f"{self.id}:{self.private.sign(message).hex()}"

    def snapshot_mac(
        self, game_id: UUID | str, version: int, engine_version: int, head: str, state: Any
    ) -> str:
        """``key id:hex``: the key id says which signing key's MAC key made it (after a
        rotation the old snapshots are no longer used, and loads replace them)."""
        digest = hashlib.sha256(canonical_json(state).encode()).hexdigest()
        message = canonical_json([_SNAPSHOT, str(game_id), version, engine_version, head, digest])
        return f"{self.id}:{hmac.new(self.mac_key, message.encode(), hashlib.sha256).hexdigest()}"


@cache
def signer_for(private_key_hex: str) -> Signer:
    seed = bytes.fromhex(private_key_hex)
    private = Ed25519PrivateKey.from_private_bytes(seed)
    public_hex = private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()
    mac_key = hashlib.sha256(b"uno-snapshot-mac-key-v1" + seed).digest()
    return Signer(private, public_hex, key_id(public_hex), mac_key)


def server_signer() -> Signer:
    """The signer of this deployment's key (settings.CHAIN_SIGNING_KEY)."""
    from django.conf import settings

    return signer_for(settings.CHAIN_SIGNING_KEY)


def server_public_keys() -> dict[str, str]:
    """Key id -> public key (hex) of every key whose signatures this deployment accepts: its
    own and the retired ones (settings.CHAIN_RETIRED_KEYS)."""
    from django.conf import settings

    keys = {key_id(public): public for public in settings.CHAIN_RETIRED_KEYS}
    current = server_signer()
    keys[current.id] = current.public_hex
    return keys


def verify_signature(
    public_keys: Mapping[str, str], signature: str, game_id: UUID | str, version: int, head: str
) -> bool:
    """Whether ``signature`` (``key id:hex``) is a signature of this head by one of
    ``public_keys`` (key id -> public key hex)."""
    return verify_message(public_keys, signature, head_message(game_id, version, head))


# What ``signature_problem`` says of a signature by a known key over another message.
NOT_SIGNED = "not what the server signed"


def signature_problem(public_keys: Mapping[str, str], signature: str, message: bytes) -> str | None:
    """Why ``signature`` is not the server's signature of ``message`` ("never signed by the
    server", "signed by key X, which this server does not know ...", "not what the server
    signed"), or None when it is: for a statement the server signs beside the log (a seating,
    a record)."""
    if not signature:
        return "never signed by the server"
    if verify_message(public_keys, signature, message):
        return None
    signer = signature.partition(":")[0]
    if signer and signer not in public_keys:
        return (
            f"signed by key {signer}, which this server does not know (see CHAIN_SIGNING_KEY "
            "and CHAIN_RETIRED_KEYS)"
        )
    return NOT_SIGNED


def verify_message(public_keys: Mapping[str, str], signature: str, message: bytes) -> bool:
    """Whether ``signature`` (``key id:hex``) is a signature of ``message`` by one of
    ``public_keys`` (key id -> public key hex)."""
    kid, _, hex_signature = signature.partition(":")
    public_hex = public_keys.get(kid)
    if public_hex is None:
        return False
    try:
        public = Ed25519PublicKey.from_public_bytes(bytes.fromhex(public_hex))
        public.verify(bytes.fromhex(hex_signature), message)
    except (InvalidSignature, ValueError):
        return False
    return True


# Checking a log as a seat would ---------------------------------------------------------------


def verify_receipt(receipt: Mapping[str, Any], public_keys: Mapping[str, str]) -> bool:
    """Whether a command's receipt carries the server's signature of its head."""
    return verify_signature(
        public_keys, receipt["signature"], receipt["game"], receipt["version"], receipt["head"]
    )


def verify_revealed_log(
    game_id: UUID | str,
    events: Iterable[Mapping[str, Any]],
    public_keys: Mapping[str, str],
    receipts: Iterable[Mapping[str, Any]] = (),
) -> list[str]:
    """What is wrong with a game's log as the events API gives it once the game is over (each
    event with ``data`` (its ``type`` repeated in it is not committed to), ``key``, ``salt``,
    ``commitment``, ``hash``, ``batch`` and the batch's ``signature``), and with ``receipts``
    kept from commands. Empty when it all holds:
    every commitment opens to its data, every hash links, every batch is signed, and every
    receipt names an event of this log by its hash."""
    problems: list[str] = []
    prev = GENESIS
    heads: dict[int, str] = {}
    rows = list(events)
    for i, event in enumerate(rows):
        version = event["version"]
        where = f"version {version}"
        if version != i + 1:
            problems.append(f"{where}: expected version {i + 1}")
            break
        if event.get("salt") is None:
            problems.append(f"{where}: its salt is not published yet")
            break
        data = {name: value for name, value in event["data"].items() if name != "type"}
        if commitment(event["salt"], data, event.get("key")) != event["commitment"]:
            problems.append(f"{where}: the data does not open its commitment")
        expected = link_hash(
            prev_hash=prev,
            game_id=game_id,
            version=version,
            batch=event["batch"],
            type=event["type"],
            actor=event["actor"],
            commitment=event["commitment"],
        )
        if expected != event["hash"]:
            problems.append(f"{where}: the hash does not link to the event before it")
        ends_batch = i + 1 == len(rows) or rows[i + 1]["batch"] != event["batch"]
        if ends_batch and not verify_signature(
            public_keys, event.get("signature") or "", game_id, version, event["hash"]
        ):
            problems.append(f"{where}: the command that ends here is not signed by the server")
        heads[version] = event["hash"]
        prev = event["hash"]
    for receipt in receipts:
        if str(receipt["game"]) != str(game_id):
            problems.append(f"receipt for version {receipt['version']}: another game's")
        elif heads.get(receipt["version"]) != receipt["head"]:
            problems.append(
                f"receipt for version {receipt['version']}: the log has another event there"
            )
        elif not verify_receipt(receipt, public_keys):
            problems.append(f"receipt for version {receipt['version']}: not the server's signature")
    return problems
