"""Score sheets: hands played with physical cards, recorded by the referee.

A score-sheet game deals nothing. For each hand the referee records who went out and, for
every other seat, either the cards left in the hand (card notation, checked against the
edition's deck) or their points. The record is an event like any other and is scored by the
game's scoring mode; a wrong record is undone, never edited.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import ClassVar

from rules.commands import MAX_HAND_POINTS as MAX_HAND_POINTS  # the sheet's limit, re-exported
from rules.commands import Command, register_command
from rules.engine import Decision, applies, end_hand, handles
from rules.errors import IllegalCommand, InvalidCommand
from rules.events import Event, register_event
from rules.pending import Pending
from rules.state import GameState


@register_command
@dataclass(frozen=True, slots=True)
class RecordHand(Command):
    """Record a hand: ``out`` went out; ``remaining`` maps seats to the cards they were left
    with, ``points`` maps seats to their points (each other seat in exactly one of them)."""

    type: ClassVar[str] = "record_hand"
    out: int = field(default=-1, metadata={"kind": "seat", "optional": False})
    remaining: tuple[tuple[int, tuple[str, ...]], ...] = field(
        default=(), metadata={"kind": "seat_cards", "optional": True}
    )
    points: tuple[tuple[int, int], ...] = field(
        default=(), metadata={"kind": "seat_points", "optional": True}
    )


@register_event
@dataclass(frozen=True, slots=True)
class HandRecorded(Event):
    """A hand from the score sheet: who went out, each seat's cards (``None`` where only the
    points were recorded) and the points each seat was left holding."""

    type: ClassVar[str] = "hand_recorded"
    hand: int
    out: int
    remaining: tuple[tuple[str, ...] | None, ...]
    held: tuple[int, ...]


@applies(HandRecorded)
def _hand_recorded(s: GameState, e: HandRecorded) -> None:
    s.hand_number = e.hand


@handles(RecordHand)
def record_hand(d: Decision, cmd: RecordHand) -> None:
    s = d.s
    if cmd.seat is not None:
        # The score sheet is the referee's: a seat does not write its own result.
        raise IllegalCommand("only the referee records a hand on the score sheet")
    if s.pending[0] != Pending.SHEET:
        raise IllegalCommand("hands are recorded only on a score sheet that is still open")
    n = s.players
    if not 0 <= cmd.out < n:
        raise InvalidCommand(f"out: no seat {cmd.out} at this table", field="out")
    cards = dict(cmd.remaining)
    points = dict(cmd.points)
    for name, seats in (("remaining", cards), ("points", points)):
        for seat in seats:
            if not 0 <= seat < n:
                raise InvalidCommand(
                    f"{name}: no seat {seat} at this table", field=f"{name}.{seat}"
                )
    if cards.get(cmd.out) or points.get(cmd.out):
        raise InvalidCommand(f"seat {cmd.out} went out and holds nothing", field="out")
    variant = d.variant
    counted: Counter[str] = Counter()
    for seat, hand in cards.items():
        for code in hand:
            if not variant.has_card(code):
                raise InvalidCommand(
                    f"remaining.{seat}: {code} is not a card of {variant.title}",
                    field=f"remaining.{seat}",
                )
        counted.update(hand)
    deck = Counter(variant.deck_for(d.s.options))  # the game's deck (VETO: its Customizable cards)
    for code, count in sorted(counted.items()):
        if count > deck[code]:
            raise InvalidCommand(
                f"remaining: {count} copies of {code}, but a {variant.title} deck has {deck[code]}",
                field="remaining",
            )
    held = []
    remaining: list[tuple[str, ...] | None] = []
    for seat in range(n):
        if seat == cmd.out:
            held.append(0)
            remaining.append(())
        elif seat in cards and seat in points:
            raise InvalidCommand(
                f"seat {seat} is given both cards and points", field=f"points.{seat}"
            )
        elif seat in cards:
            remaining.append(cards[seat])
            held.append(sum(variant.points(c) for c in cards[seat]))
        elif seat in points:
            remaining.append(None)
            held.append(points[seat])
        else:
            raise InvalidCommand(
                f"seat {seat}: give the cards left in the hand or the points",
                field=f"remaining.{seat}",
            )
    _within_deck(variant.title, sum(variant.points(c) for c in deck.elements()), held)
    d.emit(HandRecorded(s.hand_number + 1, cmd.out, tuple(remaining), tuple(held)))
    end_hand(d, cmd.out, tuple(held))


def _within_deck(title: str, worth: int, held: list[int]) -> None:
    """The other players together hold at most the whole deck: points beyond what the game's
    deck is worth are refused (a typo such as 99999 would otherwise decide a season)."""
    for seat, points in enumerate(held):
        if points > worth:
            raise InvalidCommand(
                f"points.{seat}: {points} points is more than a whole {title} deck is worth "
                f"({worth} points)",
                field=f"points.{seat}",
            )
    if sum(held) > worth:
        raise InvalidCommand(
            f"points: the hands add up to {sum(held)} points, more than a whole {title} deck "
            f"is worth ({worth} points)",
            field="points",
        )
