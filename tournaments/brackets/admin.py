"""Admin pages of tournaments: tournaments and their rounds, read-only, with the services as
actions; "add tournament" is the site's new-tournament form, calling the same service."""

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import reverse

from tournaments.brackets import selectors, services
from tournaments.brackets.forms import TournamentForm
from tournaments.brackets.models import Entry, Round, Ruling, Table, Tournament

# A tournament is changed through its services (entries, drop-outs, starting, seating), never
# by editing rows: the admin shows everything read-only and offers the services as actions.
# Adding one is services.create_tournament, through the form the site's page uses.


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
    fields = [
        *("sequence", "created_at", "round_number", "table_number", "kind", "against", "reason"),
        "players",
        "by",
    ]
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False

    @admin.display(description="against")
    def against(self, ruling: Ruling) -> str:
        """Who forfeited, was disqualified or did not show (as the tournament page says)."""
        rows = selectors.rulings_against(ruling.tournament)
        return ", ".join(next((who for r, who in rows if r.pk == ruling.pk), []))


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

    def add_view(self, request, form_url="", extra_context=None):
        """The new-tournament form (the site's own, ``TournamentForm``): the settings checked
        field by field and the players seeded by ``services.create_tournament``; the staff
        member who adds it becomes its organiser."""
        if not self.has_add_permission(request):
            raise PermissionDenied
        form = TournamentForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            tournament = form.create(organiser=request.user)
            if tournament is not None:
                self.log_addition(request, tournament, [{"added": {}}])
                self.message_user(
                    request,
                    f"{tournament} is created, with you as its organiser: enter players and "
                    "start it from its page, or start it here.",
                    messages.SUCCESS,
                )
                opts = self.opts
                return redirect(
                    reverse(
                        f"admin:{opts.app_label}_{opts.model_name}_change", args=[tournament.pk]
                    )
                )
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "title": "Add tournament",
            "form": form,
            "page_url": reverse("tournaments:tournament-create"),
            "has_view_permission": self.has_view_permission(request),
            **(extra_context or {}),
        }
        status = 400 if form.is_bound else 200
        return TemplateResponse(
            request, "tournaments/tournament_admin_add.html", context, status=status
        )

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
