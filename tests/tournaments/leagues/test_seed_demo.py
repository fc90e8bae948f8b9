"""seed_demo: a demo club whose standings come from games the bots really played."""

from io import StringIO

import pytest
from django.core.management import call_command

from games.models import Event, Game
from tournaments.leagues import selectors
from tournaments.leagues.demo import DEMO_PLAYERS, play_with_bots
from tournaments.leagues.models import League, Season, StandingRow

pytestmark = pytest.mark.django_db


def test_seed_demo_plays_a_season_through_the_services_and_fills_the_standings():
    out = StringIO()
    call_command("seed_demo", "--nights", "2", stdout=out)

    season = Season.objects.get(league__name="Demo Club")
    table = selectors.season_standings(season.pk)
    assert len(table["rows"]) == len(DEMO_PLAYERS)
    assert sum(row["wins"] for row in table["rows"]) == Game.objects.count() == 5
    assert all(row["rating"] is not None for row in table["rows"])
    assert not Game.objects.exclude(status=Game.Status.FINISHED).exists()
    # Bots sent their commands as seats, through the services: the log shows who did what.
    assert Event.objects.filter(actor__startswith="seat:").exists()
    assert "standings at" in out.getvalue()
    # Games that count draw their own seeds: the demo chooses none.
    assert not Game.objects.filter(seed_chosen=True).exists()
    seeds = {e.data["seed"] for e in Event.objects.filter(type="game_started")}
    assert len(seeds) == 5 and all(len(seed) == 32 for seed in seeds)


def test_seed_demo_does_nothing_when_the_demo_club_exists():
    call_command("seed_demo", "--nights", "1", stdout=StringIO())
    events = Event.objects.count()
    out = StringIO()

    call_command("seed_demo", stdout=out)

    assert League.objects.count() == 1 and Event.objects.count() == events
    assert "nothing to do" in out.getvalue()


def test_bots_play_a_season_game_to_its_end(season, organiser):
    from tournaments.leagues import services

    game = services.start_season_game(
        season=season,
        players=["Ann", "Bob", "Cy"],
        created_by=organiser,
        scoring="none",
    )
    assert play_with_bots(game.pk, seed="t") > 0
    assert StandingRow.objects.filter(season=season, wins=1).count() == 1
