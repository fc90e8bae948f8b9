"""UNO Spin: classic UNO with 20 Spin cards and a wheel that replaces the next player's turn.

One copy of each number 1-5 in each colour carries the swirl (``G3~``). It matches like any
number card; once played, the next player must ``spin`` instead of taking their turn. The
wheel's segment is drawn with ``rules.engine.rng`` and recorded in ``WheelSpun``. Segments that
need a decision offer a choice (``ChoiceOffered``): the cards to discard (``wheel_discard``,
ordered, the last one lands on top), or the race to claim an UNO Spin (``claim_uno_spin``, any
seat). Almost UNO is offered in steps: the two cards to keep, one at a time (``wheel_keep``),
then which of the others lands on top (a ``wheel_discard`` of them all); Discard Number and
Discard Colour a card at a time (``wheel_lay``, and the ``wheel_discard`` of the last). The
rulings are in docs/RULINGS.md under "UNO Spin".
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from itertools import product
from typing import TYPE_CHECKING, cast

from rules.cards import COLOUR_NAMES
from rules.commands import CallUno, Catch, Command, PlayCard
from rules.engine import handles, rng
from rules.errors import IllegalCommand, InvalidCommand
from rules.events import ChoiceOffered
from rules.pending import Pending
from rules.values import maker
from rules.variants.classic.variant import (
    COLOUR,
    MAX_PLAYERS,
    NUMBERS,
    PLAIN,
    RANK,
    Unreachable,
    Variant,
    standard_deck,
)
from rules.variants.spin.commands import (
    ClaimUnoSpin,
    SpinWheel,
    WheelDiscard,
    WheelKeep,
    WheelLay,
)
from rules.variants.spin.events import (
    EMPTY,
    HandHidden,
    HandShown,
    HandsTraded,
    SpinState,
    TradedUnoCalled,
    TradedUnoCaught,
    TradedUnoWindowClosed,
    UnoSpinClaimed,
    WarFought,
    WheelCardLaid,
    WheelCardsKept,
    WheelDiscarded,
    WheelSpun,
    uno_window_open,
)

if TYPE_CHECKING:
    from rules.engine import Decision
    from rules.state import GameState

# The wheel: the nine icons of the rulebook, one segment each, equal odds (docs/RULINGS.md).
WHEEL = (
    "almost_uno",
    "discard_number",
    "discard_colour",
    "draw_red",
    "draw_blue",
    "trade_hands",
    "show_hand",
    "war",
    "uno_spin",
)

# Choices the wheel offers (pending kinds). Each but "spin", the keeps and "uno_spin" is
# answered with a ``wheel_discard`` by the seat it is offered to; "almost_uno" and
# "almost_uno_second" with a ``wheel_keep`` each, after which "almost_uno_top" is answered with
# the ``wheel_discard``.
# Discard Number and Discard Colour are offered a card at a time: each ``wheel_lay`` puts one
# down ("discard_number_more" or "discard_colour_more" then), the ``wheel_discard`` of the
# last one ends the discard, that card on top.
SPIN = Pending.SPIN
UNO_SPIN = Pending.UNO_SPIN
DISCARD_KINDS = frozenset(
    {
        Pending.ALMOST_UNO_TOP,
        Pending.DISCARD_NUMBER,
        Pending.DISCARD_COLOUR,
        Pending.DISCARD_NUMBER_MORE,
        Pending.DISCARD_COLOUR_MORE,
        Pending.WAR_DISCARD,
        Pending.UNO_SPIN_DISCARD,
    }
)
KEEP_KINDS = frozenset({Pending.ALMOST_UNO, Pending.ALMOST_UNO_SECOND})
WHEEL_KINDS = DISCARD_KINDS | KEEP_KINDS | {SPIN, UNO_SPIN}
# What a game may wait for while a player who went out with a Spin card is still out: the
# wheel's answers (it was spun as the card went down), then the next deal or the game's end.
_WHILE_OUT = (WHEEL_KINDS - {SPIN}) | {Pending.DEAL, Pending.OVER}

# The choices offered a card at a time: for each, whether it goes by number (else by colour)
# and whether a card of it is already down (then it goes by the card on top).
ONE_BY_ONE: dict[str, tuple[bool, bool]] = {
    Pending.DISCARD_NUMBER: (True, False),
    Pending.DISCARD_COLOUR: (False, False),
    Pending.DISCARD_NUMBER_MORE: (True, True),
    Pending.DISCARD_COLOUR_MORE: (False, True),
}

DRAW_UNTIL = {"draw_red": "R", "draw_blue": "B"}
_NOT_PLAYING = frozenset({Pending.HAND_OVER, Pending.DEAL, Pending.OVER, Pending.START})

_NOTHING: list[Command] = []
# The wheel's discards, made a dozen at a time when a choice is listed (``rules.values.maker``),
# and the spin each seat may be offered.
_wheel_discard = maker(WheelDiscard)
_SPIN_COMMAND = tuple(SpinWheel(seat) for seat in range(MAX_PLAYERS))
# Events are values: each seat's spin of each segment, and each choice the wheel offers a
# seat, is made once.
_OFFER: tuple[dict[str, ChoiceOffered], ...] = tuple(
    {kind: ChoiceOffered(seat, kind) for kind in WHEEL_KINDS} for seat in range(MAX_PLAYERS)
)
_SPUN = tuple(
    {segment: WheelSpun(seat, segment) for segment in WHEEL} for seat in range(MAX_PLAYERS)
)


def is_spin_card(card: str) -> bool:
    return card[-1] == "~"


def spin_wheel(s: GameState) -> str:
    """The segment the wheel stops on: equal odds, the hand's next draw of the wheel's chance
    (seeded by the game, the hand and the spin's number in the hand)."""
    k: int = s.extra.spins
    return _wheel_draws(s.seed, s.hand_number, k // _DRAWS)[k % _DRAWS]


_DRAWS = 32  # spins drawn from one seeded generator: seeding costs as much as 20 spins


@lru_cache(maxsize=64)
def _wheel_draws(seed: str, hand: int, block: int) -> tuple[str, ...]:
    # ``gen.randrange(len(WHEEL))`` each time, drawing the same bits without its calls.
    gen = rng(seed, "hand", hand, "wheel", block)
    getrandbits = gen.getrandbits
    n = len(WHEEL)
    k = n.bit_length()
    out = []
    for _ in range(_DRAWS):
        r = getrandbits(k)
        while r >= n:  # rejection sampling, as ``random.Random._randbelow`` does
            r = getrandbits(k)
        out.append(WHEEL[r])
    return tuple(out)


# Choosing cards to discard -------------------------------------------------------------------


def _without(hand: tuple[str, ...], cards: tuple[str, ...]) -> tuple[str, ...]:
    """``hand`` without ``cards`` (the first copy of each goes), in the order it holds them."""
    rest = list(hand)
    for card in cards:
        rest.remove(card)
    return tuple(rest)


_CARDS = frozenset(standard_deck(Variant.colours, spin=True))
# Discard Number and Discard Colour: the cards each may discard, with their number (colour).
_BY_NUMBER = {card: RANK[card] for card in _CARDS if RANK[card] in NUMBERS}
_BY_NUMBER_OF = {n: {c: n for c, m in _BY_NUMBER.items() if m == n} for n in NUMBERS}
_BY_COLOUR = {card: c for card in _CARDS if (c := COLOUR[card]) is not None}
_BY_COLOUR_OF = {c: {card: c for card, d in _BY_COLOUR.items() if d == c} for c in Variant.colours}
# Each seat's ``wheel_lay`` and ``wheel_keep`` of each card, made once (commands are values).
_LAY = tuple({card: WheelLay(seat, card) for card in _BY_COLOUR} for seat in range(MAX_PLAYERS))
_KEEP = tuple({card: WheelKeep(seat, (card,)) for card in _CARDS} for seat in range(MAX_PLAYERS))


def _qualifying(s: GameState, kind: str) -> dict[str, str]:
    """For Discard Number or Discard Colour (``ONE_BY_ONE``): each card the seat may discard
    now, with the number (or colour) that the cards discarded with it must share: any number
    card (any coloured card) before the first is down, then those of the card on top."""
    by_number, more = ONE_BY_ONE[kind]
    if by_number:
        if more:
            return _BY_NUMBER_OF.get(RANK[s.discard[-1]], {})
        return _BY_NUMBER
    if more:
        return _BY_COLOUR_OF.get(COLOUR[s.discard[-1]] or "", {})
    return _BY_COLOUR


def sub_multisets(cards: list[str], size: int | None = None) -> list[tuple[str, ...]]:
    """Every distinct non-empty choice of cards from ``cards`` (of ``size`` cards if given):
    the same card codes in the same numbers count once. Cards of one code stand together,
    codes in the order they first appear."""
    counts: dict[str, int] = {}
    for card in cards:
        counts[card] = counts.get(card, 0) + 1
    out: list[tuple[str, ...]] = [()]
    for code, count in counts.items():
        out = [chosen + (code,) * k for chosen in out for k in range(count + 1)]
    return [chosen for chosen in out if chosen and (size is None or len(chosen) == size)]


class Spin(Variant):
    """UNO Spin (rulebook: shared/rulebooks/uno-spin.txt)."""

    name = "spin"
    title = "UNO Spin"
    pending_kinds = Variant.pending_kinds | WHEEL_KINDS

    def __init__(self) -> None:
        super().__init__()
        self._number_value = {c: int(RANK[c]) for c in self.deck if RANK[c] in NUMBERS}

    def build_deck(self) -> tuple[str, ...]:
        # The four Wheel Reference cards are a memory aid, not playing cards.
        return standard_deck(self.colours, spin=True)

    def initial_extra(self, started: object) -> object:
        return EMPTY

    def hand_extra(self, s: GameState) -> object:
        return EMPTY

    # Spin cards ------------------------------------------------------------------------------

    def effect_cards(self) -> frozenset[str]:
        # Spin cards and action cards. A number or Wild without the swirl only begins the next
        # turn, which ``begin_turn`` does, settling first what the wheel left.
        return frozenset(c for c in self.deck if c[-1] == "~" or RANK[c] not in PLAIN)

    def effect(self, d: Decision, seat: int, card: str, cmd: PlayCard) -> None:
        x = d.s.extra
        if x.show is not None or x.uno:
            self._settle(d)
        if card[-1] == "~":  # a Spin card
            # Spinning the wheel takes the place of the next player's turn.
            d.emit(_OFFER[d.next_seat(seat)][SPIN])
        else:
            Variant.effect(self, d, seat, card, cmd)

    def going_out(self, d: Decision, seat: int, card: str) -> None:
        x = d.s.extra
        if x.show is not None or x.uno:
            self._settle(d)
        if is_spin_card(card):
            # The next player spins and the wheel is resolved before the hand is scored.
            d.emit(_OFFER[d.next_seat(seat)][SPIN])
        else:
            super().going_out(d, seat, card)

    def begin_turn(self, d: Decision, seat: int) -> None:
        x = d.s.extra
        if x.show is not None or x.uno:
            self._settle(d)
        d.turn_began(seat)

    def after_draw(self, d: Decision, seat: int, cards: tuple[str, ...], reason: str) -> None:
        # Cards drawn into a shown hand (an UNO penalty, a Draw Two at two players) were never
        # shown: the showing ends there, so no seat sees them (docs/RULINGS.md, S11).
        show = d.s.extra.show
        if show is not None and show[0] == seat and cards:
            d.emit(HandHidden(seat))

    def _settle(self, d: Decision) -> None:
        """End what lasts until the next player has acted: a shown hand, traded-hand UNO
        windows. Called as play moves on (a turn begins, a card takes effect): the next player
        has acted once the game is no longer waiting on the spinner."""
        s = d.s
        x = s.extra
        pseat = s.pending[1]
        if x.show is not None and pseat == x.show[1]:
            d.emit(HandHidden(x.show[0]))
        if x.uno and pseat == x.uno_until:
            d.emit(TradedUnoWindowClosed(x.uno))

    def _resume(self, d: Decision, seat: int) -> None:
        """The wheel is resolved: ``seat`` plays next, unless the hand is over."""
        out = d.s.extra.out
        if out is not None:
            d.end_hand(out)
        else:
            d.begin_turn(seat)

    # The edition's commands ------------------------------------------------------------------

    out_of_turn_types: frozenset[str] = frozenset({"catch", "call_uno", "claim_uno_spin"})

    def out_of_turn_open(self, s: GameState) -> bool:
        return (
            s.exposed is not None
            or s.pending[0] == UNO_SPIN
            or (s.extra.uno != () and uno_window_open(s))
        )

    def _draw_until(self, d: Decision, seat: int, colour: str, reason: str) -> None:
        """Draw until a card of ``colour`` or a wild; if both piles run out first, stop."""
        s = d.s
        while True:
            rest = s.pile[s.pos :]
            for i, card in enumerate(rest):
                c = COLOUR[card]
                if c is None or c == colour:
                    d.draw(seat, i + 1, reason)
                    return
            if len(s.discard) <= 1:
                if rest:
                    d.draw(seat, len(rest), reason)
                return
            # The rest of the pile and the first card of the reshuffled discard pile.
            last = d.draw(seat, len(rest) + 1, reason)[-1]
            if COLOUR[last] is None or COLOUR[last] == colour:
                return

    def _trade(self, d: Decision, spinner: int, after: int) -> None:
        s = d.s
        out = s.extra.out
        seats = tuple(seat for seat in range(s.players) if seat != out)
        hands = list(s.hands)
        for i, seat in enumerate(seats):
            hands[seats[(i + 1) % len(seats)]] = s.hands[seat]
        # Receivers of a one-card hand must call UNO (no one need once the hand is over),
        # listed from the spinner's left.
        uno: tuple[int, ...] = ()
        if out is None:
            order = sorted(seats, key=lambda seat: (seat - spinner - 1) % s.players)
            uno = tuple(seat for seat in order if len(hands[seat]) == 1)
        d.emit(HandsTraded(spinner, seats, tuple(hands), uno, after))

    def _war(self, d: Decision, spinner: int) -> int | None:
        s = d.s
        n = s.players
        value = self._number_value
        numbers = [sorted((value[c] for c in hand if c in value), reverse=True) for hand in s.hands]
        contenders = [seat for seat in range(n) if numbers[seat]]
        rounds: list[tuple[int | None, ...]] = []
        winner = None
        k = 0
        while contenders:
            row: list[int | None] = [None] * n
            for seat in contenders:
                row[seat] = numbers[seat][k]
            rounds.append(tuple(row))
            best = max(numbers[seat][k] for seat in contenders)
            contenders = [seat for seat in contenders if numbers[seat][k] == best]
            if len(contenders) == 1:
                winner = contenders[0]
                break
            k += 1
            # A tied player with no number card left is out of the face-off.
            contenders = [seat for seat in contenders if k < len(numbers[seat])]
        d.emit(WarFought(spinner, tuple(rounds), winner))
        return winner

    def _check_discard(
        self, s: GameState, kind: str, hand: tuple[str, ...], cards: tuple[str, ...]
    ) -> None:
        if kind == Pending.ALMOST_UNO_TOP:
            if sorted(cards) != sorted(_without(hand, s.extra.kept)):
                kept = ", ".join(s.extra.kept)
                raise IllegalCommand(f"Almost UNO: discard every card but the 2 kept ({kept})")
        elif kind in ONE_BY_ONE:
            _check_one_by_one(s, kind, cards)
        elif kind == Pending.WAR_DISCARD:
            war = s.extra.war
            if not all(RANK[c] in NUMBERS for c in cards) or sorted(
                int(RANK[c]) for c in cards
            ) != sorted(war):
                shown = ", ".join(map(str, war))
                raise IllegalCommand(f"War: discard the cards of the numbers revealed ({shown})")
        elif len(cards) != 1:  # uno_spin_discard
            raise IllegalCommand("UNO Spin: discard exactly one card")

    def other_exposed(self, d: Decision, cmd: Command) -> bool:
        s = d.s
        if not uno_window_open(s):
            return False
        seat = cmd.seat
        assert seat is not None
        if isinstance(cmd, CallUno):
            if seat not in s.extra.uno:
                return False
            d.emit(TradedUnoCalled(seat))
            return True
        assert isinstance(cmd, Catch)
        target = cmd.target
        if target not in s.extra.uno:
            return False
        d.emit(TradedUnoCaught(target, seat))
        d.draw(target, 2, "uno_penalty")
        return True

    # What a seat may do --------------------------------------------------------------------

    def legal_extra(self, s: GameState, seat: int) -> list[Command]:
        kind, pseat = s.pending
        if kind not in WHEEL_KINDS and not s.extra.uno:
            return _NOTHING  # most of the time (shared: callers only read it)
        out: list[Command] = []
        if kind in WHEEL_KINDS:
            if kind == UNO_SPIN:
                if s.hands[seat]:
                    out.append(ClaimUnoSpin(seat))
            elif seat == pseat:
                if kind == SPIN:
                    out.append(_SPIN_COMMAND[seat])
                elif kind in KEEP_KINDS:
                    out += self.keep_options(s, seat)
                else:
                    out += self.discard_options(s, seat, kind)
        if s.extra.uno and uno_window_open(s):
            for exposed in s.extra.uno:
                out.append(CallUno(seat) if exposed == seat else Catch(seat, exposed))
        return out

    def keep_options(self, s: GameState, seat: int) -> list[Command]:
        """Every ``wheel_keep`` for Almost UNO, a card at a time: each distinct card of the
        hand once, in the order the hand holds them (the second: of the cards left once the
        first is kept). Both cards in one ``wheel_keep`` are accepted too (the steps in one
        command), and not listed: a big hand has hundreds of pairs."""
        hand = s.hands[seat]
        kept = s.extra.kept
        if kept:
            hand = _without(hand, kept)
        return [_KEEP[seat][card] for card in dict.fromkeys(hand)]

    def discard_options(self, s: GameState, seat: int, kind: str) -> list[Command]:
        """Every ``wheel_discard`` the seat may send for this choice: each set of cards once,
        with each of its cards on top, each colour a wild on top may call, and with or without
        UNO when one card is left. (Any order of the cards under the top is accepted too;
        the list names each set in one order.)"""
        hand = s.hands[seat]
        if kind in ONE_BY_ONE:
            return self.one_by_one_options(s, seat, kind)
        choices: list[tuple[str, ...]]
        if kind == Pending.ALMOST_UNO_TOP:
            choices = [_without(hand, s.extra.kept)]
        elif kind == Pending.WAR_DISCARD:
            per_number = [
                sub_multisets([c for c in hand if RANK[c] == str(number)], count)
                for number, count in Counter(s.extra.war).items()
            ]
            choices = [sum(parts, ()) for parts in product(*per_number)]
        else:  # uno_spin_discard
            choices = [(card,) for card in dict.fromkeys(hand)]
        out: list[Command] = []
        add = out.append
        make = _wheel_discard
        for chosen in choices:
            uno = len(hand) - len(chosen) == 1  # the discard may call UNO, or not
            last = len(chosen) - 1
            for k, top in enumerate(chosen):
                if chosen.index(top) < k:
                    continue  # each card code on top once (its first copy moves there)
                order = chosen if k == last else chosen[:k] + chosen[k + 1 :] + (top,)
                if COLOUR[top] is not None:  # a wild on top needs a colour (below)
                    add(make(seat, order, None, False))
                    if uno:
                        add(make(seat, order, None, True))
                    continue
                for colour in self.colours:
                    add(make(seat, order, colour, False))
                    if uno:
                        add(make(seat, order, colour, True))
        return out

    def one_by_one_options(self, s: GameState, seat: int, kind: str) -> list[Command]:
        """Discard Number and Discard Colour, a card at a time: for each card of a number
        (or colour) the seat holds, once the first is down of the number (or colour) on top,
        its ``wheel_discard``, which ends the discard with that card on top (with or without
        UNO when it leaves one card), and its ``wheel_lay`` while another card of it would be
        left to discard. A set of cards in one ``wheel_discard`` is accepted too (the steps
        in one command), and not listed: there are too many sets to list."""
        hand = s.hands[seat]
        by = _qualifying(s, kind)
        counts = Counter(by[card] for card in hand if card in by)
        uno = len(hand) == 2
        make = _wheel_discard
        out: list[Command] = []
        for card in dict.fromkeys(hand):
            value = by.get(card)
            if value is None:
                continue
            out.append(make(seat, (card,), None, False))
            if uno:
                out.append(make(seat, (card,), None, True))
            if counts[value] > 1:
                out.append(_LAY[seat][card])
        return out

    # Checks ----------------------------------------------------------------------------------

    def may_hold_nothing(self, s: GameState) -> frozenset[int]:
        # Only a player who went out with a Spin card holds nothing while the wheel turns.
        x = s.extra
        kind, pseat = s.pending
        if x.out is not None:
            return frozenset({x.out})
        if kind == SPIN:
            return frozenset({(pseat - s.direction) % s.players})
        return frozenset()

    def unreachable(self, s: GameState) -> list[Unreachable]:
        kind, seat = s.pending
        out = s.extra.out
        if out is not None and kind not in _WHILE_OUT:
            # A player out with a Spin card ends the hand once the wheel's answer is given.
            return [
                (
                    "extra",
                    f"seat {out} went out with a Spin card, so the hand ends once the wheel's "
                    f"answer is given: the game does not wait for {kind!r} meanwhile",
                    out,
                ),
                *super().unreachable(s),
            ]
        if kind in ONE_BY_ONE and ONE_BY_ONE[kind][1]:
            # (The card on top, and what the spinner still holds: ``invariants``.)
            return _laid_off_the_spin_card(s) + super().unreachable(s)
        if kind in WHEEL_KINDS and s.discard and not is_spin_card(s.discard[-1]):
            # Every wait of the wheel comes between a Spin card played and the spinner's
            # (or a War's or an UNO Spin's winner's) discard, that card on top all along.
            return [
                (
                    "discard",
                    f"seat {seat} spins the wheel, or answers where it landed, after a Spin "
                    f"card, which is then on top, not {s.discard[-1]}",
                    None,
                ),
                *super().unreachable(s),
            ]
        if kind == Pending.ALMOST_UNO_TOP:
            rest = _without(s.hands[seat], s.extra.kept)  # (held: ``invariants``)
            if not rest or (len(set(rest)) == 1 and COLOUR[rest[0]] is not None):
                # Kept with nothing else to discard, or the rest all one coloured card: they
                # are discarded as the two are kept (``_keep``), with no top to choose.
                return [
                    (
                        "extra",
                        f"seat {seat} keeps {', '.join(s.extra.kept)} at Almost UNO and has "
                        f"no card on top to choose from the rest ({', '.join(rest) or 'none'}): "
                        "they are discarded as the two are kept",
                        None,
                    ),
                    *super().unreachable(s),
                ]
        return super().unreachable(s)

    def invariants(self, s: GameState) -> list[str]:
        problems = []
        x = s.extra
        kind, pseat = s.pending
        if not isinstance(x, SpinState):
            return [f"the edition state is {x!r}, not a SpinState"]
        off = self.seats_off_table(
            s, out=(x.out,), show=x.show or (), uno=x.uno, uno_until=(x.uno_until,)
        )
        if off:
            return off  # (the checks below look those seats up)
        if x.spins < 0:
            problems.append(f"{x.spins} spins of the wheel so far")
        playing = kind not in _NOT_PLAYING
        if playing:
            # (A player without cards while the hand goes on: ``Variant.unreachable``.)
            if x.out is not None and s.hands[x.out]:
                problems.append(f"seat {x.out} went out but holds {s.hands[x.out]}")
            shown = {x.show[0]} if x.show is not None else set()
            if s.shown != shown:
                problems.append(
                    f"shown hands {sorted(s.shown)} but the wheel shows {sorted(shown)}"
                )
        if kind in ONE_BY_ONE and ONE_BY_ONE[kind][1]:
            problems += _unlaid(s)
        if kind in KEEP_KINDS and len(s.hands[pseat]) <= 2:
            problems.append(
                f"Almost UNO offered to seat {pseat} holding {len(s.hands[pseat])} cards"
            )
        if kind == Pending.WAR_DISCARD:
            held = Counter(int(RANK[c]) for c in s.hands[pseat] if RANK[c] in NUMBERS)
            if not x.war or Counter(x.war) - held:
                problems.append(
                    f"War winner {pseat} must discard {x.war} but holds {s.hands[pseat]}"
                )
        elif x.war:
            problems.append(f"War numbers {x.war} kept while {kind}")
        if kind == Pending.ALMOST_UNO_TOP or kind == Pending.ALMOST_UNO_SECOND:
            count = 2 if kind == Pending.ALMOST_UNO_TOP else 1
            if len(x.kept) != count or Counter(x.kept) - Counter(s.hands[pseat]):
                problems.append(f"Almost UNO: seat {pseat} keeps {x.kept} holding {s.hands[pseat]}")
        elif x.kept:
            problems.append(f"Almost UNO's cards {x.kept} kept while {kind}")
        if uno_window_open(s):
            for seat in x.uno:
                if len(s.hands[seat]) != 1 or seat == s.exposed:
                    problems.append(
                        f"seat {seat} exposed after a trade holding {len(s.hands[seat])} cards"
                    )
        return problems


# ---------------------------------------------------------------------------------------------
# The edition's commands


def _spin_of(d: Decision) -> Spin:
    return cast("Spin", d.variant)


@handles(SpinWheel)
def _spin(d: Decision, cmd: SpinWheel) -> None:
    v = _spin_of(d)
    s = d.s
    seat = d.awaiting(cmd, SPIN)
    segment = (d.chance and d.chance.wheel()) or spin_wheel(s)
    d.emit(_SPUN[seat][segment])
    hand = s.hands[seat]
    after = d.next_seat(seat)  # the spin replaced the spinner's turn
    if segment == "almost_uno":
        if len(hand) > 2:
            d.emit(_OFFER[seat][segment])
            return
    elif segment == "discard_number":
        if not _BY_NUMBER.keys().isdisjoint(hand):
            d.emit(_OFFER[seat][segment])
            return
    elif segment == "discard_colour":
        if not _BY_COLOUR.keys().isdisjoint(hand):
            d.emit(_OFFER[seat][segment])
            return
    elif segment in DRAW_UNTIL:
        v._draw_until(d, seat, DRAW_UNTIL[segment], segment)
    elif segment == "trade_hands":
        v._trade(d, seat, after)
    elif segment == "show_hand":
        d.emit(HandShown(seat, hand, after))
    elif segment == "war":
        winner = v._war(d, seat)
        if winner is not None:
            d.emit(_OFFER[winner][Pending.WAR_DISCARD])
            return
    else:  # uno_spin
        d.emit(_OFFER[seat][UNO_SPIN])
        return
    v._resume(d, after)


@handles(ClaimUnoSpin)
def _claim(d: Decision, cmd: ClaimUnoSpin) -> None:
    s = d.s
    seat = cmd.seat
    if seat is None:
        raise IllegalCommand("an UNO Spin claim must come from a seat")
    if s.pending[0] != UNO_SPIN:
        if s.pending[0] == Pending.UNO_SPIN_DISCARD:
            raise IllegalCommand(f"seat {s.pending[1]} already claimed the UNO Spin")
        raise IllegalCommand("there is no UNO Spin to claim now")
    if not s.hands[seat]:
        raise IllegalCommand(f"seat {seat} has no card to discard")
    d.emit(UnoSpinClaimed(seat))
    d.emit(_OFFER[seat][Pending.UNO_SPIN_DISCARD])


@handles(WheelKeep)
def _keep(d: Decision, cmd: WheelKeep) -> None:
    """Almost UNO, first step: the two cards to keep, one at a time (or both at once). The
    rest are discarded at once when they are all the same card (nothing to choose on top);
    otherwise the spinner chooses the card on top next."""
    s = d.s
    seat = d.awaiting(cmd, *KEEP_KINDS)
    kept = s.extra.kept  # the first card kept, once one is
    if len(cmd.cards) not in (1, 2 - len(kept)):
        what = "the second card to keep" if kept else "1 card to keep (or both)"
        raise InvalidCommand(f"Almost UNO: name {what}, not {len(cmd.cards)} cards", field="cards")
    hand = s.hands[seat]
    rest = list(hand)
    for card in kept + cmd.cards:
        if card not in rest:
            raise IllegalCommand(f"seat {seat} does not hold {card} (or not as many)")
        rest.remove(card)
    if len(kept) + len(cmd.cards) == 1:
        d.emit(WheelCardsKept(seat, cmd.cards))
    elif len(set(rest)) == 1 and COLOUR[rest[0]] is not None:
        d.emit(WheelDiscarded(seat, tuple(rest), None, False))
        _spin_of(d)._resume(d, d.next_seat(seat))
    elif kept:
        d.emit(WheelCardsKept(seat, kept + cmd.cards))
    else:
        # The two cards in the order the hand holds them: either order is one move.
        d.emit(WheelCardsKept(seat, _without(hand, tuple(rest))))


def _unlaid(s: GameState) -> list[str]:
    """What is wrong with a wait for more of a number (colour) at Discard Number (Colour):
    a card of it is on top, laid by the spinner, who holds another."""
    kind, seat = s.pending
    by_number = ONE_BY_ONE[kind][0]
    what = "number" if by_number else "colour"
    top = s.discard[-1] if s.discard else None
    if top is None or (RANK[top] not in NUMBERS if by_number else COLOUR[top] is None):
        return [
            f"seat {seat} discards more of the {what} of the card on top, which has none "
            f"({top or 'no card'})"
        ]
    if not any(card in _qualifying(s, kind) for card in s.hands[seat]):
        return [
            f"seat {seat} discards more of the {what} of {top} and holds no such card: "
            "the last one discarded ends the discard"
        ]
    return []


def _laid_off_the_spin_card(s: GameState) -> list[Unreachable]:
    """What is wrong with a wait for more at Discard Number (Colour) where the cards put down
    do not lie on a Spin card: the spinner puts them down on the Spin card that sent them to
    the wheel, all of one number (colour), the number (colour) of the card on top."""
    kind, seat = s.pending
    of_top = _qualifying(s, kind)  # the cards of the number (colour) on top
    pile = s.discard
    if not pile or pile[-1] not in of_top:
        return []  # (no such card on top: ``invariants``)
    below = len(pile) - 1
    while below > 0 and pile[below] in of_top:
        if is_spin_card(pile[below - 1]):
            return []
        below -= 1
    what = "number" if ONE_BY_ONE[kind][0] else "colour"
    return [
        (
            "discard",
            f"seat {seat} puts down more of the {what} of {pile[-1]} on the Spin card that "
            f"sent them to the wheel, and no Spin card lies under the cards of that {what} "
            f"({', '.join(pile[-3:])} on top)",
            None,
        )
    ]


def _check_one_by_one(s: GameState, kind: str, cards: tuple[str, ...]) -> None:
    """Discard Number or Discard Colour (``ONE_BY_ONE``): ``cards`` must all be number cards
    (coloured cards) of one number (colour); once a card is laid, that of the card on top."""
    by_number, more = ONE_BY_ONE[kind]
    by = _qualifying(s, kind)
    values = {by.get(card) for card in cards}
    if len(values) == 1 and None not in values:
        return
    segment = "Discard Number" if by_number else "Discard Colour"
    if more:
        top = s.discard[-1]
        if by_number:
            raise IllegalCommand(
                f"{segment}: the cards must all be {RANK[top]}s, the number on top"
            )
        colour = COLOUR_NAMES.get(COLOUR[top] or "", "")
        raise IllegalCommand(f"{segment}: the cards must all be {colour}, the colour on top")
    other = next((card for card in cards if card not in by), None)
    if other is not None:
        raise IllegalCommand(
            f"{segment}: {other} is not a number card"
            if by_number
            else f"{segment}: {other} has no colour"
        )
    raise IllegalCommand(
        f"{segment}: the cards must all have the same {'number' if by_number else 'colour'}"
    )


@handles(WheelLay)
def _lay(d: Decision, cmd: WheelLay) -> None:
    """Discard Number or Discard Colour: one card down, more of its number (colour) to come."""
    s = d.s
    if s.pending[1] == cmd.seat and s.pending[0] in DISCARD_KINDS - ONE_BY_ONE.keys():
        raise IllegalCommand(
            "a card is laid down only at Discard Number or Discard Colour: discard the cards"
        )
    seat = d.awaiting(cmd, *ONE_BY_ONE)
    kind = s.pending[0]
    hand = s.hands[seat]
    card = cmd.card
    if card not in hand:
        raise IllegalCommand(f"seat {seat} does not hold {card}")
    _check_one_by_one(s, kind, (card,))
    by = _qualifying(s, kind)
    value = by[card]
    if sum(1 for c in hand if by.get(c) == value) < 2:
        raise IllegalCommand(
            f"{card} is the last card of its {'number' if ONE_BY_ONE[kind][0] else 'colour'} "
            "to discard: discard it, and it lands on top"
        )
    d.emit(WheelCardLaid(seat, card))


@handles(WheelDiscard)
def _discard(d: Decision, cmd: WheelDiscard) -> None:
    v = _spin_of(d)
    s = d.s
    if s.pending[1] == cmd.seat and s.pending[0] in KEEP_KINDS:
        raise IllegalCommand(
            "Almost UNO: first name the 2 cards to keep (wheel_keep), then the card on top"
        )
    seat = d.awaiting(cmd, *DISCARD_KINDS)
    kind = s.pending[0]
    cards = cmd.cards
    if not cards:
        raise InvalidCommand("name the cards to discard", field="cards")
    hand = s.hands[seat]
    rest = list(hand)
    for card in cards:
        if card not in rest:
            raise IllegalCommand(f"seat {seat} does not hold {card} (or not as many)")
        rest.remove(card)
    v._check_discard(s, kind, hand, cards)
    top = cards[-1]
    if COLOUR[top] is None:
        if cmd.colour not in v.colours:
            if cmd.colour is None:
                raise InvalidCommand(f"a {top} on top needs a colour", field="colour")
            raise InvalidCommand(
                f"unknown colour {cmd.colour!r}: expected one of {', '.join(v.colours)}",
                field="colour",
            )
    elif cmd.colour is not None:
        raise InvalidCommand(
            f"a colour is only called with a wild on top, not {top}", field="colour"
        )
    left = len(hand) - len(cards)
    if cmd.uno and left != 1:
        raise IllegalCommand("UNO is called with the discard that leaves one card")
    d.emit(WheelDiscarded(seat, cards, cmd.colour, cmd.uno))
    if not left and s.extra.out is None:
        d.end_hand(seat)  # the wheel emptied the hand: the player went out
    else:
        v._resume(d, d.next_seat(seat))
