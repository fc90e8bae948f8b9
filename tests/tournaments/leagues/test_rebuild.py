"""rebuild_projections gives the same standings, results and ratings as the incremental
projection, on a season of thousands of hands with undos, a rewound finished game, games
played side by side, a game scored in another mode, best N nights and attendance points."""

import random
from io import StringIO

import pytest
from django.core.management import call_command
from django.forms.models import model_to_dict

from games import rebuild
from games import services as game_services
from tournaments.leagues import selectors, services
from tournaments.leagues.models import GameResult, NightRow, RatingHistory, StandingRow
from tournaments.leagues.projections import standings_projector

from ..conftest import ended, finish, hand

pytestmark = pytest.mark.django_db

# Enough for four tables of up to five a night: a person plays at one table at a time.
PLAYERS = [
    "Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo",
    "Kit", "Lu", "Max", "Ned", "Oda", "Pip", "Quin", "Rex", "Sue", "Tom",
]  # fmt: skip


def projection_tables():
    tables = {}
    for model in (GameResult, NightRow, StandingRow, RatingHistory):
        rows = [model_to_dict(row, exclude=["id"]) for row in model.objects.all()]
        tables[model.__name__] = sorted(rows, key=repr)
    return tables


def play_season(league, organiser, *, nights, target):
    """``nights`` nights of four tables each, hands recorded table by table in turn."""
    season = services.open_season(
        league=league, name="Busy", best_nights=3, attendance_points=2, by=organiser
    )
    rng = random.Random(2026)
    hands = 0
    rewound = None
    for number in range(1, nights + 1):
        night = services.open_night(season=season)
        tables = []
        arriving = rng.sample(PLAYERS, len(PLAYERS))
        for table in range(4):
            seats = rng.choice([3, 4, 4, 5])
            names, arriving = arriving[:seats], arriving[seats:]
            kwargs = {"scoring": "alternative", "target": 400} if table == 3 and number == 2 else {}
            game = services.start_season_game(
                season=season,
                players=names,
                night=night,
                created_by=organiser,
                sheet=True,
                target=kwargs.pop("target", target),
                **kwargs,
            )
            tables.append((game, seats))
        playing = list(tables)
        while playing:
            for game, seats in list(playing):
                out = rng.randrange(seats)
                result = hand(game, out, {s: rng.randrange(30) for s in range(seats) if s != out})
                hands += 1
                if rng.random() < 0.03 and not ended(result):
                    # a wrong hand, corrected by undo
                    game_services.undo(
                        game_id=game.pk, to_version=result.version - 3, reason="typo", by="user:1"
                    )
                elif ended(result):
                    playing.remove((game, seats))
        if number == 3:
            rewound = tables[0]
    # A finished game from night 3 is rewound to before its last hand and finished again
    # differently, after later games finished: its ratings move to the end of the order.
    game, seats = rewound
    last = game_services.load_game(game_id=game.pk).version
    game_services.undo(game_id=game.pk, to_version=last - 3, reason="wrong winner", by="user:1")
    finish(game, winner=seats - 1, seats=seats, points=200)
    # And one game still being played.
    open_game = services.start_season_game(
        season=season, players=PLAYERS[:4], created_by=organiser, sheet=True
    )
    hand(open_game, 0, {1: 5, 2: 5, 3: 5})
    return season, hands


@pytest.fixture
def busy_season(league, organiser):
    season, _ = play_season(league, organiser, nights=4, target=300)
    return season


def test_the_rebuilt_standings_equal_the_incremental_ones_after_thousands_of_hands(
    league, organiser
):
    season, hands = play_season(league, organiser, nights=6, target=1200)
    assert hands > 2000
    incremental = projection_tables()
    table = selectors.season_standings(season.pk)
    assert len(incremental["StandingRow"]) == len(PLAYERS)
    assert len(incremental["GameResult"]) > 80

    count = rebuild.rebuild([standings_projector])

    assert count > 3 * hands
    assert projection_tables() == incremental
    assert selectors.season_standings(season.pk) == table


def test_rebuild_projections_repairs_damaged_standings(busy_season):
    incremental = projection_tables()
    StandingRow.objects.update(wins=99, rating=1.0)
    NightRow.objects.filter(pk__in=NightRow.objects.values("pk")[:5]).delete()
    RatingHistory.objects.filter(pk__in=RatingHistory.objects.values("pk")[:5]).delete()

    call_command("rebuild_projections", stdout=StringIO(), stderr=StringIO())

    assert projection_tables() == incremental


def test_changing_the_standings_options_recomputes_the_table_from_the_results(
    busy_season, organiser
):
    services.set_standings_options(
        season=busy_season, best_nights=None, attendance_points=0, by=organiser
    )
    changed = projection_tables()
    rebuild.rebuild([standings_projector])
    assert projection_tables() == changed
    assert all(row["nights"] == row["nights_counted"] for row in changed["StandingRow"])
