"""UNO VETO and Wild Customizable: the edition's state and its events (and how they apply),
and the house rules' words. The rules that use them are in ``rules.variants.veto.variant``;
its commands are in ``rules.variants.veto.commands``."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any, ClassVar

from rules.engine import applies
from rules.errors import InvalidCommand
from rules.events import Event, register_event
from rules.pending import Pending
from rules.values import slot_setters

if TYPE_CHECKING:
    from rules.state import GameState

WC = "WC"
MAX_CUSTOMIZABLE = 3
MAX_TEXT = 200

# The rulebook's thought-starters, by name: (number in the rulebook, its words).
THOUGHT_STARTERS: dict[str, tuple[int, str]] = {
    "draw_until_colour": (
        1,
        "The next player must draw until they draw a card of a certain color.",
    ),
    "discard_wilds": (2, "Everyone but you must discard all their Wild cards."),
    "three_if_stuck": (
        3,
        "If the next player can't play a card, they take THREE cards from the DRAW pile.",
    ),
    "extra_turn": (4, "Take an extra turn."),
    "seven_cards": (5, "The next player must draw or discard until they have exactly 7 cards."),
    "three_cards": (6, "Everyone must discard (or draws) until they have exactly 3 cards."),
    "face_up": (7, "Everyone must play with their hand face up until your next turn."),
    "joke": (
        8,
        'Tell a joke. If someone laughs, discard down to 1 card (don\'t forget to yell "UNO!"). '
        "If no one laughs, draw 4 cards.",
    ),
    "elbows": (9, 'The next player cannot bend their elbows until someone says "UNO!"'),
    "rooster": (
        10,
        'The next player must perform their best rooster call or "chicken out" and draw 4 cards.',
    ),
}
BY_NUMBER = {number: name for name, (number, _) in THOUGHT_STARTERS.items()}
BLANK = "blank"
TEXT = "text:"

# Pending kinds outside a hand in progress (the VETO may be slapped during any other).
BETWEEN_HANDS = frozenset(
    {Pending.START, Pending.DEAL, Pending.HAND_OVER, Pending.OVER, Pending.SHEET}
)


def rule_text(rule: str) -> str:
    """A house rule in words, as written on the card."""
    if rule.startswith(TEXT):
        return rule[len(TEXT) :]
    if rule == BLANK:
        return ""
    return THOUGHT_STARTERS[rule][1]


def parse_rule(value: Any, where: str) -> str:
    """One entry of the ``customizable`` option, in its stored form (a name or ``text:...``)."""
    if isinstance(value, dict):
        if set(value) != {"text"}:
            raise InvalidCommand(
                f'{where}: a free-text house rule is {{"text": "..."}}', field=where
            )
        value = TEXT + str(value["text"]) if isinstance(value["text"], str) else None
    if isinstance(value, bool) or value is None:
        raise InvalidCommand(f"{where}: expected a house rule, got {value!r}", field=where)
    if isinstance(value, int):
        if value not in BY_NUMBER:
            raise InvalidCommand(
                f"{where}: the rulebook's thought-starters are numbered 1 to 10, not {value}",
                field=where,
            )
        return BY_NUMBER[value]
    if not isinstance(value, str):
        raise InvalidCommand(f"{where}: expected a house rule, got {value!r}", field=where)
    if value.startswith(TEXT):
        text = value[len(TEXT) :].strip()
        if not text:
            raise InvalidCommand(f"{where}: a free-text house rule needs its text", field=where)
        if len(text) > MAX_TEXT:
            raise InvalidCommand(
                f"{where}: a house rule is at most {MAX_TEXT} characters", field=where
            )
        return TEXT + text
    if value in THOUGHT_STARTERS or value == BLANK:
        return value
    known = ", ".join([*THOUGHT_STARTERS, BLANK])
    raise InvalidCommand(
        f'{where}: unknown house rule {value!r} (known: {known}; or "text:..." for any other)',
        field=where,
    )


# ---------------------------------------------------------------------------------------------
# The edition's state


@dataclass(frozen=True, slots=True)
class VetoState:
    """What VETO keeps beyond the core state. ``held``: the house rules of the Wild
    Customizable cards in each hand (sorted); ``discard_rules``: those of the ``WC`` cards in
    the discard pile, bottom first, as of ``synced`` reshuffles (a reshuffle keeps only the
    top card, see ``in_discard``); the rest lie in the draw pile."""

    rules: tuple[str, ...]  # the rule on each Customizable card in the deck (the option)
    # Whether cards are told apart: only when their rules differ. Cards that all carry the same
    # rule need no record of which is where (and no event after every draw).
    tracked: bool = False
    veto: int | None = None  # the seat the VETO was slapped on; None: it lies in the middle
    held: tuple[tuple[str, ...], ...] = ()
    discard_rules: tuple[str, ...] = ()
    synced: int = 0
    drawn_rule: str | None = None  # the rule of a WC just drawn on a turn (it may be played)
    showing: tuple[int, ...] = ()  # hands are face up until each of these seats' next turn
    stuck: tuple[int, ...] = ()  # seats that take three cards if they cannot play next turn
    player: int | None = None  # the seat whose house rule is being carried out
    queue: tuple[tuple[int, int], ...] = ()  # (seat, size) still to discard down to size

    def to_dict(self) -> dict[str, Any]:
        return {
            "rules": list(self.rules),
            "tracked": self.tracked,
            "veto": self.veto,
            "held": [list(h) for h in self.held],
            "discard_rules": list(self.discard_rules),
            "synced": self.synced,
            "drawn_rule": self.drawn_rule,
            "showing": list(self.showing),
            "stuck": list(self.stuck),
            "player": self.player,
            "queue": [list(q) for q in self.queue],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> VetoState:
        return cls(
            rules=tuple(data["rules"]),
            tracked=data["tracked"],
            veto=data["veto"],
            held=tuple(tuple(h) for h in data["held"]),
            discard_rules=tuple(data["discard_rules"]),
            synced=data["synced"],
            drawn_rule=data["drawn_rule"],
            showing=tuple(data["showing"]),
            stuck=tuple(data["stuck"]),
            player=data["player"],
            queue=tuple((seat, size) for seat, size in data["queue"]),
        )

    def replace(self, **changes: Any) -> VetoState:
        """This state with ``changes`` (what ``dataclasses.replace`` gives). On the hot path
        (a VETO slapped or served, a house rule played): the slots are set directly, without
        the frozen dataclass's __init__ and ``replace``'s checks."""
        get = changes.get
        new = object.__new__(VetoState)
        for name, set_slot in _VETO_SLOTS:
            set_slot(new, get(name, getattr(self, name)))
        return new

    def public(self) -> dict[str, Any]:
        """What every seat sees: where the VETO is and the house rules of the game."""
        return {
            "veto_on": self.veto,
            "house_rules": [{"rule": r, "text": rule_text(r)} for r in self.rules],
            "face_up_until": list(self.showing),
            "three_if_stuck": list(self.stuck),
            "discards_owed": [list(q) for q in self.queue],
        }

    def hand_details(self, s: GameState, seat: int) -> dict[str, Any]:
        """What whoever sees ``seat``'s hand also sees: the rules on its Customizable cards."""
        return {"wild_customizable": list(held_of(s, self, seat))}


_VETO_SLOTS = tuple(zip([f.name for f in fields(VetoState)], slot_setters(VetoState), strict=True))


def held_of(s: GameState, x: VetoState, seat: int) -> tuple[str, ...]:
    """The house rules of the Customizable cards in ``seat``'s hand."""
    if x.tracked:
        return x.held[seat]
    n = s.hands[seat].count(WC)
    return (x.rules[0],) * n if n else ()


def in_discard(
    s: GameState, x: VetoState, discard: tuple[str, ...] | None = None
) -> tuple[str, ...]:
    """The rules of the ``WC`` cards in the discard pile (``discard``: the pile as it was
    before a card just played). Every ``WC`` that reaches the pile is recorded at once; a
    reshuffle (only ever inside a draw) keeps just the top card, which, if it is a ``WC``, is
    the last one recorded."""
    if s.reshuffles == x.synced:
        return x.discard_rules
    return x.discard_rules[-1:] if WC in (s.discard if discard is None else discard) else ()


def in_pile(s: GameState, x: VetoState) -> list[str]:
    """The rules of the ``WC`` cards in the draw pile (the rest of the deck's), sorted."""
    rest = Counter(x.rules)
    for h in x.held:
        rest.subtract(h)
    rest.subtract(in_discard(s, x))
    return sorted(rest.elements())


def without(rules: tuple[str, ...], gone: tuple[str, ...]) -> tuple[str, ...]:
    """``rules`` with one of each of ``gone`` taken out."""
    out = list(rules)
    for r in gone:
        out.remove(r)
    return tuple(out)


def _with_seat(seats: tuple[int, ...], seat: int) -> tuple[int, ...]:
    return tuple(sorted(set(seats) | {seat}))


# ---------------------------------------------------------------------------------------------
# Events


@register_event
@dataclass(frozen=True, slots=True)
class CustomizableDealt(Event):
    """The house rules of the Customizable cards dealt to each seat (``held``) and of one
    turned up to start the pile (``top``). The cards look alike from the back: which went
    where is chance, recorded here."""

    type: ClassVar[str] = "customizable_dealt"
    held: tuple[tuple[str, ...], ...]
    top: str | None

    def redacted(self, viewer: int | None) -> dict[str, Any]:
        out = self.to_dict()
        out["held"] = [list(h) if seat == viewer else None for seat, h in enumerate(self.held)]
        return out


@register_event
@dataclass(frozen=True, slots=True)
class HouseRulesDrawn(Event):
    """Follows every draw: the house rules of the Customizable cards ``seat`` just drew (none,
    mostly); ``drawn``: the rule of a card drawn on the turn, which may be played. Made after
    every draw, so that its presence tells the other seats nothing."""

    type: ClassVar[str] = "house_rules_drawn"
    seat: int
    rules: tuple[str, ...]
    drawn: str | None

    def redacted(self, viewer: int | None) -> dict[str, Any]:
        out = self.to_dict()
        if viewer != self.seat:
            out["rules"] = None
            out["drawn"] = None
        return out


@register_event
@dataclass(frozen=True, slots=True)
class CustomizablePlayed(Event):
    """``seat`` played the Customizable card that carries ``rule`` (its words in ``text``)."""

    type: ClassVar[str] = "customizable_played"
    seat: int
    rule: str
    text: str


@register_event
@dataclass(frozen=True, slots=True)
class CardsDiscarded(Event):
    """``seat`` put ``cards`` face up under the top card of the discard pile (a house rule:
    ``reason``); ``rules``: those of the Customizable cards among them. ``uno``: whether the
    player called UNO, where the rule leaves one card and says so (the joke), else None."""

    type: ClassVar[str] = "cards_discarded"
    seat: int
    cards: tuple[str, ...]
    rules: tuple[str, ...]
    reason: str
    uno: bool | None = None


@register_event
@dataclass(frozen=True, slots=True)
class DiscardsOwed(Event):
    """Seats that must discard down to a size, in order: (seat, size)."""

    type: ClassVar[str] = "discards_owed"
    queue: tuple[tuple[int, int], ...]


@register_event
@dataclass(frozen=True, slots=True)
class ColourNamed(Event):
    """``seat`` named ``colour``: ``victim`` draws until they draw a card of it."""

    type: ClassVar[str] = "colour_named"
    seat: int
    colour: str
    victim: int


@register_event
@dataclass(frozen=True, slots=True)
class StuckRuleSet(Event):
    """If ``seat`` cannot play a card on their next turn, they take three cards."""

    type: ClassVar[str] = "stuck_rule_set"
    seat: int


@register_event
@dataclass(frozen=True, slots=True)
class StuckChecked(Event):
    """``seat``'s turn began under the three-card rule; ``stuck``: they could not play."""

    type: ClassVar[str] = "stuck_checked"
    seat: int
    stuck: bool


@register_event
@dataclass(frozen=True, slots=True)
class HandsShown(Event):
    """Every hand is face up until ``seat``'s next turn."""

    type: ClassVar[str] = "hands_shown"
    seat: int


@register_event
@dataclass(frozen=True, slots=True)
class HandsHidden(Event):
    """``seat``'s next turn began: the hands it had turned face up go back (unless another
    player's face-up rule still holds)."""

    type: ClassVar[str] = "hands_hidden"
    seat: int


@register_event
@dataclass(frozen=True, slots=True)
class JokeReported(Event):
    """Whether someone laughed at ``seat``'s joke, as reported ``by`` the player (or a
    referee: None)."""

    type: ClassVar[str] = "joke_reported"
    seat: int
    laughed: bool
    by: int | None


@register_event
@dataclass(frozen=True, slots=True)
class RoosterReported(Event):
    """``seat`` performed a rooster call (``performed``) or chickened out."""

    type: ClassVar[str] = "rooster_reported"
    seat: int
    performed: bool
    by: int | None


@register_event
@dataclass(frozen=True, slots=True)
class VetoSlapped(Event):
    """``by`` slapped the VETO card on ``target``: they skip their next turn."""

    type: ClassVar[str] = "veto_slapped"
    by: int
    target: int


@register_event
@dataclass(frozen=True, slots=True)
class VetoServed(Event):
    """``seat`` skipped the turn the VETO cost them; the VETO goes back to the middle."""

    type: ClassVar[str] = "veto_served"
    seat: int


def veto_state(s: GameState) -> VetoState:
    """The edition's state of a VETO game."""
    x: VetoState = s.extra
    return x


@applies(CustomizableDealt)
def _customizable_dealt(s: GameState, e: CustomizableDealt) -> None:
    s.extra = veto_state(s).replace(held=e.held, discard_rules=() if e.top is None else (e.top,))


@applies(HouseRulesDrawn)
def _house_rules_drawn(s: GameState, e: HouseRulesDrawn) -> None:
    x = veto_state(s)
    if e.rules:
        held = x.held[e.seat] + e.rules
        hands = x.held[: e.seat] + (tuple(sorted(held)),) + x.held[e.seat + 1 :]
        s.extra = x.replace(
            held=hands, discard_rules=in_discard(s, x), synced=s.reshuffles, drawn_rule=e.drawn
        )
    elif x.drawn_rule is not None:
        s.extra = x.replace(drawn_rule=None)


def _to_discard(s: GameState, x: VetoState, rules: tuple[str, ...], under_top: bool) -> VetoState:
    """``x`` with ``rules`` added to the discard pile's: under the top card (before the cards
    go there), or on top (the card is already there)."""
    if under_top:
        pile = in_discard(s, x)
        pile = pile[:-1] + rules + pile[-1:] if s.discard[-1] == WC else pile + rules
    else:
        pile = in_discard(s, x, s.discard[:-1]) + rules
    return x.replace(discard_rules=pile, synced=s.reshuffles)


@applies(CustomizablePlayed)
def _customizable_played(s: GameState, e: CustomizablePlayed) -> None:
    # The card itself went onto the pile with CardPlayed, just before.
    x = veto_state(s)
    if not x.tracked:
        s.extra = x.replace(player=e.seat)
        return
    held = x.held[: e.seat] + (without(x.held[e.seat], (e.rule,)),) + x.held[e.seat + 1 :]
    x = x.replace(held=held, drawn_rule=None, player=e.seat)
    s.extra = _to_discard(s, x, (e.rule,), under_top=False)


@applies(CardsDiscarded)
def _cards_discarded(s: GameState, e: CardsDiscarded) -> None:
    x = veto_state(s)
    seat = e.seat
    hand = list(s.hands[seat])
    for card in e.cards:
        hand.remove(card)
    s.hands = s.hands[:seat] + (tuple(hand),) + s.hands[seat + 1 :]
    # Under the top card: the card on top and the colour in play do not change.
    if x.tracked:
        x = _to_discard(s, x, e.rules, under_top=True)
        held = x.held[:seat] + (without(x.held[seat], e.rules),) + x.held[seat + 1 :]
        x = x.replace(held=held)
    s.discard = s.discard[:-1] + e.cards + s.discard[-1:]
    queue = x.queue
    if queue and queue[0][0] == seat and len(hand) <= queue[0][1]:
        s.extra = x.replace(queue=queue[1:])
    else:
        s.extra = x
    if e.uno is False and len(hand) == 1:
        s.exposed = seat
    elif s.exposed == seat:
        s.exposed = None


@applies(DiscardsOwed)
def _discards_owed(s: GameState, e: DiscardsOwed) -> None:
    s.extra = veto_state(s).replace(queue=e.queue)


@applies(ColourNamed)
def _colour_named(s: GameState, e: ColourNamed) -> None:
    pass


@applies(StuckRuleSet)
def _stuck_rule_set(s: GameState, e: StuckRuleSet) -> None:
    x = veto_state(s)
    s.extra = x.replace(stuck=_with_seat(x.stuck, e.seat))


@applies(StuckChecked)
def _stuck_checked(s: GameState, e: StuckChecked) -> None:
    x = veto_state(s)
    s.extra = x.replace(stuck=tuple(seat for seat in x.stuck if seat != e.seat))


@applies(HandsShown)
def _hands_shown(s: GameState, e: HandsShown) -> None:
    x = veto_state(s)
    s.extra = x.replace(showing=_with_seat(x.showing, e.seat))
    s.shown = frozenset(range(s.players))


@applies(HandsHidden)
def _hands_hidden(s: GameState, e: HandsHidden) -> None:
    x = veto_state(s)
    showing = tuple(seat for seat in x.showing if seat != e.seat)
    s.extra = x.replace(showing=showing)
    if not showing:
        s.shown = frozenset()


@applies(JokeReported)
def _joke_reported(s: GameState, e: JokeReported) -> None:
    pass


@applies(RoosterReported)
def _rooster_reported(s: GameState, e: RoosterReported) -> None:
    pass


@applies(VetoSlapped)
def _veto_slapped(s: GameState, e: VetoSlapped) -> None:
    s.extra = veto_state(s).replace(veto=e.target)


@applies(VetoServed)
def _veto_served(s: GameState, e: VetoServed) -> None:
    s.extra = veto_state(s).replace(veto=None)
