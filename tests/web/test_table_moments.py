"""The table page says what happened in the players' words, never by an event's number: the
log, the dispute form's choice and the table's disputes. A player may dispute any moment of the
game they could see, the latest offered first and every moment of an earlier hand on asking,
and the choice holds nothing their seat could not see."""

import html
import re
from html.parser import HTMLParser

import pytest

from games import services
from games.models import Dispute, Event
from rules.cards import describe
from tests.web.conftest import seat_client
from tests.web.table_support import HTMX, drive
from tests.web.test_table_replay import wild_draw_four_game

pytestmark = pytest.mark.django_db


class Choices(HTMLParser):
    """The dispute form's choice of moments: (group, event version, words, selected), and the
    hands it offers to look back at."""

    def __init__(self, page: str) -> None:
        super().__init__()
        self.options: list[tuple[str, int, str, bool]] = []
        self.hands: list[str] = []
        self.autofocus = False
        self._select = self._group = ""
        self._option: dict | None = None
        self.feed(page)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "select":
            self._select = a.get("id", "")
            if self._select == "dispute-version":
                self.autofocus = "autofocus" in a
        elif tag == "optgroup":
            self._group = a["label"]
        elif tag == "option":
            self._option = {"value": a["value"], "selected": "selected" in a, "text": ""}

    def handle_data(self, data):
        if self._option is not None:
            self._option["text"] += data

    def handle_endtag(self, tag):
        if tag == "option" and self._option is not None:
            o, self._option = self._option, None
            if self._select == "dispute-version":
                self.options.append((self._group, int(o["value"]), o["text"], o["selected"]))
            elif self._select == "dispute-hand":
                self.hands.append(o["value"])
        elif tag == "select":
            self._select = ""

    def words(self, version: int) -> str:
        return next(text for _, v, text, _ in self.options if v == version)

    @property
    def selected(self) -> list[int]:
        return [v for _, v, _, chosen in self.options if chosen]


def section(page: str, id_: str) -> str:
    start = page.index(f'id="{id_}"')
    return page[start : page.index("</section>", start)]


def visible(fragment: str) -> str:
    """The words a person reads: tags (and their attributes) taken out."""
    return html.unescape(re.sub(r"<[^>]+>", " ", fragment))


@pytest.fixture
def second_hand(make_game):
    """Ann and Bob, played by bots into their second hand."""
    game = make_game(players=("Ann", "Bob"), seed="moments-1")
    drive(game, until=lambda s: s.hand_number >= 2 and s.pending[0] == "turn", seed="m")
    return game


def hand_rows(game, hand: int) -> list[Event]:
    """The events of hand ``hand`` (the game's start with the first), as recorded."""
    rows = list(Event.objects.filter(game=game).order_by("version"))
    deals = [r.version for r in rows if r.type == "hand_dealt"]
    lo = 1 if hand == 1 else deals[hand - 1]
    hi = deals[hand] if hand < len(deals) else rows[-1].version + 1
    return [r for r in rows if lo <= r.version < hi]


def test_the_log_tells_what_happened_without_numbering_the_events(client, make_game, play):
    game = make_game()
    play(game, commands=12)
    seat_client(client, game, 0)

    log = section(client.get(f"/table/{game.pk}/").text, "log")

    # No list numbers taken from the events' versions, nor a version in any word read out.
    assert "<li value=" not in log
    assert not re.search(r"\b[Ee]vent \d", visible(log))
    link = r'<span class="log-text">([^<]*)</span>\s*<a [^>]*aria-label="([^"]*)"'
    entries = re.findall(link, log)
    assert len(entries) == 8
    for words, label in entries:  # each link says which moment it disputes, in its words
        assert label == f"Dispute this: {words}"


def test_the_dispute_choice_says_each_moment_in_words_with_its_hand_and_time(
    client, make_game, play
):
    game = make_game()
    play(game, commands=12)
    seat_client(client, game, 0)

    page = client.get(f"/table/{game.pk}/").text

    choices = Choices(page)
    assert len(choices.options) == 8
    logged = re.findall(r'<li data-version="(\d+)"><span class="log-text">([^<]*)</span>', page)
    assert [v for _, v, _, _ in choices.options] == [int(v) for v, _ in reversed(logged)]
    for version, text in logged:  # the log's words, then the hand and the time
        assert choices.words(int(version)).startswith(html.unescape(text) + " (hand 1, ")
    for _, version, text, _ in choices.options:
        assert re.fullmatch(r"[^\d(]*\S.* \(hand 1, \d\d:\d\d\)", text), text
        assert not text.startswith(str(version))
    assert "Event" not in visible(section(page, "dispute"))


def test_a_seat_may_dispute_a_moment_of_an_earlier_hand_seen_as_it_saw_it(client, second_hand):
    game = second_hand
    seat_client(client, game, 0)
    page = client.get(f"/table/{game.pk}/").text
    assert Choices(page).hands == ["", "1", "2"]
    first = hand_rows(game, 1)
    early = next(r for r in first if r.type == "card_played")
    assert early.version not in {v for _, v, _, _ in Choices(page).options}  # left the log

    # Ann asks for hand 1: its every moment, its newest chosen and the choice focused.
    answer = client.get(f"/table/{game.pk}/", {"dispute_hand": 1}, **HTMX)

    assert answer.status_code == 200 and "<html" not in answer.text
    choices = Choices(answer.text)
    quiet = {"turn_began", "uno_window_closed", "choice_offered", "starter_returned"}
    said = [r.version for r in reversed(first) if r.type not in quiet]
    assert [v for group, v, _, _ in choices.options if group == "Hand 1, newest first"] == said
    assert choices.selected == [said[0]] and choices.autofocus
    # What Ann could not see stays hidden: Bob's cards drawn and dealt are not named.
    bob_drew = [r for r in first if r.type == "cards_drawn" and r.data["seat"] == 1]
    assert bob_drew
    for row in bob_drew:
        words = choices.words(row.version)
        assert words.startswith("Bob drew ")
        for card in row.data["cards"]:
            assert describe(card) not in words
    ann_drew = next(r for r in first if r.type == "cards_drawn" and r.data["seat"] == 0)
    assert describe(ann_drew.data["cards"][0]) in choices.words(ann_drew.version)

    # And disputes a moment of it, long after it left the log.
    filed = client.post(
        f"/table/{game.pk}/disputes/", {"version": early.version, "claim": "Misplayed"}, **HTMX
    )
    assert "Your dispute was filed" in filed.text
    assert Dispute.objects.get().version == early.version


def test_the_hand_looked_at_stays_offered_as_the_game_moves_on(client, second_hand):
    game = second_hand
    seat_client(client, game, 0)
    before = game.version
    drive(game, until=lambda s: s.version > before + 3, seed="n")

    update = client.get(f"/table/{game.pk}/version/", {"v": before, "dispute_hand": 1}, **HTMX).text

    groups = {group for group, _, _, _ in Choices(update).options}
    assert groups == {"Just now, newest first", "Hand 1, newest first"}
    plain = client.get(f"/table/{game.pk}/version/", {"v": before}, **HTMX).text
    assert {group for group, _, _, _ in Choices(plain).options} == {"Just now, newest first"}


def test_without_javascript_the_hand_is_shown_in_the_page(client, second_hand):
    game = second_hand
    seat_client(client, game, 0)

    page = client.get(f"/table/{game.pk}/", {"dispute_hand": 1}).text

    assert 'action="/table/' in page and 'id="dispute-look" method="get"' in page
    choices = Choices(page)
    assert "Hand 1, newest first" in {group for group, _, _, _ in choices.options}
    assert 'name="dispute_hand" form="dispute-look"' in page
    assert '<option value="1" selected>hand 1</option>' in page


@pytest.mark.parametrize("htmx", [True, False])
def test_a_refused_dispute_about_an_earlier_hand_keeps_the_moment_and_the_words(
    client, second_hand, htmx
):
    game = second_hand
    seat_client(client, game, 0)
    early = next(r for r in hand_rows(game, 1) if r.type == "card_played")
    claim = "He played out of turn\x00"

    answer = client.post(
        f"/table/{game.pk}/disputes/",
        {"version": early.version, "claim": claim},
        **(HTMX if htmx else {}),
    )

    assert answer.status_code == (200 if htmx else 400)
    assert not Dispute.objects.exists()
    choices = Choices(answer.text)
    assert choices.selected == [early.version]
    textarea = answer.text.split('id="dispute-claim"')[1].split("</textarea>")[0]
    assert "He played out of turn" in textarea
    assert "null characters" in html.unescape(section(answer.text, "dispute"))


def test_a_hand_never_dealt_or_not_a_number_offers_only_the_latest(client, second_hand):
    game = second_hand
    seat_client(client, game, 0)
    for hand in ("9", "0", "-1", "x", "99999999999999999999"):
        page = client.get(f"/table/{game.pk}/", {"dispute_hand": hand})
        assert page.status_code == 200
        groups = {group for group, _, _, _ in Choices(page.text).options}
        assert groups == {"Just now, newest first"}, hand


def test_the_tables_disputes_say_the_moment_in_each_viewers_words(client, second_hand, referee):
    game = second_hand
    first = hand_rows(game, 1)
    ann_drew = next(r for r in first if r.type == "cards_drawn" and r.data["seat"] == 0)
    card = describe(ann_drew.data["cards"][0])
    dispute = services.open_dispute(
        game_id=game.pk, version=ann_drew.version, claim="I drew the wrong card", by="seat:0"
    )
    back = ann_drew.batch - 1
    services.rule_on_dispute(
        dispute_id=dispute.pk,
        decision="upheld",
        note="misdeal",
        undo_to=back,
        reopen=False,
        by=f"user:{referee.pk}",
        expected_version=services.get_game(game.pk).version,
    )

    seat_client(client, game, 0)
    ann = visible(section(client.get(f"/table/{game.pk}/").text, "disputes"))
    client.logout()
    seat_client(client, game, 1)
    bob = visible(section(client.get(f"/table/{game.pk}/").text, "disputes"))

    assert re.search(r"“I drew the wrong card”, about “Ann \(you\) drew .*” \(hand 1, ", ann)
    assert card in ann  # her own card, to her
    assert "about “Ann drew " in bob and card not in bob  # not to Bob
    assert "play went back to just after “" in bob
    for words in (ann, bob):
        assert not re.search(r"\b[Ee]vent\b|rewound to \d", words)
        # No version number on its own (the clock time the dispute was opened, "20:15", is
        # taken out first: its hour may be the same number).
        assert str(ann_drew.version) not in re.sub(r"\b\d{1,2}:\d{2}\b", " ", words).split()


@pytest.fixture
def referee(django_user_model):
    return django_user_model.objects.create_user("ref", password="pw-ref-123")


def test_an_undo_in_the_log_says_the_moment_play_went_back_to(client, make_game, play):
    game = make_game(players=("Ann", "Bob"))
    play(game, commands=6)
    rows = list(Event.objects.filter(game=game).order_by("version"))
    to = next(r.version for r in reversed(rows[:-1]) if rows[r.version].batch == r.version + 1)
    services.undo(game_id=game.pk, to_version=to, reason="misdeal", by="system")
    seat_client(client, game, 1)

    log = visible(section(client.get(f"/table/{game.pk}/").text, "log"))

    line = next(line.strip() for line in log.splitlines() if "A referee" in line)
    said = r"A referee took the game back to just after “.+” \(hand 1\): misdeal"
    assert re.fullmatch(said, line)
    assert "event" not in line


def test_the_replays_disputes_and_wild_draw_fours_say_the_moment_in_words(
    client, make_game, referee
):
    """The replay is the referee's, and every player's once the game is over: its disputes
    and Wild Draw 4s are said by what happened (its stepper still counts the events)."""
    game, version = wild_draw_four_game(make_game, referee, bluff=True)
    dispute = services.open_dispute(
        game_id=game.pk, version=version, claim="He held a red card", by="seat:0"
    )
    services.rule_on_dispute(
        dispute_id=dispute.pk,
        decision="upheld",
        note="R3 in hand",
        undo_to=version - 1,
        by=f"user:{referee.pk}",
        expected_version=services.get_game(game.pk).version,
    )
    client.force_login(referee)

    page = client.get(f"/table/{game.pk}/replay/").text

    disputes = section(page, "disputes")
    assert f'?v={version}">Bob played wild draw four and called blue. (hand 1)</a>' in disputes
    assert "(play went back to just after: " in visible(disputes)
    assert not re.search(r"\b[Ee]vent \d|rewound to", visible(disputes))
    sidebar = page[page.index('id="w4-heading"') : page.index('id="disputes"')]
    assert f'?v={version}">In hand 1</a>: Bob' in sidebar
    assert "Event" not in visible(sidebar)


def test_after_an_undo_into_an_earlier_hand_that_hand_is_the_one_played_now(client, second_hand):
    game = second_hand
    rows = hand_rows(game, 1)
    to = next(r.version for r in reversed(rows[:-1]) if rows[r.version].batch == r.version + 1)
    services.undo(game_id=game.pk, to_version=to, reason="misdeal", by="system")
    seat_client(client, game, 0)

    look = section(client.get(f"/table/{game.pk}/").text, "dispute")

    assert '<option value="1">hand 1 (this hand)</option>' in look
    assert '<option value="2">hand 2</option>' in look  # dealt, then undone


def test_an_upheld_disputes_undo_in_the_log_names_no_event(client, make_game, play):
    game = make_game(players=("Ann", "Bob"))
    play(game, commands=6)
    rows = list(Event.objects.filter(game=game).order_by("version"))
    to = next(r.version for r in reversed(rows[:-1]) if rows[r.version].batch == r.version + 1)
    dispute = services.open_dispute(game_id=game.pk, version=to + 1, claim="no", by="seat:0")
    services.rule_on_dispute(
        dispute_id=dispute.pk, decision="upheld", note="misdeal", undo_to=to, by="system"
    )
    seat_client(client, game, 1)

    log = visible(section(client.get(f"/table/{game.pk}/").text, "log"))

    line = next(line.strip() for line in log.splitlines() if "A referee" in line)
    assert re.fullmatch(
        r"A referee took the game back to just after “.+” \(hand 1\): a dispute was upheld "
        r"\(misdeal\)",
        line,
    ), line
