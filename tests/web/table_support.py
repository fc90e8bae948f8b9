"""Helpers of the table page tests: decks set up card by card, games driven by bots through
the services, and the buttons a page offers."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

from games import services, store
from games.models import Event
from rules import legal_commands
from rules.bots import RandomBot
from rules.variants import get_variant


def deck_with(
    hands: dict[int, list[str]],
    starter: str,
    *,
    players: int = 2,
    dealer: int = 0,
    variant: str = "classic",
    first_draws: list[str] = (),
) -> list[str]:
    """A complete deck (top first) that deals ``hands`` (7 cards each, by seat), turns up
    ``starter`` and then lets ``first_draws`` be drawn; the rest in the deck's own order."""
    rest = list(get_variant(variant).deck)
    order: list[str | None] = [None] * len(rest)
    wanted = {}
    for seat, cards in hands.items():
        assert len(cards) == 7
        for k, card in enumerate(cards):
            wanted[(seat - dealer - 1) % players + k * players] = card
    wanted[players * 7] = starter
    for i, card in enumerate(first_draws):
        wanted[players * 7 + 1 + i] = card
    for position, card in wanted.items():
        rest.remove(card)
        order[position] = card
    for i, card in enumerate(order):
        if card is None:
            order[i] = rest.pop(0)
    return order  # type: ignore[return-value]


def drive(game, *, until, seed="drive", limit=3000):
    """Send the bots' choices for whichever seat the game waits for until ``until(state)``
    holds (or the game ends); returns the state reached. ``limit`` only stops a game that
    runs away: a game dealt from a seed of its own (a quick game's) plays a hand of about 90
    commands, and one in 25 or so of two players went past 400."""
    for i in range(limit):
        state, _ = store.load(game.pk)
        if until(state) or state.finished:
            return state
        seat = state.pending[1]
        legal = legal_commands(state, seat) if seat >= 0 else []
        if not legal:  # a race anyone may join (UNO Spin): the first seat that may
            seat = next(s for s in range(state.players) if legal_commands(state, s))
            legal = legal_commands(state, seat)
        command = RandomBot(f"{seed}:{i}").choose(legal)
        services.apply_command(game_id=game.pk, command=command, actor=f"seat:{seat}")
    raise AssertionError(f"not reached in {limit} commands")


class Buttons(HTMLParser):
    """The (name, value) of every submit button and checkbox of a page, and its pick buttons."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.commands: list[dict] = []
        self.picks: list[str] = []
        self.checkboxes: list[tuple[str, str]] = []
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "button" and a.get("name") == "command":
            self.commands.append(json.loads(a["value"]))
        elif tag == "button" and a.get("name") == "pick":
            self.picks.append(a["value"])
        elif tag == "input" and a.get("type") == "checkbox":
            self.checkboxes.append((a.get("name"), a.get("value")))


def code_pattern(code: str) -> re.Pattern[str]:
    """A card code standing alone (not part of a longer code such as R7~ or R5:U)."""
    return re.compile(r"(?<![\w:~])" + re.escape(code) + r"(?![\w:~])")


HTMX = {"HTTP_HX_REQUEST": "true"}


def long_disputed_game(referee, *, commands=60):
    """A game ``commands`` moves long (each the waiting seat's first legal command), refereed
    by ``referee``, with a dispute about a card played well into the game and into its hand:
    the game, the dispute, and the log's rows."""
    game = services.create_game(
        variant="classic",
        players=["Ann", "Bob", "Cy"],
        scoring="standard",
        target=500,
        seed="table-1",
        created_by=referee,
    )
    for _ in range(commands):
        state, _ = store.load(game.pk)
        seat = state.pending[1]
        command = legal_commands(state, seat)[0]
        services.apply_command(game_id=game.pk, command=command, actor=f"seat:{seat}")
    rows = list(Event.objects.filter(game=game).order_by("version"))

    def moves_into_its_hand(row) -> int:
        dealt = max(r.version for r in rows[: row.version] if r.type == "hand_dealt")
        return sum(r.version == r.batch for r in rows[dealt : row.version])

    disputed = next(
        r
        for r in rows[len(rows) // 2 :]
        if r.type == "card_played" and r.version == r.batch and moves_into_its_hand(r) > 8
    )
    dispute = services.open_dispute(
        game_id=game.pk, version=disputed.version, claim="He had to draw", by="seat:0"
    )
    return game, dispute, rows


def night_table(organiser, *, league: str = "Friday & Co", season: str = "Spring"):
    """A two-player table (Ann, Bob) at the second night of a new league's season: its game
    and the night."""
    from tournaments.leagues import services as leagues

    opened = leagues.open_league(name=league, created_by=organiser)
    spring = leagues.open_season(league=opened, name=season, by=organiser)
    leagues.open_night(season=spring, by=organiser)
    night = leagues.open_night(season=spring, by=organiser)
    game = leagues.start_season_game(
        season=spring, players=["Ann", "Bob"], night=night, created_by=organiser
    )
    return game, night
