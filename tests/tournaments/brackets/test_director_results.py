"""Results a director controls: an undo of a table's game withdraws its result; once a later
round depends on it the undo is refused until the director reopens the table, which resets
those rounds; awarded results and called time decide a table with a reason recorded."""

import pytest

from games import services as game_services
from rules import IllegalCommand, InvalidCommand
from tournaments.brackets import directing, tasks
from tournaments.brackets import services as tournament_services
from tournaments.brackets.models import Round, Ruling, Table, Tournament

from .support import play_game, swiss_of_four

pytestmark = pytest.mark.django_db

REFEREE = "user:1"


def knockout(organiser, players=("Ann", "Bob", "Cid", "Dee"), **kwargs):
    options = {
        "name": "Cup",
        "organiser": organiser,
        "format": "elimination",
        "table_size": 2,
        "scoring": "none",
        "players": list(players),
    }
    options.update(kwargs)
    tournament = tournament_services.create_tournament(**options)
    return tournament_services.start_tournament(tournament_id=tournament.pk, by=organiser)


def finish(table):
    play_game(table.game_id)
    tasks.table_finished(str(table.game_id))
    table.refresh_from_db()
    return table


def undo_finished(game_id, capture):
    """Undo a finished game to its first hand's start (reopened, as a referee does), running
    the listeners the append's commit would run."""
    start = game_services._first_hand_start(game_id)
    with capture(execute=True):
        game_services.undo(
            game_id=game_id, to_version=start, reason="misdeal", by=REFEREE, reopen=True
        )


def tables(tournament, number):
    return list(Table.objects.filter(round__tournament=tournament, round__number=number))


def test_an_undo_before_the_round_completes_withdraws_the_tables_result(
    organiser, django_capture_on_commit_callbacks
):
    tournament = knockout(organiser)
    first, second = tables(tournament, 1)
    finish(first)
    assert first.status == Table.Status.FINISHED

    undo_finished(first.game_id, django_capture_on_commit_callbacks)

    first.refresh_from_db()
    assert first.status == Table.Status.PLAYING and first.placings == []
    finish(second)
    # The round waits for the reopened table: nobody is seated from the withdrawn result.
    assert not Round.objects.filter(tournament=tournament, number=2).exists()
    assert Ruling.objects.filter(tournament=tournament, kind=Ruling.Kind.WITHDRAWN).count() == 1
    finish(first)
    [final] = tables(tournament, 2)
    assert set(final.players) == {first.placings[0], second.placings[0]}


def test_an_undo_after_the_next_round_is_seated_is_refused_until_the_table_is_reopened(
    organiser, django_capture_on_commit_callbacks
):
    tournament = knockout(organiser)
    first, second = tables(tournament, 1)
    finish(first), finish(second)
    [final] = tables(tournament, 2)
    start = game_services._first_hand_start(first.game_id)

    with pytest.raises(IllegalCommand, match="reopens the table"):
        game_services.undo(
            game_id=first.game_id, to_version=start, reason="misdeal", by=REFEREE, reopen=True
        )

    directing.reopen_table(
        tournament_id=tournament.pk,
        round_number=1,
        table_number=first.number,
        reason="the deal was wrong",
        by=organiser,
    )
    assert not Round.objects.filter(tournament=tournament, number=2).exists()
    assert not Table.objects.filter(pk=final.pk).exists()
    ruling = Ruling.objects.get(tournament=tournament, kind=Ruling.Kind.REOPENED)
    assert "rounds reset: 2" in ruling.reason

    undo_finished(first.game_id, django_capture_on_commit_callbacks)  # allowed now
    first.refresh_from_db()
    assert first.status == Table.Status.PLAYING
    finish(first)
    [final] = tables(tournament, 2)
    assert set(final.players) == {first.placings[0], second.placings[0]}


def test_a_table_reopened_over_its_game_still_over_waits_for_the_undo_or_the_director(
    organiser, django_capture_on_commit_callbacks
):
    from tournaments.brackets import sweeper

    tournament = knockout(organiser)
    first, second = tables(tournament, 1)
    finish(first), finish(second)
    directing.reopen_table(
        tournament_id=tournament.pk,
        round_number=1,
        table_number=first.number,
        reason="a wrong card was played",
        by=organiser,
    )

    # The sweeps (every 30 s) and the other tables' tasks leave it as the director left it.
    assert sweeper.owed_tournaments() == []
    sweeper.sweep_rounds()
    tournament_services.seat_next_round(tournament_id=tournament.pk)
    first.refresh_from_db()
    assert first.status == Table.Status.PLAYING
    assert not Round.objects.filter(tournament=tournament, number=2).exists()
    # So the referee's undo is still allowed, and the replayed game decides the table.
    undo_finished(first.game_id, django_capture_on_commit_callbacks)
    finish(first)
    first.refresh_from_db()
    assert first.status == Table.Status.FINISHED and first.held is None
    assert Round.objects.filter(tournament=tournament, number=2).exists()


def test_the_directors_advance_records_a_reopened_table_whose_game_stayed_over(organiser):
    tournament = knockout(organiser)
    first, second = tables(tournament, 1)
    finish(first), finish(second)
    placings = Table.objects.get(pk=first.pk).placings
    directing.reopen_table(
        tournament_id=tournament.pk,
        round_number=1,
        table_number=first.number,
        reason="reopened by mistake",
        by=organiser,
    )

    directing.advance_round(tournament_id=tournament.pk, by=organiser)

    first.refresh_from_db()
    assert first.status == Table.Status.FINISHED and first.placings == placings
    assert Round.objects.filter(tournament=tournament, number=2).exists()


def test_a_replayed_final_decides_the_tournaments_winner(
    organiser, django_capture_on_commit_callbacks
):
    tournament = knockout(organiser, players=("Ann", "Bob"))
    [final] = tables(tournament, 1)
    finish(final)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED

    undo_finished(final.game_id, django_capture_on_commit_callbacks)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING and tournament.winner == ""

    finish(final)
    tournament.refresh_from_db()
    assert tournament.winner == final.placings[0]


def test_an_awarded_result_decides_the_table_and_says_why(organiser):
    tournament = knockout(organiser)
    first, second = tables(tournament, 1)
    loser, winner = first.players
    directing.award_result(
        tournament_id=tournament.pk,
        round_number=1,
        table_number=first.number,
        kind="no_show",
        placings=[winner, loser],
        reason=f"{loser} did not come back from the break",
        by=organiser,
    )
    first.refresh_from_db()
    assert first.status == Table.Status.FINISHED and first.placings == [winner, loser]
    assert first.decided_by == Table.DecidedBy.AWARD
    ruling = Ruling.objects.get(tournament=tournament, kind=Ruling.Kind.NO_SHOW)
    assert ruling.players == [winner, loser] and "break" in ruling.reason
    finish(second)
    [final] = tables(tournament, 2)
    assert winner in final.players


def test_an_award_names_every_player_of_the_table_and_a_reason(organiser):
    tournament = knockout(organiser)
    first, _ = tables(tournament, 1)
    award = {
        "tournament_id": tournament.pk,
        "round_number": 1,
        "table_number": first.number,
        "kind": "forfeit",
        "by": organiser,
    }
    with pytest.raises(InvalidCommand) as bad:
        directing.award_result(**award, placings=[first.players[0]], reason="left")
    assert bad.value.field == "placings"
    with pytest.raises(InvalidCommand) as bad:
        directing.award_result(**award, placings=first.players, reason=" ")
    assert bad.value.field == "reason"
    with pytest.raises(InvalidCommand) as bad:
        directing.award_result(**{**award, "kind": "bribe"}, placings=first.players, reason="x")
    assert bad.value.field == "kind"


def test_a_finished_table_is_not_awarded_without_reopening_it(organiser):
    tournament = knockout(organiser)
    first, _ = tables(tournament, 1)
    finish(first)
    with pytest.raises(IllegalCommand, match="reopen"):
        directing.award_result(
            tournament_id=tournament.pk,
            round_number=1,
            table_number=first.number,
            kind="disqualification",
            placings=list(reversed(first.placings)),
            reason="marked cards",
            by=organiser,
        )


RULINGS_ON_A_TABLE = {
    "award": lambda at, table: directing.award_result(
        **at, kind="disqualification", placings=list(reversed(table.players)), reason="cards"
    ),
    "award against": lambda at, table: directing.award_against(
        **at, kind="forfeit", player=table.players[0], reason="left before the end"
    ),
    "call time": lambda at, table: directing.call_time(**at, reason="time"),
}


@pytest.mark.parametrize("ruling", sorted(RULINGS_ON_A_TABLE))
def test_a_ruling_on_a_table_whose_game_is_over_waits_for_its_result(organiser, ruling):
    """The table's game is over and its result not recorded yet (its task has not run: the
    worker is down): it has a result all the same, the game's. A ruling is refused as over a
    recorded result, saying so and changing nothing; the task, when it runs, records the
    game's result; and the director who meant to overrule it reopens the table and rules."""
    from tests.games.tampering import verify
    from tournaments.brackets import sweeper

    tournament = knockout(organiser)
    first, second = tables(tournament, 1)
    final = play_game(first.game_id)  # its task never sent (in a test, on_commit does not run)
    game_placings = [first.players[seat] for seat in final.placings]
    at = {
        "tournament_id": tournament.pk,
        "round_number": 1,
        "table_number": first.number,
        "by": organiser,
    }

    with pytest.raises(IllegalCommand) as refused:
        RULINGS_ON_A_TABLE[ruling](at, first)

    assert "game is over and its result is being recorded" in str(refused.value)
    assert "reopen the table" in str(refused.value)
    first.refresh_from_db()
    assert first.status == Table.Status.PLAYING and first.placings == []
    assert not Ruling.objects.filter(tournament=tournament).exists()
    assert game_services.get_game(first.game_id).closed == ""

    tasks.table_finished(str(first.game_id))  # the worker is back
    first.refresh_from_db()
    assert (first.decided_by, first.placings) == (Table.DecidedBy.GAME, game_placings)
    verify()

    directing.reopen_table(**at, reason="the game's result is overruled")
    decided = RULINGS_ON_A_TABLE[ruling](at, first)
    ruled = list(decided.placings)
    assert decided.decided_by != Table.DecidedBy.GAME
    [last] = Ruling.objects.filter(tournament=tournament).exclude(kind=Ruling.Kind.REOPENED)
    assert last.players == ruled
    # A late copy of the game's task and the sweeps leave the ruling as it was made.
    tasks.table_finished(str(first.game_id))
    sweeper.sweep_rounds()
    first.refresh_from_db()
    assert first.placings == ruled and first.decided_by == decided.decided_by
    verify()
    finish(second)
    [next_table] = tables(tournament, 2)
    assert ruled[0] in next_table.players
    verify()


def test_called_time_ranks_the_table_by_fewest_points_in_hand(organiser):
    tournament = knockout(organiser)
    first, _ = tables(tournament, 1)
    state = game_services.load_game(game_id=first.game_id)
    from rules.variants import get_variant

    points = [sum(get_variant("classic").points(c) for c in hand) for hand in state.hands]
    expected = sorted(range(2), key=lambda seat: (points[seat], len(state.hands[seat]), seat))

    directing.call_time(
        tournament_id=tournament.pk,
        round_number=1,
        table_number=first.number,
        reason="the round's 40 minutes are up",
        by=organiser,
    )
    first.refresh_from_db()
    assert first.placings == [first.players[seat] for seat in expected]
    assert first.decided_by == Table.DecidedBy.TIME
    assert Ruling.objects.get(tournament=tournament, kind=Ruling.Kind.TIME).reason.startswith(
        "the round's"
    )


def test_an_awarded_table_takes_no_more_moves_until_the_director_reopens_it(organiser):
    """Its game cannot come to another result than the bracket's: a seat's command is refused
    saying who decided the table and how; reopening the table lets play go on."""
    from games.pages.table import table_context
    from games.pages.viewers import Viewer
    from rules import legal_commands

    tournament = knockout(organiser)
    first, _ = tables(tournament, 1)
    directing.award_result(
        tournament_id=tournament.pk,
        round_number=1,
        table_number=first.number,
        kind="forfeit",
        placings=first.players,
        reason="conceded",
        by=organiser,
    )
    state = game_services.load_game(game_id=first.game_id)
    seat = state.pending[1]
    command = legal_commands(state, seat)[0]
    with pytest.raises(IllegalCommand, match="awarded this table's result") as refused:
        game_services.apply_command(
            game_id=first.game_id, command=command, actor=game_services.seat_actor(seat)
        )
    assert f"1st {first.players[0]}, 2nd {first.players[1]}" in str(refused.value)
    assert game_services.load_game(game_id=first.game_id).version == state.version
    page = table_context(
        game_services.get_game(first.game_id),
        Viewer(seat=seat, referee=False, actor=game_services.seat_actor(seat)),
    )
    assert page["closed"] and page["status_text"].startswith("The tournament's director")
    assert not page["your_turn"] and not page["actions"]
    from games.serializers import present_game
    from rules.views import game_view

    api = present_game(game_services.get_game(first.game_id), game_view(state, seat))
    assert api["closed"].startswith("The tournament's director") and api["legal"] == []

    directing.reopen_table(
        tournament_id=tournament.pk,
        round_number=1,
        table_number=first.number,
        reason="award in error",
        by=organiser,
    )
    game_services.apply_command(
        game_id=first.game_id, command=command, actor=game_services.seat_actor(seat)
    )
    assert game_services.load_game(game_id=first.game_id).version > state.version


def test_advance_is_refused_while_a_table_plays(organiser):
    tournament = knockout(organiser)
    with pytest.raises(IllegalCommand, match="still playing"):
        directing.advance_round(tournament_id=tournament.pk, by=organiser)


def test_repairing_a_round_before_play_seats_it_from_the_entries_as_they_are(organiser):
    tournament = swiss_of_four(organiser)
    tournament_services.drop_entry(tournament_id=tournament.pk, player="Dee", by=organiser)
    directing.repair_round(tournament_id=tournament.pk, reason="Dee went home", by=organiser)
    [rnd] = Round.objects.filter(tournament=tournament)
    seated = {p for t in rnd.tables.all() for p in t.players}
    assert "Dee" not in seated and len(seated) + len(rnd.byes) == 3
    play_game(rnd.tables.get().game_id)
    with pytest.raises(IllegalCommand, match="play has begun"):
        directing.repair_round(tournament_id=tournament.pk, reason="again", by=organiser)


def test_a_table_reopened_after_its_duplicate_deal_was_shown_takes_no_more_moves(organiser):
    """Every table of a duplicate-deal round over, the round's deal is shown to everyone: a
    table decided by a ruling and then reopened cannot go back to being played blind. Its game
    stays closed, saying so, and the director decides the table again. Reopened while another
    table of the round still plays, the deal was never shown, and play goes on."""
    from games.models import Game
    from games.visibility import is_revealed
    from rules import legal_commands

    tournament = knockout(organiser, duplicate_deals=True)
    first, second = tables(tournament, 1)

    def award(table):
        directing.award_result(
            tournament_id=tournament.pk,
            round_number=1,
            table_number=table.number,
            kind="no_show",
            placings=table.players,
            reason="late",
            by=organiser,
        )

    def reopen(table):
        directing.reopen_table(
            tournament_id=tournament.pk,
            round_number=1,
            table_number=table.number,
            reason="arrived",
            by=organiser,
        )

    def move(table):
        state = game_services.load_game(game_id=table.game_id)
        seat = state.pending[1]
        game_services.apply_command(
            game_id=table.game_id,
            command=legal_commands(state, seat)[0],
            actor=game_services.seat_actor(seat),
        )

    # Decided and reopened while the other table plays: the deal was never shown.
    award(second)
    reopen(second)
    assert Game.objects.get(pk=second.game_id).closed == ""
    move(second)

    finish(first)
    assert not is_revealed(Game.objects.get(pk=first.game_id))  # the other table still plays
    award(second)
    assert is_revealed(Game.objects.get(pk=first.game_id))  # every table over: deal shown
    reopen(second)

    assert Game.objects.get(pk=second.game_id).closed == tournament_services.DEAL_SHOWN
    before = game_services.load_game(game_id=second.game_id).version
    with pytest.raises(IllegalCommand, match="the round's deal has been shown to everyone"):
        move(second)
    assert game_services.load_game(game_id=second.game_id).version == before
    second.refresh_from_db()
    assert second.status == Table.Status.PLAYING
    award(second)  # the director decides it again
    second.refresh_from_db()
    assert second.status == Table.Status.FINISHED
    # A turn timer of that game finds nothing to do, and counts nobody absent.
    reopen(second)
    state = game_services.load_game(game_id=second.game_id)
    assert not tournament_services.time_out_turn(game_id=second.game_id, version=state.version)
    second.refresh_from_db()
    assert second.timeouts == {} and second.status == Table.Status.PLAYING


def test_a_round_nobody_left_or_joined_is_not_seated_again_for_new_cards(organiser):
    """Seating an unchanged round again would only deal new cards, which a director who
    referees the tables could do until the cards suited someone: it is refused."""
    tournament = tournament_services.create_tournament(
        name="Cup",
        organiser=organiser,
        format="elimination",
        table_size=4,
        scoring="none",
        players=["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"],
    )
    tournament_services.start_tournament(tournament_id=tournament.pk, by=organiser)
    games = sorted(Table.objects.filter(round__tournament=tournament).values_list("game_id"))

    with pytest.raises(IllegalCommand, match="nothing but the cards dealt"):
        directing.repair_round(tournament_id=tournament.pk, reason="again", by=organiser)

    assert sorted(Table.objects.filter(round__tournament=tournament).values_list("game_id")) == (
        games
    )
    assert not Ruling.objects.filter(tournament=tournament, kind=Ruling.Kind.REPAIRED).exists()


def undo_finished_follow_up_lost(game_id):
    """``undo_finished`` whose follow-up after the commit never ran (the database went away,
    or the process stopped, between the undo's commit and the withdrawal of the result)."""
    start = game_services._first_hand_start(game_id)
    game_services.undo(game_id=game_id, to_version=start, reason="misdeal", by=REFEREE, reopen=True)


def test_an_undo_whose_withdrawal_was_lost_seats_no_round_from_the_result(organiser):
    tournament = knockout(organiser)
    first, second = tables(tournament, 1)
    finish(first)
    undo_finished_follow_up_lost(first.game_id)
    first.refresh_from_db()
    assert first.status == Table.Status.FINISHED  # the bracket still holds the undone result

    finish(second)  # the round's last table: its task would seat round 2 from both results

    first.refresh_from_db()
    assert first.status == Table.Status.PLAYING and first.placings == []
    assert not Round.objects.filter(tournament=tournament, number=2).exists()
    assert Ruling.objects.filter(tournament=tournament, kind=Ruling.Kind.WITHDRAWN).count() == 1
    finish(first)
    [final] = tables(tournament, 2)
    assert set(final.players) == {first.placings[0], second.placings[0]}


def test_a_finished_tournament_whose_final_was_undone_unseen_is_running_after_a_sweep(organiser):
    tournament = knockout(organiser, players=("Ann", "Bob"))
    [final] = tables(tournament, 1)
    finish(final)
    undo_finished_follow_up_lost(final.game_id)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED and tournament.winner

    tasks.sweep_rounds()

    tournament.refresh_from_db()
    final.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING and tournament.winner == ""
    assert final.status == Table.Status.PLAYING
    finish(final)
    tournament.refresh_from_db()
    assert (tournament.status, tournament.winner) == ("finished", final.placings[0])
