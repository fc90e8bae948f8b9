"""What an edition shows at the table, as one object per edition: its words for events and
commands, its buttons (their order and what each special one does), its card faces, its rules
summary and the fields of its options.

``games.pages.editions.classic`` holds classic UNO's, which every edition starts from; each
other edition's module adds what its rulebook adds. Shared page code asks
``games.pages.editions.edition_for(variant)`` and never names an edition itself."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from django import forms

from games.pages.editions.words import Namer, Words
from rules.position import default_extra
from rules.variants import get_variant
from rules.variants.classic.variant import MAX_PLAYERS


@dataclass(frozen=True, slots=True)
class Face:
    """How a card that is not a plain number is drawn: the big ``symbol`` in its middle and the
    ``word`` printed on it (its name, so that no symbol has to be guessed at)."""

    symbol: str
    word: str


# The players of a described position, by their row on the set-up form ("Player 2").
PLAYER_ROWS = [(str(n), f"Player {n}") for n in range(1, MAX_PLAYERS + 1)]


def player_field(label: str, *, nobody: str, what: str) -> forms.TypedChoiceField:
    """A choice of one of the players by their row, or ``nobody``: cleaned, the row's number
    (from 1), or None."""
    return forms.TypedChoiceField(
        label=label,
        choices=[("", nobody), *PLAYER_ROWS],
        coerce=int,
        empty_value=None,
        required=False,
        error_messages={"invalid_choice": f"Choose {what} from the list."},
    )


def text_field(
    name: str, limit: int, *, required: bool = True, empty_message: str = "", label: str = ""
) -> forms.CharField:
    """Free text as typed (not stripped), refused, naming the field, when no database could
    store it (a NUL) or it is longer than the API takes. ``label``: what the page shows."""
    return forms.CharField(
        label=label or None,
        required=required,
        strip=False,
        max_length=limit,
        error_messages={
            "required": empty_message or f"{name} is required",
            "null_characters_not_allowed": f"{name}: null characters are not allowed",
            "max_length": f"{name}: at most {limit} characters",
        },
    )


@dataclass(frozen=True, slots=True)
class SetUpTable:
    """What the set-up form has read of the position a referee describes, for an edition's
    part of it: the players' names and hands in seat order, the top card of the discard pile,
    the seat whose turn it is and the seat that played the top card (the one before); the
    cards under the top card, nearest the top first."""

    names: tuple[str, ...]
    hands: tuple[tuple[str, ...], ...]
    top: str
    turn: int
    before: int
    under: tuple[str, ...] = ()

    def seat(self, row: int | None) -> int | None:
        """The seat of a player chosen by their row (None: nobody)."""
        return None if row is None else row - 1

    def off_table(self, row: int | None) -> str | None:
        """What is wrong with a player chosen by their row beyond the players named."""
        if row is not None and row > len(self.names):
            return f"There are {len(self.names)} players: choose one of them."
        return None


@dataclass
class SetUpPart:
    """An edition's part of a described position: its state as the rules read it (``extra``;
    None: the state a hand starts with), the game's options (None: the edition's defaults),
    the errors by the edition's field (``"moment"``: the choice of what the player does now),
    and the field a refusal of that state by the rules is told on (None: above the form);
    ``shown``: the seats whose hands the edition's state has face up for everyone."""

    extra: dict[str, Any] | None = None
    options: dict[str, Any] | None = None
    errors: dict[str, str] = field(default_factory=dict)
    refused_on: str | None = None
    shown: tuple[int, ...] = ()


class Edition:
    """One edition's presentation. Subclasses extend the class attributes of the edition they
    build on (``{**Classic.events, ...}``) and override the hooks."""

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    # The rules in a few short sentences, in the club's own words (the rulebook is longer).
    summary: ClassVar[tuple[str, ...]] = ()
    # Words, by event type and by command type.
    events: ClassVar[dict[str, Words]] = {}
    commands: ClassVar[dict[str, Words]] = {}
    # Events a short log leaves out (the replay viewer shows every event).
    quiet: ClassVar[frozenset[str]] = frozenset()
    # The table's buttons, in this order (commands not named come last).
    buttons: ClassVar[tuple[str, ...]] = ()
    # What a special action does, by command type: shown beside its button.
    help: ClassVar[dict[str, str]] = {}
    # What each special card does, by the name on its face (``faces``' words; the glossary under
    # the rules summary, and the help beside the ways to play one).
    card_help: ClassVar[dict[str, str]] = {}
    # What the game waits for, by pending kind: after the seat's name, and to the seat itself.
    pending: ClassVar[dict[str, str]] = {}
    your_move: ClassVar[dict[str, str]] = {}
    # What the status line says while the game waits for everyone at once, by pending kind.
    status: ClassVar[dict[str, str]] = {}
    # Pending kinds in which the waited-for seat ticks cards of its hand to discard them.
    discard_kinds: ClassVar[frozenset[str]] = frozenset()
    # The commands that form sends (the ticked cards), not shown as buttons of their own.
    discard_commands: ClassVar[frozenset[str]] = frozenset()
    # Card faces by rank (``rules.cards.card_info(code).rank``), and marks of number cards
    # (the mark shown in the card's corner, and its word).
    faces: ClassVar[dict[str, Face]] = {}
    marks: ClassVar[dict[str, tuple[str, str]]] = {}

    # Words ---------------------------------------------------------------------------------

    def event_text(self, data: dict[str, Any], name: Namer) -> str:
        """One event (its JSON shape, redacted or not) in words."""
        kind = data.get("type", "")
        words = self.events.get(kind)
        if words is None:
            return kind.replace("_", " ").capitalize() + "."
        return words(data, name)

    def command_text(self, data: dict[str, Any], name: Namer) -> str:
        """A command a seat may send (its JSON shape), as the words on its button."""
        kind = data.get("type", "")
        words = self.commands.get(kind)
        if words is None:
            return kind.replace("_", " ").capitalize()
        return words(data, name)

    def play_parts(self, data: dict[str, Any], name: Namer) -> list[str]:
        """What a ``play`` command carries besides its card, in words (a wild's colour...)."""
        return []

    def lines(self, edition: dict[str, Any], name: Namer) -> list[str]:
        """The edition's public state (``rules.views``' ``edition`` part) in words."""
        return []

    def badges(self, edition: dict[str, Any], seat: int) -> list[str]:
        """Short tags beside a seat's name for what the edition's state says of it."""
        return []

    def ticked_may_leave_one(
        self, kind: str, hand: tuple[str, ...], legal: list[dict[str, Any]]
    ) -> bool:
        """At a moment of ``discard_kinds``: whether some cards the seat may tick, sent
        together, would leave it one card (so "Say UNO!" is worth offering). ``legal``: the
        seat's commands as the API shows them."""
        return False

    # Options -------------------------------------------------------------------------------

    def option_fields(self) -> dict[str, forms.Field]:
        """The form fields of the edition's options (named without the edition's prefix)."""
        return {}

    def options_from(self, values: dict[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
        """The options the rules take (``parse_options``' input) from the cleaned ``values`` of
        ``option_fields``, and the errors, by field, of values that do not go together."""
        return {}, {}

    def option_error_field(self, field: str) -> str:
        """The option field a rule error's ``field`` ("options.x...") is about."""
        return ""

    def option_lines(self, options: tuple[tuple[str, Any], ...]) -> list[str]:
        """A game's (parsed) options in words."""
        return []

    # Setting up a position (``games.pages.setting_up``) ------------------------------------

    # What the player whose turn it is may be doing in a described position beyond classic
    # UNO's moments: (the pending kind, in words).
    setup_moments: ClassVar[tuple[tuple[str, str], ...]] = ()
    # The heading of the edition's own fields on the set-up form, after its title ("the
    # Power Towers").
    setup_legend: ClassVar[str] = ""

    def setup_fields(self) -> dict[str, forms.Field]:
        """The set-up form's fields for the edition's own state (named without the edition's
        prefix)."""
        return {}

    def setup_part(self, values: dict[str, Any], moment: str, table: SetUpTable) -> SetUpPart:
        """The edition's part of a described position, from the cleaned ``values`` of
        ``setup_fields``, what the player does now (``moment``: a pending kind) and the
        ``table`` described."""
        return SetUpPart()

    def state_as_a_hand_starts(
        self, table: SetUpTable, options: tuple[tuple[str, Any], ...] = ()
    ) -> dict[str, Any]:
        """The edition's state as a hand starts at ``table`` (with the game's ``options``, as
        the rules parse them; the edition's defaults if none), as a position writes it: for a
        ``setup_part`` that changes part of it."""
        return default_extra(get_variant(self.name), len(table.names), options).to_dict()
