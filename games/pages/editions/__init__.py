"""What each edition shows at the table, one module per edition: ``classic``, ``mod``, ``veto``,
``spin`` and ``power_grab`` (see ``base.Edition``). The rules (``rules/``) hold no words; the
shared page code (``games.pages.table``, ``narration``, ``faces``, ``forms``) asks
``edition_for(game.variant)``."""

from __future__ import annotations

from games.pages.editions import classic, mod, power_grab, spin, veto
from games.pages.editions.base import Edition, Face

EDITIONS: dict[str, Edition] = {
    module.EDITION.name: module.EDITION for module in (classic, mod, veto, spin, power_grab)
}


def edition_for(variant: str) -> Edition:
    """The edition a game of ``variant`` is shown as (classic UNO's words for an unknown one)."""
    return EDITIONS.get(variant, classic.EDITION)


__all__ = ["EDITIONS", "Edition", "Face", "edition_for"]
