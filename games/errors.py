"""Errors of the game services. Rule errors (``rules.RuleError``: bad input, illegal moves)
pass through the services unchanged, so one exception handler maps them all."""

from rules import IllegalCommand


class GameError(Exception):
    """Base class of the errors the games app raises itself."""


class NotFound(GameError):
    """No such game (or dispute)."""


class Forbidden(GameError):
    """The caller may not do this to this game."""


class Stale(GameError):
    """The game has moved on: the caller's expected version is not the current one."""

    def __init__(self, current_version: int, detail: str = "") -> None:
        super().__init__(detail or f"the game is at version {current_version}")
        self.current_version = current_version


class KeyClash(GameError):
    """The caller sent an idempotency key it had used for another command."""

    def __init__(self, key: str, version: int) -> None:
        super().__init__(
            f"the key {key!r} was already used for another command (the one appended at version "
            f"{version}); send a new key for a new command"
        )
        self.key = key
        self.version = version


class CommandUndone(IllegalCommand):
    """A command sent again with its idempotency key, after a referee undid it: it no longer
    stands, and the key cannot carry a new one (409 ``illegal``)."""

    def __init__(self, key: str, to_version: int, at_version: int) -> None:
        super().__init__(
            f"the command sent with the key {key!r} was undone: the referee took the game back "
            f"to version {to_version} (at version {at_version}); look again and send a new "
            "command with a new key"
        )
