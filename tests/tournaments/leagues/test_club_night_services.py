"""The organiser's night through the services: closing a night, named organisers and referees of
a league or a tournament, a hand shown before it is recorded, and the deck's cap on a score
sheet's points (the API refuses it too, naming the field)."""

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from games import services as game_services
from games.errors import Forbidden
from games.models import Event, Game
from rules import IllegalCommand, InvalidCommand
from tournaments.brackets import services as bracket_services
from tournaments.brackets.models import Table
from tournaments.leagues import selectors, services
from tournaments.leagues.demo import play_with_bots
from tournaments.leagues.models import Organiser, Referee

pytestmark = pytest.mark.django_db


@pytest.fixture
def rita(db):
    return get_user_model().objects.create_user("rita", password="pw", first_name="Rita")


def sheet_game(season, organiser, night, players=("Ann", "Bob", "Cy")):
    return services.start_season_game(
        season=season, players=list(players), night=night, created_by=organiser, sheet=True
    )


# Closing a night ---------------------------------------------------------------------------------


def test_a_night_with_a_table_still_playing_is_not_closed_and_says_which(season, organiser):
    night = services.open_night(season=season)
    sheet_game(season, organiser, night)
    playing = sheet_game(season, organiser, night, ["Dee", "Eve"])
    services.record_hand(
        game_id=sheet_game(season, organiser, night, ["Fay", "Gus"]).pk,
        out=0,
        points={"1": 600},
        actor="system",
    )

    with pytest.raises(IllegalCommand, match=r"table 1, 2\)"):
        services.close_night(night=night, by=organiser)

    night.refresh_from_db()
    assert night.closed_at is None and playing.status == Game.Status.PLAYING


def test_a_night_closed_anyway_leaves_its_table_playing_to_count_when_it_ends(season, organiser):
    night = services.open_night(season=season)
    game = sheet_game(season, organiser, night)

    services.close_night(night=night, by=organiser, leave_playing=True)

    night.refresh_from_db()
    assert night.closed_at is not None
    services.record_hand(game_id=game.pk, out=2, points={"0": 300, "1": 300}, actor="system")
    assert selectors.season_standings(season.pk)["rows"][0]["player"] == "Cy"


def test_a_closed_night_seats_no_more_tables_and_today_opens_a_new_one(season, organiser):
    night = services.open_night(season=season)
    game = sheet_game(season, organiser, night)
    services.record_hand(game_id=game.pk, out=0, points={"1": 300, "2": 300}, actor="system")

    services.close_night(night=night, by=organiser)

    night.refresh_from_db()
    assert night.closed_at is not None
    with pytest.raises(IllegalCommand, match="is closed"):
        sheet_game(season, organiser, night, ["Dee", "Eve"])
    later = services.start_season_game(season=season, players=["Dee", "Eve"], sheet=True)
    assert later.season_game.night.number == 2


def test_only_an_organiser_closes_a_night(season, rita):
    night = services.open_night(season=season)
    with pytest.raises(Forbidden):
        services.close_night(night=night, by=rita)


def test_the_standings_moves_compare_with_the_table_before_the_night(season, organiser):
    first, second = services.open_night(season=season), services.open_night(season=season)
    for night, out in ((first, 0), (second, 1), (second, 1)):
        game = sheet_game(season, organiser, night, ["Ann", "Bob"])
        services.record_hand(game_id=game.pk, out=out, points={str(1 - out): 500}, actor="system")

    moves = {row["player"]: row for row in selectors.standings_moves(season.pk, 2)}

    assert (moves["Bob"]["rank"], moves["Bob"]["before"], moves["Bob"]["moved"]) == (1, 2, 1)
    assert (moves["Ann"]["rank"], moves["Ann"]["before"], moves["Ann"]["moved"]) == (2, 1, -1)
    first_night = {row["player"]: row for row in selectors.standings_moves(season.pk, 1)}
    assert first_night["Ann"]["before"] is None  # new to the table
    # Night 1's page keeps telling how night 1 left the table, whatever came after it.
    assert (first_night["Ann"]["rank"], first_night["Bob"]["rank"]) == (1, 2)
    # The latest night's "after" is the season's table now.
    now = [(r["rank"], r["player"]) for r in selectors.season_standings(season.pk)["rows"]]
    assert [(r["rank"], r["player"]) for r in selectors.standings_moves(season.pk, 2)] == now


# Organisers and referees -------------------------------------------------------------------------


def test_a_named_referee_referees_the_leagues_games_and_no_other(season, organiser, rita):
    game = services.start_season_game(season=season, players=["Ann", "Bob"], created_by=organiser)
    assert not game_services.is_referee(rita, game)

    services.name_referee(league=season.league, username=" rita ", by=organiser)

    assert game_services.is_referee(rita, game)
    assert not services.is_organiser(rita, season.league)
    other = services.open_league(name="Other", created_by=organiser)
    other_game = services.start_season_game(
        season=services.open_season(league=other, name="S", by=organiser),
        players=["Ann", "Bob"],
        created_by=organiser,
    )
    assert not game_services.is_referee(rita, other_game)


def test_a_named_referee_gets_no_seat_links_the_organisers_do(season, organiser, rita):
    """Whoever holds a seat's secret acts as that seat, and the log cannot tell them apart:
    the league's organisers seat its tables and hold the secrets; a named referee rules."""
    game = services.start_season_game(season=season, players=["Ann", "Bob"], created_by=organiser)
    services.name_referee(league=season.league, username="rita", by=organiser)
    other = get_user_model().objects.create_user("otto", password="pw-otto-123")
    Organiser.objects.create(league=season.league, user=other)

    def seats(user):
        api = APIClient()
        api.force_authenticate(user)
        answer = api.get(f"/api/games/{game.pk}/")
        assert answer.status_code == 200
        return answer.json()["seats"]

    assert all("secret" not in seat and seat["hand"] for seat in seats(rita))
    assert all(seat["secret"] for seat in seats(other))
    assert game_services.seats_players(other, game) and not game_services.seats_players(rita, game)


def test_naming_needs_an_organiser_and_an_account_that_exists(season, organiser, rita):
    with pytest.raises(Forbidden):
        services.name_referee(league=season.league, username="olga", by=rita)
    with pytest.raises(InvalidCommand, match="nobody signs in as 'ghost'") as err:
        services.name_referee(league=season.league, username="ghost", by=organiser)
    assert err.value.field == "username"
    assert not Referee.objects.exists()


def test_a_league_keeps_one_organiser_at_least(season, organiser, rita):
    services.name_organiser(league=season.league, username="rita", by=organiser)
    services.remove_organiser(
        organiser=Organiser.objects.get(user=organiser, league=season.league), by=rita
    )
    with pytest.raises(IllegalCommand, match="at least one organiser"):
        services.remove_organiser(
            organiser=Organiser.objects.get(user=rita, league=season.league), by=rita
        )


def test_a_named_referee_of_a_tournament_referees_its_tables(organiser, rita):
    tournament = bracket_services.create_tournament(
        name="Cup", organiser=organiser, format="swiss", table_size=2, players=["Ann", "Bob"]
    )
    bracket_services.start_tournament(tournament_id=tournament.pk, by=organiser)
    game = Table.objects.get(round__tournament=tournament).game
    assert not game_services.is_referee(rita, game)

    with pytest.raises(Forbidden):
        services.name_referee(tournament=tournament, username="rita", by=rita)
    referee = services.name_referee(tournament=tournament, username="rita", by=organiser)

    assert game_services.is_referee(rita, game)
    assert selectors.tournament_roles(tournament.pk)["referees"][0]["name"] == "Rita (rita)"
    services.remove_referee(referee=referee, by=organiser)
    assert not game_services.is_referee(rita, game)


# A hand shown before it is recorded, and the deck's cap -------------------------------------------


def test_a_hand_is_shown_as_it_would_score_and_nothing_is_recorded(season, organiser):
    game = sheet_game(season, organiser, services.open_night(season=season))
    before = Event.objects.filter(game=game).count()

    shown = services.preview_hand(
        game_id=game.pk, out=0, points={"1": 20}, remaining={"2": ["R7", "W4"]}
    )

    assert shown["hand"].held == (0, 20, 57) and shown["hand"].gained == (77, 0, 0)
    assert shown["game"] is None
    assert Event.objects.filter(game=game).count() == before


@pytest.mark.parametrize(
    ("points", "field", "words"),
    [
        ({"1": 9999, "2": 0}, "points.1", "9999 points is more than a whole Classic UNO deck"),
        ({"1": 1240, "2": 0}, None, None),  # the whole deck: possible, if hardly likely
        ({"1": 700, "2": 600}, "points", "the hands add up to 1300 points"),
    ],
)
def test_points_beyond_the_decks_worth_are_refused(season, organiser, points, field, words):
    game = sheet_game(season, organiser, services.open_night(season=season))
    if field is None:
        services.record_hand(game_id=game.pk, out=0, points=points, actor="system")
        return
    before = Event.objects.filter(game=game).count()
    with pytest.raises(InvalidCommand, match=words) as err:
        services.record_hand(game_id=game.pk, out=0, points=points, actor="system")
    assert err.value.field == field
    assert Event.objects.filter(game=game).count() == before


def test_the_api_refuses_points_beyond_the_deck_naming_the_field(season, organiser):
    game = sheet_game(season, organiser, services.open_night(season=season))
    client = APIClient()
    client.force_authenticate(organiser)

    response = client.post(
        f"/api/games/{game.pk}/hands/", {"out": 0, "points": {"1": 9999, "2": 3}}, format="json"
    )

    assert response.status_code == 400, response.content
    body = response.json()
    assert "points.1" in str(body) and "more than a whole Classic UNO deck" in str(body)
    assert not Event.objects.filter(game=game, type="hand_recorded").exists()


def test_a_players_account_sits_at_their_seat(season, organiser, rita):
    services.register_player(league=season.league, name="Rita", user=rita)
    game = services.start_season_game(season=season, players=["Ann", "Rita"], created_by=organiser)
    play_with_bots(game.pk, seed="x", max_commands=1)

    assert game.seats.get(seat=1).user == rita and game.seats.get(seat=0).user is None


def test_a_name_typed_in_other_capitals_seats_the_leagues_player_not_a_new_one(season, organiser):
    bea = services.register_player(league=season.league, name="Bea", by=organiser)
    night = services.open_night(season=season, by=organiser)
    game = sheet_game(season, organiser, night, players=("bea", " Carl "))
    assert [s.player for s in game.seats.order_by("seat")] == ["Bea", "Carl"]
    assert services.register_player(league=season.league, name="BEA", by=organiser) == bea
    assert sorted(season.league.players.values_list("name", flat=True)) == ["Bea", "Carl"]
    with pytest.raises(InvalidCommand, match="sits at a table once"):
        sheet_game(season, organiser, night, players=("carl", "CARL"))


def test_players_registered_together_are_all_registered_or_none(season, organiser, rita):
    league = season.league
    ann = services.register_player(league=league, name="Ann", by=organiser)

    added = services.register_players(
        league=league, names=["ann", "Bob", " bob ", "Cy"], by=organiser
    )

    assert [(player.name, new) for player, new in added] == [
        ("Ann", False),
        ("Bob", True),
        ("Cy", True),
    ]
    assert added[0][0] == ann
    with pytest.raises(InvalidCommand, match="at most 100 characters") as refused:
        services.register_players(league=league, names=["Dee", "x" * 101], by=organiser)
    assert refused.value.field == "names.1"
    with pytest.raises(InvalidCommand, match="give a name") as refused:
        services.register_players(league=league, names=["Dee", "\u200b"], by=organiser)
    assert refused.value.field == "names.1"
    with pytest.raises(Forbidden):
        services.register_players(league=league, names=["Eve"], by=rita)
    assert sorted(league.players.values_list("name", flat=True)) == ["Ann", "Bob", "Cy"]
