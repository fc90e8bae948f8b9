"""A Wild Draw 4 challenge through the services: the engine decides it, and the replay at the
moment of the play shows the referee the evidence (the offender's hand)."""

import pytest

from games import services
from games.models import Event
from rules.commands import Challenge, PlayCard
from tests.rules.helpers import arranged_deck


@pytest.fixture
def bluff(make_game):
    """Seat 1 plays a Wild Draw 4 calling green while holding red cards, red being in play."""
    deck = arranged_deck(
        "classic", 3, dealer=0, hands={1: ["W4", "R5", "B7", "G2"], 2: ["Y1"]}, starter="R3"
    )
    game = make_game(deck=deck, dealer=0)
    played = services.apply_command(game_id=game.pk, command=PlayCard(1, "W4", "G"), actor="seat:1")
    return game, played


def test_a_bluff_that_is_challenged_is_guilty_and_the_offender_draws_four(bluff):
    game, played = bluff
    before = services.state_at(game_id=game.pk, version=played.version)

    result = services.apply_command(game_id=game.pk, command=Challenge(2), actor="seat:2")

    resolved = result.events[0]
    assert resolved.type == "challenge_resolved"
    assert resolved.data["guilty"] is True
    assert resolved.data["offender"] == 1 and resolved.data["challenger"] == 2
    assert "R5" in resolved.data["evidence"]
    drawn = result.events[1]
    assert (drawn.type, drawn.data["seat"], len(drawn.data["cards"])) == ("cards_drawn", 1, 4)
    after = services.load_game(game_id=game.pk)
    assert len(after.hands[1]) == len(before.hands[1]) + 4
    assert after.pending == ("turn", 2)  # the challenger plays on (docs/RULINGS.md)


def test_replay_at_the_wild_draw_four_shows_the_offenders_hand_as_evidence(bluff):
    game, played = bluff
    result = services.apply_command(game_id=game.pk, command=Challenge(2), actor="seat:2")
    evidence = result.events[0].data["evidence"]
    play_version = Event.objects.get(
        game=game, batch=played.events[0].batch, type="card_played"
    ).version

    then = services.state_at(game_id=game.pk, version=play_version)

    held = then.hands[1]
    assert then.discard[-1] == "W4" and "W4" not in held
    assert evidence == [card for card in held if card.startswith("R")]
    before = services.state_at(game_id=game.pk, version=play_version - 1)
    assert (before.colour, then.colour) == ("R", "G")  # red was in play, green was called


def test_an_honest_wild_draw_four_challenged_makes_the_challenger_draw_six(make_game):
    deck = arranged_deck(
        "classic", 3, dealer=0, hands={1: ["W4", "B7", "G2", "Y2", "B1", "G1", "Y1"]}, starter="R3"
    )
    game = make_game(deck=deck, dealer=0)
    held = services.load_game(game_id=game.pk).hands[1]
    assert not any(card.startswith("R") for card in held), "the deal must leave seat 1 no red"
    services.apply_command(game_id=game.pk, command=PlayCard(1, "W4", "G"), actor="seat:1")

    result = services.apply_command(game_id=game.pk, command=Challenge(2), actor="seat:2")

    assert result.events[0].data["guilty"] is False and result.events[0].data["evidence"] == []
    assert (result.events[1].data["seat"], len(result.events[1].data["cards"])) == (2, 6)
