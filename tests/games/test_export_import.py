"""`manage.py export_games` and `import_games`: a round trip gives back every game exactly (rows,
seats, events with their salts, commitments, hashes and signatures, disputes), importing twice
duplicates nothing, and a tampered line is refused naming the game and version, with nothing
written."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError

from games import services, store
from games.models import Dispute, Event, Game, GameReferee, Seat, TableView
from rules import legal_commands

from .tampering import tamper, verify

pytestmark = pytest.mark.django_db

EVENT_FIELDS = (
    *("version", "batch", "type", "data", "actor", "key", "recorded_at", "hash", "prev_hash"),
    *("salt", "commitment", "signature", "command_digest"),
)


def record():
    """Everything the export carries, as plain values, game by game."""
    games = {}
    for game in Game.objects.order_by("pk"):
        games[str(game.pk)] = {
            "game": (
                *(game.variant, game.scoring, game.target, game.status, game.version),
                *(game.sheet, game.seed_chosen, game.season_id, game.created_by_id),
                game.created_at,
            ),
            "seats": list(
                Seat.objects.filter(game=game)
                .order_by("seat")
                .values_list("seat", "player", "secret", "bot", "user_id")
            ),
            "events": list(
                Event.objects.filter(game=game).order_by("version").values_list(*EVENT_FIELDS)
            ),
            "disputes": list(
                Dispute.objects.filter(game=game).values_list(
                    "version", "claim", "opened_by", "status", "ruling", "opened_at"
                )
            ),
            "referees": list(GameReferee.objects.filter(game=game).values_list("user_id")),
            "state": services.load_game(game_id=game.pk).to_dict(),
        }
    return games


def erase_every_game():
    tamper("DELETE FROM games_event", [])
    Game.objects.all().delete()
    store.forget_all()


def export(tmp_path, name="games.jsonl"):
    path = tmp_path / name
    call_command("export_games", output=str(path), stderr=StringIO())
    return path


def import_games(path, *args):
    out = StringIO()
    call_command("import_games", str(path), *args, stdout=out)
    return out.getvalue()


@pytest.fixture
def club(make_game, play):
    """Two games: one played to its end (a one-point target), with a dispute and a referee;
    one still on, created by a user, a seat of it held by that user."""
    user = get_user_model().objects.create_user("rita", password="pw")
    over = make_game(target=1)
    play(over)
    services.open_dispute(game_id=over.pk, version=3, claim="a card was misdealt", by="seat:1")
    GameReferee.objects.create(game=over, user=user)
    on = make_game(players=("Dee", "Eve"), seed="table-2", created_by=user)
    Seat.objects.filter(game=on, seat=0).update(user=user)
    play(on, commands=12)
    return over, on


def test_a_round_trip_gives_back_every_game_exactly(club, tmp_path):
    over, on = club
    assert Game.objects.get(pk=over.pk).status == Game.Status.FINISHED
    before = record()
    path = export(tmp_path)
    assert len(path.read_text().splitlines()) == 2

    erase_every_game()
    assert Game.objects.count() == 0
    assert "imported 2 games" in import_games(path)
    assert record() == before
    assert "every chain intact" in verify()
    assert TableView.objects.filter(game_id__in=[over.pk, on.pk]).count() == 2

    # The game still on goes on from where it was.
    state = services.load_game(game_id=on.pk)
    seat = state.pending[1]
    services.apply_command(
        game_id=on.pk,
        command=legal_commands(state, seat)[0],
        actor=services.seat_actor(seat),
        expected_version=state.version,
    )
    assert "every chain intact" in verify()


def test_importing_twice_duplicates_nothing(club, tmp_path):
    path = export(tmp_path)
    counts = (Game.objects.count(), Event.objects.count(), Seat.objects.count())
    assert "imported 0 games (0 events, every chain verified); 2 already here" in import_games(path)
    erase_every_game()
    import_games(path)
    import_games(path)
    assert (Game.objects.count(), Event.objects.count(), Seat.objects.count()) == counts
    assert Dispute.objects.count() == 1


def tampered(path, tmp_path, change):
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    change(lines)
    out = tmp_path / "tampered.jsonl"
    out.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return out


@pytest.mark.parametrize(
    ("what", "change", "version", "why"),
    [
        (
            "a card changed",
            lambda event: event["data"].update(tampered=True),
            4,
            "does not open the event's commitment",
        ),
        ("an actor changed", lambda event: event.update(actor="seat:0"), 4, "hash does not match"),
        ("a signature dropped", lambda event: event.update(signature=""), None, "signature"),
    ],
)
def test_a_tampered_line_is_refused_naming_the_game_and_version(
    club, tmp_path, what, change, version, why
):
    over, _ = club
    path = export(tmp_path)

    def edit(lines):
        events = lines[0]["events"]
        if version is None:  # the last event of the first command that carries a signature
            target = next(e for e in events if e["signature"])
        else:
            target = events[version - 1]
        change(target)
        edit.version = target["version"]

    bad = tampered(path, tmp_path, edit)
    erase_every_game()
    with pytest.raises(CommandError) as refused:
        import_games(bad)
    message = str(refused.value)
    assert f"game {over.pk} version {edit.version}" in message, what
    assert why in message and "nothing was imported" in message
    assert Game.objects.count() == 0 and Event.objects.count() == 0


def test_a_missing_event_is_refused(club, tmp_path):
    over, _ = club
    path = export(tmp_path)
    bad = tampered(path, tmp_path, lambda lines: lines[0]["events"].pop(2))
    erase_every_game()
    with pytest.raises(CommandError, match=f"game {over.pk} version 4: expected version 3"):
        import_games(bad)
    assert Game.objects.count() == 0


def test_a_game_here_at_another_version_is_refused_and_a_prefix_is_already_here(club, tmp_path):
    over, _ = club
    path = export(tmp_path)

    def first_command_only(lines):
        # The game as it was at the end of its first command: a chain that verifies.
        events = lines[0]["events"]
        end = next(e["version"] for e in events if e["signature"])
        lines[0]["events"] = events[:end]
        lines[0]["game"].update(version=end, status="playing")
        del lines[1:]

    prefix = tampered(path, tmp_path, first_command_only)
    assert "1 already here" in import_games(prefix)  # the database holds more of the same
    erase_every_game()
    import_games(prefix)
    with pytest.raises(CommandError, match=f"game {over.pk} version .*: the game is here"):
        import_games(path)
    assert Game.objects.count() == 1  # nothing of the refused file was written
