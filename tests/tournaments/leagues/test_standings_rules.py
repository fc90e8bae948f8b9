"""The standings' rules as pure functions (no database): what a game gives each seat, the order
of the table and its tie-breakers, shared ranks, best N nights and attendance points."""

from rules import command_from_dict, new_game, step
from tournaments.leagues.standings import (
    NightTotals,
    Totals,
    finished_results,
    next_finish,
    rank_rows,
    season_totals,
    tie_breaker_notes,
    tie_breakers,
)


def row(name, *, wins=0, points=0, games=1, placing_sum=None, hands_won=0, league_points=None):
    return {
        "player": name,
        "player_id": hash(name) % 1000,
        "games": games,
        "wins": wins,
        "points": points,
        "placing_sum": games if placing_sum is None else placing_sum,
        "hands_won": hands_won,
        "league_points": wins if league_points is None else league_points,
    }


def names(ranked):
    return [(r["rank"], r["player"]) for r in ranked]


def test_more_wins_rank_first_then_more_points():
    ranked = rank_rows(
        [
            row("Ann", wins=1, points=900),
            row("Bob", wins=2, points=10),
            row("Cy", wins=1, points=901),
        ],
        scoring="standard",
    )
    assert names(ranked) == [(1, "Bob"), (2, "Cy"), (3, "Ann")]


def test_in_alternative_scoring_fewer_points_held_rank_first():
    ranked = rank_rows(
        [row("Ann", wins=1, points=300), row("Bob", wins=1, points=120)], scoring="alternative"
    )
    assert names(ranked) == [(1, "Bob"), (2, "Ann")]


def test_level_on_wins_and_points_the_better_average_placing_ranks_first_then_hands_won():
    ranked = rank_rows(
        [
            row("Ann", wins=1, points=100, games=3, placing_sum=7, hands_won=9),
            row("Bob", wins=1, points=100, games=3, placing_sum=6, hands_won=1),
            row("Cy", wins=1, points=100, games=3, placing_sum=7, hands_won=10),
        ],
        scoring="standard",
    )
    assert names(ranked) == [(1, "Bob"), (2, "Cy"), (3, "Ann")]


def test_the_average_placing_is_compared_exactly_not_rounded():
    # 5/3 and 10/6 are equal; 5/3 and 16/9 are not, though both round to 1.7.
    ranked = rank_rows(
        [
            row("Ann", games=3, placing_sum=5),
            row("Bob", games=6, placing_sum=10),
            row("Cy", games=9, placing_sum=16),
        ],
        scoring="standard",
    )
    assert names(ranked) == [(1, "Ann"), (1, "Bob"), (3, "Cy")]


def test_players_level_on_every_tie_breaker_share_the_rank_and_are_listed_by_name():
    ranked = rank_rows(
        [row("bob", wins=2), row("Ann", wins=2), row("Cy", wins=1), row("Dee", wins=3)],
        scoring="standard",
    )
    assert names(ranked) == [(1, "Dee"), (2, "Ann"), (2, "bob"), (4, "Cy")]


def test_with_attendance_points_league_points_come_first():
    rows = [row("Ann", wins=3, league_points=5), row("Bob", wins=2, league_points=6)]
    assert names(rank_rows(rows, scoring="standard", attendance_points=1)) == [
        (1, "Bob"),
        (2, "Ann"),
    ]
    assert names(rank_rows(rows, scoring="standard")) == [(1, "Ann"), (2, "Bob")]
    assert tie_breakers(1) == ["league_points", "wins", "points", "average_placing", "hands_won"]
    assert tie_breakers(0) == ["wins", "points", "average_placing", "hands_won"]


def test_the_notes_under_the_table_say_which_way_points_count():
    standard = tie_breaker_notes(scoring="standard")
    alternative = tie_breaker_notes(scoring="alternative", attendance_points=2, best_nights=8)
    assert any("more is better" in n and n.startswith("Points") for n in standard)
    assert any("fewer is better" in n and n.startswith("Points") for n in alternative)
    assert alternative[0].startswith("League points")
    assert any("best 8 nights" in n for n in alternative)
    assert any("share the rank" in n for n in standard)


def night(number, *, wins=0, points=0, games=1, placing_sum=None, hands_won=0):
    totals = Totals(
        games, wins, points, games if placing_sum is None else placing_sum, [], hands_won
    )
    return NightTotals(number, totals)


def test_only_the_best_n_nights_count_when_the_season_says_so():
    nights = [
        night(1, wins=1, points=50),
        night(2, wins=3, points=10),
        night(3, wins=1, points=80),
        night(4, wins=0, points=500),
    ]
    line = season_totals(nights, scoring="standard", best_nights=2)
    assert (line.nights, line.nights_counted) == (4, 2)
    assert (line.totals.wins, line.totals.points, line.totals.games) == (4, 90, 2)


def test_in_alternative_scoring_the_best_nights_hold_the_fewest_points():
    nights = [night(1, wins=1, points=50), night(2, wins=1, points=10), night(3, wins=1, points=80)]
    line = season_totals(nights, scoring="alternative", best_nights=2)
    assert line.totals.points == 60


def test_nights_level_on_everything_count_the_earlier_one():
    nights = [night(1, wins=1, points=5, hands_won=2), night(2, wins=1, points=5, hands_won=2)]
    line = season_totals(nights, scoring="standard", best_nights=1)
    assert line.nights_counted == 1 and line.totals.wins == 1


def test_each_counted_night_earns_attendance_points_on_top_of_one_per_win():
    nights = [night(1, wins=2), night(2, wins=0), night(3, wins=1)]
    line = season_totals(nights, scoring="standard", attendance_points=3)
    assert (line.attendance_points, line.league_points) == (9, 12)
    best = season_totals(nights, scoring="standard", attendance_points=3, best_nights=2)
    assert (best.attendance_points, best.league_points) == (6, 9)


def test_totals_that_went_up_and_down_equal_totals_that_never_moved():
    totals = Totals()
    totals.add_result(rank=4, won=False, points=0, hands_won=2)
    totals.add_result(rank=4, won=False, points=0, hands_won=2, sign=-1)
    assert totals == Totals()


def sheet_game(players, scoring="standard", target=100):
    state, _ = new_game(players=players, scoring=scoring, target=target, seed="s", sheet=True)
    return state


def record(state, out, points):
    data = {"type": "record_hand", "out": out, "points": {str(k): v for k, v in points.items()}}
    return step(state, command_from_dict(None, data))[0]


def test_a_game_gives_nothing_until_it_is_over():
    state = record(sheet_game(3), 0, {1: 10, 2: 20})
    assert finished_results(state) is None


def test_a_finished_game_gives_every_seat_its_rank_score_and_hands_won_with_ties_shared():
    state = sheet_game(4, target=50)
    state = record(state, 1, {0: 5, 2: 10, 3: 5})
    state = record(state, 0, {1: 10, 2: 10, 3: 10})
    state = record(state, 1, {0: 20, 2: 10, 3: 5})
    results = finished_results(state)
    assert [(r.seat, r.rank, r.won, r.score, r.hands_won) for r in results] == [
        (0, 2, False, 30, 1),
        (1, 1, True, 55, 2),
        (2, 3, False, 0, 0),
        (3, 3, False, 0, 0),
    ]


def test_in_alternative_scoring_the_lowest_total_wins():
    state = sheet_game(3, scoring="alternative", target=50)
    state = record(state, 0, {1: 30, 2: 10})
    state = record(state, 1, {0: 40, 2: 45})
    results = finished_results(state)
    assert [(r.rank, r.score, r.won) for r in results] == [
        (2, 40, False),
        (1, 30, True),
        (3, 55, False),
    ]


def test_a_result_keeps_its_finish_position_until_a_rewind_changes_it():
    state = sheet_game(2, target=10)
    over = record(state, 0, {1: 20})
    results, at = next_finish(None, None, over, 40)
    assert at == 40
    assert next_finish(results, at, over, 99) == (results, 40)
    other = record(state, 1, {0: 20})
    assert next_finish(results, at, other, 99)[1] == 99
    assert next_finish(results, at, state, 99) == (None, None)
