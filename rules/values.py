"""Commands, events and edition states are frozen, slotted dataclasses: values, never changed.

Made the usual way (``WheelDiscard(seat, cards, colour, uno)``), such a value sets each field
through ``object.__setattr__``, as a frozen dataclass must; that is about twice the time of
setting the slots directly. The few values an edition makes many times a hand (the ways of a
Discard Colour, a tower grab, the state after one) are made with ``maker``: the same value,
equal to and indistinguishable from one made by the class.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from typing import Any


def slot_setters(cls: type) -> tuple[Callable[[Any, Any], None], ...]:
    """The ``__set__`` of each field's slot of the frozen, slotted dataclass ``cls``, in field
    order (a field of a base class, such as a command's ``seat``, included)."""
    return tuple(getattr(cls, f.name).__set__ for f in fields(cls))


def maker[T](cls: type[T]) -> Callable[..., T]:
    """A function making ``cls(*values)`` from every field's value, in field order (no
    defaults, no keywords), by setting the slots directly. For two or four fields, the sizes
    of the hot values; each is written out, as a loop over the fields costs what setting the
    slots directly saves."""
    new = object.__new__
    setters = slot_setters(cls)
    if len(setters) == 2:
        a, b = setters

        def make2(va: Any, vb: Any) -> T:
            value: T = new(cls)
            a(value, va)
            b(value, vb)
            return value

        return make2
    if len(setters) == 4:
        a, b, c, d = setters

        def make4(va: Any, vb: Any, vc: Any, vd: Any) -> T:
            value: T = new(cls)
            a(value, va)
            b(value, vb)
            c(value, vc)
            d(value, vd)
            return value

        return make4
    raise TypeError(f"maker: {cls.__name__} has {len(setters)} fields, not 2 or 4")
