"""Admin pages of tournaments: tournaments and their rounds, read-only, with the services as
actions."""

from django.contrib import admin, messages

from tournaments.brackets import services
from tournaments.brackets.models import Entry, Round, Ruling, Table, Tournament

# A tournament is changed through its services (entries, drop-outs, starting, seating), never
# by editing rows: the admin shows everything read-only and offers the services as actions.


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    fields = ["seed", "player", "joined", "checked_in", "dropped"]
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


class RoundInline(admin.TabularInline):
    model = Round
    extra = 0
    fields = ["number", "kind", "status", "byes"]
    readonly_fields = fields
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request, obj=None):
        return False


class RulingInline(admin.TabularInline):
    """The director's decisions, as recorded (an audit log: never edited)."""

    model = Ruling
    extra = 0
    fields = ["created_at", "round_number", "table_number", "kind", "reason", "players", "by"]
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "format", "variant", "table_size", "status", "winner", "created_at"]
    list_filter = ["status", "format", "variant"]
    search_fields = ["name", "winner"]
    # Seeds are never shown, not even here: a seat that read one could work out the deals.
    exclude = ["legacy_seed"]
    readonly_fields = [
        f.name
        for f in Tournament._meta.concrete_fields
        if f.name not in ("id", "name", "legacy_seed")
    ]
    inlines = [EntryInline, RoundInline, RulingInline]
    actions = ["start", "seat_next_round"]

    def has_add_permission(self, request):
        return False  # POST /api/tournaments/ validates the settings and seeds the entries

    @admin.action(description="Start: seat round 1")
    def start(self, request, queryset):
        for tournament in queryset:
            try:
                services.start_tournament(tournament_id=tournament.pk)  # staff act as the system
            except ValueError as exc:
                self.message_user(request, f"{tournament}: {exc}", level=messages.ERROR)
            else:
                self.message_user(request, f"{tournament}: round 1 seated")

    @admin.action(description="Seat the next round if the current one is complete")
    def seat_next_round(self, request, queryset):
        for tournament in queryset:
            seated = services.seat_next_round(tournament_id=tournament.pk)
            text = f"round {seated.number} seated" if seated else "nothing to seat yet"
            self.message_user(request, f"{tournament}: {text}")


class TableInline(admin.TabularInline):
    model = Table
    extra = 0
    fields = ["number", "game", "players", "status", "placings", "decided_by", "absent"]
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["tournament", "number", "kind", "status"]
    list_filter = ["status", "kind"]
    list_select_related = ["tournament"]
    exclude = ["seed"]  # never shown: it tells every shuffle of the round's tables
    readonly_fields = ["tournament", "number", "kind", "status", "byes", "deck", "created_at"]
    inlines = [TableInline]

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
