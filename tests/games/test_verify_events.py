"""`manage.py verify_events` recomputes every game's hash chain and finds the first event that
does not match, however it was changed."""

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from games.chain import commitment
from games.management.commands import verify_events
from games.models import Event
from tests.games.tampering import tamper, verify


@pytest.fixture
def games(make_game, play):
    made = [make_game(seed=f"verify-{i}") for i in range(3)]
    for game in made:
        play(game, commands=5)
    return made


def test_an_intact_log_verifies_with_a_summary(games):
    out = verify()

    assert f"verified {Event.objects.count()} events in 3 games: every chain intact" in out
    assert "every command signed" in out


def test_an_event_whose_data_was_changed_is_found(games):
    row = Event.objects.get(game=games[1], version=4)
    data = dict(row.data, tampered=True)
    tamper("UPDATE games_event SET data = %s WHERE position = %s", [_json(data), row.pk])

    with pytest.raises(CommandError) as excinfo:
        verify()

    assert f"game {games[1].pk} version 4" in str(excinfo.value)
    assert excinfo.value.returncode == 1


def test_an_event_whose_hashes_were_recomputed_still_breaks_the_next_link(games):
    from games.store import row_hash

    row = Event.objects.get(game=games[0], version=2)
    row.actor = "seat:0"
    forged = row_hash(row)
    tamper(
        "UPDATE games_event SET actor = %s, hash = %s WHERE position = %s",
        ["seat:0", forged, row.pk],
    )

    with pytest.raises(CommandError, match=f"game {games[0].pk} version 3: prev_hash"):
        verify()


def test_a_deleted_event_leaves_a_gap_that_is_found(games):
    row = Event.objects.get(game=games[2], version=6)
    tamper("DELETE FROM games_event WHERE position = %s", [row.pk])

    with pytest.raises(CommandError, match=f"game {games[2].pk} version 7: expected version 6"):
        verify()


def test_events_cut_off_the_end_of_a_log_are_missed(games):
    last = Event.objects.filter(game=games[0]).order_by("-version").first()
    tamper("DELETE FROM games_event WHERE position = %s", [last.pk])

    with pytest.raises(CommandError, match=f"game {games[0].pk} version {last.version}: missing"):
        verify()


def test_a_forged_event_inserted_with_a_made_up_hash_is_found(games):
    # INSERT is allowed (the log is append-only); a forger without the chain is still caught.
    last = Event.objects.filter(game=games[1]).order_by("-version").first()
    Event.objects.create(
        game=games[1],
        version=last.version + 1,
        batch=last.version + 1,
        type="passed",
        data={"seat": 0},
        actor="seat:0",
        hash="0" * 64,
        prev_hash=last.hash,
        salt="00" * 16,
        commitment=commitment("00" * 16, {"seat": 0}, None),
    )
    games[1].__class__.objects.filter(pk=games[1].pk).update(version=last.version + 1)

    with pytest.raises(
        CommandError, match=f"game {games[1].pk} version {last.version + 1}: the hash"
    ):
        verify()


def _json(value) -> str:
    import json

    return json.dumps(value)


def test_an_operator_asking_for_progress_is_told_how_far_the_check_has_come(make_game, monkeypatch):
    monkeypatch.setattr(verify_events, "PROGRESS_EVERY", 2)
    for i in range(5):
        make_game(players=("Ann", f"P{i}"))
    out, err = StringIO(), StringIO()

    call_command("verify_events", verbosity=2, stdout=out, stderr=err)

    assert err.getvalue().splitlines() == [
        "checking the logs of 5 games",
        "2 of 5 logs checked",
        "4 of 5 logs checked",
        "checking who sat where",
        "checking the records beside the games",
        "comparing the recorded results with the games",
    ]
    assert out.getvalue().startswith("verified ")  # what was found stays alone on stdout
    quiet = StringIO()
    call_command("verify_events", stdout=StringIO(), stderr=quiet)
    assert quiet.getvalue() == ""
