"""The score sheet page: a referee records hands (cards or points), sees errors next to the
field the engine names with nothing appended, and undoes the last hand; others are refused."""

# The fixtures are imported from the support module; pytest passes them in by name.
# ruff: noqa: F811

import re
from html import unescape

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.urls import reverse

from games.models import Event, Game
from tests.web.league_pages_support import (  # noqa: F401 (fixtures)
    league,
    olga,
    record,
    season,
    sheet,
)
from tournaments.models import GameResult

pytestmark = pytest.mark.django_db


def url(game):
    return reverse("tournaments:score-sheet", args=[game.pk])


def undo_url(game):
    return reverse("tournaments:score-sheet-undo", args=[game.pk])


def version(game):
    return Game.objects.get(pk=game.pk).version


def events(game):
    return Event.objects.filter(game=game).count()


def hand_form(out, cards=None, points=None, confirm=True, **extra):
    """The form's fields: ``cards`` and ``points`` map seat numbers to what is typed;
    ``confirm``: the confirmation step's button (without it the hand is only shown)."""
    data = {"out": str(out), **({"confirm": "1"} if confirm else {}), **extra}
    for seat, text in (cards or {}).items():
        data[f"cards-{seat}"] = text
    for seat, text in (points or {}).items():
        data[f"points-{seat}"] = str(text)
    return data


def hands_rows(html):
    """The hand numbers shown in the hands table."""
    return [int(n) for n in re.findall(r'<th scope="row" class="number">(\d+)</th>', html)]


@pytest.fixture
def referee(client, olga):
    client.force_login(olga)
    return client


# Who may keep the sheet -------------------------------------------------------------------------


def test_signing_in_is_required(client, sheet):
    for response in (client.get(url(sheet)), client.post(url(sheet), hand_form(0))):
        assert response.status_code == 302
        assert response["Location"].startswith(settings.LOGIN_URL)
        assert "next=" in response["Location"]
    assert client.post(undo_url(sheet), {"hand": 1}).status_code == 302


def test_a_user_who_does_not_referee_the_game_is_refused_and_nothing_is_appended(client, sheet):
    client.force_login(get_user_model().objects.create_user("mallory", password="pw"))
    before = events(sheet)

    assert client.get(url(sheet)).status_code == 403
    assert client.post(url(sheet), hand_form(0, points={1: 5, 2: 7})).status_code == 403
    assert client.post(undo_url(sheet), {"hand": 1}).status_code == 403
    assert events(sheet) == before


def test_a_game_that_is_not_a_score_sheet_has_no_sheet_page(referee, season, olga):
    from tournaments.leagues import services

    played = services.start_season_game(season=season, players=["Ann", "Bob"], created_by=olga)

    assert referee.get(url(played)).status_code == 404


# Recording hands --------------------------------------------------------------------------------


def test_the_referee_sees_the_form_for_each_seat(referee, sheet):
    html = referee.get(url(sheet)).text

    assert "Record hand 1" in html
    for seat, name in enumerate(["Ann", "Bob", "Cy"]):
        assert f'<label for="cards-{seat}">Cards left</label>' in html
        assert f'<label for="points-{seat}">or points</label>' in html
        assert f'id="out-{seat}" value="{seat}"' in html and f"> {name}</label>" in html
    assert f'name="version" value="{version(sheet)}"' in html
    assert "No hands recorded yet." in html


def test_a_hand_by_cards_and_points_is_appended_and_shown_with_running_totals(referee, sheet):
    before = version(sheet)

    response = referee.post(url(sheet), hand_form(0, cards={1: "r7 W4"}, points={2: 12}))

    assert response.status_code == 302  # without htmx: post, redirect, get
    assert version(sheet) > before
    page = referee.get(response["Location"]).text
    assert hands_rows(page) == [1]
    assert "red 7, wild draw four (57 points)" in page  # 7 + 50: cards in words, no codes
    assert "12 points held" in page
    assert "scores 69" in page and "total 69" in page  # Ann scores 57 + 12
    assert "Hand 1 recorded." in page
    assert "Record hand 2" in page


def test_running_totals_add_up_hand_after_hand(referee, sheet):
    referee.post(url(sheet), hand_form(0, points={1: 10, 2: 5}))
    referee.post(url(sheet), hand_form(1, points={0: 20, 2: 3}))

    html = referee.get(url(sheet)).text

    assert hands_rows(html) == [1, 2]
    totals = re.search(r"<tfoot>.*?</tfoot>", html, flags=re.S).group(0)
    assert re.findall(r'<td class="total">(\d+)</td>', totals) == ["15", "23", "0"]


def test_with_htmx_the_form_comes_back_empty_and_the_hands_out_of_band(referee, sheet):
    response = referee.post(url(sheet), hand_form(2, points={0: 4, 1: 6}), HTTP_HX_REQUEST="true")

    html = response.text
    assert response.status_code == 200
    assert "<html" not in html
    assert html.lstrip().startswith('<form id="entry-form"')
    assert 'id="sheet-hands" aria-labelledby="hands-heading" hx-swap-oob="true"' in html
    assert hands_rows(html) == [1]
    assert 'id="sheet-status"' in html and "Hand 1 recorded." in html
    assert "Record hand 2" in html and 'value="4"' not in html
    assert f'name="version" value="{version(sheet)}"' in html


def test_a_bad_card_code_is_shown_next_to_its_field_and_nothing_is_appended(referee, sheet):
    before = events(sheet)

    response = referee.post(
        url(sheet), hand_form(0, cards={1: "R7 X9"}, points={2: 3}), HTTP_HX_REQUEST="true"
    )

    html = response.text
    assert events(sheet) == before
    assert html.lstrip().startswith('<form id="entry-form"')
    error = re.search(r'<p class="error" id="cards-1-error">(.*?)</p>', html, flags=re.S)
    assert error and "“X9” is not a card of Classic UNO" in unescape(error.group(1))
    assert re.search(r'id="cards-1"[^>]*aria-invalid="true"', html, flags=re.S)
    assert re.search(r'aria-describedby="cards-hint cards-1-error"', html)
    assert 'value="R7 X9"' in html and 'value="3"' in html  # what was typed stays
    assert "The hand was not recorded." in html
    assert 'id="sheet-hands"' not in html  # nothing changed there


def test_a_card_not_in_the_games_deck_is_refused_at_its_field(referee, sheet):
    before = events(sheet)

    response = referee.post(url(sheet), hand_form(1, cards={0: "P3"}, points={2: 3}))

    html = response.text
    assert response.status_code == 200
    error = re.search(r'<p class="error" id="cards-0-error">(.*?)</p>', html, flags=re.S)
    assert error and "“P3” is not a card of Classic UNO" in unescape(error.group(1))
    assert hands_rows(html) == []
    assert events(sheet) == before


def test_a_seat_left_blank_and_points_that_are_not_numbers_are_named(referee, sheet):
    before = events(sheet)

    blank = referee.post(url(sheet), hand_form(0, points={1: 5})).text
    words = referee.post(url(sheet), hand_form(0, points={1: "five", 2: 3})).text
    nobody = referee.post(url(sheet), {"points-1": "5", "points-2": "3"}).text

    assert (
        'id="cards-2-error"' in blank
        and "Give the cards left in this player&#x27;s hand, or their points." in blank
    )
    assert 'id="points-1-error"' in words and "whole number" in words
    assert 'id="out-error"' in nobody and "Choose the player who went out." in nobody
    assert events(sheet) == before


def test_a_stale_form_says_so_and_appends_nothing(referee, sheet):
    old = version(sheet)
    record(sheet, 0, {1: 1, 2: 1})
    before = events(sheet)

    response = referee.post(
        url(sheet), hand_form(0, points={1: 2, 2: 2}, version=old), HTTP_HX_REQUEST="true"
    )

    assert events(sheet) == before
    assert "The sheet changed while you were typing" in response.text
    assert hands_rows(response.text) == [1]  # the hands, brought up to date out of band


def test_the_same_form_sent_twice_records_the_hand_once(referee, sheet):
    html = referee.get(url(sheet)).text
    key = re.search(r'name="key" value="([^"]+)"', html).group(1)
    form = hand_form(0, points={1: 5, 2: 5}, key=key, version=version(sheet))

    referee.post(url(sheet), form)
    referee.post(url(sheet), form)

    assert hands_rows(referee.get(url(sheet)).text) == [1]


def test_a_check_shown_from_a_form_older_than_the_sheet_says_so(referee, sheet):
    # Two referees type the same hand from paper: the second is told at the check already.
    old = version(sheet)
    record(sheet, 0, {1: 1, 2: 1})

    response = referee.post(
        url(sheet), hand_form(0, points={1: 1, 2: 1}, confirm=False, version=old)
    )

    assert "The sheet changed while you were typing" in response.text
    assert "Check hand" not in response.text


@pytest.mark.parametrize("then", ["changed", "undone"])
def test_a_confirmation_sent_again_after_its_hand_changed_or_was_undone_starts_over(
    referee, sheet, then
):
    # Record hand 1; the browser's Back to its confirmation; "Change it" and record it again
    # (the same form's key, another hand), or Record again after the hand was undone.
    html = referee.get(url(sheet)).text
    key = re.search(r'name="key" value="([^"]+)"', html).group(1)
    shown = version(sheet)
    referee.post(url(sheet), hand_form(0, points={1: 5, 2: 5}, key=key, version=shown))
    if then == "undone":
        referee.post(undo_url(sheet), {"hand": 1})
        again = hand_form(0, points={1: 5, 2: 5}, key=key, version=shown)
    else:
        again = hand_form(0, points={1: 6, 2: 5}, key=key, version=shown)
    before = events(sheet)

    response = referee.post(url(sheet), again)

    assert response.status_code == 200
    words = unescape(response.text)
    assert "This form already recorded a hand, since changed or undone" in words
    assert "version" not in words.split("already recorded")[1].split("</")[0]
    assert events(sheet) == before
    assert f'name="key" value="{key}"' not in response.text  # a key of its own from now on


# Undo -------------------------------------------------------------------------------------------


def test_an_undo_button_shown_before_a_hand_was_recorded_again_undoes_nothing(referee, sheet):
    referee.post(url(sheet), hand_form(0, points={1: 10, 2: 5}))
    referee.post(url(sheet), hand_form(1, points={0: 20, 2: 3}))
    page = referee.get(url(sheet)).text  # referee A's page: "Undo hand 2"
    undo_to = re.search(r'name="undo_to" value="(\d+)"', page).group(1)
    # Referee B undoes hand 2 and records the right hand 2 in its place.
    referee.post(undo_url(sheet), {"hand": 2})
    referee.post(url(sheet), hand_form(2, points={0: 9, 1: 9}))
    before = events(sheet)

    referee.post(undo_url(sheet), {"hand": 2, "undo_to": undo_to})  # A's click

    assert events(sheet) == before
    html = referee.get(url(sheet)).text
    assert hands_rows(html) == [1, 2]
    assert "Hand 2 is not the last hand any more: nothing was undone." in html


def test_undo_takes_back_the_last_hand_by_a_compensating_event(referee, sheet):
    referee.post(url(sheet), hand_form(0, points={1: 10, 2: 5}))
    referee.post(url(sheet), hand_form(1, points={0: 20, 2: 3}))
    before = events(sheet)

    response = referee.post(undo_url(sheet), {"hand": 2})

    assert response.status_code == 302
    assert events(sheet) == before + 1  # appended, nothing deleted
    assert Event.objects.filter(game=sheet).order_by("-version").first().type == "rewound"
    html = referee.get(url(sheet)).text
    assert hands_rows(html) == [1]
    assert "Hand 2 undone." in html and "Record hand 2" in html
    totals = re.search(r"<tfoot>.*?</tfoot>", html, flags=re.S).group(0)
    assert re.findall(r'<td class="total">(\d+)</td>', totals) == ["15", "0", "0"]


def test_undo_with_htmx_moves_the_focus_to_the_form_for_the_hand_undone(referee, sheet):
    referee.post(url(sheet), hand_form(0, points={1: 10, 2: 5}))
    referee.post(url(sheet), hand_form(1, points={0: 20, 2: 3}))

    html = referee.post(undo_url(sheet), {"hand": 2}, HTTP_HX_REQUEST="true").text

    # The Undo button is swapped out with the hands: the focus goes where hand 2 is written
    # again, as after a hand recorded, not to the top of the page.
    assert '<h2 id="entry-heading" tabindex="-1" autofocus>Record hand 2</h2>' in html
    assert html.count("autofocus") == 1


def test_undo_with_htmx_swaps_the_hands_and_the_form(referee, sheet):
    referee.post(url(sheet), hand_form(0, points={1: 10, 2: 5}))

    response = referee.post(undo_url(sheet), {"hand": 1}, HTTP_HX_REQUEST="true")

    html = response.text
    assert html.lstrip().startswith('<section id="sheet-hands"')
    assert "No hands recorded yet." in html
    assert '<form id="entry-form"' in html and 'hx-swap-oob="true"' in html
    assert "Hand 1 undone." in html


def test_a_second_click_on_undo_undoes_nothing_more(referee, sheet):
    referee.post(url(sheet), hand_form(0, points={1: 10, 2: 5}))
    referee.post(url(sheet), hand_form(1, points={0: 20, 2: 3}))
    referee.post(undo_url(sheet), {"hand": 2})
    before = events(sheet)

    referee.post(undo_url(sheet), {"hand": 2})

    assert events(sheet) == before
    html = referee.get(url(sheet)).text
    assert hands_rows(html) == [1]
    assert "Hand 2 is not the last hand any more: nothing was undone." in html


def undo_button(page):
    """The Undo hand form's hidden fields, as the page shows them."""
    form = page[page.index('<form class="undo"') :]
    form = form[: form.index("</form>")]
    return dict(re.findall(r'type="hidden" name="(\w+)" value="([^"]*)"', form))


def test_an_undo_button_sends_the_sheets_version_it_was_shown_at(referee, sheet):
    referee.post(url(sheet), hand_form(0, points={1: 10, 2: 5}))

    button = undo_button(referee.get(url(sheet)).text)

    assert button["hand"] == "1" and button["version"] == str(version(sheet))


def test_an_undo_button_shown_before_the_sheet_changed_undoes_nothing(referee, sheet):
    referee.post(url(sheet), hand_form(0, points={1: 10, 2: 5}))
    button = undo_button(referee.get(url(sheet)).text)  # referee A's page: "Undo hand 1"
    # Referee B records hand 2 by mistake and undoes it: hand 1 is the last hand again.
    referee.post(url(sheet), hand_form(1, points={0: 20, 2: 3}))
    referee.post(undo_url(sheet), {"hand": 2})
    before = events(sheet)

    response = referee.post(undo_url(sheet), button, HTTP_HX_REQUEST="true")  # A's click

    assert events(sheet) == before
    words = unescape(response.text)
    assert "The sheet changed since this page was shown (someone recorded or undid a hand)" in words
    assert "expected_version" not in words and not re.search(r"version \d", words)
    assert hands_rows(referee.get(url(sheet)).text) == [1]


@pytest.mark.parametrize("shown", ["page", "older page"])
def test_a_hand_recorded_while_an_undo_is_on_its_way_is_not_undone_with_it(
    referee, sheet, monkeypatch, shown
):
    from games import services

    referee.post(url(sheet), hand_form(0, points={1: 10, 2: 5}))
    button = undo_button(referee.get(url(sheet)).text)
    if shown == "older page":  # a page from before the button named the sheet's version
        del button["version"]
    real_undo = services.undo

    def undo_after_another_hand(**kwargs):
        # Referee B's hand 2 lands after this click checked that hand 1 is the last.
        referee.post(url(sheet), hand_form(1, points={0: 20, 2: 3}))
        return real_undo(**kwargs)

    monkeypatch.setattr(services, "undo", undo_after_another_hand)

    response = referee.post(undo_url(sheet), button)

    assert response.status_code == 302
    assert not Event.objects.filter(game=sheet, type="rewound").exists()
    html = referee.get(url(sheet)).text
    assert hands_rows(html) == [1, 2]
    assert "The sheet changed since this page was shown" in unescape(html)


def test_a_hand_recorded_after_an_undo_takes_its_place(referee, sheet):
    referee.post(url(sheet), hand_form(0, points={1: 10, 2: 5}))
    referee.post(undo_url(sheet), {"hand": 1})
    referee.post(url(sheet), hand_form(2, cards={0: "G5"}, points={1: 1}))

    html = referee.get(url(sheet)).text

    assert hands_rows(html) == [1]
    assert "green 5 (5 points)" in html and "scores 6" in html


def test_the_winning_hand_ends_the_game_and_its_undo_reopens_it(referee, sheet):
    referee.post(url(sheet), hand_form(0, points={1: 60, 2: 50}))  # 110: target 100 reached

    html = referee.get(url(sheet)).text
    assert "Game over" in html and "1st: Ann" in html
    assert '<form id="entry-form"' not in html and "no more hands" in html
    assert GameResult.objects.filter(game=sheet).count() == 3

    referee.post(undo_url(sheet), {"hand": 1})

    html = referee.get(url(sheet)).text
    assert "Game over" not in html and '<form id="entry-form"' in html
    assert GameResult.objects.filter(game=sheet).count() == 0


def test_a_veto_sheet_takes_the_cards_in_words_and_says_how_in_its_own_colours(
    referee, league, olga
):
    from tournaments.leagues import services

    season = services.open_season(league=league, name="Veto", variant="veto", by=olga)
    game = services.start_season_game(
        season=season, players=["Ann", "Bob", "Cy"], created_by=olga, sheet=True
    )
    page = unescape(referee.get(url(game)).text)
    before = events(game)
    assert 'separated by commas: "purple 7", "green skip", "wild" (or their codes: P7' in page
    assert "R7 is a red 7" not in page

    refused = unescape(
        referee.post(url(game), hand_form(0, cards={1: "red 7"}, points={2: 3})).text
    )
    assert "“red 7” is not a card of UNO VETO (its colours are purple, green, orange and" in refused
    assert events(game) == before  # the refused hand appended nothing

    referee.post(url(game), hand_form(0, cards={1: "orange 7, purple skip", 2: "p3 wild"}))

    hand = Event.objects.filter(game=game, type="hand_recorded").get()
    assert hand.data["remaining"] == [[], ["O7", "PS"], ["P3", "W"]]


@pytest.mark.parametrize(
    ("points", "words"),
    [
        ("1_000", "Points are a whole number."),
        ("+5", "Points are a whole number."),
        ("٣", "Points are a whole number."),
        ("-5", "Points cannot be negative."),
        ("-1", "Points cannot be negative."),
        ("-x", "Points are a whole number."),
    ],
)
def test_points_that_are_not_digits_alone_are_refused_in_words(referee, sheet, points, words):
    before = events(sheet)

    response = referee.post(url(sheet), hand_form(0, points={1: points, 2: 3}, confirm=False))

    assert words in unescape(response.text)
    assert "Check hand" not in response.text and events(sheet) == before


def test_who_went_out_off_the_table_is_told_without_a_seat_number(referee, sheet):
    response = referee.post(url(sheet), hand_form(-1, points={1: 1, 2: 3}, confirm=False))

    words = unescape(response.text)
    assert "Choose one of the players at this table." in words and "seat -1" not in words
