"""The table page's context: what a seat (or a referee) sees at the table, built from the store
and ``rules.views``.

A seat's page is built from ``rules.views.game_view(state, seat)`` and ``event_view``, so it
holds only what that seat may know: its own hand, the others' card counts, a redacted log.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from games import services
from games.models import Dispute, Event, Game, Seat
from games.pages.faces import CardFace, card_face, sort_key
from games.pages.narration import (
    PENDING_WORDS,
    QUIET,
    YOUR_MOVE,
    Namer,
    colour_word,
    command_text,
    event_text,
)
from games.pages.viewers import Viewer
from games.visibility import is_revealed
from rules import GameState, legal_commands
from rules.cards import card_info
from rules.variants import get_variant
from rules.views import event_view, game_view

LOG_SIZE = 8  # events in words on the table page
CARD_COMMANDS = frozenset({"play", "discard", "keep", "keep_card"})  # a card of the hand
DISCARD_KINDS = frozenset(
    {"almost_uno", "discard_number", "discard_colour", "war_discard", "uno_spin_discard"}
)

# Buttons ----------------------------------------------------------------------------------------


def as_value(data: dict[str, Any]) -> str:
    """A command's JSON shape as a button's value (compact, keys sorted: one spelling)."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def _without_uno(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k != "uno"}


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
        "edition": edition_lines(state, edition, name),
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


def edition_lines(state: GameState, edition: dict[str, Any], name: Namer) -> list[str]:
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
