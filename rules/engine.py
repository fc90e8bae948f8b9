"""The decider: ``decide(state, command) -> events``, ``evolve(state, event) -> state``.

``decide`` checks a command against the rules and returns the events it causes, including
everything that follows without anyone having to choose (the next turn, a forced draw, the end
of the hand), or raises a ``RuleError``. ``evolve`` applies one event; it never decides and never
fails. Chance is drawn from a generator seeded by the game's seed and what is being decided
(never the global one) and its outcome is recorded in the event.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from random import Random  # seeded instances only: never the module-level generator
from typing import Any

from rules.commands import (
    Accept,
    CallUno,
    Catch,
    Challenge,
    ChooseColour,
    Command,
    DealHand,
    DrawCard,
    Pass,
    PlayCard,
    StartGame,
)
from rules.errors import IllegalCommand, InvalidCard, InvalidCommand
from rules.events import (
    CardPlayed,
    CardsDrawn,
    ChallengeResolved,
    ChoiceOffered,
    ColourChosen,
    DealerChosen,
    DirectionReversed,
    DiscardReshuffled,
    Event,
    GameEnded,
    GameStarted,
    HandDealt,
    HandEnded,
    Passed,
    Rewound,
    SeatSkipped,
    StarterReturned,
    StarterTurned,
    TurnBegan,
    UnoCalled,
    UnoCaught,
    UnoWindowClosed,
    WildDrawFourAccepted,
    dealt_cards,
)
from rules.pending import Pending
from rules.state import GameState
from rules.values import maker
from rules.variants import get_variant
from rules.variants.classic.variant import COLOUR, MAX_PLAYERS, MIN_PLAYERS, RANK, Variant

ENGINE_VERSION = 1  # bump when a change makes old snapshots unsafe to reuse

# Pending kinds the hot paths test, as module constants (a global, not an attribute, lookup).
_TURN_KIND = Pending.TURN
_DRAWN_KIND = Pending.DRAWN
_NOT_PLAYING = (Pending.START, Pending.OVER)  # tuples: a member is found by identity
_BETWEEN_HANDS = (Pending.DEAL, Pending.HAND_OVER)

SCORINGS = ("standard", "alternative", "none")


def rng(state_or_seed: GameState | str, *purpose: object) -> Random:
    """A private generator for one chance decision, seeded by the game's seed and what is
    being decided, so a game replays and re-simulates identically on every machine."""
    seed = state_or_seed if isinstance(state_or_seed, str) else state_or_seed.seed
    return Random(":".join([seed, *map(str, purpose)]))


@functools.cache
def _shuffle_plan(size: int) -> tuple[tuple[int, int], ...]:
    """For each position ``i`` a shuffle of ``size`` cards fills, last first: ``i`` and the
    bits ``random.Random._randbelow(i + 1)`` draws at a time."""
    return tuple((i, (i + 1).bit_length()) for i in range(size - 1, 0, -1))


def shuffled(gen: Random, cards: Iterable[str]) -> list[str]:
    """``cards`` in the order ``gen.shuffle`` would leave them, drawing the same bits from the
    generator (so recorded games deal the same), without its two calls per card."""
    x = list(cards)
    getrandbits = gen.getrandbits
    for i, k in _shuffle_plan(len(x)):
        j = getrandbits(k)
        while j > i:  # rejection sampling, as ``random.Random._randbelow`` does
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]
    return x


# ---------------------------------------------------------------------------------------------
# evolve


Apply = Callable[[GameState, Any], None]
APPLY: dict[type[Event], Apply] = {}


def applies(event_type: type[Event]) -> Callable[[Apply], Apply]:
    """Register how an event changes the state (editions register their own events)."""

    def register(fn: Apply) -> Apply:
        APPLY[event_type] = fn
        return fn

    return register


def evolve(state: GameState, event: Event) -> GameState:
    """The state after ``event``. Never fails, never decides; ``state`` is left as it was."""
    s = state.copy()
    _apply(s, event)
    return s


def _apply(s: GameState, event: Event) -> None:
    APPLY[type(event)](s, event)
    s.version += 1


def replay(events: Iterable[Event], state: GameState | None = None) -> GameState:
    """Fold ``events`` into a state (from ``state``, or from the beginning). A ``Rewound``
    event takes the game back to the state it had at that version, as undo requires."""
    events = events if isinstance(events, list) else list(events)
    if any(type(e) is Rewound for e in events):
        if state is not None:
            raise ValueError("a stream with undo must be replayed from its beginning")
        return fold_with_rewinds(GameState(), events, lambda version: replay(events[:version]))
    # One private copy, changed in place event by event: the same result as folding evolve,
    # without a copy per event.
    s = GameState() if state is None else state.copy()
    apply = APPLY
    for event in events:
        apply[type(event)](s, event)
    s.version += len(events)
    return s


def fold_with_rewinds(
    state: GameState, events: Sequence[Event], state_at: Callable[[int], GameState]
) -> GameState:
    """``state`` with ``events`` applied, where undo is resolved: this is the one place that
    says what a ``Rewound(to_version)`` means. The game goes on from its state at
    ``to_version`` (``state_at`` gives it: the store from a snapshot, ``replay`` from the
    stream) while the version counter keeps counting, the rewind being an event too."""
    start = 0
    for i, event in enumerate(events):
        if type(event) is Rewound:
            if i > start:
                state = replay(events[start:i], state)
            back = state_at(event.to_version).copy()
            back.version = state.version + 1
            state = back
            start = i + 1
    return replay(events[start:], state) if start < len(events) else state


def live_entries[T](log: Iterable[tuple[int, T]], rewound_to: Callable[[T], int | None]) -> list[T]:
    """The entries of a log that make the game what it is now, in order, by the meaning
    ``fold_with_rewinds`` gives undo: an entry for which ``rewound_to`` names a version takes
    the game back to what it was at that version (itself maybe reached through earlier
    rewinds); every other entry adds itself. ``log``: (version, entry) pairs in order."""
    at: dict[int, tuple[T, ...]] = {0: ()}
    now: tuple[T, ...] = ()
    for version, entry in log:
        back = rewound_to(entry)
        now = at[back] if back is not None else (*now, entry)
        at[version] = now
    return list(now)


def replay_upto(events: list[Event], version: int) -> GameState:
    """The state at ``version`` (the first ``version`` events of the stream)."""
    return replay(events[:version])


# The core events ----------------------------------------------------------------------------


@applies(GameStarted)
def _game_started(s: GameState, e: GameStarted) -> None:
    s.variant = e.variant
    s.players = e.players
    s.scoring = e.scoring
    s.target = e.target
    s.options = e.options
    s.seed = e.seed
    s.scores = (0,) * e.players
    s.hands_won = (0,) * e.players
    s.hands = ((),) * e.players
    s.sheet = e.sheet
    s.extra = get_variant(e.variant).initial_extra(e)


@applies(DealerChosen)
def _dealer_chosen(s: GameState, e: DealerChosen) -> None:
    s.dealer = e.dealer


@applies(HandDealt)
def _hand_dealt(s: GameState, e: HandDealt) -> None:
    n = s.players
    size = get_variant(s.variant).hand_size
    dealt = n * size
    # Dealing contract: seat dealer+1 gets the first card, one card at a time clockwise.
    s.hands = tuple(dealt_cards(e.deck, e.dealer, seat, n, size) for seat in range(n))
    s.pile = e.deck[dealt:]
    s.pos = 0
    s.discard = ()
    s.colour = None
    s.direction = 1
    s.dealer = e.dealer
    s.hand_number = e.hand
    s.pending = (Pending.STARTER, e.dealer)
    s.drawn = None
    s.exposed = None
    s.w4 = None
    s.reshuffles = 0
    s.shown = frozenset()
    s.extra = get_variant(s.variant).hand_extra(s)


@applies(StarterReturned)
def _starter_returned(s: GameState, e: StarterReturned) -> None:
    s.pile = s.pile[s.pos + 1 :] + (e.card,)
    s.pos = 0


@applies(StarterTurned)
def _starter_turned(s: GameState, e: StarterTurned) -> None:
    s.pos += 1
    s.discard = (e.card,)
    s.colour = COLOUR[e.card]


# What the game waits for, per seat (made once: pending is set by almost every event).
_TURN = tuple((Pending.TURN, seat) for seat in range(MAX_PLAYERS))
_PLAYING = tuple((Pending.PLAYING, seat) for seat in range(MAX_PLAYERS))
_DRAWN = tuple((Pending.DRAWN, seat) for seat in range(MAX_PLAYERS))


@applies(TurnBegan)
def _turn_began(s: GameState, e: TurnBegan) -> None:
    s.pending = _TURN[e.seat]
    s.drawn = None
    s.w4 = None


@applies(ChoiceOffered)
def _choice_offered(s: GameState, e: ChoiceOffered) -> None:
    s.pending = (e.choice, e.seat)
    s.drawn = None


@applies(CardPlayed)
def _card_played(s: GameState, e: CardPlayed) -> None:
    seat = e.seat
    card = e.card
    cards = [*s.hands[seat]]
    cards.remove(card)  # the first copy, as ``index`` would find (fewer tuples than slicing)
    hand = tuple(cards)
    hands = list(s.hands)
    hands[seat] = hand
    s.hands = tuple(hands)
    if card == "W4":
        # Kept for a challenge: the hand as it was when the card was played (a catch may
        # add cards before the challenge).
        s.w4 = (seat, s.colour, hand)  # type: ignore[assignment]
    s.discard = s.discard + (card,)
    s.colour = e.colour if e.colour is not None else COLOUR[card]
    s.drawn = None
    s.pending = _PLAYING[seat]
    if len(hand) == 1 and not e.uno:
        s.exposed = seat
    elif s.exposed == seat:
        s.exposed = None


@applies(CardsDrawn)
def _cards_drawn(s: GameState, e: CardsDrawn) -> None:
    k = len(e.cards)
    seat = e.seat
    s.pos += k
    hands = list(s.hands)
    hands[seat] += e.cards
    s.hands = tuple(hands)
    if s.exposed == seat:
        s.exposed = None
    if e.reason == "turn":
        s.pending = _DRAWN[seat]
        s.drawn = e.cards[0] if k else None


@applies(DiscardReshuffled)
def _discard_reshuffled(s: GameState, e: DiscardReshuffled) -> None:
    s.pile = s.pile[s.pos :] + e.order
    s.pos = 0
    s.discard = s.discard[-1:]
    s.reshuffles += 1


@applies(Passed)
def _passed(s: GameState, e: Passed) -> None:
    s.drawn = None


@applies(ColourChosen)
def _colour_chosen(s: GameState, e: ColourChosen) -> None:
    s.colour = e.colour


@applies(DirectionReversed)
def _direction_reversed(s: GameState, e: DirectionReversed) -> None:
    s.direction = e.direction


@applies(SeatSkipped)
def _seat_skipped(s: GameState, e: SeatSkipped) -> None:
    pass


@applies(UnoCalled)
def _uno_called(s: GameState, e: UnoCalled) -> None:
    s.exposed = None


@applies(UnoCaught)
def _uno_caught(s: GameState, e: UnoCaught) -> None:
    s.exposed = None


@applies(UnoWindowClosed)
def _uno_window_closed(s: GameState, e: UnoWindowClosed) -> None:
    s.exposed = None


@applies(ChallengeResolved)
def _challenge_resolved(s: GameState, e: ChallengeResolved) -> None:
    s.w4 = None


@applies(WildDrawFourAccepted)
def _wild_draw_four_accepted(s: GameState, e: WildDrawFourAccepted) -> None:
    s.w4 = None


@applies(HandEnded)
def _hand_ended(s: GameState, e: HandEnded) -> None:
    s.scores = e.scores
    won = e.winner
    s.hands_won = s.hands_won[:won] + (s.hands_won[won] + 1,) + s.hands_won[won + 1 :]
    s.last_hand = e
    s.exposed = None
    s.w4 = None
    s.pending = (Pending.HAND_OVER, e.winner)


@applies(GameEnded)
def _game_ended(s: GameState, e: GameEnded) -> None:
    s.winner = e.winner
    s.placings = e.placings
    s.ranks = e.ranks
    s.pending = (Pending.OVER, -1)
    s.shown = frozenset(range(s.players))


@applies(Rewound)
def _rewound(s: GameState, e: Rewound) -> None:
    # Only ``replay`` can honour a rewind (it needs the history); on its own it changes nothing.
    pass


# ---------------------------------------------------------------------------------------------
# decide


# Events and commands are values; these common ones are made once per seat.
_TURN_BEGAN = tuple(TurnBegan(seat) for seat in range(MAX_PLAYERS))
_PASSED = tuple(Passed(seat) for seat in range(MAX_PLAYERS))
_DRAW = tuple(DrawCard(seat) for seat in range(MAX_PLAYERS))
_PASS = tuple(Pass(seat) for seat in range(MAX_PLAYERS))
_DREW_ONE: dict[tuple[int, str], CardsDrawn] = {}  # (seat, card) -> its turn draw


class Decision:
    """A decision in progress: a private working copy of the state and the events so far.

    Each event is applied as soon as it is emitted, so the rest of the decision reads the
    state as it now is, and the mechanics of every event live in one place (its ``apply``).
    """

    __slots__ = ("s", "events", "variant", "chance")

    def __init__(self, state: GameState, chance: Any = None) -> None:
        self.s = state.copy()
        self.events: list[Event] = []
        self.variant: Variant = get_variant(state.variant)
        # Where chance comes from when it is not the game's seeded generators: a test's fixed
        # outcomes (rules.chance.Fixed). None everywhere else.
        self.chance = chance

    def emit(self, event: Event) -> None:
        # The working copy's version is brought up to date once, when the decision is done;
        # ``version`` is the one it would have now.
        APPLY[event.__class__](self.s, event)
        self.events.append(event)

    @property
    def version(self) -> int:
        """The version the state has after the events emitted so far."""
        return self.s.version + len(self.events)

    # Helpers the variants use --------------------------------------------------------------

    def next_seat(self, seat: int, steps: int = 1) -> int:
        s = self.s
        return (seat + s.direction * steps) % s.players

    def begin_turn(self, seat: int) -> None:
        """``seat``'s turn begins (an edition may intercept it, e.g. a VETO'd seat)."""
        if self.variant.hooks_turns:
            self.variant.begin_turn(self, seat)
        else:
            self.emit(_TURN_BEGAN[seat])

    def turn_began(self, seat: int) -> None:
        """Emit the start of ``seat``'s turn, with no edition hook."""
        self.emit(_TURN_BEGAN[seat])

    def draw(self, seat: int, count: int, reason: str) -> tuple[str, ...]:
        """``seat`` draws ``count`` cards; the discard pile is reshuffled when the draw pile
        runs out. If both run out the seat draws what there is (docs/RULINGS.md)."""
        s = self.s
        if len(s.pile) - s.pos < count and len(s.discard) > 1:
            order = None if self.chance is None else self.chance.shuffle(s.discard[:-1])
            if order is None:
                gen = rng(s, "hand", s.hand_number, "reshuffle", s.reshuffles)
                order = shuffled(gen, s.discard[:-1])
            self.emit(DiscardReshuffled(tuple(order)))
        cards = s.pile[s.pos : s.pos + count]
        if count == 1 and cards and reason == "turn":
            # The usual draw, a turn's one card: each distinct one is made once. Only that
            # kind: keeping one for every reason (a Draw One's, a last card's) would keep
            # several times as many events, which cost more in the processor's caches than
            # making the rarer draws does.
            key = (seat, cards[0])
            event = _DREW_ONE.get(key)
            if event is None:
                event = _DREW_ONE[key] = CardsDrawn(seat, cards, reason)
            self.emit(event)
        else:
            self.emit(CardsDrawn(seat, cards, reason))
        if self.variant.hooks_draws:
            self.variant.after_draw(self, seat, cards, reason)
        return cards

    def attack(self, victim: int, count: int, reason: str) -> None:
        self.variant.attack(self, victim, count, reason)

    def awaiting(self, cmd: Command, *kinds: str, referee: bool = False) -> int:
        """The seat the game waits for, if it waits for one of ``kinds`` from the sender of
        ``cmd`` (or, with ``referee``, from a referee); otherwise an ``IllegalCommand`` saying
        what the game waits for. Every command that answers a pending choice, the core's and
        every edition's, is checked here."""
        kind, pseat = self.s.pending
        seat = cmd.seat
        if kind in kinds and (seat == pseat or (referee and seat is None)):
            return pseat
        if seat is None and not referee:
            raise IllegalCommand(f"a {cmd.type!r} command must come from a seat")
        sender = "a referee" if seat is None else f"seat {seat}"
        if kind in kinds and referee:  # the right choice, the wrong seat
            raise IllegalCommand(
                f"{sender} cannot {cmd.type} now: only seat {pseat} or a referee may"
            )
        raise IllegalCommand(f"{sender} cannot {cmd.type} now: {waiting_for(self.s)}")

    def end_hand(self, winner: int) -> None:
        end_hand(self, winner)


def decide(state: GameState, command: Command, chance: Any = None) -> list[Event]:
    """The events ``command`` causes in ``state``, or a ``RuleError`` saying why not.
    ``chance``: for tests only, fixed outcomes of the next shuffles or wheel spins
    (``rules.chance.Fixed``); by default chance comes from the game's seed."""
    return _decide(state, command, chance).events


def step(state: GameState, command: Command, chance: Any = None) -> tuple[GameState, list[Event]]:
    """``decide`` and the state after its events, in one pass (what a fold would give)."""
    d = _decide(state, command, chance)
    s = d.s
    s.version += len(d.events)
    return s, d.events


_new_decision = object.__new__


def _decide(state: GameState, cmd: Command, chance: Any = None) -> Decision:
    s = state
    kind, pseat = s.pending
    if cmd.__class__ is StartGame or kind in _NOT_PLAYING:  # (one test on the hot path)
        if cmd.__class__ is StartGame:
            if kind != Pending.START:
                raise IllegalCommand("the game has already started")
            d = Decision(state, chance)
            start_game(d, cmd)
            return d
        raise IllegalCommand(
            "the game has not started" if kind == Pending.START else "the game is over"
        )
    seat = cmd.seat
    if seat.__class__ is not int or not 0 <= seat < s.players:  # (a seat is usually given)
        if seat is not None:
            raise InvalidCommand(f"no seat {seat!r} at this table", field="seat")
    d = _new_decision(Decision)  # what Decision(state) does, without the call of __init__
    d.s = state.copy()
    d.events = []
    d.variant = v = get_variant(s.variant)
    d.chance = chance
    handler = v.handlers.get(cmd.__class__)
    if handler is None:  # not in the table the edition has so far
        handler = _handler(v, cmd)
    # The UNO catch window closes when the next player begins their turn.
    if (
        s.exposed is not None
        and seat == pseat
        and seat != s.exposed
        and kind not in _BETWEEN_HANDS
        and v.closes_uno_window(cmd)
    ):
        d.emit(UnoWindowClosed(s.exposed))
    handler(d, cmd)
    return d


def waiting_for(s: GameState) -> str:
    """What the game is waiting for, in words (for errors and the views' ``pending.text``)."""
    kind, seat = s.pending
    words = _WAITING.get(kind)
    return words.format(seat=seat) if words else f"waiting for seat {seat} ({kind})"


# What each kind of wait is, in words: the core engine's and every edition's.
_WAITING: dict[str, str] = {
    Pending.START: "the game has not started",
    Pending.TURN: "it is seat {seat}'s turn",
    Pending.DRAWN: "seat {seat} may play the card just drawn or pass",
    Pending.COLOUR: "seat {seat} chooses the colour",
    Pending.CHALLENGE: "seat {seat} challenges or accepts the Wild Draw 4",
    Pending.DEAL: "seat {seat} deals the next hand",
    Pending.OVER: "the game is over",
    Pending.SHEET: "the score sheet waits for the next hand's scores",
    # UNO VETO and Wild Customizable
    Pending.NAME_COLOUR: "seat {seat} names the colour the next player draws until",
    Pending.DISCARD: "seat {seat} discards a card",
    Pending.JOKE: "whether anyone laughed at seat {seat}'s joke is reported",
    Pending.KEEP_CARD: "seat {seat}, who made someone laugh, chooses the card to keep",
    Pending.ROOSTER: "seat {seat}'s rooster call is reported",
    # UNO Spin
    Pending.SPIN: "seat {seat} spins the wheel",
    Pending.ALMOST_UNO: "seat {seat} chooses the cards to keep (Almost UNO)",
    Pending.ALMOST_UNO_SECOND: "seat {seat} chooses the second card to keep (Almost UNO)",
    Pending.ALMOST_UNO_TOP: "seat {seat} discards the rest, choosing the card on top (Almost UNO)",
    Pending.DISCARD_NUMBER: "seat {seat} discards cards of the number on top (Discard Number)",
    Pending.DISCARD_COLOUR: "seat {seat} discards cards of the colour on top (Discard Colour)",
    Pending.DISCARD_NUMBER_MORE: "seat {seat} discards more of the number on top (Discard Number)",
    Pending.DISCARD_COLOUR_MORE: "seat {seat} discards more of the colour on top (Discard Colour)",
    Pending.WAR_DISCARD: "seat {seat}, who won the War, discards the cards revealed",
    Pending.UNO_SPIN: "the first player to claim UNO Spin discards a card",
    Pending.UNO_SPIN_DISCARD: "seat {seat}, who claimed UNO Spin, discards a card",
    # UNO Power Grab
    Pending.BLOCK: "seat {seat} blocks the action card with their tower or takes it",
    Pending.KEEP: "seat {seat}, holding all four towers, chooses the card to keep (Instant UNO)",
}


# How commands are decided -------------------------------------------------------------------

Handler = Callable[["Decision", Any], None]
# command class -> the function that decides it: the core's commands, the score sheet's and every
# edition's, each registered with ``handles``. A command class's ``edition`` says which games
# take it (``None``: every game); ``handlers_for`` gives the table one edition decides with,
# kept on the edition (``Variant.handlers``) and made again when a command is not in it.
HANDLERS: dict[type[Command], Handler] = {}


def handles(*command_types: type[Command]) -> Callable[[Handler], Handler]:
    """Register ``fn(decision, command)`` as the decision of these command types."""

    def register(fn: Handler) -> Handler:
        for command_type in command_types:
            if command_type in HANDLERS and HANDLERS[command_type] is not fn:
                raise ValueError(f"{command_type.__name__} is decided twice")
            HANDLERS[command_type] = fn
        return fn

    return register


def handlers_for(variant: Variant) -> dict[type[Command], Handler]:
    """The commands a game of ``variant`` takes, each with its decision."""
    return {
        cls: fn
        for cls, fn in HANDLERS.items()
        if cls.edition is None or cls.edition == variant.name
    }


def _handler(variant: Variant, cmd: Command) -> Handler:
    """The decision of ``cmd`` in a game of ``variant``, when the edition's table does not have
    it: made again with what has been registered since, or the command is refused (it is
    another edition's: its play names its own field)."""
    variant.handlers = handlers_for(variant)
    handler = variant.handlers.get(cmd.__class__)
    if handler is not None:
        return handler
    if isinstance(cmd, PlayCard) and cmd.edition_field is not None:
        raise InvalidCommand(cmd.refusal, field=cmd.edition_field)
    raise IllegalCommand(f"{cmd.type!r} is not a command of {variant.title}")


# Starting a game and a hand -----------------------------------------------------------------


def start_game(d: Decision, cmd: StartGame) -> None:
    try:
        variant = get_variant(cmd.variant)
    except KeyError:
        raise InvalidCommand(f"unknown variant {cmd.variant!r}", field="variant") from None
    if not isinstance(cmd.players, int) or not MIN_PLAYERS <= cmd.players <= MAX_PLAYERS:
        raise InvalidCommand(
            f"a game needs {MIN_PLAYERS} to {MAX_PLAYERS} players, not {cmd.players!r}",
            field="players",
        )
    if cmd.scoring not in SCORINGS:
        raise InvalidCommand(
            f"unknown scoring {cmd.scoring!r}: expected one of {', '.join(SCORINGS)}",
            field="scoring",
        )
    if not isinstance(cmd.target, int) or isinstance(cmd.target, bool) or cmd.target < 1:
        raise InvalidCommand(
            f"the target must be a positive whole number, not {cmd.target!r}", field="target"
        )
    if not isinstance(cmd.seed, str) or not cmd.seed:
        raise InvalidCommand("the seed must be a non-empty string", field="seed")
    options = variant.parse_options(dict(cmd.options))
    if cmd.dealer is not None and not (
        isinstance(cmd.dealer, int) and 0 <= cmd.dealer < cmd.players
    ):
        raise InvalidCommand(f"no seat {cmd.dealer!r} to deal", field="dealer")
    if cmd.deck:
        check_deck(variant, cmd.deck, options)
    d.variant = variant
    d.emit(
        GameStarted(
            variant.name,
            cmd.players,
            cmd.scoring,
            cmd.target,
            options,
            cmd.seed,
            cmd.sheet,
            bool(cmd.seed_chosen),
        )
    )
    if cmd.sheet:
        # A score sheet: hands are played with physical cards and recorded (rules/sheet.py).
        d.emit(ChoiceOffered(-1, Pending.SHEET))
        return
    if cmd.dealer is None:
        draws, dealer = draw_for_dealer(
            variant, cmd.players, rng(cmd.seed, "dealer"), variant.deck_for(options)
        )
    else:
        draws, dealer = (), cmd.dealer
    d.emit(DealerChosen(draws, dealer))
    deal_hand(d, cmd.deck or None, dealer)


def draw_for_dealer(
    variant: Variant, players: int, gen: Random, cards: tuple[str, ...] | None = None
) -> tuple[tuple[tuple[str | None, ...], ...], int]:
    """Each player draws a card (from ``cards``, the game's deck; the edition's by default);
    the highest number deals (symbols count zero); players tied for highest draw again.
    Returns every round's draws and the dealer."""
    if cards is None:
        cards = variant.deck
    deck = list(cards)
    gen.shuffle(deck)
    contenders = list(range(players))
    rounds: list[tuple[str | None, ...]] = []
    while True:
        if len(deck) < len(contenders):  # practically unreachable; start over with a new deck
            deck = list(cards)
            gen.shuffle(deck)
        row: list[str | None] = [None] * players
        for seat in contenders:
            row[seat] = deck.pop()
        rounds.append(tuple(row))
        best = max(variant.dealer_value(row[seat]) for seat in contenders)  # type: ignore[arg-type]
        contenders = [seat for seat in contenders if variant.dealer_value(row[seat]) == best]  # type: ignore[arg-type]
        if len(contenders) == 1:
            return tuple(rounds), contenders[0]


def check_deck(
    variant: Variant, deck: Iterable[str], options: tuple[tuple[str, Any], ...] = ()
) -> None:
    """An explicit deck must be a complete deck of the variant (with the game's ``options``):
    every card as often as the deck has it. The error names what is wrong."""
    deck = list(deck)
    for i, code in enumerate(deck):
        if not isinstance(code, str):
            raise InvalidCommand(f"deck[{i}]: a card code must be a string", field="deck")
        if not variant.has_card(code):
            try:
                from rules.cards import card_info

                card_info(code)
            except InvalidCard as exc:
                raise InvalidCommand(f"deck[{i}]: {exc}", field="deck") from None
            raise InvalidCommand(
                f"deck[{i}]: {code} is not a card of {variant.title}", field="deck"
            )
    have, want = Counter(deck), Counter(variant.deck_for(options))
    for code in sorted(want | have):
        if have[code] != want[code]:
            raise InvalidCommand(
                f"the deck has {have[code]} of {code}; a {variant.title} deck has {want[code]}",
                field="deck",
            )


def deal_hand(d: Decision, deck: tuple[str, ...] | None, dealer: int) -> None:
    s = d.s
    number = s.hand_number + 1
    if deck is None and d.chance is not None:
        deck = d.chance.shuffle(d.variant.deck_for(s.options))
    if deck is None:
        deck = tuple(shuffled(rng(s, "hand", number), d.variant.deck_for(s.options)))
    d.emit(HandDealt(number, dealer, s.players, deck))
    variant = d.variant
    # A card that may not start the pile goes to the bottom and the next is turned up.
    for _ in range(len(s.pile)):
        card = s.pile[s.pos]
        if card not in variant.starter_returns:
            break
        d.emit(StarterReturned(card))
    d.emit(StarterTurned(s.pile[s.pos]))
    variant.starter(d, s.discard[-1])


# The core commands ---------------------------------------------------------------------------

# seat -> card -> that seat's play of that card with no colour named and no UNO called, the
# commonest event: made once (events are values). The others are made when played.
_PLAYED: tuple[dict[str, CardPlayed], ...] = tuple({} for _ in range(MAX_PLAYERS))
_make_card_played = maker(CardPlayed)


@handles(PlayCard)
def decide_play(d: Decision, cmd: PlayCard) -> None:
    """Decide a play: the core's, and an edition's own play command (``handles`` it too)."""
    s = d.s
    seat = cmd.seat
    kind, pseat = s.pending
    if pseat != seat or (kind != _TURN_KIND and kind != _DRAWN_KIND) or seat is None:
        d.awaiting(cmd, Pending.TURN, Pending.DRAWN)  # raises, saying what the game waits for
    assert seat is not None
    variant = d.variant
    card = cmd.card
    hand = s.hands[seat]
    if card not in hand:  # a card the seat holds is a card of the edition
        if not variant.has_card(card):
            raise InvalidCommand(f"{card} is not a card of {variant.title}", field="card")
        raise IllegalCommand(f"seat {seat} does not hold {card}")
    if kind == _DRAWN_KIND and card != s.drawn:
        raise IllegalCommand(f"after drawing, only the drawn card ({s.drawn}) may be played")
    colour_of_card = COLOUR[card]
    if variant.classic_matching:  # ``Variant.playable``, inlined
        top = s.discard[-1]
        matches = (
            colour_of_card is None
            or colour_of_card == s.colour
            or (
                COLOUR[top] is not None
                and RANK[card] == RANK[top]
                and variant.top_to_match(s) is not None
            )
        )
    else:
        matches = variant.playable(s, card)
    if not matches:
        raise IllegalCommand(f"{card} cannot be played on {s.discard[-1]} with {s.colour} in play")
    colour = cmd.colour
    if colour_of_card is None:
        if colour not in variant.colours:
            if colour is None:
                raise InvalidCommand(f"playing {card} needs a colour", field="colour")
            raise InvalidCommand(
                f"unknown colour {colour!r}: expected one of {', '.join(variant.colours)}",
                field="colour",
            )
    elif colour is not None:
        raise InvalidCommand(
            f"a colour is only called with a wild card, not {card}", field="colour"
        )
    uno = cmd.uno
    if uno and variant.cards_left(s, cmd) != 1:
        raise IllegalCommand("UNO is called with the play that leaves one card")
    # An edition's checks (its own play command's field, the cards that need one).
    if variant.hooks_check_play and (
        cmd.__class__ is not PlayCard or card in variant.checked_plays
    ):
        variant.check_play(s, cmd)
    if colour is None and not uno:
        played = _PLAYED[seat]
        event = played.get(card)
        if event is None:
            event = played[card] = CardPlayed(seat, card, None, False)
        d.emit(event)
    else:
        d.emit(_make_card_played(seat, card, colour, uno))
    if len(hand) == 1:  # the card played was the last
        variant.going_out(d, seat, card)
    elif card in variant.plain_cards:  # ``Variant.effect`` of a number or Wild, inlined
        nxt = (seat + s.direction) % s.players
        if variant.hooks_turns:  # ``Decision.begin_turn``, inlined
            variant.begin_turn(d, nxt)
        else:
            d.emit(_TURN_BEGAN[nxt])
    else:
        variant.effect(d, seat, card, cmd)


@handles(DrawCard)
def _draw(d: Decision, cmd: DrawCard) -> None:
    seat = cmd.seat
    if d.s.pending != _TURN[seat or 0] or seat is None:
        d.awaiting(cmd, Pending.TURN)  # raises, saying what the game waits for
    assert seat is not None
    cards = d.draw(seat, 1, "turn")
    if not cards or not d.variant.playable(d.s, cards[0]):
        pass_turn(d, seat)


def pass_turn(d: Decision, seat: int) -> None:
    d.emit(_PASSED[seat])
    s = d.s
    d.begin_turn((seat + s.direction) % s.players)  # ``d.next_seat(seat)``, inlined


@handles(Pass)
def _pass(d: Decision, cmd: Pass) -> None:
    if d.s.pending != _DRAWN[cmd.seat or 0] or cmd.seat is None:
        d.awaiting(cmd, Pending.DRAWN)  # raises, saying what the game waits for
    assert cmd.seat is not None
    pass_turn(d, cmd.seat)


@handles(CallUno)
def _call_uno(d: Decision, cmd: CallUno) -> None:
    if cmd.seat is None or d.s.exposed != cmd.seat:
        if cmd.seat is not None and d.variant.other_exposed(d, cmd):
            return
        raise IllegalCommand(
            "UNO can be called late only by a player left with one card who did not call it"
        )
    d.emit(UnoCalled(cmd.seat))


@handles(Catch)
def _catch(d: Decision, cmd: Catch) -> None:
    s = d.s
    if cmd.seat is None:
        raise IllegalCommand("a catch must come from a seat")
    if not 0 <= cmd.target < s.players:
        raise InvalidCommand(f"no seat {cmd.target} to catch", field="target")
    if cmd.target == cmd.seat:
        raise IllegalCommand("a player cannot catch themselves")
    if s.exposed != cmd.target:
        if d.variant.other_exposed(d, cmd):
            return
        raise IllegalCommand(f"seat {cmd.target} cannot be caught now")
    d.emit(UnoCaught(cmd.target, cmd.seat))
    d.draw(cmd.target, 2, "uno_penalty")


@handles(Challenge)
def _challenge(d: Decision, cmd: Challenge) -> None:
    victim = d.awaiting(cmd, Pending.CHALLENGE)
    s = d.s
    assert s.w4 is not None
    offender, colour, held = s.w4
    evidence = tuple(c for c in held if COLOUR[c] == colour)
    guilty = bool(evidence)
    # The challenged player shows the challenger their whole hand (docs/RULINGS.md).
    d.emit(ChallengeResolved(victim, offender, colour, guilty, evidence, held))
    if guilty:
        # The offender draws the four instead; the challenger then plays (docs/RULINGS.md).
        d.draw(offender, 4, "challenge_guilty")
        d.begin_turn(victim)
    else:
        d.draw(victim, 6, "challenge_innocent")
        d.emit(SeatSkipped(victim))
        d.begin_turn(d.next_seat(victim))


@handles(Accept)
def _accept(d: Decision, cmd: Accept) -> None:
    seat = d.awaiting(cmd, Pending.CHALLENGE)
    d.emit(WildDrawFourAccepted(seat))
    d.attack(seat, 4, "wild_draw_four")


@handles(ChooseColour)
def _choose_colour(d: Decision, cmd: ChooseColour) -> None:
    seat = d.awaiting(cmd, Pending.COLOUR)
    if cmd.colour not in d.variant.colours:
        raise InvalidCommand(
            f"unknown colour {cmd.colour!r}: expected one of {', '.join(d.variant.colours)}",
            field="colour",
        )
    assert cmd.colour is not None
    d.emit(ColourChosen(seat, cmd.colour))
    # The player who chooses the starting colour then takes the first turn (docs/RULINGS.md).
    d.begin_turn(seat)


@handles(DealHand)
def _deal(d: Decision, cmd: DealHand) -> None:
    dealer = d.awaiting(cmd, Pending.DEAL, referee=True)  # the dealer, or a referee for them
    if cmd.deck:
        if cmd.seat is not None:
            # The dealer shuffles: a player who chose the order would stack the deck.
            raise IllegalCommand("a seat deals a shuffled deck: only a referee chooses the order")
        check_deck(d.variant, cmd.deck, d.s.options)
    deal_hand(d, cmd.deck or None, dealer)


# The end of a hand and of the game -----------------------------------------------------------


def end_hand(d: Decision, winner: int, held: tuple[int, ...] | None = None) -> None:
    """Score the hand by the game's scoring and end the game when the target is reached.
    ``held``: the points left in each hand, when they are not the hands the state holds
    (a score sheet records them)."""
    s = d.s
    variant = d.variant
    if held is None:
        held = tuple(sum(variant.points(c) for c in hand) for hand in s.hands)
    n = s.players
    if s.scoring == "standard":
        gained = tuple(sum(held) - held[winner] if seat == winner else 0 for seat in range(n))
    elif s.scoring == "alternative":
        gained = held
    else:
        gained = (0,) * n
    scores = tuple(a + b for a, b in zip(s.scores, gained, strict=True))
    d.emit(HandEnded(s.hand_number, winner, held, gained, scores))
    result = game_result(s.scoring, s.target, winner, held, scores)
    if result is None and s.sheet:
        d.emit(ChoiceOffered(-1, Pending.SHEET))
    elif result is None:
        d.emit(ChoiceOffered((s.dealer + 1) % n, Pending.DEAL))
    else:
        placings, ranks = result
        d.emit(GameEnded(placings[0], placings, ranks, scores))


def game_result(
    scoring: str, target: int, winner: int, held: tuple[int, ...], scores: tuple[int, ...]
) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """Placings and ranks if the game is over after this hand, else ``None``.

    standard: over when the hand's winner reaches the target; higher totals place higher.
    alternative: over when anyone reaches the target; lower totals place higher, and a tie
    for the lowest total plays another hand. none: one hand; the player who went out wins,
    the others placed by the points left in their hands. Equal results share a rank.
    """
    n = len(scores)
    keys: list[tuple[int, int]]
    if scoring == "standard":
        if scores[winner] < target:
            return None
        keys = [(-scores[seat], 0) for seat in range(n)]
    elif scoring == "alternative":
        if max(scores) < target:
            return None
        low = min(scores)
        if scores.count(low) > 1:
            return None
        keys = [(scores[seat], 0) for seat in range(n)]
    else:
        keys = [(0 if seat == winner else 1, held[seat]) for seat in range(n)]
    # Ties keep seat order from the winner clockwise, so a placing list is total.
    order = sorted(range(n), key=lambda seat: (keys[seat], (seat - winner) % n))
    ranks = [0] * n
    for i, seat in enumerate(order):
        ranks[seat] = ranks[order[i - 1]] if i and keys[seat] == keys[order[i - 1]] else i + 1
    return tuple(order), tuple(ranks)


# What a seat may do ---------------------------------------------------------------------------


def legal_commands(state: GameState, seat: int) -> list[Command]:
    """Every command ``seat`` may send now, in the shape it is sent."""
    s = state
    kind, pseat = s.pending
    if kind in _NOT_PLAYING:
        return []
    variant = get_variant(s.variant)
    out: list[Command] = []
    if pseat == seat:
        if kind == _TURN_KIND:
            out = variant.turn_plays(s, seat)
            out.append(_DRAW[seat])
        elif kind == _DRAWN_KIND:
            drawn = s.drawn
            if drawn is not None and variant.playable(s, drawn):
                out += variant.play_options(s, seat, drawn, len(s.hands[seat]) - 1)
            out.append(_PASS[seat])
        elif kind == Pending.CHALLENGE:
            out += [Challenge(seat), Accept(seat)]
        elif kind == Pending.COLOUR:
            out += [ChooseColour(seat, c) for c in variant.colours]
        elif kind == Pending.DEAL:
            out.append(DealHand(seat))
    exposed = s.exposed
    if exposed is not None:
        if exposed == seat:
            out.append(CallUno(seat))
        else:
            out.append(Catch(seat, exposed))
    if variant.hooks_legal and (variant.legal_kinds is None or kind in variant.legal_kinds):
        out += variant.legal_extra(s, seat)
    return out


def at_rest(state: GameState) -> bool:
    """Whether the game waits for a command here, rather than being in the middle of what one
    command caused. Undo may only go back to a version at rest."""
    kind, seat = state.pending
    if kind == Pending.OVER or kind == Pending.SHEET:
        return True
    return 0 <= seat < state.players and bool(legal_commands(state, seat))


def new_game(
    *,
    variant: str = "classic",
    players: int = 4,
    scoring: str = "standard",
    target: int = 500,
    seed: str | int = "0",
    options: dict[str, Any] | None = None,
    dealer: int | None = None,
    deck: Iterable[str] | None = None,
    sheet: bool = False,
    seed_chosen: bool = False,
) -> tuple[GameState, list[Event]]:
    """Start a game and deal its first hand (or, for a score sheet, wait for the first hand
    to be recorded): the state and the events that made it."""
    cmd = StartGame(
        None,
        variant=variant,
        players=players,
        scoring=scoring,
        target=target,
        seed=str(seed),
        options=tuple(sorted((options or {}).items())),
        dealer=dealer,
        deck=tuple(deck or ()),
        sheet=sheet,
        seed_chosen=seed_chosen,
    )
    return step(GameState(), cmd)
