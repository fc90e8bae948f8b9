"""Admin pages of the tournaments app: organisers edit leagues, seasons, nights and players here.

The standings tables (results, night rows, standing rows, rating history) are projections of
the event log: they are shown read-only, and corrected by undoing a game's events, never by
editing a row. A season's standings options are saved through the service that recomputes the
table.
"""

from django.contrib import admin, messages

from tournaments import services, tournament_services
from tournaments.models import (
    Entry,
    GameResult,
    League,
    Night,
    NightRow,
    Organiser,
    Player,
    RatingHistory,
    Round,
    Season,
    SeasonGame,
    SeasonSeat,
    StandingRow,
    Table,
    Tournament,
)


class OrganiserInline(admin.TabularInline):
    model = Organiser
    extra = 0
    autocomplete_fields = ["user"]


class SeasonInline(admin.TabularInline):
    model = Season
    extra = 0
    fields = ["name", "variant", "scoring", "target", "best_nights", "attendance_points"]
    show_change_link = True


@admin.register(League)
class LeagueAdmin(admin.ModelAdmin):
    list_display = ["name", "variant", "scoring", "target", "created_at"]
    search_fields = ["name"]
    readonly_fields = ["created_at"]
    inlines = [OrganiserInline, SeasonInline]


@admin.register(Organiser)
class OrganiserAdmin(admin.ModelAdmin):
    list_display = ["user", "league"]
    list_select_related = ["user", "league"]
    autocomplete_fields = ["user", "league"]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "league", "user"]
    list_filter = ["league"]
    list_select_related = ["league", "user"]
    search_fields = ["name"]
    autocomplete_fields = ["user"]


class NightInline(admin.TabularInline):
    model = Night
    extra = 0


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ["name", "league", "scoring", "target", "best_nights", "attendance_points"]
    list_filter = ["league"]
    list_select_related = ["league"]
    search_fields = ["name", "league__name"]
    readonly_fields = ["created_at"]
    inlines = [NightInline]

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        # Options, scoring: anything the table is computed with. Recompute from the results.
        if change and {"best_nights", "attendance_points", "scoring"} & set(form.changed_data):
            services.recompute_standings(season=obj)


@admin.register(Night)
class NightAdmin(admin.ModelAdmin):
    list_display = ["__str__", "season", "date"]
    list_filter = ["season"]
    list_select_related = ["season"]


class SeasonSeatInline(admin.TabularInline):
    model = SeasonSeat
    extra = 0
    can_delete = False
    readonly_fields = ["seat", "player"]

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(SeasonGame)
class SeasonGameAdmin(admin.ModelAdmin):
    list_display = ["game", "season", "night", "created_at"]
    list_filter = ["season"]
    list_select_related = ["season", "night", "game"]
    readonly_fields = ["game", "season", "created_at"]
    inlines = [SeasonSeatInline]

    def has_add_permission(self, request):
        return False  # games join a season through start_season_game (or POST /api/games/)


class ProjectionAdmin(admin.ModelAdmin):
    """Read-only: a projection is fixed by fixing the log (undo), then it follows."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(StandingRow)
class StandingRowAdmin(ProjectionAdmin):
    list_display = ["player", "season", "games", "wins", "points", "hands_won", "rating"]
    list_filter = ["season"]
    list_select_related = ["player", "season"]


@admin.register(NightRow)
class NightRowAdmin(ProjectionAdmin):
    list_display = ["player", "night", "games", "wins", "points", "hands_won"]
    list_filter = ["season"]
    list_select_related = ["player", "night"]


@admin.register(GameResult)
class GameResultAdmin(ProjectionAdmin):
    list_display = ["game", "seat", "player", "rank", "won", "score", "hands_won", "finished_at"]
    list_filter = ["season"]
    list_select_related = ["player"]


@admin.register(RatingHistory)
class RatingHistoryAdmin(ProjectionAdmin):
    list_display = ["player", "game", "rank", "rating_before", "rating", "sigma"]
    list_filter = ["season"]
    list_select_related = ["player"]


# Tournaments -------------------------------------------------------------------------------
# A tournament is changed through its services (entries, drop-outs, starting, seating), never
# by editing rows: the admin shows everything read-only and offers the services as actions.


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    fields = ["seed", "player", "joined", "dropped"]
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
    inlines = [EntryInline, RoundInline]
    actions = ["start", "seat_next_round"]

    def has_add_permission(self, request):
        return False  # POST /api/tournaments/ validates the settings and seeds the entries

    @admin.action(description="Start: seat round 1")
    def start(self, request, queryset):
        for tournament in queryset:
            try:
                tournament_services.start_tournament(
                    tournament_id=tournament.pk
                )  # staff act as the system
            except ValueError as exc:
                self.message_user(request, f"{tournament}: {exc}", level=messages.ERROR)
            else:
                self.message_user(request, f"{tournament}: round 1 seated")

    @admin.action(description="Seat the next round if the current one is complete")
    def seat_next_round(self, request, queryset):
        for tournament in queryset:
            seated = tournament_services.seat_next_round(tournament_id=tournament.pk)
            text = f"round {seated.number} seated" if seated else "nothing to seat yet"
            self.message_user(request, f"{tournament}: {text}")


class TableInline(admin.TabularInline):
    model = Table
    extra = 0
    fields = ["number", "game", "players", "status", "placings"]
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
