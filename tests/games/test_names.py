"""People's names (``games.names``): kept in one Unicode form, and compared without capitals or
compatibility forms, so that two names that look alike are never two players of one table,
league or tournament."""

import pytest
from django.contrib.auth import get_user_model

from games import services
from games.names import clean_name, name_key, sentence_start
from rules import IllegalCommand, InvalidCommand
from tournaments.brackets import services as tournament_services
from tournaments.leagues import services as league_services

COMPOSED, DECOMPOSED = "D\u00e9e", "De\u0301e"  # "Dée" typed two ways


def test_a_name_is_kept_in_one_form_and_compared_without_capitals_or_wide_letters():
    assert clean_name(f"  {DECOMPOSED} ") == COMPOSED
    assert name_key("Ｃｙ") == name_key("cy") == name_key("CY")
    assert name_key(COMPOSED) == name_key(clean_name(DECOMPOSED))
    assert name_key("Ann") != name_key("Anne")


def test_a_name_starting_a_sentence_is_shown_as_written():
    assert sentence_start("de Vries is already entered", ["de Vries"]) == (
        "de Vries is already entered"
    )
    assert sentence_start("the tournament is over", ["de Vries"]) == "The tournament is over"
    assert sentence_start("ann is entered", ["an"]) == "Ann is entered"  # a name, not a word


# Characters that show nothing: a zero-width space, a soft hyphen, a word joiner, a
# right-to-left override, a byte order mark.
HIDDEN = ("\u200b", "\u00ad", "\u2060", "\u202e", "\ufeff")


def test_characters_that_show_nothing_are_not_kept_in_a_name_nor_make_it_another():
    for hidden in HIDDEN:
        assert clean_name(f"An{hidden}n{hidden}") == "Ann"
        assert name_key(f"Ann{hidden}") == name_key("Ann")
        assert clean_name(f" {hidden} ") == ""
    # A joiner inside a word is part of its spelling (Persian, emoji), and stays.
    assert clean_name("\u0645\u06cc\u200c\u0631\u0648") == "\u0645\u06cc\u200c\u0631\u0648"
    assert clean_name("\u200dAnn\u200c") == "Ann"


@pytest.mark.parametrize(
    "players",
    [
        ["Ann", "ann"],
        ["Cy", "Ｃｙ"],
        [COMPOSED, DECOMPOSED],
        ["Bob", " bob "],
        ["Ann", "Ann\u200b"],
        ["Ann", "A\u00adnn"],
    ],
)
def test_a_table_refuses_two_players_whose_names_look_alike(db, players):
    with pytest.raises(InvalidCommand, match="is named twice"):
        services.create_game(variant="classic", players=players, scoring="none", target=500)


@pytest.mark.parametrize("hidden", HIDDEN)
def test_a_name_of_characters_that_show_nothing_is_no_name(db, hidden):
    olga = get_user_model().objects.create_user("olga", password="pw-olga-123")
    league = league_services.open_league(name="Club", created_by=olga)
    with pytest.raises(InvalidCommand, match="a player needs a name"):
        services.create_game(variant="classic", players=["Ann", hidden], scoring="none", target=500)
    with pytest.raises(InvalidCommand, match="give a name"):
        league_services.register_player(league=league, name=hidden, by=olga)
    with pytest.raises(InvalidCommand, match="a player needs a name"):
        tournament_services.create_tournament(
            name="Cup", organiser=olga, format="swiss", table_size=2, players=["Ann", hidden]
        )
    assert league_services.register_player(league=league, name=f"Ann{hidden}", by=olga).name == (
        "Ann"
    )


def test_a_league_knows_a_player_by_any_form_of_their_name(db):
    olga = get_user_model().objects.create_user("olga", password="pw-olga-123")
    league = league_services.open_league(name="Club", created_by=olga)
    dee = league_services.register_player(league=league, name=DECOMPOSED, by=olga)
    assert dee.name == COMPOSED
    cy = league_services.register_player(league=league, name="Cy", by=olga)
    assert league_services.register_player(league=league, name=COMPOSED, by=olga) == dee
    assert league_services.register_player(league=league, name="Ｃｙ", by=olga) == cy
    assert league.players.count() == 2


def test_a_tournament_enters_a_player_once_whatever_the_form_of_their_name(db):
    olga = get_user_model().objects.create_user("olga", password="pw-olga-123")
    for players in (["Ann", "ann"], [COMPOSED, DECOMPOSED], ["Cy", "Ｃｙ"]):
        with pytest.raises(InvalidCommand, match="entered twice"):
            tournament_services.create_tournament(
                name="Cup", organiser=olga, format="swiss", table_size=2, players=players
            )
    cup = tournament_services.create_tournament(
        name="Cup", organiser=olga, format="swiss", table_size=2, players=["Ann", DECOMPOSED]
    )
    assert sorted(cup.entries.values_list("player", flat=True)) == ["Ann", COMPOSED]
    with pytest.raises(IllegalCommand, match="Ann is already entered"):
        tournament_services.add_entry(tournament_id=cup.pk, player="ANN", by=olga)
    with pytest.raises(IllegalCommand, match=f"{COMPOSED} is already entered"):
        tournament_services.add_entry(tournament_id=cup.pk, player=COMPOSED, by=olga)
