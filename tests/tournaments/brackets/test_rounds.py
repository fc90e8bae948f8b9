"""A tournament's next round and standings as pure functions over plain rows (no database)."""

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.brackets import rounds as brackets
from tournaments.brackets.rounds import EntryRow, Finished, NextRound, RoundRow, Settings, TableRow


def entries(n, **dropped):
    return [EntryRow(f"P{i:02d}", i, f"P{i:02d}" in dropped) for i in range(1, n + 1)]


def finish(nxt: NextRound, order=lambda players: players) -> RoundRow:
    """The round ``nxt`` seated, with every table placed in ``order`` of its seats."""
    tables = tuple(TableRow(tuple(t), tuple(order(list(t)))) for t in nxt.tables)
    return RoundRow(nxt.number, nxt.kind, tables, tuple(nxt.byes))


def play_out(setup, field, order=lambda players: players, limit=20):
    rounds = []
    for _ in range(limit):
        nxt = brackets.next_round(setup, field, rounds)
        if isinstance(nxt, Finished):
            return rounds, nxt
        rounds.append(finish(nxt, order))
    raise AssertionError("the tournament did not end")


def test_elimination_goes_to_one_final_table():
    setup = Settings("elimination", table_size=4, advance=2)
    rounds, done = play_out(setup, entries(10))
    assert [r.kind for r in rounds] == ["elimination", "elimination", "final"]
    assert [len(t.players) for t in rounds[0].tables] == [4, 3, 3]
    assert len(rounds[1].tables[0].players) + len(rounds[1].tables[1].players) == 6
    assert done.winner == "P01"  # seats placed in seat order: the best seed wins every table


def test_a_round_still_playing_seats_nothing():
    setup = Settings("elimination", table_size=4, advance=2)
    first = brackets.next_round(setup, entries(8), [])
    playing = RoundRow(1, first.kind, (TableRow(tuple(first.tables[0])),))
    assert brackets.next_round(setup, entries(8), [playing]) is None


def test_knockout_of_an_odd_field_gives_the_top_seed_a_bye():
    setup = Settings("elimination", table_size=2, advance=1)
    first = brackets.next_round(setup, entries(5), [])
    assert first.byes == ["P01"]
    rounds, done = play_out(setup, entries(5))
    assert done.winner == "P01"


def test_elimination_drops_and_late_entries_between_rounds():
    setup = Settings("elimination", table_size=3, advance=1)
    field = entries(9)
    first = finish(brackets.next_round(setup, field, []))
    winners = [t.placings[0] for t in first.tables]
    field = [EntryRow(e.player, e.seed, e.player == winners[0]) for e in field]
    field.append(EntryRow("Late", 10, joined=2))
    second = brackets.next_round(setup, field, [first])
    seated = sorted(p for t in second.tables for p in t)
    assert seated == sorted([*winners[1:], "Late"])


def test_swiss_rounds_then_a_final_table():
    setup = Settings("swiss", table_size=4, rounds=3, final_table=True)
    rounds, done = play_out(setup, entries(10))
    assert [r.kind for r in rounds] == ["swiss", "swiss", "swiss", "final"]
    for r in rounds[:3]:
        assert sorted(len(t.players) for t in r.tables) == [3, 3, 4]
    assert len(rounds[3].tables[0].players) == 4
    assert done.winner == rounds[3].tables[0].placings[0]
    table = brackets.standings(setup, entries(10), rounds)
    assert table[0].player == done.winner and table[0].final_placing == 1


def test_swiss_bye_goes_to_the_lowest_standing_player_and_scores_a_win():
    setup = Settings("swiss", table_size=2, rounds=1)
    nxt = brackets.next_round(setup, entries(3), [])
    assert nxt.byes == ["P03"]
    table = brackets.standings(setup, entries(3), [finish(nxt)])
    points = {row.player: row.points for row in table}
    assert points == {"P01": 1, "P02": 0, "P03": 1}
    assert [row.player for row in table][:2] == ["P01", "P03"]  # P01 has the win


def test_table_points_weigh_tables_of_different_sizes_alike():
    assert brackets.table_points(1, 4) == brackets.table_points(1, 3) == 1
    assert brackets.table_points(4, 4) == brackets.table_points(3, 3) == 0
    assert brackets.table_points(2, 3) == Fraction(1, 2)


def test_standings_share_a_rank_when_level_on_every_tie_breaker():
    setup = Settings("swiss", table_size=2, rounds=1)
    rounds = [
        RoundRow(
            1,
            "swiss",
            (TableRow(("P01", "P02"), ("P01", "P02")), TableRow(("P03", "P04"), ("P03", "P04"))),
        )
    ]
    table = brackets.standings(setup, entries(4), rounds)
    assert [(r.player, r.rank) for r in table] == [("P01", 1), ("P03", 1), ("P02", 3), ("P04", 3)]


@settings(max_examples=40, deadline=None)
@given(
    st.integers(2, 30),
    st.integers(2, 8),
    st.integers(1, 4),
    st.sampled_from(["elimination", "swiss"]),
    st.randoms(use_true_random=False),
)
def test_every_tournament_ends_with_a_winner_who_played(n, size, advance, fmt, rng):
    setup = Settings(
        fmt, table_size=size, advance=min(advance, size - 1), rounds=3, final_table=True
    )

    def shuffled(players):
        rng.shuffle(players)
        return players

    rounds, done = play_out(setup, entries(n), shuffled, limit=40)
    assert done.winner is not None
    for r in rounds:
        seated = [p for t in r.tables for p in t.players] + list(r.byes)
        assert len(seated) == len(set(seated))
        # A knockout at tables of two whose field has all had a bye seats a table of three
        # rather than give anyone a second bye.
        most = size + 1 if fmt == "elimination" and size == 2 else size
        assert all(2 <= len(t.players) <= most for t in r.tables)
    if fmt == "elimination":
        byes = [p for r in rounds for p in r.byes]
        assert len(byes) == len(set(byes))
    assert rounds[-1].kind == "final" and done.winner in rounds[-1].tables[0].players
