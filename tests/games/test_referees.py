"""Who referees a game, and which seat a secret opens."""

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser

from games import registry, services
from games.models import GameReferee


@pytest.fixture
def users(db):
    make = get_user_model().objects.create_user
    return make("creator"), make("helper"), make("organiser"), make("player")


def test_the_creator_and_named_referees_referee_a_game(make_game, users):
    creator, helper, organiser, player = users
    game = make_game(created_by=creator)
    GameReferee.objects.create(game=game, user=helper)

    assert services.is_referee(creator, game)
    assert services.is_referee(helper, game)
    assert not services.is_referee(player, game)
    assert not services.is_referee(AnonymousUser(), game)
    assert not services.is_referee(None, game)


def test_other_apps_can_make_referees_through_the_registry(make_game, users):
    creator, _, organiser, player = users
    game = make_game(created_by=creator, season_id=12)

    def organises_the_season(user, game):
        return game.season_id == 12 and user.username == "organiser"

    registry.referee_checks.append(organises_the_season)
    try:
        assert services.is_referee(organiser, game)
        assert not services.is_referee(player, game)
    finally:
        registry.referee_checks.remove(organises_the_season)
    assert not services.is_referee(organiser, game)


def test_a_seat_secret_opens_its_own_seat_of_its_own_game_only(make_game):
    game, other = make_game(seed="a"), make_game(seed="b")
    bob = game.seats.get(seat=1)

    assert services.seat_for_secret(game, bob.secret) == bob
    assert services.seat_for_secret(game.pk, bob.secret) == bob
    assert services.seat_for_secret(other, bob.secret) is None
    assert services.seat_for_secret(game, "") is None
    assert services.seat_for_secret(game, bob.secret[:-1]) is None
