"""Hidden information stays hidden in every edition: a walk through simulated games.

After every command, each seat's view of the events that command caused (``event_view``) and of
the game (``game_view``) is checked against the truth: no card code may appear that, at that
moment, only other seats' hidden hands or the draw pile hold and the seat has not seen this hand
(held, or seen face up on the discard pile or in a shown hand). What the rulebooks show to one
seat is allowed to that seat only: the hand a challenged player shows the challenger (and knows
itself), and the cards a Mod gives away (to the giver and to the seat receiving each card); and
cards turned face up for everyone before going back into the deck (the dealer draw, a Wild
Draw 4 turned up to start). Which house rule each VETO Customizable card in a hand carries is
hidden too, but its words are known to all (the game's options): test_veto_customizable.py
checks those events seat by seat.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from rules.events import Event
from rules.simulate import Simulation
from rules.state import GameState
from rules.variants import get_variant, variant_names
from rules.views import event_view, game_view

TOKEN = re.compile(r"[A-Za-z0-9~:!]+")  # card codes are whole words
# A VETO game whose Customizable cards carry different house rules, so they are told apart.
OPTIONS = {"veto": {"customizable": ["joke", "face_up", "extra_turn"]}}


def words(value: Any) -> set[str]:
    if isinstance(value, str):
        return set(TOKEN.findall(value))
    if isinstance(value, dict):
        return set().union(*map(words, value.values())) if value else set()
    if isinstance(value, list | tuple):
        return set().union(*map(words, value)) if value else set()
    return set()


def shown_to(event: Event, viewer: int) -> set[str]:
    """Cards this event shows ``viewer`` (alone, or with the table), as its rulebook says."""
    data = event.to_dict()
    if data["type"] == "starter_returned":  # a Wild Draw 4 turned up to start, put back
        return {data["card"]}
    if data["type"] == "dealer_chosen":  # the dealer draw, face up, then shuffled back
        return {card for draws in data["draws"] for card in draws if card}
    if data["type"] == "challenge_resolved" and viewer in (data["challenger"], data["offender"]):
        return set(data["hand"] or ()) | set(data["evidence"] or ())
    if data["type"] == "cards_given":
        return {card for to, card in data["gifts"] if viewer in (to, data["seat"])}
    return set()


class Walk(Simulation):
    """The simulator, checking every seat's views after every command."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.batch: list[Event] = []
        self.seen: list[set[str]] = [set() for _ in range(self.players)]
        self.deck = set(get_variant(self.variant.name).deck)
        self.checked = 0
        self.hand = 0

    def _record(self, events: list[Event]) -> None:
        super()._record(events)
        self.batch = events

    def check_state(self, s: GameState, where: str) -> None:
        super().check_state(s, where)
        if s.hand_number != self.hand:  # a new deal: what was seen no longer says where it is
            self.hand = s.hand_number
            self.seen = [set() for _ in range(s.players)]
        for viewer in range(s.players):
            visible = set(s.discard) | set(s.hands[viewer])
            hidden = set(s.draw_pile)
            for seat, hand in enumerate(s.hands):
                (visible if seat == viewer or seat in s.shown else hidden).update(hand)
            secret = (hidden - visible - self.seen[viewer]) & self.deck
            if s.finished:
                secret = set()  # a finished game shows everything
            for event in self.batch:
                view = event_view(event, viewer, finished=s.finished)
                leaked = (words(view) & secret) - shown_to(event, viewer)
                assert not leaked, f"{where}: seat {viewer} sees {sorted(leaked)} in {view}"
                self.seen[viewer] |= shown_to(event, viewer)
            table = game_view(s, viewer)
            table.pop("last_hand")  # the hands shown at the end of the last hand, scored
            leaked = words(table) & secret
            assert not leaked, f"{where}: seat {viewer} sees {sorted(leaked)} at the table"
            self.seen[viewer] |= visible
            self.checked += len(secret)


@pytest.mark.parametrize("variant", variant_names())
@pytest.mark.parametrize("players", [2, 3, 5])
def test_no_seat_sees_a_card_hidden_from_it_in_any_event_or_at_the_table(variant, players):
    walk = Walk(variant, players, f"hidden:{variant}:{players}", options=OPTIONS.get(variant))
    walk.play(target=300, scoring="standard", game_seed=f"hidden:{players}", max_hands=8)
    assert walk.report.invariant_violations == 0, walk.report.problems
    assert walk.checked > 5_000  # enough hidden cards were looked for to mean something
