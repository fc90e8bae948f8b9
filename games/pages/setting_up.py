"""Setting up a position by describing it: the referee's form on "Set up a position".

A referee rebuilding a moment of a game played with cards fills in what lies on the table, in
the players' words: the scoring and the score played to, each player's name, cards and score
(a score the game would have ended on is refused), the top of the discard pile, the
colour in play, who dealt, whose turn it is and what that player does now (play, play or keep
the card just drawn, challenge the Wild Draw 4 on top, choose the colour of a wild card
turned up to start the hand, or a moment of the edition's own: a block or an Instant UNO in
UNO Power Grab, UNO Spin's wheel to spin or what it landed on, a house rule's choice in UNO
VETO), which way play goes, who may be caught without UNO, and the edition's own state and
options (who holds each Power Tower, who the VETO card is on, the house rules on the Wild
Customizable cards and where each is): each edition's module gives its fields and part of the
position (``Edition.setup_part``). The form writes the position line (docs/POSITION.md) from
it, every card not placed going into the draw pile, shuffled, and has the rules check it;
whatever they refuse is told on the field it concerns, with names and cards in words.

Cards are written as they look ("red 7", "blue skip", "green draw two", "wild draw 4") or by
their codes (R7, BS, GD2, W4), separated by commas (``games.pages.card_words`` reads them).
"""

from __future__ import annotations

from typing import Any

from django import forms

from games.pages.card_words import cards_from_words
from games.pages.editions import EDITIONS, edition_for
from games.pages.editions.base import PLAYER_ROWS, SetUpTable, text_field
from games.pages.editions.words import Namer, said_plainly, scoring_choices
from games.pages.forms import edition_field, forget_other_editions
from rules import PositionError, RuleError, parse_position
from rules.cards import COLOUR_NAMES, card_info
from rules.position import json_part, options_part
from rules.variants import get_variant
from rules.variants.classic.variant import MAX_PLAYERS, MIN_PLAYERS

# The parts of a position the form fills in, to the field a refusal of that part is shown on.
_PART_FIELD = {
    "discard": "top",
    "colour": "colour",
    "pending": "turn",
    "dealer": "dealer",
    "w4": "waiting",
    "exposed": "forgot",
    "drawn": "drawn",
    "dir": "direction",
}
# The parts of a position whose refusal names a seat, to that player's field.
_SEAT_FIELD = {"scores": "score", "hands": "cards"}
BEFORE_MISSING = (
    "Choose the colour in play before the Wild Draw 4: a challenge asks whether its player held "
    "a card of that colour."
)
COLOURS = [(code, name.capitalize()) for code, name in COLOUR_NAMES.items()]
# What the player whose turn it is may be doing, in every edition; then each edition's own.
MOMENTS = [
    ("turn", "Plays a card or draws"),
    ("drawn", "Has just drawn a card: plays it or keeps it"),
    ("challenge", "Challenges the Wild Draw 4 on top, or takes it"),
    ("colour", "Chooses the colour of the wild card turned up to start the hand"),
]
CHOOSING_COLOUR = "The colour is still to be chosen at this moment: leave the colour in play empty."
# Each edition's own moments: the edition, and the words the form shows under its title.
EDITION_MOMENTS = {
    kind: (edition, words) for edition in EDITIONS.values() for kind, words in edition.setup_moments
}
# The choice of moment, in groups: those of every edition, then each edition's own.
MOMENT_CHOICES = [
    ("In every edition", MOMENTS),
    *((e.title, list(e.setup_moments)) for e in EDITIONS.values() if e.setup_moments),
]


def _player_field(label: str, initial: str, what: str) -> forms.TypedChoiceField:
    """One of the players, by their row ("Player 2"): cleaned, the row's number."""
    return forms.TypedChoiceField(
        label=label,
        choices=PLAYER_ROWS,
        coerce=int,
        initial=initial,
        error_messages={"invalid_choice": f"Choose {what} from the list."},
    )


class DescribedPositionForm(forms.Form):
    """A position described field by field (the module's docstring). Cleaned, ``position``
    is the line it describes, checked by the rules, and ``names`` the players' names in seat
    order."""

    variant = edition_field()
    scoring = forms.ChoiceField(
        label="Scoring",
        choices=scoring_choices,
        initial="standard",
        required=False,
        widget=forms.RadioSelect,
        error_messages={"invalid_choice": "Choose the scoring from the list."},
    )
    target = forms.IntegerField(
        label="Playing to (points; 500 if empty)",
        min_value=1,
        max_value=100_000,
        initial=500,
        required=False,
        error_messages={
            "invalid": "The score that ends the game is a whole number of points.",
            "min_value": "The score that ends the game is at least 1.",
            "max_value": "The score that ends the game is at most 100,000.",
        },
    )
    dealer = _player_field("Who dealt this hand", "1", "the dealer")
    turn = _player_field("Whose turn it is", "2", "whose turn it is")
    direction = forms.ChoiceField(
        label="Which way play goes",
        choices=[
            ("+", "Down the list: Player 1, then Player 2 ..."),
            ("-", "Up the list: Player 2, then Player 1 ..."),
        ],
        initial="+",
        error_messages={"invalid_choice": "Choose which way play goes from the list."},
    )
    top = text_field(
        "The top card",
        100,
        label="The top card of the discard pile",
        empty_message="Name the top card of the discard pile.",
    )
    under = text_field(
        "The cards under the top card",
        2_000,
        label="The cards under it, if they matter (nearest the top first)",
        required=False,
    )
    colour = forms.ChoiceField(
        label="The colour in play",
        choices=[("", "The top card's colour"), *COLOURS],
        required=False,
        error_messages={"invalid_choice": "Choose the colour in play from the list."},
    )
    waiting = forms.ChoiceField(
        label="What the player whose turn it is does now",
        choices=MOMENT_CHOICES,
        initial="turn",
        required=False,
        error_messages={"invalid_choice": "Choose what the player does from the list."},
    )
    drawn = text_field(
        "The card just drawn",
        100,
        label="For a card just drawn: the card (it is in their hand)",
        required=False,
    )
    forgot = forms.TypedChoiceField(
        label="Who holds one card and has not called UNO (and may be caught)",
        choices=[("", "Nobody"), *PLAYER_ROWS],
        coerce=int,
        empty_value=None,
        required=False,
        error_messages={"invalid_choice": "Choose the player from the list."},
    )
    before = forms.ChoiceField(
        label="For a challenge: the colour in play before the Wild Draw 4",
        choices=[("", "(no challenge)"), *COLOURS],
        required=False,
        error_messages={"invalid_choice": "Choose the colour from the list."},
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for n in range(1, MAX_PLAYERS + 1):
            self.fields[f"name_{n}"] = text_field(
                f"Player {n}'s name", 100, label="Name", required=False
            )
            self.fields[f"cards_{n}"] = text_field(
                f"Player {n}'s cards", 2_000, label="Cards in hand", required=False
            )
            self.fields[f"score_{n}"] = forms.IntegerField(
                label="Score so far",
                min_value=0,
                max_value=1_000_000,
                required=False,
                error_messages={
                    "invalid": "A score is a whole number of points.",
                    "min_value": "A score is at least 0.",
                    "max_value": "A score is at most 1,000,000.",
                },
            )
        # Each edition's own fields, named with the edition's prefix ("power_grab_tower_u").
        self._edition_keys: dict[str, list[str]] = {}
        for name, edition in EDITIONS.items():
            for key, field in edition.setup_fields().items():
                self.fields[f"{name}_{key}"] = field
                self._edition_keys.setdefault(name, []).append(key)

    # For the page -----------------------------------------------------------------------------

    @property
    def player_rows(self) -> list[tuple[int, list[forms.BoundField]]]:
        return [
            (n, [self[f"name_{n}"], self[f"cards_{n}"], self[f"score_{n}"]])
            for n in range(1, MAX_PLAYERS + 1)
        ]

    @property
    def edition_groups(self) -> list[tuple[str, str, list[forms.BoundField]]]:
        """Each edition's own fields, with its title and their heading, for the page."""
        return [
            (EDITIONS[name].title, EDITIONS[name].setup_legend, [self[f"{name}_{k}"] for k in keys])
            for name, keys in self._edition_keys.items()
        ]

    @property
    def more_players_open(self) -> bool:
        """Whether the rows past the fourth player hold anything (or an error): shown open."""
        return any(
            self.data.get(f"{kind}_{n}") or self[f"{kind}_{n}"].errors
            for n in range(5, MAX_PLAYERS + 1)
            for kind in ("name", "cards", "score")
        )

    # Checking ------------------------------------------------------------------------------

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        variant = cleaned.get("variant")
        names = self._names(cleaned)
        if variant is None:
            return cleaned
        forget_other_editions(self, variant)
        if names is None:
            return cleaned
        count = len(names)
        hands = []
        for n in range(1, count + 1):
            try:
                hands.append(cards_from_words(cleaned.get(f"cards_{n}") or "", variant))
            except ValueError as exc:
                self.add_error(f"cards_{n}", str(exc))
        try:
            top = cards_from_words(cleaned.get("top") or "", variant)
        except ValueError as exc:
            self.add_error("top", str(exc))
            top = ()
        if len(top) > 1:
            self.add_error("top", "Name one card: the one on top. The others go under it.")
        elif not top and "top" not in self.errors:  # only spaces or commas
            self.add_error("top", "Name the top card of the discard pile.")
        try:
            under = cards_from_words(cleaned.get("under") or "", variant)
        except ValueError as exc:
            self.add_error("under", str(exc))
            under = ()
        for key in ("dealer", "turn", "forgot"):
            seat = cleaned.get(key)
            if seat is not None and seat > count:
                self.add_error(key, f"There are {count} players: choose one of them.")
        if self.errors:
            return cleaned
        waiting = cleaned.get("waiting") or "turn"
        if waiting == "colour":  # a wild card turned up to start: its colour is being chosen
            if cleaned.get("colour"):
                self.add_error("colour", CHOOSING_COLOUR)
                return cleaned
            colour: str | None = "-"
        else:
            wild = "The top card is a wild card: choose the colour in play."
            given = cleaned.get("colour") or card_info(top[0]).colour
            colour = self._colour("colour", given, wild)
            if colour is None:
                return cleaned
        turn = cleaned["turn"] - 1
        # The card on top was played by the player before the one who decides.
        before_turn = (turn - (1 if cleaned["direction"] == "+" else -1)) % count
        edition = edition_for(variant)
        if waiting in EDITION_MOMENTS and EDITION_MOMENTS[waiting][0] is not edition:
            other = EDITION_MOMENTS[waiting][0].title
            self.add_error("waiting", f"That happens only in {other}: choose another moment.")
            return cleaned
        drawn = self._drawn(cleaned, waiting, variant)
        if drawn is None:
            return cleaned
        pending, more = f"{waiting}:{turn}", [f"drawn={drawn}"] if drawn else []
        if waiting == "challenge":
            if top[0] != "W4":
                self.add_error("waiting", "Only a Wild Draw 4 on top can be challenged.")
                return cleaned
            before = self._colour("before", cleaned.get("before") or None, BEFORE_MISSING)
            if before is None:
                return cleaned
            more.append(f"w4={before_turn};{before};{','.join(hands[before_turn])}")
        table = SetUpTable(tuple(names), tuple(hands), top[0], turn, before_turn, under)
        keys = self._edition_keys.get(variant, [])
        part = edition.setup_part({k: cleaned.get(f"{variant}_{k}") for k in keys}, waiting, table)
        for key, message in part.errors.items():
            self.add_error(self._edition_field(variant, key), message)
        if part.errors:
            return cleaned
        if part.extra is not None:
            more.append("extra=" + json_part(part.extra))
        if part.shown:
            more.append("shown=" + ",".join(map(str, part.shown)))
        fields = [
            variant,
            f"players={count}",
            f"scoring={cleaned.get('scoring') or 'standard'}",
            f"target={cleaned.get('target') or 500}",
            *([f"options={options_part(part.options)}"] if part.options is not None else []),
            "hand=1",
            f"dealer={cleaned['dealer'] - 1}",
            f"pending={pending}",
            f"dir={cleaned['direction']}",
            f"colour={colour}",
            "discard=" + ",".join((*reversed(under), top[0])),
            "pile=*",
            "hands=" + "/".join(",".join(hand) for hand in hands),
            *more,
        ]
        if cleaned.get("forgot") is not None:
            fields.append(f"exposed={cleaned['forgot'] - 1}")
        scores = [cleaned.get(f"score_{n}") or 0 for n in range(1, count + 1)]
        if any(scores):
            fields.append("scores=" + ",".join(map(str, scores)))
        position = "|".join(fields)
        try:
            parse_position(position, seed="-")
        except RuleError as exc:
            on = part.refused_on
            self.refused(exc, names, edition_field=on and self._edition_field(variant, on))
            return cleaned
        cleaned["position"] = position
        cleaned["names"] = names
        return cleaned

    @staticmethod
    def _edition_field(variant: str, key: str) -> str:
        """The form's field for an edition's part's ``key`` ("moment": what the player does)."""
        return "waiting" if key == "moment" else f"{variant}_{key}"

    def _drawn(self, cleaned: dict[str, Any], waiting: str, variant: str) -> str | None:
        """The card just drawn ("" when the player has not just drawn); None, with the error on
        its field, when it is missing, more than one card or given for another moment."""
        try:
            cards = cards_from_words(cleaned.get("drawn") or "", variant)
        except ValueError as exc:
            self.add_error("drawn", str(exc))
            return None
        if waiting != "drawn":
            if cards:
                self.add_error(
                    "drawn",
                    "A card just drawn is only for a player who has just drawn: choose that "
                    "above, or clear this.",
                )
                return None
            return ""
        if len(cards) != 1:
            self.add_error("drawn", "Name the one card they have just drawn.")
            return None
        return cards[0]

    def _colour(self, field: str, code: str | None, missing: str) -> str | None:
        """``code`` when the chosen edition is played in that colour; otherwise None, with the
        error on ``field`` (``missing`` when no colour was given)."""
        edition = get_variant(self.cleaned_data["variant"])
        if code is None:
            self.add_error(field, missing)
            return None
        if code not in edition.colours:
            said = ", ".join(COLOUR_NAMES[c] for c in edition.colours)
            self.add_error(field, f"{edition.title} is played in {said}.")
            return None
        return code

    def refused(self, exc: RuleError, names: list[str], edition_field: str | None = None) -> None:
        """Show what the rules refused on the field it concerns, in the players' words
        (``edition_field``: where a refusal of the edition's state goes)."""
        part = str(getattr(exc, "part", "") or "")
        detail = str(exc).removeprefix(f"{part}: ") if part else str(exc)
        message = said_plainly(detail, Namer(names))
        field = edition_field if part == "extra" else _PART_FIELD.get(part)
        if part in _SEAT_FIELD and isinstance(exc, PositionError) and exc.seat is not None:
            field = f"{_SEAT_FIELD[part]}_{exc.seat + 1}"
        self.add_error(field, message[:1].upper() + message[1:])

    def _names(self, cleaned: dict[str, Any]) -> list[str] | None:
        """The players' names in seat order, the rows filled in from the top; None (with the
        error on the field) when a row is filled in without a name or after an empty row."""
        names: list[str] = []
        gap = None
        for n in range(1, MAX_PLAYERS + 1):
            name = (cleaned.get(f"name_{n}") or "").strip()
            used = name or (cleaned.get(f"cards_{n}") or "").strip() or cleaned.get(f"score_{n}")
            if not used:
                gap = gap or n
                continue
            if not name:
                self.add_error(f"name_{n}", f"Give player {n} a name, or clear their row.")
                return None
            if gap is not None:
                empty = "Fill the players in from the top: this row is empty."
                self.add_error(f"name_{gap}", empty)
                return None
            names.append(name)
        if len(names) < MIN_PLAYERS:
            self.add_error("name_1", f"Name at least {MIN_PLAYERS} players.")
            return None
        return names
