"""The game API's input and output shapes (API.md). Parsing only: no rules, no writes.

Input is strict, like the engine's command parser: a JSON number is not a string, ``"9"`` is not
a version, and an unknown field is an error naming it, so a typo never silently means a default.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import fields
from typing import Any

from django.core.validators import RegexValidator
from drf_spectacular.extensions import (
    OpenApiSerializerExtension,
    OpenApiSerializerFieldExtension,
)
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.models import KEY_LENGTH, Game, Seat
from rules.cards import CARD_PATTERN
from rules.commands import COMMAND_TYPES, MAX_HAND_POINTS, play_fields
from rules.engine import MAX_PLAYERS, MIN_PLAYERS, SCORINGS
from rules.variants import load_all, variant_names
from rules.views import event_view


def present_game(
    game: Game, view: dict[str, Any], *, secrets: bool = False, seats: Sequence[Seat] = ()
) -> dict[str, Any]:
    """``rules.views.game_view`` with what only the store knows: the game's id, whether a person
    chose its seed (a practice game), whether it was set up from a position, each seat's
    player and (``secrets``: for its referee) each seat's secret. ``seats``: the game's seats
    when the caller has them already."""
    by_number = {s.seat: s for s in (seats or game.seats.all())}
    rows = []
    for row in view["seats"]:
        seat = by_number[row["seat"]]
        extra = {"player": seat.player, **({"secret": seat.secret} if secrets else {})}
        rows.append({"seat": row["seat"], **extra, **{k: v for k, v in row.items() if k != "seat"}})
    closed = game.closed or None
    return {
        "id": str(game.pk),
        "seed_chosen": game.seed_chosen,
        "set_up": game.set_up,
        **view,
        "seats": rows,
        "closed": closed,
        **({"legal": []} if closed else {}),
    }


class StrictIntegerField(serializers.IntegerField):
    """A JSON whole number, nothing else (no ``"9"``, no ``9.5``, no ``true``)."""

    default_error_messages = {"invalid": "Expected a whole number."}

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return super().to_internal_value(data)


class QueryIntegerField(serializers.IntegerField):
    """A whole number in a query string: ASCII digits only (``int`` would also read ``+3``,
    ``1_0``, `` 3`` and other scripts' digits)."""

    default_error_messages = {"invalid": "Expected a whole number (digits 0-9 only)."}

    def to_internal_value(self, data: Any) -> int:
        if not isinstance(data, str) or not data.isascii() or not data.isdigit():
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictBooleanField(serializers.BooleanField):
    """A JSON ``true`` or ``false``."""

    default_error_messages = {"invalid": "Expected true or false."}

    def to_internal_value(self, data: Any) -> bool:
        if not isinstance(data, bool):
            self.fail("invalid")
        return data


class StrictCharField(serializers.CharField):
    """A JSON string (DRF's CharField would turn ``42`` into ``"42"``). Unless blank is allowed,
    it must hold more than white space (which is trimmed); it never holds a NUL character."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


# The schema of a StrictCharField says what its checks do: no NUL (PostgreSQL stores none) and,
# unless blank is allowed, something besides white space.
TEXT_PATTERN = r"^[^\u0000]*$"
NON_BLANK_PATTERN = r"^[^\u0000]*[^\s\u0000][^\u0000]*$"


class StrictCharFieldSchema(OpenApiSerializerFieldExtension):
    target_class = StrictCharField
    match_subclasses = True

    def map_serializer_field(self, auto_schema: Any, direction: Any) -> dict[str, Any]:
        schema = auto_schema._map_serializer_field(self.target, direction, bypass_extensions=True)
        if not self.target.allow_blank:
            schema["minLength"] = max(1, schema.get("minLength", 1))
        # A validator's own pattern (a card code's) says more; it is added after this.
        if not any(isinstance(v, RegexValidator) for v in self.target.validators):
            schema["pattern"] = TEXT_PATTERN if self.target.allow_blank else NON_BLANK_PATTERN
        return schema


MAX_SEED = 2**63 - 1
MAX_SEED_LENGTH = 100


@extend_schema_field(
    {
        "oneOf": [
            {"type": "integer", "minimum": 0, "maximum": MAX_SEED},
            {
                "type": "string",
                "minLength": 1,
                "maxLength": MAX_SEED_LENGTH,
                "pattern": TEXT_PATTERN,
            },
        ]
    }
)
class SeedField(serializers.Field):
    """A seed as the API takes it: a whole number from 0 to 2^63 - 1, or a string of 1 to 100
    characters."""

    default_error_messages = {
        "invalid": f"Expected a whole number from 0 to {MAX_SEED} or a string of 1 to "
        f"{MAX_SEED_LENGTH} characters."
    }

    def to_internal_value(self, data: Any) -> str:
        if isinstance(data, bool) or not isinstance(data, (int, str)):
            self.fail("invalid")
        if isinstance(data, int) and not 0 <= data <= MAX_SEED:
            self.fail("invalid")
        if isinstance(data, str) and not 1 <= len(data) <= MAX_SEED_LENGTH:
            self.fail("invalid")
        return str(data)

    def to_representation(self, value: Any) -> Any:
        return value


class StrictSerializer(serializers.Serializer):
    """Rejects fields it does not know, naming the first one."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, dict):
            unknown = sorted(set(data) - set(self.fields))
            if unknown:
                raise serializers.ValidationError({unknown[0]: "Unknown field."})
        return super().to_internal_value(data)


class StrictSerializerSchema(OpenApiSerializerExtension):
    """A strict serializer's schema says that it takes no other fields."""

    target_class = StrictSerializer
    match_subclasses = True

    def map_serializer(self, auto_schema: Any, direction: Any) -> dict[str, Any]:
        schema = auto_schema._map_serializer(self.target, direction, bypass_extensions=True)
        return {**schema, "additionalProperties": False}


# Requests -----------------------------------------------------------------------------------

# The ranges of numbers the API takes: beyond them a number means nothing, and would not fit
# the database's columns (a game's version, target and season are 32-bit).
MAX_TARGET = 100_000  # the most points a game is played to (a tournament's limit too)
MAX_VERSION = 2**31 - 1
MAX_ID = 2**31 - 1
MAX_SEAT = MAX_PLAYERS - 1
NAME_LENGTH = 100
CLAIM_LENGTH = NOTE_LENGTH = 2000
REASON_LENGTH = 500


def version_field(**kwargs: Any) -> StrictIntegerField:
    return StrictIntegerField(max_value=MAX_VERSION, **kwargs)


class GameCreateSerializer(StrictSerializer):
    variant = serializers.ChoiceField(choices=variant_names(), required=False)
    players = serializers.ListField(
        child=StrictCharField(max_length=NAME_LENGTH),
        min_length=MIN_PLAYERS,
        max_length=MAX_PLAYERS,
    )
    scoring = serializers.ChoiceField(choices=SCORINGS, required=False)
    target = StrictIntegerField(min_value=1, max_value=MAX_TARGET, required=False)
    seed = SeedField(required=False, allow_null=True, help_text="Without it, a random seed.")
    deck = serializers.ListField(
        child=StrictCharField(
            validators=[RegexValidator(CARD_PATTERN, "Unknown card code %(value)r.")]
        ),
        required=False,
        help_text="Draw order, top first (referee).",
    )
    dealer = StrictIntegerField(min_value=0, max_value=MAX_SEAT, required=False)
    options = serializers.DictField(required=False, help_text="The edition's settings.")
    season = StrictIntegerField(
        min_value=1, max_value=MAX_ID, required=False, help_text="The season the game counts for."
    )
    sheet = StrictBooleanField(
        required=False, default=False, help_text="A score sheet for a game played with cards."
    )


class CommandMetaSerializer(serializers.Serializer):
    """The two fields a command body carries besides the command itself."""

    expected_version = version_field(min_value=0, required=False, allow_null=True)
    key = StrictCharField(max_length=KEY_LENGTH, required=False, allow_null=True)


class CommandRequestSerializer(serializers.Serializer):
    """Documentation of a command body; the engine parses the command itself strictly
    (``rules.commands.command_from_dict``), and its schema is made from the same fields:
    ``CommandRequestSchema``."""


def _command_field_schema(kind: str) -> dict[str, Any]:
    """The schema of a command field of ``kind`` (``rules.commands``' field kinds)."""
    card = {"type": "string", "pattern": CARD_PATTERN}
    seat_map: dict[str, Any] = {"type": "object", "additionalProperties": False}
    if kind == "seat_cards":
        seat_map["properties"] = {
            str(seat): {"type": "array", "items": card} for seat in range(MAX_PLAYERS)
        }
    elif kind == "seat_points":
        points = {"type": "integer", "minimum": 0, "maximum": MAX_HAND_POINTS}
        seat_map["properties"] = {str(seat): points for seat in range(MAX_PLAYERS)}
    return {
        "card": card,
        "cards": {"type": "array", "items": card},
        "colour": {"type": "string", "pattern": "^[RGBYPO]$"},
        "bool": {"type": "boolean"},
        "seat": {"type": "integer", "minimum": 0, "maximum": MAX_SEAT},
        "words": {"type": "array", "items": {"type": "string"}},
        "word": {"type": "string"},
        "int": {"type": "integer"},
        "seat_cards": seat_map,
        "seat_points": seat_map,
    }[kind]


class CommandRequestSchema(OpenApiSerializerExtension):
    """A command body: one object per command type (every edition's), with exactly the fields
    the engine takes for it, plus ``expected_version`` and ``key``."""

    target_class = CommandRequestSerializer

    def map_serializer(self, auto_schema: Any, direction: Any) -> dict[str, Any]:
        load_all()  # the editions' command types
        meta = {
            "expected_version": {
                "type": "integer",
                "minimum": 0,
                "maximum": MAX_VERSION,
                "nullable": True,
                "description": "409 stale if the game has moved on.",
            },
            "key": {
                "type": "string",
                "minLength": 1,
                "maxLength": KEY_LENGTH,
                "pattern": NON_BLANK_PATTERN,
                "nullable": True,
                "description": "Idempotency key.",
            },
        }
        one_of = []
        for name, cls in sorted(COMMAND_TYPES.items()):
            # Patterns, not one-value enums: the schema's enum hook would make a component of
            # each and warn about their names.
            properties: dict[str, Any] = {"type": {"type": "string", "pattern": f"^{name}$"}}
            required = ["type"]
            # A play: the core's fields and each edition's own (``give``, ``towers``, ``rule``).
            for f in play_fields() if name == "play" else fields(cls):
                if f.name == "seat":
                    continue
                json_name = f.metadata.get("json", f.name)
                schema = _command_field_schema(f.metadata["kind"])
                if f.metadata.get("optional", True):
                    schema = {**schema, "nullable": True}
                elif "old" not in f.metadata:
                    required.append(json_name)
                properties[json_name] = schema
                if "old" in f.metadata:
                    # The field's former name, still taken for one version.
                    properties[json_name] = {
                        **schema,
                        "description": f"Required (or its former name `{f.metadata['old']}`).",
                    }
                    properties[f.metadata["old"]] = {
                        **schema,
                        "deprecated": True,
                        "description": f"The former name of `{json_name}`; both must agree.",
                    }
            one_of.append(
                {
                    "type": "object",
                    "title": name,
                    "properties": {**properties, **meta},
                    "required": required,
                    "additionalProperties": False,
                }
            )
        return {"oneOf": one_of, "description": "One command, as `legal` lists them."}


class EventsQuerySerializer(serializers.Serializer):
    after = QueryIntegerField(min_value=0, max_value=MAX_VERSION, required=False, default=0)


class ReplayQuerySerializer(serializers.Serializer):
    version = QueryIntegerField(min_value=0, max_value=MAX_VERSION, required=False)


class UndoSerializer(StrictSerializer):
    to_version = version_field(min_value=0)
    reason = StrictCharField(max_length=REASON_LENGTH)
    reopen = StrictBooleanField(
        required=False,
        default=False,
        help_text="Needed to undo a finished game (every hand was shown): the log records it.",
    )
    expected_version = version_field(
        min_value=0,
        required=False,
        allow_null=True,
        help_text="The version the referee saw: 409 stale, undoing nothing, if the game has "
        "moved on.",
    )
    key = StrictCharField(
        max_length=KEY_LENGTH,
        required=False,
        allow_null=True,
        help_text="Idempotency key, as a command's: the same undo sent again answers the first "
        "and undoes nothing more; the key with another undo is 409 key_clash.",
    )


class DisputeCreateSerializer(StrictSerializer):
    version = version_field(min_value=1, help_text="The event the dispute is about.")
    claim = StrictCharField(max_length=CLAIM_LENGTH)


class RulingSerializer(StrictSerializer):
    decision = serializers.ChoiceField(choices=["upheld", "rejected"])
    note = StrictCharField(max_length=NOTE_LENGTH, required=False, default="", allow_blank=True)
    undo_to = version_field(min_value=0, required=False, allow_null=True)
    reopen = StrictBooleanField(
        required=False, default=False, help_text="With undo_to on a finished game."
    )
    expected_version = version_field(
        min_value=0,
        required=False,
        allow_null=True,
        help_text="The version the referee saw: with undo_to, 409 stale, ruling and undoing "
        "nothing, if the game has moved on. A ruling that undoes nothing takes back no move, "
        "and does not compare it.",
    )


# Responses ----------------------------------------------------------------------------------


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField()


class SeatSecretSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    player = serializers.CharField()
    secret = serializers.CharField()
    link = serializers.URLField(
        help_text="The seat's private link to the table page: whoever opens it plays this seat."
    )


class GameCreatedSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    version = serializers.IntegerField()
    seats = SeatSecretSerializer(many=True)
    lobby = serializers.URLField(
        help_text="The table's lobby page (referees): every seat's link with its QR code."
    )


class SeatViewSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    player = serializers.CharField()
    card_count = serializers.IntegerField()
    score = serializers.IntegerField()
    uno_exposed = serializers.BooleanField()
    hand = serializers.ListField(
        child=serializers.CharField(), required=False, help_text="Own seat; referee; game over."
    )
    secret = serializers.CharField(required=False, help_text="Referee only.")


class PendingSerializer(serializers.Serializer):
    type = serializers.CharField()
    seat = serializers.IntegerField(allow_null=True)
    text = serializers.CharField()


class GameViewSerializer(serializers.Serializer):
    """The game as the caller may see it (``rules.views.game_view`` plus id and names)."""

    id = serializers.UUIDField()
    seed_chosen = serializers.BooleanField(
        help_text="A practice game whose seed a person chose (never a game that counts)."
    )
    set_up = serializers.BooleanField(
        help_text="Started from a position a referee set up (docs/POSITION.md; never counts)."
    )
    variant = serializers.CharField()
    scoring = serializers.CharField()
    target = serializers.IntegerField()
    version = serializers.IntegerField()
    status = serializers.ChoiceField(choices=["new", "playing", "finished"])
    hand_number = serializers.IntegerField()
    dealer = serializers.IntegerField()
    turn = serializers.IntegerField(allow_null=True)
    direction = serializers.IntegerField()
    top_card = serializers.CharField(allow_null=True)
    colour = serializers.CharField(allow_null=True)
    draw_pile_count = serializers.IntegerField()
    discard_count = serializers.IntegerField()
    pending = PendingSerializer()
    seats = SeatViewSerializer(many=True)
    legal = serializers.ListField(child=serializers.DictField(), help_text="Commands to send now.")
    closed = serializers.CharField(
        allow_null=True,
        help_text="Why the game takes no more moves although it is not over (a tournament "
        "table a director decided); `legal` is empty then. Null while it plays.",
    )
    winner = serializers.IntegerField(allow_null=True)
    placings = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    last_hand = serializers.DictField(allow_null=True)
    drawn = serializers.CharField(required=False, help_text="The card just drawn (own seat).")
    draw_pile = serializers.ListField(
        child=serializers.CharField(), required=False, help_text="Referee; game over."
    )


class EventSerializer(serializers.Serializer):
    """One event of the log as the caller may see it (context: ``viewer``, the caller's seat;
    ``revealed``, the caller may see everything: a referee, or anyone once the game is over).

    Hidden data stays out of ``data`` and ``key``, and out of everything else too: ``hash``
    and ``commitment`` are taken over a secret ``salt`` (games.chain), published once the
    game is revealed, when anyone can recompute the whole chain."""

    version = serializers.IntegerField()
    batch = serializers.IntegerField(help_text="The version of the command's first event.")
    type = serializers.CharField()
    data = serializers.SerializerMethodField()
    actor = serializers.CharField()
    recorded_at = serializers.DateTimeField()
    commitment = serializers.CharField(
        help_text="sha256 over the salt, the data and the key (docs/TRUST.md)."
    )
    hash = serializers.SerializerMethodField(
        help_text="The chain's hash over the event before it, the public fields and the "
        "commitment; null for an event recorded before commitments while the game is on."
    )
    salt = serializers.SerializerMethodField(help_text="Published once the game is revealed.")
    key = serializers.SerializerMethodField(
        help_text="The command's idempotency key, once the game is revealed."
    )
    signature = serializers.CharField(
        help_text="On a command's last event: the server's Ed25519 signature of the chain head "
        "(`key id:hex`), checked with GET /api/chain/keys/."
    )

    def to_representation(self, row: Any) -> dict[str, Any]:
        # The fields above document the shape (the schema); this makes it, once per event.
        return event_json(row, self.context.get("viewer"), revealed=self.context["revealed"])

    @extend_schema_field(OpenApiTypes.OBJECT)
    def get_data(self, row: Any) -> dict[str, Any]:  # for the schema only
        raise NotImplementedError

    @extend_schema_field({"type": "string", "nullable": True})
    def get_hash(self, row: Any) -> str | None:  # for the schema only
        raise NotImplementedError

    @extend_schema_field({"type": "string", "nullable": True})
    def get_salt(self, row: Any) -> str | None:  # for the schema only
        raise NotImplementedError

    @extend_schema_field({"type": "string", "nullable": True})
    def get_key(self, row: Any) -> str | None:  # for the schema only
        raise NotImplementedError


def event_json(row: Any, viewer: int | None, *, revealed: bool) -> dict[str, Any]:
    """One event of the log in the API's shape (``EventSerializer``), as ``viewer`` may see it;
    ``revealed``: everything (a referee, or the game is revealed)."""
    if revealed:
        # As recorded, so that it opens the commitment (and needs no decoding).
        data = {"type": row.type, **row.data}
    else:
        data = event_view(row.to_rules_event(), viewer)
    return {
        "version": row.version,
        "batch": row.batch,
        "type": row.type,
        "data": data,
        "actor": row.actor,
        "recorded_at": _timestamp(row.recorded_at),
        "commitment": row.commitment,
        # An event from before commitments is hashed over its data: no guess may be tested.
        "hash": row.hash if row.commitment or revealed else None,
        "salt": row.salt if revealed else None,
        "key": row.key if revealed else None,
        "signature": row.signature,
    }


_timestamp = serializers.DateTimeField().to_representation


class ReceiptSerializer(serializers.Serializer):
    """What the server signed after a command: keep it, and check it against the log once the
    game is over (games.chain.verify_revealed_log)."""

    game = serializers.UUIDField()
    version = serializers.IntegerField(help_text="The game's version after the command.")
    head = serializers.CharField(help_text="The hash of the event at that version.")
    signature = serializers.CharField(help_text="`key id:hex`, Ed25519 over the head.")


class CommandResultSerializer(serializers.Serializer):
    version = serializers.IntegerField(help_text="The game's version after the command.")
    events = EventSerializer(
        many=True, help_text="The events it caused, as the caller may see them."
    )
    receipt = ReceiptSerializer()


class ChainKeySerializer(serializers.Serializer):
    id = serializers.CharField(help_text="The key id written before each of its signatures.")
    public_key = serializers.CharField(help_text="The Ed25519 public key, 32 bytes in hex.")
    current = serializers.BooleanField(help_text="False for a retired key.")


class ChainKeysSerializer(serializers.Serializer):
    algorithm = serializers.CharField()
    keys = ChainKeySerializer(many=True)


class SignedSeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    player = serializers.CharField()
    bot = serializers.BooleanField(help_text="A bot plays this seat.")


class SeatingSerializer(serializers.Serializer):
    """Who sits where, with the server's signature of it (``games.seating``)."""

    game = serializers.UUIDField()
    seats = SignedSeatSerializer(many=True)
    season = serializers.IntegerField(allow_null=True, help_text="The season the game counts for.")
    counts_for = serializers.ListField(
        child=serializers.ListField(),
        help_text="What counts the game and who sits where for it: for a league, "
        '`["league", season, night, [league player id at each seat]]`; for a tournament, '
        '`["tournament", tournament, round, table, [name at each seat]]`.',
    )
    signature = serializers.CharField(
        help_text='`key id:hex`: the Ed25519 signature of the JSON array `["uno-seating-v1", '
        "game, [[[seat, player, bot], ...], season, counts_for]]` without spaces and with "
        "sorted keys. Empty for a game never signed."
    )


class DisputeSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    version = serializers.IntegerField(help_text="The event the claim is about.")
    claim = serializers.CharField()
    opened_by = serializers.CharField(help_text='"seat:2" or "user:7"')
    opened_at = serializers.DateTimeField()
    status = serializers.ChoiceField(choices=["open", "upheld", "rejected"])
    note = serializers.CharField(source="ruling", help_text="The referee's note.")
    undo_to = serializers.IntegerField(allow_null=True)
    ruled_by = serializers.CharField()
    ruled_at = serializers.DateTimeField(allow_null=True)


class UndoResultSerializer(serializers.Serializer):
    version = serializers.IntegerField()


class ErrorSerializer(serializers.Serializer):
    error = serializers.ChoiceField(
        choices=["invalid", "forbidden", "not_found", "illegal", "stale", "key_clash", "throttled"]
    )
    detail = serializers.JSONField()
    version = serializers.IntegerField(required=False)


class GameSetUpSerializer(StrictSerializer):
    """A game started from a position (docs/POSITION.md) by its referee."""

    position = StrictCharField(
        max_length=20_000, help_text="The position, one line (docs/POSITION.md)."
    )
    players = serializers.ListField(
        child=StrictCharField(max_length=NAME_LENGTH),
        min_length=MIN_PLAYERS,
        max_length=MAX_PLAYERS,
        help_text="A name per seat, as many as the position has seats.",
    )
    season = StrictIntegerField(
        min_value=1,
        max_value=MAX_ID,
        required=False,
        help_text="Refused: a game set up from a position never counts.",
    )
