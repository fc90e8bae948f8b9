"""The tournaments app: leagues (``tournaments.leagues``) and tournaments
(``tournaments.brackets``). It hooks both into games (which never imports them) when Django
starts."""

from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"

    def ready(self) -> None:
        from games import projections, registry
        from tournaments.brackets import listeners
        from tournaments.brackets import services as bracket_services
        from tournaments.leagues import services as league_services
        from tournaments.leagues.projections import standings_projector

        # Standings follow every append, in its transaction; organisers referee their
        # seasons' games; POST /api/games/ with "season" starts a season game.
        projections.register(standings_projector)
        if league_services.is_season_referee not in registry.referee_checks:
            registry.referee_checks.append(league_services.is_season_referee)
        # Named referees of a tournament referee its tables.
        if league_services.is_named_tournament_referee not in registry.referee_checks:
            registry.referee_checks.append(league_services.is_named_tournament_referee)
        registry.start_season_game = league_services.start_season_game_for_api
        # Who sits at a season's and a tournament's tables is signed with the games' seats.
        from tournaments.brackets.selectors import tournament_seating
        from tournaments.leagues.selectors import league_seating

        for part in (league_seating, tournament_seating):
            if part not in registry.seating_parts:
                registry.seating_parts.append(part)
        # Organisers seat their seasons' and tournaments' tables: they hold the seats' links.
        if league_services.is_season_organiser not in registry.seater_checks:
            registry.seater_checks.append(league_services.is_season_organiser)
        if bracket_services.is_tournament_referee not in registry.seater_checks:
            registry.seater_checks.append(bracket_services.is_tournament_referee)
        # Tournaments: organisers referee their tables; a table's end seats the next round
        # and a turn's start sets its timer (both through Celery tasks).
        if bracket_services.is_tournament_referee not in registry.referee_checks:
            registry.referee_checks.append(bracket_services.is_tournament_referee)
        # A duplicate-deal table stays hidden until every table of its round has finished.
        if bracket_services.round_revealed not in registry.reveal_checks:
            registry.reveal_checks.append(bracket_services.round_revealed)
        # An undo of a table's game withdraws its result; refused once a later round was
        # seated from it (the director reopens the table first).
        from tournaments.brackets import directing

        # A table counts for its tournament: its deal is never chosen.
        if bracket_services.is_tournament_table not in registry.counts_checks:
            registry.counts_checks.append(bracket_services.is_tournament_table)
        # A table's page shows its players the way to their next table.
        from tournaments.brackets import selectors as bracket_selectors

        registry.onward = bracket_selectors.onward
        # A table's pages lead back to its league night or its tournament.
        from tournaments.leagues import selectors as league_selectors

        for page in (league_selectors.night_of_table, bracket_selectors.event_page):
            if page not in registry.event_pages:
                registry.event_pages.append(page)
        if directing.undo_refusal not in registry.undo_checks:
            registry.undo_checks.append(directing.undo_refusal)
        if listeners.after_append not in registry.on_game_event:
            registry.on_game_event.append(listeners.after_append)
        # ``manage.py verify_events`` compares the results recorded from games with the games:
        # a tournament's tables and winner, a season game's results, and the night rows,
        # standings and ratings that add those up.
        from tournaments.brackets import verification as bracket_verification
        from tournaments.leagues import verification as league_verification

        for check in (
            bracket_verification.bracket_results,
            league_verification.season_results,
            league_verification.season_tables_check,
        ):
            if check not in registry.verify_checks:
                registry.verify_checks.append(check)
        # Celery's autodiscovery looks for ``tournaments.tasks`` only: the packages' tasks
        # register here, in the web process and in every worker (Celery sets Django up).
        from tournaments.brackets import tasks  # noqa: F401
