"""A tournament's entries are signed by the server (``games.records``): who is entered, their
seed, the round they joined in, and whether they dropped out or checked in decide who is
seated in the next round and where. Someone who can write to the database but does not hold
the signing key cannot seed a friend higher or bring back a player who dropped without
``manage.py verify_events`` naming the entry; every service that enters, drops, checks in or
starts signs what it changes, and does not bless a change made behind the server's back."""

import pytest

from games import records
from games.chain import server_public_keys
from tests.games.tampering import reported, tamper
from tournaments.brackets import directing, services
from tournaments.brackets.models import Entry, Round

from .support import play_round, swiss_of_four

pytestmark = pytest.mark.django_db


def problems() -> list[str]:
    return [problem for _, problem in records.checked(server_public_keys()) if problem]


def change(sql: str, params) -> None:
    tamper(sql, params, "tournaments_entry")


def draft(organiser, players=("Ann", "Bob", "Cid", "Dee", "Eve")):
    return services.create_tournament(
        name="Cup",
        organiser=organiser,
        format="swiss",
        table_size=2,
        rounds=3,
        scoring="none",
        players=list(players),
    )


def entry(tournament, player: str) -> Entry:
    return Entry.objects.get(tournament=tournament, player=player)


def test_entries_are_signed_when_the_tournament_is_created(organiser):
    tournament = draft(organiser)

    entries = Entry.objects.filter(tournament=tournament)
    assert len(entries) == 5 and all(e.signature for e in entries)
    assert problems() == []


def test_no_shows_dropped_at_the_start_are_signed_as_dropped(organiser):
    tournament = draft(organiser)
    for player in ("Ann", "Bob", "Cid"):
        directing.check_in(tournament_id=tournament.pk, player=player, by=organiser)

    services.start_tournament(tournament_id=tournament.pk, by=organiser)

    dropped = Entry.objects.filter(tournament=tournament, dropped=True)
    assert sorted(e.player for e in dropped) == ["Dee", "Eve"]
    assert problems() == []


def test_a_dropped_player_brought_back_in_the_database_is_found(organiser):
    tournament = swiss_of_four(organiser)
    services.drop_entry(tournament_id=tournament.pk, player="Dee", by=organiser)
    dee = entry(tournament, "Dee")
    change("UPDATE tournaments_entry SET dropped = %s WHERE id = %s", [False, dee.pk])

    message = reported()

    assert "1 record is not as the server signed it" in message
    assert (
        f"entry {dee.pk} ('Dee', tournament {tournament.pk}): not what the server signed (its "
        "tournament, player, seed, joined, dropped or checked in changed)"
    ) in message


def test_seeds_swapped_with_their_signatures_are_found(organiser):
    tournament = draft(organiser)
    ann, eve = entry(tournament, "Ann"), entry(tournament, "Eve")
    # Each takes the other's seed and signature along: Eve is now seeded first.
    for pk, seed, signature in ((ann.pk, 5, eve.signature), (eve.pk, 1, ann.signature)):
        change(
            "UPDATE tournaments_entry SET seed = %s, signature = %s WHERE id = %s",
            [seed, signature, pk],
        )

    message = reported()

    assert f"entry {ann.pk} ('Ann'" in message and f"entry {eve.pk} ('Eve'" in message


def test_every_service_that_changes_an_entry_signs_it(organiser):
    tournament = draft(organiser)
    for player in ("Ann", "Bob", "Dee"):
        directing.check_in(tournament_id=tournament.pk, player=player, by=organiser)
    directing.check_out(tournament_id=tournament.pk, player="Dee", by=organiser)
    services.drop_entry(tournament_id=tournament.pk, player="Cid", by=organiser)
    directing.take_back_drop(tournament_id=tournament.pk, player="Cid", by=organiser)
    directing.check_in(tournament_id=tournament.pk, player="Cid", by=organiser)
    services.add_entry(tournament_id=tournament.pk, player="Fay", by=organiser)
    assert problems() == []

    services.start_tournament(tournament_id=tournament.pk, by=organiser)
    play_round(tournament)
    services.add_entry(tournament_id=tournament.pk, player="Gus", by=organiser)  # late
    services.drop_entry(tournament_id=tournament.pk, player="Bob", by=organiser)

    assert entry(tournament, "Gus").joined == 3 and entry(tournament, "Bob").dropped
    assert entry(tournament, "Fay").dropped  # not checked in
    assert problems() == []


def test_a_service_does_not_bless_an_entry_changed_behind_its_back(organiser, caplog):
    tournament = draft(organiser)
    bob = entry(tournament, "Bob")
    change("UPDATE tournaments_entry SET seed = 9 WHERE id = %s", [bob.pk])

    with caplog.at_level("ERROR", logger="games.records"):
        directing.check_in(tournament_id=tournament.pk, player="Bob", by=organiser)

    assert entry(tournament, "Bob").checked_in  # the check-in is kept
    assert f"entry {bob.pk} ('Bob', tournament {tournament.pk}): not what" in reported()
    assert f"entry {bob.pk} was saved but not signed again" in caplog.text


def test_the_start_does_not_bless_a_no_show_changed_behind_its_back(organiser, caplog):
    # The no-shows are dropped together at the start; one of them had been given the first
    # seed in the database: it is dropped, and still reported, and the others are signed.
    tournament = draft(organiser)
    for player in ("Ann", "Bob"):
        directing.check_in(tournament_id=tournament.pk, player=player, by=organiser)
    eve = entry(tournament, "Eve")
    change("UPDATE tournaments_entry SET seed = 0 WHERE id = %s", [eve.pk])

    with caplog.at_level("ERROR", logger="games.records"):
        services.start_tournament(tournament_id=tournament.pk, by=organiser)

    assert entry(tournament, "Eve").dropped and entry(tournament, "Dee").dropped
    assert [p.split(":")[0] for p in problems()] == [
        f"entry {eve.pk} ('Eve', tournament {tournament.pk})"
    ]
    assert f"entry {eve.pk} was saved but not signed again" in caplog.text
    # The round was still seated from the entries as they stood.
    assert Round.objects.filter(tournament=tournament).count() == 1
