"""Where other apps hook into games without games importing them (DESIGN.md: dependencies point
one way). Register from an app's ``AppConfig.ready()``:

    from games import registry
    registry.referee_checks.append(is_league_organiser)     # (user, game) -> bool
    registry.seater_checks.append(is_league_organiser)      # (user, game) -> bool
    registry.on_game_event.append(advance_bracket_later)    # (game, event_rows) -> None
    registry.start_season_game = start_season_game           # POST /api/games/ with "season"
    registry.reveal_checks.append(round_revealed)           # (game) -> bool
    registry.undo_checks.append(undo_refusal)                # (game) -> reason or None
    registry.counts_checks.append(is_tournament_table)       # (game) -> bool
    registry.onward = tournament_onward                      # (game, player) -> Onward | None
    registry.event_pages.append(night_of_table)              # (game) -> EventPage | None
    registry.verify_checks.append(bracket_results)           # (state_of) -> Verified
    registry.seating_parts.append(league_seating)            # (game ids or None) -> {id: part}

Projections (read models kept in the append's transaction) register with
``games.projections.register`` instead.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from uuid import UUID

if TYPE_CHECKING:
    from games.models import Event, Game
    from rules import GameState

# Extra ways a user can be a game's referee (besides creating it or a GameReferee row), e.g.
# organising the league or tournament the game belongs to.
referee_checks: list[Callable[[Any, Game], bool]] = []

# Extra ways a user seats a game's players (besides creating it), e.g. organising the league or
# tournament it belongs to: they hold its seats' private links (``games.services.seats_players``)
# to hand them out. A referee named to rule on games is not one of them.
seater_checks: list[Callable[[Any, Game], bool]] = []

# Whether a finished game's hidden information (every hand, the unredacted log, the replay) may
# be shown to its seats and to everyone else; ``games.visibility.is_revealed`` asks every check.
# A check returns False while a finished game must stay hidden, e.g. a tournament table dealt
# the same cards as tables still playing. A referee sees everything regardless.
reveal_checks: list[Callable[[Game], bool]] = []

# Asked before an undo appends its ``Rewound``: a check returns why the undo would make
# something built on the game's result disagree with its log (e.g. a tournament round seated
# from a table's result), or None. Any reason refuses the undo (409, nothing appended).
undo_checks: list[Callable[[Game], str | None]] = []

# Whether a game counts for something outside it, besides a season (e.g. a tournament's table):
# nothing of such a game's deal may be chosen, so a referee's ``deal`` with a deck set up card by
# card is refused in it (a season's game counts in any case).
counts_checks: list[Callable[[Game], bool]] = []

# Called after the transaction that appended events commits, once per append, with the game
# (its version and status as of the append) and the Event rows appended. Listeners should only
# enqueue work (a Celery task taking ids); an error is logged, never shown to the caller.
on_game_event: list[Callable[[Game, list[Event]], None]] = []

# Starting a game that counts for a season (``"season": <id>`` in POST /api/games/). The app that
# owns seasons sets this to its service, called with ``season_id`` and create_game's keyword
# arguments (``variant``, ``scoring`` and ``target`` None where the caller gave none: the
# season's settings fill them in). It checks the season and the caller (raising the usual errors),
# creates the game through ``services.create_game`` and records who sits where. While it is
# unset, a game cannot join a season.
start_season_game: Callable[..., Game] | None = None


@dataclass(frozen=True, slots=True)
class Onward:
    """Where a table's players go from it, for its page: the event the table is part of (its
    name and page) and, for one player, the table they are seated at next (its game and how
    the event names it), once there is one; ``over``: the event has ended."""

    title: str
    url: str
    next_game: UUID | None = None
    next_label: str = ""
    over: bool = False


# A table of an event that seats its players at further tables (a tournament's rounds): called
# with the game and a seat's player name (None for someone who is not seated), returns where the
# table's players go from it, or None for a game of no such event.
onward: Callable[[Game, str | None], Onward | None] | None = None


@dataclass(frozen=True, slots=True)
class EventPage:
    """The page of the event a table is played at, for the table's own pages to lead back to
    it: ``title``, the event's name in words ("Night 3 of Spring"); ``what``, what the event
    is, in words ("a league night of Friday Club", "the tournament"); ``url``, its page."""

    title: str
    what: str
    url: str


# The event a table is played at (a league night, a tournament): each check is called with the
# game and returns the event's page, or None for a game that is not one of its tables. The
# first page found is the table's.
event_pages: list[Callable[[Game], EventPage | None]] = []


def event_page(game: Game) -> EventPage | None:
    """The page of the event ``game`` is a table of (``event_pages``), or None."""
    for check in event_pages:
        page = check(game)
        if page is not None:
            return page
    return None


@dataclass(frozen=True, slots=True)
class Verified:
    """What a ``verify_checks`` check found: ``checked`` says what it compared with the games,
    for ``verify_events``'s summary (``("12 decided tournament tables", ...)``), and
    ``problems`` every record that disagrees with its game, each naming where it is."""

    checked: tuple[str, ...]
    problems: tuple[str, ...] = ()


# What ``manage.py verify_events`` checks besides the games' own records, once every game's
# log has verified: results other apps recorded from games (a tournament table's placings, a
# season game's result), compared with the games that produced them. Each check is called
# with ``state_of``: a game's id -> its state as its verified log gives it (None for no game).
verify_checks: list[Callable[[Callable[[Any], GameState | None]], Verified]] = []


# What an app that counts games records of who sat where, signed with the game's seats
# (``games.seating``): each is called with a list of game ids (None: every game) and returns,
# for each of those games it counts, one JSON value naming the event, the table and who sits at
# each seat (e.g. ``["league", season, night, [player ids]]``). A service of the app that
# changes one calls ``games.seating.seal`` (a new game) or ``games.seating.resealing`` (a game
# already seated) in its transaction.
seating_parts: list[Callable[[list[UUID] | None], dict[UUID, Any]]] = []
