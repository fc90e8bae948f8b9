"""UNO Mod: classic UNO plus four Mod cards (``WM``), wilds that give a colour away.

Playing a Mod the player calls the colour in play (``PlayCard.colour``) and a colour from their
hand to give away (``ModPlay.give``); one card of that colour goes to each opponent in turn,
from the player on their left clockwise, until the player has none of it left. Play then goes
on in the current direction. The rulings are in docs/RULINGS.md under "UNO Mod".
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.commands import Command, PlayCard
from rules.engine import decide_play, handles
from rules.errors import IllegalCommand, InvalidCommand
from rules.pending import Pending
from rules.variants.classic.variant import COLOUR, Variant, standard_deck
from rules.variants.mod.commands import ModPlay
from rules.variants.mod.events import CardsGiven

if TYPE_CHECKING:
    from rules.engine import Decision
    from rules.state import GameState

MOD = "WM"

# A Mod play is decided as every play; the edition's hooks below carry out its ``give``.
handles(ModPlay)(decide_play)


def _give(cmd: PlayCard) -> str | None:
    """The colour a play gives away: a Mod play's ``give``; none for any other play."""
    return cmd.give if isinstance(cmd, ModPlay) else None


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
                options = [
                    PlayCard(seat, MOD, c, uno)
                    if give is None
                    else ModPlay(seat, MOD, c, uno, give)
                    for c in self.colours
                    for uno in unos
                ]
                self._mod_cache[key] = options
            out += options
        return out

    def cards_left(self, s: GameState, cmd: PlayCard) -> int:
        give = _give(cmd)
        if cmd.card != MOD or give is None:
            return Variant.cards_left(self, s, cmd)
        assert cmd.seat is not None
        rest = self._after_mod(s, cmd.seat)
        return len(rest) - sum(1 for x in rest if COLOUR[x] == give)

    def check_play_cards(self) -> frozenset[str]:
        return frozenset({MOD})  # the colour it gives away

    def check_play(self, s: GameState, cmd: PlayCard) -> None:
        if cmd.card != MOD:  # (every play: the class is tested only then)
            if cmd.__class__ is ModPlay and _give(cmd) is not None:
                raise InvalidCommand(ModPlay.refusal, field="give")
            return
        give = _give(cmd)
        assert cmd.seat is not None
        held = {COLOUR[x] for x in self._after_mod(s, cmd.seat)} - {None}
        if give is None:
            if held:
                raise InvalidCommand(
                    "playing a Mod needs a colour from your hand to give away", field="give"
                )
        elif give not in held:
            raise IllegalCommand(f"seat {cmd.seat} holds no {give} card to give away")

    def effect(self, d: Decision, seat: int, card: str, cmd: PlayCard) -> None:
        if card != MOD:
            Variant.effect(self, d, seat, card, cmd)
            return
        s = d.s
        give = _give(cmd)
        if give is not None:
            d.emit(CardsGiven(seat, give, gifts(s.hands[seat], seat, s.players, give), cmd.uno))
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
            and s.pending[0] != Pending.COLOUR
            and s.colour not in self.colours
        ):
            problems.append(f"a Mod is on top with no colour in play ({s.colour})")
        return problems
