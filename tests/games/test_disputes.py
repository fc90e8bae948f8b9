"""Disputes point at an event and end in a ruling, which may rewind the game."""

import pytest

from games import services
from games.errors import NotFound, Stale
from games.models import Dispute, Event
from rules import IllegalCommand, InvalidCommand


@pytest.fixture
def game_in_play(make_game, play):
    game = make_game()
    results = play(game, commands=8)
    return game, results


def test_a_dispute_is_opened_about_an_event(game_in_play):
    game, results = game_in_play

    dispute = services.open_dispute(
        game_id=game.pk, version=results[5].version, claim="  she held a red card  ", by="seat:2"
    )

    assert (dispute.status, dispute.version, dispute.claim, dispute.opened_by) == (
        "open",
        results[5].version,
        "she held a red card",
        "seat:2",
    )


def test_the_same_dispute_sent_twice_is_one_dispute(game_in_play):
    game, results = game_in_play
    claim = {"game_id": game.pk, "version": results[5].version, "by": "seat:2"}
    first = services.open_dispute(**claim, claim="she held a red card")

    again = services.open_dispute(**claim, claim=" she held a red card ")

    assert again.pk == first.pk and Dispute.objects.filter(game=game).count() == 1
    other = services.open_dispute(**claim, claim="and a blue one")
    assert other.pk != first.pk  # another claim is a dispute of its own
    services.rule_on_dispute(dispute_id=first.pk, decision="rejected", note="", by="user:4")
    reopened = services.open_dispute(**claim, claim="she held a red card")
    assert reopened.pk not in (first.pk, other.pk)  # raised again once ruled: a new one


@pytest.mark.parametrize("version", [0, 10_000, "7"])
def test_a_dispute_must_point_at_an_event_of_the_game(game_in_play, version):
    game, _ = game_in_play

    with pytest.raises(InvalidCommand) as excinfo:
        services.open_dispute(game_id=game.pk, version=version, claim="x", by="seat:1")

    assert excinfo.value.field == "version"


def test_a_dispute_needs_a_claim(game_in_play):
    game, _ = game_in_play

    with pytest.raises(InvalidCommand) as excinfo:
        services.open_dispute(game_id=game.pk, version=3, claim="   ", by="seat:1")

    assert excinfo.value.field == "claim"


def test_a_rejected_dispute_changes_nothing_in_the_game(game_in_play):
    game, results = game_in_play
    dispute = services.open_dispute(game_id=game.pk, version=7, claim="misplay", by="seat:0")
    count = Event.objects.filter(game=game).count()

    ruled = services.rule_on_dispute(
        dispute_id=dispute.pk, decision="rejected", note="the card was legal", by="user:4"
    )

    assert (ruled.status, ruled.ruling, ruled.ruled_by, ruled.undo_to) == (
        "rejected",
        "the card was legal",
        "user:4",
        None,
    )
    assert ruled.ruled_at is not None
    assert Event.objects.filter(game=game).count() == count


def test_an_upheld_dispute_may_rewind_the_game(game_in_play):
    game, results = game_in_play
    to_version = results[2].version
    dispute = services.open_dispute(
        game_id=game.pk, version=results[3].version, claim="x", by="seat:1"
    )

    ruled = services.rule_on_dispute(
        dispute_id=dispute.pk, decision="upheld", note="misdeal", undo_to=to_version, by="user:4"
    )

    assert (ruled.status, ruled.undo_to) == ("upheld", to_version)
    last = Event.objects.filter(game=game).order_by("-version").first()
    assert last.type == "rewound" and last.actor == "user:4"
    assert last.data == {
        "to_version": to_version,
        "by": "user:4",
        "reason": "a dispute was upheld (misdeal)",
    }


def test_a_ruling_whose_undo_is_refused_is_not_recorded(game_in_play):
    game, _ = game_in_play
    dispute = services.open_dispute(game_id=game.pk, version=4, claim="x", by="seat:1")

    with pytest.raises(InvalidCommand):
        services.rule_on_dispute(
            dispute_id=dispute.pk, decision="upheld", note="", undo_to=1, by="user:4"
        )

    assert Dispute.objects.get(pk=dispute.pk).status == "open"


def test_a_ruling_that_undoes_after_the_game_moved_on_is_stale_and_not_recorded(game_in_play, play):
    game, results = game_in_play
    dispute = services.open_dispute(game_id=game.pk, version=7, claim="misplay", by="seat:0")
    seen = results[-1].version
    play(game, commands=1)
    count = Event.objects.filter(game=game).count()

    with pytest.raises(Stale):
        services.rule_on_dispute(
            dispute_id=dispute.pk,
            decision="upheld",
            note="",
            undo_to=results[2].version,
            by="user:4",
            expected_version=seen,
        )

    dispute.refresh_from_db()
    assert dispute.status == "open"
    assert Event.objects.filter(game=game).count() == count


def test_a_ruling_sent_after_the_game_moved_on_says_that_nothing_was_ruled(game_in_play, play):
    game, results = game_in_play
    dispute = services.open_dispute(game_id=game.pk, version=7, claim="misplay", by="seat:0")
    seen = results[-1].version
    play(game, commands=1)

    with pytest.raises(Stale, match=f"expected_version {seen} .* nothing was ruled or undone"):
        services.rule_on_dispute(
            dispute_id=dispute.pk,
            decision="upheld",
            note="",
            undo_to=results[2].version,
            by="user:4",
            expected_version=seen,
        )


@pytest.mark.parametrize("expected_version", ["7", -1, True, 7.0])
def test_a_ruling_names_a_bad_expected_version_whether_or_not_it_undoes(
    game_in_play, expected_version
):
    game, _ = game_in_play
    dispute = services.open_dispute(game_id=game.pk, version=4, claim="x", by="seat:1")

    with pytest.raises(InvalidCommand) as refused:
        services.rule_on_dispute(
            dispute_id=dispute.pk,
            decision="rejected",
            note="",
            by="user:4",
            expected_version=expected_version,
        )

    assert refused.value.field == "expected_version"
    assert Dispute.objects.get(pk=dispute.pk).status == "open"


@pytest.mark.parametrize("undo_to", ["3", True, 2.0, 0, 10_000])
def test_a_ruling_names_its_undo_to_when_the_game_cannot_go_back_there(game_in_play, undo_to):
    game, _ = game_in_play
    dispute = services.open_dispute(game_id=game.pk, version=4, claim="x", by="seat:1")
    count = Event.objects.filter(game=game).count()

    with pytest.raises(InvalidCommand) as refused:
        services.rule_on_dispute(
            dispute_id=dispute.pk, decision="upheld", note="", undo_to=undo_to, by="user:4"
        )

    assert refused.value.field == "undo_to"
    assert Dispute.objects.get(pk=dispute.pk).status == "open"
    assert Event.objects.filter(game=game).count() == count


def test_a_dispute_is_ruled_once(game_in_play):
    game, _ = game_in_play
    dispute = services.open_dispute(game_id=game.pk, version=4, claim="x", by="seat:1")
    services.rule_on_dispute(dispute_id=dispute.pk, decision="rejected", note="", by="user:4")

    with pytest.raises(IllegalCommand, match="already been ruled rejected"):
        services.rule_on_dispute(dispute_id=dispute.pk, decision="upheld", note="", by="user:4")


def test_the_same_ruling_sent_again_answers_the_first_and_undoes_nothing_more(game_in_play):
    game, results = game_in_play
    dispute = services.open_dispute(game_id=game.pk, version=7, claim="misplay", by="seat:0")
    ruling = {
        "dispute_id": dispute.pk,
        "decision": "upheld",
        "note": "a misdeal",
        "undo_to": results[2].version,
        "by": "user:4",
        "expected_version": results[-1].version,
    }
    first = services.rule_on_dispute(**ruling)
    count = Event.objects.filter(game=game).count()

    again = services.rule_on_dispute(**ruling)  # its answer was lost: sent again as it was

    assert again.pk == first.pk and (again.status, again.undo_to) == ("upheld", ruling["undo_to"])
    assert Event.objects.filter(game=game).count() == count
    for other in ({"note": "another"}, {"by": "user:5"}, {"undo_to": None}):
        with pytest.raises(IllegalCommand, match="already been ruled upheld"):
            services.rule_on_dispute(**{**ruling, **other})
    assert Event.objects.filter(game=game).count() == count


@pytest.mark.parametrize(
    "decision, undo_to, field", [("maybe", None, "decision"), ("rejected", 6, "undo_to")]
)
def test_a_ruling_is_upheld_or_rejected_and_only_an_upheld_one_undoes(
    game_in_play, decision, undo_to, field
):
    game, _ = game_in_play
    dispute = services.open_dispute(game_id=game.pk, version=4, claim="x", by="seat:1")

    with pytest.raises(InvalidCommand) as excinfo:
        services.rule_on_dispute(
            dispute_id=dispute.pk, decision=decision, note="", undo_to=undo_to, by="user:4"
        )

    assert excinfo.value.field == field


def test_ruling_on_a_missing_dispute_is_not_found(db):
    with pytest.raises(NotFound):
        services.rule_on_dispute(dispute_id=999, decision="rejected", note="", by="user:4")
