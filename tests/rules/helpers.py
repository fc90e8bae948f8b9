"""Set up hands card by card for rule tests, through the dealing contract (DESIGN.md)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping

from rules.engine import new_game, step
from rules.events import Event
from rules.state import GameState
from rules.variants import get_variant


def arranged_deck(
    variant: str,
    players: int,
    *,
    dealer: int = 0,
    hands: Mapping[int, Iterable[str]] | None = None,
    starter: str | None = None,
    draws: Iterable[str] = (),
    hand_size: int = 7,
    options: dict | None = None,
) -> list[str]:
    """A complete deck of ``variant`` (top first) that deals ``hands[seat]`` to each seat named
    (other seats and missing cards are filled from the rest of the deck), turns up ``starter``
    and then offers ``draws`` as the first cards drawn. Fillers avoid wild and action cards
    so they do not change what a test is about, as far as the deck allows. ``options`` are
    the game's, where they change the deck."""
    hands = {seat: list(cards) for seat, cards in (hands or {}).items()}
    edition = get_variant(variant)
    remaining = Counter(edition.deck_for(edition.parse_options(dict(options or {}))))

    def take(card: str) -> str:
        if remaining[card] <= 0:
            raise ValueError(f"the {variant} deck has no more {card}")
        remaining[card] -= 1
        return card

    for cards in hands.values():
        for card in cards:
            take(card)
    if starter is not None:
        take(starter)
    draws = [take(c) for c in draws]

    def filler() -> str:
        plain = [c for c in remaining if remaining[c] > 0 and len(c) == 2 and c[1].isdigit()]
        card = (
            sorted(plain, key=lambda c: (c[1], c))[0]
            if plain
            else next(c for c in remaining if remaining[c] > 0)
        )
        return take(card)

    full_hands = {}
    for seat in range(players):
        cards = hands.get(seat, [])
        if len(cards) > hand_size:
            raise ValueError(f"seat {seat} is given {len(cards)} cards; a hand has {hand_size}")
        full_hands[seat] = cards + [filler() for _ in range(hand_size - len(cards))]
    order: list[str] = []
    for i in range(hand_size):
        for k in range(players):
            seat = (dealer + 1 + k) % players
            order.append(full_hands[seat][i])
    order.append(starter if starter is not None else filler())
    order.extend(draws)
    rest = [card for card, n in sorted(remaining.items()) for _ in range(n)]
    order.extend(rest)
    return order


def start(
    variant: str = "classic",
    players: int = 3,
    *,
    dealer: int = 0,
    hands: Mapping[int, Iterable[str]] | None = None,
    starter: str | None = None,
    draws: Iterable[str] = (),
    scoring: str = "standard",
    target: int = 500,
    options: dict | None = None,
) -> tuple[GameState, list[Event]]:
    """A game whose first hand is dealt exactly as described."""
    deck = arranged_deck(
        variant, players, dealer=dealer, hands=hands, starter=starter, draws=draws, options=options
    )
    return new_game(
        variant=variant,
        players=players,
        scoring=scoring,
        target=target,
        seed="test",
        options=options,
        dealer=dealer,
        deck=deck,
    )


def play(state: GameState, *commands) -> tuple[GameState, list[Event]]:
    """Apply commands in order; return the final state and the events of the last one."""
    events: list[Event] = []
    for command in commands:
        state, events = step(state, command)
    return state, events


def types(events: Iterable[Event]) -> list[str]:
    return [e.type for e in events]
