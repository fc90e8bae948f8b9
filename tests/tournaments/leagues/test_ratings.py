"""Ratings: openskill's Plackett-Luce over each game's placings, folded in finish order."""

from tournaments.leagues.ratings import DEFAULT, FinishedGame, rate, rate_games


def test_the_winner_gains_and_the_last_loses():
    after = rate([DEFAULT] * 3, [1, 2, 3])
    assert after[0].mu > DEFAULT.mu > after[2].mu
    assert after[0].mu > after[1].mu > after[2].mu


def test_players_who_tie_in_a_game_move_alike():
    after = rate([DEFAULT] * 4, [1, 2, 2, 4])
    assert after[1] == after[2]


def test_each_game_makes_the_estimate_more_certain():
    after = rate([DEFAULT] * 2, [1, 2])
    assert all(r.sigma < DEFAULT.sigma for r in after)


def test_a_season_is_a_fold_in_finish_order_whatever_order_the_games_come_in():
    games = [
        FinishedGame("g1", 10, (("ann", 1), ("bob", 2))),
        FinishedGame("g2", 20, (("bob", 1), ("cy", 2), ("ann", 3))),
        FinishedGame("g3", 30, (("cy", 1), ("ann", 2))),
    ]
    ratings, history = rate_games(games)
    shuffled, again = rate_games([games[2], games[0], games[1]])
    assert ratings == shuffled and history == again
    assert [e.game for e in history] == ["g1", "g1", "g2", "g2", "g2", "g3", "g3"]
    ann = [e for e in history if e.player == "ann"]
    assert ann[1].before == ann[0].after and ann[2].before == ann[1].after
    assert ratings["ann"] == ann[-1].after


def test_an_upset_moves_ratings_more_than_an_expected_result():
    strong, weak = rate([DEFAULT, DEFAULT], [1, 2])
    expected = rate([strong, weak], [1, 2])
    upset = rate([strong, weak], [2, 1])
    assert abs(upset[1].mu - weak.mu) > abs(expected[1].mu - weak.mu)
