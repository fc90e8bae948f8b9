"""``rules.values.maker``: the quick way of making a frozen value gives the same value."""

from dataclasses import FrozenInstanceError, dataclass, fields

import pytest

from rules.commands import PlayCard
from rules.values import maker
from rules.variants.power_grab.events import PowerGrabState, TowersGrabbed
from rules.variants.spin.commands import WheelDiscard, WheelKeep


@pytest.mark.parametrize(
    ("cls", "values"),
    [
        (WheelDiscard, (2, ("R1", "W"), "G", True)),
        (WheelKeep, (0, ("B7", "B7"))),
        (TowersGrabbed, (3, "R5:U", ("U",), (None,))),
        (PowerGrabState, ((1, None, 1, 0), ("GD2", 1, False))),
        (PlayCard, (1, "W4", "Y", False)),
    ],
)
def test_a_value_made_by_maker_is_the_value_the_class_makes(cls, values):
    made = maker(cls)(*values)
    usual = cls(*values)
    assert type(made) is cls
    assert made == usual and hash(made) == hash(usual) and repr(made) == repr(usual)
    first = fields(cls)[0].name
    with pytest.raises(FrozenInstanceError):
        setattr(made, first, values[0])  # still a frozen value
    if hasattr(made, "to_dict"):
        assert made.to_dict() == usual.to_dict()


def test_maker_sets_a_base_class_field_too():
    # ``seat`` is a field of ``Command``, the base: it is set like the class's own fields.
    assert maker(WheelKeep)(4, ("R1", "R2")).seat == 4


def test_maker_refuses_a_class_of_another_size():
    @dataclass(frozen=True, slots=True)
    class One:
        a: int

    with pytest.raises(TypeError, match="One has 1 fields, not 2 or 4"):
        maker(One)
