"""The tournament page: the bracket drawn as an inline SVG (rounds, tables, who went on, in
players' words), the director's decisions shown to everyone, and the director's tools for the
organiser only, each posting to one service and coming back to the page."""

import html as html_module
import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tournaments.brackets import services as tournament_services
from tournaments.brackets.models import Entry, Round, Ruling, Table

from .support import play_round, swiss_of_four

pytestmark = pytest.mark.django_db

PLAYERS = ["Ann", "Bob", "Cid", "Dee", "Eve"]


@pytest.fixture
def tournament(organiser):
    tournament = tournament_services.create_tournament(
        name="Cup",
        organiser=organiser,
        format="elimination",
        table_size=2,
        scoring="none",
        players=PLAYERS,
    )
    return tournament_services.start_tournament(tournament_id=tournament.pk, by=organiser)


@pytest.fixture
def director(organiser):
    client = Client()
    client.force_login(organiser)
    return client


def page(client, tournament):
    answer = client.get(f"/tournaments/{tournament.pk}/")
    assert answer.status_code == 200
    return answer.content.decode()


def svg_of(html):
    match = re.search(r"<svg class=\"bracket\".*?</svg>", html, re.S)
    assert match, "no bracket drawn"
    return match.group(0)


def test_the_bracket_is_an_svg_of_rounds_tables_and_who_went_on(tournament):
    play_round(tournament)
    svg = svg_of(page(Client(), tournament))
    assert 'role="img"' in svg and "<title" in svg
    assert "Round 1" in svg and "Round 2" in svg and "Bye" in svg
    went_on = {p for t in Table.objects.filter(round__number=2) for p in t.players}
    for name in went_on:
        assert f"{name} ✓" in svg
    assert "bracket-line" in svg  # a table joined to the table its winner went on to
    assert not re.search(r"seat|[0-9a-f]{8}-[0-9a-f]{4}", svg, re.I)  # no seats, no ids


def test_a_swiss_bracket_ticks_nobody_for_playing_the_next_round(organiser):
    tournament = swiss_of_four(organiser)
    play_round(tournament)
    html = page(Client(), tournament)
    svg = svg_of(html)
    assert "Round 2" in svg and "✓" not in svg  # everyone plays round 2: nobody "went on"
    assert "✓ won the tournament." in html


def test_names_in_the_bracket_are_escaped(organiser):
    tournament = tournament_services.create_tournament(
        name="<b>Cup</b>",
        organiser=organiser,
        format="swiss",
        table_size=2,
        players=["<script>x</script>", "Bob"],
    )
    tournament_services.start_tournament(tournament_id=tournament.pk, by=organiser)
    svg = svg_of(page(Client(), tournament))
    assert "<script>" not in svg and "&lt;script&gt;" in svg


def test_the_director_sees_the_tools_and_nobody_else_does(tournament, director):
    assert "Director's tools" in page(director, tournament)
    assert "Director's tools" not in page(Client(), tournament)
    sam = Client()
    sam.force_login(get_user_model().objects.create_user("sam", password="pw"))
    assert "Director's tools" not in page(sam, tournament)
    url = f"/tournaments/{tournament.pk}/direct/call-time/"
    body = {"round": 1, "table": 1, "reason": "time"}
    assert sam.post(url, body).status_code == 403
    assert Client().post(url, body).status_code == 302  # to sign in
    assert not Ruling.objects.exists()


def test_an_award_from_the_page_is_shown_with_its_reason(tournament, director):
    table = Table.objects.get(round__number=1, number=1)
    loser = table.players[0]
    answer = director.post(
        f"/tournaments/{tournament.pk}/direct/award/",
        {"round": 1, "table": 1, "kind": "no_show", "player": loser, "reason": "never came"},
    )
    assert answer.status_code == 302
    table.refresh_from_db()
    assert table.placings[-1] == loser and table.decided_by == "award"
    html = page(Client(), tournament)
    assert f"{loser} did not show" in html and "never came" in html
    assert "Result awarded by the director." in html


@pytest.mark.parametrize(
    ("kind", "words"),
    [
        ("forfeit", "{loser} forfeited"),
        ("disqualification", "{loser} was disqualified"),
        ("no_show", "{loser} did not show"),
    ],
)
def test_a_ruling_says_who_it_is_against_and_then_the_placings(tournament, director, kind, words):
    table = Table.objects.get(round__number=1, number=1)
    loser, winner = table.players
    director.post(
        f"/tournaments/{tournament.pk}/direct/award/",
        {"round": 1, "table": 1, "kind": kind, "player": loser, "reason": "left early"},
    )

    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page(Client(), tournament)))

    said = words.format(loser=loser)
    assert f"Round 1, table 1: {said}; placed 1st {winner}, 2nd {loser} — left early" in text


def test_the_rulings_are_numbered_on_the_page_as_the_api_numbers_them(tournament, director):
    # Time called at table 2, reopened, then a forfeit: rulings 1, 2 and 3, in that order.
    table = Table.objects.get(round__number=1, number=2)
    for tool, fields in [
        ("call-time", {"round": 1, "table": 2, "reason": "time"}),
        ("reopen", {"round": 1, "table": 2, "reason": "too early"}),
        (
            "award",
            {
                "round": 1,
                "table": 2,
                "kind": "forfeit",
                "player": table.players[0],
                "reason": "left",
            },
        ),
    ]:
        assert (
            director.post(f"/tournaments/{tournament.pk}/direct/{tool}/", fields).status_code == 302
        )

    html = page(Client(), tournament)

    listed = re.findall(r'<li value="(\d+)" id="ruling-(\d+)">\s*Round 1, table 2:', html)
    assert listed == [("1", "1"), ("2", "2"), ("3", "3")]
    api = Client().get(f"/api/tournaments/{tournament.pk}/").json()["rulings"]
    assert [r["number"] for r in api] == [1, 2, 3]
    assert [r["kind"] for r in api] == ["time", "reopened", "forfeit"]


def test_a_ruling_on_the_final_table_names_it_as_the_rounds_do(organiser, director):
    cup = tournament_services.create_tournament(
        name="Spring Cup",
        organiser=organiser,
        format="elimination",
        table_size=2,
        scoring="none",
        players=PLAYERS[:4],
    )
    tournament_services.start_tournament(tournament_id=cup.pk, by=organiser)
    play_round(cup)
    final = Table.objects.get(round__tournament=cup, round__kind=Round.Kind.FINAL)
    director.post(
        f"/tournaments/{cup.pk}/direct/award/",
        {"round": 2, "table": 1, "kind": "forfeit", "player": final.players[0], "reason": "ill"},
    )

    html = page(Client(), cup)

    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))
    assert f"The final table: {final.players[0]} forfeited" in text
    assert "Round 2, table 1" not in text
    assert ">Final table</text>" in svg_of(html)


def test_the_director_sees_how_each_playing_table_stands_before_deciding_it(tournament, director):
    table = Table.objects.get(round__number=1, number=1)
    order = tournament_services.ranked_now(table)
    html = page(director, tournament)
    assert (
        "As the game stood when this page was opened (reload it for how it stands now): "
        f"1st {order[0]}, 2nd {order[1]} (by the game"
    ) in html
    assert "As the game stood" not in page(Client(), tournament)

    # A move at the table changes how it stands, but not what the page's poll compares: the
    # director's poll is answered 204 (nothing to swap) and no state is loaded for it.
    seen = re.search(r'\?seen=([^"]+)"', html).group(1)
    from games import services as game_services
    from rules import legal_commands

    # Play on until the table stands otherwise: the player standing first only draws (the
    # last command listed: draw, or pass after drawing), the other plays a card whenever one
    # is listed first, so the points in hand move apart whatever the deal.
    leader = table.players.index(order[0])
    for _ in range(200):
        state = game_services.load_game(game_id=table.game_id)
        seat = state.pending[1]
        legal = legal_commands(state, seat)
        game_services.apply_command(
            game_id=table.game_id,
            command=legal[-1] if seat == leader else legal[0],
            actor=game_services.seat_actor(seat),
        )
        if tournament_services.ranked_now(table) != order:
            break
    assert tournament_services.ranked_now(table) != order
    poll = director.get(f"/tournaments/{tournament.pk}/?seen={seen}", HTTP_HX_REQUEST="true")
    assert poll.status_code == 204


def test_a_decided_tables_note_fits_its_box_in_the_bracket(tournament, director):
    loser = Table.objects.get(round__number=1, number=1).players[0]
    director.post(
        f"/tournaments/{tournament.pk}/direct/award/",
        {"round": 1, "table": 1, "kind": "no_show", "player": loser, "reason": "never came"},
    )
    svg = svg_of(page(Client(), tournament))
    label = re.search(r'<text class="bracket-label"[^>]*>(Table 1[^<]*)</text>', svg).group(1)
    assert label == "Table 1 · awarded"
    # At the bracket's font (about 8 px a character at most) it stays within the 180 px box.
    assert 8 + 8 * len(label) <= 180


def test_an_award_names_no_loser_until_the_director_chooses_one(tournament, director):
    """The form does not start on the first player: an award sent without a choice is refused,
    saying what is missing, and decides nothing."""
    assert '<option value="">Choose the player</option>' in page(director, tournament)
    answer = director.post(
        f"/tournaments/{tournament.pk}/direct/award/",
        {"round": 1, "table": 1, "kind": "no_show", "player": "", "reason": "never came"},
        follow=True,
    )
    html = answer.content.decode()
    assert "Nothing was done" in html and "Who loses the table" in html
    assert not Ruling.objects.exists()
    assert Table.objects.get(round__number=1, number=1).status == Table.Status.PLAYING


def test_an_award_missing_its_loser_and_reason_says_what_to_fill_in_sentence_by_sentence(
    tournament, director
):
    answer = director.post(
        f"/tournaments/{tournament.pk}/direct/award/",
        {"round": 1, "table": 1, "kind": "forfeit", "player": "", "reason": "  "},
        follow=True,
    )
    status = re.sub(r"\s+", " ", answer.content.decode())
    assert (
        "Nothing was done. Who loses the table: choose the player who loses it. "
        "Why: say why; the reason is shown on the tournament page with the ruling."
    ) in status
    assert "This field is required" not in status and ".;" not in status
    assert not Ruling.objects.exists()


def test_a_bad_form_changes_nothing_and_says_why(tournament, director):
    answer = director.post(
        f"/tournaments/{tournament.pk}/direct/call-time/",
        {"round": 1, "table": 1, "reason": ""},
        follow=True,
    )
    assert "Nothing was done" in answer.content.decode() and "Why" in answer.content.decode()
    assert not Ruling.objects.exists()
    answer = director.post(
        f"/tournaments/{tournament.pk}/direct/call-time/",
        {"round": 1, "table": 9, "reason": "time"},
        follow=True,
    )
    assert "no table 9" in answer.content.decode()


def test_check_in_drop_and_start_from_the_page(organiser, director):
    tournament = tournament_services.create_tournament(
        name="Cup", organiser=organiser, format="swiss", table_size=2, players=PLAYERS
    )
    base = f"/tournaments/{tournament.pk}/direct/"
    html = page(director, tournament)
    assert "Check in Ann" in html and "Drop Eve" in html
    for name in ("Ann", "Bob", "Cid"):
        director.post(base + "check-in/", {"player": name})
    director.post(base + "drop/", {"player": "Cid"})
    director.post(base + "start/")
    dropped = set(
        Entry.objects.filter(tournament=tournament, dropped=True).values_list("player", flat=True)
    )
    assert dropped == {"Cid", "Dee", "Eve"}
    assert Round.objects.filter(tournament=tournament).count() == 1


def test_a_check_in_by_mistake_is_taken_back_from_the_page(organiser, director):
    tournament = tournament_services.create_tournament(
        name="Cup", organiser=organiser, format="swiss", table_size=2, players=PLAYERS
    )
    base = f"/tournaments/{tournament.pk}/direct/"
    director.post(base + "check-in/", {"player": "Ann"})
    assert "undo Ann's check-in" in page(director, tournament)
    answer = director.post(base + "check-out/", {"player": "Ann"}, follow=True)
    assert "Check-in taken back." in answer.content.decode()
    assert not Entry.objects.get(tournament=tournament, player="Ann").checked_in
    again = director.post(base + "check-out/", {"player": "Ann"}, follow=True)
    assert "Ann is not checked in" in again.content.decode()


def test_a_drop_by_mistake_is_taken_back_and_a_start_says_who_is_checked_in(organiser, director):
    tournament = tournament_services.create_tournament(
        name="Cup", organiser=organiser, format="swiss", table_size=2, players=PLAYERS
    )
    base = f"/tournaments/{tournament.pk}/direct/"
    answer = director.post(base + "drop/", {"player": "Bob"}, follow=True)
    assert "Dropped: not seated at any table from now on." in answer.content.decode()
    assert "Take back Bob's drop" in page(director, tournament)
    answer = director.post(base + "undrop/", {"player": "Bob"}, follow=True)
    assert "Drop taken back: entered again." in answer.content.decode()
    bob = Entry.objects.get(tournament=tournament, player="Bob")
    assert not bob.dropped and not bob.checked_in

    director.post(base + "check-in/", {"player": "Ann"})
    refused = director.post(base + "start/", follow=True).content.decode()
    assert "only 1 is checked in: check the others in as they arrive" in refused
    assert not Entry.objects.filter(tournament=tournament, dropped=True).exists()
    assert not Round.objects.filter(tournament=tournament).exists()


def test_reopen_from_the_page_resets_the_later_rounds(tournament, director):
    play_round(tournament)
    assert Round.objects.filter(tournament=tournament).count() == 2
    director.post(
        f"/tournaments/{tournament.pk}/direct/reopen/",
        {"round": 1, "table": 1, "reason": "wrong deal"},
    )
    assert Round.objects.filter(tournament=tournament).count() == 1
    assert "table reopened" in page(Client(), tournament)


def test_a_finished_tournaments_result_is_corrected_from_the_page(tournament, director):
    from .support import play_tournament

    play_tournament(tournament)
    final = Round.objects.filter(tournament=tournament).order_by("number").last()
    html = page(director, tournament)
    assert "The tournament is over. If a table's result was wrong, reopen it" in html
    assert (
        html.count("Reopen the table (later rounds are reset)")
        == Table.objects.filter(round__tournament=tournament).count()
    )
    assert "Correcting a result" not in page(Client(), tournament)  # the director's only

    director.post(
        f"/tournaments/{tournament.pk}/direct/reopen/",
        {"round": final.number, "table": 1, "reason": "the score was added up wrong"},
    )

    tournament.refresh_from_db()
    assert tournament.status == tournament.Status.RUNNING and not tournament.winner
    assert Table.objects.get(round=final, number=1).status == Table.Status.PLAYING
    assert "Award the result" in page(director, tournament)


def test_a_table_whose_game_is_over_offers_no_award_until_its_result_shows(tournament, director):
    from tournaments.brackets import tasks

    from .support import play_game

    table = Table.objects.get(round__number=1, number=1)
    play_game(table.game_id)  # its result not recorded yet
    html = page(director, tournament)
    box = re.search(r"Round 1, table 1:.*?</details>", html, re.S).group(0)
    assert "This table's game is over and its result is being recorded" in box
    assert "Award the result" not in box and "Call time" not in box
    # An award sent anyway (from a page opened before the last card) is refused, saying why.
    answer = director.post(
        f"/tournaments/{tournament.pk}/direct/award/",
        {"round": 1, "table": 1, "kind": "forfeit", "player": table.players[0], "reason": "x"},
        follow=True,
    )
    said = html_module.unescape(answer.content.decode())
    assert "Nothing was done: the table's game is over and its result is being recorded" in said
    assert not Ruling.objects.exists()
    tasks.table_finished(str(table.game_id))
    box = re.search(r"Round 1, table 1:.*?</details>", page(director, tournament), re.S).group(0)
    assert "being recorded" not in box and "Reopen the table" in box


def box_ids(html):
    """The ids of the director's boxes that a poll's news keeps as they are (hx-preserve)."""
    tools = html[html.index('id="director"') :]
    return re.findall(r'id="([^"]+)" hx-preserve', tools)


def test_a_directors_box_keeps_its_name_while_its_subject_stays_and_changes_it_after(
    tournament, director, organiser
):
    """The boxes of the director's tools are kept as the director left them when the poll
    brings news only while they are about the same thing: a table decided, a new last round
    or a new list of players to drop makes their box anew (a kept "Seat the last round
    again" would seat the round just seated)."""
    first, second = Table.objects.filter(round__number=1).order_by("number")
    before = box_ids(page(director, tournament))
    assert "repair-box-1" in before and "enter-box" not in before  # no entry once started
    assert f"table-box-{first.game_id}-playing" in before
    assert f"table-box-{second.game_id}-playing" in before

    play_round(tournament)  # both tables decided, round 2 seated
    after = box_ids(page(director, tournament))
    assert "repair-box-2" in after and "repair-box-1" not in after
    assert f"table-box-{first.game_id}-finished" in after
    assert f"table-box-{first.game_id}-playing" not in after
    assert len(set(after)) == len(after)  # every box has its own name

    drop = next(i for i in after if i.startswith("drop-box-"))
    tournament_services.drop_entry(tournament_id=tournament.pk, player="Ann", by=organiser)
    assert drop not in box_ids(page(director, tournament))


def test_a_table_played_with_cards_gets_the_result_its_players_report(tournament, director):
    from games.models import Game
    from tests.games.tampering import verify

    table = Table.objects.get(round__number=1, number=1)
    first, second = reversed(table.players)  # the seat order is not the order they placed
    html = page(director, tournament)
    assert f"/tournaments/{tournament.pk}/direct/result/" in html
    assert "Played with cards? The players in the order they placed" in html

    answer = director.post(
        f"/tournaments/{tournament.pk}/direct/result/",
        {"round": 1, "table": 1, "place": [first, second], "reason": "played with cards"},
        follow=True,
    )

    assert "Result entered." in answer.content.decode()
    table.refresh_from_db()
    assert table.placings == [first, second] and table.decided_by == "cards"
    ruling = Ruling.objects.get(kind="cards")
    assert ruling.players == [first, second] and ruling.reason == "played with cards"
    shown = html_module.unescape(page(Client(), tournament))
    assert "Played with cards: result entered by the director." in shown
    assert f"played with cards; placed 1st {first}, 2nd {second}" in shown
    closed = Game.objects.get(pk=table.game_id).closed
    assert "it was played with cards" in closed and f"1st {first}, 2nd {second}" in closed
    assert "match their games" in verify()
    # The API says so too.
    detail = director.get(f"/api/tournaments/{tournament.pk}/").json()
    decided = detail["rounds"][0]["tables"][0]
    assert decided["decided_by"] == "cards" and decided["placings"] == [first, second]


@pytest.mark.parametrize(
    ("places", "words"),
    [
        (["{a}", ""], "choose a player for every place."),
        (["{a}", "{a}"], "{a} placed twice: place each player once."),
        (["{a}", "Zed"], "must list every player of the table once"),
        ([], "choose a player for every place."),
    ],
)
def test_a_result_that_does_not_place_every_player_once_is_refused_in_words(
    tournament, director, places, words
):
    table = Table.objects.get(round__number=1, number=1)
    a = table.players[0]
    answer = director.post(
        f"/tournaments/{tournament.pk}/direct/result/",
        {"round": 1, "table": 1, "place": [p.format(a=a) for p in places], "reason": "cards"},
        follow=True,
    )

    assert words.format(a=a) in html_module.unescape(answer.content.decode())
    assert "Nothing was done" in answer.content.decode()
    table.refresh_from_db()
    assert table.status == "playing" and not Ruling.objects.filter(kind="cards").exists()


def test_only_the_director_enters_a_tables_result(tournament, organiser):
    other = Client()
    other.force_login(get_user_model().objects.create_user("mallory", password="pw-m-2026"))
    table = Table.objects.get(round__number=1, number=1)

    answer = other.post(
        f"/tournaments/{tournament.pk}/direct/result/",
        {"round": 1, "table": 1, "place": table.players, "reason": "cards"},
    )

    assert answer.status_code == 403
    assert "/direct/result/" not in page(other, tournament)
    table.refresh_from_db()
    assert table.status == "playing"
