"""Both scoring modes end to end: games the bots play through the services, and what they put
in the standings (standard: the player who goes out scores; alternative: each holds their own
points and the lowest total wins; none: one hand)."""

import pytest

from games import services as game_services
from tournaments.leagues import selectors, services
from tournaments.leagues.demo import play_with_bots
from tournaments.leagues.models import GameResult

pytestmark = pytest.mark.django_db


def played(season, organiser, scoring, target, seed):
    game = services.start_season_game(
        season=season,
        players=["Ann", "Bob", "Cy"],
        created_by=organiser,
        scoring=scoring,
        target=target,
    )
    play_with_bots(game.pk, seed=seed)
    return game, game_services.load_game(game_id=game.pk)


def by_name(season):
    return {row["player"]: row for row in selectors.season_standings(season.pk)["rows"]}


def test_in_standard_scoring_the_first_to_the_target_wins_and_points_are_those_scored(
    season, organiser
):
    game, state = played(season, organiser, "standard", 60, "std")

    names = ["Ann", "Bob", "Cy"]
    winner = names[state.winner]
    assert state.scores[state.winner] >= 60
    assert state.scores[state.winner] == max(state.scores)
    table = by_name(season)
    assert table[winner]["wins"] == 1 and table[winner]["rank"] == 1
    for seat, name in enumerate(names):
        assert table[name]["points"] == state.scores[seat]
        assert table[name]["hands_won"] == state.hands_won[seat]
        assert table[name]["placings"][state.ranks[seat] - 1] == 1


def test_in_alternative_scoring_the_lowest_total_wins_and_points_are_those_held(league, organiser):
    season = services.open_season(league=league, name="Lowball", scoring="alternative")
    game, state = played(season, organiser, None, 40, "alt")

    assert state.scoring == "alternative"
    assert max(state.scores) >= 40
    assert state.scores[state.winner] == min(state.scores)
    body = selectors.season_standings(season.pk)
    assert body["points"] == "lower"
    rows = body["rows"]
    # Everyone played one game: the table follows the game's placings, fewest points first.
    assert [row["points"] for row in rows] == sorted(state.scores)
    assert rows[0]["wins"] == 1


def test_without_scoring_a_game_is_one_hand_and_adds_no_points(season, organiser):
    game, state = played(season, organiser, "none", 500, "none")

    assert state.hand_number == 1
    table = by_name(season)
    assert sum(row["wins"] for row in table.values()) == 1
    assert all(row["points"] == 0 for row in table.values())


def test_a_game_scored_unlike_its_season_counts_but_adds_no_points(season, organiser):
    game, state = played(season, organiser, "alternative", 30, "odd")

    results = GameResult.objects.filter(game=game)
    assert {r.scoring for r in results} == {"alternative"}
    table = by_name(season)
    assert sum(row["wins"] for row in table.values()) == 1
    assert all(row["points"] == 0 for row in table.values())
    assert all(row["games"] == 1 for row in table.values())
