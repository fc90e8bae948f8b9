"""Errors of the game services. Rule errors (``rules.RuleError``: bad input, illegal moves)
pass through the services unchanged, so one exception handler maps them all."""


class GameError(Exception):
    """Base class of the errors the games app raises itself."""


class NotFound(GameError):
    """No such game (or dispute)."""


class Forbidden(GameError):
    """The caller may not do this to this game."""


class Stale(GameError):
    """The game has moved on: the caller's expected version is not the current one."""

    def __init__(self, current_version: int) -> None:
        super().__init__(f"the game is at version {current_version}")
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
