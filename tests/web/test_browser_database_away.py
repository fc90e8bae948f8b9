"""In the browser: a move that meets the club's records away (the database gone for a moment)
is not silently lost. The table says the move may not have gone through, in players' words;
once the records are back the next press plays and the note goes."""

import pytest
from django.db import OperationalError

from games.pages import views as page_views
from tests.web.test_browser_quick_game import settle, take_a_turn, version

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_move_while_the_records_are_away_says_so_and_the_next_one_plays(
    page, live_server, eager_tasks, monkeypatch
):
    page.goto(f"{live_server.url}/play/")
    page.select_option("select[name=variant]", "classic")
    page.fill("input[name=bots]", "2")
    page.fill("input[name=player]", "Tess")
    page.fill("input[name=seed]", "records-away-1")
    with page.expect_navigation(wait_until="load"):
        page.click("button:has-text('Deal the cards')")
    page.wait_for_selector("#board")
    settle(page)
    before = version(page)

    real = page_views.services.apply_command

    def records_away(**kwargs):
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(page_views.services, "apply_command", records_away)
    assert take_a_turn(page, use_keyboard=False)
    note = page.locator("#actions #move-failed")
    note.wait_for()

    assert note.get_attribute("role") == "alert"
    text = note.inner_text()
    assert "records are not answering" in text and "may not have gone through" in text
    assert "503" not in text and "error" not in text.lower()
    assert version(page) == before

    monkeypatch.setattr(page_views.services, "apply_command", real)
    settle(page)
    assert take_a_turn(page, use_keyboard=False)
    page.wait_for_function(
        "v => document.querySelector('#board').dataset.version != v", arg=str(before)
    )
    settle(page)
    assert page.locator("#move-failed").count() == 0
