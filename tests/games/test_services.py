"""The game services: creating a game, sending commands, undo, reading a game back."""

import pytest
from django.contrib.auth import get_user_model

from games import services, store
from games.errors import CommandUndone, NotFound, Stale
from games.models import Event, Game, Seat
from rules import IllegalCommand, InvalidCommand, replay
from rules.commands import DrawCard, PlayCard


def log_of(game):
    return list(Event.objects.filter(game=game).order_by("version"))


def test_creating_a_game_seats_the_players_and_appends_the_start_as_versions_one_to_n(db):
    user = get_user_model().objects.create_user("ref")

    game = services.create_game(
        variant="classic",
        players=["Ann", "Bob", "Cy"],
        scoring="standard",
        target=250,
        drawn_seed="5eed" * 8,
        created_by=user,
        season_id=7,
    )

    rows = log_of(game)
    assert [row.version for row in rows] == list(range(1, game.version + 1))
    assert [row.type for row in rows[:3]] == ["game_started", "dealer_chosen", "hand_dealt"]
    assert {row.actor for row in rows} == {f"user:{user.pk}"}
    assert rows[0].data["seed"] == "5eed" * 8 and rows[0].data["target"] == 250
    assert "seed_chosen" not in rows[0].data and not game.seed_chosen
    seats = list(game.seats.order_by("seat"))
    assert [(s.seat, s.player) for s in seats] == [(0, "Ann"), (1, "Bob"), (2, "Cy")]
    assert len({s.secret for s in seats}) == 3 and all(len(s.secret) >= 32 for s in seats)
    stored = Game.objects.get(pk=game.pk)
    assert (stored.version, stored.status, stored.season_id, stored.target) == (
        game.version,
        "playing",
        7,
        250,
    )


def test_a_game_without_a_seed_gets_a_random_one(make_game):
    first, second = make_game(seed=None), make_game(seed=None)

    seeds = [log_of(game)[0].data["seed"] for game in (first, second)]
    assert seeds[0] != seeds[1] and all(len(seed) >= 16 for seed in seeds)


def test_a_game_can_be_dealt_from_an_explicit_deck(make_game):
    from tests.rules.helpers import arranged_deck

    deck = arranged_deck("classic", 3, dealer=2, hands={0: ["R1", "R2"]}, starter="G5")

    game = make_game(deck=deck, dealer=2)

    state = services.load_game(game_id=game.pk)
    assert state.dealer == 2 and state.top == "G5" and state.hands[0][:2] == ("R1", "R2")


@pytest.mark.parametrize(
    "changes, field",
    [
        ({"variant": "chess"}, "variant"),
        ({"scoring": "golf"}, "scoring"),
        ({"players": ["Ann"]}, "players"),
        ({"players": ["Ann", ""]}, "players"),
        ({"deck": ["R1"] * 108}, "deck"),
        ({"options": {"stacking": True}}, "options.stacking"),
    ],
)
def test_a_game_with_bad_settings_is_refused_and_nothing_is_written(make_game, changes, field):
    with pytest.raises(InvalidCommand) as excinfo:
        make_game(**changes)

    assert excinfo.value.field == field
    assert not Game.objects.exists() and not Event.objects.exists() and not Seat.objects.exists()


def test_a_legal_command_appends_its_events_and_answers_with_the_new_version(make_game):
    game = make_game()
    state = services.load_game(game_id=game.pk)
    seat = state.pending[1]

    result = services.apply_command(
        game_id=game.pk, command=DrawCard(seat), actor=f"seat:{seat}", expected_version=game.version
    )

    assert result.version == game.version + len(result.events)
    assert [row.version for row in result.events] == list(
        range(game.version + 1, result.version + 1)
    )
    assert result.events[0].type == "cards_drawn" and result.events[0].actor == f"seat:{seat}"
    assert Game.objects.get(pk=game.pk).version == result.version


def test_an_illegal_command_is_refused_and_appends_nothing(make_game):
    game = make_game()
    state = services.load_game(game_id=game.pk)
    not_their_turn = (state.pending[1] + 1) % 3

    seat = state.pending[1]
    not_held = next(card for card in ("W4", "W", "R9", "G9") if card not in state.hands[seat])
    colour = "R" if not_held.startswith("W") else None

    with pytest.raises(IllegalCommand, match="cannot draw now"):
        services.apply_command(game_id=game.pk, command=DrawCard(not_their_turn), actor="seat")
    with pytest.raises(IllegalCommand, match="does not hold"):
        services.apply_command(
            game_id=game.pk, command=PlayCard(seat, not_held, colour), actor="seat"
        )

    assert Event.objects.filter(game=game).count() == game.version


def test_a_stale_expected_version_is_refused_and_appends_nothing(make_game, play):
    game = make_game()
    play(game, commands=1)
    state, version = store.load(game.pk)
    seat = state.pending[1]

    with pytest.raises(Stale) as excinfo:
        services.apply_command(
            game_id=game.pk, command=DrawCard(seat), actor="seat", expected_version=game.version
        )

    assert excinfo.value.current_version == version
    assert Event.objects.filter(game=game).count() == version


def test_the_same_idempotency_key_returns_the_first_answer_and_appends_nothing(make_game):
    game = make_game()
    seat = services.load_game(game_id=game.pk).pending[1]
    first = services.apply_command(game_id=game.pk, command=DrawCard(seat), actor="seat", key="c-1")
    count = Event.objects.count()

    again = services.apply_command(
        game_id=game.pk,
        command=DrawCard(seat),
        actor="seat",
        key="c-1",
        expected_version=game.version,
    )

    assert again.version == first.version
    assert [row.pk for row in again.events] == [row.pk for row in first.events]
    assert Event.objects.count() == count


def test_an_idempotency_key_belongs_to_one_game(make_game):
    one, other = make_game(seed="a"), make_game(seed="b")
    for game in (one, other):
        seat = services.load_game(game_id=game.pk).pending[1]
        result = services.apply_command(
            game_id=game.pk, command=DrawCard(seat), actor="s", key="same"
        )
        assert result.events[0].game_id == game.pk


def test_commands_to_a_missing_game_are_not_found(db):
    with pytest.raises(NotFound):
        services.apply_command(
            game_id="00000000-0000-0000-0000-000000000000", command=DrawCard(0), actor="seat:0"
        )


def test_undo_appends_a_rewind_and_the_game_goes_on_from_that_version(make_game, play):
    game = make_game()
    results = play(game, commands=10)
    to_version = results[3].version
    head = results[-1].version

    version = services.undo(
        game_id=game.pk, to_version=to_version, reason="wrong card", by="user:9"
    )

    assert version == head + 1
    last = Event.objects.get(game=game, version=version)
    assert (last.type, last.actor, last.data) == (
        "rewound",
        "user:9",
        {"to_version": to_version, "by": "user:9", "reason": "wrong card"},
    )
    state = services.load_game(game_id=game.pk)
    then = services.state_at(game_id=game.pk, version=to_version)
    assert state.hands == then.hands and state.pending == then.pending and state.version == version
    assert state == replay(row.to_rules_event() for row in log_of(game))
    # and play continues from there
    play(game, commands=3)
    assert services.load_game(game_id=game.pk) == replay(
        row.to_rules_event() for row in log_of(game)
    )


def test_undo_goes_back_no_further_than_the_first_hands_start_and_not_forward(make_game, play):
    game = make_game()
    results = play(game, commands=3)
    head = results[-1].version

    for to_version in (game.version - 1, head, head + 5):
        with pytest.raises(InvalidCommand) as excinfo:
            services.undo(game_id=game.pk, to_version=to_version, reason="", by="user:1")
        assert excinfo.value.field == "to_version"
    assert (
        services.undo(game_id=game.pk, to_version=game.version, reason="restart", by="user:1")
        == head + 1
    )


def test_undo_cannot_stop_in_the_middle_of_a_commands_events(make_game, play):
    game = make_game()
    results = play(game, commands=20)
    batch = next(r for r in results if len(r.events) > 1)

    with pytest.raises(InvalidCommand, match="middle of one command"):
        services.undo(game_id=game.pk, to_version=batch.events[0].version, reason="", by="user:1")


def test_undo_can_restore_what_an_earlier_undo_took_back(make_game, play):
    game = make_game()
    results = play(game, commands=6)
    head = results[-1].version
    services.undo(game_id=game.pk, to_version=results[1].version, reason="oops", by="user:1")

    services.undo(game_id=game.pk, to_version=head, reason="undo the undo", by="user:1")

    restored = services.load_game(game_id=game.pk)
    before = services.state_at(game_id=game.pk, version=head)
    assert restored.hands == before.hands and restored.pending == before.pending


@pytest.mark.parametrize(
    "given, field",
    [
        ({"expected_version": "12"}, "expected_version"),
        ({"expected_version": True}, "expected_version"),
        ({"expected_version": -1}, "expected_version"),
        ({"key": ""}, "key"),
        ({"key": " "}, "key"),
        ({"key": 7}, "key"),
        ({"key": "k" * 201}, "key"),
        ({"key": "a\x00b"}, "key"),
    ],
)
def test_a_bad_expected_version_or_key_of_an_undo_names_it_and_appends_nothing(
    make_game, play, given, field
):
    game = make_game()
    results = play(game, commands=3)

    with pytest.raises(InvalidCommand) as excinfo:
        services.undo(
            game_id=game.pk, to_version=results[0].version, reason="", by="user:1", **given
        )

    assert excinfo.value.field == field
    assert store.head_version(game.pk) == results[-1].version


def test_an_undo_stands_while_what_it_took_back_stays_taken_back(make_game, play):
    game = make_game()
    results = play(game, commands=6)
    undone = services.undo(
        game_id=game.pk, to_version=results[3].version, reason="", by="user:1", key="u"
    )

    def again():
        return services.undo(
            game_id=game.pk, to_version=results[3].version, reason="", by="user:1", key="u"
        )

    # Further back: what the undo took back is still taken back.
    services.undo(game_id=game.pk, to_version=results[1].version, reason="", by="user:1")
    assert again() == undone
    # Back to a move the undo took back: the undo no longer stands.
    restored = services.undo(game_id=game.pk, to_version=results[4].version, reason="", by="user:1")
    with pytest.raises(CommandUndone, match=f"at version {restored}"):
        again()
    assert store.head_version(game.pk) == restored


def test_state_at_is_the_replay_of_the_log_up_to_that_version(make_game, play):
    game = make_game()
    play(game, commands=15)
    rows = log_of(game)

    for version in (0, 1, game.version, 17, len(rows)):
        assert services.state_at(game_id=game.pk, version=version) == replay(
            row.to_rules_event() for row in rows[:version]
        )
    with pytest.raises(InvalidCommand):
        services.state_at(game_id=game.pk, version=len(rows) + 1)


def test_replay_events_lists_the_log_after_a_version(make_game, play):
    game = make_game()
    play(game, commands=4)

    rows = services.replay_events(game_id=game.pk, after=3)

    assert [row.version for row in rows] == list(range(4, len(log_of(game)) + 1))


def test_a_finished_game_refuses_further_commands(make_game, play):
    game = make_game(scoring="none", seed="quick")
    play(game)
    state, version = store.load(game.pk)

    assert state.finished and Game.objects.get(pk=game.pk).status == "finished"
    with pytest.raises(IllegalCommand, match="over"):
        services.apply_command(game_id=game.pk, command=DrawCard(0), actor="seat:0")
    assert Game.objects.get(pk=game.pk).version == version


def test_a_score_sheet_game_deals_nothing_and_records_its_hands_as_events(make_game):
    from rules.sheet import RecordHand

    game = make_game(players=["Ann", "Bob"], sheet=True, target=100)

    assert game.sheet and [row.type for row in log_of(game)][-1] == "choice_offered"
    assert services.load_game(game_id=game.pk).hands == ((), ())
    result = services.apply_command(
        game_id=game.pk, command=RecordHand(None, out=0, points=((1, 120),)), actor="user:1"
    )

    assert result.events[0].type == "hand_recorded"
    assert Game.objects.get(pk=game.pk).status == "finished"
    assert services.load_game(game_id=game.pk).winner == 0


def test_reading_a_game_by_an_id_that_is_not_one_is_not_found(db):
    with pytest.raises(NotFound):
        services.replay_events(game_id="not-a-uuid")
