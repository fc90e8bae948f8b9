"""The replay viewer: every event stepped through with every hand visible, each Wild Draw 4
marked legal or bluff with its evidence, undo to a chosen event with a reason, and the game's
disputes with their rulings; disputes are filed from the table page."""

import html
import re

import pytest

from games import services
from games.models import Dispute, Event
from rules.commands import Challenge, PlayCard
from tests.web.conftest import seat_client
from tests.web.table_support import HTMX, deck_with, long_disputed_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def referee(django_user_model):
    return django_user_model.objects.create_user("ref", password="pw-ref-123")


def wild_draw_four_game(make_game, referee, *, bluff: bool):
    """Bob (seat 1) plays a Wild Draw 4 on a red 5, holding a red 3 when ``bluff``; Ann
    challenges."""
    bob = ["W4", "R3" if bluff else "B9", "B1", "B2", "B3", "B4", "B5"]
    deck = deck_with({1: bob, 0: ["G1", "G2", "G3", "G4", "G5", "G6", "G7"]}, "R5")
    game = make_game(players=("Ann", "Bob"), deck=deck, dealer=0, seed=None, created_by=referee)
    played = services.apply_command(
        game_id=game.pk, command=PlayCard(1, "W4", "B"), actor="seat:1"
    ).events[0]
    services.apply_command(game_id=game.pk, command=Challenge(0), actor="seat:0")
    return game, played.version


def test_a_seat_cannot_replay_a_game_in_play_but_its_referee_can(client, make_game, referee):
    game = make_game(created_by=referee)
    seat_client(client, game, 0)
    assert client.get(f"/table/{game.pk}/replay/").status_code == 403

    client.force_login(referee)
    response = client.get(f"/table/{game.pk}/replay/")

    assert response.status_code == 200
    state = services.load_game(game_id=game.pk)
    for hand in state.hands:  # every hand visible
        for code in hand:
            assert f'data-card="{code}"' in response.text


def test_stepping_to_a_version_shows_the_state_then(client, make_game, referee, play):
    game = make_game(created_by=referee)
    play(game, commands=4)
    client.force_login(referee)
    state = services.state_at(game_id=game.pk, version=5)

    response = client.get(f"/table/{game.pk}/replay/", {"v": 5}, **HTMX)

    assert response.status_code == 200
    assert response.text.lstrip().startswith('<section id="frame"')
    assert "Event 5 of" in response.text
    assert f'data-card="{state.top}"' in response.text
    assert 'value="5"' in response.text  # the slider


def test_the_replays_slider_is_named_by_the_event_it_steps_to(client, make_game, referee, play):
    game = make_game(created_by=referee)
    play(game, commands=4)
    client.force_login(referee)

    page = client.get(f"/table/{game.pk}/replay/", {"v": 5}).text

    assert '<label for="replay-slider">Event</label>' in page
    assert ">Version<" not in page


def test_a_bluff_is_marked_with_its_evidence(client, make_game, referee):
    game, version = wild_draw_four_game(make_game, referee, bluff=True)
    client.force_login(referee)

    response = client.get(f"/table/{game.pk}/replay/", {"v": version})

    text = response.text
    flat = " ".join(html.unescape(text).split())
    assert 'Bob\'s Wild Draw 4 was <strong class="tag tag-warn">a bluff</strong>' in flat
    assert "red in play, Bob held" in flat and "(R)" not in flat
    assert "Colour in play" in flat  # in words, with no letter code
    assert "a bluff" in text
    assert 'data-card="R3"' in text  # the red card Bob held, red being in play
    assert "challenged: a bluff" in text


def test_a_legal_wild_draw_four_is_marked_legal(client, make_game, referee):
    game, version = wild_draw_four_game(make_game, referee, bluff=False)
    client.force_login(referee)

    text = client.get(f"/table/{game.pk}/replay/", {"v": version}).text

    assert '<strong class="tag tag-ok">legal</strong>' in text
    assert "no card of that colour" in text


def head(game):
    """The game's version now: what a replay page shown now shows."""
    return services.get_game(game.pk).version


def undo_form(client, game, version):
    """The replay's undo form at ``version``, as the page gives it: its hidden fields."""
    page = client.get(f"/table/{game.pk}/replay/", {"v": version}).text
    form = page[page.index('action="/table/') : page.index("</form>", page.index("undo-reason"))]
    return dict(re.findall(r'type="hidden" name="(\w+)" value="([^"]*)"', form))


def refusal(response):
    """The alert the replay page shows, in the words the referee reads."""
    text = html.unescape(response.text)
    start = text.index('<p class="error" role="alert">')
    return text[start : text.index("</p>", start)].split(">", 1)[1]


def test_the_replays_undo_form_sends_the_version_the_page_showed_and_a_key_of_its_own(
    client, make_game, referee
):
    game, version = wild_draw_four_game(make_game, referee, bluff=True)
    client.force_login(referee)

    form = undo_form(client, game, version - 1)
    again = undo_form(client, game, version - 1)

    assert form["to_version"] == str(version - 1)
    assert form["version"] == str(head(game))
    assert len(form["key"]) >= 16 and again["key"] != form["key"]


def test_an_undo_form_sent_twice_undoes_once(client, make_game, referee):
    game, version = wild_draw_four_game(make_game, referee, bluff=True)
    client.force_login(referee)
    form = {**undo_form(client, game, version - 1), "reason": "misplayed"}
    url = f"/table/{game.pk}/replay/undo/"

    first = client.post(url, form)
    again = client.post(url, form)

    assert first.status_code == again.status_code == 302
    assert again["Location"] == first["Location"]
    assert Event.objects.filter(game=game, type="rewound").count() == 1
    assert head(game) == int(first["Location"].rsplit("v=", 1)[1])


def test_an_undo_form_sent_after_the_game_moved_on_undoes_nothing_and_says_so_plainly(
    client, make_game, referee, play
):
    game, version = wild_draw_four_game(make_game, referee, bluff=True)
    client.force_login(referee)
    form = {**undo_form(client, game, version - 1), "reason": "misplayed"}
    play(game, commands=1)
    moved = head(game)

    response = client.post(f"/table/{game.pk}/replay/undo/", form)

    assert response.status_code == 409
    said = refusal(response)
    assert said.startswith("The game has moved on since this page was shown, so nothing")
    assert not re.search(r"\d|version|stale|key", said)
    assert head(game) == moved
    assert not Event.objects.filter(game=game, type="rewound").exists()
    assert "Undo to event" in response.text and f"Event {moved} of {moved}" in response.text


def test_an_undo_form_sent_again_with_another_reason_undoes_nothing_more(
    client, make_game, referee
):
    game, version = wild_draw_four_game(make_game, referee, bluff=True)
    client.force_login(referee)
    form = {**undo_form(client, game, version - 1), "reason": "misplayed"}
    url = f"/table/{game.pk}/replay/undo/"
    assert client.post(url, form).status_code == 302
    undone = head(game)

    response = client.post(url, {**form, "reason": "Bob misplayed"})

    assert response.status_code == 409
    assert refusal(response).startswith("This form was already sent with other choices")
    assert not re.search(r"\d|version|key_clash|key", refusal(response))
    assert head(game) == undone


def test_an_undo_form_sent_again_after_its_undo_was_undone_undoes_nothing_more(
    client, make_game, referee
):
    game, version = wild_draw_four_game(make_game, referee, bluff=True)
    client.force_login(referee)
    shown = head(game)
    form = {**undo_form(client, game, version - 1), "reason": "misplayed"}
    url = f"/table/{game.pk}/replay/undo/"
    assert client.post(url, form).status_code == 302
    services.undo(game_id=game.pk, to_version=shown, reason="it stood", by=f"user:{referee.pk}")
    restored = head(game)

    response = client.post(url, form)

    assert response.status_code == 409
    assert refusal(response).startswith("This undo was made when the form was first sent")
    assert head(game) == restored


def test_an_undo_form_that_names_no_version_undoes_nothing(client, make_game, referee):
    game, version = wild_draw_four_game(make_game, referee, bluff=True)
    client.force_login(referee)
    before = head(game)

    for shown in ({}, {"version": ""}, {"version": "-3"}, {"version": "nine"}):
        response = client.post(
            f"/table/{game.pk}/replay/undo/",
            {"to_version": version - 1, "reason": "misplayed", **shown},
        )

        assert response.status_code == 400
        assert refusal(response).startswith("This form did not say how far the game had gone")
    assert head(game) == before


def test_the_referee_undoes_to_a_chosen_event_with_a_reason(client, make_game, referee):
    game, version = wild_draw_four_game(make_game, referee, bluff=True)
    client.force_login(referee)
    back_to = version - 1  # Bob's turn, before the Wild Draw 4

    response = client.post(
        f"/table/{game.pk}/replay/undo/",
        {"to_version": back_to, "reason": "misplayed", "version": head(game)},
    )

    assert response.status_code == 302
    last = Event.objects.filter(game=game).order_by("-version").first()
    assert last.type == "rewound"
    assert last.data == {"to_version": back_to, "by": f"user:{referee.pk}", "reason": "misplayed"}
    assert services.load_game(game_id=game.pk).hands[1].count("W4") == 1


def test_undo_refuses_the_middle_of_a_command(client, make_game, referee):
    game, version = wild_draw_four_game(make_game, referee, bluff=True)
    client.force_login(referee)

    response = client.post(
        f"/table/{game.pk}/replay/undo/",
        {"to_version": version, "reason": "x", "version": head(game)},
    )

    assert response.status_code == 400
    assert "in the middle of one command" in response.text


def test_only_the_referee_may_undo(client, make_game, referee):
    game, version = wild_draw_four_game(make_game, referee, bluff=True)
    seat_client(client, game, 0)

    response = client.post(f"/table/{game.pk}/replay/undo/", {"to_version": 9, "reason": "x"})

    assert response.status_code == 403
    assert Event.objects.filter(game=game, type="rewound").count() == 0


def test_a_seat_files_a_dispute_from_the_table_and_the_referee_rules_on_it(
    client, make_game, referee
):
    game, version = wild_draw_four_game(make_game, referee, bluff=True)
    seat_client(client, game, 0)
    form = client.get(f"/table/{game.pk}/", {"dispute": version}, **HTMX).text
    assert f'<option value="{version}" selected>' in form

    filed = client.post(
        f"/table/{game.pk}/disputes/",
        {"version": version, "claim": "He held a red card"},
        **HTMX,
    )

    assert "Your dispute was filed" in filed.text
    dispute = Dispute.objects.get()
    assert (dispute.version, dispute.opened_by, dispute.status) == (version, "seat:0", "open")

    client.force_login(referee)
    replay = client.get(f"/table/{game.pk}/replay/").text
    assert "He held a red card" in replay
    assert f'name="version" value="{head(game)}"' in replay
    ruled = client.post(
        f"/table/{game.pk}/disputes/{dispute.pk}/ruling/",
        {"decision": "upheld", "note": "R3 in hand", "undo_to": version - 1, "version": head(game)},
    )
    assert ruled.status_code == 302
    dispute.refresh_from_db()
    assert (dispute.status, dispute.ruling, dispute.undo_to) == (
        "upheld",
        "R3 in hand",
        version - 1,
    )
    assert "R3 in hand" in client.get(f"/table/{game.pk}/replay/").text


@pytest.mark.parametrize(
    "claim",
    # a character no database takes; more than the 2000 characters a claim may have
    ["He held a red card\x00", "He held a red card. " * 120],
)
def test_a_refused_dispute_comes_back_with_the_event_chosen_and_the_words_typed(
    client, make_game, referee, claim
):
    game, version = wild_draw_four_game(make_game, referee, bluff=True)
    seat_client(client, game, 0)

    answer = client.post(
        f"/table/{game.pk}/disputes/", {"version": version, "claim": claim}, **HTMX
    ).text

    assert not Dispute.objects.exists()
    assert f'<option value="{version}" selected>' in answer  # not the newest event
    chosen = answer.split('id="dispute-version"')[1].split(">")[0]
    assert "data-chosen" in chosen  # and it stays chosen as the game moves on
    textarea = answer.split('id="dispute-claim"')[1].split("</textarea>")[0]
    assert "He held a red card" in textarea and "autofocus" in textarea
    assert re.search(r'role="alert">The claim: [a-z]', answer)  # a sentence


def test_a_refused_ruling_comes_back_in_its_form_as_sent_and_says_why_there(
    client, make_game, referee
):
    game, version = wild_draw_four_game(make_game, referee, bluff=True)
    dispute = services.open_dispute(game_id=game.pk, version=version, claim="x", by="seat:0")
    client.force_login(referee)
    form = client.get(f"/table/{game.pk}/replay/").text
    # The undo names moments by what happened; just before the disputed move first.
    assert (
        f'<option value="{version - 1}">Just before the disputed move: Bob played wild draw '
        "four and called blue.</option>"
    ) in html.unescape(form)

    refused = client.post(
        f"/table/{game.pk}/disputes/{dispute.pk}/ruling/",
        {"decision": "rejected", "note": "he had no red", "undo_to": version - 1},
    )

    assert refused.status_code == 400
    page = html.unescape(refused.text)
    ruling = page[page.index(f'id="ruling-{dispute.pk}"') :]
    ruling = ruling[: ruling.index("</form>")]
    assert "A dispute rejected undoes nothing: choose upheld, or no undo." in ruling
    assert 'value="rejected" checked' in ruling and 'value="he had no red"' in ruling
    assert f'<option value="{version - 1}" selected>Just before the disputed move' in ruling
    assert "autofocus" in ruling
    dispute.refresh_from_db()
    assert dispute.status == "open"
    assert not Event.objects.filter(game=game, type="rewound").exists()


def ruling_alert(response, dispute):
    page = html.unescape(response.text)
    form = page[page.index(f'id="ruling-{dispute.pk}"') :]
    return form[: form.index("</form>")]


def ruling_options(page: str, dispute) -> list[tuple[int, str, bool]]:
    """The ruling form's choices of how far to undo: (version, words, chosen), "No undo" left
    out."""
    form = html.unescape(page)
    form = form[form.index(f'id="ruling-{dispute.pk}"') :]
    form = form[: form.index("</select>")]
    return [
        (int(value), words, bool(chosen))
        for value, chosen, words in re.findall(
            r'<option value="(\d+)"( selected)?>([^<]*)</option>', form
        )
    ]


def rested(rows, version: int) -> bool:
    """Whether the game rested at ``version``: the next event starts a command of its own."""
    return rows[version].batch == rows[version].version


def test_a_ruling_offers_the_moments_a_referee_needs_not_every_event(client, referee):
    game, dispute, rows = long_disputed_game(referee)
    client.force_login(referee)

    options = ruling_options(client.get(f"/table/{game.pk}/replay/").text, dispute)

    by_words = {words.split(":")[0]: version for version, words, _ in options}
    batch = rows[dispute.version - 1].batch
    dealt = max(r.version for r in rows[: dispute.version] if r.type == "hand_dealt")
    start = next(r.version for r in rows[dealt - 1 :] if rested(rows, r.version))
    assert by_words["Just before the disputed move"] == batch - 1
    assert by_words["The start of the hand"] == start
    after = [version for version, words, _ in options if words.startswith("Just after: ")]
    assert after == sorted(after, reverse=True) and 1 <= len(after) <= 5
    assert all(start < version < batch - 1 for version in after)
    assert len(options) <= 7 < len(rows)
    first_start = max(r.version for r in rows if r.batch == 1)
    for version, words, chosen in options:
        assert rested(rows, version) and first_start <= version < len(rows)
        assert "event" not in words.lower() and not chosen
    assert options[0][1].startswith("Just before the disputed move: ")
    assert " played " in options[0][1]  # what the disputed move did, in words

    upheld = client.post(
        f"/table/{game.pk}/disputes/{dispute.pk}/ruling/",
        {"decision": "upheld", "note": "", "undo_to": start, "version": head(game)},
    )

    assert upheld.status_code == 302
    assert Event.objects.filter(game=game).order_by("-version")[0].data["to_version"] == start


def test_any_other_moment_is_ruled_to_from_the_replay_stepped_to_it(client, referee):
    game, dispute, rows = long_disputed_game(referee)
    client.force_login(referee)
    moment = next(
        r.version
        for r in reversed(rows[: dispute.version])
        if rested(rows, r.version) and r.version < dispute.version - 20
    )
    stepped = client.get(f"/table/{game.pk}/replay/", {"v": moment}).text
    link = f"?v={moment}&amp;rule={dispute.pk}#ruling-{dispute.pk}"
    assert link in stepped  # under the replay's undo: "Rule on a dispute with an undo to here"
    assert (moment, False) in [(v, chosen) for v, _, chosen in ruling_options(stepped, dispute)]

    chosen = client.get(f"/table/{game.pk}/replay/", {"v": moment, "rule": dispute.pk}).text
    offered = {v: (words, c) for v, words, c in ruling_options(chosen, dispute)}
    assert offered[moment][1] and offered[moment][0].startswith("Shown in the replay, just after")
    refused = client.post(  # no decision: the form comes back with the moment still chosen
        f"/table/{game.pk}/disputes/{dispute.pk}/ruling/",
        {"note": "", "undo_to": moment, "version": head(game)},
    )
    assert refused.status_code == 400
    again = {v: c for v, _, c in ruling_options(refused.text, dispute)}
    assert again[moment] is True
    middle = next(r.version for r in rows if r.version > moment and not rested(rows, r.version))
    assert "rule=" not in client.get(f"/table/{game.pk}/replay/", {"v": middle}).text
    assert middle not in {
        v
        for v, _, _ in ruling_options(
            client.get(f"/table/{game.pk}/replay/", {"v": middle}).text, dispute
        )
    }


def test_a_ruling_that_undoes_after_the_game_moved_on_rules_nothing_and_says_so_plainly(
    client, make_game, referee, play
):
    game, version = wild_draw_four_game(make_game, referee, bluff=True)
    dispute = services.open_dispute(game_id=game.pk, version=version, claim="x", by="seat:0")
    client.force_login(referee)
    shown = head(game)
    play(game, commands=1)
    moved = head(game)

    response = client.post(
        f"/table/{game.pk}/disputes/{dispute.pk}/ruling/",
        {"decision": "upheld", "note": "R3 in hand", "undo_to": version - 1, "version": shown},
    )

    assert response.status_code == 409
    said = ruling_alert(response, dispute)
    assert "The game has moved on since this page was shown, so nothing was ruled" in said
    assert f'name="version" value="{moved}"' in said  # the form again, as the game is now
    dispute.refresh_from_db()
    assert dispute.status == "open"
    assert head(game) == moved


def test_a_ruling_that_meets_another_referees_says_which_dispute_in_words(
    client, make_game, referee, django_user_model, monkeypatch
):
    game, version = wild_draw_four_game(make_game, referee, bluff=True)
    dispute = services.open_dispute(
        game_id=game.pk, version=version, claim="He held a red card", by="seat:0"
    )
    rita = django_user_model.objects.create_user("rita", password="pw-rita-123")
    rule = services.rule_on_dispute

    def ruled_by_rita_first(**ruling):  # the two rulings at the same moment: Rita's first
        rule(dispute_id=dispute.pk, decision="rejected", note="no red", by=f"user:{rita.pk}")
        return rule(**ruling)

    monkeypatch.setattr(services, "rule_on_dispute", ruled_by_rita_first)
    client.force_login(referee)
    before = head(game)

    response = client.post(
        f"/table/{game.pk}/disputes/{dispute.pk}/ruling/",
        {"decision": "upheld", "note": "R3", "undo_to": version - 1, "version": before},
    )

    assert response.status_code == 409
    said = html.unescape(re.search(r'<p class="error" role="alert">(.*?)</p>', response.text)[1])
    assert said == (
        "Nothing was ruled or undone: Ann's dispute “He held a red card” had already been ruled "
        "rejected by rita, noting “no red”, when this ruling arrived. The ruling that stands is "
        "under Disputes."
    )
    assert f"dispute {dispute.pk}" not in html.unescape(response.text)
    dispute.refresh_from_db()
    assert (dispute.status, dispute.ruling) == ("rejected", "no red")
    assert head(game) == before


def test_a_ruling_that_undoes_from_a_form_naming_no_version_rules_nothing(
    client, make_game, referee
):
    game, version = wild_draw_four_game(make_game, referee, bluff=True)
    dispute = services.open_dispute(game_id=game.pk, version=version, claim="x", by="seat:0")
    client.force_login(referee)
    before = head(game)

    response = client.post(
        f"/table/{game.pk}/disputes/{dispute.pk}/ruling/",
        {"decision": "upheld", "note": "", "undo_to": version - 1},
    )
    rejected = client.post(
        f"/table/{game.pk}/disputes/{dispute.pk}/ruling/", {"decision": "rejected"}
    )

    assert response.status_code == 400
    assert "This form did not say how far the game had gone" in ruling_alert(response, dispute)
    assert head(game) == before
    assert rejected.status_code == 302  # a ruling that undoes nothing needs no version
    dispute.refresh_from_db()
    assert dispute.status == "rejected"


def test_only_a_referee_rules(client, make_game, referee):
    game, version = wild_draw_four_game(make_game, referee, bluff=True)
    dispute = services.open_dispute(game_id=game.pk, version=version, claim="x", by="seat:0")
    seat_client(client, game, 0)

    response = client.post(
        f"/table/{game.pk}/disputes/{dispute.pk}/ruling/", {"decision": "rejected"}
    )

    assert response.status_code == 403


def test_after_the_game_everyone_may_replay(client, make_game):
    from tests.web.table_support import drive

    game = make_game(scoring="none")
    drive(game, until=lambda s: s.finished)

    response = client.get(f"/table/{game.pk}/replay/")

    assert response.status_code == 200
    assert "Undo to event" not in response.text


def rested_version(game):
    """The last version before the end at which the game waited for a player."""
    rows = services.replay_events(game_id=game.pk)
    return next(
        row.version
        for row, following in zip(reversed(rows[:-1]), reversed(rows[1:]), strict=True)
        if following.batch == following.version
    )


def test_a_finished_game_is_undone_only_reopened_with_a_reason(client, make_game, referee):
    from tests.web.table_support import drive

    game = make_game(scoring="none", created_by=referee)
    drive(game, until=lambda s: s.finished)
    client.force_login(referee)
    to = rested_version(game)
    url = f"/table/{game.pk}/replay/undo/"

    shown = head(game)
    not_reopened = client.post(url, {"to_version": to, "reason": "Bob misdealt", "version": shown})
    no_reason = client.post(
        url, {"to_version": to, "reason": "  ", "reopen": "on", "version": shown}
    )

    assert not_reopened.status_code == 400
    assert "tick “Reopen the finished game” and give the reason" in html.unescape(not_reopened.text)
    assert "reopen: true" not in html.unescape(not_reopened.text)
    assert no_reason.status_code == 400
    assert "say why the finished game is reopened" in html.unescape(no_reason.text)
    assert not Event.objects.filter(game=game, type="rewound").exists()

    reopened = client.post(
        url, {"to_version": to, "reason": "Bob misdealt", "reopen": "on", "version": shown}
    )

    assert reopened.status_code == 302
    last = Event.objects.filter(game=game).order_by("-version").first()
    assert (last.type, last.data["reason"], last.data["reopened"]) == (
        "rewound",
        "Bob misdealt",
        True,
    )
    assert not services.load_game(game_id=game.pk).finished


def test_a_dispute_on_a_finished_game_is_upheld_with_an_undo_that_reopens_it(
    client, make_game, referee
):
    from tests.web.table_support import drive

    game = make_game(scoring="none", created_by=referee)
    drive(game, until=lambda s: s.finished)
    to = rested_version(game)
    dispute = services.open_dispute(game_id=game.pk, version=to + 1, claim="x", by="seat:0")
    client.force_login(referee)
    url = f"/table/{game.pk}/disputes/{dispute.pk}/ruling/"
    page = html.unescape(client.get(f"/table/{game.pk}/replay/").text)
    form = page[page.index(f'id="ruling-{dispute.pk}"') :]
    form = form[: form.index("</form>")]
    assert "The game is over" in form and "it is reopened" in form
    assert '<input type="hidden" name="reopen" value="on">' in form
    game.refresh_from_db()
    shown = game.version
    assert f'<input type="hidden" name="version" value="{shown}">' in form

    # A form shown before the game ended said nothing of reopening it: it is shown again.
    stale = client.post(
        url, {"decision": "upheld", "note": "Bob misdealt", "undo_to": to, "version": shown}
    )

    assert stale.status_code == 400
    text = html.unescape(stale.text)
    assert "The game ended after this page was shown: an undo now reopens it" in text
    assert "reopen: true" not in text
    assert not Event.objects.filter(game=game, type="rewound").exists()

    ruled = client.post(
        url,
        {
            "decision": "upheld",
            "note": "Bob misdealt",
            "undo_to": to,
            "reopen": "on",
            "version": shown,
        },
    )

    assert ruled.status_code == 302
    dispute.refresh_from_db()
    assert (dispute.status, dispute.undo_to) == ("upheld", to)
    last = Event.objects.filter(game=game).order_by("-version").first()
    assert (last.type, last.data["reopened"]) == ("rewound", True)
    assert last.data["reason"] == "a dispute was upheld (Bob misdealt)"
    assert not services.load_game(game_id=game.pk).finished


def test_a_dispute_on_a_finished_game_is_rejected_without_reopening_it(client, make_game, referee):
    from tests.web.table_support import drive

    game = make_game(scoring="none", created_by=referee)
    drive(game, until=lambda s: s.finished)
    dispute = services.open_dispute(game_id=game.pk, version=2, claim="x", by="seat:0")
    client.force_login(referee)

    ruled = client.post(
        f"/table/{game.pk}/disputes/{dispute.pk}/ruling/",
        {"decision": "rejected", "note": "no", "undo_to": "", "reopen": "on"},
    )

    assert ruled.status_code == 302
    assert not Event.objects.filter(game=game, type="rewound").exists()
    assert services.load_game(game_id=game.pk).finished


def test_an_htmx_step_gets_the_frame_and_a_history_restore_the_whole_page(
    client, make_game, referee, play
):
    game = make_game(created_by=referee)
    play(game, commands=3)
    client.force_login(referee)
    url = f"/table/{game.pk}/replay/"

    step = client.get(url, {"v": 2}, **HTMX)
    restore = client.get(url, {"v": 2}, **HTMX, HTTP_HX_HISTORY_RESTORE_REQUEST="true")

    assert 'id="frame"' in step.text and "<html" not in step.text
    assert "<html" in restore.text and 'id="frame"' in restore.text
    assert "HX-Request" in step["Vary"]
