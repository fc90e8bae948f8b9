"""The game API's input and output shapes (API.md). Parsing only: no rules, no writes.

Input is strict, like the engine's command parser: a JSON number is not a string, ``"9"`` is not
a version, and an unknown field is an error naming it, so a typo never silently means a default.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.models import Game
from rules.engine import MAX_PLAYERS, MIN_PLAYERS, SCORINGS
from rules.variants import variant_names
from rules.views import event_view


def present_game(game: Game, view: dict[str, Any], *, secrets: bool = False) -> dict[str, Any]:
    """``rules.views.game_view`` with what only the store knows: the game's id, whether a person
    chose its seed (a practice game), each seat's player and (``secrets``: for its referee)
    each seat's secret."""
    seats = {s.seat: s for s in game.seats.all()}
    rows = []
    for row in view["seats"]:
        seat = seats[row["seat"]]
        extra = {"player": seat.player, **({"secret": seat.secret} if secrets else {})}
        rows.append({"seat": row["seat"], **extra, **{k: v for k, v in row.items() if k != "seat"}})
    return {"id": str(game.pk), "seed_chosen": game.seed_chosen, **view, "seats": rows}


class StrictIntegerField(serializers.IntegerField):
    """A JSON whole number, nothing else (no ``"9"``, no ``9.5``, no ``true``)."""

    default_error_messages = {"invalid": "Expected a whole number."}

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int):
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
    """A JSON string (DRF's CharField would turn ``42`` into ``"42"``)."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


@extend_schema_field({"oneOf": [{"type": "integer"}, {"type": "string"}]})
class SeedField(serializers.Field):
    """A seed as the API takes it: a whole number or a non-empty string."""

    default_error_messages = {"invalid": "Expected a whole number or a non-empty string."}

    def to_internal_value(self, data: Any) -> str:
        if isinstance(data, bool) or not isinstance(data, (int, str)) or data == "":
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


# Requests -----------------------------------------------------------------------------------


class GameCreateSerializer(StrictSerializer):
    variant = serializers.ChoiceField(choices=variant_names(), required=False)
    players = serializers.ListField(
        child=StrictCharField(max_length=100), min_length=MIN_PLAYERS, max_length=MAX_PLAYERS
    )
    scoring = serializers.ChoiceField(choices=SCORINGS, required=False)
    target = StrictIntegerField(min_value=1, required=False)
    seed = SeedField(required=False, allow_null=True, help_text="Without it, a random seed.")
    deck = serializers.ListField(
        child=StrictCharField(), required=False, help_text="Draw order, top first (referee)."
    )
    dealer = StrictIntegerField(min_value=0, required=False)
    options = serializers.DictField(required=False, help_text="The edition's settings.")
    season = StrictIntegerField(required=False, help_text="The season the game counts for.")
    sheet = StrictBooleanField(
        required=False, default=False, help_text="A score sheet for a game played with cards."
    )


class CommandMetaSerializer(serializers.Serializer):
    """The two fields a command body carries besides the command itself."""

    expected_version = StrictIntegerField(min_value=0, required=False, allow_null=True)
    key = StrictCharField(max_length=200, required=False, allow_null=True)


class CommandRequestSerializer(serializers.Serializer):
    """Documentation of a command body; the engine parses the command itself strictly."""

    type = serializers.CharField(help_text="play, draw, pass, call_uno, catch, challenge, ...")
    card = serializers.CharField(required=False, help_text="play: the card code")
    colour = serializers.CharField(required=False, help_text="play (wilds), choose_colour")
    uno = serializers.BooleanField(required=False, help_text="play: calls UNO with the play")
    seat = serializers.IntegerField(required=False, help_text="catch: the seat that did not call")
    expected_version = serializers.IntegerField(required=False, help_text="409 stale if older")
    key = serializers.CharField(required=False, help_text="idempotency key")


class EventsQuerySerializer(serializers.Serializer):
    after = serializers.IntegerField(min_value=0, required=False, default=0)


class ReplayQuerySerializer(serializers.Serializer):
    version = serializers.IntegerField(min_value=0, required=False)


class UndoSerializer(StrictSerializer):
    to_version = StrictIntegerField(min_value=0)
    reason = StrictCharField(max_length=500)
    reopen = StrictBooleanField(
        required=False,
        default=False,
        help_text="Needed to undo a finished game (every hand was shown): the log records it.",
    )


class DisputeCreateSerializer(StrictSerializer):
    version = StrictIntegerField(min_value=1, help_text="The event the dispute is about.")
    claim = StrictCharField(max_length=2000)


class RulingSerializer(StrictSerializer):
    decision = serializers.ChoiceField(choices=["upheld", "rejected"])
    note = StrictCharField(max_length=2000, required=False, default="", allow_blank=True)
    undo_to = StrictIntegerField(min_value=0, required=False, allow_null=True)
    reopen = StrictBooleanField(
        required=False, default=False, help_text="With undo_to on a finished game."
    )


# Responses ----------------------------------------------------------------------------------


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField()


class SeatSecretSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    player = serializers.CharField()
    secret = serializers.CharField()


class GameCreatedSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    version = serializers.IntegerField()
    seats = SeatSecretSerializer(many=True)


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

    @extend_schema_field(OpenApiTypes.OBJECT)
    def get_data(self, row: Any) -> dict[str, Any]:
        ctx = self.context
        if ctx["revealed"]:
            # As recorded, so that it opens the commitment (and needs no decoding).
            return {"type": row.type, **row.data}
        return event_view(row.to_rules_event(), ctx.get("viewer"))

    @extend_schema_field({"type": "string", "nullable": True})
    def get_hash(self, row: Any) -> str | None:
        # An event from before commitments is hashed over its data: no guess may be tested.
        return row.hash if row.commitment or self.context["revealed"] else None

    @extend_schema_field({"type": "string", "nullable": True})
    def get_salt(self, row: Any) -> str | None:
        return row.salt if self.context["revealed"] else None

    @extend_schema_field({"type": "string", "nullable": True})
    def get_key(self, row: Any) -> str | None:
        return row.key if self.context["revealed"] else None


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
        choices=["invalid", "forbidden", "not_found", "illegal", "stale", "key_clash"]
    )
    detail = serializers.JSONField()
    version = serializers.IntegerField(required=False)
