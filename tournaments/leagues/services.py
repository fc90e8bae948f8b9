"""League services: every write to leagues, seasons, nights and players, and starting the games
of a season and recording their hands (through ``games.services``, so each hand is an event).

A service given ``by`` (a user) checks that the user may do it and raises
``games.errors.Forbidden`` if not; code that calls a service without ``by`` acts as the system.
Bad input raises ``rules.InvalidCommand`` naming the field (400 in the API), like the games
services, so one exception handler serves both apps.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import Any
from uuid import UUID

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Exists, Max, OuterRef
from django.utils import timezone

from games import seating
from games import services as game_services
from games.errors import Forbidden, NotFound
from games.models import Game, Seat
from games.names import clean_name, name_key
from rules import IllegalCommand, InvalidCommand, command_from_dict, decide
from rules.engine import SCORINGS
from rules.variants import get_variant, variant_names
from tournaments.brackets.models import Tournament
from tournaments.leagues import selectors
from tournaments.leagues.models import (
    GameResult,
    League,
    Night,
    Organiser,
    Player,
    Referee,
    Season,
    SeasonGame,
    SeasonSeat,
)
from tournaments.leagues.projections import recompute_season

NAME_LENGTH = 100


# Checks -------------------------------------------------------------------------------------


def _text(value: str, field: str) -> str:
    """``value``, refused when it holds a NUL character (which PostgreSQL's text cannot
    store: the API's body check refuses it before, a page's field does not)."""
    if "\x00" in value:
        raise InvalidCommand(f"{field}: a NUL character is not text", field=field)
    return value


def _name(value: Any, field: str) -> str:
    if not isinstance(value, str) or not clean_name(value):
        raise InvalidCommand(f"{field}: give a name", field=field)
    _text(value, field)
    value = clean_name(value)
    if len(value) > NAME_LENGTH:
        raise InvalidCommand(f"{field}: at most {NAME_LENGTH} characters", field=field)
    return value


def _settings(variant: Any, scoring: Any, target: Any) -> None:
    """The engine's own checks of a game's settings, before anything is stored."""
    if variant is not None and variant not in variant_names():
        known = ", ".join(variant_names())
        raise InvalidCommand(
            f"unknown variant {variant!r}: expected one of {known}", field="variant"
        )
    if scoring is not None and scoring not in SCORINGS:
        known = ", ".join(SCORINGS)
        raise InvalidCommand(
            f"unknown scoring {scoring!r}: expected one of {known}", field="scoring"
        )
    if target is not None and (
        not isinstance(target, int) or isinstance(target, bool) or target < 1
    ):
        raise InvalidCommand("target must be a whole number of 1 or more", field="target")


def is_organiser(user: Any, league: League | int) -> bool:
    """Whether ``user`` organises ``league``."""
    if user is None or not getattr(user, "is_authenticated", False) or user.pk is None:
        return False
    league_id = league.pk if isinstance(league, League) else league
    return Organiser.objects.filter(league_id=league_id, user_id=user.pk).exists()


def require_organiser(by: Any, league: League) -> None:
    """``Forbidden`` unless ``by`` organises ``league`` (``None``: the system, allowed)."""
    if by is not None and not is_organiser(by, league):
        raise Forbidden(f"only an organiser of {league.name} may do this")


def is_season_referee(user: Any, game: Game) -> bool:
    """A referee check for ``games.registry``: the organisers and the named referees of a game's
    season's league."""
    if game.season_id is None or user is None or user.pk is None:
        return False
    return (
        Organiser.objects.filter(user_id=user.pk, league__seasons__id=game.season_id).exists()
        or Referee.objects.filter(user_id=user.pk, league__seasons__id=game.season_id).exists()
    )


def is_season_organiser(user: Any, game: Game) -> bool:
    """A seater check for ``games.registry``: the organisers of a game's season's league (who
    seat its tables), not its named referees."""
    if game.season_id is None or user is None or user.pk is None:
        return False
    return Organiser.objects.filter(user_id=user.pk, league__seasons__id=game.season_id).exists()


def is_named_tournament_referee(user: Any, game: Game) -> bool:
    """A referee check for ``games.registry``: the named referees of a game's tournament."""
    if user is None or not getattr(user, "is_authenticated", False) or user.pk is None:
        return False
    return Referee.objects.filter(
        user_id=user.pk, tournament__round_set__tables__game_id=game.pk
    ).exists()


def is_league_referee(user: Any, league: League | int) -> bool:
    """Whether ``user`` referees every game of ``league``: an organiser or a named referee."""
    if user is None or not getattr(user, "is_authenticated", False) or user.pk is None:
        return False
    league_id = league.pk if isinstance(league, League) else league
    return is_organiser(user, league_id) or (
        Referee.objects.filter(league_id=league_id, user_id=user.pk).exists()
    )


# Leagues, seasons, nights, players ------------------------------------------------------------


def open_league(
    *,
    name: str,
    variant: str = "classic",
    scoring: str = "standard",
    target: int = 500,
    options: dict[str, Any] | None = None,
    created_by: Any = None,
) -> League:
    """Open a league; its creator becomes its first organiser. ``options``: the edition's
    options for its games (UNO VETO's house rules)."""
    name = _name(name, "name")
    _settings(variant, scoring, target)
    options = game_services.edition_options(variant, options)
    with transaction.atomic():
        if created_by is not None:
            # One league opened at a time by each person (their row is locked): a form sent
            # twice, or a request sent again after its answer was lost, finds the first.
            get_user_model().objects.select_for_update().filter(pk=created_by.pk).exists()
            if League.objects.filter(organisers__user=created_by, name__iexact=name).exists():
                raise InvalidCommand(
                    f"you already run a league called “{name}”: find it on the leagues page, "
                    "or give this one another name",
                    field="name",
                )
        league = League.objects.create(
            name=name,
            variant=variant,
            scoring=scoring,
            target=target,
            options=options,
            created_by=created_by,
        )
        if created_by is not None:
            Organiser.objects.create(league=league, user=created_by)
    return league


def add_organiser(*, league: League, user: Any, by: Any = None) -> Organiser:
    """Make ``user`` an organiser of ``league`` (a referee of all its games)."""
    require_organiser(by, league)
    organiser, _ = Organiser.objects.get_or_create(league=league, user=user)
    return organiser


# Organisers and referees -----------------------------------------------------------------------


def _account(username: Any) -> Any:
    """The account called ``username`` (as typed on a page: spaces around it ignored)."""
    if not isinstance(username, str) or not username.strip():
        raise InvalidCommand("username: give the name the person signs in with", field="username")
    user = get_user_model().objects.filter(username=username.strip()).first()
    if user is None:
        raise InvalidCommand(
            f"username: nobody signs in as {username.strip()!r}: ask them for their user name",
            field="username",
        )
    return user


def require_tournament_organiser(by: Any, tournament: Tournament) -> None:
    """``Forbidden`` unless ``by`` organises ``tournament`` (``None``: the system, allowed)."""
    if by is not None and tournament.organiser_id != getattr(by, "pk", None):
        raise Forbidden(f"only the organiser of {tournament.name} may do this")


def name_organiser(*, league: League, username: str, by: Any = None) -> Organiser:
    """Make the account called ``username`` an organiser of ``league`` (by an organiser)."""
    require_organiser(by, league)
    return add_organiser(league=league, user=_account(username))


def name_referee(
    *,
    username: str,
    league: League | None = None,
    tournament: Tournament | None = None,
    by: Any = None,
) -> Referee:
    """Name the account called ``username`` a referee of ``league`` (by one of its organisers)
    or of ``tournament`` (by its organiser): it then referees every game of it."""
    if (league is None) == (tournament is None):
        raise ValueError("name a referee of a league or of a tournament")
    if league is not None:
        require_organiser(by, league)
    else:
        assert tournament is not None
        require_tournament_organiser(by, tournament)
    user = _account(username)
    referee, _ = Referee.objects.get_or_create(
        league=league, tournament=tournament, user=user, defaults={"named_by": by}
    )
    return referee


def name_role(*, league: League, username: str, role: str, by: Any = None) -> Any:
    """Name the account called ``username`` an ``organiser`` or a ``referee`` of ``league``."""
    if role == "organiser":
        return name_organiser(league=league, username=username, by=by)
    if role == "referee":
        return name_referee(league=league, username=username, by=by)
    raise InvalidCommand(f"role: {role!r} is not organiser or referee", field="role")


def remove_referee(*, referee: Referee, by: Any = None) -> None:
    """Take a named referee's role away (nothing they already ruled is undone)."""
    if referee.league_id is not None:
        require_organiser(by, referee.league)
    else:
        require_tournament_organiser(by, referee.tournament)
    referee.delete()


def remove_organiser(*, organiser: Organiser, by: Any = None) -> None:
    """Take an organiser's role away; a league keeps at least one organiser."""
    require_organiser(by, organiser.league)
    if Organiser.objects.filter(league_id=organiser.league_id).count() <= 1:
        raise IllegalCommand(f"{organiser.league.name} needs at least one organiser")
    organiser.delete()


def remove_role(*, league: League, kind: str, role_id: int, by: Any = None) -> Organiser | Referee:
    """Take away the ``kind`` (``organiser`` or ``referee``) role ``role_id`` of ``league``
    (by an organiser); ``NotFound`` for a role the league does not have. The role taken."""
    require_organiser(by, league)
    model = {"organiser": Organiser, "referee": Referee}.get(kind)
    role = None
    if model is not None:
        role = model.objects.select_related("user", "league").filter(pk=role_id, league=league)
        role = role.first()
    if role is None:
        raise NotFound(f"no {kind} role {role_id} in {league.name}")
    if isinstance(role, Organiser):
        remove_organiser(organiser=role, by=by)
    else:
        remove_referee(referee=role, by=by)
    return role


def open_season(
    *,
    league: League,
    name: str,
    variant: str | None = None,
    scoring: str | None = None,
    target: int | None = None,
    best_nights: int | None = None,
    attendance_points: int = 0,
    by: Any = None,
) -> Season:
    """Open a season of ``league``. ``variant``, ``scoring`` and ``target`` override the
    league's (``None``: the league's); ``best_nights`` and ``attendance_points`` are the
    standings options (docs/STANDINGS.md)."""
    require_organiser(by, league)
    name = _name(name, "name")
    _settings(variant, scoring, target)
    _standings_options(best_nights, attendance_points)
    taken = InvalidCommand(f"{league.name} already has a season called “{name}”", field="name")
    if Season.objects.filter(league=league, name=name).exists():
        raise taken
    try:
        with transaction.atomic():
            return Season.objects.create(
                league=league,
                name=name,
                variant=variant or "",
                scoring=scoring or "",
                target=target,
                best_nights=best_nights,
                attendance_points=attendance_points,
            )
    except IntegrityError:  # the same season opened at the same moment (a form sent twice)
        raise taken from None


def _standings_options(best_nights: Any, attendance_points: Any) -> None:
    if best_nights is not None and (
        not isinstance(best_nights, int) or isinstance(best_nights, bool) or best_nights < 1
    ):
        raise InvalidCommand("best_nights must be a whole number of 1 or more", field="best_nights")
    if (
        not isinstance(attendance_points, int)
        or isinstance(attendance_points, bool)
        or attendance_points < 0
    ):
        raise InvalidCommand(
            "attendance_points must be a whole number of 0 or more", field="attendance_points"
        )


def set_standings_options(
    *, season: Season, best_nights: int | None, attendance_points: int, by: Any = None
) -> Season:
    """Change how the season's table counts, and recompute it (from the game results: no
    replay needed)."""
    require_organiser(by, season.league)
    _standings_options(best_nights, attendance_points)
    with transaction.atomic():
        season.best_nights = best_nights
        season.attendance_points = attendance_points
        season.save(update_fields=["best_nights", "attendance_points"])
        recompute_season(season)
    return season


def recompute_standings(*, season: Season) -> None:
    """Re-derive the season's table from its game results (after its settings were edited)."""
    with transaction.atomic():
        recompute_season(season)


def register_player(*, league: League, name: str, user: Any = None, by: Any = None) -> Player:
    """The league's player called ``name``, registered now if new. A name that differs from a
    player's only in capitals is that player ("bea" typed at a table seats Bea), not a new one.
    ``user`` links an account (a player needs none); a name already linked to another account
    is refused."""
    require_organiser(by, league)
    name = _name(name, "name")
    player = Player.objects.filter(league=league, name=name).first()
    if player is None:  # the same name in other capitals or forms ("bea", "Ｂｅａ")
        key = name_key(name)
        player = next(
            (
                p
                for p in league.players.order_by("pk").only("pk", "name", "user_id")
                if name_key(p.name) == key
            ),
            None,
        )
    if player is not None:
        name = player.name
    if player is None:
        try:
            with transaction.atomic():
                return Player.objects.create(league=league, name=name, user=user)
        except IntegrityError:
            player = Player.objects.filter(league=league, name=name).first()
            if player is None:  # the user is already another player of this league
                raise InvalidCommand(
                    f"{user} already plays in {league.name} under another name", field="user"
                ) from None
    if user is not None and player.user_id != user.pk:
        if player.user_id is not None:
            raise InvalidCommand(f"{name} is another account's player", field="user")
        player.user = user
        player.save(update_fields=["user"])
    return player


def register_players(
    *, league: League, names: Sequence[Any], by: Any = None
) -> list[tuple[Player, bool]]:
    """Each of ``names`` registered as ``register_player`` registers it, all or none: a name
    refused (field ``names.N``, N counted from 0) registers none of them. The players in the
    order first named, each once, with whether they are new to the league."""
    require_organiser(by, league)
    known = set(league.players.values_list("pk", flat=True))
    players: dict[int, Player] = {}
    with transaction.atomic():
        for index, name in enumerate(names):
            try:
                player = register_player(league=league, name=name, by=by)
            except InvalidCommand as exc:
                reason = str(exc).removeprefix("name: ")
                raise InvalidCommand(f"names.{index}: {reason}", field=f"names.{index}") from None
            players.setdefault(player.pk, player)
    return [(player, player.pk not in known) for player in players.values()]


def rename_player(*, player: Player, name: Any, by: Any = None) -> Player:
    """Correct a player's name (mistyped when they were registered). Games already played keep
    the names they were played under: a game's record is not rewritten."""
    require_organiser(by, player.league)
    name = _name(name, "name")
    key = name_key(name)
    others = player.league.players.exclude(pk=player.pk).only("name")
    taken = next((p.name for p in others if name_key(p.name) == key), None)
    if taken is not None:
        raise InvalidCommand(
            f"name: {taken} is another player of {player.league.name}", field="name"
        )
    player.name = name
    try:
        with transaction.atomic():
            player.save(update_fields=["name"])
    except IntegrityError:  # another player took the name meanwhile
        raise InvalidCommand(
            f"name: {name} is another player of {player.league.name}", field="name"
        ) from None
    return player


def link_account(*, player: Player, username: Any, by: Any = None) -> Player:
    """Link the account that signs in as ``username`` to ``player`` (who then plays signed in,
    and sees their seat at tables without a link), or unlink it (``username`` empty). The
    player's seats at the league's games, and at those games' rematches, follow the link: an
    account unlinked, or replaced by another, no longer opens them signed in."""
    require_organiser(by, player.league)
    username = _text(username.strip(), "username") if isinstance(username, str) else ""
    if not username:
        with transaction.atomic():
            player.user = None
            player.save(update_fields=["user"])
            _seats_follow(player)
        return player
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        raise InvalidCommand(f"username: nobody signs in as {username!r}", field="username")
    other = player.league.players.filter(user=user).exclude(pk=player.pk).first()
    if other is not None:
        raise InvalidCommand(
            f"username: the account {username} already plays in {player.league.name} as "
            f"{other.name}",
            field="username",
        )
    player.user = user
    try:
        with transaction.atomic():
            player.save(update_fields=["user"])
            _seats_follow(player)
    except IntegrityError:  # linked to another player meanwhile
        raise InvalidCommand(
            f"username: the account {username} already plays in {player.league.name}",
            field="username",
        ) from None
    return player


def _seats_follow(player: Player) -> None:
    """Give ``player``'s seats at the league's games to the account now linked to them (or to
    none), as seating a table does (``start_season_game``), and their seats at the rematches
    started from those games, and from those rematches: a rematch seats the same players in the
    same seats with each seat's account (``games.services.rematch``)."""
    theirs = SeasonSeat.objects.filter(
        player=player, season_game_id=OuterRef("game_id"), seat=OuterRef("seat")
    )
    Seat.objects.filter(Exists(theirs)).update(user_id=player.user_id)
    games = dict(SeasonSeat.objects.filter(player=player).values_list("season_game_id", "seat"))
    while games:
        rematches = Game.objects.filter(rematch_of_id__in=games).values_list("pk", "rematch_of_id")
        games = {new: games[old] for new, old in rematches}
        for number in set(games.values()):
            at = [game for game, seat in games.items() if seat == number]
            Seat.objects.filter(game_id__in=at, seat=number).update(user_id=player.user_id)


def open_night(*, season: Season, date: datetime.date | None = None, by: Any = None) -> Night:
    """A new league night of ``season``, numbered after the last one; or, on a ``date`` the
    season already has a night open, that night (``open_night_once``)."""
    return open_night_once(season=season, date=date, by=by)[0]


def open_night_once(
    *, season: Season, date: datetime.date | None = None, by: Any = None
) -> tuple[Night, bool]:
    """The night ``open_night`` gives and whether it was opened now. A form sent twice, or a
    request sent again after its answer was lost, finds the night the first one opened on
    that date instead of opening a second, empty one beside it: one opening at a time per
    season (its row is locked). A night closed that day leaves room for another."""
    require_organiser(by, season.league)
    for _ in range(3):
        try:
            with transaction.atomic():
                Season.objects.select_for_update().filter(pk=season.pk).exists()
                if date is not None:
                    night = season.nights.filter(date=date, closed_at=None).order_by("number")
                    if (already := night.first()) is not None:
                        return already, False
                number = (season.nights.aggregate(n=Max("number"))["n"] or 0) + 1
                return Night.objects.create(season=season, number=number, date=date), True
        except IntegrityError:  # another night took the number meanwhile (SQLite: no lock)
            continue
    raise InvalidCommand("could not number the night; try again", field="night")


def night_of(*, season: Season, date: datetime.date | None = None) -> Night:
    """The season's open night on ``date`` (today by default), opened if there is none yet."""
    date = date or timezone.localdate()
    night = season.nights.filter(date=date, closed_at=None).order_by("number").first()
    return night or open_night(season=season, date=date)


def take_table_off(*, night: Night, game_id: UUID | str, reason: str, by: Any = None) -> None:
    """Take a table seated by mistake (the wrong players, a name mistyped) off the night, while
    its first hand is still being played: its game takes no more moves and counts nowhere (no
    hand has a result to lose). After a hand has ended, the referee's undo or a ruling is the
    way to correct a table. The game stays, closed, with the reason."""
    require_organiser(by, night.season.league)
    why = _text(reason.strip(), "reason") if isinstance(reason, str) else ""
    if not why or len(why) > 300:
        raise InvalidCommand(
            "reason: say why the table is taken off (300 characters at most)", field="reason"
        )
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        seated = SeasonGame.objects.filter(game_id=game_id, night=night).first()
        if game is None or seated is None:
            raise NotFound(f"no table of night {night.number} plays game {game_id}")
        state = game_services.load_game(game_id=game.pk)
        if state.finished or state.last_hand is not None:
            raise IllegalCommand(
                "a hand of this table has ended: only a table whose first hand is still being "
                "played is taken off; correct a later one with the referee's undo"
            )
        game.closed = (
            f"The organiser took this table off night {night.number}: {why}. It takes no more "
            "moves and counts nowhere."
        )
        with seating.resealing(game.pk):
            game.season_id = None
            game.save(update_fields=["closed", "season_id"])
            seated.delete()


def close_night(*, night: Night, by: Any = None, leave_playing: bool = False) -> Night:
    """Close a league night: no table is seated at it after. Refused (``IllegalCommand``) while
    a table is still playing, naming it, unless ``leave_playing``: then its game plays on and
    counts in the standings when it ends, like any other."""
    season = night.season
    require_organiser(by, season.league)
    with transaction.atomic():
        night = Night.objects.select_for_update().get(pk=night.pk)
        if night.closed_at is not None:
            return night
        playing = [
            number
            for number, (status,) in enumerate(
                SeasonGame.objects.filter(night=night)
                .order_by("created_at", "pk")
                .values_list("game__status"),
                start=1,
            )
            if status != Game.Status.FINISHED
        ]
        if playing and not leave_playing:
            tables = ", ".join(str(n) for n in playing)
            raise IllegalCommand(
                f"night {night.number} still has tables playing (table {tables}): finish them "
                "before closing the night, or close it anyway"
            )
        night.closed_at = timezone.now()
        night.save(update_fields=["closed_at"])
    return night


def move_refusal(*, season_game: SeasonGame, night: Night, over: bool) -> Exception | None:
    """Why ``season_game``'s table may not move to ``night`` (an error to raise), or None. A
    table stays in its season; one still being played moves only to an open night, and not
    while one of its players sits at another table of it still playing. A table that is over
    may move to a closed night: that corrects the night's record."""
    if night.season_id != season_game.season_id:
        return InvalidCommand(
            f"{night} of {night.season.name} is not a night of {season_game.season.name}: a "
            "table stays in the season it was played for",
            field="night",
        )
    if over or night.pk == season_game.night_id:
        return None
    if night.closed_at is not None:
        return IllegalCommand(
            f"night {night.number} is closed: a table still being played moves only to an "
            "open night (once it is over, it may move to a closed one)"
        )
    names = [seat.player.name for seat in season_game.seats.select_related("player")]
    busy = selectors.still_playing(night.pk, names)
    return (
        IllegalCommand(f"this table cannot move to night {night.number}: {busy}") if busy else None
    )


def move_table(*, game_id: UUID | str, night: Night, by: Any = None) -> SeasonGame:
    """Move a season game's table to another night of its season (seated at the wrong night).
    Its result moves with it: both nights' rows and the season's standings are made again from
    the results, as a rebuild would make them. The game's row is locked first, as an append
    locks it, so a hand recorded meanwhile is counted on the night the table ends up on."""
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        seated = SeasonGame.objects.select_related("season__league").filter(game_id=game_id).first()
        if game is None or seated is None:
            raise NotFound(f"no season's table plays game {game_id}")
        require_organiser(by, seated.season.league)
        night = Night.objects.select_for_update().select_related("season").get(pk=night.pk)
        refusal = move_refusal(
            season_game=seated, night=night, over=game.status == Game.Status.FINISHED
        )
        if refusal is not None:
            raise refusal
        if night.pk == seated.night_id:
            return seated
        with seating.resealing(game.pk):
            seated.night = night
            seated.save(update_fields=["night"])
        GameResult.objects.filter(game_id=game.pk).update(night=night)
        recompute_season(seated.season)
    return seated


# Games --------------------------------------------------------------------------------------


def _season(season: Season | int) -> Season:
    if isinstance(season, Season):
        return season
    found = Season.objects.select_related("league").filter(pk=season).first()
    if found is None:
        raise InvalidCommand(f"no season {season}", field="season")
    return found


class PlayerBusy(IllegalCommand):
    """A player asked for at a table of a night still plays at another table of it."""


def start_season_game(
    *,
    season: Season | int,
    players: Sequence[Player | str],
    created_by: Any = None,
    night: Night | None = None,
    variant: str | None = None,
    scoring: str | None = None,
    target: int | None = None,
    seed: str | int | None = None,
    deck: Sequence[str] | None = None,
    dealer: int | None = None,
    options: dict[str, Any] | None = None,
    sheet: bool = False,
) -> Game:
    """Start a game that counts for ``season``, on ``night`` (default: the night of today), and
    record who sits where. ``players`` are the league's players or names (new names are
    registered). The season's variant, scoring and target are the defaults; ``created_by``
    must organise the league, and with the other organisers referees the game. A game that
    counts draws its own seed: a chosen ``seed`` is refused (``games.services.create_game``)."""
    season = _season(season)
    league = season.league
    if created_by is not None and not is_organiser(created_by, league):
        raise Forbidden(f"only an organiser of {league.name} may add games to its seasons")
    if night is not None and night.season_id != season.pk:
        raise InvalidCommand(f"{night} is not a night of {season.name}", field="night")
    if isinstance(players, str) or not isinstance(players, Sequence):
        raise InvalidCommand("players must be a list of names", field="players")
    with transaction.atomic():
        # Tonight's night when none is named (``POST /api/games/`` with a season), so that a
        # player busy at another of its tables is refused the same way.
        night = night or night_of(season=season)
        # The night's row is locked, so two tables seated at once see each other.
        night = Night.objects.select_for_update().get(pk=night.pk)
        if night.closed_at is not None:
            raise IllegalCommand(
                f"night {night.number} is closed: open a new night for more tables"
            )
        seated = [
            p if isinstance(p, Player) else register_player(league=league, name=_name(p, "players"))
            for p in players
        ]
        if any(p.league_id != league.pk for p in seated):
            raise InvalidCommand(f"every player must play in {league.name}", field="players")
        if len({p.pk for p in seated}) != len(seated):
            raise InvalidCommand("a player sits at a table once", field="players")
        busy = selectors.still_playing(night.pk, [p.name for p in seated])
        if busy:
            raise PlayerBusy(busy)
        game = game_services.create_game(
            variant=variant or season.effective_variant,
            players=[p.name for p in seated],
            scoring=scoring or season.effective_scoring,
            target=target or season.effective_target,
            seed=seed,
            deck=deck,
            dealer=dealer,
            options=options if options is not None else season.effective_options or None,
            created_by=created_by,
            season_id=season.pk,
            sheet=sheet,
        )
        # A player with an account plays at their seat signed in, without the seat's link.
        for number, player in enumerate(seated):
            if player.user_id is not None:
                Seat.objects.filter(game=game, seat=number).update(user_id=player.user_id)
        season_game = SeasonGame.objects.create(game=game, season=season, night=night)
        SeasonSeat.objects.bulk_create(
            SeasonSeat(season_game=season_game, seat=i, player=p) for i, p in enumerate(seated)
        )
        seating.seal(game.pk)
    return game


def start_season_game_for_api(*, season_id: int, **kwargs: Any) -> Game:
    """``games.registry.start_season_game``: POST /api/games/ with ``"season"``."""
    return start_season_game(season=season_id, **kwargs)


def record_hand(
    *,
    game_id: UUID | str,
    out: Any,
    remaining: Any = None,
    points: Any = None,
    actor: str,
    expected_version: int | None = None,
    key: str | None = None,
) -> game_services.AppendResult:
    """Record one hand of a score-sheet game: ``out`` went out; every other seat's cards
    (``remaining``: ``{"0": ["R7", "W4"]}``) or points (``points``: ``{"1": 2}``). The engine
    checks the cards against the deck and scores the hand; a mistake is undone, never edited."""
    data: dict[str, Any] = {"type": "record_hand", "out": out}
    if remaining is not None:
        data["remaining"] = remaining
    if points is not None:
        data["points"] = points
    command = command_from_dict(None, data)
    # The engine refuses a hand on a game that is not an open score sheet (409 illegal).
    return game_services.apply_command(
        game_id=game_id,
        command=command,
        actor=actor,
        expected_version=expected_version,
        key=key,
    )


def preview_hand(
    *, game_id: UUID | str, out: Any, remaining: Any = None, points: Any = None
) -> Any:
    """What ``record_hand`` would record, recording nothing: the engine's ``hand_ended`` event
    (each seat's points ``held``, what it ``gained`` and the ``scores`` after) and, when the hand
    would end the game, its ``game_ended``. Raises what ``record_hand`` would raise."""
    data: dict[str, Any] = {"type": "record_hand", "out": out}
    if remaining is not None:
        data["remaining"] = remaining
    if points is not None:
        data["points"] = points
    command = command_from_dict(None, data)
    events = decide(game_services.load_game(game_id=game_id), command)
    ended = next((e for e in events if e.type == "hand_ended"), None)
    over = next((e for e in events if e.type == "game_ended"), None)
    return {"hand": ended, "game": over}


def deck_worth(*, game_id: UUID | str) -> tuple[str, int]:
    """The title of a game's edition and the points its whole deck is worth: the most the
    other players of a hand can hold between them (the engine refuses more)."""
    state = game_services.load_game(game_id=game_id)
    variant = get_variant(state.variant)
    return variant.title, sum(variant.points(code) for code in variant.deck_for(state.options))


def get_season(season_id: int) -> Season:
    season = Season.objects.select_related("league").filter(pk=season_id).first()
    if season is None:
        raise NotFound(f"no season {season_id}")
    return season


def get_league(league_id: int) -> League:
    league = League.objects.filter(pk=league_id).first()
    if league is None:
        raise NotFound(f"no league {league_id}")
    return league
