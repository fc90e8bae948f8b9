"""UNO VETO and Wild Customizable: classic UNO in purple, green, orange and yellow, with up to
three Wild Customizable cards (``WC``, 40 points) that carry the table's house rules, and the
VETO card, which is never dealt: it lies in the middle and any player may slap it on another,
who then skips their next turn (rulebook: shared/rulebooks/uno-veto-customizable.txt).

Option ``customizable`` (validated strictly; an error names the option and the entry): the Wild
Customizable cards in the deck and the house rule written on each, as a list of 0 to 3 entries,
one per card (``[]``: no Customizable card in the deck), or a number 0 to 3 for that many blank
cards. The default is three blank cards. An entry is

* a thought-starter of the rulebook, by name or by its number in the rulebook:
  1 ``draw_until_colour`` the next player draws until they draw a card of a colour the player
  names; 2 ``discard_wilds`` everyone but the player discards all their wild cards;
  3 ``three_if_stuck`` if the next player cannot play a card, they take three cards;
  4 ``extra_turn``; 5 ``seven_cards`` the next player draws or discards until they hold 7;
  6 ``three_cards`` everyone draws or discards until they hold 3; 7 ``face_up`` every hand is
  played face up until the player's next turn; 8 ``joke`` the player tells a joke: someone
  laughed, they discard down to one card; nobody laughed, they draw 4; 9 ``elbows`` (cannot be
  carried out by a program: recorded, like free text); 10 ``rooster`` the next player performs
  a rooster call or chickens out and draws 4;
* ``"blank"``: nothing written on the card: it plays as a plain wild;
* ``"text:<any house rule>"`` (or ``{"text": "..."}``): a rule the engine cannot carry out; it is
  recorded in the event when the card is played and otherwise plays as a plain wild.

For example ``python -m rules.simulate --variant veto --option customizable='["joke", 4, "text:Sing"]'``
or ``--option customizable=2``. A played ``WC`` names its rule in ``PlayCard.rule`` (needed only
when the hand holds Customizable cards with different rules). Which card is which is chance,
recorded in the events (``customizable_dealt``, ``house_rules_drawn``): the cards look alike
from the back, so a seat learns the rule of a card when it receives it, and the table when it
is played. Every ruling is in docs/RULINGS.md under "UNO VETO and Wild Customizable".
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, ClassVar

from rules.commands import Command, PlayCard, _card, _colour, _flag, _seat, _word, register_command
from rules.engine import applies, pass_turn, rng
from rules.errors import IllegalCommand, InvalidCommand
from rules.events import ChoiceOffered, Event, UnoWindowClosed, register_event
from rules.variants.classic import COLOUR, Variant, standard_deck

if TYPE_CHECKING:
    from rules.engine import Decision
    from rules.state import GameState

WC = "WC"
MAX_CUSTOMIZABLE = 3
MAX_TEXT = 200

# The rulebook's thought-starters, by name: (number in the rulebook, its words).
THOUGHT_STARTERS: dict[str, tuple[int, str]] = {
    "draw_until_colour": (1, "The next player must draw until they draw a card of a certain color."),
    "discard_wilds": (2, "Everyone but you must discard all their Wild cards."),
    "three_if_stuck": (3, "If the next player can't play a card, they take THREE cards from the DRAW pile."),
    "extra_turn": (4, "Take an extra turn."),
    "seven_cards": (5, "The next player must draw or discard until they have exactly 7 cards."),
    "three_cards": (6, "Everyone must discard (or draws) until they have exactly 3 cards."),
    "face_up": (7, "Everyone must play with their hand face up until your next turn."),
    "joke": (8, 'Tell a joke. If someone laughs, discard down to 1 card (don\'t forget to yell "UNO!"). '
             "If no one laughs, draw 4 cards."),
    "elbows": (9, 'The next player cannot bend their elbows until someone says "UNO!"'),
    "rooster": (10, 'The next player must perform their best rooster call or "chicken out" and draw 4 cards.'),
}
BY_NUMBER = {number: name for name, (number, _) in THOUGHT_STARTERS.items()}
BLANK = "blank"
TEXT = "text:"

# Pending kinds that belong to a hand in progress (the VETO may be slapped during any of them).
_BETWEEN_HANDS = frozenset({"start", "deal", "hand_over", "over"})


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
            raise InvalidCommand(f"{where}: a free-text house rule is {{\"text\": \"...\"}}", field=where)
        value = TEXT + str(value["text"]) if isinstance(value["text"], str) else None
    if isinstance(value, bool) or value is None:
        raise InvalidCommand(f"{where}: expected a house rule, got {value!r}", field=where)
    if isinstance(value, int):
        if value not in BY_NUMBER:
            raise InvalidCommand(f"{where}: the rulebook's thought-starters are numbered 1 to 10, not {value}", field=where)
        return BY_NUMBER[value]
    if not isinstance(value, str):
        raise InvalidCommand(f"{where}: expected a house rule, got {value!r}", field=where)
    if value.startswith(TEXT):
        text = value[len(TEXT) :].strip()
        if not text:
            raise InvalidCommand(f"{where}: a free-text house rule needs its text", field=where)
        if len(text) > MAX_TEXT:
            raise InvalidCommand(f"{where}: a house rule is at most {MAX_TEXT} characters", field=where)
        return TEXT + text
    if value in THOUGHT_STARTERS or value == BLANK:
        return value
    known = ", ".join([*THOUGHT_STARTERS, BLANK])
    raise InvalidCommand(
        f"{where}: unknown house rule {value!r} (known: {known}; or \"text:...\" for any other)", field=where
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


def held_of(s: GameState, x: VetoState, seat: int) -> tuple[str, ...]:
    """The house rules of the Customizable cards in ``seat``'s hand."""
    if x.tracked:
        return x.held[seat]
    n = s.hands[seat].count(WC)
    return (x.rules[0],) * n if n else ()


def in_discard(s: GameState, x: VetoState, discard: tuple[str, ...] | None = None) -> tuple[str, ...]:
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


def _without(rules: tuple[str, ...], gone: tuple[str, ...]) -> tuple[str, ...]:
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


def _x(s: GameState) -> VetoState:
    return s.extra  # type: ignore[no-any-return]


@applies(CustomizableDealt)
def _customizable_dealt(s: GameState, e: CustomizableDealt) -> None:
    s.extra = replace(_x(s), held=e.held, discard_rules=() if e.top is None else (e.top,))


@applies(HouseRulesDrawn)
def _house_rules_drawn(s: GameState, e: HouseRulesDrawn) -> None:
    x = _x(s)
    if e.rules:
        held = x.held[e.seat] + e.rules
        hands = x.held[: e.seat] + (tuple(sorted(held)),) + x.held[e.seat + 1 :]
        s.extra = replace(
            x, held=hands, discard_rules=in_discard(s, x), synced=s.reshuffles, drawn_rule=e.drawn
        )
    elif x.drawn_rule is not None:
        s.extra = replace(x, drawn_rule=None)


def _to_discard(s: GameState, x: VetoState, rules: tuple[str, ...], under_top: bool) -> VetoState:
    """``x`` with ``rules`` added to the discard pile's: under the top card (before the cards
    go there), or on top (the card is already there)."""
    if under_top:
        pile = in_discard(s, x)
        pile = pile[:-1] + rules + pile[-1:] if s.discard[-1] == WC else pile + rules
    else:
        pile = in_discard(s, x, s.discard[:-1]) + rules
    return replace(x, discard_rules=pile, synced=s.reshuffles)


@applies(CustomizablePlayed)
def _customizable_played(s: GameState, e: CustomizablePlayed) -> None:
    # The card itself went onto the pile with CardPlayed, just before.
    x = _x(s)
    if not x.tracked:
        s.extra = replace(x, player=e.seat)
        return
    held = x.held[: e.seat] + (_without(x.held[e.seat], (e.rule,)),) + x.held[e.seat + 1 :]
    x = replace(x, held=held, drawn_rule=None, player=e.seat)
    s.extra = _to_discard(s, x, (e.rule,), under_top=False)


@applies(CardsDiscarded)
def _cards_discarded(s: GameState, e: CardsDiscarded) -> None:
    x = _x(s)
    seat = e.seat
    hand = list(s.hands[seat])
    for card in e.cards:
        hand.remove(card)
    s.hands = s.hands[:seat] + (tuple(hand),) + s.hands[seat + 1 :]
    # Under the top card: the card on top and the colour in play do not change.
    if x.tracked:
        x = _to_discard(s, x, e.rules, under_top=True)
        held = x.held[:seat] + (_without(x.held[seat], e.rules),) + x.held[seat + 1 :]
        x = replace(x, held=held)
    s.discard = s.discard[:-1] + e.cards + s.discard[-1:]
    queue = x.queue
    if queue and queue[0][0] == seat and len(hand) <= queue[0][1]:
        s.extra = replace(x, queue=queue[1:])
    else:
        s.extra = x
    if e.uno is False and len(hand) == 1:
        s.exposed = seat
    elif s.exposed == seat:
        s.exposed = None


@applies(DiscardsOwed)
def _discards_owed(s: GameState, e: DiscardsOwed) -> None:
    s.extra = replace(_x(s), queue=e.queue)


@applies(ColourNamed)
def _colour_named(s: GameState, e: ColourNamed) -> None:
    pass


@applies(StuckRuleSet)
def _stuck_rule_set(s: GameState, e: StuckRuleSet) -> None:
    x = _x(s)
    s.extra = replace(x, stuck=_with_seat(x.stuck, e.seat))


@applies(StuckChecked)
def _stuck_checked(s: GameState, e: StuckChecked) -> None:
    x = _x(s)
    s.extra = replace(x, stuck=tuple(seat for seat in x.stuck if seat != e.seat))


@applies(HandsShown)
def _hands_shown(s: GameState, e: HandsShown) -> None:
    x = _x(s)
    s.extra = replace(x, showing=_with_seat(x.showing, e.seat))
    s.shown = frozenset(range(s.players))


@applies(HandsHidden)
def _hands_hidden(s: GameState, e: HandsHidden) -> None:
    x = _x(s)
    showing = tuple(seat for seat in x.showing if seat != e.seat)
    s.extra = replace(x, showing=showing)
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
    s.extra = replace(_x(s), veto=e.target)


@applies(VetoServed)
def _veto_served(s: GameState, e: VetoServed) -> None:
    s.extra = replace(_x(s), veto=None)


# ---------------------------------------------------------------------------------------------
# Commands


def _report(optional: bool = False) -> Any:
    return field(default=False, metadata={"kind": "bool", "optional": optional})


@register_command
@dataclass(frozen=True, slots=True)
class SlapVeto(Command):
    """Slap the VETO card on another player (``seat`` in the API), at any time during a hand
    while it lies in the middle: they skip their next turn."""

    type: ClassVar[str] = "veto"
    bot_rate: ClassVar[float] = 0.05  # a random bot slaps rarely, or hands would drag on
    target: int = _seat(json="seat")


@register_command
@dataclass(frozen=True, slots=True)
class NameColour(Command):
    """Name the colour the next player draws until (house rule ``draw_until_colour``)."""

    type: ClassVar[str] = "name_colour"
    colour: str | None = _colour(optional=False)


@register_command
@dataclass(frozen=True, slots=True)
class DiscardCard(Command):
    """Discard one card under a house rule that makes you discard down to a number of cards
    (one command per card). ``rule``: which Customizable card, when the hand holds several."""

    type: ClassVar[str] = "discard"
    card: str = _card()
    rule: str | None = _word()


@register_command
@dataclass(frozen=True, slots=True)
class ReportJoke(Command):
    """Report whether someone laughed at the joke (the player who told it, or a referee)."""

    type: ClassVar[str] = "joke"
    laughed: bool = _report()


@register_command
@dataclass(frozen=True, slots=True)
class KeepCard(Command):
    """Someone laughed: keep ``card`` and discard the rest of the hand; ``uno``: call UNO."""

    type: ClassVar[str] = "keep"
    card: str = _card()
    rule: str | None = _word()
    uno: bool = _flag()


@register_command
@dataclass(frozen=True, slots=True)
class ReportRooster(Command):
    """Report the rooster call: ``performed``, or chickened out (and draw 4)."""

    type: ClassVar[str] = "rooster"
    performed: bool = _report()


_CHOICES = frozenset({"name_colour", "discard", "joke", "keep", "rooster"})
_OWN_TYPES = _CHOICES | {"veto"}


# ---------------------------------------------------------------------------------------------
# The edition


class Veto(Variant):
    """UNO VETO and Wild Customizable (rulebook: shared/rulebooks/uno-veto-customizable.txt)."""

    name = "veto"
    title = "UNO VETO"
    colours = ("P", "G", "O", "Y")

    out_of_turn_types = frozenset({"catch", "call_uno", "veto"})

    def __init__(self) -> None:
        super().__init__()
        self._decks: dict[int, tuple[str, ...]] = {}
        self._wc_cache: dict[tuple[int, tuple[str | None, ...], bool], list[Command]] = {}
        self._slaps: dict[tuple[int, int], list[Command]] = {}

    # Data ----------------------------------------------------------------------------------

    def build_deck(self) -> tuple[str, ...]:
        return standard_deck(self.colours) + (WC,) * MAX_CUSTOMIZABLE

    def deck_for(self, options: tuple[tuple[str, Any], ...]) -> tuple[str, ...]:
        count = len(_rules_of(options))
        deck = self._decks.get(count)
        if deck is None:
            deck = self._decks[count] = standard_deck(self.colours) + (WC,) * count
        return deck

    def parse_options(self, options: dict[str, Any]) -> tuple[tuple[str, Any], ...]:
        for name in sorted(options):
            if name != "customizable":
                raise InvalidCommand(
                    f"unknown option {name!r} for {self.name} (known: customizable)", field=f"options.{name}"
                )
        value = options.get("customizable", MAX_CUSTOMIZABLE)
        where = "options.customizable"
        if isinstance(value, bool):
            raise InvalidCommand(f"{where}: expected a list of house rules or a number 0 to 3", field=where)
        if isinstance(value, int):
            if not 0 <= value <= MAX_CUSTOMIZABLE:
                raise InvalidCommand(
                    f"{where}: a deck has 0 to {MAX_CUSTOMIZABLE} Wild Customizable cards, not {value}", field=where
                )
            rules = (BLANK,) * value
        elif isinstance(value, (list, tuple)):
            if len(value) > MAX_CUSTOMIZABLE:
                raise InvalidCommand(
                    f"{where}: a deck has at most {MAX_CUSTOMIZABLE} Wild Customizable cards, not {len(value)}",
                    field=where,
                )
            rules = tuple(parse_rule(v, f"{where}[{i}]") for i, v in enumerate(value))
        else:
            raise InvalidCommand(f"{where}: expected a list of house rules or a number 0 to 3", field=where)
        return (("customizable", rules),)

    def initial_extra(self, started: Any) -> VetoState:
        return _fresh(_rules_of(started.options), started.players)

    def hand_extra(self, s: GameState) -> VetoState:
        # Each hand starts with the VETO in the middle and no house rule in force.
        return _fresh(_x(s).rules, s.players)

    # Dealing and drawing: which Customizable card is which -----------------------------------

    def starter(self, d: Decision, card: str) -> None:
        s = d.s
        x = _x(s)
        if x.tracked:
            pool = list(x.rules)
            rng(s, "hand", s.hand_number, "customizable").shuffle(pool)
            held = []
            for hand in s.hands:
                k = hand.count(WC)
                held.append(tuple(sorted(pool[:k])))
                del pool[:k]
            top = pool.pop(0) if s.discard[-1] == WC else None
            d.emit(CustomizableDealt(tuple(held), top))
        # A Customizable card turned up is a wild turned up: the player left of the dealer
        # chooses the colour, and its house rule does not apply (docs/RULINGS.md).
        super().starter(d, card)

    def after_draw(self, d: Decision, seat: int, cards: tuple[str, ...], reason: str) -> None:
        s = d.s
        x = s.extra
        if not x.tracked:
            return
        k = cards.count(WC)
        if not k:
            d.emit(_NOTHING_DRAWN[seat])
            return
        # The cards in the draw pile are in a random order, so each Customizable card drawn
        # carries any of the rules still in the pile with equal chance.
        # in_pile still counts the cards just drawn (they are not held yet).
        pool = in_pile(s, x)
        picks = rng(s, "hand", s.hand_number, "customizable", s.version).sample(pool, k)
        drawn = picks[0] if reason == "turn" and cards[0] == WC else None
        d.emit(HouseRulesDrawn(seat, tuple(picks), drawn))

    # Playing a Customizable card ----------------------------------------------------------

    def play_options(self, s: GameState, seat: int, card: str, leaves: int) -> list[Command]:
        if card != WC:
            options = self._play_cache.get((seat, card, leaves == 1))
            return options if options is not None else Variant.play_options(self, s, seat, card, leaves)
        x = _x(s)
        rules: tuple[str | None, ...]
        if not x.tracked:
            rules = x.rules[:1]
        elif s.pending[0] == "drawn":
            rules = (x.drawn_rule,)
        else:
            rules = tuple(dict.fromkeys(x.held[seat]))
        key = (seat, rules, leaves == 1)
        options = self._wc_cache.get(key)
        if options is None:
            unos = (False, True) if leaves == 1 else (False,)
            options = [PlayCard(seat, WC, c, uno, rule=r) for r in rules for c in self.colours for uno in unos]
            self._wc_cache[key] = options
        return options

    def check_play(self, s: GameState, cmd: PlayCard) -> None:
        if cmd.give is not None:
            raise InvalidCommand("give is only for the Mod card", field="give")
        if cmd.towers:
            raise InvalidCommand("towers are only for Power Grab cards", field="towers")
        if cmd.card != WC:
            if cmd.rule is not None:
                raise InvalidCommand("rule is only for Wild Customizable cards", field="rule")
            return
        assert cmd.seat is not None
        self.rule_played(s, cmd.seat, cmd.rule)

    def rule_played(self, s: GameState, seat: int, rule: str | None) -> str:
        """The house rule of the Customizable card ``seat`` plays, naming ``rule`` (or not)."""
        x = _x(s)
        if s.pending[0] == "drawn" and x.tracked:
            drawn = x.drawn_rule
            assert drawn is not None
            if rule is not None and rule != drawn:
                raise IllegalCommand(
                    f"after drawing, only the card drawn may be played: the Wild Customizable card with {drawn!r}"
                )
            return drawn
        return _pick(held_of(s, x, seat), seat, rule, "play")

    def effect(self, d: Decision, seat: int, card: str, cmd: PlayCard) -> None:
        if card != WC:
            return Variant.effect(self, d, seat, card, cmd)
        # check_play has checked the choice; the card has left the hand, not its rule yet.
        x = _x(d.s)
        rule = cmd.rule
        if rule is None:
            # Unnamed: the card just drawn, or the only rule the hand holds.
            if x.tracked:
                held = x.held[seat]
                rule = x.drawn_rule if x.drawn_rule in held else held[0]
            else:
                rule = x.rules[0]
        d.emit(CustomizablePlayed(seat, rule, rule_text(rule)))
        self.carry_out(d, seat, rule)

    def going_out(self, d: Decision, seat: int, card: str) -> None:
        if card == WC:
            # The round is over once a player has no cards: the house rule on a last card is
            # not carried out (docs/RULINGS.md).
            x = _x(d.s)
            rule = x.held[seat][0] if x.tracked else x.rules[0]
            d.emit(CustomizablePlayed(seat, rule, rule_text(rule)))
        Variant.going_out(self, d, seat, card)

    def carry_out(self, d: Decision, seat: int, rule: str) -> None:
        """The house rule ``seat`` just played, then the next turn."""
        nxt = d.next_seat(seat)
        if rule == "draw_until_colour":
            d.emit(ChoiceOffered(seat, "name_colour"))
        elif rule == "discard_wilds":
            self._discard_wilds(d, seat)
        elif rule == "three_if_stuck":
            d.emit(StuckRuleSet(nxt))
            d.begin_turn(nxt)
        elif rule == "extra_turn":
            d.begin_turn(seat)
        elif rule == "seven_cards":
            self._resize(d, seat, (nxt,), 7)
        elif rule == "three_cards":
            self._resize(d, seat, tuple(d.next_seat(seat, k) for k in range(d.s.players)), 3)
        elif rule == "face_up":
            d.emit(HandsShown(seat))
            d.begin_turn(nxt)
        elif rule == "joke":
            d.emit(ChoiceOffered(seat, "joke"))
        elif rule == "rooster":
            d.emit(ChoiceOffered(nxt, "rooster"))
        else:  # blank, elbows, free text: a plain wild
            d.begin_turn(nxt)

    def _discard_wilds(self, d: Decision, seat: int) -> None:
        s = d.s
        others = [d.next_seat(seat, k) for k in range(1, s.players)]
        for other in others:
            wilds = tuple(c for c in s.hands[other] if COLOUR[c] is None)
            if wilds:
                d.emit(CardsDiscarded(other, wilds, held_of(s, _x(s), other), "discard_wilds"))
        # Once a player has no cards left, the round is over (the first, in turn order).
        for other in others:
            if not s.hands[other]:
                d.end_hand(other)
                return
        d.begin_turn(others[0])

    def _resize(self, d: Decision, seat: int, seats: tuple[int, ...], size: int) -> None:
        s = d.s
        queue = []
        for t in seats:
            n = len(s.hands[t])
            if n < size:
                d.draw(t, size - n, "house_rule")
            elif n > size:
                queue.append((t, size))
        if queue:
            d.emit(DiscardsOwed(tuple(queue)))
            d.emit(ChoiceOffered(queue[0][0], "discard"))
        else:
            d.begin_turn(d.next_seat(seat))

    # Turns: the VETO, the face-up rule, the three-card rule --------------------------------------

    def begin_turn(self, d: Decision, seat: int) -> None:
        x = d.s.extra
        if x.veto == seat:
            d.emit(VetoServed(seat))
            d.begin_turn(d.next_seat(seat))
            return
        if seat in x.showing:
            d.emit(HandsHidden(seat))
        d.turn_began(seat)
        if seat in x.stuck:
            s = d.s
            playable = self.playable
            stuck = not any(playable(s, c) for c in s.hands[seat])
            d.emit(StuckChecked(seat, stuck))
            if stuck:
                # They cannot play: they take three cards, and the turn passes.
                if s.exposed is not None and s.exposed != seat:
                    d.emit(UnoWindowClosed(s.exposed))
                d.draw(seat, 3, "three_if_stuck")
                pass_turn(d, seat)

    # The edition's own commands --------------------------------------------------------------

    def out_of_turn_open(self, s: GameState) -> bool:
        if s.exposed is not None:
            return True
        x = s.extra
        return x is not None and x.veto is None and s.pending[0] not in _BETWEEN_HANDS

    def out_of_turn_rare(self, s: GameState) -> bool:
        # With no UNO to catch, only the VETO is open out of turn (all hand long).
        return s.exposed is None

    def closes_uno_window(self, cmd: Command) -> bool:
        # A house rule's choices and a VETO slap are not the next player beginning a turn.
        return cmd.type not in ("call_uno", "catch") and cmd.type not in _OWN_TYPES

    def legal_extra(self, s: GameState, seat: int) -> list[Command]:
        kind, pseat = s.pending
        x = s.extra
        if x.veto is None:
            slaps = self._slaps.get((seat, s.players))
            if slaps is None:
                slaps = self._slaps[(seat, s.players)] = [SlapVeto(seat, t) for t in range(s.players) if t != seat]
        else:
            slaps = []
        if pseat != seat or kind not in _CHOICES:
            return [] if kind in _BETWEEN_HANDS else slaps  # shared: callers do not change it
        hand = s.hands[seat]
        out: list[Command]
        if kind == "name_colour":
            out = [NameColour(seat, c) for c in self.colours]
        elif kind == "discard":
            out = [DiscardCard(seat, c, r) for c, r in _each_card(hand, held_of(s, x, seat))]
        elif kind == "keep":
            out = [KeepCard(seat, c, r, uno) for c, r in _each_card(hand, held_of(s, x, seat)) for uno in (False, True)]
        elif kind == "joke":
            out = [ReportJoke(seat, True), ReportJoke(seat, False)]
        else:
            out = [ReportRooster(seat, True), ReportRooster(seat, False)]
        return out + slaps

    def decide_extra(self, d: Decision, cmd: Command) -> None:
        kind = type(cmd)
        if kind is SlapVeto:
            self._slap(d, cmd)  # type: ignore[arg-type]
        elif kind is NameColour:
            self._name_colour(d, cmd)  # type: ignore[arg-type]
        elif kind is DiscardCard:
            self._discard(d, cmd)  # type: ignore[arg-type]
        elif kind is ReportJoke:
            self._joke(d, cmd)  # type: ignore[arg-type]
        elif kind is KeepCard:
            self._keep(d, cmd)  # type: ignore[arg-type]
        elif kind is ReportRooster:
            self._rooster(d, cmd)  # type: ignore[arg-type]
        else:
            Variant.decide_extra(self, d, cmd)

    def _slap(self, d: Decision, cmd: SlapVeto) -> None:
        s = d.s
        seat, target = cmd.seat, cmd.target
        if seat is None:
            raise IllegalCommand("the VETO card is slapped by a player, not a referee")
        if s.pending[0] in _BETWEEN_HANDS:
            raise IllegalCommand("the VETO card can be slapped only while a hand is played")
        if not (isinstance(target, int) and 0 <= target < s.players):
            raise InvalidCommand(f"no seat {target!r} to slap the VETO on", field="seat")
        if target == seat:
            raise IllegalCommand("a player cannot slap the VETO card on themselves")
        veto = _x(s).veto
        if veto is not None:
            raise IllegalCommand(f"the VETO card is not in the middle: seat {veto} has it until they skip a turn")
        d.emit(VetoSlapped(seat, target))

    def _require(self, d: Decision, cmd: Command, kind: str, referee: bool = False) -> int:
        """The seat the pending ``kind`` waits for, if ``cmd`` may answer it."""
        pkind, pseat = d.s.pending
        if pkind != kind or not (cmd.seat == pseat or (referee and cmd.seat is None)):
            who = "a referee or the seat it waits for" if referee else f"seat {pseat}"
            sender = "a referee" if cmd.seat is None else f"seat {cmd.seat}"
            if pkind != kind:
                raise IllegalCommand(f"{sender} cannot {cmd.type} now: waiting for seat {pseat} ({pkind})")
            raise IllegalCommand(f"{sender} cannot {cmd.type} now: only {who} may")
        return pseat

    def _name_colour(self, d: Decision, cmd: NameColour) -> None:
        seat = self._require(d, cmd, "name_colour")
        colour = cmd.colour
        if colour not in self.colours:
            raise InvalidCommand(
                f"unknown colour {colour!r}: expected one of {', '.join(self.colours)}", field="colour"
            )
        victim = d.next_seat(seat)
        d.emit(ColourNamed(seat, colour, victim))
        s = d.s
        while True:
            rest = s.pile[s.pos :]
            if not rest:
                if len(s.discard) <= 1:
                    break  # nothing left to draw (docs/RULINGS.md)
                cards = d.draw(victim, 1, "draw_until_colour")  # reshuffles the discard pile
                if not cards or COLOUR[cards[0]] == colour:
                    break
                continue
            for i, card in enumerate(rest):
                if COLOUR[card] == colour:
                    d.draw(victim, i + 1, "draw_until_colour")
                    break
            else:
                d.draw(victim, len(rest), "draw_until_colour")
                continue
            break
        d.begin_turn(victim)

    def _discard(self, d: Decision, cmd: DiscardCard) -> None:
        seat = self._require(d, cmd, "discard")
        s = d.s
        if cmd.card not in s.hands[seat]:
            raise IllegalCommand(f"seat {seat} does not hold {cmd.card}")
        rules: tuple[str, ...] = ()
        if cmd.card == WC:
            rules = (_pick(held_of(s, _x(s), seat), seat, cmd.rule, "discard"),)
        elif cmd.rule is not None:
            raise InvalidCommand("rule is only for Wild Customizable cards", field="rule")
        d.emit(CardsDiscarded(seat, (cmd.card,), rules, "house_rule"))
        x = _x(s)
        if x.queue:
            if x.queue[0][0] != seat:
                d.emit(ChoiceOffered(x.queue[0][0], "discard"))
        else:
            assert x.player is not None
            d.begin_turn(d.next_seat(x.player))

    def _joke(self, d: Decision, cmd: ReportJoke) -> None:
        seat = self._require(d, cmd, "joke", referee=True)
        if not isinstance(cmd.laughed, bool):
            raise InvalidCommand("laughed: expected true or false", field="laughed")
        d.emit(JokeReported(seat, cmd.laughed, cmd.seat))
        if cmd.laughed:
            if len(d.s.hands[seat]) > 1:
                d.emit(ChoiceOffered(seat, "keep"))
                return
        else:
            d.draw(seat, 4, "joke")
        d.begin_turn(d.next_seat(seat))

    def _keep(self, d: Decision, cmd: KeepCard) -> None:
        seat = self._require(d, cmd, "keep")
        s = d.s
        hand = list(s.hands[seat])
        if cmd.card not in hand:
            raise IllegalCommand(f"seat {seat} does not hold {cmd.card}")
        held = held_of(s, _x(s), seat)
        if cmd.card == WC:
            held = _without(held, (_pick(held, seat, cmd.rule, "keep"),))
        elif cmd.rule is not None:
            raise InvalidCommand("rule is only for Wild Customizable cards", field="rule")
        hand.remove(cmd.card)
        d.emit(CardsDiscarded(seat, tuple(hand), held, "joke", cmd.uno))
        d.begin_turn(d.next_seat(seat))

    def _rooster(self, d: Decision, cmd: ReportRooster) -> None:
        seat = self._require(d, cmd, "rooster", referee=True)
        if not isinstance(cmd.performed, bool):
            raise InvalidCommand("performed: expected true or false", field="performed")
        d.emit(RoosterReported(seat, cmd.performed, cmd.seat))
        if not cmd.performed:
            d.draw(seat, 4, "rooster")
        d.begin_turn(seat)

    # Checks ----------------------------------------------------------------------------------

    def invariants(self, s: GameState) -> list[str]:
        x = s.extra
        if not isinstance(x, VetoState):
            return ["the edition state is not a VetoState"]
        out = []
        if len(x.held) != s.players:
            return [f"house rules held for {len(x.held)} seats at a table of {s.players}"]
        if not x.tracked:
            if any(x.held) or x.discard_rules or x.drawn_rule is not None:
                out.append("house rules recorded for Customizable cards that are not told apart")
            x = replace(x, held=tuple(held_of(s, x, seat) for seat in range(s.players)),
                        discard_rules=x.rules[:1] * s.discard.count(WC), synced=s.reshuffles)
        for seat, hand in enumerate(s.hands):
            if hand.count(WC) != len(x.held[seat]):
                out.append(f"seat {seat} holds {hand.count(WC)} WC but {len(x.held[seat])} house rules")
        discard = in_discard(s, x)
        if s.discard.count(WC) != len(discard):
            out.append(f"the discard pile has {s.discard.count(WC)} WC but {len(discard)} house rules")
        rest = Counter(x.rules)
        for h in (*x.held, discard):
            rest.subtract(h)
        if any(n < 0 for n in rest.values()):
            out.append(f"more house rules in play than on the cards: {dict(rest)}")
        elif sum(rest.values()) != s.pile[s.pos :].count(WC):
            out.append("the draw pile's WC cards do not match the house rules left")
        if x.veto is not None and not 0 <= x.veto < s.players:
            out.append(f"the VETO lies on seat {x.veto}")
        if bool(x.showing) != bool(s.shown) and s.pending[0] != "over":
            out.append("hands face up without a face-up rule, or the other way round")
        kind, pseat = s.pending
        if kind == "discard" and not (x.queue and x.queue[0][0] == pseat and len(s.hands[pseat]) > x.queue[0][1]):
            out.append(f"seat {pseat} discards with nothing owed")
        if kind == "drawn" and s.drawn == WC and x.tracked and x.drawn_rule not in x.held[pseat]:
            out.append("the Wild Customizable card just drawn has no house rule")
        return out


def _rules_of(options: Any) -> tuple[str, ...]:
    for key, value in options:
        if key == "customizable":
            return tuple(value)
    return (BLANK,) * MAX_CUSTOMIZABLE


def _fresh(rules: tuple[str, ...], players: int) -> VetoState:
    return VetoState(rules=rules, tracked=len(set(rules)) > 1, held=((),) * players)


def _pick(held: tuple[str, ...], seat: int, rule: str | None, doing: str) -> str:
    """The rule of the Customizable card ``seat`` chooses among ``held``, naming ``rule``."""
    if rule is None:
        distinct = sorted(set(held))
        if len(distinct) > 1:
            raise InvalidCommand(
                f"name the house rule of the Wild Customizable card to {doing} (rule): one of {', '.join(distinct)}",
                field="rule",
            )
        return held[0]
    if rule not in held:
        raise IllegalCommand(f"seat {seat} holds no Wild Customizable card with the house rule {rule!r}")
    return rule


def _each_card(hand: tuple[str, ...], held: tuple[str, ...]) -> list[tuple[str, str | None]]:
    """Each distinct card of ``hand`` once; a Customizable card once per distinct rule."""
    out: list[tuple[str, str | None]] = []
    for card in dict.fromkeys(hand):
        if card == WC:
            out += [(WC, r) for r in dict.fromkeys(held)]
        else:
            out.append((card, None))
    return out


_NOTHING_DRAWN = tuple(HouseRulesDrawn(seat, (), None) for seat in range(10))
