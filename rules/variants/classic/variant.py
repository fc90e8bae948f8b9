"""Classic UNO, and the base every edition builds on.

An edition is a ``Variant``: its deck, colours, card points, matching, and small hooks the
engine calls at fixed points (a card's effect, the starting card, going out, an attack on a
seat, the start of a turn, a draw). Classic UNO is the base class itself; an edition subclasses
it and overrides only what its rulebook changes. Every edition is a package of the same modules
as this one: ``variant`` (the rules, and an ``@handles`` function deciding each of its
commands), ``commands`` and ``events`` (docs/decisions/0009-editions-plug-in.md).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from rules.cards import COLOUR_NAMES, card_info
from rules.commands import Command, PlayCard
from rules.errors import InvalidCommand
from rules.events import ChoiceOffered, DirectionReversed, SeatSkipped
from rules.pending import Pending

if TYPE_CHECKING:
    from rules.engine import Decision
    from rules.state import GameState


class _CardTable(dict[str, Any]):
    """code -> attribute, filled on first use (a dict lookup beats a call on the hot path)."""

    def __init__(self, attr: str) -> None:
        super().__init__()
        self._attr = attr

    def __missing__(self, code: str) -> Any:
        value = getattr(card_info(code), self._attr)
        self[code] = value
        return value


COLOUR = _CardTable("colour")
RANK = _CardTable("rank")
POINTS = _CardTable("points")

NUMBERS = frozenset("0123456789")
MIN_PLAYERS, MAX_PLAYERS = 2, 10  # a table seats 2 to 10
PLAIN = NUMBERS | {"W"}  # cards whose only effect is passing the turn on
_NO_CARDS: frozenset[str] = frozenset()

# Events are values: the ones a card's effect emits most are made once, per seat or direction.
_SKIPPED = tuple(SeatSkipped(seat) for seat in range(MAX_PLAYERS))
_REVERSED = {direction: DirectionReversed(direction) for direction in (1, -1)}
_CHALLENGE = tuple(ChoiceOffered(seat, Pending.CHALLENGE) for seat in range(MAX_PLAYERS))
# A moment no game reaches (``Variant.unreachable``): the part of a position that is wrong,
# what is wrong, the seat it is about (or None).
Unreachable = tuple[str, str, int | None]
# What a game may wait for while no hand is being played (the cards are not in play).
_BETWEEN_HANDS = frozenset({Pending.START, Pending.DEAL, Pending.OVER, Pending.SHEET})


def standard_deck(colours: tuple[str, ...], *, spin: bool = False) -> tuple[str, ...]:
    """The 108 cards of classic UNO (one 0 and two of 1-9, Skip, Reverse, Draw Two per colour,
    four Wild and four Wild Draw 4), in a fixed order. ``spin`` marks 1-5 as Spin cards."""
    cards: list[str] = []
    for c in colours:
        cards.append(f"{c}0")
        for n in range(1, 10):
            # UNO Spin: one of the two copies of 1-5 in each colour carries the swirl.
            cards.append(f"{c}{n}~" if spin and n <= 5 else f"{c}{n}")
            cards.append(f"{c}{n}")
        for rank in ("S", "V", "D2"):
            cards += [f"{c}{rank}", f"{c}{rank}"]
    cards += ["W"] * 4 + ["W4"] * 4
    return tuple(cards)


class _PlayTable(dict[str, list[Command]]):
    """card -> every way one seat may play it: each colour a wild may call, and with or
    without calling UNO when the play leaves one card. Filled on first use; commands are
    values, so the lists are shared and callers must not change them."""

    def __init__(self, seat: int, colours: tuple[str, ...], leaves_one: bool) -> None:
        super().__init__()
        self._seat = seat
        self._colours = colours
        self._unos = (False, True) if leaves_one else (False,)

    def __missing__(self, card: str) -> list[Command]:
        seat, unos = self._seat, self._unos
        options: list[Command]
        if COLOUR[card] is None:
            options = [PlayCard(seat, card, c, uno) for c in self._colours for uno in unos]
        else:
            options = [PlayCard(seat, card, None, uno) for uno in unos]
        self[card] = options
        return options


def _colour_unreachable(s: GameState, seat: int, returned: frozenset[str]) -> list[Unreachable]:
    """What is wrong with a wait for a colour to be chosen (``Variant.unreachable``): a game
    waits for one only when a wild card is turned up to start, before anyone plays: the
    player after the dealer chooses its colour (the one wild played that needs a choice of
    its own; every other names its colour with the play). ``returned``: the cards that go back
    into the pile when turned up to start (``Variant.starter_returns``)."""
    found: list[Unreachable] = []
    starter = "the colour of a wild card turned up to start"
    if len(s.discard) == 1 and s.discard[0] in returned:
        found.append(
            (
                "discard",
                f"{s.discard[0]} turned up to start goes back into the pile and the next card is "
                "turned up: no colour is chosen for it",
                None,
            )
        )
    elif len(s.discard) != 1 or COLOUR[s.discard[0]] is not None:
        pile = ", ".join(s.discard)
        found.append(
            (
                "discard",
                f"the game waits for {starter}, so the discard pile is that one wild card, "
                f"not {pile}",
                None,
            )
        )
    if s.colour is not None:
        colour = COLOUR_NAMES.get(s.colour, s.colour)
        found.append(
            ("colour", f"{starter} is still to be chosen: no colour is in play, not {colour}", None)
        )
    if s.direction != 1:
        found.append(
            (
                "dir",
                f"{starter} is chosen before anything is played, so play still goes the way "
                "every hand starts: down the list of players, seat 0 then seat 1",
                None,
            )
        )
    first = (s.dealer + 1) % s.players
    if seat != first:
        found.append(
            (
                "pending",
                f"{starter} is chosen by the player after the dealer, seat {first}, not seat "
                f"{seat}",
                seat,
            )
        )
    return found


class Variant:
    """Classic UNO. Subclasses override what their rulebook changes."""

    name = "classic"
    title = "Classic UNO"
    colours: tuple[str, ...] = ("R", "G", "B", "Y")
    hand_size = 7
    # Wild cards that are never a legal start of the discard pile (returned to the deck).
    starter_returns: frozenset[str] = frozenset({"W4"})
    # What a game of the edition may wait for between commands (a position naming another
    # kind is refused); an edition adds the choices of its own.
    pending_kinds: frozenset[str] = frozenset(
        {
            Pending.START,
            Pending.TURN,
            Pending.DRAWN,
            Pending.COLOUR,
            Pending.CHALLENGE,
            Pending.DEAL,
            Pending.OVER,
            Pending.SHEET,
        }
    )

    def __init__(self) -> None:
        # One string per card code (interned): the cards in hands, piles, commands and the card
        # tables are then the same objects, and comparing or looking one up never compares text.
        self._deck = tuple(map(sys.intern, self.build_deck()))
        self._card_set = frozenset(self._deck)
        # What classic matching lets go on the pile, in two small sets looked up by the
        # colour in play and by the top card (``playable_cards``, ``turn_plays``): a few sets
        # of a few cards each, rather than a set for every colour and top, stay in the
        # processor's caches.
        # colour in play -> the cards of that colour and the wild cards (None: wilds only)
        self._of_colour = {
            colour: frozenset(c for c in self._deck if COLOUR[c] in (None, colour))
            for colour in (None, *self.colours)
        }
        # top card -> the coloured cards of its number or symbol (none on a wild card)
        same_rank = {
            rank: frozenset(c for c in self._deck if COLOUR[c] is not None and RANK[c] == rank)
            for rank in {RANK[c] for c in self._deck}
        }
        self._of_rank = {
            top: same_rank[RANK[top]] if COLOUR[top] is not None else _NO_CARDS
            for top in self._deck
        }
        # _plays[seat][leaves_one][card]: the ways to play a card (see ``play_options``).
        self._plays = tuple(
            (_PlayTable(seat, self.colours, False), _PlayTable(seat, self.colours, True))
            for seat in range(MAX_PLAYERS)
        )
        # Editions that keep classic matching get the inlined version of ``playable``.
        self.classic_matching = type(self).playable is Variant.playable
        # Hooks an edition does not override are skipped on the hot path.
        self.hooks_turns = type(self).begin_turn is not Variant.begin_turn
        self.hooks_draws = type(self).after_draw is not Variant.after_draw
        self.hooks_legal = type(self).legal_extra is not Variant.legal_extra
        self.hooks_check_play = type(self).check_play is not Variant.check_play
        # The cards whose plain play ``check_play`` checks (``check_play_cards``).
        self.checked_plays = self.check_play_cards()
        # The cards whose play (leaving cards in hand) only begins the next seat's turn, for
        # the engine's fast path (which still calls a turn hook): with an effect hook, those it
        # leaves to the classic effect (``effect_cards``).
        own_effects = self.effect_cards()
        self.plain_cards = frozenset(
            c for c in self._deck if RANK[c] in PLAIN and c not in own_effects
        )
        # The cards whose ways of playing the edition decides (``play_option_cards``); the
        # others come from the shared tables.
        self._own_plays = self.play_option_cards()
        for code in self._deck:  # fill the card tables once, so lookups never miss
            COLOUR[code], RANK[code], POINTS[code]
        # command class -> its decision in this edition's games (``rules.engine.handles``),
        # filled by the engine on first use.
        self.handlers: dict[type[Command], Callable[[Decision, Any], None]] = {}

    # Data ----------------------------------------------------------------------------------

    def build_deck(self) -> tuple[str, ...]:
        return standard_deck(self.colours)

    @property
    def deck(self) -> tuple[str, ...]:
        """The full deck in a fixed order (``python -m rules.deck`` prints it)."""
        return self._deck

    def deck_for(self, options: tuple[tuple[str, Any], ...]) -> tuple[str, ...]:
        """The deck a game with these (parsed) options plays with: the edition's deck,
        unless an option changes it (the number of Wild Customizable cards in VETO)."""
        return self._deck

    def has_card(self, code: str) -> bool:
        return code in self._card_set

    def points(self, code: str) -> int:
        points: int = POINTS[code]
        return points

    def dealer_value(self, code: str) -> int:
        """What a card counts in the dealer draw: its number; any symbol counts zero."""
        rank = RANK[code]
        return int(rank) if rank in NUMBERS else 0

    def parse_options(self, options: dict[str, Any]) -> tuple[tuple[str, Any], ...]:
        """Validate the edition's options; classic UNO has none."""
        if options:
            name = sorted(options)[0]
            raise InvalidCommand(
                f"unknown option {name!r} for {self.name}", field=f"options.{name}"
            )
        return ()

    def initial_extra(self, started: object) -> object:
        """The edition's own state when the game starts (classic UNO keeps none)."""
        return None

    def hand_extra(self, s: GameState) -> object:
        """The edition's own state when a hand is dealt (kept as it was, by default)."""
        return s.extra

    # Matching --------------------------------------------------------------------------------

    # Cards that, turned up to start the discard pile, are matched by colour only for as long
    # as they are the only card on it and no reshuffle has left another card alone there
    # (Power Grab's Grab-2-Towers). Classic UNO has none.
    colour_only_starters: frozenset[str] = frozenset()

    def top_to_match(self, s: GameState) -> str | None:
        """The card on the discard pile whose number or symbol a play may match; None when
        only the colour in play counts (a starter of ``colour_only_starters`` still alone)."""
        top = s.discard[-1]
        if top in self.colour_only_starters and len(s.discard) == 1 and s.reshuffles == 0:
            return None
        return top

    def playable(self, s: GameState, card: str) -> bool:
        """Whether ``card`` may go on the discard pile now: wilds always; otherwise the colour
        in play, or the same number or symbol as the top card."""
        colour = COLOUR[card]
        if colour is None or colour == s.colour:
            return True
        top = self.top_to_match(s)
        return top is not None and COLOUR[top] is not None and RANK[card] == RANK[top]

    def playable_cards(self, s: GameState, hand: tuple[str, ...]) -> list[str]:
        """The distinct cards of ``hand`` that may be played now, in hand order."""
        if not self.classic_matching:
            playable = self.playable
            return [c for c in dict.fromkeys(hand) if playable(s, c)]
        top = self.top_to_match(s)
        of_colour = self._of_colour[s.colour]
        of_rank = self._of_rank[top] if top is not None else _NO_CARDS
        return list({c: None for c in hand if c in of_colour or c in of_rank})  # distinct

    def play_options(self, s: GameState, seat: int, card: str, leaves: int) -> list[Command]:
        """Every way of playing ``card`` (already known to be playable): each colour a wild may
        call, and with or without calling UNO when the play leaves one card. Commands are
        values, so the lists are built once and shared: callers must not change them."""
        return self._plays[seat][leaves == 1][card]

    def turn_plays(self, s: GameState, seat: int) -> list[Command]:
        """Every play ``seat`` may make on its turn now: each playable card's options side by
        side, in hand order (``legal_commands`` asks once a turn)."""
        hand = s.hands[seat]
        leaves = len(hand) - 1
        table = self._plays[seat][leaves == 1]
        # Each distinct playable card once, in hand order, with its ways of being played.
        if self.classic_matching:  # ``playable_cards``, inlined
            top = s.discard[-1]
            of_colour = self._of_colour[s.colour]
            if top in self.colour_only_starters and len(s.discard) == 1 and s.reshuffles == 0:
                ways = {c: table[c] for c in hand if c in of_colour}  # ``top_to_match`` None
            else:
                of_rank = self._of_rank[top]
                ways = {c: table[c] for c in hand if c in of_colour or c in of_rank}
        else:
            playable = self.playable
            ways = {c: table[c] for c in hand if playable(s, c)}
        own = self._own_plays  # the cards whose ways the edition decides itself
        if own and not own.isdisjoint(ways):
            for card in own.intersection(ways):
                ways[card] = self.play_options(s, seat, card, leaves)
        out: list[Command] = []
        for options in ways.values():
            out += options
        return out

    def effect_cards(self) -> frozenset[str]:
        """The cards whose effect this edition's ``effect`` decides itself; for the others
        it does what classic UNO does (the engine may then skip the call). An edition that
        overrides ``effect`` names its cards here, or every card counts as its own."""
        return frozenset(self._deck) if type(self).effect is not Variant.effect else frozenset()

    def play_option_cards(self) -> frozenset[str]:
        """The cards whose ways of playing this edition's ``play_options`` decides itself; the
        others are played as in classic UNO. Like ``effect_cards``: every card, unless an
        edition that overrides ``play_options`` names its own."""
        if type(self).play_options is not Variant.play_options:
            return frozenset(self._deck)
        return frozenset()

    def check_play_cards(self) -> frozenset[str]:
        """The cards whose play as a plain ``PlayCard`` this edition's ``check_play`` checks
        (a play that comes as the edition's own play command is always checked). Like
        ``effect_cards``: every card, unless an edition that overrides ``check_play`` names
        its own."""
        if type(self).check_play is not Variant.check_play:
            return frozenset(self._deck)
        return frozenset()

    def check_play(self, s: GameState, cmd: PlayCard) -> None:
        """An edition's checks of a play beyond classic UNO's (its own play command's field:
        Mod's ``give``, Power Grab's ``towers``, VETO's ``rule``). Classic UNO has none: a play
        command of another edition never gets here (the engine refuses it, naming its field)."""

    def cards_left(self, s: GameState, cmd: PlayCard) -> int:
        """How many cards the play leaves in the player's hand (UNO is called with the play
        that leaves one). An edition whose card takes more cards away says so (Mod)."""
        assert cmd.seat is not None
        return len(s.hands[cmd.seat]) - 1

    # Effects -------------------------------------------------------------------------------

    def starter(self, d: Decision, card: str) -> None:
        """Apply the starting card's rule (the card is already on the discard pile)."""
        s = d.s
        first = d.next_seat(s.dealer)
        rank = RANK[card]
        if rank == "S":
            d.emit(_SKIPPED[first])
            d.begin_turn(d.next_seat(first))
        elif rank == "V":
            # The dealer goes first, then play moves to the right.
            d.emit(_REVERSED[-s.direction])
            d.begin_turn(s.dealer)
        elif rank == "D2":
            d.attack(first, 2, "draw_two")
        elif COLOUR[card] is None:
            d.emit(ChoiceOffered(first, Pending.COLOUR))
        else:
            d.begin_turn(first)

    def effect(self, d: Decision, seat: int, card: str, cmd: PlayCard) -> None:
        """What a played card does, when the player still holds cards."""
        rank = RANK[card]
        s = d.s
        if rank in PLAIN:  # most plays: the next player's turn begins
            d.begin_turn((seat + s.direction) % s.players)
        elif rank == "S":
            victim = d.next_seat(seat)
            d.emit(_SKIPPED[victim])
            d.begin_turn(d.next_seat(victim))
        elif rank == "V":
            d.emit(_REVERSED[-s.direction])
            if s.players == 2:
                # With two players a Reverse works like a Skip (docs/RULINGS.md).
                other = d.next_seat(seat)
                d.emit(_SKIPPED[other])
                d.begin_turn(seat)
            else:
                d.begin_turn(d.next_seat(seat))
        elif rank == "D2":
            d.attack(d.next_seat(seat), 2, "draw_two")
        elif rank == "W4":
            d.emit(_CHALLENGE[d.next_seat(seat)])
        else:
            d.begin_turn(d.next_seat(seat))

    def begin_turn(self, d: Decision, seat: int) -> None:
        """Every turn begins here; an edition may skip or replace it."""
        d.turn_began(seat)

    def going_out(self, d: Decision, seat: int, card: str) -> None:
        """The last card was played: its draw penalty still applies and counts, then the
        hand ends."""
        rank = RANK[card]
        if rank == "D2":
            d.draw(d.next_seat(seat), 2, "last_card")
        elif rank == "W4":
            d.draw(d.next_seat(seat), 4, "last_card")
        d.end_hand(seat)

    def attack(self, d: Decision, victim: int, count: int, reason: str) -> None:
        """``victim`` must draw ``count`` and lose the turn (Draw Two, Wild Draw 4, ...)."""
        d.draw(victim, count, reason)
        d.emit(_SKIPPED[victim])
        d.begin_turn(d.next_seat(victim))

    def after_draw(self, d: Decision, seat: int, cards: tuple[str, ...], reason: str) -> None:
        """Called after every draw (an edition that follows particular cards does it here)."""

    # An edition's own commands -------------------------------------------------------------

    # Command types a seat may send when it is not its turn.
    out_of_turn_types: frozenset[str] = frozenset({"catch", "call_uno"})

    def out_of_turn_open(self, s: GameState) -> bool:
        """Whether any seat may send an out-of-turn command now (a cheap test for bots)."""
        return s.exposed is not None

    def out_of_turn_rare(self, s: GameState) -> bool:
        """Whether the only out-of-turn commands open now are ones a bot sends rarely (a VETO
        slap, open all hand long): the simulator then looks at them only now and then."""
        return False

    def invariants(self, s: GameState) -> list[str]:
        """The edition's own checks of a state (the simulator runs them after every event;
        a position set up by hand is refused with the first, so they must not fail on any
        value of the edition state's types: check the seats it names first)."""
        return []

    def may_hold_nothing(self, s: GameState) -> frozenset[int]:
        """The seats that may hold no cards while the hand goes on. None in classic UNO: the
        hand ends as a player's last card is played. An edition whose last card leaves
        something to resolve first names its player here."""
        return frozenset()

    def unreachable(self, s: GameState) -> list[Unreachable]:
        """What no game reaches although ``invariants`` allows it, found in ``s``: (the part of
        a position that is wrong, what is wrong, the seat it is about). These are the core's;
        an edition adds its own moments to them. The simulator checks after every command that
        play never comes to one; a position set up now is refused with the first (one already
        recorded in a game is read back without these checks, so it replays as it did)."""
        kind, seat = s.pending
        if s.sheet or kind in _BETWEEN_HANDS:
            return []
        found: list[Unreachable] = []
        allowed = self.may_hold_nothing(s)
        for other, hand in enumerate(s.hands):
            if not hand and other not in allowed:
                found.append(
                    (
                        "hands",
                        f"seat {other} holds no cards while the hand goes on: a hand is over as "
                        "soon as a player's last card is played",
                        other,
                    )
                )
        # First: without a wild card alone on top, what is wrong is the wait for a colour.
        if kind == Pending.COLOUR:
            found += _colour_unreachable(s, seat, self.starter_returns)
        top = s.discard[-1] if s.discard else None
        if top is not None and COLOUR[top] is not None and COLOUR[top] != s.colour:
            found.append(
                (
                    "colour",
                    f"{top} is on top, so the colour in play is {COLOUR_NAMES[COLOUR[top]]}, "
                    f"not {COLOUR_NAMES.get(s.colour or '', s.colour or 'none')}: only a wild "
                    "card calls a colour of its own",
                    None,
                )
            )
        if kind == Pending.DRAWN and s.drawn is not None and not self.playable(s, s.drawn):
            in_play = COLOUR_NAMES.get(s.colour or "", s.colour)
            found.append(
                (
                    "drawn",
                    f"seat {seat} drew {s.drawn}, which cannot be played on {top} with "
                    f"{in_play} in play: after drawing it, play goes on to the next player",
                    seat,
                )
            )
        if kind == Pending.CHALLENGE and s.w4 is not None:
            before = (seat - s.direction) % s.players
            if s.w4[0] != before:
                found.append(
                    (
                        "w4",
                        f"seat {seat} may challenge only the Wild Draw 4 of the player before "
                        f"it, seat {before}, not seat {s.w4[0]}",
                        seat,
                    )
                )
        return found

    @staticmethod
    def seats_off_table(s: GameState, **named: Iterable[int | None]) -> list[str]:
        """For ``invariants``: each seat named in the edition state (``field=seats``) that is
        not at the table."""
        return [
            f"{field} names seat {seat}, not at this table of {s.players}"
            for field, seats in named.items()
            for seat in seats
            if seat is not None and not 0 <= seat < s.players
        ]

    def legal_extra(self, s: GameState, seat: int) -> list[Command]:
        """Commands of the edition that ``seat`` may send now, beyond the core ones."""
        return []

    # The pending kinds in which ``legal_extra`` may have commands to add (the engine asks only
    # then); None: in any, as for commands open all hand long (a VETO slap).
    legal_kinds: frozenset[str] | None = None

    def closes_uno_window(self, cmd: Command) -> bool:
        """Whether this command, sent by the seat whose turn it is, begins that turn."""
        return cmd.type not in ("call_uno", "catch")

    def other_exposed(self, d: Decision, cmd: Command) -> bool:
        """A ``call_uno`` or ``catch`` naming a seat other than ``s.exposed``. An edition
        that can leave several seats exposed at once (UNO Spin's Trade Hands) decides it and
        returns True; classic UNO has one exposed seat at most, so the command is refused."""
        return False
