"""The tournament pages' forms: a new tournament with every setting and its players (the page
and the admin's "add" use the same form and the same service), and the director's forms on the
tournament page: a player (enter, check in, drop), a reason (re-pair, reopen, call time), an
awarded result (who forfeits, and why). The services check the rest (the table exists, is
playing or decided, the player is entered) and say what was wrong."""

from __future__ import annotations

from typing import Any

from django import forms

from games.pages.forms import EditionOptionFields
from rules import InvalidCommand
from rules.engine import SCORINGS
from rules.variants import get_variant, variant_names
from tournaments.brackets import services
from tournaments.brackets.directing import REASON_LENGTH
from tournaments.brackets.models import Tournament
from tournaments.brackets.pairing import MAX_TABLE, MIN_TABLE

NAME_LENGTH = 100
MAX_TARGET = 100_000
MAX_ROUNDS = 50
TURN_SECONDS = (5, 3600)
MAX_PLAYERS = 500

SCORING_LABELS = {
    "standard": "Standard: whoever goes out scores the cards left in the other hands",
    "alternative": "Alternative: everyone counts the cards left in their own hand, lowest wins",
    "none": "No scoring: one hand a game, the first player out wins",
}


def _whole_number(low: int, high: int) -> dict[str, str]:
    """The error messages of a number field, in words: what is allowed."""
    text = f"A whole number from {low} to {high}."
    return {
        "required": f"Fill this in: {text[0].lower()}{text[1:]}",
        "invalid": text,
        "min_value": text,
        "max_value": text,
    }


class TournamentForm(EditionOptionFields):
    """A new tournament: its settings in players' words (with the edition's options, UNO
    VETO's house rules), and its players, one a line."""

    name = forms.CharField(
        max_length=NAME_LENGTH,
        label="Name",
        error_messages={"required": "Give the tournament a name."},
    )
    format = forms.ChoiceField(
        label="Format",
        choices=[
            ("elimination", "Elimination: the best of each table go on, to one final table"),
            ("swiss", "Swiss: everyone plays every round against players with similar scores"),
        ],
        initial="elimination",
        widget=forms.RadioSelect,
        error_messages={
            "required": "Choose elimination or Swiss.",
            "invalid_choice": "Choose elimination or Swiss.",
        },
    )
    table_size = forms.IntegerField(
        label="Players at a table (at most)",
        min_value=MIN_TABLE,
        max_value=MAX_TABLE,
        initial=4,
        error_messages=_whole_number(MIN_TABLE, MAX_TABLE),
    )
    advance = forms.IntegerField(
        label="Players going on from each table",
        help_text="Elimination only: fewer than sit at a table.",
        min_value=1,
        max_value=MAX_TABLE - 1,
        initial=1,
        error_messages=_whole_number(1, MAX_TABLE - 1),
    )
    rounds = forms.IntegerField(
        label="Rounds",
        help_text="Swiss only.",
        min_value=1,
        max_value=MAX_ROUNDS,
        initial=3,
        error_messages=_whole_number(1, MAX_ROUNDS),
    )
    final_table = forms.BooleanField(
        label="A final table for the leaders after the Swiss rounds", required=False
    )
    variant = forms.ChoiceField(label="Rules", initial="classic")
    scoring = forms.ChoiceField(label="Scoring", initial="standard")
    target = forms.IntegerField(
        label="Target score",
        help_text="A game ends when someone reaches it (not used with no scoring).",
        min_value=1,
        max_value=MAX_TARGET,
        initial=500,
        # Required with scoring only (``clean``): left empty with none, the API's default.
        required=False,
        error_messages=_whole_number(1, MAX_TARGET),
    )
    duplicate_deals = forms.BooleanField(
        label="Duplicate deals: every table of a round is dealt the same cards", required=False
    )
    turn_seconds = forms.IntegerField(
        label="Seconds for a turn",
        help_text=f"Leave empty for no turn timer; from {TURN_SECONDS[0]} to {TURN_SECONDS[1]}.",
        min_value=TURN_SECONDS[0],
        max_value=TURN_SECONDS[1],
        required=False,
        error_messages=_whole_number(*TURN_SECONDS),
    )
    seeding = forms.ChoiceField(
        label="Seeding",
        choices=[
            ("manual", "In the order the players are listed (the first is the top seed)"),
            ("rating", "By their league rating, best first"),
        ],
        initial="manual",
        widget=forms.RadioSelect,
    )
    players = forms.CharField(
        label="Players, one a line",
        help_text="You can enter more players on the tournament's page before it starts.",
        required=False,
        widget=forms.Textarea(attrs={"rows": 8, "cols": 30}),
    )

    # What ``create`` hands the service: the settings, not each edition's option fields.
    _settings = (
        *("name", "format", "table_size", "advance", "rounds", "final_table", "variant"),
        *("scoring", "target", "duplicate_deals", "turn_seconds", "seeding", "players"),
        "options",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in ("variant", "scoring", "seeding"):
            self.fields[name].error_messages["invalid_choice"] = "Choose one of the listed ones."
        self.fields["variant"].choices = [(v, get_variant(v).title) for v in variant_names()]
        self.fields["scoring"].choices = [(s, SCORING_LABELS.get(s, s)) for s in SCORINGS]
        self.add_option_fields()

    def clean_name(self) -> str:
        name = self.cleaned_data["name"].strip()
        if not name:
            raise forms.ValidationError("Give the tournament a name.")
        return name

    def clean_players(self) -> list[str]:
        names = [line.strip() for line in self.cleaned_data["players"].splitlines()]
        names = [name for name in names if name]
        too_long = [name for name in names if len(name) > NAME_LENGTH]
        if too_long:
            raise forms.ValidationError(
                f"A name has at most {NAME_LENGTH} characters: {too_long[0][:20]}… is longer."
            )
        seen: set[str] = set()
        for name in names:
            if name in seen:
                raise forms.ValidationError(f"{name} is listed twice.")
            seen.add(name)
        if len(names) > MAX_PLAYERS:
            raise forms.ValidationError(f"At most {MAX_PLAYERS} players.")
        return names

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        size, advance = data.get("table_size"), data.get("advance")
        if size is not None and advance is not None and advance >= size:
            self.add_error(
                "advance",
                f"Fewer players go on than sit at a table: at most {size - 1} with tables of "
                f"{size}.",
            )
        if data.get("target") is None and "target" not in self.errors:
            if data.get("scoring") == "none":
                data.pop("target", None)  # not used: left to the service's default
            elif data.get("scoring"):
                self.add_error("target", self.fields["target"].error_messages["required"])
        data["options"] = self.clean_options(data)
        return data

    def create(self, *, organiser: Any) -> Tournament | None:
        """Create the tournament through ``services.create_tournament`` (the API's service);
        a setting it refuses becomes an error on its field, and nothing is created."""
        settings = {k: v for k, v in self.cleaned_data.items() if k in self._settings}
        try:
            return services.create_tournament(organiser=organiser, **settings)
        except InvalidCommand as exc:
            field = (exc.field or "").split("[")[0]
            text = str(exc)
            if field and text.startswith(field):  # "table_size must be ...": no field names
                text = "This" + text[len(field) :]
            self.add_error(field if field in self.fields else None, text[:1].upper() + text[1:])
            return None


AWARD_CHOICES = [
    ("forfeit", "Forfeit"),
    ("disqualification", "Disqualification"),
    ("no_show", "No-show"),
]


class PlayerForm(forms.Form):
    player = forms.CharField(max_length=NAME_LENGTH, label="Player")


class EntryForm(forms.Form):
    """A player entered from the tournament page (before the start, or late in a Swiss)."""

    player = forms.CharField(max_length=NAME_LENGTH, label="Player's name")

    def clean_player(self) -> str:
        name = self.cleaned_data["player"].strip()
        if not name:
            raise forms.ValidationError("Type the player's name.")
        return name


class ReasonForm(forms.Form):
    reason = forms.CharField(
        max_length=REASON_LENGTH,
        label="Why",
        error_messages={
            "required": "say why; the reason is shown on the tournament page with the ruling."
        },
    )


class TableReasonForm(ReasonForm):
    round = forms.IntegerField(min_value=1, widget=forms.HiddenInput, label="Round")
    table = forms.IntegerField(min_value=1, widget=forms.HiddenInput, label="Table")


class ResultForm(TableReasonForm):
    """The result of a table played with cards: its players in the order they placed, one
    ``place`` field a place (best first), as the tournament page's selects send them."""

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        places = [str(name).strip() for name in self.data.getlist("place")]
        twice = sorted({name for name in places if name and places.count(name) > 1})
        if not places or not all(places):
            self.add_error(None, "choose a player for every place.")
        elif twice:
            self.add_error(None, f"{', '.join(twice)} placed twice: place each player once.")
        cleaned["placings"] = places
        return cleaned


class AwardForm(TableReasonForm):
    kind = forms.ChoiceField(choices=AWARD_CHOICES, label="Ruling")
    player = forms.CharField(
        max_length=NAME_LENGTH,
        label="Who loses the table",
        error_messages={"required": "choose the player who loses it."},
    )
    field_order = ["round", "table", "kind", "player", "reason"]  # as the page shows them
