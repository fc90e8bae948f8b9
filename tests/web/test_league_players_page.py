"""Adding players on the league's page: the organisers' form takes names one a line or
separated by commas, through the service the API uses (a name already in the league is that
player); a bad name is said by the field, what was typed is kept and nobody is added; nobody
but an organiser sees the form or gets through it."""

# The fixtures are imported from the support module; pytest passes them in by name.
# ruff: noqa: F811

import re
from html import unescape

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.web.league_pages_support import league, olga  # noqa: F401 (fixtures)
from tournaments.leagues import services
from tournaments.leagues.models import Player

pytestmark = pytest.mark.django_db


def text(response):
    """The page's words, tags taken out, as a person reads them."""
    html = re.sub(r"</?(a|strong|span|em|kbd|code)\b[^>]*>", "", response.content.decode())
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


def add(client, league, names):
    return client.post(
        reverse("tournaments:league-players-add", args=[league.pk]), {"names": names}
    )


def names(league):
    return sorted(league.players.values_list("name", flat=True))


@pytest.fixture
def organiser(client, olga):
    client.force_login(olga)
    return client


def test_an_organiser_adds_players_one_a_line_or_separated_by_commas(organiser, league):
    page = organiser.get(f"/leagues/{league.pk}/")
    assert "No players yet." in text(page)
    assert "Add players" in text(page) and 'name="names"' in page.text

    answer = add(organiser, league, "Ann\nBob, Cy\r\n\n  Dee  ,")

    assert answer.status_code == 302
    assert answer["Location"] == f"/leagues/{league.pk}/#players"
    assert names(league) == ["Ann", "Bob", "Cy", "Dee"]
    shown = text(organiser.get(answer["Location"]))
    assert "Ann, Bob, Cy and Dee are now players of Thursday Club." in shown
    assert "No players yet." not in shown
    for player in league.players.all():
        assert f'href="/players/{player.pk}/"' in organiser.get(f"/leagues/{league.pk}/").text


def test_a_name_already_in_the_league_is_that_player_and_is_said_so(organiser, league, olga):
    services.register_player(league=league, name="Ann", by=olga)

    answer = add(organiser, league, "ann\nBea\nBEA\nＡｎｎ")

    assert answer.status_code == 302
    assert names(league) == ["Ann", "Bea"]
    shown = text(organiser.get(answer["Location"]))
    assert (
        "Bea is now a player of Thursday Club. Ann was a player of Thursday Club already." in shown
    )


def test_the_success_is_said_in_the_players_section_not_at_the_top(organiser, league):
    shown = organiser.get(add(organiser, league, "Ann")["Location"]).text

    said = "Ann is now a player of Thursday Club."
    assert shown.count(said) == 1
    assert shown.index('id="players-heading"') < shown.index(said)


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("", "Type the name of at least one player."),
        (" ,\n , ", "Type the name of at least one player."),
        (
            "Ann\n" + "x" * 101,
            "The 2nd name (“xxxxxxxxxxxxxxxxxxxx…”) has 101 characters: a name has at most "
            "100 characters.",
        ),
        (
            "Ann, \u200b\u2060, Bob",
            "The 2nd name shows nothing: it holds only characters that do not show. Type it "
            "again, or leave it out.",
        ),
        ("\u200b", "The name shows nothing"),
        ("Ann\nBo\x00b", "A name holds a character that is not text: type it again."),
        (
            "\n".join(f"P{n}" for n in range(101)),
            "Add at most 100 players at a time: 101 names were typed.",
        ),
    ],
)
def test_a_bad_name_is_said_by_the_field_keeps_what_was_typed_and_adds_nobody(
    organiser, league, typed, message
):
    answer = add(organiser, league, typed)

    assert answer.status_code == 400
    error = re.search(r'<p class="error" id="id_names_error">(.*?)</p>', answer.text, re.S)
    assert error and message in unescape(re.sub(r"<[^>]+>", "", error.group(1)))
    assert "Nothing was saved." in text(answer)
    field = re.search(r"<textarea[^>]*>(.*?)</textarea>", answer.text, re.S)
    assert unescape(field.group(1)).strip() == typed.strip()
    assert names(league) == []  # not even the good names typed before the bad one


def test_the_error_page_is_scrolled_to_the_form(organiser, league):
    page = organiser.get(f"/leagues/{league.pk}/").text
    action = reverse("tournaments:league-players-add", args=[league.pk]) + "#players"
    assert f'action="{action}"' in page


def test_only_organisers_see_the_form_and_a_post_from_anyone_else_adds_nobody(client, league, olga):
    assert 'name="names"' not in client.get(f"/leagues/{league.pk}/").text  # a visitor
    anonymous = add(client, league, "Ann")
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]

    mallory = get_user_model().objects.create_user("mallory", password="pw-mallory-2026")
    client.force_login(mallory)
    assert 'name="names"' not in client.get(f"/leagues/{league.pk}/").text
    refused = add(client, league, "Ann\nBob")
    assert refused.status_code == 403
    assert "Only the organisers of Thursday Club add its players." in text(refused)
    assert "Its organisers: Olga" in text(refused)

    services.name_role(league=league, username="mallory", role="referee", by=olga)
    assert 'name="names"' not in client.get(f"/leagues/{league.pk}/").text
    assert add(client, league, "Ann").status_code == 403  # a referee is no organiser
    assert not Player.objects.exists()


def test_the_forms_address_opened_with_a_get_goes_back_to_the_league(organiser, league):
    answer = organiser.get(reverse("tournaments:league-players-add", args=[league.pk]))

    assert (answer.status_code, answer["Location"]) == (302, f"/leagues/{league.pk}/")


def test_an_unknown_league_is_404(organiser, league):
    assert organiser.post("/leagues/999999/players/", {"names": "Ann"}).status_code == 404
    assert not Player.objects.exists()
