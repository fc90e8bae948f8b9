"""UNO Mod: classic UNO plus four Mod cards (``WM``), wilds that give a colour away.

Playing a Mod the player calls the colour in play (``PlayCard.colour``) and a colour from their
hand to give away (``PlayCard.give``); one card of that colour goes to each opponent in turn,
from the player on their left clockwise, until the player has none of it left. Play then goes
on in the current direction. The rulings are in docs/RULINGS.md under "UNO Mod".
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, ClassVar

from rules.commands import Command, PlayCard
from rules.engine import applies
from rules.errors import IllegalCommand, InvalidCommand
from rules.events import Event, register_event
from rules.variants.classic import COLOUR, Variant, standard_deck

if TYPE_CHECKING:
    from rules.engine import Decision
    from rules.state import GameState

MOD = "WM"


@register_event
@dataclass(frozen=True, slots=True)
class CardsGiven(Event):
    """``seat`` played a Mod and gave away every card of ``colour`` it held: ``gifts`` are
    (receiving seat, card) in the order given. ``uno``: the player called UNO with the play
    (it matters when the giving leaves one card)."""

    type: ClassVar[str] = "cards_given"
    seat: int
    colour: str
    gifts: tuple[tuple[int, str], ...]
    uno: bool

    def redacted(self, viewer: int | None) -> dict[str, Any]:
        # The colour and who got how many are seen by all; each card only by the giver and
        # the seat that received it.
        out = self.to_dict()
        if viewer != self.seat:
            out["gifts"] = [[to, card if to == viewer else None] for to, card in self.gifts]
        counts: dict[int, int] = {}
        for to, _ in self.gifts:
            counts[to] = counts.get(to, 0) + 1
        out["counts"] = [[to, n] for to, n in counts.items()]
        return out


@applies(CardsGiven)
def _cards_given(s: GameState, e: CardsGiven) -> None:
    hands = list(s.hands)
    giver = list(hands[e.seat])
    for to, card in e.gifts:
        giver.remove(card)
        hands[to] = hands[to] + (card,)
        if s.exposed == to:  # a player holding more than one card cannot be caught
            s.exposed = None
    hands[e.seat] = tuple(giver)
    s.hands = tuple(hands)
    if len(giver) == 1 and not e.uno:
        s.exposed = e.seat
    elif s.exposed == e.seat:
        s.exposed = None


def gifts(
    hand: tuple[str, ...], seat: int, players: int, colour: str
) -> tuple[tuple[int, str], ...]:
    """Every card of ``colour`` in ``hand``, in hand order, dealt out one to each opponent
    from ``seat``'s left clockwise (whatever the direction of play) and round again."""
    cards = [c for c in hand if COLOUR[c] == colour]
    opponents = players - 1
    return tuple(((seat + 1 + i % opponents) % players, card) for i, card in enumerate(cards))


class Mod(Variant):
    """UNO Mod (rulebook: shared/rulebooks/uno-mod.txt)."""

    name = "mod"
    title = "UNO Mod"

    def __init__(self) -> None:
        super().__init__()
        self._mod_cache: dict[tuple[int, str | None, bool], list[Command]] = {}

    def build_deck(self) -> tuple[str, ...]:
        return standard_deck(self.colours) + (MOD,) * 4

    # Playing a Mod ---------------------------------------------------------------------------

    def _after_mod(self, s: GameState, seat: int) -> tuple[str, ...]:
        """``seat``'s hand once one Mod has left it."""
        hand = s.hands[seat]
        i = hand.index(MOD)
        return hand[:i] + hand[i + 1 :]

    def effect_cards(self) -> frozenset[str]:
        return frozenset({MOD})

    def play_option_cards(self) -> frozenset[str]:
        return frozenset({MOD})

    def play_options(self, s: GameState, seat: int, card: str, leaves: int) -> list[Command]:
        if card != MOD:
            return Variant.play_options(self, s, seat, card, leaves)
        hand = s.hands[seat]
        count: dict[str | None, int] = {}
        for x in hand:
            colour = COLOUR[x]
            count[colour] = count.get(colour, 0) + 1
        rest = len(hand) - 1  # the Mod itself leaves the hand
        out: list[Command] = []
        gives: list[str | None] = [c for c in self.colours if c in count]
        for give in gives or [None]:
            # Each (seat, gift, whether it leaves one card) gives the same list: made once.
            # Giving nothing (only wild cards left) leaves every card but the Mod.
            given = count.get(give, 0) if give is not None else 0
            key = (seat, give, rest - given == 1)
            options = self._mod_cache.get(key)
            if options is None:
                unos = (False, True) if key[2] else (False,)
                options = [PlayCard(seat, MOD, c, uno, give) for c in self.colours for uno in unos]
                self._mod_cache[key] = options
            out += options
        return out

    def cards_left(self, s: GameState, cmd: PlayCard) -> int:
        if cmd.card != MOD or cmd.give is None:
            return Variant.cards_left(self, s, cmd)
        assert cmd.seat is not None
        rest = self._after_mod(s, cmd.seat)
        return len(rest) - sum(1 for x in rest if COLOUR[x] == cmd.give)

    def check_play(self, s: GameState, cmd: PlayCard) -> None:
        if cmd.card != MOD:
            Variant.check_play(self, s, cmd)
            return
        assert cmd.seat is not None
        held = {COLOUR[x] for x in self._after_mod(s, cmd.seat)} - {None}
        if cmd.give is None:
            if held:
                raise InvalidCommand(
                    "playing a Mod needs a colour from your hand to give away", field="give"
                )
        elif cmd.give not in held:
            raise IllegalCommand(f"seat {cmd.seat} holds no {cmd.give} card to give away")
        # Every other edition parameter is an error with a Mod, as with any classic card.
        Variant.check_play(self, s, replace(cmd, give=None))

    def effect(self, d: Decision, seat: int, card: str, cmd: PlayCard) -> None:
        if card != MOD:
            Variant.effect(self, d, seat, card, cmd)
            return
        s = d.s
        if cmd.give is not None:
            d.emit(
                CardsGiven(seat, cmd.give, gifts(s.hands[seat], seat, s.players, cmd.give), cmd.uno)
            )
            if not s.hands[seat]:
                # Giving away the last cards is going out (docs/RULINGS.md).
                self.going_out(d, seat, card)
                return
        d.begin_turn(d.next_seat(seat))

    # Checks ----------------------------------------------------------------------------------

    def invariants(self, s: GameState) -> list[str]:
        problems = []
        if s.exposed is not None and len(s.hands[s.exposed]) != 1:
            problems.append(
                f"seat {s.exposed} may be caught for UNO holding {len(s.hands[s.exposed])} cards"
            )
        if (
            s.discard
            and s.discard[-1] == MOD
            and s.pending[0] != "colour"
            and s.colour not in self.colours
        ):
            problems.append(f"a Mod is on top with no colour in play ({s.colour})")
        return problems
