"""The table page's context: what a seat (or a referee) sees at the table, built from the store
and ``rules.views``.

A seat's page is built from ``rules.views.game_view(state, seat)`` and ``event_view``, so it
holds only what that seat may know: its own hand, the others' card counts, a redacted log.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db.models import Q

from games import services
from games.models import Dispute, Event, Game, GameReferee, Seat
from games.pages.editions import Edition, edition_for
from games.pages.faces import CardFace, card_face, sort_key
from games.pages.lobby import onward_context
from games.pages.narration import Namer, colour_word
from games.pages.viewers import Viewer
from games.visibility import is_revealed
from rules import GameState, legal_commands
from rules.cards import card_info
from rules.variants import get_variant
from rules.views import event_view, game_view

LOG_SIZE = 8  # events in words on the table page
CARD_COMMANDS = frozenset({"play", "discard", "keep", "keep_card"})  # a card of the hand
# What pressing a card of the hand does, by the command it sends: the word on the card's
# button, what the hand's heading says of the raised cards, and the words of the UNO box.
CARD_VERBS = {
    "play": ("Play", "raised cards can be played", "with this play"),
    "discard": ("Discard", "press a raised card to discard it", "with this discard"),
    "keep": ("Keep", "press the card you keep", "as you keep it"),
    "keep_card": ("Keep", "press the card you keep", "as you keep it"),
}

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
    help: str = ""  # what a special action does (the edition's words)

    @property
    def answer(self) -> str:
        """The label without the card it plays, where the page's question names the card:
        "Call red, grab U" for "Play wild grab a tower: call red, grab U"."""
        _, said, rest = self.label.partition(": ")
        return rest[:1].upper() + rest[1:] if said and rest else self.label


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
    dispute_hand: int | None = None,
) -> dict[str, Any]:
    """Everything the table page shows ``viewer`` (a seat sees only what it may know).
    ``dispute_version``: the moment the dispute form has chosen; ``dispute_hand``: the hand
    whose every moment the form offers too (a player looking further back)."""
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
    ed = edition_for(state.variant)
    discard_kinds = ed.discard_kinds
    # A game that takes no more moves (a tournament table a director decided) says why.
    closed = None if state.finished else game.closed or None
    rows = _seat_rows(state, view, seats, viewer, name, closed=bool(closed))
    playing = viewer.seat is not None and closed is None
    legal = legal_commands(state, viewer.seat) if playing else []
    legal_dicts = [c.to_dict() for c in legal]
    hand_cards: list[HandCard] = []
    if viewer.seat is not None:
        hand_cards = _hand(state.hands[viewer.seat], legal_dicts, playing and kind in discard_kinds)
    pick_options = _pick_options(pick, legal_dicts, name, ed) if pick else []
    card_command = next((d["type"] for d in legal_dicts if d["type"] in CARD_COMMANDS), "play")
    hand_verb, hand_hint, say_uno_with = CARD_VERBS[card_command]
    actions = _actions(legal_dicts, name, ed, ticking=kind in discard_kinds)
    top = state.top
    edition = view.get("edition") or {}
    moments = Moments(game, viewer, name, revealed=revealed)
    log = moments.latest(state.version)
    can_dispute = bool((viewer.player or viewer.referee) and someone_rules(game, viewer))
    choices = (
        dispute_choices(moments, log, hand=dispute_hand, chosen=dispute_version)
        if can_dispute
        else DisputeChoices([], None, [])
    )
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
        "status_text": closed or status_text(state, name, viewer.seat),
        "closed": closed,
        "your_turn": viewer.seat is not None and pseat == viewer.seat and bool(legal),
        "hand": hand_cards,
        "drawn": card_face(state.drawn)
        if kind == "drawn" and pseat == viewer.seat and state.drawn
        else None,
        # The card just drawn, when it may be played: a button beside "You drew ...".
        "drawn_play": next(
            (c for c in hand_cards if c.face.code == state.drawn and (c.value or c.pick)), None
        )
        if kind == "drawn" and pseat == viewer.seat and state.drawn
        else None,
        "discarding": playing and pseat == viewer.seat and kind in discard_kinds,
        "discard_wild_top": any(card_info(c).is_wild for c in state.hands[viewer.seat])
        if viewer.seat is not None and state.hands
        else False,
        "colours": [(c, colour_word(c)) for c in get_variant(state.variant).colours],
        "hand_verb": hand_verb,
        "hand_hint": hand_hint,
        "say_uno_with": say_uno_with,
        "say_uno": any(d.get("uno") for d in legal_dicts)
        or (
            kind in discard_kinds
            and pseat == viewer.seat
            and ed.ticked_may_leave_one(kind, state.hands[viewer.seat], legal_dicts)
        ),
        "pick": card_face(pick) if pick_options else None,
        "pick_options": pick_options,
        "actions": actions,
        "error": error,
        "log": log,
        "edition": edition_lines(state, edition, name),
        "edition_help": edition_help(
            ed, state, actions, card_face(pick) if pick_options and pick else None
        ),
        "disputes": disputes_in_words(game, moments),
        "dispute_version": dispute_version,
        "dispute_choices": choices.groups,
        "dispute_hand": choices.hand,
        "dispute_hands": choices.hands,
        # The dispute form only where a referee can rule, for a seat or a referee.
        "can_dispute": can_dispute,
        "live_updates": settings.LIVE_UPDATES,
        "finished": state.finished,
        # Over, and every hand and the replay open to all (not held back: games.visibility).
        "revealed": revealed,
        "placings": [
            (i + 1, name.cap(seat), state.scores[seat]) for i, seat in enumerate(state.placings)
        ],
        # A tournament's table, over or decided: the way to the player's next table.
        **((onward_context(game, viewer.seat) or {}) if state.finished or closed else {}),
    }


def status_text(state: GameState, name: Namer, you: int | None) -> str:
    """What the game waits for, in words; what to do when it waits for the viewer."""
    kind, seat = state.pending
    ed = edition_for(state.variant)
    if kind == "over":
        return f"Game over: {name(state.winner)} won." if state.winner is not None else "Game over."
    if kind in ed.status:
        return ed.status[kind]
    if kind == "hand_over":
        return f"{name.cap(seat)} won the hand."
    if seat == you and kind in ed.your_move:
        return ("Your turn: " if kind == "turn" else "Your move: ") + ed.your_move[kind] + "."
    what = ed.pending.get(kind, kind.replace("_", " "))
    return f"Waiting for {name(seat)}: {name(seat)} {what}."


def _seat_rows(
    state: GameState,
    view: dict[str, Any],
    seats: list[Seat],
    viewer: Viewer,
    name: Namer,
    *,
    closed: bool = False,
) -> list[SeatRow]:
    kind, pseat = state.pending
    edition = view.get("edition") or {}
    ed = edition_for(state.variant)
    rows = []
    for row, seat in zip(view["seats"], seats, strict=True):
        number = row["seat"]
        hand = row.get("hand")
        badges = ed.badges(edition, number)
        rows.append(
            SeatRow(
                seat=number,
                name=seat.player,
                bot=seat.bot,
                you=number == viewer.seat,
                card_count=row["card_count"],
                score=row["score"],
                turn=pseat == number and kind not in ("over", "hand_over") and not closed,
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


def _hand(hand: tuple[str, ...], legal: list[dict[str, Any]], wheel: bool) -> list[HandCard]:
    """The viewer's cards, sorted, each with what pressing it does (``wheel``: the game waits
    for the viewer to tick cards to discard)."""
    by_card: dict[str, list[dict[str, Any]]] = {}
    for data in legal:
        if data["type"] in CARD_COMMANDS:
            by_card.setdefault(data["card"], []).append(data)
    discarding = wheel and any(d["type"] == "wheel_discard" for d in legal)
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


def _pick_options(pick: str, legal: list[dict[str, Any]], name: Namer, ed: Edition) -> list[Button]:
    options: dict[str, dict[str, Any]] = {}
    for data in legal:
        if data["type"] in CARD_COMMANDS and data.get("card") == pick:
            base = _without_uno(data)
            options.setdefault(as_value(base), base)
    return [
        Button(ed.command_text(d, name), value, "pick", d.get("colour") or "")
        for value, d in options.items()
    ]


def _actions(
    legal: list[dict[str, Any]], name: Namer, ed: Edition, *, ticking: bool = False
) -> list[Button]:
    """Every command of the seat that is not pressing a card of the hand, as a button (while
    the cards to discard are ticked, ``ticking``, not the discards either)."""
    buttons = []
    seen = set()
    for data in legal:
        kind = data["type"]
        if kind in CARD_COMMANDS or (ticking and kind in ed.discard_commands):
            continue
        value = as_value(data)
        if value in seen:
            continue
        seen.add(value)
        colour = data.get("colour") or "" if kind in ("choose_colour", "name_colour") else ""
        buttons.append(
            Button(ed.command_text(data, name), value, kind, colour, ed.help.get(kind, ""))
        )
    order = {k: i for i, k in enumerate(ed.buttons)}
    buttons.sort(key=lambda b: order.get(b.kind, len(order)))
    return buttons


def edition_lines(state: GameState, edition: dict[str, Any], name: Namer) -> list[str]:
    """The edition's public state in words (towers, the VETO, house rules, the wheel)."""
    return edition_for(state.variant).lines(edition, name)


def edition_help(
    ed: Edition, state: GameState, actions: list[Button], pick: CardFace | None = None
) -> dict[str, Any]:
    """The edition explained (games/edition_help.html): its rules summary, its special cards,
    the game's options, and what the special buttons (and the special card being played,
    ``pick``) on the page now do."""
    seen: set[str] = set()
    buttons = []
    if pick is not None and pick.word in ed.card_help:
        buttons.append((pick.word, ed.card_help[pick.word]))
    for button in actions:
        if button.help and button.kind not in seen:
            seen.add(button.kind)
            buttons.append((button.label, button.help))
    return {
        "title": get_variant(state.variant).title,
        "summary": ed.summary,
        "cards": list(ed.card_help.items()),
        "options": ed.option_lines(state.options),
        "buttons": buttons,
    }


@dataclass(frozen=True)
class Moment:
    """Something that happened at the table, as one viewer may see it: what happened in
    words, the hand it happened in and when. ``version`` is the event's, for the forms and
    links that point at it: never shown (its numbering has gaps no player can make sense of)."""

    version: int
    text: str
    hand: int
    at: datetime


class Moments:
    """The game's log in words, as ``viewer`` may see it: each event through
    ``rules.views.event_view`` (redacted for a seat until the game is ``revealed``), quiet
    events left out; the hands it was dealt in."""

    def __init__(self, game: Game, viewer: Viewer, name: Namer, *, revealed: bool) -> None:
        self.game = game
        self.seat = viewer.seat
        # A seat sees its own hand only, even when it also referees (as on the rest of the page).
        self.referee = viewer.referee and viewer.seat is None
        self.revealed = revealed
        self.name = name
        self.ed = edition_for(game.variant)
        self._deals: list[tuple[int, int]] | None = None

    @property
    def deals(self) -> list[tuple[int, int]]:
        """(version, hand number) of each deal, in order (a hand dealt again after an undo
        is there twice)."""
        if self._deals is None:
            self._deals = [
                (version, int(hand))
                for version, hand in Event.objects.filter(game=self.game, type="hand_dealt")
                .order_by("version")
                .values_list("version", "data__hand")
            ]
        return self._deals

    def hands(self) -> list[int]:
        """The numbers of the hands dealt, in order."""
        return sorted({hand for _, hand in self.deals}) or [1]

    def hand_of(self, version: int) -> int:
        """The hand an event belongs to (the game's start, before the first deal, to the
        first hand)."""
        hand = self.deals[0][1] if self.deals else 1
        for dealt, number in self.deals:
            if dealt > version:
                break
            hand = number
        return hand

    def moment(self, row: Event) -> Moment:
        data = event_view(
            row.to_rules_event(), self.seat, referee=self.referee, finished=self.revealed
        )
        text = self._rewound(data) if row.type == "rewound" else self.ed.event_text(data, self.name)
        return Moment(row.version, text, self.hand_of(row.version), row.recorded_at)

    def _rewound(self, data: dict[str, Any]) -> str:
        """An undo, said by the moment the game went back to (not by its event's number)."""
        back = self.at(data["to_version"])
        where = f"just after “{back.text.rstrip('.')}” (hand {back.hand})" if back else "its start"
        undid = (
            "A referee reopened the finished game and took it back to "
            if data.get("reopened")
            else "A referee took the game back to "
        )
        return f"{undid}{where}: {data['reason']}"

    def _rows(self) -> Any:
        return Event.objects.filter(game=self.game).exclude(type__in=self.ed.quiet)

    def latest(self, version: int, size: int = LOG_SIZE) -> list[Moment]:
        """The last ``size`` moments of the game at ``version``, oldest first."""
        rows = self._rows().filter(version__lte=version).order_by("-version")[:size]
        return [self.moment(row) for row in reversed(rows)]

    def at(self, version: int) -> Moment | None:
        """The moment the game stood at after event ``version``: the last one at or before it."""
        row = self._rows().filter(version__lte=version).order_by("-version").first()
        return self.moment(row) if row is not None else None

    def of_hand(self, hand: int) -> list[Moment]:
        """Every moment of hand ``hand``, newest first (none for a hand never dealt)."""
        spans = Q(pk__in=[])
        deals = self.deals or [(1, 1)]
        for i, (dealt, number) in enumerate(deals):
            if number != hand:
                continue
            span = Q(version__gte=1 if i == 0 else dealt)
            if i + 1 < len(deals):
                span &= Q(version__lt=deals[i + 1][0])
            spans |= span
        return [self.moment(row) for row in self._rows().filter(spans).order_by("-version")]


def table_log(
    game: Game, state: GameState, viewer: Viewer, name: Namer, *, revealed: bool
) -> list[Moment]:
    """The last events in words, as the viewer may see them (quiet events left out): redacted
    for a seat until the game is ``revealed``."""
    return Moments(game, viewer, name, revealed=revealed).latest(state.version)


def someone_rules(game: Game, viewer: Viewer) -> bool:
    """Whether anyone can rule on the game's disputes: its creator, a named referee, the
    organisers of its season or tournament. The one game nobody referees is the quick game a
    visitor started against bots (no creator, no season, a bot at the table)."""
    if viewer.referee or game.created_by_id is not None or game.season_id is not None:
        return True
    if GameReferee.objects.filter(game=game).exists():
        return True
    return not Seat.objects.filter(game=game, bot=True).exists()


@dataclass
class DisputeChoices:
    """The dispute form's choice of moments, in groups (a heading, its moments newest first);
    ``hand``: the hand whose every moment it offers, if any; ``hands``: the hands it may."""

    groups: list[tuple[str, list[Moment]]]
    hand: int | None
    hands: list[int]


def dispute_choices(
    moments: Moments, log: list[Moment], *, hand: int | None, chosen: int | None
) -> DisputeChoices:
    """What a seat (or a referee) may dispute: the moments of the table's log, and every
    moment of a hand the player asked for (``hand``), or of the hand of the moment ``chosen``
    when the log no longer holds it (a dispute refused, a link to it). Built from the viewer's
    own view of the log: it offers nothing the viewer could not see."""
    hands = moments.hands()
    if hand not in hands:
        hand = None
    if hand is None and chosen is not None and all(m.version != chosen for m in log):
        hand = moments.hand_of(chosen) if 1 <= chosen <= moments.game.version else None
    of_hand = moments.of_hand(hand) if hand is not None else []
    listed = {m.version for m in of_hand}
    latest = [m for m in reversed(log) if m.version not in listed]
    groups = []
    if latest:
        groups.append(("Just now, newest first", latest))
    if of_hand:
        groups.append((f"Hand {hand}, newest first", of_hand))
    return DisputeChoices(groups, hand, hands)


def disputes_in_words(game: Game, moments: Moments) -> list[dict[str, Any]]:
    """The table's disputes, each with the moment it is about and (an upheld one that went
    back) the moment play went back to, as the viewer may see them."""
    out = []
    for d in Dispute.objects.filter(game=game).order_by("pk"):
        out.append(
            {
                "d": d,
                "about": moments.at(d.version),
                "back_to": moments.at(d.undo_to) if d.undo_to is not None else None,
            }
        )
    return out
