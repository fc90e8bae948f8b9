"""UNO VETO and Wild Customizable: classic UNO in purple, green, orange and yellow, with up to
three Wild Customizable cards (``WC``, 40 points) that carry the table's house rules, and the
VETO card, which is never dealt: it lies in the middle and any player may slap it on another
(``{"type": "veto", "seat": 2}``), who then skips their next turn
(rulebook: shared/rulebooks/uno-veto-customizable.txt; rulings: docs/RULINGS.md under
"UNO VETO and Wild Customizable").

Option ``customizable`` (validated strictly; an error names the option and the entry): the Wild
Customizable cards in the deck and the house rule written on each, as a list of 0 to 3 entries,
one per card (``[]``: no Customizable card in the deck), or a number 0 to 3 for that many blank
cards. The default is three blank cards. An entry is

* a thought-starter of the rulebook, by name or by its number in the rulebook:
  1 ``draw_until_colour``: the player names a colour (``name_colour``); the next player draws
  until they draw a card of it. 2 ``discard_wilds``: everyone but the player discards all their
  wild cards. 3 ``three_if_stuck``: if the next player cannot play a card, they take three
  cards. 4 ``extra_turn``. 5 ``seven_cards``: the next player draws or discards (``discard``,
  one card a command) until they hold 7. 6 ``three_cards``: everyone draws or discards until
  they hold 3. 7 ``face_up``: every hand is face up until the player's next turn. 8 ``joke``:
  the player (or a referee) reports whether someone laughed (``report_joke``): laughed, the
  player keeps one card (``keep_card``, with ``uno``) and discards the rest; nobody laughed,
  the player draws 4. 9 ``elbows``: a program cannot carry it out; it is recorded, as free
  text is. 10 ``rooster``: the next player (or a referee) reports the rooster call
  (``report_rooster``); chickened out, they draw 4.
* ``"blank"``: nothing written on the card: it plays as a plain wild.
* ``"text:<any house rule>"`` (or ``{"text": "..."}``): a rule the engine cannot carry out; it
  is recorded in the ``customizable_played`` event and otherwise plays as a plain wild.

For example ``--option customizable='["joke", 4, "text:Sing"]'`` (``python -m rules.simulate``,
``python -m rules.deck``) or ``--option customizable=2``.

A played ``WC`` names its rule in ``VetoPlay.rule`` (needed only when the hand holds
Customizable cards with different rules). The cards look alike from the back, so which one is
where is chance, recorded in ``customizable_dealt`` and ``house_rules_drawn`` (made after every
draw, so that it tells the other seats nothing): a seat learns the rule of a card when it gets
it, the table when it is played. When every card carries the same rule nothing needs telling
apart and neither event is made.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from rules.commands import Command, PlayCard
from rules.engine import decide_play, handles, pass_turn, rng
from rules.errors import IllegalCommand, InvalidCommand
from rules.events import ChoiceOffered
from rules.pending import Pending
from rules.variants.classic.variant import COLOUR, MAX_PLAYERS, Unreachable, Variant, standard_deck
from rules.variants.veto.commands import (
    DiscardAllButOne,
    DiscardCard,
    NameColour,
    ReportJoke,
    ReportRooster,
    SlapVeto,
    VetoPlay,
)
from rules.variants.veto.events import (
    BETWEEN_HANDS,
    BLANK,
    MAX_CUSTOMIZABLE,
    WC,
    CardsDiscarded,
    ColourNamed,
    CustomizableDealt,
    CustomizablePlayed,
    DiscardsOwed,
    HandsHidden,
    HandsShown,
    HouseRulesDrawn,
    JokeReported,
    RoosterReported,
    StuckChecked,
    StuckRuleSet,
    VetoServed,
    VetoSlapped,
    VetoState,
    held_of,
    in_discard,
    in_pile,
    parse_rule,
    rule_text,
    veto_state,
    without,
)

if TYPE_CHECKING:
    from rules.engine import Decision
    from rules.state import GameState

# Pending choices of the house rules (each answered by the command of the same name, but
# "joke" by report_joke and "rooster" by report_rooster).
_CHOICES = frozenset(
    {Pending.NAME_COLOUR, Pending.DISCARD, Pending.JOKE, Pending.KEEP_CARD, Pending.ROOSTER}
)
_OWN_TYPES = frozenset(
    cls.type
    for cls in (SlapVeto, NameColour, DiscardCard, ReportJoke, DiscardAllButOne, ReportRooster)
)
# _SLAPS[players][seat]: every slap of the VETO ``seat`` may send at a table of ``players``.
_SLAPS: tuple[tuple[list[Command], ...], ...] = tuple(
    tuple([SlapVeto(seat, t) for t in range(players) if t != seat] for seat in range(players))
    for players in range(MAX_PLAYERS + 1)
)
_NO_SLAPS: list[Command] = []


# ---------------------------------------------------------------------------------------------
# The edition


class Veto(Variant):
    """UNO VETO and Wild Customizable (rulebook: shared/rulebooks/uno-veto-customizable.txt)."""

    name = "veto"
    title = "UNO VETO"
    colours = ("P", "G", "O", "Y")

    out_of_turn_types = frozenset({"catch", "call_uno", "veto"})
    pending_kinds = Variant.pending_kinds | _CHOICES

    def __init__(self) -> None:
        super().__init__()
        self._decks: dict[int, tuple[str, ...]] = {}
        self._wc_cache: dict[tuple[int, tuple[str | None, ...], bool], list[Command]] = {}

    # Data ----------------------------------------------------------------------------------

    def build_deck(self) -> tuple[str, ...]:
        return standard_deck(self.colours) + (WC,) * MAX_CUSTOMIZABLE

    def deck_for(self, options: tuple[tuple[str, Any], ...]) -> tuple[str, ...]:
        count = len(_rules_of(options))
        deck = self._decks.get(count)
        if deck is None:
            # The full deck with only ``count`` Wild Customizable cards (the same strings).
            deck = self._decks[count] = self.deck[: len(self.deck) - MAX_CUSTOMIZABLE + count]
        return deck

    def parse_options(self, options: dict[str, Any]) -> tuple[tuple[str, Any], ...]:
        for name in sorted(options):
            if name != "customizable":
                raise InvalidCommand(
                    f"unknown option {name!r} for {self.name} (known: customizable)",
                    field=f"options.{name}",
                )
        value = options.get("customizable", MAX_CUSTOMIZABLE)
        where = "options.customizable"
        if isinstance(value, bool):
            raise InvalidCommand(
                f"{where}: expected a list of house rules or a number 0 to 3", field=where
            )
        if isinstance(value, int):
            if not 0 <= value <= MAX_CUSTOMIZABLE:
                raise InvalidCommand(
                    f"{where}: a deck has 0 to {MAX_CUSTOMIZABLE} Customizable cards, not {value}",
                    field=where,
                )
            rules = (BLANK,) * value
        elif isinstance(value, (list, tuple)):
            if len(value) > MAX_CUSTOMIZABLE:
                raise InvalidCommand(
                    f"{where}: a deck has at most {MAX_CUSTOMIZABLE} Customizable cards, "
                    f"not {len(value)}",
                    field=where,
                )
            rules = tuple(parse_rule(v, f"{where}[{i}]") for i, v in enumerate(value))
        else:
            raise InvalidCommand(
                f"{where}: expected a list of house rules or a number 0 to 3", field=where
            )
        return (("customizable", rules),)

    def initial_extra(self, started: Any) -> VetoState:
        return _fresh(_rules_of(started.options), started.players)

    def hand_extra(self, s: GameState) -> VetoState:
        # Each hand starts with the VETO in the middle and no house rule in force.
        return _fresh(veto_state(s).rules, s.players)

    # Dealing and drawing: which Customizable card is which -----------------------------------

    def starter(self, d: Decision, card: str) -> None:
        s = d.s
        x = veto_state(s)
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
        # in_pile still counts the cards just drawn (they are not held yet). The draw is named
        # by where the pile stands (its reshuffle and the cards gone from it), not by the
        # game's version, so a draw undone and made again carries the same rules.
        pool = in_pile(s, x)
        gen = rng(s, "hand", s.hand_number, "customizable", s.reshuffles, s.pos)
        picks = gen.sample(pool, k)
        drawn = picks[0] if reason == "turn" and cards[0] == WC else None
        d.emit(HouseRulesDrawn(seat, tuple(picks), drawn))

    # Playing a Customizable card ----------------------------------------------------------

    def effect_cards(self) -> frozenset[str]:
        return frozenset({WC})

    def play_option_cards(self) -> frozenset[str]:
        return frozenset({WC})

    def play_options(self, s: GameState, seat: int, card: str, leaves: int) -> list[Command]:
        if card != WC:
            return Variant.play_options(self, s, seat, card, leaves)
        x = veto_state(s)
        rules: tuple[str | None, ...]
        if not x.tracked:
            rules = x.rules[:1]
        elif s.pending[0] == Pending.DRAWN:
            rules = (x.drawn_rule,)
        else:
            rules = tuple(dict.fromkeys(x.held[seat]))
        key = (seat, rules, leaves == 1)
        options = self._wc_cache.get(key)
        if options is None:
            unos = (False, True) if leaves == 1 else (False,)
            options = [
                PlayCard(seat, WC, c, uno) if r is None else VetoPlay(seat, WC, c, uno, r)
                for r in rules
                for c in self.colours
                for uno in unos
            ]
            self._wc_cache[key] = options
        return options

    def check_play_cards(self) -> frozenset[str]:
        return frozenset({WC})  # the house rule it plays

    def check_play(self, s: GameState, cmd: PlayCard) -> None:
        if cmd.card != WC:  # (every play: the class is tested only then)
            if cmd.__class__ is VetoPlay and _rule(cmd) is not None:
                raise InvalidCommand(VetoPlay.refusal, field="rule")
            return
        assert cmd.seat is not None
        self.rule_played(s, cmd.seat, _rule(cmd))

    def rule_played(self, s: GameState, seat: int, rule: str | None) -> str:
        """The house rule of the Customizable card ``seat`` plays, naming ``rule`` (or not)."""
        x = veto_state(s)
        if s.pending[0] == Pending.DRAWN and x.tracked:
            drawn = x.drawn_rule
            assert drawn is not None
            if rule is not None and rule != drawn:
                raise IllegalCommand(
                    "after drawing, only the card drawn may be played: "
                    f"the Customizable card with {drawn!r}"
                )
            return drawn
        return _pick(held_of(s, x, seat), seat, rule, "play")

    def effect(self, d: Decision, seat: int, card: str, cmd: PlayCard) -> None:
        if card != WC:
            return Variant.effect(self, d, seat, card, cmd)
        # check_play has checked the choice; the card has left the hand, not its rule yet.
        x = veto_state(d.s)
        rule = _rule(cmd)
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
            x = veto_state(d.s)
            rule = x.held[seat][0] if x.tracked else x.rules[0]
            d.emit(CustomizablePlayed(seat, rule, rule_text(rule)))
        Variant.going_out(self, d, seat, card)

    def carry_out(self, d: Decision, seat: int, rule: str) -> None:
        """The house rule ``seat`` just played, then the next turn."""
        nxt = d.next_seat(seat)
        if rule == "draw_until_colour":
            d.emit(ChoiceOffered(seat, Pending.NAME_COLOUR))
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
            d.emit(ChoiceOffered(seat, Pending.JOKE))
        elif rule == "rooster":
            d.emit(ChoiceOffered(nxt, Pending.ROOSTER))
        else:  # blank, elbows, free text: a plain wild
            d.begin_turn(nxt)

    def _discard_wilds(self, d: Decision, seat: int) -> None:
        s = d.s
        others = [d.next_seat(seat, k) for k in range(1, s.players)]
        for other in others:
            wilds = tuple(c for c in s.hands[other] if COLOUR[c] is None)
            if wilds:
                d.emit(
                    CardsDiscarded(other, wilds, held_of(s, veto_state(s), other), "discard_wilds")
                )
        # Once a player has no cards left, the round is over (the first, in turn order).
        for other in others:
            if not s.hands[other]:
                d.end_hand(other)
                return
        d.begin_turn(others[0])

    def _resize(self, d: Decision, seat: int, seats: tuple[int, ...], size: int) -> None:
        _draw_up(d, seats, size)
        queue = [(t, size) for t in seats if len(d.s.hands[t]) > size]
        if queue:
            d.emit(DiscardsOwed(tuple(queue)))
            d.emit(ChoiceOffered(queue[0][0], Pending.DISCARD))
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
                # They cannot play: they take three cards, and the turn passes. They send no
                # command, so an UNO catch window stays open, as after a Draw Two (V12).
                d.draw(seat, 3, "three_if_stuck")
                pass_turn(d, seat)

    # The edition's own commands --------------------------------------------------------------

    def out_of_turn_open(self, s: GameState) -> bool:
        if s.exposed is not None:
            return True
        x = s.extra
        return x is not None and x.veto is None and s.pending[0] not in BETWEEN_HANDS

    def out_of_turn_rare(self, s: GameState) -> bool:
        # With no UNO to catch, only the VETO is open out of turn (all hand long).
        return s.exposed is None

    def closes_uno_window(self, cmd: Command) -> bool:
        # A house rule's choices and a VETO slap are not the next player beginning a turn.
        return cmd.type not in ("call_uno", "catch") and cmd.type not in _OWN_TYPES

    def legal_extra(self, s: GameState, seat: int) -> list[Command]:
        kind, pseat = s.pending
        x = s.extra
        # The VETO in the middle may be slapped on any other seat (lists shared: callers only
        # read them).
        slaps = _SLAPS[s.players][seat] if x.veto is None else _NO_SLAPS
        if pseat != seat or kind not in _CHOICES:
            return _NO_SLAPS if kind in BETWEEN_HANDS else slaps
        hand = s.hands[seat]
        out: list[Command]
        if kind == Pending.NAME_COLOUR:
            out = [NameColour(seat, c) for c in self.colours]
        elif kind == Pending.DISCARD:
            out = [DiscardCard(seat, c, r) for c, r in _each_card(hand, held_of(s, x, seat))]
        elif kind == Pending.KEEP_CARD:
            out = [
                DiscardAllButOne(seat, c, r, uno)
                for c, r in _each_card(hand, held_of(s, x, seat))
                for uno in (False, True)
            ]
        elif kind == Pending.JOKE:
            out = [ReportJoke(seat, True), ReportJoke(seat, False)]
        else:
            out = [ReportRooster(seat, True), ReportRooster(seat, False)]
        return out + slaps

    # Checks ----------------------------------------------------------------------------------

    def invariants(self, s: GameState) -> list[str]:
        x = s.extra
        if not isinstance(x, VetoState):
            return ["the edition state is not a VetoState"]
        out = []
        if len(x.held) != s.players:
            return [f"house rules held for {len(x.held)} seats at a table of {s.players}"]
        off = self.seats_off_table(
            s,
            veto=(x.veto,),
            showing=x.showing,
            stuck=x.stuck,
            player=(x.player,),
            queue=(seat for seat, _ in x.queue),
        )
        if off:
            return off  # (the checks below look those seats up)
        if x.rules != _rules_of(s.options):
            return [
                f"house rules {list(x.rules)} are not the game's ({list(_rules_of(s.options))})"
            ]
        if x.tracked != (len(set(x.rules)) > 1):
            out.append("Customizable cards are told apart only when their house rules differ")
        if x.synced < 0 or any(size < 0 for _, size in x.queue):
            out.append("a count below zero (synced, or a size to discard down to)")
        if not x.tracked:
            if any(x.held) or x.discard_rules or x.drawn_rule is not None:
                out.append("house rules recorded for Customizable cards that are not told apart")
            x = replace(
                x,
                held=tuple(held_of(s, x, seat) for seat in range(s.players)),
                discard_rules=x.rules[:1] * s.discard.count(WC),
                synced=s.reshuffles,
            )
        for seat, hand in enumerate(s.hands):
            if hand.count(WC) != len(x.held[seat]):
                out.append(
                    f"seat {seat} holds {hand.count(WC)} WC but {len(x.held[seat])} house rules"
                )
        discard = in_discard(s, x)
        if s.discard.count(WC) != len(discard):
            out.append(
                f"the discard pile has {s.discard.count(WC)} WC but {len(discard)} house rules"
            )
        rest = Counter(x.rules)
        for h in (*x.held, discard):
            rest.subtract(h)
        if any(n < 0 for n in rest.values()):
            out.append(f"more house rules in play than on the cards: {dict(rest)}")
        elif sum(rest.values()) != s.pile[s.pos :].count(WC):
            out.append("the draw pile's WC cards do not match the house rules left")
        if bool(x.showing) != bool(s.shown) and s.pending[0] != Pending.OVER:
            out.append("hands face up without a face-up rule, or the other way round")
        kind, pseat = s.pending
        if kind == Pending.DISCARD and not (
            x.queue and x.queue[0][0] == pseat and len(s.hands[pseat]) > x.queue[0][1]
        ):
            out.append(f"seat {pseat} discards with nothing owed")
        if (
            kind == Pending.DRAWN
            and s.drawn == WC
            and x.tracked
            and x.drawn_rule not in x.held[pseat]
        ):
            out.append("the Wild Customizable card just drawn has no house rule")
        return out

    def unreachable(self, s: GameState) -> list[Unreachable]:
        kind, pseat = s.pending
        found: list[Unreachable] = [
            ("discard", problem, None) for problem in _house_rule_unreachable(s)
        ]
        found += [("extra", problem, None) for problem in _discards_unreachable(s)]
        if kind == Pending.KEEP_CARD and len(s.hands[pseat]) < 2:
            # Someone laughed at the joke: a player with one card left keeps it, unasked (V16).
            held = len(s.hands[pseat])
            keeps = f"seat {pseat} keeps one card and discards the rest holding {held}"
            found.append(("extra", keeps, None))
        return [*found, *super().unreachable(s)]


# The waits of a house rule carried out, with the rule and what the player waited for does.
_RULE_WAITS: dict[str, tuple[str, str]] = {
    Pending.NAME_COLOUR: ("draw_until_colour", "names the colour the next player draws to"),
    Pending.JOKE: ("joke", "tells a joke"),
    Pending.KEEP_CARD: ("joke", "keeps one card after a laugh at the joke"),
    Pending.ROOSTER: ("rooster", "does the rooster call"),
}


def _house_rule_unreachable(s: GameState) -> list[str]:
    """What is wrong with a wait for a house rule to be carried out that no game reaches
    (``Veto.unreachable``): it comes right after the Wild Customizable card with that rule,
    which is on top, played by the player waited for (the one before, for the rooster call)."""
    kind, pseat = s.pending
    wait = _RULE_WAITS.get(kind)
    if wait is None:
        return []
    rule, does = wait
    x: VetoState = s.extra
    top = s.discard[-1] if s.discard else None
    if top != WC:
        return [
            f"seat {pseat} {does} right after a Wild Customizable card with that house rule "
            f"({rule}), which is then on top, not {top}"
        ]
    on_top = _rule_on_top(s, x)
    if on_top != rule:
        return [
            f"seat {pseat} {does} only after a Wild Customizable card with the {rule} house "
            f"rule; the one on top has {on_top}"
        ]
    player = pseat if kind != Pending.ROOSTER else (pseat - s.direction) % s.players
    if x.player != player:
        return [
            f"seat {pseat} {does} after seat {player} played the Wild Customizable card on "
            f"top, so the house rule is seat {player}'s (player), not seat {x.player}'s"
        ]
    return []


def _rule_on_top(s: GameState, x: VetoState) -> str | None:
    """The house rule of the Wild Customizable card on top of the discard pile (it is on top)."""
    return (in_discard(s, x)[-1:] or (None,))[0] if x.tracked else x.rules[0]


def _discards_unreachable(s: GameState) -> list[str]:
    """What is wrong with a wait for a discard down to 7 or 3 cards that no game reaches
    (``Veto.unreachable``, V14): it comes after the Wild Customizable card with that rule, which
    stays on top, played by ``player``. Down to 7: the next player alone. Down to 3: every
    player holds 3 or more (those with fewer drew at once; fewer only when the draw pile ran
    out, and they draw the rest after the discards), and in turn order from the player those
    before the one discarding hold 3 and those after it with more are still owed."""
    kind, pseat = s.pending
    if kind != Pending.DISCARD:
        return []
    x: VetoState = s.extra
    top = s.discard[-1] if s.discard else None
    on_top = _rule_on_top(s, x) if top == WC else None
    if on_top not in ("seven_cards", "three_cards"):
        return [
            f"seat {pseat} discards down to 7 or 3 cards right after a Wild Customizable card "
            f"with that house rule (seven_cards, three_cards), which is then on top, not "
            f"{top if top != WC else f'one with {on_top}'}"
        ]
    player, n = x.player, s.players
    if player is None:
        return [f"seat {pseat} discards after a house rule nobody played (player)"]
    if on_top == "seven_cards":
        nxt = (player + s.direction) % n
        if x.queue != ((nxt, 7),):
            return [
                f"after seat {player} played the Wild Customizable card with seven_cards, only "
                f"the next player, seat {nxt}, discards down to 7 (queue), not {list(x.queue)}"
            ]
        return []
    order = [(player + s.direction * k) % n for k in range(n)]
    done = order[: order.index(pseat)]
    ran_out = s.pos >= len(s.pile)  # a player then waits for the discards to draw the rest
    for seat in order:
        held = len(s.hands[seat])
        if (held < 3 and not ran_out) or (seat in done and held > 3):
            return [
                f"seat {seat} holds {held} cards while seat {pseat} discards down to 3: in turn "
                f"order from seat {player}, who played the card, those with fewer drew up to 3 "
                f"at once and those before seat {pseat} have discarded down to 3"
            ]
    owed = tuple((seat, 3) for seat in order[len(done) :] if len(s.hands[seat]) > 3)
    if x.queue != owed:
        return [
            f"seat {pseat} discards down to 3 with {list(owed)} owed in turn order from seat "
            f"{player} (queue), not {list(x.queue)}"
        ]
    return []


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
                f"name the house rule of the Customizable card to {doing} (rule): "
                f"one of {', '.join(distinct)}",
                field="rule",
            )
        return held[0]
    if rule not in held:
        raise IllegalCommand(
            f"seat {seat} holds no Wild Customizable card with the house rule {rule!r}"
        )
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


def _rule(cmd: PlayCard) -> str | None:
    """The house rule a play names: a VETO play's ``rule``; none for any other play."""
    return cmd.rule if isinstance(cmd, VetoPlay) else None


# ---------------------------------------------------------------------------------------------
# The edition's commands

# A play naming a house rule is decided as every play; ``Veto.check_play`` and ``effect`` carry
# out its rule.
handles(VetoPlay)(decide_play)


@handles(SlapVeto)
def _slap(d: Decision, cmd: SlapVeto) -> None:
    s = d.s
    seat, target = cmd.seat, cmd.target
    if seat is None:
        raise IllegalCommand("the VETO card is slapped by a player, not a referee")
    if s.pending[0] in BETWEEN_HANDS:
        raise IllegalCommand("the VETO card can be slapped only while a hand is played")
    if not (isinstance(target, int) and 0 <= target < s.players):
        raise InvalidCommand(f"no seat {target!r} to slap the VETO on", field="target")
    if target == seat:
        raise IllegalCommand("a player cannot slap the VETO card on themselves")
    veto = veto_state(s).veto
    if veto is not None:
        raise IllegalCommand(
            f"the VETO card is not in the middle: seat {veto} has it until they skip a turn"
        )
    d.emit(VetoSlapped(seat, target))


@handles(NameColour)
def _name_colour(d: Decision, cmd: NameColour) -> None:
    seat = d.awaiting(cmd, Pending.NAME_COLOUR)
    colour = cmd.colour
    colours = d.variant.colours
    if colour not in colours:
        raise InvalidCommand(
            f"unknown colour {colour!r}: expected one of {', '.join(colours)}", field="colour"
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


@handles(DiscardCard)
def _discard(d: Decision, cmd: DiscardCard) -> None:
    seat = d.awaiting(cmd, Pending.DISCARD)
    s = d.s
    if cmd.card not in s.hands[seat]:
        raise IllegalCommand(f"seat {seat} does not hold {cmd.card}")
    rules: tuple[str, ...] = ()
    if cmd.card == WC:
        rules = (_pick(held_of(s, veto_state(s), seat), seat, cmd.rule, "discard"),)
    elif cmd.rule is not None:
        raise InvalidCommand("rule is only for Wild Customizable cards", field="rule")
    d.emit(CardsDiscarded(seat, (cmd.card,), rules, "house_rule"))
    x = veto_state(s)
    if x.queue:
        if x.queue[0][0] != seat:
            d.emit(ChoiceOffered(x.queue[0][0], Pending.DISCARD))
        return
    player = x.player
    assert player is not None
    if _rule_on_top(s, x) == "three_cards":
        # Everyone ends with exactly 3 (V14): a player the piles could not bring up to 3 at
        # once draws the rest now that the discards can be reshuffled in.
        _draw_up(d, tuple(d.next_seat(player, k) for k in range(s.players)), 3)
    d.begin_turn(d.next_seat(player))


def _draw_up(d: Decision, seats: tuple[int, ...], size: int) -> None:
    """Each of ``seats`` holding fewer than ``size`` cards draws up to it, in that order (as
    many as the piles hold)."""
    for t in seats:
        short = size - len(d.s.hands[t])
        if short > 0:
            d.draw(t, short, "house_rule")


@handles(ReportJoke)
def _joke(d: Decision, cmd: ReportJoke) -> None:
    seat = d.awaiting(cmd, Pending.JOKE, referee=True)
    if not isinstance(cmd.laughed, bool):
        raise InvalidCommand("laughed: expected true or false", field="laughed")
    d.emit(JokeReported(seat, cmd.laughed, cmd.seat))
    if cmd.laughed:
        if len(d.s.hands[seat]) > 1:
            d.emit(ChoiceOffered(seat, Pending.KEEP_CARD))
            return
    else:
        d.draw(seat, 4, "joke")
    d.begin_turn(d.next_seat(seat))


@handles(DiscardAllButOne)
def _discard_all_but_one(d: Decision, cmd: DiscardAllButOne) -> None:
    seat = d.awaiting(cmd, Pending.KEEP_CARD)
    s = d.s
    hand = list(s.hands[seat])
    if cmd.card not in hand:
        raise IllegalCommand(f"seat {seat} does not hold {cmd.card}")
    held = held_of(s, veto_state(s), seat)
    if cmd.card == WC:
        held = without(held, (_pick(held, seat, cmd.rule, "keep"),))
    elif cmd.rule is not None:
        raise InvalidCommand("rule is only for Wild Customizable cards", field="rule")
    hand.remove(cmd.card)
    d.emit(CardsDiscarded(seat, tuple(hand), held, "joke", cmd.uno))
    d.begin_turn(d.next_seat(seat))


@handles(ReportRooster)
def _rooster(d: Decision, cmd: ReportRooster) -> None:
    seat = d.awaiting(cmd, Pending.ROOSTER, referee=True)
    if not isinstance(cmd.performed, bool):
        raise InvalidCommand("performed: expected true or false", field="performed")
    d.emit(RoosterReported(seat, cmd.performed, cmd.seat))
    if not cmd.performed:
        d.draw(seat, 4, "rooster")
    d.begin_turn(seat)
