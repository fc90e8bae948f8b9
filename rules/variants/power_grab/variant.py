"""UNO Power Grab: Draw One, Grab-2-Towers and Wild Grab-A-Tower cards, Power Icons on number
cards, and the four Power Towers (U, N, O, !) that block action cards and give Instant UNO.

The towers are edition state (``PowerGrabState.towers``: who holds each, ``None`` unclaimed;
it and the edition's events are in ``events``).
Playing a card with a Power Icon (``R5:U``) grabs that tower; a Grab-2-Towers (``RG2``) grabs
the two named in ``PowerGrabPlay.towers``, a Wild Grab-A-Tower (``WG``) the one named there.
A seat
hit by the action card its tower protects against chooses to ``block`` or ``take`` it (a Wild
Draw 4 on the O holder: ``block``, ``challenge`` or ``accept``). A seat that comes to hold all
four towers chooses the one card to ``keep`` and discards the rest (Instant UNO). The rulings
are in docs/RULINGS.md under "UNO Power Grab".
"""

from __future__ import annotations

from functools import cache
from itertools import combinations, permutations
from typing import TYPE_CHECKING

from rules.commands import Command, PlayCard
from rules.engine import decide_play, handles
from rules.errors import IllegalCommand, InvalidCommand
from rules.events import ChoiceOffered, SeatSkipped
from rules.pending import Pending
from rules.variants.classic.variant import COLOUR, MAX_PLAYERS, RANK, Unreachable, Variant
from rules.variants.power_grab.commands import Block, ClaimInstantUno, PowerGrabPlay, Take
from rules.variants.power_grab.events import (
    TOWER_INDEX,
    TOWERS,
    UNCLAIMED,
    ActionBlocked,
    BlockDeclined,
    BlockOffered,
    InstantUnoClaimed,
    PowerGrabState,
    TowersReturned,
    towers_grabbed,
)

if TYPE_CHECKING:
    from rules.engine import Decision
    from rules.state import GameState

# The action card each tower protects against, and the reverse.
PROTECTS = {"U": "D1", "N": "D2", "O": "W4", "!": "S"}
BLOCKED_BY = {rank: tower for tower, rank in PROTECTS.items()}
# The numbers whose first copy carries each Power Icon, the same in every colour: each icon
# twice per colour, on 8 of the 18 number cards; both 9s and every second copy are plain.
ICON_NUMBERS = {"U": (1, 5), "N": (2, 6), "O": (3, 7), "!": (4, 8)}
# What the draw cards make the victim draw (and the reason recorded on the draw).
DRAWS = {"D1": 1, "D2": 2, "W4": 4}
REASONS = {"D1": "draw_one", "D2": "draw_two", "W4": "wild_draw_four"}
GRABS = {"G2": 2, "WG": 1}  # how many towers a Grab-2-Towers / Wild Grab-A-Tower grabs
GRAB_CARDS = frozenset({"RG2", "GG2", "BG2", "YG2", "WG"})


def power_grab_deck(colours: tuple[str, ...]) -> tuple[str, ...]:
    """The 112 cards, in a fixed order: per colour 1-9 twice (the first copy of 1-8 with its
    Power Icon), two Draw One, two Draw Two, two Skip, one Reverse, one Grab-2-Towers; then
    four Wild Grab-A-Tower and four Wild Draw 4."""
    icon_of = {n: icon for icon, numbers in ICON_NUMBERS.items() for n in numbers}
    cards: list[str] = []
    for c in colours:
        for n in range(1, 10):
            icon = icon_of.get(n)
            cards.append(f"{c}{n}:{icon}" if icon else f"{c}{n}")
            cards.append(f"{c}{n}")
        for rank in ("D1", "D1", "D2", "D2", "S", "S", "V", "G2"):
            cards.append(f"{c}{rank}")
    cards += ["WG"] * 4 + ["W4"] * 4
    return tuple(cards)


# card code -> its Power Icon, for the cards that carry one
ICON = {code: code[-1] for code in power_grab_deck(("R", "G", "B", "Y")) if ":" in code}
# card code -> what its Power Icon grabs: the tower's place in ``towers`` and the towers
# grabbed, as ``TowersGrabbed.towers`` records them
ICON_GRAB = {code: (TOWER_INDEX[icon], (icon,)) for code, icon in ICON.items()}
# who held a tower grabbed by an icon, as ``TowersGrabbed.previous`` records it
_PREVIOUS = {holder: (holder,) for holder in (None, *range(MAX_PLAYERS))}
_CHOICES = frozenset({Pending.BLOCK, Pending.CHALLENGE, Pending.KEEP})  # with edition commands
# The towers when ``seat`` holds all four (Instant UNO).
_ALL_FOUR = tuple((seat,) * len(TOWERS) for seat in range(MAX_PLAYERS))


# ---------------------------------------------------------------------------------------------
# The edition


class PowerGrab(Variant):
    """UNO Power Grab (rulebook: shared/rulebooks/uno-power-grab.txt)."""

    name = "power_grab"
    title = "UNO Power Grab"
    pending_kinds = Variant.pending_kinds | _CHOICES

    def build_deck(self) -> tuple[str, ...]:
        return power_grab_deck(self.colours)

    def initial_extra(self, started: object) -> PowerGrabState:
        return UNCLAIMED

    def hand_extra(self, s: GameState) -> PowerGrabState:
        # Every hand starts with the four towers unclaimed next to the Play Tray.
        return UNCLAIMED

    # Matching --------------------------------------------------------------------------------

    # A Grab-2-Towers turned up to start is matched by colour only (the first player may not
    # answer it with another Grab-2-Towers) while it is the only card on the pile.
    colour_only_starters = frozenset(c for c in GRAB_CARDS if RANK[c] == "G2")

    def effect_cards(self) -> frozenset[str]:
        # Blockable draws and skips, the Power Icons and the grab cards.
        return frozenset(
            c
            for c in self.deck
            if RANK[c] in ("D1", "D2", "S") or c in ICON or RANK[c] in GRABS or c in GRAB_CARDS
        )

    def play_option_cards(self) -> frozenset[str]:
        return GRAB_CARDS

    def play_options(self, s: GameState, seat: int, card: str, leaves: int) -> list[Command]:
        if card not in GRAB_CARDS or leaves == 0:
            return self._plays[seat][leaves == 1][card]  # ``Variant.play_options``
        # The ways depend on which towers the seat holds, not on who holds the others.
        return _grab_plays(seat, card, leaves == 1, _held(s.extra.towers, seat))

    def check_play_cards(self) -> frozenset[str]:
        return GRAB_CARDS  # the towers they name

    def check_play(self, s: GameState, cmd: PlayCard) -> None:
        if cmd.card not in GRAB_CARDS:  # (every play: the class is tested only then)
            if cmd.__class__ is PowerGrabPlay and _towers(cmd):
                raise InvalidCommand(
                    "towers are named only with a Grab-2-Towers or Wild Grab-A-Tower card "
                    "(a Power Icon grabs its own tower)",
                    field="towers",
                )
            return
        towers = _towers(cmd)
        seat = cmd.seat
        assert seat is not None
        count = GRABS[RANK[cmd.card]]
        if len(s.hands[seat]) == 1:
            if towers:
                raise IllegalCommand(
                    f"{cmd.card} is the last card: the hand ends, there are no towers to grab"
                )
            return
        if towers in _grab_choices(count, _held(s.extra.towers, seat)):
            return  # the usual case: one of the ways listed; the checks below say what is wrong
        for tower in towers:
            if tower not in TOWER_INDEX:
                raise InvalidCommand(
                    f"unknown tower {tower!r}: expected one of {', '.join(TOWERS)}", field="towers"
                )
        if len(set(towers)) != len(towers):
            raise InvalidCommand("each tower can be named once", field="towers")
        x: PowerGrabState = s.extra
        for tower in towers:
            if x.holder(tower) == seat:
                raise IllegalCommand(f"seat {seat} already holds the {tower} tower")
        need = min(count, 4 - len(x.held_by(seat)))
        if len(towers) != need:
            raise InvalidCommand(
                f"{cmd.card} grabs {need} tower{'s' if need > 1 else ''}: name {need}",
                field="towers",
            )

    # Effects ---------------------------------------------------------------------------------

    def starter(self, d: Decision, card: str) -> None:
        if RANK[card] == "D1":
            # Turned up to start, a Draw One works like a Draw Two: nobody holds a tower yet.
            d.attack(d.next_seat(d.s.dealer), 1, "draw_one")
        else:
            # A Grab-2-Towers or Wild Grab-A-Tower turned up grabs nothing (the first is
            # matched by colour only: ``colour_only_starters``; the second offers the colour
            # choice like any wild).
            Variant.starter(self, d, card)

    def effect(self, d: Decision, seat: int, card: str, cmd: PlayCard) -> None:
        grab = ICON_GRAB.get(card)
        if grab is not None:  # a number card with a Power Icon: the edition's commonest effect
            index, named = grab
            s = d.s
            holder = s.extra.towers[index]
            if holder != seat:  # the icon grabs its tower
                d.emit(towers_grabbed(seat, card, named, _PREVIOUS[holder]))
                if s.extra.towers == _ALL_FOUR[seat] and self.instant_uno(d, seat, cmd.uno):
                    return
            d.begin_turn((seat + s.direction) % s.players)  # as any number card
            return
        rank = RANK[card]
        if rank == "D1" or rank == "D2" or rank == "S":
            victim = d.next_seat(seat)
            tower = BLOCKED_BY[rank]
            if d.s.extra.towers[TOWER_INDEX[tower]] == victim:
                d.emit(BlockOffered(victim, tower, card, seat, False))
            elif rank == "D1":
                d.attack(victim, 1, "draw_one")
            else:
                Variant.effect(self, d, seat, card, cmd)
            return
        if rank in GRABS and self.grab(d, seat, card, _towers(cmd), cmd.uno):
            return
        # A Wild Draw 4 offers the challenge (with a block for the O holder: legal_extra).
        Variant.effect(self, d, seat, card, cmd)

    def grab(self, d: Decision, seat: int, card: str, towers: tuple[str, ...], uno: bool) -> bool:
        """``seat`` grabs ``towers`` (those it does not hold already). When it then holds all
        four: Instant UNO. True when the turn waits for the seat to choose the card to keep."""
        # In the towers' own order, whatever order the play named them in: grabbing U and N
        # is one move, and records the same event either way.
        grabbed: list[str] = []
        previous: list[int | None] = []
        for tower, holder in zip(TOWERS, d.s.extra.towers, strict=True):
            if holder != seat and tower in towers:
                grabbed.append(tower)
                previous.append(holder)
        if not grabbed:
            return False
        d.emit(towers_grabbed(seat, card, tuple(grabbed), tuple(previous)))
        return d.s.extra.towers == _ALL_FOUR[seat] and self.instant_uno(d, seat, uno)

    def instant_uno(self, d: Decision, seat: int, uno: bool) -> bool:
        """``seat`` has just come to hold all four towers: Instant UNO. True when the turn
        waits for it to choose the card to keep."""
        hand = d.s.hands[seat]
        if len(hand) > 1:
            d.emit(ChoiceOffered(seat, Pending.KEEP))
            return True
        # One card left: nothing to discard; UNO was called (or not) with the play.
        d.emit(InstantUnoClaimed(seat, hand[0], (), uno))
        d.emit(TowersReturned(seat))
        return False

    def going_out(self, d: Decision, seat: int, card: str) -> None:
        # The hand is over as the last card is played: an icon or grab card grabs nothing.
        rank = RANK[card]
        count = DRAWS.get(rank)
        if count is not None:
            victim = d.next_seat(seat)
            tower = BLOCKED_BY[rank]
            if d.s.extra.towers[TOWER_INDEX[tower]] == victim:
                d.emit(BlockOffered(victim, tower, card, seat, True))
                return
            d.draw(victim, count, "last_card")
        d.end_hand(seat)

    # The edition's commands ------------------------------------------------------------------

    legal_kinds = _CHOICES

    def legal_extra(self, s: GameState, seat: int) -> list[Command]:
        kind, pseat = s.pending
        if pseat != seat:
            return []
        if kind == Pending.BLOCK:
            return [Block(seat), Take(seat)]
        if kind == Pending.CHALLENGE:
            return [Block(seat)] if s.extra.towers[2] == seat else []
        if kind == Pending.KEEP:
            return [
                ClaimInstantUno(seat, card, uno)
                for card in dict.fromkeys(s.hands[seat])
                for uno in (False, True)
            ]
        return []

    # Checks ----------------------------------------------------------------------------------

    def invariants(self, s: GameState) -> list[str]:
        x = s.extra
        if not isinstance(x, PowerGrabState):
            return [f"the edition state is {x!r}, not a PowerGrabState"]
        problems = []
        if len(x.towers) != 4:
            problems.append(f"{len(x.towers)} towers instead of 4")
        for tower, h in zip(TOWERS, x.towers, strict=False):
            if h is not None and not (isinstance(h, int) and 0 <= h < s.players):
                problems.append(f"the {tower} tower is held by seat {h!r}, not at this table")
        if x.threat is not None:
            problems += self.seats_off_table(s, threat=(x.threat[1],))
            if x.threat[0] not in self.deck or RANK[x.threat[0]] not in BLOCKED_BY:
                problems.append(f"{x.threat[0]} is no card a tower blocks")
        if problems:
            return problems  # (the checks below look those towers, seats and cards up)
        kind, pseat = s.pending
        first = x.towers[0]
        if (
            first is not None
            and x.towers.count(first) == 4
            and (kind, pseat) != (Pending.KEEP, first)
        ):
            problems.append(f"seat {first} holds all four towers and has not claimed Instant UNO")
        if kind == Pending.KEEP:
            if x.towers != (pseat,) * 4:
                problems.append(
                    f"seat {pseat} chooses a card to keep without holding all four towers"
                )
            if len(s.hands[pseat]) < 2:
                problems.append(
                    f"seat {pseat} chooses a card to keep holding {len(s.hands[pseat])}"
                )
        if (kind == Pending.BLOCK) != (x.threat is not None):
            problems.append(f"a block threat {x.threat!r} while the game waits for {kind}")
        if x.threat is not None and kind == Pending.BLOCK:
            card, attacker, last = x.threat
            if s.discard[-1:] != (card,):
                problems.append(f"the card to block ({card}) is not on top of the discard pile")
            if x.holder(BLOCKED_BY[RANK[card]]) != pseat:
                problems.append(f"seat {pseat} may block {card} without the tower")
            if last != (not s.hands[attacker]):
                held = len(s.hands[attacker])
                problems.append(
                    f"the block of {card} says last={last}; seat {attacker} holds {held}"
                )
        exposed = s.exposed
        if exposed is not None and len(s.hands[exposed]) != 1:
            held = len(s.hands[exposed])
            problems.append(f"seat {exposed} may be caught for UNO holding {held} cards")
        return problems

    def may_hold_nothing(self, s: GameState) -> frozenset[int]:
        # A Draw One, Draw Two or Wild Draw 4 played as the last card: the hand ends once the
        # player it hit has blocked it or drawn.
        threat = s.extra.threat
        if threat is not None and threat[2] and s.pending[0] == Pending.BLOCK:
            return frozenset({threat[1]})
        return frozenset()

    def unreachable(self, s: GameState) -> list[Unreachable]:
        return [
            *(("extra", problem, None) for problem in _unblockable(s)),
            *(("discard", problem, None) for problem in _unkeepable(s)),
            *super().unreachable(s),
        ]


def _unblockable(s: GameState) -> list[str]:
    """What is wrong with a block no game waits for (``PowerGrab.unreachable``)."""
    threat = s.extra.threat
    if threat is None or s.pending[0] != Pending.BLOCK:
        return []
    card, attacker, last = threat
    if attacker == s.pending[1]:
        return [f"seat {attacker} would block {card}, which it played itself"]
    rank = RANK[card]
    if last and rank not in DRAWS:
        # A Skip played as the last card ends the hand (``going_out``): nothing to block.
        return [f"{card} was the last card: the hand is over, nothing to block"]
    if not last and rank == "W4":
        return [
            "a Wild Draw 4 (not the last card) is blocked by the O tower's holder when they "
            "challenge or accept it (pending=challenge), not with pending=block"
        ]
    return []


def _unkeepable(s: GameState) -> list[str]:
    """What is wrong with a wait for the card to keep at Instant UNO that no game reaches
    (``PowerGrab.unreachable``): the card on top is the one that grabbed the fourth tower."""
    kind, seat = s.pending
    if kind != Pending.KEEP or not s.discard:
        return []
    top = s.discard[-1]
    if top in ICON or top in GRAB_CARDS:
        return []
    return [
        f"seat {seat} came to hold all four towers with the card on top, which must be a card "
        f"with a Power Icon, a Grab-2-Towers or a Wild Grab-A-Tower, not {top}"
    ]


def _held(towers: tuple[int | None, ...], seat: int) -> tuple[bool, ...]:
    """Which of the towers (in the order of ``TOWERS``) ``seat`` holds."""
    return (towers[0] == seat, towers[1] == seat, towers[2] == seat, towers[3] == seat)


def _others(held: tuple[bool, ...]) -> tuple[str, ...]:
    """The towers not in ``held`` (a seat's, from ``_held``), in the order of ``TOWERS``."""
    return tuple(tower for tower, mine in zip(TOWERS, held, strict=True) if not mine)


@cache  # at most 2 counts x 16 sets of towers held
def _grab_choices(count: int, held: tuple[bool, ...]) -> frozenset[tuple[str, ...]]:
    """The towers a grab of ``count`` may name when the seat holds ``held``: each set of as
    many of the others as there are (up to ``count``), named in any order."""
    free = _others(held)
    return frozenset(
        named
        for chosen in combinations(free, min(count, len(free)))
        for named in permutations(chosen)
    )


@cache  # at most 10 seats x 5 grab cards x UNO or not x 16 sets of towers held
def _grab_plays(seat: int, card: str, leaves_one: bool, held: tuple[bool, ...]) -> list[Command]:
    """Every way ``seat`` may play a grab card that leaves cards in its hand, when ``held``
    says which towers it holds (in the order of ``TOWERS``): each set of the others it may
    grab, each colour a Wild Grab-A-Tower may call, with or without UNO when one card is
    left. (A list shared by every caller, who must not change it: commands are values.)"""
    free = _others(held)
    unos = (False, True) if leaves_one else (False,)
    colours: tuple[str | None, ...] = Variant.colours if COLOUR[card] is None else (None,)
    return [
        _grab_play(seat, card, c, uno, chosen)
        for chosen in combinations(free, min(GRABS[RANK[card]], len(free)))
        for c in colours
        for uno in unos
    ]


@cache  # at most 128 plays a seat: 4 Grab-2-Towers x 11 sets x UNO or not, and 40 WG plays
def _grab_play(
    seat: int, card: str, colour: str | None, uno: bool, chosen: tuple[str, ...]
) -> PlayCard:
    """The play of the grab card ``card`` naming the towers ``chosen`` (none: a plain
    ``PlayCard``), one value for every list of ways it is in (``_grab_plays``): the lists of
    the 16 sets of towers held share their commands, so fewer of them fill the processor's
    caches."""
    if chosen:
        return PowerGrabPlay(seat, card, colour, uno, chosen)
    return PlayCard(seat, card, colour, uno)


def _towers(cmd: PlayCard) -> tuple[str, ...]:
    """The towers a play names: a Power Grab play's ``towers``; none for any other play."""
    return cmd.towers if isinstance(cmd, PowerGrabPlay) else ()


# ---------------------------------------------------------------------------------------------
# The edition's commands

# A play naming towers is decided as every play; ``PowerGrab.check_play`` and ``effect`` carry
# out its towers.
handles(PowerGrabPlay)(decide_play)


@handles(Block)
def _block(d: Decision, cmd: Block) -> None:
    s = d.s
    seat = d.awaiting(cmd, Pending.BLOCK, Pending.CHALLENGE)
    if s.pending[0] == Pending.CHALLENGE:
        if s.extra.holder("O") != seat:
            raise IllegalCommand(
                f"seat {seat} does not hold the O tower, which blocks a Wild Draw 4"
            )
        d.emit(ActionBlocked(seat, "O", s.discard[-1]))
        d.begin_turn(seat)
        return
    card, attacker, last = s.extra.threat
    d.emit(ActionBlocked(seat, BLOCKED_BY[RANK[card]], card))
    if last:
        d.end_hand(attacker)
    else:
        # The blocker plays their turn, matching the blocked card like any other.
        d.begin_turn(seat)


@handles(Take)
def _take(d: Decision, cmd: Take) -> None:
    if d.s.pending == (Pending.CHALLENGE, cmd.seat):
        raise IllegalCommand("a Wild Draw 4 is taken by accepting it (or challenged)")
    seat = d.awaiting(cmd, Pending.BLOCK)
    card, attacker, last = d.s.extra.threat
    rank = RANK[card]
    d.emit(BlockDeclined(seat, BLOCKED_BY[rank], card))
    if last:
        count = DRAWS.get(rank)  # (a Skip that went out makes nobody draw)
        if count:
            d.draw(seat, count, "last_card")
        d.end_hand(attacker)
    elif rank == "S":
        d.emit(SeatSkipped(seat))
        d.begin_turn(d.next_seat(seat))
    else:
        d.attack(seat, DRAWS[rank], REASONS[rank])


@handles(ClaimInstantUno)
def _claim_instant_uno(d: Decision, cmd: ClaimInstantUno) -> None:
    seat = d.awaiting(cmd, Pending.KEEP)
    hand = d.s.hands[seat]
    if cmd.card not in hand:
        raise IllegalCommand(f"seat {seat} does not hold {cmd.card}")
    i = hand.index(cmd.card)
    d.emit(InstantUnoClaimed(seat, cmd.card, hand[:i] + hand[i + 1 :], cmd.uno))
    d.emit(TowersReturned(seat))
    d.begin_turn(d.next_seat(seat))
