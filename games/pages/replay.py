"""The replay viewer's context: the game at any version with every hand visible, for its
referee (or anyone once the game is over and revealed: games.visibility), each Wild Draw 4
judged, and whether undo may go back there."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from itertools import takewhile
from typing import Any

from games import services
from games.models import Dispute, Event, Game
from games.pages.faces import CardFace, card_face
from games.pages.narration import QUIET, Namer, colour_word, event_text
from games.pages.table import SeatRow, edition_lines, status_text
from games.pages.viewers import Viewer
from rules.cards import card_info
from rules.variants import get_variant
from rules.views import game_view

REPLAY_WINDOW = 6  # events either side of the one shown


def actor_words(actor: str, names: list[str]) -> str:
    """Who caused an event or opened a dispute, in players' words: a seat's player, a signed-in
    user's name, or the game itself (a deal, a timer) for the system; never "seat:3"."""
    kind, _, ident = actor.partition(":")
    if kind == "seat" and ident.isdigit() and int(ident) < len(names):
        return names[int(ident)]
    if kind == "user" and ident.isdigit():
        from django.contrib.auth import get_user_model

        user = get_user_model().objects.filter(pk=int(ident)).first()
        return user.get_username() if user is not None else "a signed-in user"
    if actor == services.SYSTEM:
        return "the game itself"
    return "someone"


@dataclass
class WildDrawFour:
    """A Wild Draw 4 as the replay judges it: legal, or a bluff with its evidence."""

    version: int
    seat: int
    player: str
    colour: str | None
    evidence: list[CardFace]
    outcome: str  # "challenged: guilty", "challenged: innocent", "accepted", ""
    hand: int = 1  # the hand it was played in

    @property
    def bluff(self) -> bool:
        return bool(self.evidence)

    @property
    def colour_word(self) -> str:
        return colour_word(self.colour)


def wild_draw_fours(game: Game, rows: list[Event], names: list[str]) -> dict[int, WildDrawFour]:
    """Every Wild Draw 4 played, by version: legal or a bluff, with the cards of the colour in
    play the player held (from the challenge when there was one, else worked out from the
    state before the play)."""
    out: dict[int, WildDrawFour] = {}
    last: WildDrawFour | None = None
    dealt = 1  # the hand being played
    for row in rows:
        if row.type == "hand_dealt":
            dealt = row.data["hand"]
        if row.type == "card_played" and row.data.get("card") == "W4":
            before = services.state_at(game_id=game.pk, version=row.version - 1)
            seat = row.data["seat"]
            hand = list(before.hands[seat])
            hand.remove("W4")
            colour = before.colour
            evidence = [card_face(c) for c in hand if colour and card_info(c).colour == colour]
            last = WildDrawFour(row.version, seat, names[seat], colour, evidence, "", dealt)
            out[row.version] = last
        elif row.type == "challenge_resolved" and last is not None:
            evidence = row.data.get("evidence") or []
            last.evidence = [card_face(c) for c in evidence]
            last.colour = row.data.get("colour", last.colour)
            last.outcome = "challenged: " + ("a bluff" if row.data["guilty"] else "legal")
            last = None
        elif row.type == "wild_draw_four_accepted" and last is not None:
            last.outcome = "accepted without a challenge"
            last = None
    return out


RECENT_MOVES = 5  # the moves before a disputed one that its ruling offers to go back to
MOVE_WORDS = 90  # the most characters of a move in a ruling's choice of moments


@dataclass
class Moment:
    """A moment a ruling may take the game back to (a version the game rested at), said by
    what happened there."""

    version: int
    label: str


def _command_words(events: list[dict[str, Any]], version: int) -> str:
    """The command whose events include ``version``, in words: its events that say something
    ("Hal drew yellow reverse. Hal kept the card and passed."), shortened when long."""
    batch = events[version - 1]["batch"]
    own = list(takewhile(lambda e: e["batch"] == batch, events[batch - 1 :]))
    words = " ".join(e["text"] for e in own if not e["quiet"]) or own[0]["text"]
    return words if len(words) <= MOVE_WORDS else words[: MOVE_WORDS - 1].rstrip() + "…"


def ruling_moments(
    events: list[dict[str, Any]],
    disputed: int,
    *,
    shown: int | None = None,
    sent: int | None = None,
) -> list[Moment]:
    """The moments a ruling on the event ``disputed`` offers to undo to, each said by what
    happened (a long game has hundreds of events: a choice of them all is no use at a table):
    the moment the replay ``shown``, just before the disputed move, the few moves before it,
    the start of its hand, and the moment a refused ruling ``sent``. Only versions the game
    rested at, before its last event, as ``services.undo`` takes them; any other moment is
    reached by stepping to it in the replay."""
    last = len(events)
    moments: list[Moment] = []

    def offer(version: int | None, label: str) -> None:
        if (
            version is not None
            and 1 <= version < last
            and events[version - 1]["rested"]
            and all(m.version != version for m in moments)
        ):
            moments.append(Moment(version, label))

    if not 1 <= disputed <= last:
        return moments
    if shown is not None and 1 <= shown < last:
        offer(shown, f"Shown in the replay, just after: {_command_words(events, shown)}")
    before = events[disputed - 1]["batch"] - 1  # the end of the command before the disputed one
    dealt = next((e for e in reversed(events[:disputed]) if e["type"] == "hand_dealt"), None)
    # The hand as dealt: the end of the command that dealt it, where play was to begin.
    start = None
    if dealt is not None:
        start = next((e["version"] for e in events[dealt["version"] - 1 :] if e["rested"]), None)
    offer(before, f"Just before the disputed move: {_command_words(events, disputed)}")
    recent = [
        e["version"]
        for e in reversed(events[: max(before - 1, 0)])
        if e["rested"] and (start is None or e["version"] > start)
    ]
    for version in recent[:RECENT_MOVES]:
        offer(version, f"Just after: {_command_words(events, version)}")
    if dealt is not None:
        offer(start, f"The start of the hand: {dealt['text']}")
    if sent is not None and 1 <= sent < last:
        offer(sent, f"Just after: {_command_words(events, sent)}")
    return moments


def _whole(value: Any) -> int | None:
    """A number a form sent, or None for anything else."""
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def replay_context(
    game: Game, viewer: Viewer, version: int | None, ruling: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The replay viewer at ``version``: the state with every hand visible, the events around
    it, every Wild Draw 4 judged, the disputes (each open one with the moments its ruling may
    undo to), and whether undo may go back to it. ``ruling``: a refused ruling, shown again in
    its dispute's form as it was sent."""
    rows = list(Event.objects.filter(game=game).order_by("version"))
    last = rows[-1].version if rows else 0
    version = last if version is None else max(1, min(version, last))
    seats = list(game.seats.all())
    names = [s.player for s in seats]
    name = Namer(names)
    state = services.state_at(game_id=game.pk, version=version)
    view = game_view(state, None, referee=True)
    events = []
    w4s = wild_draw_fours(game, rows, names)
    first_start = next((r.version for r in reversed(rows) if r.batch == 1), 0)
    hand = 1
    for i, row in enumerate(rows):
        data = {**row.data, "type": row.type}
        hand = row.data["hand"] if row.type == "hand_dealt" else hand
        rested = i + 1 < len(rows) and rows[i + 1].batch == rows[i + 1].version
        events.append(
            {
                "version": row.version,
                "batch": row.batch,
                "type": row.type,
                "text": event_text(data, name, game.variant),
                "actor": row.actor,
                "by": actor_words(row.actor, names),
                "quiet": row.type in QUIET,
                "w4": w4s.get(row.version),
                "rested": rested and row.version >= first_start,
                "recorded_at": row.recorded_at,
                "hand": hand,
            }
        )
    current = events[version - 1] if events else None
    lo = max(0, version - 1 - REPLAY_WINDOW)
    rows_view = [
        SeatRow(
            seat=r["seat"],
            name=seats[r["seat"]].player,
            bot=seats[r["seat"]].bot,
            you=False,
            card_count=r["card_count"],
            score=r["score"],
            turn=state.pending[1] == r["seat"] and state.pending[0] not in ("over", "hand_over"),
            dealer=state.dealer == r["seat"],
            uno=r["card_count"] == 1,
            exposed=bool(r.get("uno_exposed")),
            hand=[card_face(c) for c in r.get("hand", [])],
        )
        for r in view["seats"]
    ]
    disputes = []
    for d in Dispute.objects.filter(game=game).order_by("pk"):
        moments = []
        if d.status == Dispute.Status.OPEN:
            sent = ruling.get("undo_to") if ruling and ruling.get("pk") == d.pk else None
            moments = ruling_moments(events, d.version, shown=version, sent=_whole(sent))
        disputes.append(
            {
                "d": d,
                "by": actor_words(d.opened_by, names),
                "moments": moments,
                # What it is about, and where an undo took play back to, in words.
                "about": events[d.version - 1] if 1 <= d.version <= len(events) else None,
                "back_to": _command_words(events, d.undo_to)
                if d.undo_to is not None and 1 <= d.undo_to <= len(events)
                else None,
            }
        )
    top = state.top
    return {
        "game": game,
        "viewer": viewer,
        "version": version,
        "last": last,
        "prev": max(1, version - 1),
        "next": min(last, version + 1),
        "state": state,
        "variant_title": get_variant(game.variant).title,
        "seats": rows_view,
        "top": card_face(top) if top else None,
        "colour": state.colour,
        "colour_word": colour_word(state.colour) if state.colour else "",
        "direction_word": "clockwise" if state.direction == 1 else "counter-clockwise",
        "draw_pile": [card_face(c) for c in view.get("draw_pile", [])[:10]],
        "draw_pile_count": view["draw_pile_count"],
        "status_text": status_text(state, name, None) if state.players else "",
        "current": current,
        "nearby": events[lo : version + REPLAY_WINDOW],
        "events": events,
        "w4s": list(w4s.values()),
        "disputes": disputes,
        "open_disputes": [x for x in disputes if x["d"].status == Dispute.Status.OPEN],
        "ruling": ruling,
        "can_undo": bool(current and current["rested"] and version < last),
        # A fresh key each time the undo form is shown: the same form sent twice undoes once.
        "undo_key": secrets.token_hex(12),
        # Every hand was shown at the end: undoing a finished game reopens it (services.undo).
        "must_reopen": game.status == Game.Status.FINISHED and not game.sheet,
        "edition": edition_lines(state, view.get("edition") or {}, name),
    }
