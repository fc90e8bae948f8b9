"""The league pages' forms: the score sheet's next hand, and undoing the last one.

A form checks what can be checked without the game (a seat chosen, points that are whole
numbers, the page's own key) and hands the rest to the engine, whose errors it then places next
to the field they name (``HandForm.add_engine_error``).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError

from rules import InvalidCommand
from tournaments.templatetags.league_pages import ordinal

KEY_LENGTH = 200  # an idempotency key's most characters (games.models.Event.key)
TAMPERED = "This form was changed on its way: reload the page and record the hand again."


class WholeNumberOrNothingField(forms.Field):
    """A number the page wrote into the form itself (a version, a hand's number): anything
    else reads as no number, as a form that was not the page's own says nothing."""

    def to_python(self, value: Any) -> int | None:
        try:
            return int(value)
        except (TypeError, ValueError):
            return None


class PointsField(forms.CharField):
    """A seat's points: a whole number, or nothing typed."""

    def to_python(self, value: Any) -> int | None:
        text = super().to_python(value)
        if text in self.empty_values:
            return None
        try:
            return int(text)
        except ValueError:
            raise ValidationError("Points are a whole number.", code="invalid") from None


class HandForm(forms.Form):
    """One hand of a score sheet with ``seats`` seats: who went out (``out``), and for each
    seat the cards left in its hand (``cards-N``: codes separated by spaces or commas,
    upper-cased, so ``r7 w4`` is ``R7 W4``) or its points (``points-N``). A seat given both, or
    neither, is passed on as it is: the engine refuses it and names the field."""

    out = forms.CharField(
        strip=False, error_messages={"required": "Choose the player who went out."}
    )
    # The page's own idempotency key and the sheet's version when the form was shown. A key
    # that is not the page's is a form error of its own (below), not a field's.
    key = forms.Field(required=False)
    version = WholeNumberOrNothingField(required=False)

    def __init__(self, *args: Any, seats: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seats = seats
        for seat in range(seats):
            self.fields[f"cards-{seat}"] = forms.CharField(required=False, strip=False)
            self.fields[f"points-{seat}"] = PointsField(required=False)

    def clean_out(self) -> int:
        raw = self.cleaned_data["out"]
        try:
            return int(raw)
        except ValueError:
            raise ValidationError(f"{raw!r} is not a seat.", code="invalid") from None

    def clean_key(self) -> str | None:
        return self.cleaned_data.get("key") or None

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        key = cleaned.get("key")
        if key is not None and ("\x00" in key or len(key) > KEY_LENGTH):
            self.add_error(None, TAMPERED)
        return cleaned

    def command(self) -> dict[str, Any]:
        """The hand as ``services.record_hand`` arguments (``out``, ``remaining``,
        ``points``), once the form is valid."""
        remaining: dict[str, list[str]] = {}
        points: dict[str, int] = {}
        for seat in range(self.seats):
            cards = self.cleaned_data.get(f"cards-{seat}", "").replace(",", " ").upper().split()
            if cards:
                remaining[str(seat)] = cards
            value = self.cleaned_data.get(f"points-{seat}")
            if value is not None:
                points[str(seat)] = value
        return {
            "out": self.cleaned_data["out"],
            "remaining": remaining or None,
            "points": points or None,
        }

    # The engine names a field as ``out``, ``remaining.2`` or ``points.2``; the form's own
    # names for them are ``out``, ``cards-2`` and ``points-2``.
    def field_for(self, engine_field: str | None) -> str | None:
        """The form field the engine's ``engine_field`` is, or None (the whole form)."""
        kind, _, seat = (engine_field or "").partition(".")
        name = {"out": "out", "remaining": "cards", "points": "points"}.get(kind)
        if name == "out" and not seat:
            return "out"
        if name and seat.isdigit() and int(seat) < self.seats:
            return f"{name}-{seat}"
        return None

    def add_engine_error(self, exc: InvalidCommand) -> None:
        """The engine refused the hand: its message next to the field it names, or at the top
        of the form when it names no field of this form."""
        field = self.field_for(exc.field)
        if field is None:
            self.add_error(None, str(exc))
        else:
            self.add_error(field, field_message(str(exc), exc.field or ""))

    def first_errors(self) -> dict[str, str]:
        """Each field's first error by the field's name (``__all__``: the whole form's)."""
        return {name: str(errors[0]) for name, errors in self.errors.items()}


def field_message(message: str, field: str) -> str:
    """The engine's message without the field path it starts with, which the form shows by
    placing it next to the field: ``"remaining.1[1]: unknown card code 'X9'"`` reads
    ``"Unknown card code 'X9' (the 2nd card)"``."""
    path, separator, rest = message.partition(": ")
    if not separator:
        return message
    index = path.removeprefix(field)
    if path.startswith(field) and index.startswith("[") and index.endswith("]"):
        number = index[1:-1]
        if not number.isdigit():
            return message
        rest += f" (the {ordinal(int(number) + 1)} card)"
    elif path != field and not (path.startswith("seat ") and path[5:].isdigit()):
        return message
    return rest[:1].upper() + rest[1:]


class UndoHandForm(forms.Form):
    """Undo the last hand: the form names the hand it means (``hand``), so a second click,
    or a click after someone else's undo, undoes nothing."""

    hand = WholeNumberOrNothingField(required=False)
