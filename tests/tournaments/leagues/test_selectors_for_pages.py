"""Reads for the league pages: sorting the standings by any column, and a score sheet's hands
as they stand after undos (including an undo back to a version an earlier undo took away)."""

import pytest

from games import services as game_services
from tests.tournaments.brackets.support import cup_table
from tournaments.leagues import selectors, services, standings
from tournaments.leagues.selectors import Column, sort_rows, standing_columns

ROWS = [
    {"player": "Ann", "rating": 27.0, "average_placing": 1.5, "wins": 2},
    {"player": "bob", "rating": None, "average_placing": None, "wins": 0},
    {"player": "Cy", "rating": 24.0, "average_placing": 2.0, "wins": 2},
    {"player": "Dee", "rating": 25.0, "average_placing": 1.5, "wins": 1},
]


def names(rows):
    return [row["player"] for row in rows]


def column(name):
    by_name = {c.name: c for c in standing_columns(points_order="higher", attendance_points=0)}
    return by_name[name]


def test_missing_values_sort_last_in_both_directions():
    assert names(sort_rows(ROWS, column("rating"), "desc")) == ["Ann", "Dee", "Cy", "bob"]
    assert names(sort_rows(ROWS, column("rating"), "asc")) == ["Cy", "Dee", "Ann", "bob"]
    assert names(sort_rows(ROWS, column("average_placing"), "asc"))[-1] == "bob"
    assert names(sort_rows(ROWS, column("average_placing"), "desc"))[-1] == "bob"


def test_equal_values_keep_the_official_order_in_both_directions():
    assert names(sort_rows(ROWS, column("wins"), "desc")) == ["Ann", "Cy", "Dee", "bob"]
    assert names(sort_rows(ROWS, column("wins"), "asc")) == ["bob", "Dee", "Ann", "Cy"]


def test_names_sort_without_regard_to_case():
    assert names(sort_rows(ROWS, column("player"), "asc")) == ["Ann", "bob", "Cy", "Dee"]


def test_points_sort_best_first_by_the_seasons_scoring():
    def points(order):
        columns = standing_columns(points_order=order, attendance_points=0)
        return next(c for c in columns if c.name == "points")

    assert (points("higher").label, points("higher").best_first) == ("Points scored", "desc")
    assert (points("lower").label, points("lower").best_first) == ("Points held", "asc")


def test_league_and_attendance_points_are_columns_only_when_the_season_gives_them():
    plain = [c.name for c in standing_columns(points_order="higher", attendance_points=0)]
    given = [c.name for c in standing_columns(points_order="higher", attendance_points=2)]

    assert "league_points" not in plain and "attendance_points" not in plain
    assert sorted(given) == sorted([*plain, "attendance_points", "league_points"])
    assert all(
        isinstance(c, Column) for c in standing_columns(points_order="x", attendance_points=1)
    )


def test_the_column_that_decides_the_order_comes_right_after_the_players_name():
    plain = [c.name for c in standing_columns(points_order="higher", attendance_points=0)]
    given = [c.name for c in standing_columns(points_order="higher", attendance_points=2)]

    # Wins decide a season without attendance points; league points one with them.
    assert plain == [
        "rank",
        "player",
        "wins",
        "nights",
        "games",
        "placings",
        "hands_won",
        "points",
        "average_placing",
        "rating",
    ]
    assert given == [
        "rank",
        "player",
        "league_points",
        "nights",
        "games",
        "wins",
        "placings",
        "hands_won",
        "points",
        "average_placing",
        "rating",
        "attendance_points",
    ]
    for attendance_points, names in ((0, plain), (2, given)):
        assert names[2] == standings.tie_breakers(attendance_points)[0]


# Score sheets -----------------------------------------------------------------------------------


@pytest.fixture
def sheet(season, organiser):
    return services.start_season_game(
        season=season, players=["Ann", "Bob", "Cy"], created_by=organiser, sheet=True
    )


def hand(game, out, points):
    return services.record_hand(
        game_id=game.pk, out=out, points={str(k): v for k, v in points.items()}, actor="system"
    )


def test_the_hands_stand_with_running_totals_equal_to_the_games_state(sheet):
    hand(sheet, 0, {1: 10, 2: 5})
    hand(sheet, 1, {0: 7, 2: 3})

    hands = selectors.score_sheet(sheet.pk)["hands"]

    assert [h["number"] for h in hands] == [1, 2]
    assert [s["total"] for s in hands[-1]["seats"]] == [15, 10, 0]
    assert [s["gained"] for s in hands[0]["seats"]] == [15, 0, 0]
    assert [s["held"] for s in hands[1]["seats"]] == [7, 0, 3]
    state = game_services.load_game(game_id=sheet.pk)
    assert tuple(s["total"] for s in hands[-1]["seats"]) == state.scores


def test_undoing_to_a_version_an_earlier_undo_took_away_brings_its_hands_back(sheet):
    hand(sheet, 0, {1: 1, 2: 1})
    hand(sheet, 0, {1: 2, 2: 2})
    third = hand(sheet, 0, {1: 3, 2: 3})
    sheet_now = selectors.score_sheet(sheet.pk)
    before_second = sheet_now["hands"][1]["undo_to"]

    game_services.undo(game_id=sheet.pk, to_version=before_second, reason="t", by="system")
    assert [h["number"] for h in selectors.score_sheet(sheet.pk)["hands"]] == [1]

    game_services.undo(game_id=sheet.pk, to_version=third.version, reason="t", by="system")
    hands = selectors.score_sheet(sheet.pk)["hands"]

    assert [h["number"] for h in hands] == [1, 2, 3]
    state = game_services.load_game(game_id=sheet.pk)
    assert tuple(s["total"] for s in hands[-1]["seats"]) == state.scores == (12, 0, 0)


def test_a_finished_sheet_has_its_result_in_rank_order(sheet, season):
    while not selectors.score_sheet(sheet.pk)["finished"]:
        hand(sheet, 2, {0: 100, 1: 200})

    result = selectors.score_sheet(sheet.pk)["result"]

    assert [(r["player"], r["rank"]) for r in result] == [("Cy", 1), ("Ann", 2), ("Bob", 2)]


# The event a table is played at (games.registry.event_page) ----------------------------------


@pytest.mark.django_db
def test_a_table_names_its_league_night_or_tournament_and_no_other_table_names_one(
    season, organiser
):
    from games import registry

    night = services.open_night(season=season, by=organiser)
    league_game = services.start_season_game(
        season=season, players=["Ann", "Bob"], night=night, created_by=organiser
    )
    cup_game, cup = cup_table(organiser, name="Winter Cup")
    lone_game = game_services.create_game(
        variant="classic", players=["Ann", "Bob"], scoring="none", target=500
    )

    at_night = registry.event_page(league_game)
    assert (at_night.title, at_night.what) == (
        "Night 1 of Autumn",
        "a league night of Thursday Club",
    )
    assert at_night.url == f"/nights/{night.pk}/"
    at_cup = registry.event_page(cup_game)
    assert (at_cup.title, at_cup.what, at_cup.url) == (
        "Winter Cup",
        "the tournament",
        f"/tournaments/{cup.pk}/",
    )
    assert registry.event_page(lone_game) is None
