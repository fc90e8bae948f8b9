"""Every edition: the commands ``decide`` accepts from a seat are exactly those
``legal_commands`` lists for it.

Bots and pages build their choices from ``legal_commands``, so a command the engine accepts
but does not list is a move nobody is offered (an UNO call, a choice of gift), and a listed
command the engine refuses is a button that fails. States are reached by random play with the
engine's own bots (as ``rules.simulate`` plays: the other seats now and then act out of turn)
from random seeds and table sizes. At each state looked at, every seat sends every command of
the edition's command space, built from the fields of the registered command classes: every
card code of the game's deck, every colour letter, UNO or not, every seat as a target, every
gift, tower choice, house rule, set of cards to discard and yes/no answer the commands take.

Two commands are one move when they cause the same events (a Customizable card's rule may be
left out when the hand holds cards of one rule), or when they are wheel discards of the same
cards with the same card on top (docs/RULINGS.md, S6): a move accepted under another name is
offered. At Discard Number and Discard Colour, offered a card at a time (S8), a wheel discard of
several cards is the steps in one command: it must be accepted exactly when laying each card
but the last and then discarding the last is offered at every step, and leave the game as
those steps do; so must the two cards an Almost UNO keeps in one command (S7), kept one at a
time. A seat the game does not wait for tries its cards without the edition's parameters,
which are not looked at before it is refused; sets of cards to discard are sampled from big
hands. Every state of a game is not looked at: the rarer choices and the end of a hand are.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import MISSING, fields
from itertools import permutations, product
from random import Random
from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st

from rules.bots import RandomBot
from rules.commands import COMMAND_TYPES, PLAY_TYPES, Command, DealHand, PlayCard
from rules.engine import decide, legal_commands, new_game, step
from rules.errors import RuleError
from rules.state import GameState
from rules.variants import get_variant, load_all
from rules.variants.power_grab.events import TOWERS
from rules.variants.spin.commands import WheelDiscard, WheelKeep, WheelLay
from rules.variants.spin.variant import ONE_BY_ONE
from rules.variants.veto.events import THOUGHT_STARTERS

load_all()  # every edition's commands are in the space (another edition's must be refused)

COLOURS = (None, "R", "G", "B", "Y", "P", "O")  # every colour letter the API parses
# The play parameters each edition takes (the field of its own play command, a ``PlayCard``
# with one more field). Another edition's play command is sent once with each listed play, and
# refused.
PLAY_PARAMETERS = {"mod": {"give"}, "power_grab": {"towers"}, "veto": {"rule"}}
PLAY_CORE = {"card", "colour", "uno"}
# Sets of cards to discard tried (a sample, when the hand has more): by the seat the game
# waits for, and by the others (refused at once, whatever the cards).
MAX_DISCARDS = 16
MAX_DISCARDS_OUT_OF_TURN = 6
# One state in TURN_EVERY is looked at while the game waits for an ordinary turn of a player
# holding more than ENDGAME cards; every other state is (the rarer choices, the UNO calls).
TURN_EVERY = 12
ENDGAME = 3


def play_values(state: GameState, seat: int, name: str) -> list[Any]:
    """The values tried for an edition parameter of a play."""
    if name == "give":
        return list(COLOURS)
    if name == "towers":
        return [
            (),
            *((t,) for t in (*TOWERS, "X")),
            *permutations(TOWERS, 2),
            ("U", "X"),
            ("U", "U"),
            ("U", "N", "O"),
        ]
    if name == "rule":
        return [None, *dict.fromkeys(game_rules(state)), "nope"]
    raise AssertionError(name)


def game_rules(state: GameState) -> tuple[str, ...]:
    for key, value in state.options:
        if key == "customizable":
            return tuple(value)
    return ()


def discard_sets(hand: tuple[str, ...], rng: Random, most: int) -> list[tuple[str, ...]]:
    """Sets of cards from ``hand`` (each distinct set once; a sample of ``most`` when there
    are more), each in every order that puts a different card on top."""
    counts: dict[str, int] = {}
    for card in hand:
        counts[card] = counts.get(card, 0) + 1
    total = 1
    for count in counts.values():
        total *= count + 1
    chosen_sets: set[tuple[str, ...]] = set()
    if total - 1 <= most:
        sets: list[tuple[str, ...]] = [()]
        for code, count in counts.items():
            sets = [chosen + (code,) * k for chosen in sets for k in range(count + 1)]
        chosen_sets = {chosen for chosen in sets if chosen}
    else:
        # Every single card, and sets of every size drawn at random.
        chosen_sets = {(code,) for code in counts}
        order = {code: i for i, code in enumerate(counts)}
        for _ in range(most):
            cards = rng.sample(hand, rng.randint(2, len(hand)))
            chosen_sets.add(tuple(sorted(cards, key=order.__getitem__)))
    out = []
    for chosen in sorted(chosen_sets):
        for top in dict.fromkeys(chosen):
            rest = list(chosen)
            rest.remove(top)
            out.append((*rest, top))
    return out


def field_values(
    cls: type[Command], f: Any, state: GameState, seat: int, deck: tuple[str, ...], rng: Random
) -> list[Any]:
    """Every value tried for field ``f`` of a ``cls`` command sent by ``seat``."""
    kind = f.metadata.get("kind")
    optional = f.metadata.get("optional", True)
    if kind == "card":
        return list(dict.fromkeys(state.hands[seat]))  # other cards: see ``command_space``
    if kind == "colour":
        return list(COLOURS) if optional else list(COLOURS[1:])
    if kind == "bool":
        return [False, True]
    if kind == "seat":
        return list(range(-1, state.players + 1))
    if kind == "word":
        return play_values(state, seat, "rule")
    if kind == "words":
        return play_values(state, seat, "towers")
    if kind == "cards":
        if cls is DealHand:
            return [(), get_variant(state.variant).deck_for(state.options)]
        hand = state.hands[seat]
        most = MAX_DISCARDS if state.pending[1] == seat else MAX_DISCARDS_OUT_OF_TURN
        return [(), *discard_sets(hand, rng, most)]  # other cards: see ``command_space``
    if kind in ("seat_cards", "seat_points"):
        return [()]
    raise AssertionError(f"no values for {cls.__name__}.{f.name} ({kind})")


def some_value(f: Any, deck: tuple[str, ...]) -> Any:
    """A value of the field's kind (another edition's command is refused whatever it says)."""
    kind = f.metadata.get("kind")
    return {"card": deck[0], "cards": deck[:1], "colour": "R", "seat": 0}.get(kind, f.default)


def command_space(state: GameState, seat: int, rng: Random) -> Iterator[Command]:
    """Every command of every registered type ``seat`` may try, built from the fields."""
    variant = get_variant(state.variant)
    deck = tuple(dict.fromkeys(variant.deck_for(state.options)))
    own = PLAY_PARAMETERS.get(state.variant, set())
    # A seat the game does not wait for is refused every command but the out-of-turn ones
    # before their edition parameters or cards are looked at: it tries plays of its own cards
    # without those parameters, which keeps the space small at a table of ten.
    waited = state.pending[1] == seat
    for cls in [*COMMAND_TYPES.values(), *PLAY_TYPES.values()]:
        params = [f for f in fields(cls) if f.name != "seat"]
        if cls.edition is not None and cls.edition != state.variant:
            # Another edition's command: refused by its type, whatever its fields say.
            yield cls(seat, **{f.name: some_value(f, deck) for f in params})
            continue
        if issubclass(cls, PlayCard):
            if cls is not PlayCard and not waited:
                continue  # the edition's play without its field is a ``PlayCard``
            params = [f for f in params if f.name in PLAY_CORE or (waited and f.name in own)]
        domains = [field_values(cls, f, state, seat, deck, rng) for f in params]
        names = [f.name for f in params]
        for values in product(*domains):
            yield cls(seat, **dict(zip(names, values, strict=True)))
        # A card the seat does not hold, with every other field at its default (and, for a
        # wild, a colour): refused whatever else the command says.
        for f in params:
            kind = f.metadata.get("kind")
            if kind not in ("card", "cards") or cls is DealHand or not waited:
                continue
            for card in deck:
                if card not in state.hands[seat]:
                    yield cls(seat, **{f.name: card if kind == "card" else (card,)})
                    if issubclass(cls, PlayCard) and card[0] == "W":
                        yield PlayCard(seat, card, variant.colours[0])
    # Another edition's play parameter with each play this edition lists: refused.
    for cmd in legal_commands(state, seat):
        if type(cmd) is PlayCard:
            for other_play in PLAY_TYPES.values():
                name = other_play.edition_field
                if name is not None and name not in own:
                    other = play_values(state, seat, name)[1]
                    yield other_play(**{**_as_kwargs(cmd), name: other})


def _as_kwargs(cmd: Command) -> dict[str, Any]:
    return {f.name: getattr(cmd, f.name) for f in fields(cmd)}


def key(cmd: Command) -> Any:
    """Commands that mean the same: a wheel discard names the cards under the top in any
    order (docs/RULINGS.md, S6), so those are compared as a set."""
    if type(cmd) is WheelDiscard:
        return (cmd.seat, tuple(sorted(cmd.cards[:-1])), cmd.cards[-1:], cmd.colour, cmd.uno)
    return cmd


def disagreements(state: GameState, rng: Random) -> list[str]:
    out = []
    for seat in range(state.players):
        legal = legal_commands(state, seat)
        listed = {key(c) for c in legal}
        outcomes = set()
        for cmd in legal:
            try:
                outcomes.add(tuple(decide(state, cmd)))
            except RuleError as exc:
                out.append(f"listed but refused: {cmd} ({exc})")
        for cmd in command_space(state, seat, rng):
            if key(cmd) in listed:
                continue
            in_one = steps_in_one(state, cmd)
            try:
                events = tuple(decide(state, cmd))
            except RuleError:
                if in_one is not None:
                    out.append(f"refused but its steps are offered: {cmd}")
                continue
            if in_one is not None or is_steps_in_one_form(state, cmd):
                if in_one is None:
                    out.append(f"accepted but its steps are not offered: {cmd}")
                elif not same_game(step(state, cmd)[0], in_one):
                    out.append(f"accepted but not as its steps leave the game: {cmd}")
                continue
            # The same move named another way (a Customizable card's rule left out where the
            # hand holds cards of one rule) is offered, under its listed name.
            if events not in outcomes:
                out.append(f"accepted but not listed: {cmd}")
    return out


def is_steps_in_one_form(state: GameState, cmd: Command) -> bool:
    """Whether ``cmd`` is a wheel discard of several cards where the game offers a card at
    a time (Discard Number, Discard Colour), or the two cards an Almost UNO keeps at once."""
    kind, seat = state.pending
    if seat != cmd.seat:
        return False
    if type(cmd) is WheelKeep:
        return len(cmd.cards) == 2 and kind == "almost_uno"
    return type(cmd) is WheelDiscard and len(cmd.cards) > 1 and kind in ONE_BY_ONE


def steps_in_one(state: GameState, cmd: Command) -> GameState | None:
    """The game after the listed steps a wheel discard of several cards stands for (each card
    but the last laid, then the last discarded), or a keep of both cards (each kept in turn);
    None when it is no such command or a step is not offered."""
    if not is_steps_in_one_form(state, cmd):
        return None
    seat = cmd.seat
    if isinstance(cmd, WheelKeep):
        for card in cmd.cards:
            keep = WheelKeep(seat, (card,))
            if state.pending[0] not in ("almost_uno", "almost_uno_second") or keep not in (
                legal_commands(state, seat)
            ):
                return None
            state, _ = step(state, keep)
        return state
    assert isinstance(cmd, WheelDiscard)
    for card in cmd.cards[:-1]:
        lay = WheelLay(seat, card)
        if lay not in legal_commands(state, seat):
            return None
        state, _ = step(state, lay)
    last = WheelDiscard(seat, cmd.cards[-1:], cmd.colour, cmd.uno)
    if last not in legal_commands(state, seat):
        return None
    return step(state, last)[0]


def same_game(a: GameState, b: GameState) -> bool:
    """The same cards in the same places, the same colour in play, the same wait and the same
    cards kept at Almost UNO (in any order: either order is one move)."""
    return (a.hands, a.discard, a.colour, a.pending, a.exposed, kept(a)) == (
        b.hands,
        b.discard,
        b.colour,
        b.pending,
        b.exposed,
        kept(b),
    )


def kept(s: GameState) -> list[str]:
    return sorted(getattr(s.extra, "kept", ()))


def walk(
    variant: str, players: int, seed: str, steps: int, keep_wilds: bool = False, **game: Any
) -> Iterator[GameState]:
    """The states a game passes through when bots play it, as the simulator plays.
    ``keep_wilds``: the bots play a wild card only when they have no other play, so hands
    end on wild cards more often (a Mod and a Wild, the last Wild Draw 4)."""
    state, _ = new_game(variant=variant, players=players, seed=seed, **game)
    edition = get_variant(variant)
    bots = [RandomBot(f"{seed}:{seat}") for seat in range(players)]
    yield state
    for _ in range(steps):
        if state.finished:
            return
        command = None
        if edition.out_of_turn_open(state) and bots[0].rng.random() < 0.3:
            for seat in bots[0].rng.sample(range(players), players):
                options = [
                    c for c in legal_commands(state, seat) if c.type in edition.out_of_turn_types
                ]
                options = bots[seat].usual(options)
                if options and bots[seat].rng.random() < 0.35:
                    command = bots[seat].rng.choice(options)
                    break
        if command is None:
            seat = state.pending[1]
            options = legal_commands(state, seat)
            if keep_wilds:
                coloured = [c for c in options if c.type != "play" or c.colour is None]
                if any(c.type == "play" for c in coloured):
                    options = coloured
            command = bots[seat].choose(options)
        state, _ = step(state, command)
        yield state


def check(variant: str, game: dict[str, Any]) -> None:
    rng = Random(repr(sorted(game.items())))
    problems = []
    turns = 0
    for state in walk(variant, **game):
        kind, seat = state.pending
        if kind in ("turn", "drawn") and len(state.hands[seat]) > ENDGAME:
            turns += 1
            if turns % TURN_EVERY:
                continue
        for problem in disagreements(state, rng):
            problems.append(f"v{state.version} {state.pending}: {problem}")
    assert not problems, "\n".join(problems[:20])


def games(**extra: Any) -> Any:
    return st.fixed_dictionaries(
        {
            "players": st.integers(min_value=2, max_value=10),
            "seed": st.text(alphabet="abcdefgh0123", min_size=1, max_size=6),
            "scoring": st.sampled_from(["standard", "none"]),
            "target": st.sampled_from([60, 500]),
            "steps": st.integers(min_value=100, max_value=600),
            "keep_wilds": st.booleans(),
            **extra,
        }
    )


RULES = [*THOUGHT_STARTERS, "blank", "text:Sing"]
SETTINGS = settings(max_examples=25, derandomize=True, deadline=None)


@SETTINGS
@given(games())
def test_classic_uno_lists_every_command_it_accepts_and_accepts_every_one_it_lists(game):
    check("classic", game)


# A game that reaches (as the engine and bots play now) a Mod played from a hand of a Mod and
# a wild card: the UNO call the legal list once left out.
MOD_AND_A_WILD = {
    "players": 8,
    "seed": "q24",
    "steps": 596,
    "keep_wilds": True,
    "scoring": "standard",
    "target": 500,
}


@SETTINGS
@given(games())
@example(game=MOD_AND_A_WILD)
def test_uno_mod_lists_every_command_it_accepts_and_accepts_every_one_it_lists(game):
    check("mod", game)


@SETTINGS
@given(
    games(
        options=st.fixed_dictionaries(
            {"customizable": st.lists(st.sampled_from(RULES), min_size=0, max_size=3)}
        )
    )
)
def test_uno_veto_lists_every_command_it_accepts_and_accepts_every_one_it_lists(game):
    check("veto", game)


@SETTINGS
@given(games())
def test_uno_spin_lists_every_command_it_accepts_and_accepts_every_one_it_lists(game):
    check("spin", game)


@SETTINGS
@given(games())
def test_uno_power_grab_lists_every_command_it_accepts_and_accepts_every_one_it_lists(game):
    check("power_grab", game)


def test_the_command_space_has_every_field_of_every_command_type():
    """A command type added later with a field of a new kind must say how to try it."""
    state, _ = new_game(variant="classic", players=3, seed="space")
    for cls in COMMAND_TYPES.values():
        for f in fields(cls):
            if f.name != "seat":
                assert f.default is not MISSING or f.default_factory is not MISSING
                field_values(cls, f, state, 0, get_variant("classic").deck, Random(0))
