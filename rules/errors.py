"""Errors the engine raises. All are ``ValueError`` subclasses, so callers can map them once."""


class RuleError(ValueError):
    """Base class of every error the rules engine raises."""


class InvalidCard(RuleError):
    """A card code or colour letter that is not in the notation (or not in this variant)."""


class InvalidCommand(RuleError):
    """A command that is malformed: a missing or wrongly typed field, an unknown type."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


class IllegalCommand(RuleError):
    """A well-formed command that the rules do not allow now (HTTP 409 ``illegal``)."""
