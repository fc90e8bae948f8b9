"""An edition's options (UNO VETO's house rules on the Wild Customizable cards) set once for a
league or a tournament, from its page or the API: every game it starts plays by them, the
pages say them, and a bad one is refused in players' words with nothing created."""

import html
import re

import pytest
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games import services as game_services
from tournaments.brackets import services as tournament_services
from tournaments.brackets.models import Table, Tournament
from tournaments.leagues import services
from tournaments.leagues.models import League

pytestmark = pytest.mark.django_db

HOUSE_RULES = {"customizable": ["joke", "text:Sing a song"]}
VETO_FIELDS = {"veto_cards": "2", "veto_rule_1": "joke", "veto_own_2": "Sing a song"}


@pytest.fixture
def olga():
    return get_user_model().objects.create_user("olga", password="pw-olga-123")


def options_of(game):
    return game_services.load_game(game_id=game.pk).options


def test_a_veto_league_from_its_page_plays_its_house_rules_in_every_season_game(client, olga):
    client.force_login(olga)
    form = client.get("/leagues/new/").content.decode()
    assert "UNO VETO options" in form and "House rule of card 1" in form
    answer = client.post(
        "/leagues/new/",
        {"name": "VETO Club", "variant": "veto", "scoring": "standard", "target": "500"}
        | VETO_FIELDS,
    )
    league = League.objects.get()
    assert answer.status_code == 302 and league.options == HOUSE_RULES
    page = html.unescape(client.get(f"/leagues/{league.pk}/").content.decode())
    assert "House rules" in page and "<li>Card 1: tell a joke" in page and "Sing a song" in page

    season = services.open_season(league=league, name="Spring", by=olga)
    game = services.start_season_game(season=season, players=["Ann", "Bob"], created_by=olga)
    assert dict(options_of(game))["customizable"] == ("joke", "text:Sing a song")


def test_a_season_of_another_edition_plays_that_editions_defaults(olga):
    league = services.open_league(
        name="VETO Club", variant="veto", options=HOUSE_RULES, created_by=olga
    )
    season = services.open_season(league=league, name="Mod spring", variant="mod", by=olga)
    game = services.start_season_game(season=season, players=["Ann", "Bob"], created_by=olga)
    assert game.variant == "mod"


def test_a_bad_house_rule_for_a_league_is_refused_in_words_and_nothing_is_made(client, olga):
    client.force_login(olga)
    answer = client.post(
        "/leagues/new/",
        {"name": "VETO Club", "variant": "veto", "scoring": "standard", "target": "500"}
        | {"veto_cards": "1", "veto_rule_2": "joke"},
    )
    assert answer.status_code == 400
    assert "The deck has 1 Wild Customizable card" in html.unescape(answer.content.decode())
    assert not League.objects.exists()


def test_a_leagues_house_rules_from_the_api_and_a_bad_one_named():
    user = get_user_model().objects.create_user("carl", password="pw")
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    body = {"name": "VETO Club", "variant": "veto", "options": HOUSE_RULES}
    made = api.post("/api/leagues/", body, format="json")
    assert made.status_code == 201, made.content
    assert api.get(f"/api/leagues/{made.json()['id']}/").json()["options"] == HOUSE_RULES
    bad = api.post(
        "/api/leagues/",
        {**body, "name": "Other", "options": {"customizable": ["dance"]}},
        format="json",
    )
    assert bad.status_code == 400
    assert "customizable" in str(bad.json()["detail"])
    assert League.objects.count() == 1


def test_a_veto_tournament_from_its_page_deals_its_tables_with_its_house_rules(client, olga):
    client.force_login(olga)
    answer = client.post(
        "/tournaments/new/",
        {
            "name": "VETO Open",
            "format": "elimination",
            "table_size": "2",
            "advance": "1",
            "rounds": "1",
            "variant": "veto",
            "scoring": "none",
            "target": "500",
            "duplicate_deals": "on",
            "seeding": "manual",
            "players": "Ann\nBob\nCid\nDee",
        }
        | VETO_FIELDS,
    )
    tournament = Tournament.objects.get()
    assert answer.status_code == 302 and tournament.options == HOUSE_RULES
    page = html.unescape(client.get(f"/tournaments/{tournament.pk}/").content.decode())
    assert "<li>Card 1: tell a joke" in page
    tournament_services.start_tournament(tournament_id=tournament.pk, by=olga)
    tables = list(Table.objects.filter(round__tournament=tournament))
    assert len(tables) == 2
    for table in tables:  # (duplicate deals: the round's deck holds the two house-rule cards)
        state = game_services.load_game(game_id=table.game_id)
        assert dict(state.options)["customizable"] == ("joke", "text:Sing a song")
        assert sum(card == "WC" for card in state.all_cards()) == 2


@pytest.mark.parametrize(
    "options",
    [
        [],
        "joke",
        {"customizable": "x" * 100_000},
        {"customizable": ["text:" + "x" * 10_000]},
        {"customizable": [{"rule": "joke"}]},
        {"deck": 3},
    ],
)
def test_malformed_or_oversized_house_rules_are_a_400_and_nothing_is_made(options):
    user = get_user_model().objects.create_user("carl", password="pw")
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    league = api.post(
        "/api/leagues/", {"name": "VETO", "variant": "veto", "options": options}, format="json"
    )
    cup = api.post(
        "/api/tournaments/",
        {
            "name": "Cup",
            "variant": "veto",
            "format": "swiss",
            "table_size": 2,
            "options": options,
        },
        format="json",
    )
    assert (league.status_code, cup.status_code) == (400, 400), (league.content, cup.content)
    assert "options" in str(league.json()["detail"]) and "options" in str(cup.json()["detail"])
    assert not League.objects.exists() and not Tournament.objects.exists()


def settings_of(page: str) -> str:
    """The page's settings list (Rules, House rules ...) as words."""
    block = re.search(r'<dl class="settings">.*?</dl>', page, re.S).group(0)
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", block)))


def test_the_season_and_night_pages_say_the_house_rules_their_games_play_by(client, olga):
    league = services.open_league(
        name="VETO Club", variant="veto", options=HOUSE_RULES, created_by=olga
    )
    season = services.open_season(league=league, name="Spring", by=olga)
    night = services.open_night(season=season, by=olga)
    game = services.start_season_game(
        season=season, players=["Ann", "Bob"], night=night, created_by=olga
    )
    assert dict(options_of(game))["customizable"] == ("joke", "text:Sing a song")

    for url in (f"/seasons/{season.pk}/", f"/nights/{night.pk}/"):
        words = settings_of(client.get(url).content.decode())
        assert "Rules UNO VETO" in words, url
        assert "House rules 2 Wild Customizable cards in the deck:" in words, url
        assert "Card 1: tell a joke" in words and "Card 2: “Sing a song”" in words, url
    seasons = html.unescape(client.get(f"/leagues/{league.pk}/").content.decode())
    assert re.search(r"to 500 points; the league's house rules</td>", seasons)


def test_a_season_of_another_edition_or_of_no_house_rules_shows_none(client, olga):
    league = services.open_league(
        name="VETO Club", variant="veto", options=HOUSE_RULES, created_by=olga
    )
    mod = services.open_season(league=league, name="Mod spring", variant="mod", by=olga)
    plain = services.open_league(name="Plain Club", created_by=olga)
    classic = services.open_season(league=plain, name="Spring", by=olga)
    for season in (mod, classic):
        night = services.open_night(season=season, by=olga)
        for url in (f"/seasons/{season.pk}/", f"/nights/{night.pk}/"):
            words = settings_of(client.get(url).content.decode())
            assert "Rules" in words and "House rules" not in words, url
    seasons = client.get(f"/leagues/{league.pk}/").content.decode()
    assert "house rules</td>" not in seasons


def test_a_season_of_no_scoring_names_no_target(client, olga):
    league = services.open_league(name="Quick Club", scoring="none", created_by=olga)
    season = services.open_season(league=league, name="Spring", by=olga)
    words = settings_of(client.get(f"/seasons/{season.pk}/").content.decode())
    assert "Rules Classic UNO" in words and "target" not in words
