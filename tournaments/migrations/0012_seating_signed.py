"""Who sat where is signed by the server (``games.seating``), so a seat's name, a league player
put at another's seat or a table moved to another night by someone who can only write to the
database is found by ``manage.py verify_events``.

The games recorded before are signed here with the deployment's signing key
(``CHAIN_SIGNING_KEY``): the server attests to who sat where as it stands when it is upgraded,
as 0011 did for the rulings. The seating is read with the models as they are at this migration.
"""

from django.conf import settings
from django.db import migrations


def sign_recorded(apps, schema_editor):
    from games.chain import signer_for
    from games.seating import message, seating_value
    from tournaments.brackets.selectors import tournament_part
    from tournaments.leagues.selectors import league_part

    Game = apps.get_model("games", "Game")
    Seat = apps.get_model("games", "Seat")
    SeasonGame = apps.get_model("tournaments", "SeasonGame")
    SeasonSeat = apps.get_model("tournaments", "SeasonSeat")
    Table = apps.get_model("tournaments", "Table")
    games = dict(Game.objects.values_list("pk", "season_id"))
    if not games:
        return
    signer = signer_for(settings.CHAIN_SIGNING_KEY)
    seats: dict = {pk: [] for pk in games}
    for game_id, seat, name, bot in Seat.objects.values_list("game_id", "seat", "player", "bot"):
        seats[game_id].append((seat, name, bot))
    parts: dict = {pk: [] for pk in games}
    seated: dict = {}
    for game_id, seat, player in SeasonSeat.objects.values_list(
        "season_game__game_id", "seat", "player_id"
    ):
        seated.setdefault(game_id, []).append((seat, player))
    for game_id, season_id, night_id in SeasonGame.objects.values_list(
        "game_id", "season_id", "night_id"
    ):
        parts[game_id].append(league_part(season_id, night_id, seated.get(game_id, ())))
    for game_id, tournament_id, round_number, number, players in Table.objects.values_list(
        "game_id", "round__tournament_id", "round__number", "number", "players"
    ):
        parts[game_id].append(tournament_part(tournament_id, round_number, number, players))
    for pk, season_id in games.items():
        seating = seating_value(seats[pk], season_id, parts[pk])
        Game.objects.filter(pk=pk).update(
            seating_signature=signer.sign_message(message(pk, seating))
        )


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0008_game_seating_signature"),
        ("tournaments", "0011_rulings_signed"),
    ]

    operations = [
        migrations.RunPython(sign_recorded, migrations.RunPython.noop, elidable=False),
    ]
