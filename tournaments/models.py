"""The models of the tournaments app, for Django to find: the leagues' (``tournaments.leagues``)
and the tournaments' (``tournaments.brackets``). Both packages' tables keep the app's label and
names (``tournaments_league``, ``tournaments_tournament``, ...)."""

from tournaments.brackets.models import Entry, Round, Table, Tournament
from tournaments.leagues.models import (
    GameResult,
    League,
    Night,
    NightRow,
    Organiser,
    Player,
    RatingHistory,
    Referee,
    Season,
    SeasonGame,
    SeasonSeat,
    StandingRow,
)

__all__ = [
    "Entry",
    "GameResult",
    "League",
    "Night",
    "NightRow",
    "Organiser",
    "Player",
    "RatingHistory",
    "Referee",
    "Round",
    "Season",
    "SeasonGame",
    "SeasonSeat",
    "StandingRow",
    "Table",
    "Tournament",
]
