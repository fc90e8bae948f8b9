"""The editions the engine plays, by name (the ``variant`` of a game)."""

from __future__ import annotations

from functools import cache
from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rules.variants.classic.variant import Variant

# name -> class. Every edition is a package of the same three modules: ``variant`` (the rules:
# a ``Variant`` subclass and the decisions of its commands), ``commands`` and ``events`` (its
# state, its events and how they apply). Editions are imported on first use; importing one
# registers its commands, their decisions, its events and how they apply. See
# docs/decisions/0009-editions-plug-in.md.
VARIANT_CLASSES = {
    "classic": "Variant",
    "veto": "Veto",
    "spin": "Spin",
    "power_grab": "PowerGrab",
    "mod": "Mod",
}


@cache
def get_variant(name: str) -> Variant:
    """The edition called ``name``; ``KeyError`` if there is none."""
    cls = VARIANT_CLASSES[name]
    variant: Variant = getattr(import_module(f"rules.variants.{name}.variant"), cls)()
    return variant


def variant_names() -> tuple[str, ...]:
    return tuple(VARIANT_CLASSES)


def load_all() -> None:
    """Import every edition, so all their commands and events are registered."""
    for name in VARIANT_CLASSES:
        get_variant(name)
