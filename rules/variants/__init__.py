"""The editions the engine plays, by name (the ``variant`` of a game)."""

from __future__ import annotations

from functools import cache
from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rules.variants.classic import Variant

# name -> module:class. Editions are imported on first use; each module registers its own
# commands, events and how they apply.
VARIANT_CLASSES = {
    "classic": "rules.variants.classic:Variant",
    "veto": "rules.variants.veto:Veto",
    "spin": "rules.variants.spin:Spin",
    "power_grab": "rules.variants.power_grab:PowerGrab",
    "mod": "rules.variants.mod:Mod",
}


@cache
def get_variant(name: str) -> Variant:
    """The edition called ``name``; ``KeyError`` if there is none."""
    module, _, cls = VARIANT_CLASSES[name].partition(":")
    variant: Variant = getattr(import_module(module), cls)()
    return variant


def variant_names() -> tuple[str, ...]:
    return tuple(VARIANT_CLASSES)


def load_all() -> None:
    """Import every edition, so all their commands and events are registered."""
    for name in VARIANT_CLASSES:
        get_variant(name)
