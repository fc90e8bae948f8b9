"""A test-only chance source (rules.chance.Fixed): a test fixes the next shuffle or wheel
segment, passed to ``step``; the outcome is recorded in the event, so replay is unchanged, and
without it chance comes from the seed as always."""

import pytest

from rules.chance import Fixed
from rules.commands import DealHand, DrawCard
from rules.engine import replay, step
from rules.events import HandDealt
from rules.position import start_from
from rules.variants import get_variant
from rules.variants.spin.commands import SpinWheel
from rules.variants.spin.events import WheelSpun
from rules.variants.spin.variant import WHEEL

from .positions import arranged

SPIN_TO_DECIDE = (
    "spin|players=3|hand=1|dealer=0|pending=spin:1|dir=-|colour=R|discard=R6,RV,W,R5~|pile=*"
    "|hands=R0,GD2,Y2~,Y1,G6,Y5/Y7,R3,W4,Y1~,Y8,GS/B4~,G6,Y3~,B4,B5,G2~,G3~"
)


@pytest.mark.parametrize("segment", ["war", "trade_hands", "draw_blue"])
def test_a_test_can_fix_where_the_wheel_stops(segment):
    state, events = start_from(SPIN_TO_DECIDE, seed="s")

    after, spun = step(state, SpinWheel(1), chance=Fixed(wheel=[segment]))

    assert spun[0] == WheelSpun(1, segment)
    assert replay(events + spun) == after


def test_without_a_fixed_segment_the_wheel_spins_from_the_seed():
    state, _ = start_from(SPIN_TO_DECIDE, seed="s")

    _, seeded = step(state, SpinWheel(1))
    _, emptied = step(state, SpinWheel(1), chance=Fixed())

    assert seeded == emptied
    assert seeded[0].segment in WHEEL


def test_a_test_can_fix_the_next_deal():
    deck = list(reversed(get_variant("classic").deck))
    between_hands = arranged(hands={}, discard=["R9"], pile=[], pending="deal:1", rest_to=1)

    _, events = step(between_hands, DealHand(1), chance=Fixed(shuffles=[deck]))

    assert events[0] == HandDealt(2, 1, 3, tuple(deck))


def test_a_fixed_shuffle_must_hold_the_cards_being_shuffled():
    state = arranged(hands={1: ["Y1"], 2: ["Y2"]}, discard=["B2", "B3", "R9"], pile=[])

    with pytest.raises(ValueError, match="must order the 2 cards"):
        step(state, DrawCard(1), chance=Fixed(shuffles=[["B2"]]))
