"""Fair seating and turn timers that end: at most one bye a player in a knockout; duplicate
deals turn the seats so the seed does not decide who plays first; an elimination's entry list
locks at the start (Swiss takes late entries); check-in before the start; seats that keep
timing out are ruled absent and a table with at most one player present ends."""

import pytest

from games import services as game_services
from games.models import Game
from rules import IllegalCommand
from tournaments.brackets import directing, pairing, rounds, selectors
from tournaments.brackets import services as tournament_services
from tournaments.brackets.models import Entry, Ruling, Table, Tournament

from .support import play_tournament

pytestmark = pytest.mark.django_db

FIVE = ["Ann", "Bob", "Cid", "Dee", "Eve"]


def create(organiser, **kwargs):
    options = {
        "name": "Cup",
        "organiser": organiser,
        "format": "elimination",
        "table_size": 2,
        "scoring": "none",
        "players": FIVE,
    }
    options.update(kwargs)
    return tournament_services.create_tournament(**options)


def start(organiser, **kwargs):
    tournament = create(organiser, **kwargs)
    return tournament_services.start_tournament(tournament_id=tournament.pk, by=organiser)


# Byes ----------------------------------------------------------------------------------------


def test_five_players_at_tables_of_two_nobody_has_two_byes(organiser):
    tournament = play_tournament(start(organiser))
    byes = [name for r in tournament.round_set.all() for name in r.byes]
    assert byes and len(byes) == len(set(byes))
    # Whoever won played at a table in every round but the one they had a bye in.
    winner_tables = sum(
        tournament.winner in t.players for t in Table.objects.filter(round__tournament=tournament)
    )
    assert winner_tables >= tournament.round_set.count() - 1


def test_a_knockout_bye_goes_to_the_best_seed_who_has_not_had_one():
    setup = rounds.Settings(format=rounds.ELIMINATION, table_size=2, advance=1)
    entries = [rounds.EntryRow(name, i) for i, name in enumerate(FIVE, start=1)]
    first = rounds.RoundRow(
        1,
        rounds.ELIMINATION,
        (
            rounds.TableRow(("Bob", "Eve"), ("Bob", "Eve")),
            rounds.TableRow(("Cid", "Dee"), ("Cid", "Dee")),
        ),
        ("Ann",),
    )
    nxt = rounds.next_round(setup, entries, [first])
    assert nxt.byes == ["Bob"] and nxt.tables == [["Ann", "Cid"]]


def test_when_everyone_left_has_had_a_bye_the_last_table_seats_three():
    setup = rounds.Settings(format=rounds.ELIMINATION, table_size=2, advance=1)
    entries = [rounds.EntryRow(name, i) for i, name in enumerate(FIVE, start=1)]
    earlier = [
        rounds.RoundRow(1, rounds.ELIMINATION, (), ("Ann", "Bob", "Cid")),
    ]
    nxt = rounds.next_round(setup, entries[:3], earlier)
    assert nxt.kind == rounds.ELIMINATION or nxt.kind == rounds.FINAL
    assert not nxt.byes


# Seats with duplicate deals --------------------------------------------------------------------


def test_rotate_keeps_the_order_round_the_table():
    assert pairing.rotate(["A", "B", "C"], 1) == ["B", "C", "A"]
    assert pairing.rotate(["A", "B", "C"], 3) == ["A", "B", "C"]


def test_duplicate_deals_turn_the_seats_so_the_seed_does_not_play_first(organiser, monkeypatch):
    monkeypatch.setattr(tournament_services, "first_seat_offset", lambda players: 1)
    tournament = start(organiser, players=FIVE[:4], duplicate_deals=True)
    seated = [t.players for t in Table.objects.filter(round__tournament=tournament)]
    # Seed snake puts Ann (1) with Dee (4), Bob (2) with Cid (3); turned by one seat.
    assert seated == [["Dee", "Ann"], ["Cid", "Bob"]]
    for table in Table.objects.filter(round__tournament=tournament):
        game_seats = list(table.game.seats.order_by("seat").values_list("player", flat=True))
        assert game_seats == table.players


def test_the_first_seat_is_drawn_not_the_best_seed_every_time(organiser):
    offsets = {tournament_services.first_seat_offset(4) for _ in range(200)}
    assert offsets == {0, 1, 2, 3}


# Entries ---------------------------------------------------------------------------------------


def test_an_eliminations_entry_list_locks_at_the_start(organiser):
    tournament = start(organiser, players=FIVE[:4])
    with pytest.raises(IllegalCommand, match="closed"):
        tournament_services.add_entry(tournament_id=tournament.pk, player="Fay", by=organiser)


def test_a_swiss_tournament_takes_late_entries(organiser):
    tournament = start(organiser, format="swiss", rounds=2, players=FIVE[:4])
    entry = tournament_services.add_entry(tournament_id=tournament.pk, player="Fay", by=organiser)
    assert entry.joined == 2


@pytest.mark.parametrize("final_table", [False, True])
def test_no_late_entry_once_the_last_swiss_round_is_seated(organiser, final_table):
    # A late entry is seated from the next round on: after the last Swiss round none is left
    # to play, and a final table would seat them without a table played.
    tournament = start(
        organiser, format="swiss", rounds=1, final_table=final_table, table_size=4, players=FIVE
    )
    with pytest.raises(IllegalCommand, match="last of the 1 Swiss round is seated"):
        tournament_services.add_entry(tournament_id=tournament.pk, player="Zed", by=organiser)
    assert not Entry.objects.filter(tournament=tournament, player="Zed").exists()


def test_once_anyone_checks_in_the_start_drops_who_did_not(organiser):
    tournament = create(organiser)
    for name in ("Ann", "Bob", "Cid"):
        directing.check_in(tournament_id=tournament.pk, player=name, by=organiser)
    tournament_services.start_tournament(tournament_id=tournament.pk, by=organiser)
    dropped = set(
        Entry.objects.filter(tournament=tournament, dropped=True).values_list("player", flat=True)
    )
    assert dropped == {"Dee", "Eve"}
    seated = {p for t in Table.objects.filter(round__tournament=tournament) for p in t.players}
    assert not seated & dropped
    with pytest.raises(IllegalCommand, match="check-in closed"):
        directing.check_in(tournament_id=tournament.pk, player="Dee", by=organiser)


def test_a_drop_before_the_start_takes_the_check_in_with_it(organiser):
    # Checked in, dropped by mistake, the drop taken back: entered again, to check in again.
    tournament = create(organiser)
    directing.check_in(tournament_id=tournament.pk, player="Bob", by=organiser)
    tournament_services.drop_entry(tournament_id=tournament.pk, player="Bob", by=organiser)
    directing.take_back_drop(tournament_id=tournament.pk, player="Bob", by=organiser)

    bob = Entry.objects.get(tournament=tournament, player="Bob")
    assert not bob.dropped and not bob.checked_in


def test_a_start_refused_counts_only_the_players_checked_in_and_still_entered(organiser):
    tournament = create(organiser)
    for name in ("Ann", "Bob"):
        directing.check_in(tournament_id=tournament.pk, player=name, by=organiser)
    tournament_services.drop_entry(tournament_id=tournament.pk, player="Bob", by=organiser)

    with pytest.raises(IllegalCommand, match="only 1 is checked in"):
        tournament_services.start_tournament(tournament_id=tournament.pk, by=organiser)


def test_without_check_in_everyone_entered_plays(organiser):
    tournament = start(organiser)
    assert not Entry.objects.filter(tournament=tournament, dropped=True).exists()


# Turn timers that end --------------------------------------------------------------------------


def time_out(game_id):
    state = game_services.load_game(game_id=game_id)
    return tournament_services.time_out_turn(game_id=game_id, version=state.version)


def test_a_table_where_nobody_is_present_ends(organiser):
    tournament = start(
        organiser, players=FIVE[:3], format="swiss", table_size=3, rounds=1, turn_seconds=30
    )
    table = Table.objects.get(round__tournament=tournament)
    for _ in range(400):
        table.refresh_from_db()
        if table.status == Table.Status.FINISHED:
            break
        time_out(table.game_id)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED and table.decided_by == Table.DecidedBy.ABSENT
    assert len(table.absent) == 2 and table.placings[1:] == list(reversed(table.absent))
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert Ruling.objects.filter(tournament=tournament, kind=Ruling.Kind.ABSENT).count() == 2
    [ended] = [
        r for r in selectors.tournament_detail(tournament.pk)["rulings"] if r["kind"] == "no_show"
    ]
    assert sorted(ended["against"]) == sorted(table.absent)  # who did not show, not the winner
    # The table says so to its players, as the tournament page does.
    first, second, third = table.placings
    assert Game.objects.get(pk=table.game_id).closed == (
        f"The tournament's director decided this table ({second} and {third} did not show; "
        f"placed 1st {first}, 2nd {second}, 3rd {third}): the game takes no more moves unless "
        "the director reopens the table."
    )
    # Later timers find the table decided and append nothing.
    version = game_services.load_game(game_id=table.game_id).version
    assert not time_out(table.game_id)
    assert game_services.load_game(game_id=table.game_id).version == version


def test_a_seat_that_acts_between_timeouts_is_not_ruled_absent(organiser):
    from rules import legal_commands

    tournament = start(organiser, players=FIVE[:2], table_size=2, turn_seconds=30)
    table = Table.objects.get(round__tournament=tournament)
    for _ in range(12):
        state = game_services.load_game(game_id=table.game_id)
        seat = state.pending[1]
        if table.players[seat] == "Ann":
            time_out(table.game_id)
        else:  # Bob plays his own turns: draw, then pass if he may
            for command in legal_commands(state, seat):
                if command.type in ("draw", "choose_colour", "accept", "pass"):
                    game_services.apply_command(
                        game_id=table.game_id,
                        command=command,
                        actor=game_services.seat_actor(seat),
                        expected_version=state.version,
                    )
                    break
        table.refresh_from_db()
        if table.status == Table.Status.FINISHED:
            break
    table.refresh_from_db()
    assert "Bob" not in table.absent
    assert table.absent == ["Ann"] and table.placings == ["Bob", "Ann"]


def test_seventeen_at_tables_of_two_nobody_has_two_byes():
    setup = rounds.Settings(format=rounds.ELIMINATION, table_size=2, advance=1)
    entries = [rounds.EntryRow(f"P{i:02d}", i) for i in range(1, 18)]
    played = []
    while True:
        nxt = rounds.next_round(setup, entries, played)
        if isinstance(nxt, rounds.Finished):
            break
        # The better seed wins every table: the bye holders keep going on.
        tables = tuple(rounds.TableRow(tuple(t), tuple(sorted(t))) for t in nxt.tables)
        played.append(rounds.RoundRow(nxt.number, nxt.kind, tables, tuple(nxt.byes)))
    byes = [p for r in played for p in r.byes]
    assert len(byes) == len(set(byes))
    # P01, P02 and P03 each had a bye and all went on: the three meet at the final.
    final = played[-1]
    assert final.kind == rounds.FINAL and [len(t.players) for t in final.tables] == [3]
    assert nxt.winner == "P01"
