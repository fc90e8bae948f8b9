"""The game pages' forms: a table button's command, a dispute, a ruling, an undo, a quick game,
and the query strings the pages step and poll with.

Each form parses and checks what a browser sent, so that what reaches a service is typed and
something a database can store; whether it is allowed is the services' and the engine's call.
Errors name the field, as the API's do.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any
from uuid import UUID

from django import forms
from django.contrib.auth.forms import AuthenticationForm, PasswordChangeForm

from games import bots, services
from games.models import KEY_LENGTH, Dispute
from games.pages.editions import EDITIONS, edition_for
from games.pages.editions.base import text_field
from games.pages.editions.words import Namer, said_plainly
from games.serializers import CLAIM_LENGTH, NOTE_LENGTH, REASON_LENGTH
from games.throttles import FailedSignIns, WrongOldPasswords
from rules import RuleError, command_from_dict, legal_commands
from rules.cards import card_info
from rules.errors import InvalidCard
from rules.variants import get_variant, variant_names

MAX_FORM_INT = 2**31 - 1  # versions and seats are 32-bit columns or less
UNO_COMMANDS = frozenset({"play", "keep", "keep_card", "wheel_discard"})  # may say UNO
NO_COMMAND = "That button named no command."
NOTHING_TICKED = "Tick the cards to discard first, then press “Discard the ticked cards”."


def whole_number(name: str, *, required: bool = True) -> forms.IntegerField:
    """A version or event number: a whole number within the columns such numbers are stored
    in (which one the game has is the services' to say). ``name`` is what a person calls the
    field ("The event to go back to"), as the messages say it."""
    return forms.IntegerField(
        required=required,
        min_value=0,
        max_value=MAX_FORM_INT,
        error_messages={
            "required": f"{name} must be a whole number",
            "invalid": f"{name} must be a whole number",
            "min_value": f"{name} must be at least %(limit_value)s",
            "max_value": f"{name} must be at most %(limit_value)s",
        },
    )


class PageVersionField(forms.Field):
    """The version a page was showing (a hidden field, ``?v=``): a whole number, or None.
    Anything else, or a number past the columns versions are compared with, means nothing:
    None too, as if the page had sent no version."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(required=False, **kwargs)

    def to_python(self, value: Any) -> int | None:
        if value in (None, ""):
            return None
        try:
            number = int(value)
        except (TypeError, ValueError):
            return None
        return number if abs(number) <= MAX_FORM_INT else None


def forget_other_editions(form: forms.Form, variant: str) -> None:
    """Only the chosen edition's fields count: drop the errors of the other editions' fields
    (named with their edition's prefix, "veto_cards"), which a page sends all of."""
    for name in EDITIONS:
        if name != variant:
            for key in [k for k in form.errors if k.startswith(f"{name}_")]:
                del form.errors[key]


def error_text(form: forms.Form) -> str:
    """A form's errors as one line for the page's alert."""
    return " ".join(str(message) for errors in form.errors.values() for message in errors)


# The table ------------------------------------------------------------------------------------


class CommandForm(forms.Form):
    """A button of the table page, pressed by ``seat``: the command its JSON value names (for
    a wheel discard with the ticked cards, the one chosen for the top and a wild's colour), or
    ``pick``, a card with several ways to be played (the page asks which).

    "Say UNO" is one checkbox beside every button: it is added to a command that may carry it
    when the legal list has it that way, so ticking it never makes a play illegal. Cleaned,
    ``command`` is the ``rules.Command`` to send, or None for a ``pick``.
    """

    command = forms.CharField(
        required=False, strip=False, error_messages={"null_characters_not_allowed": NO_COMMAND}
    )
    pick = forms.CharField(required=False)
    cards = forms.Field(required=False, widget=forms.MultipleHiddenInput)
    top = forms.CharField(required=False, strip=False)
    colour = forms.CharField(required=False, strip=False)
    say_uno = forms.BooleanField(required=False)
    version = PageVersionField()

    def __init__(self, data: Any, *, game_id: UUID, seat: int) -> None:
        super().__init__(data)
        self.game_id = game_id
        self.seat = seat

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if self.errors:
            return cleaned
        cleaned["pick"] = cleaned.get("pick") or None
        if cleaned["pick"] is not None:
            cleaned["command"] = None
            return cleaned
        data = self._named_command(cleaned)
        if cleaned["say_uno"]:
            data = self._saying_uno(data)
        try:
            cleaned["command"] = command_from_dict(self.seat, data)
        except RuleError as exc:
            raise forms.ValidationError(str(exc)) from None
        return cleaned

    def _named_command(self, cleaned: dict[str, Any]) -> dict[str, Any]:
        """The command the button's JSON value names, with a wheel discard's cards."""
        try:
            data = json.loads(cleaned["command"])
        except (ValueError, RecursionError):  # RecursionError: arrays nested thousands deep
            raise forms.ValidationError(NO_COMMAND) from None
        if not isinstance(data, dict):
            raise forms.ValidationError(NO_COMMAND)
        if data.get("type") != "wheel_discard" or "cards" in data:
            return data  # (a discard's own button names its cards; the tick box form does not)
        cards = list(cleaned["cards"] or [])
        if not cards:
            raise forms.ValidationError(NOTHING_TICKED)
        top = cleaned["top"]
        if top in cards:
            cards.remove(top)
            cards.append(top)  # the last card discarded lands on top
        discard: dict[str, Any] = {"type": "wheel_discard", "cards": cards}
        # The colour box is "if a wild lands on top": chosen in case, it goes with the discard
        # only when the card on top is a wild (an unknown card is left for the rules to name).
        if cleaned["colour"] and not _coloured(cards[-1]):
            discard["colour"] = cleaned["colour"]
        return discard

    def _saying_uno(self, data: dict[str, Any]) -> dict[str, Any]:
        kind = data.get("type")
        if not isinstance(kind, str) or kind not in UNO_COMMANDS or data.get("uno"):
            return data
        state = services.load_game(game_id=self.game_id)
        with_uno = {**data, "uno": True}
        if kind == "wheel_discard":
            cards = data.get("cards")
            if not isinstance(cards, list):
                return data  # (the rules refuse it, naming the cards)
            # Any order of the cards under the top one is accepted: count what is left.
            left = len(state.hands[self.seat]) - len(cards)
            return with_uno if left == 1 else data
        legal = [c.to_dict() for c in legal_commands(state, self.seat)]
        return with_uno if with_uno in legal else data


def _coloured(code: Any) -> bool:
    """Whether ``code`` is a card of a colour (not a wild); False for anything not a card."""
    try:
        return card_info(code).colour is not None
    except (InvalidCard, TypeError):
        return False


class TableQuery(forms.Form):
    """The table page's query: ``?pick=`` a card's ways to be played, ``?dispute=`` the event
    the dispute form points at, ``?dispute_hand=`` the hand whose every moment it offers."""

    pick = forms.CharField(required=False)
    dispute = PageVersionField()
    dispute_hand = PageVersionField()


class PollQuery(forms.Form):
    """The poll's query: the version the page shows, ``revealed=0`` when it showed a
    finished game held back, and the hand the dispute form offers every moment of."""

    v = PageVersionField()
    revealed = forms.CharField(required=False)
    dispute_hand = PageVersionField()


# Disputes and the replay viewer ---------------------------------------------------------------


class DisputeForm(forms.Form):
    """A dispute about an event of the log (a seat's, from the table page)."""

    version = whole_number("The version the page shows")
    claim = text_field("The claim", CLAIM_LENGTH, empty_message="say what the dispute claims")


# A form that undoes says which moment of the game its page showed, so that it never takes
# back a move made after the page was shown; one without it is from a page older than that.
NO_VERSION_SHOWN = (
    "This form did not say how far the game had gone when it was shown, so nothing was "
    "undone: reload the page, look at the game as it stands now and undo again."
)
ALTERED_FORM = "This form was changed on its way: reload the page and undo again."


def _shown(version: int | None) -> bool:
    """Whether a form that undoes named a version of the game it was shown at."""
    return version is not None and version >= 0


def undo_key_field() -> forms.CharField:
    """The idempotency key a page gives each form that undoes (a fresh one each time it is
    shown): the same form sent twice undoes once."""
    return forms.CharField(
        required=False,
        max_length=KEY_LENGTH,
        error_messages={"max_length": ALTERED_FORM, "null_characters_not_allowed": ALTERED_FORM},
    )


class RulingForm(forms.Form):
    """A referee's ruling on a dispute: upheld (going back to ``undo_to`` if given) or
    rejected, with a note. ``reopen``: the form said the game is over, so that an undo reopens
    it (the ruling is the reason the log keeps). ``version`` is the game's version the page
    showed: a ruling that undoes takes back no move made after it."""

    decision = forms.ChoiceField(
        choices=[(s.value, s.label) for s in (Dispute.Status.UPHELD, Dispute.Status.REJECTED)],
        error_messages={
            "required": "Choose the ruling: upheld or rejected.",
            "invalid_choice": "Choose the ruling: upheld or rejected.",
        },
    )
    note = text_field("The note", NOTE_LENGTH, required=False)
    undo_to = whole_number("The event to go back to", required=False)
    reopen = forms.BooleanField(required=False)
    version = PageVersionField()

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        if cleaned.get("undo_to") is not None and cleaned.get("decision") == "rejected":
            self.add_error(
                "undo_to", "A dispute rejected undoes nothing: choose upheld, or no undo."
            )
        elif cleaned.get("undo_to") is not None and not _shown(cleaned.get("version")):
            self.add_error("version", NO_VERSION_SHOWN)
        return cleaned


class UndoForm(forms.Form):
    """A referee's undo back to ``to_version``, with a reason; ``reopen`` a finished game (its
    reason is then required: the log keeps it for every player to read). ``version`` is the
    game's version the page showed and ``key`` the form's own: sent twice, or after the game
    moved on, it undoes nothing more than the page showed."""

    DEFAULT_REASON = "undone by the referee"

    to_version = whole_number("The event to go back to")
    reason = text_field("The reason", REASON_LENGTH, required=False)
    reopen = forms.BooleanField(required=False)
    version = PageVersionField()
    key = undo_key_field()

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if "reason" in cleaned:
            reason = cleaned["reason"].strip()
            if cleaned.get("reopen") and not reason:
                self.add_error("reason", "say why the finished game is reopened")
            cleaned["reason"] = reason or self.DEFAULT_REASON
        if "version" in cleaned and not _shown(cleaned["version"]):
            self.add_error("version", NO_VERSION_SHOWN)
        if "key" in cleaned:
            cleaned["key"] = cleaned["key"] or None
        return cleaned


class ReplayQuery(forms.Form):
    """The replay viewer's step: ``?v=`` the version to show (the last when none); ``rule``
    the dispute whose ruling form comes with an undo to that moment chosen (the link under
    the replay's undo)."""

    v = PageVersionField()
    rule = PageVersionField()


# Quick games ----------------------------------------------------------------------------------


def edition_field() -> forms.ChoiceField:
    """The edition a game is played in, chosen by its title (classic UNO unless changed)."""
    return forms.ChoiceField(
        label="Edition",
        choices=[(name, get_variant(name).title) for name in variant_names()],
        initial="classic",
        error_messages={"invalid_choice": "Choose an edition from the list."},
    )


class EditionOptionFields(forms.Form):
    """A form with an edition (``variant``) and each edition's options (``games.pages.editions``)
    as fields named ``<edition>_<option>``: only the chosen edition's are read, and cleaned
    they are the options as the rules take them (checked by the edition's ``parse_options``,
    errors in players' words on the field). Call ``add_option_fields`` from ``__init__`` and
    ``clean_options`` from ``clean``."""

    def add_option_fields(self) -> None:
        self._option_names: list[tuple[str, list[str]]] = []
        for name, edition in EDITIONS.items():
            names = []
            for key, field in edition.option_fields().items():
                field.edition_option = True  # (a page shows these apart, by edition)
                self.fields[f"{name}_{key}"] = field
                names.append(f"{name}_{key}")
            if names:
                self._option_names.append((name, names))

    @property
    def option_groups(self) -> list[tuple[str, str, list[forms.BoundField]]]:
        """Each edition's option fields, with the edition's name and title, for the page."""
        return [
            (name, get_variant(name).title, [self[n] for n in names])
            for name, names in self._option_names
        ]

    def clean_options(self, cleaned: dict[str, Any]) -> dict[str, Any] | None:
        """The chosen edition's options (None: its defaults, or the form has errors there)."""
        variant = cleaned.get("variant")
        if not variant:
            return None
        forget_other_editions(self, variant)
        edition = edition_for(variant)
        keys = list(edition.option_fields())
        if any(f"{variant}_{key}" in self.errors for key in keys):
            return None
        options, errors = edition.options_from({k: cleaned.get(f"{variant}_{k}") for k in keys})
        for key, message in errors.items():
            self.add_error(f"{variant}_{key}", message)
        if errors:
            return None
        try:
            get_variant(variant).parse_options(options)
        except RuleError as exc:
            field = edition.option_error_field(str(getattr(exc, "field", "") or ""))
            detail = str(exc).split(": ", 1)[-1] if str(exc).startswith("options") else str(exc)
            self.add_error(f"{variant}_{field}" if field else None, detail[:1].upper() + detail[1:])
            return None
        return options or None


class QuickGameForm(EditionOptionFields):
    """A game from the pages: against bots, or (``players``: names, one a line) a table of
    people the signed-in creator referees and hands the seat links to. Each edition's options
    (``games.pages.editions``) are fields named ``<edition>_<option>``; only the chosen
    edition's are read, and cleaned they are ``options``, as the rules take them (checked by
    the edition's ``parse_options``, errors in players' words on the field)."""

    variant = edition_field()
    bots = forms.IntegerField(
        label="Bots",
        min_value=bots.MIN_BOTS,
        max_value=bots.MAX_BOTS,
        initial=3,
        error_messages={
            "required": f"Choose how many bots play: {bots.MIN_BOTS} to {bots.MAX_BOTS}.",
            "invalid": f"Choose how many bots play: {bots.MIN_BOTS} to {bots.MAX_BOTS}.",
            "min_value": "At least %(limit_value)s bot plays.",
            "max_value": "At most %(limit_value)s bots play.",
        },
    )
    player = forms.CharField(label="Your name", max_length=100, required=False, initial="Player")
    mode = forms.ChoiceField(
        choices=[("bots", "against bots"), ("people", "a table of people")],
        required=False,
        error_messages={"invalid_choice": "Press one of the form's buttons."},
    )
    players = forms.CharField(
        label="Players' names, one a line, in seat order",
        widget=forms.Textarea(attrs={"rows": 4}),
        max_length=1_100,
        required=False,
    )
    scoring = forms.ChoiceField(
        label="Length",
        choices=[("none", "One hand"), ("standard", "To 500 points (standard scoring)")],
        initial="none",
    )
    seed = forms.CharField(
        label="Deal number (optional: the same number deals the same cards)",
        max_length=64,
        required=False,
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.add_option_fields()

    def clean_players(self) -> list[str]:
        names = [line.strip() for line in self.cleaned_data["players"].splitlines()]
        names = [name for name in names if name]
        if self.data.get("mode") == "people" and not names:
            raise forms.ValidationError("Name the players who sit at the table: one a line.")
        if len(names) == 1:
            raise forms.ValidationError("A table needs at least two players: one name a line.")
        if any(len(name) > 100 for name in names):
            raise forms.ValidationError("A player's name is at most 100 characters.")
        return names

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        cleaned["options"] = self.clean_options(cleaned)
        return cleaned


# Setting up a position ------------------------------------------------------------------------

# Each field of a position (docs/POSITION.md) in a referee's words, for the form's errors.
POSITION_WORDS = {
    "position": "The position",
    "variant": "The edition",
    "players": "The number of players",
    "scoring": "The scoring",
    "target": "The target",
    "options": "The edition's options",
    "seed": "The seed",
    "sheet": "The score sheet flag",
    "hand": "The hand number",
    "dealer": "The dealer",
    "pending": "Whose turn it is",
    "dir": "The direction of play",
    "colour": "The colour in play",
    "drawn": "The card just drawn",
    "exposed": "The player who forgot UNO",
    "discard": "The discard pile",
    "pile": "The draw pile",
    "hands": "The hands",
    "w4": "The Wild Draw 4 to challenge",
    "scores": "The scores",
    "won": "The hands won",
    "reshuffles": "The reshuffles",
    "shown": "The hands face up",
    "winner": "The winner",
    "placings": "The placings",
    "ranks": "The ranks",
    "extra": "The edition's own state",
    "cards": "The cards do not add up",
}


def position_problem(exc: RuleError, names: Sequence[str] = ()) -> str:
    """A refused position in a referee's words: which part of it, then what is wrong, with
    each seat by its player's name (``names``, or "player 1" ... when none are given) and each
    card in words."""
    part = getattr(exc, "part", None)
    detail = str(exc) if part is None else str(exc).removeprefix(f"{part}: ")
    detail = said_plainly(detail, Namer(names))
    return detail if part is None else f"{POSITION_WORDS.get(part, part)}: {detail}"


class PositionForm(forms.Form):
    """A referee's position to start a game from (docs/POSITION.md), and the players' names."""

    position = forms.CharField(
        label="Position (one line, docs/POSITION.md)",
        max_length=20_000,
        widget=forms.Textarea(attrs={"rows": 6, "cols": 80, "spellcheck": "false"}),
        error_messages={"required": "Paste or type the position to set up."},
    )
    players = forms.CharField(
        label="Players, in seat order, separated by commas (optional)",
        max_length=1_100,
        required=False,
    )

    def clean_position(self) -> str:
        return " ".join(self.cleaned_data["position"].split("\n")).strip()

    def clean_players(self) -> list[str]:
        text = self.cleaned_data["players"]
        names = [name.strip() for name in text.split(",")] if text.strip() else []
        if any(not name for name in names):
            raise forms.ValidationError("Each player needs a name (two commas in a row?).")
        if any(len(name) > 100 for name in names):
            raise forms.ValidationError("A player's name is at most 100 characters.")
        return names


class CountedSignInForm(AuthenticationForm):
    """Django's sign-in form, with wrong passwords limited per address (``FailedSignIns``):
    past the limit no password is checked at all (a right one is refused too, and no
    password hash is worked out for a guesser), and ``wait`` says for how long."""

    def __init__(self, request: Any = None, *args: Any, **kwargs: Any) -> None:
        super().__init__(request, *args, **kwargs)
        self.failures = FailedSignIns(request)
        self.wait: int | None = None

    def clean(self) -> dict[str, Any]:
        self.wait = self.failures.wait()
        if self.wait is not None:
            raise forms.ValidationError(
                f"Too many wrong passwords from here: try again in {self.wait} seconds.",
                code="throttled",
            )
        try:
            return super().clean()
        except forms.ValidationError:
            self.failures.record()  # a wrong password (or an account that may not sign in)
            raise


class CountedPasswordChangeForm(PasswordChangeForm):
    """Django's password change (the old password first), with wrong old passwords limited
    (``WrongOldPasswords``): past the limit the old password is not checked at all, so a
    guesser learns nothing meanwhile (a right one is refused too), and ``wait`` says for how
    long."""

    def __init__(self, user: Any, *args: Any, request: Any, **kwargs: Any) -> None:
        super().__init__(user, *args, **kwargs)
        self.failures = WrongOldPasswords(request)
        self.wait: int | None = None

    def clean_old_password(self) -> str:
        self.wait = self.failures.wait()
        if self.wait is not None:
            # The form's own error, not the field's: nothing in the field is wrong to say.
            self.add_error(
                None,
                forms.ValidationError(
                    f"Too many wrong passwords: try again in {self.wait} seconds. "
                    "Your password was not changed.",
                    code="throttled",
                ),
            )
            return ""
        try:
            return super().clean_old_password()
        except forms.ValidationError:
            self.failures.record()
            raise
