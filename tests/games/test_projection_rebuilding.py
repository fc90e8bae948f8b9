"""A projector's optional ``rebuilding()`` wraps every apply of a rebuild, so it can buffer."""

from contextlib import contextmanager

import pytest

from games import rebuild


class Buffering:
    def __init__(self, fail_on_apply=False):
        self.log = []
        self.fail_on_apply = fail_on_apply

    def reset(self):
        self.log.append("reset")

    def apply(self, game, rows, state):
        if self.fail_on_apply:
            raise RuntimeError("broken projector")
        self.log.append("apply")

    @contextmanager
    def rebuilding(self):
        self.log.append("enter")
        try:
            yield
            self.log.append("write")
        finally:
            self.log.append("leave")


def test_a_rebuild_enters_rebuilding_after_reset_and_leaves_after_the_last_apply(make_game, play):
    play(make_game(scoring="none", seed="quick"), commands=5)
    projector = Buffering()

    rebuild.rebuild([projector])

    assert projector.log[:2] == ["reset", "enter"]
    assert projector.log[-2:] == ["write", "leave"]
    assert set(projector.log[2:-2]) == {"apply"}


def test_a_failing_rebuild_leaves_rebuilding_without_writing(make_game, play):
    play(make_game(scoring="none", seed="quick"), commands=2)
    projector = Buffering(fail_on_apply=True)

    with pytest.raises(RuntimeError):
        rebuild.rebuild([projector])

    assert projector.log == ["reset", "enter", "leave"]
