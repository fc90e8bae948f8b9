"""Admin pages of leagues: organisers edit leagues, seasons, nights and players here.

The standings tables (results, night rows, standing rows, rating history) are projections of
the event log: they are shown read-only, and corrected by undoing a game's events, never by
editing a row. A season's standings options are saved through the service that recomputes the
table, and a table moved to another night through the one that moves its result with it.
"""

from django import forms
from django.contrib import admin, messages
from django.db.models import Prefetch

from rules import IllegalCommand, InvalidCommand
from tournaments.leagues import services
from tournaments.leagues.models import (
    GameResult,
    League,
    Night,
    NightRow,
    Organiser,
    Player,
    RatingHistory,
    Referee,
    Season,
    SeasonGame,
    SeasonSeat,
    StandingRow,
)


class OrganiserInline(admin.TabularInline):
    model = Organiser
    extra = 0
    autocomplete_fields = ["user"]


class RefereeInline(admin.TabularInline):
    model = Referee
    fk_name = "league"
    extra = 0
    fields = ["user", "named_by", "named_at"]
    readonly_fields = ["named_by", "named_at"]
    autocomplete_fields = ["user"]


# What a season's table is computed with: a change recomputes it from the results.
TABLE_FIELDS = frozenset({"best_nights", "attendance_points", "scoring"})


class SeasonForm(forms.ModelForm):
    """A season as the admin edits it, checked as the pages and the API check it."""

    class Meta:
        model = Season
        fields = [
            *("league", "name", "variant", "scoring", "target"),
            *("best_nights", "attendance_points", "created_at"),
        ]

    def clean(self):
        cleaned = super().clean()
        try:
            services._standings_options(
                cleaned.get("best_nights"), cleaned.get("attendance_points") or 0
            )
        except InvalidCommand as exc:
            self.add_error(exc.field, str(exc))
        return cleaned


class LeagueForm(forms.ModelForm):
    class Meta:
        model = League
        fields = ["name", "variant", "scoring", "target", "options", "created_by", "created_at"]

    def clean_options(self):
        return self.cleaned_data.get("options") or {}  # (emptied: no house rules, not null)


class SeasonInline(admin.TabularInline):
    model = Season
    form = SeasonForm
    extra = 0
    fields = ["name", "variant", "scoring", "target", "best_nights", "attendance_points"]
    show_change_link = True


@admin.register(League)
class LeagueAdmin(admin.ModelAdmin):
    form = LeagueForm
    list_display = ["name", "variant", "scoring", "target", "created_at"]
    search_fields = ["name"]
    readonly_fields = ["created_at"]
    inlines = [OrganiserInline, RefereeInline, SeasonInline]

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        if not change:
            return
        # The seasons whose table is computed otherwise now: edited here, or following the
        # league's scoring when it changed.
        seasons = {}
        if "scoring" in form.changed_data:
            seasons = {s.pk: s for s in form.instance.seasons.filter(scoring="")}
        for formset in formsets:
            if formset.model is Season:
                for season_form in formset.forms:
                    season = season_form.instance
                    if season.pk and TABLE_FIELDS & set(season_form.changed_data):
                        seasons[season.pk] = season
        for season in seasons.values():
            services.recompute_standings(season=season)


@admin.register(Organiser)
class OrganiserAdmin(admin.ModelAdmin):
    list_display = ["user", "league"]
    list_select_related = ["user", "league"]
    autocomplete_fields = ["user", "league"]


@admin.register(Referee)
class RefereeAdmin(admin.ModelAdmin):
    """Named referees of a league or a tournament (also named on their pages)."""

    list_display = ["user", "league", "tournament", "named_by", "named_at"]
    list_select_related = ["user", "league", "tournament", "named_by"]
    autocomplete_fields = ["user", "league"]
    readonly_fields = ["named_by", "named_at"]
    search_fields = ["user__username", "league__name", "tournament__name"]


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
    form = SeasonForm
    list_display = ["name", "league", "scoring", "target", "best_nights", "attendance_points"]
    list_filter = ["league"]
    list_select_related = ["league"]
    search_fields = ["name", "league__name"]
    readonly_fields = ["created_at"]
    inlines = [NightInline]

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        # Options, scoring: anything the table is computed with. Recompute from the results.
        if change and TABLE_FIELDS & set(form.changed_data):
            services.recompute_standings(season=obj)


@admin.register(Night)
class NightAdmin(admin.ModelAdmin):
    list_display = ["__str__", "season", "date", "closed_at"]
    list_filter = ["season"]
    list_select_related = ["season"]


class SeasonSeatInline(admin.TabularInline):
    model = SeasonSeat
    extra = 0
    can_delete = False
    readonly_fields = ["seat", "player"]

    def has_add_permission(self, request, obj=None):
        return False


class SeasonGameForm(forms.ModelForm):
    """A season's table as the admin edits it: only its night, one of its own season's, and
    moved through the service that moves its result with it."""

    class Meta:
        model = SeasonGame
        fields = ["night"]
        help_texts = {
            "night": "Moving a table moves its result: both nights' rows and the season's "
            "standings are made again from the games."
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        season = self.instance.season
        night = self.fields["night"]
        night.queryset = Night.objects.filter(season=season).select_related("season")
        night.error_messages["invalid_choice"] = (
            f"Choose a night of {season.name}: a table stays in the season it was played for."
        )

    def clean_night(self):
        night = self.cleaned_data["night"]
        game = self.instance.game
        refusal = services.move_refusal(
            season_game=self.instance, night=night, over=game.status == game.Status.FINISHED
        )
        if refusal is not None:
            raise forms.ValidationError(str(refusal))
        return night


@admin.register(SeasonGame)
class SeasonGameAdmin(admin.ModelAdmin):
    form = SeasonGameForm
    list_display = ["players", "season", "night", "status", "created_at"]
    list_filter = ["season"]
    list_select_related = ["season", "night", "game"]
    readonly_fields = ["game", "season", "created_at"]
    inlines = [SeasonSeatInline]

    def get_queryset(self, request):
        seats = SeasonSeat.objects.select_related("player").order_by("seat")
        return super().get_queryset(request).prefetch_related(Prefetch("seats", queryset=seats))

    @admin.display(description="table")
    def players(self, obj: SeasonGame) -> str:
        """Who sat at the table, in seat order: what a club knows a table by."""
        return ", ".join(seat.player.name for seat in obj.seats.all())

    @admin.display(description="game")
    def status(self, obj: SeasonGame) -> str:
        return obj.game.get_status_display()

    def has_add_permission(self, request):
        return False  # games join a season through start_season_game (or POST /api/games/)

    def has_delete_permission(self, request, obj=None):
        # Deleting the row left its results counting in the standings, with no game behind
        # them. A table seated by mistake is taken off on its night's page
        # (services.take_table_off); a hand played is corrected by the referee's undo.
        return False

    def save_model(self, request, obj, form, change):
        if "night" not in form.changed_data:
            return
        try:
            services.move_table(game_id=obj.game_id, night=obj.night)
        except (InvalidCommand, IllegalCommand) as exc:
            # Checked as the form was cleaned; the game moved on meanwhile (it ended, a
            # player sat down at the night): said, and nothing moved.
            self.message_user(request, str(exc), messages.ERROR)


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
