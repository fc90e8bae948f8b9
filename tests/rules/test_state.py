"""``GameState.copy`` is written out slot by slot: it must copy every slot there is."""

from rules.engine import new_game
from rules.state import GameState


def test_a_copy_carries_every_slot_of_the_state():
    state, _ = new_game(players=3, seed="copy")
    for number, name in enumerate(GameState.__slots__):
        setattr(state, name, ("a value only this slot has", number))

    copied = state.copy()

    assert copied is not state
    for number, name in enumerate(GameState.__slots__):
        assert getattr(copied, name) == ("a value only this slot has", number), name


def test_a_copy_is_equal_and_changing_it_leaves_the_original_alone():
    state, _ = new_game(players=4, seed="copy")
    copied = state.copy()

    assert copied == state
    copied.version += 1
    assert copied != state and state.version == copied.version - 1
