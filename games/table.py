"""What the table page and the replay viewer show, built from the store and ``rules.views``.

A seat's page is built from ``rules.views.game_view(state, seat)`` and ``event_view``, so it
holds only what that seat may know: its own hand, the others' card counts, a redacted log. The
replay viewer (a referee's, or anyone's once the game is over and revealed: games.visibility)
sees everything. This module also turns a button press on the table page into one command
(``send_from_table``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

from games import services
from games.models import Dispute, Event, Game, Seat
from games.visibility import is_revealed
from games.words import (
    PENDING_WORDS,
    QUIET,
    YOUR_MOVE,
    Namer,
    colour_word,
    command_text,
    event_text,
)
from rules import GameState, command_from_dict, legal_commands
from rules.cards import COLOUR_NAMES, card_info, describe
from rules.variants import get_variant
from rules.views import event_view, game_view

LOG_SIZE = 8  # events in words on the table page
REPLAY_WINDOW = 6  # events either side of the one shown in the replay viewer
CARD_COMMANDS = frozenset({"play", "discard", "keep", "keep_card"})  # a card of the hand
UNO_COMMANDS = frozenset({"play", "keep", "keep_card", "wheel_discard"})
DISCARD_KINDS = frozenset(
    {"almost_uno", "discard_number", "discard_colour", "war_discard", "uno_spin_discard"}
)
COLOUR_ORDER = {c: i for i, c in enumerate("RGBYPO")}
RANK_ORDER = {
    r: i
    for i, r in enumerate(
        ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "S", "V", "D1", "D2", "G2"]
    )
}
SYMBOLS = {
    "S": "⊘",
    "V": "⇄",
    "D1": "+1",
    "D2": "+2",
    "G2": "G2",
    "W": "W",
    "W4": "+4",
    "WM": "MOD",
    "WC": "WC",
    "WG": "WG",
}


# Cards ------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CardFace:
    """A card as the page draws it: its colour class, big symbol, code and words."""

    code: str
    colour: str  # a colour letter, or "W" for a wild
    symbol: str
    label: str
    mark: str  # "↻" for a Spin card, the Power Icon letter, or ""

    @property
    def colour_name(self) -> str:
        return COLOUR_NAMES.get(self.colour, "wild")


def card_face(code: str) -> CardFace:
    info = card_info(code)
    symbol = SYMBOLS.get(info.rank, info.rank)
    mark = "↻" if info.mark == "~" else (info.mark or "")
    return CardFace(code, info.colour or "W", symbol, describe(code), mark)


def sort_key(code: str) -> tuple[int, int, str]:
    info = card_info(code)
    if info.colour is None:
        return (len(COLOUR_ORDER), 0, code)
    return (COLOUR_ORDER[info.colour], RANK_ORDER.get(info.rank, 99), code)


def as_value(data: dict[str, Any]) -> str:
    """A command's JSON shape as a button's value (compact, keys sorted: one spelling)."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def _without_uno(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k != "uno"}


# Who is looking ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who looks at a game: one of its seats (``seat``), its referee, both or neither."""

    seat: int | None
    referee: bool
    actor: str

    @property
    def player(self) -> bool:
        return self.seat is not None


# The table page ---------------------------------------------------------------------------------


@dataclass
class HandCard:
    face: CardFace
    id: str
    value: str = ""  # the command's JSON when one press plays it
    pick: bool = False  # several ways to play it: the press asks which
    selectable: bool = False  # a wheel discard: a checkbox


@dataclass
class Button:
    label: str
    value: str
    kind: str
    colour: str = ""  # a colour choice's letter (drawn as a swatch beside the word)


@dataclass
class SeatRow:
    seat: int
    name: str
    bot: bool
    you: bool
    card_count: int
    score: int
    turn: bool
    dealer: bool
    uno: bool
    exposed: bool
    hand: list[CardFace] | None
    badges: list[str] = field(default_factory=list)

    @property
    def backs(self) -> range:
        """Card backs to draw for the count (a dozen at most; the number says the rest)."""
        return range(min(self.card_count, 12))


def table_context(
    game: Game,
    viewer: Viewer,
    *,
    pick: str | None = None,
    error: str = "",
    dispute_version: int | None = None,
) -> dict[str, Any]:
    """Everything the table page shows ``viewer`` (a seat sees only what it may know)."""
    state = services.load_game(game_id=game.pk)
    revealed = state.finished and is_revealed(game)
    seats = list(game.seats.all())
    names = [s.player for s in seats]
    name = Namer(names, viewer.seat)
    # A seat sees its own hand only, even when it also referees the game (the creator of a
    # quick game): refereeing is done in the replay viewer.
    view = game_view(
        state, viewer.seat, referee=viewer.referee and viewer.seat is None, revealed=revealed
    )
    kind, pseat = state.pending
    rows = _seat_rows(state, view, seats, viewer, name)
    legal = legal_commands(state, viewer.seat) if viewer.seat is not None else []
    legal_dicts = [c.to_dict() for c in legal]
    hand_cards: list[HandCard] = []
    if viewer.seat is not None:
        hand_cards = _hand(state.hands[viewer.seat], legal_dicts, kind)
    pick_options = _pick_options(pick, legal_dicts, name) if pick else []
    actions = _actions(legal_dicts, name)
    top = state.top
    edition = view.get("edition") or {}
    return {
        "game": game,
        "state": state,
        "view": view,
        "version": state.version,
        "variant_title": get_variant(state.variant).title,
        "viewer": viewer,
        "you": viewer.seat,
        "you_name": names[viewer.seat] if viewer.seat is not None else "",
        "seats": rows,
        "top": card_face(top) if top else None,
        "colour": state.colour,
        "colour_word": colour_word(state.colour) if state.colour else "",
        "direction_word": "clockwise" if state.direction == 1 else "counter-clockwise",
        "draw_pile_count": view["draw_pile_count"],
        "status_text": status_text(state, name, viewer.seat),
        "your_turn": viewer.seat is not None and pseat == viewer.seat and bool(legal),
        "hand": hand_cards,
        "drawn": card_face(state.drawn)
        if kind == "drawn" and pseat == viewer.seat and state.drawn
        else None,
        "discarding": viewer.seat is not None and pseat == viewer.seat and kind in DISCARD_KINDS,
        "discard_wild_top": any(card_info(c).is_wild for c in state.hands[viewer.seat])
        if viewer.seat is not None and state.hands
        else False,
        "colours": [(c, colour_word(c)) for c in get_variant(state.variant).colours],
        "say_uno": any(d.get("uno") for d in legal_dicts)
        or (kind in DISCARD_KINDS and pseat == viewer.seat),
        "pick": card_face(pick) if pick_options else None,
        "pick_options": pick_options,
        "actions": actions,
        "error": error,
        "log": table_log(game, state, viewer, name, revealed=revealed),
        "edition": _edition(state, edition, name),
        "disputes": list(Dispute.objects.filter(game=game).order_by("pk")),
        "dispute_version": dispute_version,
        "dispute_choices": _dispute_choices(game, state, viewer, name, revealed=revealed),
        "finished": state.finished,
        # Over, and every hand and the replay open to all (not held back: games.visibility).
        "revealed": revealed,
        "placings": [
            (i + 1, name.cap(seat), state.scores[seat]) for i, seat in enumerate(state.placings)
        ],
    }


def status_text(state: GameState, name: Namer, you: int | None) -> str:
    """What the game waits for, in words; what to do when it waits for the viewer."""
    kind, seat = state.pending
    if kind == "over":
        return f"Game over: {name(state.winner)} won." if state.winner is not None else "Game over."
    if kind == "uno_spin":
        return "UNO Spin! The first to claim it discards a card."
    if kind == "hand_over":
        return f"{name.cap(seat)} won the hand."
    if seat == you and kind in YOUR_MOVE:
        return ("Your turn: " if kind == "turn" else "Your move: ") + YOUR_MOVE[kind] + "."
    what = PENDING_WORDS.get(kind, kind.replace("_", " "))
    return f"Waiting for {name(seat)}: {name(seat)} {what}."


def _seat_rows(
    state: GameState, view: dict[str, Any], seats: list[Seat], viewer: Viewer, name: Namer
) -> list[SeatRow]:
    kind, pseat = state.pending
    edition = view.get("edition") or {}
    towers = edition.get("towers") or {}
    rows = []
    for row, seat in zip(view["seats"], seats, strict=True):
        number = row["seat"]
        hand = row.get("hand")
        badges = [f"{t} tower" for t, holder in towers.items() if holder == number]
        if edition.get("veto_on") == number:
            badges.append("VETO on them")
        if number in (edition.get("also_uno_exposed") or ()):
            badges.append("may be caught")
        rows.append(
            SeatRow(
                seat=number,
                name=seat.player,
                bot=seat.bot,
                you=number == viewer.seat,
                card_count=row["card_count"],
                score=row["score"],
                turn=pseat == number and kind not in ("over", "hand_over"),
                dealer=state.dealer == number,
                uno=row["card_count"] == 1,
                exposed=bool(row.get("uno_exposed")),
                # Another seat's hand only when rules.views shows it (referee, game over,
                # or a hand an edition made public): never the viewer's own twice.
                hand=[card_face(c) for c in sorted(hand, key=sort_key)]
                if hand is not None and number != viewer.seat
                else None,
                badges=badges,
            )
        )
    return rows


def _hand(hand: tuple[str, ...], legal: list[dict[str, Any]], kind: str) -> list[HandCard]:
    """The viewer's cards, sorted, each with what pressing it does."""
    by_card: dict[str, list[dict[str, Any]]] = {}
    for data in legal:
        if data["type"] in CARD_COMMANDS:
            by_card.setdefault(data["card"], []).append(data)
    discarding = kind in DISCARD_KINDS and any(d["type"] == "wheel_discard" for d in legal)
    out = []
    seen: dict[str, int] = {}
    for code in sorted(hand, key=sort_key):
        seen[code] = seen.get(code, 0) + 1
        card = HandCard(card_face(code), f"card-{_id(code)}-{seen[code]}")
        options = {as_value(_without_uno(d)) for d in by_card.get(code, [])}
        if discarding:
            card.selectable = True
        elif len(options) == 1:
            card.value = options.pop()
        elif options:
            card.pick = True
        out.append(card)
    return out


def _id(code: str) -> str:
    return code.replace("~", "s").replace(":", "i").replace("!", "x")


def _pick_options(pick: str, legal: list[dict[str, Any]], name: Namer) -> list[Button]:
    options: dict[str, dict[str, Any]] = {}
    for data in legal:
        if data["type"] in CARD_COMMANDS and data.get("card") == pick:
            base = _without_uno(data)
            options.setdefault(as_value(base), base)
    return [
        Button(command_text(d, name), value, "pick", d.get("colour") or "")
        for value, d in options.items()
    ]


ACTION_ORDER = [
    "draw",
    "pass",
    "call_uno",
    "catch",
    "challenge",
    "accept",
    "block",
    "take",
    "choose_colour",
    "name_colour",
    "spin",
    "claim_uno_spin",
    "report_joke",
    "report_rooster",
    "deal",
    "veto",
]


def _actions(legal: list[dict[str, Any]], name: Namer) -> list[Button]:
    """Every command of the seat that is not pressing a card of the hand, as a button."""
    buttons = []
    seen = set()
    for data in legal:
        kind = data["type"]
        if kind in CARD_COMMANDS or kind == "wheel_discard":
            continue
        value = as_value(data)
        if value in seen:
            continue
        seen.add(value)
        colour = data.get("colour") or "" if kind in ("choose_colour", "name_colour") else ""
        buttons.append(Button(command_text(data, name), value, kind, colour))
    order = {k: i for i, k in enumerate(ACTION_ORDER)}
    buttons.sort(key=lambda b: order.get(b.kind, len(order)))
    return buttons


def _edition(state: GameState, edition: dict[str, Any], name: Namer) -> list[str]:
    """The edition's public state in words (towers, the VETO, house rules, the wheel)."""
    lines = []
    if "towers" in edition:
        for tower, holder in edition["towers"].items():
            lines.append(f"{tower} tower: " + ("in the middle" if holder is None else name(holder)))
    if "veto_on" in edition:
        on = edition["veto_on"]
        lines.append("The VETO card lies in the middle." if on is None else f"VETO on {name(on)}.")
        for rule in edition.get("house_rules") or []:
            if rule["text"]:
                lines.append(f"House rule: {rule['text']}")
    if edition.get("showing") is not None:
        lines.append(f"{name.cap(edition['showing'])}'s hand is shown to everyone.")
    if edition.get("war_numbers"):
        lines.append("War: discard " + ", ".join(map(str, edition["war_numbers"])) + ".")
    return lines


def table_log(
    game: Game, state: GameState, viewer: Viewer, name: Namer, *, revealed: bool
) -> list[dict[str, Any]]:
    """The last events in words, as the viewer may see them (quiet events left out): redacted
    for a seat until the game is ``revealed``."""
    rows = Event.objects.filter(game=game, version__gt=max(0, state.version - 60)).order_by(
        "-version"
    )
    out = []
    referee = viewer.referee and viewer.seat is None
    for row in rows:
        if row.type in QUIET:
            continue
        data = event_view(row.to_rules_event(), viewer.seat, referee=referee, finished=revealed)
        out.append({"version": row.version, "text": event_text(data, name)})
        if len(out) == LOG_SIZE:
            break
    out.reverse()
    return out


def _dispute_choices(
    game: Game, state: GameState, viewer: Viewer, name: Namer, *, revealed: bool
) -> list[tuple[int, str]]:
    if viewer.seat is None and not viewer.referee:
        return []
    return [
        (e["version"], f"{e['version']}: {e['text']}")
        for e in reversed(table_log(game, state, viewer, name, revealed=revealed))
    ]


def send_from_table(
    *,
    game_id: UUID | str,
    seat: int,
    data: dict[str, Any],
    say_uno: bool,
    expected_version: int | None,
) -> services.AppendResult:
    """Send the command a table page's button names, for ``seat``. "Say UNO" is added to a
    command that may carry it when the legal list has it that way (so ticking the box never
    makes a play illegal)."""
    kind = data.get("type")
    if say_uno and isinstance(kind, str) and kind in UNO_COMMANDS and not data.get("uno"):
        state = services.load_game(game_id=game_id)
        with_uno = {**data, "uno": True}
        legal = [c.to_dict() for c in legal_commands(state, seat)]
        if kind == "wheel_discard":
            # Any order of the cards under the top one is accepted; compare as sets of cards.
            left = len(state.hands[seat]) - len(data.get("cards") or ())
            if left == 1:
                data = with_uno
        elif with_uno in legal:
            data = with_uno
    command = command_from_dict(seat, data)
    return services.apply_command(
        game_id=game_id,
        command=command,
        actor=services.seat_actor(seat),
        expected_version=expected_version,
    )


# The replay viewer ------------------------------------------------------------------------------


@dataclass
class WildDrawFour:
    """A Wild Draw 4 as the replay judges it: legal, or a bluff with its evidence."""

    version: int
    seat: int
    player: str
    colour: str | None
    evidence: list[CardFace]
    outcome: str  # "challenged: guilty", "challenged: innocent", "accepted", ""

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
    for row in rows:
        if row.type == "card_played" and row.data.get("card") == "W4":
            before = services.state_at(game_id=game.pk, version=row.version - 1)
            seat = row.data["seat"]
            hand = list(before.hands[seat])
            hand.remove("W4")
            colour = before.colour
            evidence = [card_face(c) for c in hand if colour and card_info(c).colour == colour]
            last = WildDrawFour(row.version, seat, names[seat], colour, evidence, "")
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


def replay_context(game: Game, viewer: Viewer, version: int | None) -> dict[str, Any]:
    """The replay viewer at ``version``: the state with every hand visible, the events around
    it, every Wild Draw 4 judged, the disputes, and whether undo may go back to it."""
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
    for i, row in enumerate(rows):
        data = {**row.data, "type": row.type}
        rested = i + 1 < len(rows) and rows[i + 1].batch == rows[i + 1].version
        events.append(
            {
                "version": row.version,
                "type": row.type,
                "text": event_text(data, name),
                "actor": row.actor,
                "quiet": row.type in QUIET,
                "w4": w4s.get(row.version),
                "rested": rested and row.version >= first_start,
                "recorded_at": row.recorded_at,
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
        "disputes": list(Dispute.objects.filter(game=game).order_by("pk")),
        "can_undo": bool(current and current["rested"] and version < last),
        # Every hand was shown at the end: undoing a finished game reopens it (services.undo).
        "must_reopen": game.status == Game.Status.FINISHED and not game.sheet,
        "edition": _edition(state, view.get("edition") or {}, name),
    }
