"""seed_demo: a demo club whose standings come from games the bots really played."""

import re
from io import StringIO

import pytest
from django.contrib.auth import authenticate, get_user_model
from django.core.management import CommandError, call_command

from games.models import Dispute, Event, Game
from tournaments.leagues import selectors
from tournaments.leagues.demo import DEMO_ORGANISER, DEMO_PLAYER, DEMO_PLAYERS, play_with_bots
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
    assert f"standings /seasons/{season.pk}/" in out.getvalue()
    # Games that count draw their own seeds: the demo chooses none.
    assert not Game.objects.filter(seed_chosen=True).exists()
    seeds = {e.data["seed"] for e in Event.objects.filter(type="game_started")}
    assert len(seeds) == 5 and all(len(seed) == 32 for seed in seeds)
    # Its nights are closed, and a Wild Draw 4 is disputed for a referee to rule on.
    assert not season.nights.filter(closed_at=None).exists()
    dispute = Dispute.objects.get()
    assert dispute.status == Dispute.Status.OPEN
    assert Event.objects.get(game=dispute.game, version=dispute.version).data["card"] == "W4"


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


def printed_sign_ins(text):
    """(user name, password) pairs from seed_demo's output."""
    return re.findall(r"user name (\S+), password (\S+)", text)


def test_in_development_the_first_seeding_prints_sign_ins_that_work(settings):
    settings.DEBUG = True
    out = StringIO()

    call_command("seed_demo", "--nights", "1", stdout=out)

    sign_ins = dict(printed_sign_ins(out.getvalue()))
    assert set(sign_ins) == {DEMO_ORGANISER, DEMO_PLAYER}
    organiser = authenticate(username=DEMO_ORGANISER, password=sign_ins[DEMO_ORGANISER])
    player = authenticate(username=DEMO_PLAYER, password=sign_ins[DEMO_PLAYER])
    league = League.objects.get(name="Demo Club")
    assert organiser is not None and league.organisers.filter(user=organiser).exists()
    assert player is not None and league.players.get(user=player).name == DEMO_PLAYERS[0]
    # A second start prints nothing; new sign-ins replace the old passwords.
    again = StringIO()
    call_command("seed_demo", stdout=again)
    assert printed_sign_ins(again.getvalue()) == []
    renewed = StringIO()
    call_command("seed_demo", "--new-sign-ins", stdout=renewed)
    new = dict(printed_sign_ins(renewed.getvalue()))
    assert authenticate(username=DEMO_ORGANISER, password=sign_ins[DEMO_ORGANISER]) is None
    assert authenticate(username=DEMO_ORGANISER, password=new[DEMO_ORGANISER]) is not None


def test_outside_development_the_demo_accounts_cannot_sign_in(settings):
    settings.DEBUG = False
    out = StringIO()

    call_command("seed_demo", "--nights", "1", stdout=out)

    assert printed_sign_ins(out.getvalue()) == [] and "password" not in out.getvalue()
    for username in (DEMO_ORGANISER, DEMO_PLAYER):
        assert not get_user_model().objects.get(username=username).has_usable_password()
    with pytest.raises(CommandError, match="development only"):
        call_command("seed_demo", "--new-sign-ins", stdout=StringIO())


def test_up_migrates_seeds_prints_the_sign_ins_and_where_to_sign_in(settings, monkeypatch, capsys):
    """``manage.py up`` (what ``python3 config/dev.py run`` runs): the first start prints the
    demo sign-ins and the sign-in page's address before serving."""
    from django.core import management

    settings.DEBUG = True
    served = []
    real = management.call_command

    def call(name, *args, **kwargs):
        if name == "runserver":
            served.append(args)
            return None
        return real(name, *args, **kwargs)

    monkeypatch.setattr("games.management.commands.up.call_command", call)
    monkeypatch.delenv("RUN_MAIN", raising=False)
    out = StringIO()

    real("up", "--addrport", "127.0.0.1:8123", stdout=out)

    text = capsys.readouterr().out + out.getvalue()  # seed_demo writes to the terminal
    assert {name for name, _ in printed_sign_ins(text)} == {DEMO_ORGANISER, DEMO_PLAYER}
    assert "sign in at http://127.0.0.1:8123/accounts/login/" in text
    assert served == [("127.0.0.1:8123",)]
