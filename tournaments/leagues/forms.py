"""The league pages' forms: a new league, season or night, a table seated at a night, players
added to a league, naming an organiser or a referee, a player's name or account corrected, the
score sheet's next hand, and undoing the last one.

A form checks what can be checked without the game (a seat chosen, points that are whole
numbers, the page's own key) and hands the rest to the engine, whose errors it then places next
to the field they name (``HandForm.add_engine_error``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from django import forms
from django.core.exceptions import ValidationError

from games.models import KEY_LENGTH
from games.names import clean_name, name_key, sentence_start
from games.pages.card_words import cards_from_words
from games.pages.editions.words import SCORING_SHORT, scoring_choices
from games.pages.forms import EditionOptionFields
from rules import InvalidCommand
from rules.cards import describe
from rules.variants import get_variant, variant_names
from tournaments.leagues.services import NAME_LENGTH
from tournaments.templatetags.league_pages import names_and, ordinal

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
        # Digits alone: ``int`` would also read "1_000", "+5" or Arabic-Indic digits.
        if not (text.isascii() and text.isdigit()):
            digits = text.strip().removeprefix("-").strip()
            if text.strip().startswith("-") and digits.isascii() and digits.isdigit():
                raise ValidationError("Points cannot be negative.", code="min_value")
            raise ValidationError("Points are a whole number.", code="invalid")
        return int(text)


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

    def __init__(
        self,
        *args: Any,
        seats: int,
        deck: tuple[str, int] | None = None,
        variant: str | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.seats = seats
        # The edition whose cards are typed: in words ("orange 7, purple skip") or codes.
        self.variant = variant
        # (edition, points): no player holds more than the whole deck is worth. The engine
        # refuses it too; the form says so first, in the same words, for any number typed.
        self.deck = deck
        for seat in range(seats):
            self.fields[f"cards-{seat}"] = forms.CharField(required=False, strip=False)
            self.fields[f"points-{seat}"] = PointsField(required=False)

    def _clean_fields(self) -> None:
        super()._clean_fields()
        if self.deck is None:
            return
        title, worth = self.deck
        for seat in range(self.seats):
            name = f"points-{seat}"
            value = self.cleaned_data.get(name)
            if value is not None and value > worth:
                self.add_error(
                    name,
                    f"{value} points is more than a whole {title} deck is worth ({worth} points).",
                )
        if self.variant is None:
            return
        for seat in range(self.seats):
            name = f"cards-{seat}"
            try:
                self.cleaned_data[name] = list(
                    cards_from_words(self.cleaned_data.get(name, ""), self.variant)
                )
            except ValueError as exc:
                self.add_error(name, str(exc))

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
            typed = self.cleaned_data.get(f"cards-{seat}", "")
            cards = typed if isinstance(typed, list) else typed.replace(",", " ").upper().split()
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
        message = players_words(str(exc))
        if field is None:
            self.add_error(None, message)
        else:
            self.add_error(field, field_message(message, exc.field or ""))

    def first_errors(self) -> dict[str, str]:
        """Each field's first error by the field's name (``__all__``: the whole form's)."""
        return {name: str(errors[0]) for name, errors in self.errors.items()}

    def hidden_values(self) -> list[tuple[str, str]]:
        """The hand as typed, for the confirmation step's hidden fields."""
        names = ["out"] + [
            f"{kind}-{seat}" for seat in range(self.seats) for kind in ("cards", "points")
        ]
        return [(name, str(self.data.get(name, ""))) for name in names]


# The engine's messages name seats by number and cards by code; the page names players and
# cards in words. Each pattern is one engine message (rules/sheet.py), rewritten.
COPIES = re.compile(r"remaining: (\d+) copies of (\S+), but an? (.+) deck has (\d+)")
PLAYERS_WORDS = [
    (re.compile(r"out: no seat -?\d+ at this table"), "Choose one of the players at this table."),
    (
        re.compile(r"seat \d+ went out and holds nothing"),
        "The player who went out holds no cards: leave their cards and points empty.",
    ),
    (
        re.compile(r"seat \d+ is given both cards and points"),
        "Give either the cards left or the points, not both.",
    ),
    (
        re.compile(r"seat \d+: give the cards left in the hand or the points"),
        "Give the cards left in this player's hand, or their points.",
    ),
]


def players_words(message: str) -> str:
    """An engine's message about a hand as the page says it: no seat numbers or card codes."""
    copies = COPIES.fullmatch(message)
    if copies:
        count, code, title, deck = copies.groups()
        try:
            card = describe(code)
        except ValueError:
            card = code
        return (
            f"The hands hold {count} cards “{card}”, but a {title} deck has only {deck}: "
            "check the cards typed for every player."
        )
    for pattern, words in PLAYERS_WORDS:
        if pattern.fullmatch(message):
            return words
    if message.startswith("points: "):
        rest = message.removeprefix("points: ")
        return rest[:1].upper() + rest[1:] + ": check the points typed."
    return message


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
    """Undo the last hand: the form names the hand it means (``hand``) and the sheet's
    ``version`` it was shown at, so a second click, or a click after someone else recorded or
    undid a hand, undoes nothing."""

    hand = WholeNumberOrNothingField(required=False)
    undo_to = WholeNumberOrNothingField(required=False)
    version = WholeNumberOrNothingField(required=False)  # the sheet's, as the page showed it


# Organising a league ----------------------------------------------------------------------------

MAX_TARGET = 10_000


def variant_choices() -> list[tuple[str, str]]:
    return [(name, get_variant(name).title) for name in variant_names()]


def service_error(form: forms.Form, exc: InvalidCommand, names: Iterable[str] = ()) -> None:
    """A service refused what the form sent: its message next to the field it names (without
    the field's name it starts with), or at the top of the form. Its first letter is
    capitalised unless it starts with one of ``names``, shown as written."""
    field = exc.field if exc.field in form.fields else None
    message = str(exc)
    if field is not None and message.startswith(f"{field}: "):
        message = message.removeprefix(f"{field}: ")
    form.add_error(field, sentence_start(message, names))


def _number_errors(what: str, **more: str) -> dict[str, str]:
    """A whole-number field's errors in words naming ``what`` (Django's own say "this value")."""
    return {
        "invalid": f"{what} must be a whole number.",
        "min_value": f"{what} must be at least %(limit_value)s.",
        "max_value": f"{what} must be at most %(limit_value)s.",
        **more,
    }


class LeagueForm(EditionOptionFields):
    """A new league: its name and the rules its seasons play by unless they say otherwise
    (with the edition's options, UNO VETO's house rules)."""

    name = forms.CharField(max_length=100, error_messages={"required": "Give the league a name."})
    variant = forms.ChoiceField(label="Edition", choices=variant_choices)
    scoring = forms.ChoiceField(choices=scoring_choices, widget=forms.RadioSelect)
    target = forms.IntegerField(
        label="Target score",
        min_value=1,
        max_value=MAX_TARGET,
        initial=500,
        help_text="The score that ends a game (500 by the rulebook; 250 makes shorter games).",
        error_messages=_number_errors(
            "The target score", required="Give the score that ends a game, for example 500."
        ),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["variant"].initial = "classic"
        self.fields["scoring"].initial = "standard"
        self.add_option_fields()

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        cleaned["options"] = self.clean_options(cleaned)
        return cleaned

    def arguments(self) -> dict[str, Any]:
        """What ``services.open_league`` takes, from the cleaned form."""
        data = self.cleaned_data
        keys = ("name", "variant", "scoring", "target", "options")
        return {key: data[key] for key in keys if key in data}


class SeasonForm(forms.Form):
    """A new season of a league: the league's rules unless changed here, and how its standings
    count (the best N nights, attendance points)."""

    name = forms.CharField(
        max_length=100,
        help_text="For example “Autumn 2026”.",
        error_messages={"required": "Give the season a name."},
    )
    variant = forms.ChoiceField(label="Edition", required=False)
    scoring = forms.ChoiceField(required=False, widget=forms.RadioSelect)
    target = forms.IntegerField(
        label="Target score",
        required=False,
        min_value=1,
        max_value=MAX_TARGET,
        help_text="Empty: the league's.",
        error_messages=_number_errors("The target score"),
    )
    best_nights = forms.IntegerField(
        label="Nights counted",
        required=False,
        min_value=1,
        max_value=1000,
        help_text="Count only each player's best this many nights. Empty: every night counts.",
        error_messages=_number_errors("The nights counted"),
    )
    attendance_points = forms.IntegerField(
        label="Attendance points",
        min_value=0,
        max_value=100,
        initial=0,
        help_text="League points for each night a player plays, on top of one per win. "
        "With any, league points decide the table first.",
        error_messages=_number_errors(
            "The attendance points", required="Give the attendance points (0 for none)."
        ),
    )

    def __init__(self, *args: Any, league: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        variant = get_variant(league.variant).title if league.variant in variant_names() else ""
        self.fields["variant"].choices = [("", f"As the league ({variant})")] + variant_choices()
        self.fields["scoring"].choices = [
            ("", f"As the league ({SCORING_SHORT.get(league.scoring, league.scoring)})")
        ] + scoring_choices()
        self.fields["scoring"].initial = ""
        self.fields["target"].widget.attrs["placeholder"] = str(league.target)

    def arguments(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {
            "name": data["name"],
            "variant": data["variant"] or None,
            "scoring": data["scoring"] or None,
            "target": data["target"],
            "best_nights": data["best_nights"],
            "attendance_points": data["attendance_points"],
        }


class NightForm(forms.Form):
    """A new league night (its date: today unless given)."""

    date = forms.DateField(
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text="Empty: today.",
        error_messages={"invalid": "Give the date as year-month-day, for example 2026-11-26."},
    )


MAX_SEATS = 10
USERNAME_LENGTH = 150  # Django's user names


class TableForm(forms.Form):
    """A table seated at a league night: who plays (the league's players ticked, and new names
    typed, one a line), and whether they play on the site or with cards on a score sheet."""

    kind = forms.ChoiceField(
        label="How they play",
        choices=[
            ("digital", "On the site: each player opens their own seat's link"),
            ("sheet", "With cards: the organiser keeps a paper score sheet here"),
        ],
        widget=forms.RadioSelect,
        initial="digital",
        error_messages={"required": "Choose how the table plays."},
    )
    players = forms.MultipleChoiceField(
        label="Players of the league", required=False, widget=forms.CheckboxSelectMultiple
    )
    new_players = forms.CharField(
        label="New players",
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="One name a line; they join the league.",
    )

    def __init__(self, *args: Any, players: list[dict[str, Any]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["players"].choices = [(str(p["id"]), p["name"]) for p in players]
        self.names = {str(p["id"]): p["name"] for p in players}

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        chosen = [self.names[pk] for pk in cleaned.get("players", [])]
        typed = [
            name
            for name in map(clean_name, re.split(r"[\n,]", cleaned.get("new_players", "")))
            if name
        ]
        too_long = [name for name in typed if len(name) > 100]
        if too_long:
            self.add_error("new_players", "A name has at most 100 characters.")
        seated = chosen + typed
        folded = [name_key(name) for name in seated]
        twice = sorted({name for name in seated if folded.count(name_key(name)) > 1})
        if twice:
            self.add_error("new_players", f"{', '.join(twice)} would sit at the table twice.")
        elif not 2 <= len(seated) <= MAX_SEATS:
            self.add_error(
                None,
                f"A table seats 2 to {MAX_SEATS} players; {len(seated)} "
                f"{'was' if len(seated) == 1 else 'were'} chosen.",
            )
        cleaned["seated"] = seated
        return cleaned


MAX_PLAYERS_ADDED = 100


class PlayersForm(forms.Form):
    """Players added to a league by name, one a line or separated by commas. The names go to
    ``services.register_players``, which refuses a bad one; ``add_refusal`` says which."""

    names = forms.CharField(
        label="Their names",
        strip=False,
        widget=forms.Textarea(attrs={"rows": 3, "autocomplete": "off"}),
        help_text="One name a line, or separated by commas. A name already in the league is "
        "that player.",
        error_messages={
            "required": "Type the name of at least one player.",
            "null_characters_not_allowed": "A name holds a character that is not text: type "
            "it again.",
        },
    )

    def clean_names(self) -> list[str]:
        names = [name.strip() for name in re.split(r"[\n,]", self.cleaned_data["names"])]
        names = [name for name in names if name]  # blank lines and a comma at the end
        if not names:
            raise ValidationError("Type the name of at least one player.", code="required")
        if len(names) > MAX_PLAYERS_ADDED:
            raise ValidationError(
                f"Add at most {MAX_PLAYERS_ADDED} players at a time: {len(names)} names were "
                "typed.",
                code="max_length",
            )
        return names

    def add_refusal(self, exc: InvalidCommand) -> None:
        """The service refused the name its field ``names.N`` points at: why, naming that name
        by its place and its first letters, next to the field."""
        names = self.cleaned_data.get("names") or []
        _, _, index = (exc.field or "").partition(".")
        reason = str(exc).partition(": ")[2] or str(exc)
        if not (index.isdigit() and int(index) < len(names)):
            self.add_error("names", sentence_start(reason) + ".")
            return
        which = "The name" if len(names) == 1 else f"The {ordinal(int(index) + 1)} name"
        name = clean_name(names[int(index)])
        if not name:
            message = (
                f"{which} shows nothing: it holds only characters that do not show. Type it "
                "again, or leave it out."
            )
        elif reason.startswith("at most "):
            message = f"{which} (“{name[:20]}…”) has {len(name)} characters: a name has {reason}."
        else:
            message = f"{which} (“{name}”) was refused: {reason}."
        self.add_error("names", message)


def players_added(added: list[tuple[Any, bool]], league: str) -> str:
    """What adding players did, in words: who is new to ``league``, who was a player already."""
    new = [player.name for player, is_new in added if is_new]
    old = [player.name for player, is_new in added if not is_new]
    said = []
    if new:
        verb = "is now a player" if len(new) == 1 else "are now players"
        said.append(f"{names_and(new)} {verb} of {league}.")
    if old:
        verb = "was a player" if len(old) == 1 else "were players"
        said.append(f"{names_and(old)} {verb} of {league} already.")
    return " ".join(said)


class PlayerNameForm(forms.Form):
    """A player's name corrected; ``services.rename_player`` refuses another player's."""

    name = forms.CharField(
        label="Name",
        max_length=NAME_LENGTH,
        help_text="Games already played keep the name they were played under.",
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
        error_messages={
            "required": "Give the player's name.",
            "max_length": "A name has at most %(limit_value)d characters; this one has "
            "%(show_value)d.",
            "null_characters_not_allowed": "The name holds a character that is not text: "
            "type it again.",
        },
    )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        if "name" in cleaned and not clean_name(cleaned["name"]):
            self.add_error(
                "name",
                "The name shows nothing: it holds only characters that do not show. Type it again.",
            )
        return cleaned


class PlayerAccountForm(forms.Form):
    """The account a player signs in with, by its user name (empty: none);
    ``services.link_account`` refuses one that does not exist or plays as someone else."""

    username = forms.CharField(
        label="Plays signed in as",
        required=False,
        max_length=USERNAME_LENGTH,
        help_text="Their user name; empty: no account.",
        widget=forms.TextInput(
            attrs={"autocapitalize": "none", "spellcheck": "false", "autocomplete": "off"}
        ),
        error_messages={
            "max_length": "A user name has at most %(limit_value)d characters; this one has "
            "%(show_value)d.",
            "null_characters_not_allowed": "The user name holds a character that is not "
            "text: type it again.",
        },
    )


class RoleForm(forms.Form):
    """Naming someone organiser or referee, by the name they sign in with."""

    username = forms.CharField(
        label="Their user name",
        max_length=150,
        error_messages={"required": "Give the name the person signs in with."},
    )
    role = forms.ChoiceField(
        choices=[
            ("referee", "Referee: sees every hand, undoes and rules on disputes"),
            ("organiser", "Organiser: also opens seasons and nights and seats tables"),
        ],
        widget=forms.RadioSelect,
        initial="referee",
        error_messages={"required": "Choose the role."},
    )

    def __init__(
        self, *args: Any, roles: tuple[str, ...] = ("referee", "organiser"), **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["role"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = [c for c in field.choices if c[0] in roles]
