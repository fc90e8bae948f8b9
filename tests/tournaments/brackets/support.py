"""Helpers for tournament tests: bots play a table's game to its end through the services."""

from games import services
from games.bots import next_bot_move
from tournaments.brackets import tasks
from tournaments.brackets.models import Table, Tournament


def play_game(game_id, *, limit=5000):
    """Every seat a bot: commands through ``services.apply_command`` until the game is over."""
    for _ in range(limit):
        state = services.load_game(game_id=game_id)
        if state.finished:
            return state
        seat, command = next_bot_move(state, frozenset(range(state.players)), str(game_id))
        services.apply_command(
            game_id=game_id,
            command=command,
            actor=services.seat_actor(seat),
            expected_version=state.version,
        )
    raise AssertionError(f"game {game_id} did not end in {limit} commands")


def play_round(tournament: Tournament):
    """Play every playing table of the tournament, calling the table_finished task function
    in-process after each game, as the worker would."""
    tables = list(Table.objects.filter(round__tournament=tournament, status=Table.Status.PLAYING))
    for table in tables:
        play_game(table.game_id)
        tasks.table_finished(str(table.game_id))
    return tables


def play_tournament(tournament: Tournament, *, limit=20):
    for _ in range(limit):
        tournament.refresh_from_db()
        if tournament.status == Tournament.Status.FINISHED:
            return tournament
        if not play_round(tournament):
            raise AssertionError("no table playing and the tournament is not over")
    raise AssertionError("the tournament did not end")


def cup_of_eight(organiser, name: str = "Cup", **options) -> Tournament:
    """A started elimination of eight at tables of four, one hand a game: two tables, then a
    final table."""
    from tournaments.brackets import services

    tournament = services.create_tournament(
        name=name,
        organiser=organiser,
        format="elimination",
        table_size=4,
        advance=2,
        scoring="none",
        players=[f"P{i}" for i in range(1, 9)],
        **options,
    )
    services.start_tournament(tournament_id=tournament.pk, by=organiser)
    return tournament


def swiss_of_four(organiser) -> Tournament:
    """A started swiss of two rounds at tables of two (Ann, Bob, Cid, Dee), one hand a game."""
    from tournaments.brackets import services

    tournament = services.create_tournament(
        name="Swiss",
        organiser=organiser,
        format="swiss",
        table_size=2,
        rounds=2,
        scoring="none",
        players=["Ann", "Bob", "Cid", "Dee"],
    )
    services.start_tournament(tournament_id=tournament.pk, by=organiser)
    return tournament


def clock_cup(organiser, *, turn_seconds: int = 30):
    """The one table of a started swiss round of three (Ann, Bob, Cid), one hand a game, whose
    turns are timed: ``turn_seconds`` a turn."""
    from tournaments.brackets import services
    from tournaments.brackets.models import Table

    tournament = services.create_tournament(
        name="Clock Cup",
        organiser=organiser,
        format="swiss",
        table_size=3,
        rounds=1,
        scoring="none",
        players=["Ann", "Bob", "Cid"],
        turn_seconds=turn_seconds,
    )
    services.start_tournament(tournament_id=tournament.pk, by=organiser)
    return Table.objects.get(round__tournament=tournament)


def cup_table(organiser, *, name: str = "Autumn <Open>"):
    """The one table (Ann, Bob) of a started swiss cup: its game and the cup."""
    from tournaments.brackets import services as brackets

    cup = brackets.create_tournament(
        name=name,
        organiser=organiser,
        format="swiss",
        table_size=2,
        scoring="none",
        players=["Ann", "Bob"],
    )
    brackets.start_tournament(tournament_id=cup.pk, by=organiser)
    return cup.round_set.get().tables.get().game, cup
