"""Each tournament format end to end: bots play every table through the services, and the
table_finished task (called in-process) seats each next round until there is a winner."""

import pytest

from games.models import Game, Seat
from tournaments.brackets import services as tournament_services
from tournaments.brackets import tasks
from tournaments.brackets.models import Round, Table, Tournament

from .support import play_game, play_round, play_tournament

pytestmark = pytest.mark.django_db

NAMES = [f"P{i:02d}" for i in range(1, 11)]


def make(organiser, **kwargs):
    options = {
        "name": "Winter Open",
        "organiser": organiser,
        "variant": "classic",
        "scoring": "none",
        "target": 500,
        "players": NAMES,
    }
    options.update(kwargs)
    tournament = tournament_services.create_tournament(**options)
    return tournament_services.start_tournament(tournament_id=tournament.pk, by=organiser)


def rounds_of(tournament):
    return [
        (r.kind, [len(t.players) for t in r.tables.all()], r.byes)
        for r in tournament.round_set.order_by("number")
    ]


def test_elimination_by_tables_until_one_final_table(organiser):
    tournament = make(organiser, format="elimination", table_size=4, advance=2)
    assert rounds_of(tournament) == [("elimination", [4, 3, 3], [])]
    play_tournament(tournament)
    tournament.refresh_from_db()
    shape = rounds_of(tournament)
    assert [kind for kind, _, _ in shape] == ["elimination", "elimination", "final"]
    assert shape[1][1] == [3, 3]  # six went on: the top two of each table
    final = Table.objects.get(round__tournament=tournament, round__kind="final")
    assert tournament.status == Tournament.Status.FINISHED
    assert tournament.winner == final.placings[0]
    second = Round.objects.get(tournament=tournament, number=2)
    went_on = {
        p
        for t in Table.objects.filter(round__number=1, round__tournament=tournament)
        for p in t.placings[:2]
    }
    assert {p for t in second.tables.all() for p in t.players} == went_on


def test_swiss_rounds_then_a_final_table(organiser):
    tournament = make(organiser, format="swiss", table_size=4, rounds=3, final_table=True)
    play_tournament(tournament)
    tournament.refresh_from_db()
    shape = rounds_of(tournament)
    assert [kind for kind, _, _ in shape] == ["swiss", "swiss", "swiss", "final"]
    assert all(sizes == [4, 3, 3] for _, sizes, _ in shape[:3])
    assert tournament.winner == Table.objects.get(round__kind="final").placings[0]
    for rnd in tournament.round_set.all():
        assert rnd.status == Round.Status.FINISHED


def test_swiss_without_a_final_table_is_won_at_the_top_of_the_standings(organiser):
    tournament = make(
        organiser, format="swiss", table_size=2, rounds=2, players=NAMES[:5], final_table=False
    )
    assert tournament.round_set.get().byes == ["P05"]
    play_tournament(tournament)
    tournament.refresh_from_db()
    detail = tournament_services_detail(tournament)
    assert tournament.winner == detail["standings"][0]["player"]
    byes = [name for r in tournament.round_set.all() for name in r.byes]
    assert len(byes) == 2 and len(set(byes)) == 2  # nobody sits out twice


def tournament_services_detail(tournament):
    from tournaments.brackets import selectors as tournament_selectors

    return tournament_selectors.tournament_detail(tournament.pk)


def test_late_entries_and_drop_outs_between_rounds(organiser):
    tournament = make(organiser, format="swiss", table_size=4, rounds=3, players=NAMES[:8])
    play_round(tournament)  # the task seats round 2 as the last table ends
    tournament_services.drop_entry(tournament_id=tournament.pk, player="P03", by=organiser)
    tournament_services.add_entry(tournament_id=tournament.pk, player="Late", by=organiser)
    # Round 2 was already seated: the changes count from round 3 on.
    assert tournament.round_set.count() == 2
    play_round(tournament)
    third = tournament.round_set.get(number=3)
    seated = {p for t in third.tables.all() for p in t.players}
    assert "P03" not in seated and "Late" in seated and len(seated) == 8


def test_duplicate_deals_give_same_size_tables_the_same_hands(organiser):
    tournament = make(
        organiser,
        format="elimination",
        table_size=4,
        advance=1,
        players=NAMES[:8],
        duplicate_deals=True,
    )
    from games import services

    states = [
        services.load_game(game_id=t.game_id)
        for t in Table.objects.filter(round__tournament=tournament)
    ]
    assert len(states) == 2
    a, b = states
    assert [list(h) for h in a.hands] == [list(h) for h in b.hands]
    assert a.top == b.top
    rnd = tournament.round_set.get()
    assert rnd.deck == tournament_services.round_deck("classic", rnd.seed)


def test_the_organiser_referees_every_table_and_the_games_start_as_the_system(organiser):
    from django.contrib.auth import get_user_model

    tournament = make(organiser, format="elimination", table_size=4, advance=2)
    other = get_user_model().objects.create_user("otto", password="pw")
    from games import services

    for table in Table.objects.filter(round__tournament=tournament):
        game = Game.objects.get(pk=table.game_id)
        assert services.is_referee(organiser, game)
        assert not services.is_referee(other, game)
        assert (
            list(Seat.objects.filter(game=game).order_by("seat").values_list("player", flat=True))
            == table.players
        )
        assert game.events.order_by("version").first().actor == "system"


def test_table_finished_twice_records_and_seats_once(organiser):
    tournament = make(organiser, format="elimination", table_size=4, advance=2)
    tables = list(Table.objects.filter(round__tournament=tournament))
    for table in tables:
        play_game(table.game_id)
    tasks.table_finished(str(tables[-1].game_id))
    tasks.table_finished(str(tables[-1].game_id))
    tasks.table_finished(str(tables[0].game_id))
    assert tournament.round_set.count() == 2
    assert Table.objects.filter(round__tournament=tournament, round__number=2).count() == 2


def test_a_table_still_playing_holds_the_round(organiser):
    tournament = make(organiser, format="elimination", table_size=4, advance=2)
    first = Table.objects.filter(round__tournament=tournament).first()
    play_game(first.game_id)
    tasks.table_finished(str(first.game_id))
    first.refresh_from_db()
    assert first.status == Table.Status.FINISHED and len(first.placings) == len(first.players)
    assert tournament.round_set.count() == 1
    tasks.table_finished(str(first.game_id))
    assert tournament.round_set.count() == 1


def test_a_lost_task_is_made_good_by_the_next_seating(organiser):
    tournament = make(organiser, format="elimination", table_size=4, advance=2)
    for table in Table.objects.filter(round__tournament=tournament):
        play_game(table.game_id)  # and no table_finished at all
    tasks.seat_next_round(tournament.pk)
    assert tournament.round_set.count() == 2


def test_seeding_by_rating_puts_the_best_rated_first(organiser, season):
    from tournaments.leagues import services
    from tournaments.leagues.models import StandingRow

    for name, mu in (("Ann", 20.0), ("Bob", 30.0)):
        player = services.register_player(league=season.league, name=name)
        StandingRow.objects.create(season=season, player=player, rating=mu, rating_sigma=1.0)
    tournament = tournament_services.create_tournament(
        name="Rated",
        organiser=organiser,
        format="swiss",
        table_size=4,
        players=["Cid", "Ann", "Bob"],
        seeding="rating",
    )
    seeds = list(tournament.entries.order_by("seed").values_list("player", flat=True))
    assert seeds == ["Bob", "Ann", "Cid"]


def test_a_swiss_winner_is_the_top_of_the_standings_when_the_leader_dropped_in_the_last_round(
    organiser,
):
    from games import services as game_services
    from tournaments.brackets import selectors

    tournament = make(organiser, format="swiss", table_size=3, rounds=1, players=NAMES[:3])
    table = Table.objects.get(round__tournament=tournament)
    play_game(table.game_id)
    state = game_services.load_game(game_id=table.game_id)
    first = table.players[state.placings[0]]
    # The table's winner drops out as it ends (its result counts), before the task records it.
    tournament_services.drop_entry(tournament_id=tournament.pk, player=first, by=organiser)
    tasks.table_finished(str(table.game_id))

    detail = selectors.tournament_detail(tournament.pk)
    assert detail["status"] == "finished"
    top = [row["player"] for row in detail["standings"] if row["rank"] == 1]
    assert top == [detail["winner"]] and detail["winner"] != first
    assert detail["standings"][-1]["player"] == first  # dropped out: after those still in
