"""Every edition's card effects are reached.

The engine passes a played card straight on to the next turn, without calling the edition's
``effect``, when the card is one the edition leaves to classic UNO (``Variant.plain_cards``,
made from its ``effect_cards``). A card an edition gives an effect but leaves out of
``effect_cards`` would silently lose it. Here every play of such a card that random games reach
is decided both ways, passed over and through the edition's ``effect``, and must cause the same
events; a card list left too narrow on purpose is caught.
"""

from __future__ import annotations

import pytest

from rules.bots import RandomBot
from rules.commands import PlayCard
from rules.engine import decide, legal_commands, new_game, step
from rules.variants import get_variant, variant_names
from rules.variants.classic.variant import Variant
from rules.variants.power_grab.variant import ICON


def passed_over(name: str, variant: Variant, plain: frozenset[str], monkeypatch) -> tuple:
    """Random games of ``name`` with ``plain`` as the cards the engine passes over: the cards
    passed over that were checked, and the plays whose effect was lost."""
    checked: set[str] = set()
    lost = []
    for players in (2, 3, 5):
        state, _ = new_game(variant=name, players=players, seed=f"effects:{players}")
        bots = [RandomBot(f"{name}:{players}:{seat}") for seat in range(players)]
        for _ in range(1200):
            seat = state.pending[1]
            if state.finished or seat < 0:
                break
            cmd = bots[seat].choose(legal_commands(state, seat))
            if isinstance(cmd, PlayCard) and cmd.card in plain and len(state.hands[seat]) > 1:
                monkeypatch.setattr(variant, "plain_cards", plain)
                fast = decide(state, cmd)
                monkeypatch.setattr(variant, "plain_cards", frozenset())  # every card's effect
                by_effect = decide(state, cmd)
                checked.add(cmd.card)
                if fast != by_effect:
                    lost.append(cmd)
            monkeypatch.setattr(variant, "plain_cards", plain)
            state, _ = step(state, cmd)
    return checked, lost


@pytest.mark.parametrize("name", variant_names())
def test_a_card_the_engine_passes_over_has_no_effect_of_the_edition(name, monkeypatch):
    variant = get_variant(name)
    checked, lost = passed_over(name, variant, variant.plain_cards, monkeypatch)
    assert not lost, f"{name}: the edition's effect of {lost[:3]} is skipped"
    if variant.plain_cards:
        assert checked  # the games did play cards that are passed over


def test_a_card_left_out_of_an_editions_effect_cards_is_caught(monkeypatch):
    """Power Grab without its Power Icons in ``effect_cards``: playing one would grab nothing."""
    variant = get_variant("power_grab")
    too_narrow = variant.plain_cards | frozenset(ICON)
    _, lost = passed_over("power_grab", variant, too_narrow, monkeypatch)
    assert lost and all(cmd.card in ICON for cmd in lost)
