"""What one append writes, made the same way by both of the store's paths: the log rows of the
events (committed to, chained and signed: games.chain), the snapshot the policy asks for, and
what happens once it has committed (the process's caches, the listeners, the tables' live
updates)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any
from uuid import UUID

from django.db import transaction
from django.db.models.base import ModelState
from django.utils import timezone

from games import chain, live, registry, state_cache
from games.models import Event, Game, Snapshot
from rules import ENGINE_VERSION, GameState
from rules.events import Event as RuleEvent
from rules.events import GameEnded, Rewound

log = logging.getLogger(__name__)

SNAPSHOT_EVERY = 100  # events; also at the end of a game and right after a rewind

# The log's columns an append writes (both paths write them in SQL: the append runs on every
# command, and building it through the ORM cost more than running it).
EVENT_COLUMNS = (
    *("game_id", "version", "batch", "type", "data", "actor", "key", "recorded_at"),
    *("hash", "prev_hash", "salt", "commitment", "signature", "command_digest"),
)


def stored_data(event: RuleEvent) -> dict[str, Any]:
    """An engine event as stored in ``Event.data`` (its JSON shape; the type has a column)."""
    data = event.to_dict()
    del data["type"]
    return data


class KeyUsed(Exception):
    """The caller used the idempotency key before, for the command (``digest``) that appended
    from ``version``."""

    def __init__(self, version: int, digest: str = "") -> None:
        super().__init__(f"key used by the command appended from version {version}")
        self.version = version
        self.digest = digest


@dataclass(frozen=True, slots=True)
class Append:
    """What one append writes: ``events`` after version ``expected``, for ``actor``'s command
    with idempotency ``key`` and command ``digest``."""

    game_id: UUID | str
    expected: int
    events: Sequence[RuleEvent]
    actor: str
    key: str | None
    digest: str


def make_rows(append: Append, prev: str) -> list[Event]:
    """The log rows of the append, chained from ``prev`` (the hash of the event at the
    expected version): each committed to with a salt of its own, the last one signed."""
    now = timezone.now()
    batch = append.expected + 1
    game_id, actor = append.game_id, append.actor
    rows = []
    for i, event in enumerate(append.events):
        key = append.key if i == 0 else None
        data = stored_data(event)
        salt = chain.new_salt()
        committed = chain.commitment(salt, data, key)
        hash_ = chain.link_hash(
            prev_hash=prev,
            game_id=game_id,
            version=batch + i,
            batch=batch,
            type=event.type,
            actor=actor,
            commitment=committed,
        )
        rows.append(
            new_row(
                position=None,
                game_id=game_id,
                version=batch + i,
                batch=batch,
                type=event.type,
                data=data,
                actor=actor,
                key=key,
                recorded_at=now,
                prev_hash=prev,
                hash=hash_,
                salt=salt,
                commitment=committed,
                signature="",
                command_digest=append.digest if i == 0 else "",
                rule_event=event,  # what Event.to_rules_event gives without decoding
            )
        )
        prev = hash_
    last = rows[-1]
    last.signature = chain.server_signer().sign(game_id, last.version, last.hash)
    return rows


def new_row(**values: Any) -> Event:
    """An unsaved ``Event`` with these field values: what ``Event(**values)`` makes, without
    the cost of ``Model.__init__`` (which runs for every event appended)."""
    row = Event.__new__(Event)
    row.__dict__.update(values)
    row._state = ModelState()
    return row


def wants_snapshot(before: int, after: int, events: Sequence[RuleEvent]) -> bool:
    if before // SNAPSHOT_EVERY != after // SNAPSHOT_EVERY:
        return True
    return any(type(e) is Rewound or type(e) is GameEnded for e in events)


def snapshot_row(game_id: UUID | str, state: GameState, head: str) -> Snapshot:
    data = state.to_dict()
    mac = chain.server_signer().snapshot_mac(game_id, state.version, ENGINE_VERSION, head, data)
    return Snapshot(
        game_id=game_id,
        version=state.version,
        engine_version=ENGINE_VERSION,
        state=data,
        head=head,
        mac=mac,
    )


def committed(game: Game, rows: list[Event], state: GameState, *, already: bool = False) -> None:
    """Once the append commits: cache the state and the log's new end, and hand the append to
    the listeners (a listener's error is logged; the append stands). ``already``: it committed
    with its own statement, so all of it runs now, without ``on_commit``'s bookkeeping (this
    is on every command's path)."""
    last = rows[-1]
    remember = (
        partial(state_cache.remember, game.pk, state),
        partial(
            state_cache.remember_head, game.pk, state_cache.Head(last.version, last.hash, game)
        ),
    )
    if not already:
        for step in remember:
            transaction.on_commit(step)
        # The tables' live updates where appends say no NOTIFY (the embedded SQLite default),
        # before the listeners (the bots' turns) run.
        transaction.on_commit(partial(live.publish_committed, game, rows), robust=True)
        for listener in registry.on_game_event:
            transaction.on_commit(partial(listener, game, rows), robust=True)
        return
    for step in remember:
        step()
    for listener in registry.on_game_event:
        try:
            listener(game, rows)
        except Exception:
            log.exception("listener %r failed after an append to %s", listener, game.pk)
