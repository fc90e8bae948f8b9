"""The tournaments app: hooks itself into games (which never imports it) when Django starts."""

from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"

    def ready(self) -> None:
        from games import projections, registry
        from tournaments import services, tournament_listeners, tournament_services
        from tournaments.projections import standings_projector

        # Standings follow every append, in its transaction; organisers referee their
        # seasons' games; POST /api/games/ with "season" starts a season game.
        projections.register(standings_projector)
        if services.is_season_referee not in registry.referee_checks:
            registry.referee_checks.append(services.is_season_referee)
        registry.start_season_game = services.start_season_game_for_api
        # Tournaments: organisers referee their tables; a table's end seats the next round
        # and a turn's start sets its timer (both through Celery tasks).
        if tournament_services.is_tournament_referee not in registry.referee_checks:
            registry.referee_checks.append(tournament_services.is_tournament_referee)
        # A duplicate-deal table stays hidden until every table of its round has finished.
        if tournament_services.round_revealed not in registry.reveal_checks:
            registry.reveal_checks.append(tournament_services.round_revealed)
        if tournament_listeners.after_append not in registry.on_game_event:
            registry.on_game_event.append(tournament_listeners.after_append)
