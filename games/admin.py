"""Admin pages of the games app, for organisers.

A game's truth is its event log, so the admin shows games and their events but changes neither:
games are created, played, undone and ruled on through the services (the API and the pages).
What the admin may change is who sits where (a seat's player name and account: the server signs
the seating again, ``games.seating``) and who else referees a game.
"""

from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html

from games import seating
from games.models import Dispute, Event, Game, GameReferee, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    fields = ("seat", "player", "user", "secret")
    readonly_fields = ("seat", "secret")
    raw_id_fields = ("user",)
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False  # a game's seats are fixed when it starts


class GameRefereeInline(admin.TabularInline):
    model = GameReferee
    raw_id_fields = ("user",)
    extra = 0


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = (
        "id",
        "variant",
        "scoring",
        "target",
        "status",
        "version",
        "sheet",
        "created_at",
    )
    list_filter = ("status", "variant", "scoring", "sheet")
    search_fields = ("id", "seats__player")
    date_hierarchy = "created_at"
    inlines = [SeatInline, GameRefereeInline]
    fields = (
        "id",
        "variant",
        "scoring",
        "target",
        "status",
        "version",
        "sheet",
        "season_id",
        "created_by",
        "created_at",
        "event_log",
    )
    readonly_fields = fields

    @admin.display(description="events")
    def event_log(self, game):
        url = reverse("admin:games_event_changelist") + f"?game__id__exact={game.pk}"
        return format_html('<a href="{}">the {} events of this game</a>', url, game.version)

    def has_add_permission(self, request):
        return False  # through the services, which deal the first hand

    def save_related(self, request, form, formsets, change):
        # A name corrected at a seat: the server signs who sat where again.
        with seating.resealing(form.instance.pk):
            super().save_related(request, form, formsets, change)

    def has_delete_permission(self, request, obj=None):
        return False  # the log is append-only


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    """The log, read-only: nobody may add, change or delete an event here."""

    list_display = ("position", "game", "version", "type", "actor", "recorded_at")
    list_filter = ("type",)
    search_fields = ("game__id", "actor", "key")
    ordering = ("game", "version")
    list_select_related = ("game",)
    show_full_result_count = False

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Dispute)
class DisputeAdmin(admin.ModelAdmin):
    """Disputes are opened and ruled on through the services (a ruling may rewind the game);
    the admin lists them."""

    list_display = ("id", "game", "version", "status", "opened_by", "opened_at", "ruled_by")
    list_filter = ("status",)
    search_fields = ("game__id", "claim", "ruling")
    readonly_fields = (
        "game",
        "version",
        "claim",
        "opened_by",
        "opened_at",
        "status",
        "ruling",
        "undo_to",
        "ruled_by",
        "ruled_at",
    )

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
