"""A tournament's rulings as a signed chain, as a game's events are (``games.chain``).

Each ruling is numbered in its tournament (1, 2, 3 …) and links to the one before it:

    link      = sha256(canonical(["uno-ruling-v1", previous link, tournament, number, round,
                                  table, kind, reason, players, by, made at]))
    signature = the server's Ed25519 signature of canonical(["uno-ruling-head-v1", tournament,
                                                             number, link])

The append-only triggers keep a ruling from being changed through the service; the chain finds
what someone who lifted them did without the signing key: a ruling changed (its link no longer
matches), one taken out of the middle (a number missing, the next link wrong), one added or
renumbered (no signature of the server matches). As with a game's log, the newest rulings cut
off the end are not found by the rulings alone: the tables they decided are, by
``verification``, since a table decided by a ruling must have one.

``record`` is the only way a ruling is made: every decision of a director, every seat ruled
absent, every result withdrawn. Migration ``tournaments/0011`` signed the rulings recorded
before, as they stood when the service was upgraded.

The tournament's detail in the API gives each ruling's number, link and signature with every
field the link is taken over, so a club checks its rulings from the API's answers alone
(``published_problems``), as a seat checks a finished game's log.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from games.chain import GENESIS, canonical_json, server_signer, verify_message

_LINK = "uno-ruling-v1"
_HEAD = "uno-ruling-head-v1"


def moment(when: datetime) -> str:
    """A ruling's time, spelled one way (UTC, to the microsecond) whatever the database gives
    back."""
    return when.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def link(
    previous: str,
    *,
    tournament_id: int,
    sequence: int,
    round_number: int,
    table_number: int | None,
    kind: str,
    reason: str,
    players: Any,
    by_id: int | None,
    created_at: datetime,
) -> str:
    """The hash that ties a ruling's every field to the ruling before it (``previous``: that
    one's link, ``GENESIS`` for a tournament's first)."""
    fields = [
        _LINK,
        previous,
        tournament_id,
        sequence,
        round_number,
        table_number,
        kind,
        reason,
        players,
        by_id,
        moment(created_at),
    ]
    return hashlib.sha256(canonical_json(fields).encode()).hexdigest()


def head_message(tournament_id: int, sequence: int, link_hash: str) -> bytes:
    """What the server signs of a ruling: this tournament's rulings ended at ``sequence`` with
    ``link_hash``."""
    return canonical_json([_HEAD, tournament_id, sequence, link_hash]).encode()


def link_of(row: Any, previous: str) -> str:
    """``link`` of a ruling row (a model instance or anything with its attributes)."""
    return link(
        previous,
        tournament_id=row.tournament_id,
        sequence=row.sequence,
        round_number=row.round_number,
        table_number=row.table_number,
        kind=row.kind,
        reason=row.reason,
        players=row.players,
        by_id=row.by_id,
        created_at=row.created_at,
    )


def seal(row: Any, sequence: int, previous: str, signer: Any) -> None:
    """Number ``row`` (a ruling not saved yet, or one of the migration's), link it to
    ``previous`` and sign it with ``signer``, in place."""
    row.sequence = sequence
    row.link = link_of(row, previous)
    row.signature = signer.sign_message(head_message(row.tournament_id, sequence, row.link))


def sign_chain(rows: Sequence[Any], signer: Any) -> None:
    """Seal ``rows`` (one tournament's rulings, in the order they were made) from the first:
    the migration's work for the rulings made before rulings were signed."""
    previous = GENESIS
    for sequence, row in enumerate(rows, start=1):
        seal(row, sequence, previous, signer)
        previous = row.link


def record(
    tournament: Any,
    *,
    round_number: int,
    kind: str,
    reason: str,
    table_number: int | None = None,
    players: Sequence[str] = (),
    by: Any = None,
) -> Any:
    """Append a ruling to ``tournament``'s, numbered, linked and signed. The caller holds the
    tournament's row lock (every service that rules does, in its transaction), so two rulings
    never take one number; the numbers' unique constraint would refuse it anyway."""
    from tournaments.brackets.models import Ruling  # (the migration imports this module)

    last = (
        Ruling.objects.filter(tournament_id=tournament.pk)
        .order_by("-sequence")
        .values_list("sequence", "link")
        .first()
    )
    sequence, previous = (last[0] + 1, last[1]) if last else (1, GENESIS)
    ruling = Ruling(
        tournament=tournament,
        round_number=round_number,
        table_number=table_number,
        kind=kind,
        reason=reason,
        players=list(players),
        by=by,
    )
    seal(ruling, sequence, previous, server_signer())
    ruling.save(force_insert=True)
    return ruling


def chain_problems(rows: Iterable[Any], public_keys: Mapping[str, str]) -> list[str]:
    """What is wrong with one tournament's rulings (in the order of their numbers), each said
    of the ruling where it is found: a number missing or out of place, a ruling that is not
    what was signed, a signature that is not the server's."""
    problems = []
    previous = GENESIS
    expected = 1
    for row in rows:
        what = f"ruling {row.sequence} ({kind_words(row.kind)}, round {row.round_number}"
        what += f", table {row.table_number})" if row.table_number is not None else ")"
        if row.sequence != expected:
            missing = (
                f"ruling {expected} is missing"
                if row.sequence > expected
                else f"ruling {row.sequence} is recorded twice"
            )
            problems.append(f"{missing}: the rulings go on with {what}")
            return problems  # (every later link is off by the same gap)
        made = link_of(row, previous)
        if made != row.link:
            problems.append(
                f"{what} is not the ruling that was recorded: its reason, players, maker or "
                "time were changed, or a ruling before it was"
            )
            return problems
        if not row.signature or not verify_message(
            public_keys, row.signature, head_message(row.tournament_id, row.sequence, row.link)
        ):
            problems.append(f"{what} does not carry the server's signature")
            return problems
        previous = row.link
        expected += 1
    return problems


def kind_words(kind: str) -> str:
    """A kind of ruling as the rulings' problems name it ("table reopened", "no-show")."""
    from tournaments.brackets.models import Ruling

    try:
        return str(Ruling.Kind(kind).label).lower()
    except ValueError:
        return str(kind)


@dataclass(frozen=True)
class Published:
    """A ruling as the tournament's detail in the API gives it, under the names of a ruling's
    row, so ``chain_problems`` checks it as it checks the rows."""

    tournament_id: int
    sequence: int
    round_number: int
    table_number: int | None
    kind: str
    reason: str
    players: list[str]
    by_id: int | None
    created_at: datetime
    link: str
    signature: str


def published(tournament: Mapping[str, Any]) -> list[Published]:
    """The rulings of a tournament's detail (``GET /api/tournaments/{id}/``), in its order.
    Raises ``ValueError`` naming the first ruling the answer does not give in full."""
    from tournaments.templatetags.league_pages import ordinal

    out = []
    for i, ruling in enumerate(tournament["rulings"], start=1):
        try:
            at = ruling["at"]
            out.append(
                Published(
                    tournament_id=tournament["id"],
                    sequence=ruling["number"],
                    round_number=ruling["round"],
                    table_number=ruling["table"],
                    kind=ruling["kind"],
                    reason=ruling["reason"],
                    players=list(ruling["players"]),
                    by_id=ruling["made_by"],
                    created_at=datetime.fromisoformat(at) if isinstance(at, str) else at,
                    link=ruling["link"],
                    signature=ruling["signature"],
                )
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"the {ordinal(i)} ruling is not given in full ({exc})") from exc
    return out


def published_problems(tournament: Mapping[str, Any], public_keys: Mapping[str, str]) -> list[str]:
    """What is wrong with a tournament's rulings as the API gives them, checked with the
    server's public keys (``GET /api/chain/keys/``: key id -> public key): a number missing or
    out of place, a ruling that is not the one recorded (a field changed, or a ruling before
    it), a signature that is not the server's. Empty when every ruling is the one the server
    signed, numbered from 1 with none missing. The newest rulings cut off the end leave no
    gap: keep the detail as it stood when a dispute may need it, as a seat keeps receipts."""
    try:
        rows = published(tournament)
    except (KeyError, TypeError, ValueError) as exc:
        return [f"the tournament's rulings cannot be read: {exc}"]
    return chain_problems(rows, public_keys)
