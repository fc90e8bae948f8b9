"""Position notation (docs/POSITION.md): every position the simulator reaches round-trips
exactly, a game starts from a position through the log, and impossible positions are refused
with an error naming the field."""

from __future__ import annotations

import json
import re
from urllib.parse import quote

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.bots import RandomBot
from rules.commands import PlayCard
from rules.engine import legal_commands, new_game, replay, step
from rules.events import event_from_dict
from rules.position import (
    PositionError,
    default_extra,
    format_position,
    parse_position,
    start_from,
)
from rules.simulate import Simulation
from rules.state import GameState
from rules.variants import get_variant, variant_names
from rules.variants.classic.variant import COLOUR
from rules.variants.power_grab.commands import Take
from tests.rules.scenarios.support import position as book_position

EDITIONS = variant_names()
# A VETO game whose Customizable cards carry different rules: its state tells them apart.
TOLD_APART = {"customizable": ["joke", "text:Sing | dance", "face_up"]}


def as_position(state: GameState) -> GameState:
    """What a position keeps of a state: no version, no history, the draw pile alone."""
    s = state.copy()
    s.pile, s.pos, s.version, s.last_hand = state.draw_pile, 0, 0, None
    return s


class RoundTrips(Simulation):
    """The simulator, checking after every event that the position round-trips."""

    positions = 0

    def check_state(self, s: GameState, where: str) -> None:
        super().check_state(s, where)
        text = format_position(s)
        back = parse_position(text)
        assert back == as_position(s), f"{where}: {text}"
        assert format_position(back) == text
        self.positions += 1


def simulate(variant: str, players: int, seed: str, options=None, hands: int = 3) -> int:
    sim = RoundTrips(variant, players, seed, options=options)
    sim.play(target=200, scoring="standard", game_seed=seed, max_hands=hands)
    assert sim.report.invariant_violations == 0, sim.report.problems
    return sim.positions


@pytest.mark.parametrize("variant", EDITIONS)
@pytest.mark.parametrize("players", [2, 4, 7])
def test_every_position_of_a_simulated_game_round_trips(variant, players):
    assert simulate(variant, players, f"position:{variant}:{players}") > 20


def test_a_veto_game_that_tells_its_customizable_cards_apart_round_trips():
    assert simulate("veto", 3, "told-apart", options=TOLD_APART) > 20


@settings(max_examples=25, deadline=None)
@given(
    variant=st.sampled_from(EDITIONS),
    players=st.integers(min_value=2, max_value=10),
    seed=st.text(min_size=1, max_size=10),
)
def test_positions_round_trip_for_any_game(variant, players, seed):
    simulate(variant, players, seed, hands=1)


# Starting from a position -------------------------------------------------------------------

TWO_SEATS = (
    "classic|players=2|hand=1|dealer=0|pending=turn:1|dir=+|colour=R|discard=R7"
    "|pile=*|hands=R1,G2,W4/B3,R5"
)


def test_a_game_starts_from_a_position_through_one_event():
    state, events = start_from(TWO_SEATS, seed="s")

    assert [e.type for e in events] == ["position_set_up"]
    assert state.version == 1
    assert state.hands == (("R1", "G2", "W4"), ("B3", "R5"))
    assert state.top == "R7" and state.colour == "R" and state.pending == ("turn", 1)
    assert len(state.draw_pile) == 108 - 6
    assert replay(events) == state
    assert replay([event_from_dict(events[0].to_dict())]) == state
    # The recorded position names every card: replay draws nothing.
    assert "*" not in events[0].position


def test_the_game_goes_on_from_the_position():
    state, _ = start_from(TWO_SEATS, seed="s")
    play = next(c for c in legal_commands(state, 1) if c.type == "play")

    state, events = step(state, play)

    assert play.card == "R5"
    assert [e.type for e in events] == ["card_played", "turn_began"]
    assert state.pending == ("turn", 0)


def test_a_seat_sees_only_its_own_hand_in_the_set_up_event():
    _, (event,) = start_from(TWO_SEATS, seed="s")

    seat_1 = event.redacted(1)["position"]
    spectator = event.redacted(None)["position"]

    assert "hands=#3/B3,R5" in seat_1
    assert "hands=#3/#2" in spectator
    assert "seed=#" in seat_1 and "pile=#102" in seat_1
    with pytest.raises(PositionError, match="hidden"):
        parse_position(seat_1)


def test_the_cards_an_almost_uno_spinner_keeps_are_hidden_from_the_other_seats():
    # Seat 1 keeps B3 and R5 and is choosing which of its other cards lands on top.
    text = (
        "spin|players=3|hand=1|dealer=0|pending=almost_uno_top:1|dir=+|colour=R|discard=R3~"
        '|pile=*|hands=R1,G2/B3,R5,Y6,G8,B9/W4,G4|extra={"kept":["B3","R5"]}'
    )
    _, (event,) = start_from(text, seed="s")

    views = {viewer: event.redacted(viewer)["position"] for viewer in (0, 1, 2, None)}

    assert '"kept":["B3","R5"]' in views[1]
    for viewer in (0, 2, None):
        assert '"kept":["#","#"]' in views[viewer]
        assert "B3" not in views[viewer] and "R5" not in views[viewer]
    assert '"kept":["B3","R5"]' in event.position  # the referee's record names them


def test_a_position_names_its_own_seed_or_takes_the_one_given():
    assert parse_position(TWO_SEATS + "|seed=abc", seed="x").seed == "abc"
    assert parse_position(TWO_SEATS, seed="x").seed == "x"
    with pytest.raises(PositionError, match="seed"):
        parse_position(TWO_SEATS)


# Impossible positions -----------------------------------------------------------------------


def refused(text: str) -> PositionError:
    with pytest.raises(PositionError) as info:
        parse_position(text, seed="s")
    assert info.value.field == "position"
    return info.value


@pytest.mark.parametrize("seed", ["50% off", "%zz", "a|b=c", "é ü", "%41"])
def test_a_seed_with_any_characters_is_read_back_as_it_was_written(seed):
    written = TWO_SEATS.replace("|hand=1", f"|seed={quote(seed, safe='')}|hand=1")
    state = parse_position(written)
    assert state.seed == seed
    assert parse_position(format_position(state)).seed == seed


@pytest.mark.parametrize("where", ["text", "argument"])
def test_a_seed_holding_half_a_character_is_refused_not_a_crash(where):
    # JSON may carry a lone surrogate ("\\ud800"), which no UTF-8 record can hold.
    if where == "text":
        error = refused(TWO_SEATS.replace("|hand=1", "|seed=\ud800|hand=1"))
    else:
        with pytest.raises(PositionError) as caught:
            start_from(TWO_SEATS, seed="\udc80")
        error = caught.value
    assert error.part == "seed" and "lone surrogate" in str(error)


AT_THE_WHEEL = (
    "spin|players=3|hand=1|dealer=0|pending=discard_number:1|dir=+|colour=B|discard=G9,B4~"
    "|pile=*|hands=R1,G2/RD2/B3,R5"
)
OUT_WITH_A_SPIN = (
    "spin|players=2|hand=1|dealer=0|pending=turn:1|dir=+|colour=R|discard=R7|pile=*"
    '|hands=/B3,R5|extra={"out":0}'
)
TO_CHALLENGE = (
    "pending=turn:1|dir=+|colour=R|discard=R7",
    "pending=challenge:1|dir=+|colour=G|discard=R7,W4",
)


@pytest.mark.parametrize(
    ("text", "part", "words"),
    [
        # A score sheet's cards are played at the table: it waits for scores, or is over.
        (TWO_SEATS.replace("|hand=1", "|sheet=1|hand=1"), "pending", "waits only for the next"),
        (TWO_SEATS.replace("pending=turn:1", "pending=sheet"), "pending", "only a score sheet"),
        (TWO_SEATS.replace("pending=turn:1", "pending=sheet:1"), "pending", "with no seat"),
        (
            TWO_SEATS.replace("pending=turn:1", "pending=over:1|winner=1|placings=1,0|ranks=1,2"),
            "pending",
            "with no seat",
        ),
        # The seat waited for must have an answer; its own UNO call is none.
        (AT_THE_WHEEL + "|exposed=1", "pending", "seat 1 has nothing it may do"),
        (AT_THE_WHEEL.replace("/B3,R5", "/B3") + "|exposed=2", "pending", "seat 1 has nothing"),
        (OUT_WITH_A_SPIN, "extra", "seat 0 went out with a Spin card"),
        (TWO_SEATS.replace(*TO_CHALLENGE) + "|w4=0;R;R1,R1,G2", "w4", "cards it does not hold"),
        (TWO_SEATS.replace(*TO_CHALLENGE) + "|w4=0;-;R1,G2", "w4", "before the Wild Draw 4 is a"),
        (TWO_SEATS.replace("turn:1", "drawn:1|drawn=R5,B3"), "drawn", "one card is drawn, not 2"),
        (TWO_SEATS + "|placings=0,1", "placings", "only a finished game"),
        (TWO_SEATS + "|ranks=1,2", "ranks", "only a finished game"),
        (
            TWO_SEATS.replace("pending=turn:1", "pending=over|winner=0|placings=1,0|ranks=1,2"),
            "placings",
            "the winner, seat 0, is placed first",
        ),
        (
            TWO_SEATS.replace("pending=turn:1", "pending=over|winner=0|placings=0,1|ranks=2,1"),
            "ranks",
            "seat 0, placed 1, is ranked 2",
        ),
    ],
)
def test_a_moment_no_game_reaches_is_refused_when_set_up_though_a_record_replays(text, part, words):
    error = refused(text)
    assert error.part == part and words in str(error), str(error)
    # A game's own record is read back as it was: these checks are for positions set up.
    if part not in ("drawn",):
        parse_position(text, seed="s", recorded=True)


def test_a_seat_with_an_answer_besides_its_uno_call_is_set_up():
    state = parse_position(AT_THE_WHEEL.replace("/RD2/", "/R4/") + "|exposed=1", seed="s")
    assert {c.type for c in legal_commands(state, 1)} >= {"call_uno", "wheel_discard"}
    state = parse_position(TWO_SEATS.replace(*TO_CHALLENGE) + "|w4=0;R;R1,G2", seed="s")
    assert state.w4 == (0, "R", ("R1", "G2"))


def test_a_house_rule_with_a_hash_sign_round_trips():
    # "#" marks a hidden value in a seat's view; in a house rule's own words it is text.
    options = {"customizable": ["text:Shout #1!", "text:Sing | dance"]}
    state, _ = new_game(variant="veto", players=2, seed="hash", options=options)

    text = format_position(state)

    assert "#" not in text.split("|options=")[1].split("|")[0]
    again = parse_position(text)
    assert again.options == state.options and format_position(again) == text


def test_a_card_created_is_refused_naming_it():
    error = refused(TWO_SEATS.replace("B3,R5", "B3,R7,R7"))
    assert error.part == "cards"
    assert "R7 is there 3 times; a Classic UNO deck has 2 (a card created)" in str(error)


def test_a_card_lost_is_refused_naming_it():
    state, _ = start_from(TWO_SEATS, seed="s")
    text = format_position(state).replace("pile=", "pile=", 1)
    pile = text.split("pile=")[1].split("|")[0]
    error = refused(text.replace(f"pile={pile}", "pile=" + pile.split(",", 1)[1]))
    assert error.part == "cards" and "a card lost" in str(error)


@pytest.mark.parametrize(
    ("change", "part", "words"),
    [
        (("pending=turn:1", "pending=turn:5"), "pending", "no seat 5"),
        (("dealer=0", "dealer=2"), "dealer", "no seat 2"),
        (("colour=R", "colour=P"), "colour", "unknown colour"),
        (("classic|", "chess|"), "variant", "unknown edition"),
        (("dir=+", "dir=up"), "dir", "expected +"),
        (("B3,R5", "B3,R5/G4"), "hands", "3 hands for 2 players"),
        (("R1,G2", "R1,X2"), "hands", "unknown card code"),
        (("|hand=1", ""), "hand", "missing"),
        (("pending=turn:1", "pending=drawn:1"), "drawn", "name the card"),
        (("pending=turn:1", "pending=over"), "winner", "winner"),
        (("pending=turn:1", "pending=turn:1|scores=1,2,3"), "scores", "3 numbers for 2"),
        (("pending=turn:1", "pending=turn:1|extra={}"), "extra", "keeps no state"),
        (("pending=turn:1", "pending=turn:1|turn=1"), "turn", "unknown field"),
        (("pending=turn:1", "pending=turn:1|exposed=0"), "exposed", "one card"),
        (("discard=R7", "discard="), "discard", "a card on the discard pile"),
        (
            ("pending=turn:1|dir=+|colour=R|discard=R7", "pending=drawn:1|dir=+|colour=R|discard="),
            "discard",
            "a card on the discard pile",
        ),
        (("pending=turn:1", "pending=turn:1|drawn=R5"), "drawn", "only while its player"),
        (("|hand=1", "|seed=%zz|hand=1"), "seed", "'%zz' is no percent escape"),
        (("|hand=1", "|seed=50%|hand=1"), "seed", "'%' is no percent escape"),
        (("|hand=1", "|seed=%ff|hand=1"), "seed", "not UTF-8"),
    ],
)
def test_an_impossible_position_is_refused_naming_the_field(change, part, words):
    error = refused(TWO_SEATS.replace(*change))
    assert error.part == part
    assert words in str(error)
    assert str(error).startswith(f"{part}: ")


@pytest.mark.parametrize(
    ("fields", "seat", "words"),
    [
        (
            "scores=0,500",
            1,
            "seat 1 has 500 points, the target is 500: with standard scoring the game would be "
            "over",
        ),
        ("target=200|scores=250,30", 0, "seat 0 has 250 points, the target is 200: with"),
        (
            "scoring=alternative|scores=520,10",
            0,
            "seat 0 has 520 points, the target is 500, and seat 1 alone has the lowest total: "
            "with alternative scoring the game would be over",
        ),
        ("scoring=none|scores=0,20", 1, "seat 1 has 20 points in a game that keeps none"),
    ],
)
def test_scores_a_game_still_being_played_cannot_have_are_refused(fields, seat, words):
    error = refused(TWO_SEATS.replace("pending=turn:1", f"pending=turn:1|{fields}"))
    assert (error.part, error.seat) == ("scores", seat)
    assert words in str(error)


def test_a_game_is_not_started_from_before_its_first_deal():
    """``pending=start`` is the state before anything happened: a position for the round trip,
    but a game started from it would wait for nothing that any command gives."""
    text = "classic|players=2|hand=0|dealer=0|pending=start|dir=+|colour=-|discard=|pile=*|hands=/"
    assert parse_position(text, seed="s").pending == ("start", -1)
    with pytest.raises(PositionError, match="pending: a game set up from a position starts"):
        start_from(text, seed="s")


def test_scores_past_the_target_with_a_tie_for_the_lowest_play_on_in_alternative_scoring():
    # At the target, a tie for the lowest total plays another hand (rules.engine.game_result).
    text = TWO_SEATS.replace("pending=turn:1", "pending=turn:1|scoring=alternative|scores=40,40")
    state, _ = start_from(text.replace("scores=40,40", "target=30|scores=40,40"), seed="s")
    assert state.scores == (40, 40) and state.target == 30


def test_a_set_up_game_recorded_before_scores_were_checked_still_replays():
    # The record keeps what was accepted when the game was set up: it always replays.
    state, (event,) = start_from(TWO_SEATS, seed="s")
    recorded = type(event)(event.position.replace("pending=turn:1", "pending=turn:1|scores=0,700"))
    with pytest.raises(PositionError):
        parse_position(recorded.position)

    replayed = replay([recorded])

    assert replayed.scores == (0, 700) and replayed.hands == state.hands
    assert "scores=0,700" in recorded.redacted(1)["position"]


BLOCK = (
    "power_grab|players=3|hand=1|dealer=0|pending=block:1|dir=+|colour=R|discard={card}"
    "|pile=*|hands={first}/R5,G2/B9|extra="
    '{{"threat":["{card}",0,{last}],"towers":{towers}}}'
)
TOWER_OF = {"RD1": "[1,null,null,null]", "RD2": "[null,1,null,null]", "W4": "[null,null,1,null]"}


def block(card: str, last: bool) -> str:
    """Seat 0 played ``card`` on seat 1, which holds the tower that blocks it; ``last``: it
    was seat 0's last card."""
    towers = TOWER_OF.get(card, "[null,null,null,1]")
    text = BLOCK.format(
        card=card, first="" if last else "G7", last=str(last).lower(), towers=towers
    )
    return text.replace("colour=R", "colour=G") if card == "W4" else text


@pytest.mark.parametrize("card", ["RD1", "RD2", "RS", "W4"])
@pytest.mark.parametrize("last", [True, False])
def test_every_block_a_position_may_set_up_is_refused_or_played_on(card, last):
    try:
        state, _ = start_from(block(card, last), seed="s")
    except PositionError as error:
        assert (card, last) in {("RS", True), ("W4", False)}
        assert error.part == "extra"
        return
    for command in legal_commands(state, 1):
        step(state, command)  # each answer is decided (a refusal would raise RuleError)


def test_a_block_no_game_reaches_is_refused_saying_why():
    skip, wild = block("RS", last=True), block("W4", last=False)

    assert "RS was the last card: the hand is over, nothing to block" in str(refused(skip))
    assert "(pending=challenge), not with pending=block" in str(refused(wild))
    own = block("RD1", last=False).replace('["RD1",0,', '["RD1",1,')
    assert "seat 1 would block RD1, which it played itself" in str(refused(own))


KEEP = (
    "power_grab|players=3|hand=1|dealer=0|pending=keep:1|dir=+|colour={colour}|discard={top}"
    '|pile=*|hands=G7/R5,G2,B9/Y4|extra={{"threat":null,"towers":[1,1,1,1]}}'
)


@pytest.mark.parametrize("top", ["R5:U", "RG2", "WG"])
def test_instant_uno_is_set_up_after_the_card_that_grabbed_the_fourth_tower(top):
    state, _ = start_from(KEEP.format(colour="R", top=top), seed="s")

    assert state.pending == ("keep", 1)
    claims = legal_commands(state, 1)
    assert {c.card for c in claims} == {"R5", "G2", "B9"}  # type: ignore[attr-defined]
    state, _ = step(state, claims[0])
    assert state.hands[1] == ("R5",) and state.extra.towers == (None,) * 4


@pytest.mark.parametrize(("colour", "top"), [("B", "B7"), ("R", "RD1"), ("G", "W4")])
def test_instant_uno_after_a_card_that_grabs_no_tower_is_refused(colour, top):
    # The fourth tower is grabbed by a Power Icon or a grab card, which is then on top.
    error = refused(KEEP.format(colour=colour, top=top))

    assert error.part == "discard"
    assert (
        f"must be a card with a Power Icon, a Grab-2-Towers or a Wild Grab-A-Tower, not {top}"
        in str(error)
    )


WHEEL_WAIT = (
    "spin|players=3|hand=1|dealer=0|pending={kind}:1|dir=+|colour=R|discard={top}"
    "|pile=*|hands=R1,G2/B5,G5,R9/Y4"
)


@pytest.mark.parametrize(
    "kind",
    [
        "spin",
        "almost_uno",
        "almost_uno_second",
        "almost_uno_top",
        "discard_number",
        "discard_colour",
        "war_discard",
        "uno_spin",
        "uno_spin_discard",
    ],
)
def test_the_wheel_waits_only_with_the_spin_card_that_sent_the_player_there_on_top(kind):
    text = WHEEL_WAIT.format(kind=kind, top="R3~")
    if kind == "almost_uno_top":
        # (With the R9 alone left there would be no card on top to choose: see below.)
        text = text.replace("B5,G5,R9", "B5,G5,R9,Y2") + '|extra={"kept":["B5","G5"]}'
    if kind == "almost_uno_second":
        text += '|extra={"kept":["G5"]}'
    if kind == "war_discard":
        text += '|extra={"war":[5]}'
    state, _ = start_from(text, seed="s")
    assert state.pending == (kind, 1)
    assert legal_commands(state, 1 if kind != "uno_spin" else 0)

    error = refused(text.replace("R3~", "R3"))
    assert error.part == "discard"
    assert "seat 1 spins the wheel, or answers where it landed, after a Spin card" in str(error)
    assert str(error).endswith("which is then on top, not R3")


@pytest.mark.parametrize(
    ("kind", "pile", "hand", "laid_on_a_spin_card"),
    [
        ("discard_number_more", "G7,R3~,G5", "B5,G9,R9", True),
        ("discard_number_more", "G7,R3~,Y5,G5", "B5,G9,R9", True),
        ("discard_number_more", "R3~,G7,G5", "B5,G9,R9", False),
        ("discard_number_more", "G5", "B5,G9,R9", False),
        ("discard_colour_more", "G7,R3~,R9", "R4,B5,R2", True),
        # A Spin card of the colour under the red 9: the one played, or one put down on it.
        ("discard_colour_more", "G7,R5~,R9", "R4,B5,R2", True),
        ("discard_colour_more", "R3~,G7,R5,R9", "R4,B5,R2", False),
        ("discard_colour_more", "R9", "R4,B5,R2", False),
    ],
)
def test_the_cards_put_down_at_discard_number_or_colour_lie_on_a_spin_card(
    kind, pile, hand, laid_on_a_spin_card
):
    # "If the player preceding you plays a Spin card, you must spin the wheel": the spinner
    # puts the cards of one number (colour) down on that Spin card, so a Spin card lies under
    # the cards of the number (colour) on top.
    top = pile.split(",")[-1]
    text = WHEEL_WAIT.format(kind=kind, top=pile).replace("B5,G5,R9", hand)
    text = text.replace("colour=R", f"colour={top[0]}")
    if laid_on_a_spin_card:
        state, _ = start_from(text, seed="s")
        assert state.pending == (kind, 1) and legal_commands(state, 1)
        return
    error = refused(text)
    assert error.part == "discard"
    what = "number" if kind == "discard_number_more" else "colour"
    assert (
        f"seat 1 puts down more of the {what} of {top} on the Spin card that sent them to the "
        f"wheel, and no Spin card lies under the cards of that {what}"
    ) in str(error)


def veto_extra(rules: list[str], players: int, **changes) -> str:
    """VETO's state as a hand starts with the house rules ``rules``, with ``changes``, as a
    position writes it."""
    options = (("customizable", tuple(rules)),)
    start = default_extra(get_variant("veto"), players, options).to_dict()
    return json.dumps(start | changes, separators=(",", ":"))


@pytest.mark.parametrize("hand", ["", "P1"])
def test_a_veto_joke_keep_for_a_player_without_two_cards_is_refused(hand):
    # Someone laughed: only a player holding two cards or more is asked which one to keep.
    extra = veto_extra(["joke"], 2, player=0)
    text = (
        'veto|players=2|options={"customizable":["joke"]}|hand=1|dealer=0|pending=keep_card:0'
        f"|dir=+|colour=P|discard=P7,WC|pile=*|hands={hand}/Y3,P5|extra={extra}"
    )
    error = refused(text)
    assert error.part == "extra"
    held = 1 if hand else 0
    assert f"seat 0 keeps one card and discards the rest holding {held}" in str(error)
    assert start_from(text.replace(f"hands={hand}/", "hands=P1,G2/"), seed="s")


HOUSE_RULE_WAIT = (
    'veto|players=3|options={{"customizable":{rules}}}|hand=1|dealer=2|pending={kind}:{seat}'
    "|dir=+|colour=G|discard=P7,{top}|pile=*|hands=Y2,Y1/YS,O4/Y4,G7|extra={extra}"
)
# Each wait of a house rule: its rule, the seat waited for and the seat that played the card.
HOUSE_RULE_WAITS = [
    ("name_colour", "draw_until_colour", 0, 0),
    ("joke", "joke", 0, 0),
    ("keep_card", "joke", 0, 0),
    ("rooster", "rooster", 1, 0),
]


def house_rule_wait(kind, seat, rule, *, top="WC", player=0, other="elbows"):
    """Seat ``player`` played a Wild Customizable card (its rule ``rule``) and the game waits
    for ``seat`` to carry it out; the game's other card carries ``other``."""
    rules = json.dumps([rule, other])
    on_top = [rule] if rule != other and top == "WC" else []
    extra = veto_extra([rule, other], 3, player=player, discard_rules=on_top)
    return HOUSE_RULE_WAIT.format(rules=rules, kind=kind, seat=seat, top=top, extra=extra)


@pytest.mark.parametrize(("kind", "rule", "seat", "player"), HOUSE_RULE_WAITS)
@pytest.mark.parametrize("other", ["elbows", "same"])
def test_a_house_rule_waits_right_after_its_wild_customizable_card(kind, rule, seat, player, other):
    other = rule if other == "same" else other
    state, _ = start_from(house_rule_wait(kind, seat, rule, other=other), seed="s")

    assert state.pending == (kind, seat) and state.extra.player == player
    assert legal_commands(state, seat) or kind in ("joke", "rooster")  # (the referee reports)


def test_which_house_rule_a_player_holds_is_hidden_from_every_seat():
    # Seat 1 holds the card with the rooster call; the game's house rules are known to all.
    text = (
        house_rule_wait("joke", 0, "joke", other="rooster")
        .replace("hands=Y2,Y1/YS,O4/", "hands=Y2,Y1/YS,O4,WC/")
        .replace('"held":[[],[],[]]', '"held":[[],["rooster"],[]]')
    )
    _, (event,) = start_from(text, seed="s")

    assert '"held":[[],["rooster"],[]]' in event.position  # the referee's record
    for viewer in (0, 1, 2, None):
        view = event.redacted(viewer)["position"]
        assert "extra=#" in view and "held" not in view
        assert 'options={"customizable":["joke","rooster"]}' in view


@pytest.mark.parametrize(("kind", "rule", "seat", "player"), HOUSE_RULE_WAITS)
def test_a_house_rule_wait_play_never_reaches_is_refused_saying_why(kind, rule, seat, player):
    no_card = refused(house_rule_wait(kind, seat, rule, top="P8"))
    other_rule = refused(house_rule_wait(kind, seat, "elbows", other=rule))
    other_player = refused(house_rule_wait(kind, seat, rule, player=2))

    assert no_card.part == other_rule.part == other_player.part == "discard"
    assert f"right after a Wild Customizable card with that house rule ({rule})" in str(no_card)
    assert str(no_card).endswith("which is then on top, not P8")
    assert f"with the {rule} house rule; the one on top has elbows" in str(other_rule)
    assert f"so the house rule is seat {player}'s (player), not seat 2's" in str(other_player)


def discards_owed(rule, seat, hands, queue, *, top="WC", player=0):
    """Seat ``player`` played a Wild Customizable card with ``rule`` (down to 7 or 3 cards) and
    the game waits for ``seat`` to discard, ``queue`` owed; three players, ``hands`` by seat."""
    extra = veto_extra([rule], 3, player=player, queue=queue)
    return (
        f'veto|players=3|options={{"customizable":["{rule}"]}}|hand=1|dealer=2'
        f"|pending=discard:{seat}|dir=+|colour=G|discard=P7,{top}|pile=*"
        f"|hands={'/'.join(hands)}|extra={extra}"
    )


SEVEN = ["Y2", "Y1,G1,G2,G3,G4,G5,G6,G7", "Y4,G8"]
THREE = ["Y2,Y3,Y4", "Y1,G1,G2,G3,G4", "Y5,Y6,Y7,Y8"]


def test_a_discard_down_to_seven_or_three_waits_in_turn_after_its_house_rule():
    # "The next player must draw or discard until they have exactly 7 cards." "Everyone must
    # discard (or draws) until they have exactly 3 cards": in turn order from the player (V14).
    seven, _ = start_from(discards_owed("seven_cards", 1, SEVEN, [[1, 7]]), seed="s")
    three, _ = start_from(discards_owed("three_cards", 1, THREE, [[1, 3], [2, 3]]), seed="s")

    assert seven.pending == ("discard", 1) and seven.extra.queue == ((1, 7),)
    assert three.pending == ("discard", 1) and three.extra.queue == ((1, 3), (2, 3))
    assert legal_commands(three, 1)


def test_a_player_short_of_three_when_the_draw_pile_ran_out_is_a_position_play_reaches():
    # Down to 3 with an empty draw pile and only one card under the Customizable card: seat 0
    # holds 2 until the discards are done (V14), and that moment round-trips.
    text = book_position(
        "veto",
        options={"customizable": ["three_cards"] * 3},
        hands=[["P1"], ["WC", "O3", "O4", "O5", "O6"], []],
        discard=["O7"],
        rest=2,
    )
    state, _ = step(start_from(text)[0], PlayCard(1, "WC", "O"))
    assert state.hands[0] == ("P1", "O7") and state.pending == ("discard", 1)
    again = format_position(state)
    assert format_position(parse_position(again)) == again
    assert start_from(again)[0].extra.queue == state.extra.queue


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (
            discards_owed("seven_cards", 1, SEVEN, [[1, 7]], top="P8"),
            "right after a Wild Customizable card with that house rule (seven_cards, "
            "three_cards), which is then on top, not P8",
        ),
        (
            discards_owed("joke", 1, SEVEN, [[1, 7]]),
            "which is then on top, not one with joke",
        ),
        (
            discards_owed("seven_cards", 1, SEVEN, [[1, 7]], player=1),
            "only the next player, seat 2, discards down to 7 (queue), not [(1, 7)]",
        ),
        (
            discards_owed("three_cards", 1, ["Y2,Y3,Y4,Y9", *THREE[1:]], [[1, 3], [2, 3]]),
            "seat 0 holds 4 cards while seat 1 discards down to 3",
        ),
        (
            discards_owed("three_cards", 1, [*THREE[:2], "Y5,Y6"], [[1, 3]]),
            "seat 2 holds 2 cards while seat 1 discards down to 3",
        ),
        (
            discards_owed("three_cards", 1, THREE, [[1, 3]]),
            "seat 1 discards down to 3 with [(1, 3), (2, 3)] owed in turn order from seat 0",
        ),
    ],
)
def test_a_discard_down_to_seven_or_three_play_never_reaches_is_refused(text, words):
    error = refused(text)

    assert error.part == "extra"
    assert words in str(error)


@pytest.mark.parametrize("variant", EDITIONS)
def test_a_player_without_cards_while_the_hand_goes_on_is_refused(variant):
    # The hand ends as a player's last card is played (unless the edition still resolves it:
    # a Power Grab block, the Spin wheel; their own tests hold those).
    colour, top = ("P", "P7") if variant == "veto" else ("R", "R7")
    text = (
        f"{variant}|players=3|hand=1|dealer=0|pending=turn:1|dir=+|colour={colour}"
        f"|discard={top}|pile=*|hands=G2/Y3/"
    )
    error = refused(text)
    assert (error.part, error.seat) == ("hands", 2)
    assert "seat 2 holds no cards while the hand goes on" in str(error)
    assert parse_position(text, seed="s", recorded=True).hands[2] == ()  # a game's record
    assert parse_position(text.replace("/Y3/", "/Y3/G4"), seed="s").hands[2] == ("G4",)


def test_a_colour_in_play_other_than_the_top_cards_is_refused_unless_a_wild_called_it():
    blue = TWO_SEATS.replace("colour=R", "colour=B")
    error = refused(blue)
    assert error.part == "colour"
    assert "R7 is on top, so the colour in play is red, not blue" in str(error)
    assert parse_position(blue, seed="s", recorded=True).colour == "B"  # a game's record
    assert parse_position(blue.replace("discard=R7", "discard=W"), seed="s").colour == "B"


CHALLENGE = (
    "classic|players=3|hand=1|dealer=0|pending=challenge:1|dir=+|colour=G|discard=B7,W4"
    "|pile=*|hands=G9,R3/R6,Y7/B3,RD2|w4=0;B;G9,R3"
)


def test_a_wild_draw_4_challenged_by_other_than_the_next_player_is_refused():
    assert parse_position(CHALLENGE, seed="s").w4[0] == 0
    offender_after = CHALLENGE.replace("w4=0;B;G9,R3", "w4=2;B;B3,RD2")
    error = refused(offender_after)
    assert (error.part, error.seat) == ("w4", 1)
    assert "seat 1 may challenge only the Wild Draw 4 of the player before it, seat 0" in str(error)
    assert parse_position(offender_after, seed="s", recorded=True).w4[0] == 2


def test_a_card_just_drawn_that_cannot_be_played_is_refused():
    # Play would have gone on by itself: the player has no choice to make.
    drawn = TWO_SEATS.replace("pending=turn:1", "pending=drawn:1") + "|drawn=B3"
    error = refused(drawn)
    assert (error.part, error.seat) == ("drawn", 1)
    assert "seat 1 drew B3, which cannot be played on R7 with red in play" in str(error)
    assert parse_position(drawn.replace("drawn=B3", "drawn=R5"), seed="s").drawn == "R5"


# Hands tried for each seat: three cards, none, one, and the edition's own wilds.
HANDS = {
    "classic": ("R1,G2,W4", "", "R5", "W,W4"),
    "mod": ("R1,G2,W4", "", "R5", "WM,W"),
    "spin": ("R1,G2,W4", "", "R5", "W,R1~"),
    "power_grab": ("R1,G2,W4", "", "R5", "WG,RD1"),
    "veto": ("P1,G2,W4", "", "P5", "WC,W"),
}
# Commands open to a seat that answer no choice: a catch, a late UNO, a VETO slap.
NOT_ANSWERS = {"catch", "call_uno", "veto"}


@pytest.mark.parametrize("variant", EDITIONS)
def test_every_choice_a_position_may_wait_for_can_be_answered(variant):
    """Each choice the edition may wait for, from a player holding each of a few hands: the
    position is refused, or the player has a command that answers it and every command listed
    for any seat is decided."""
    edition = get_variant(variant)
    colour, top = ("P", "P7") if variant == "veto" else ("R", "R7")
    accepted = 0
    for kind in sorted(edition.pending_kinds - {"start", "over", "sheet"}):
        for mine in HANDS[variant]:
            for theirs in HANDS[variant]:
                text = (
                    f"{variant}|players=2|hand=1|dealer=0|pending={kind}:0|dir=+"
                    f"|colour={colour}|discard={top}|pile=*|hands={mine}/{theirs}"
                )
                if kind == "drawn" and mine:
                    text += f"|drawn={mine.split(',')[0]}"
                try:
                    state, _ = start_from(text, seed="s")
                except PositionError:
                    continue
                accepted += 1
                answers = [c for c in legal_commands(state, 0) if c.type not in NOT_ANSWERS]
                assert answers, f"nothing answers {kind} in {text}"
                for seat in (0, 1):
                    for command in legal_commands(state, seat):
                        step(state, command)
    assert accepted  # (the positions tried are not all refused)


def test_a_recorded_block_of_a_last_skip_still_replays_and_taking_it_ends_the_hand():
    # Such a position could once be set up; its record replays, and taking the "block"
    # draws nothing (a Skip makes nobody draw) and ends the hand.
    state, (event,) = start_from(block("RS", last=False), seed="s")
    recorded = type(event)(event.position.replace(",0,false]", ",0,true]").replace("G7/", "/"))
    recorded = type(event)(recorded.position.replace("discard=RS", "discard=G7,RS"))
    state = replay([recorded])
    assert state.extra.threat == ("RS", 0, True)

    state, events = step(state, Take(1))

    assert state.last_hand.winner == 0
    assert not any(e.type == "cards_drawn" for e in events)


def test_a_turn_that_cannot_be_is_refused():
    # Seat 0 may not challenge: no Wild Draw 4 was played.
    error = refused(TWO_SEATS.replace("pending=turn:1", "pending=challenge:0"))
    assert error.part == "w4"


def test_an_edition_state_that_does_not_fit_the_table_is_refused():
    text = (
        "power_grab|players=2|hand=1|dealer=0|pending=turn:1|dir=+|colour=R|discard=R7"
        '|pile=*|hands=R1,G2/B3,R5|extra={"towers":[0,0,5,null],"threat":null}'
    )
    error = refused(text)
    assert error.part == "extra" and "seat 5" in str(error)


def test_an_unreadable_edition_state_is_refused():
    error = refused(TWO_SEATS.replace("classic|", "spin|") + "|extra={not json")
    assert error.part == "extra" and "unreadable" in str(error)


SPIN = TWO_SEATS.replace("classic|", "spin|")
GRAB = TWO_SEATS.replace("classic|", "power_grab|")
VETO = TWO_SEATS.replace("classic|", "veto|").replace("colour=R|discard=R7", "colour=P|discard=P7")
VETO = VETO.replace("R1,G2,W4/B3,R5", "P1,G2,W4/Y3,P5")


@pytest.mark.parametrize(
    ("text", "words"),
    [
        # The wrong JSON type, or a field the edition's state does not have.
        (SPIN + '|extra={"spins":"a"}', 'spins is "a": expected an integer'),
        (SPIN + '|extra={"kept":"R1"}', 'kept is "R1": expected a list of strings'),
        (SPIN + '|extra={"show":[1]}', "show is [1]: expected a list of 2"),
        (SPIN + '|extra={"luck":1}', "unknown field 'luck'"),
        (GRAB + '|extra={"towers":[true,null,null,null]}', "a list of integers or nulls"),
        (GRAB + '|extra={"towers":[0,1,null]}', "3 towers instead of 4"),
        (VETO + '|extra={"veto":"a"}', 'veto is "a": expected an integer or null'),
        # Seats that are not at the table, and counts below zero.
        (SPIN + '|extra={"out":9}', "out names seat 9, not at this table of 2"),
        (SPIN + '|extra={"uno":[0,7]}', "uno names seat 7"),
        (SPIN + '|extra={"uno_until":-1}', "uno_until names seat -1"),
        (SPIN + '|extra={"spins":-5}', "-5 spins of the wheel"),
        (GRAB + '|extra={"towers":[0,0,5,null],"threat":null}', "held by seat 5"),
        (
            VETO + '|extra={"rules":["blank","blank","blank"],"tracked":false,"veto":4,'
            '"held":[[],[]],"discard_rules":[],"synced":0,"drawn_rule":null,"showing":[],'
            '"stuck":[],"player":null,"queue":[]}',
            "veto names seat 4",
        ),
        # VETO house rules that are not the game's.
        (
            VETO + '|extra={"rules":[],"tracked":false,"veto":null,"held":[[],[]],'
            '"discard_rules":[],"synced":0,"drawn_rule":null,"showing":[],"stuck":[],'
            '"player":null,"queue":[]}',
            "house rules [] are not the game's",
        ),
        # A block threat of a card no tower blocks, by a seat not at the table.
        (GRAB + '|extra={"towers":[null,null,null,null],"threat":["ZZ",0,false]}', "ZZ is no"),
        (GRAB + '|extra={"towers":[null,null,null,null],"threat":["RD2",6,false]}', "seat 6"),
    ],
)
def test_an_edition_state_of_the_wrong_shape_or_off_the_table_is_refused(text, words):
    error = refused(text)
    assert error.part == "extra"
    assert words in str(error)


@pytest.mark.parametrize("field", ["options", "extra"])
def test_json_nested_too_deep_to_read_is_refused(field):
    error = refused(f"{SPIN}|{field}=" + "[" * 100_000 + "]" * 100_000)
    assert error.part == field


@pytest.mark.parametrize(
    ("text", "kind"), [(VETO, "spin"), (TWO_SEATS, "block"), (SPIN, "keep_card"), (SPIN, "turnx")]
)
def test_a_choice_the_edition_never_waits_for_is_refused(text, kind):
    error = refused(text.replace("pending=turn:1", f"pending={kind}:1"))
    assert error.part == "pending"
    assert f"never waits for {kind!r}" in str(error)


# Whatever a referee types: refused, or a position the game plays on from ----------------------


def _reached_positions() -> list[str]:
    """Positions from a few hands of every edition (every 7th command's), at 2, 3 and 5 seats."""
    out = []
    for variant in EDITIONS:
        for players in (2, 3, 5):
            sim = Simulation(variant, players, f"mangle:{variant}", options=None)
            seen: list[str] = []

            def keep(s: GameState, where: str, seen: list[str] = seen) -> None:
                if s.version % 7 == 0:
                    seen.append(format_position(s))

            sim.check_state = keep  # type: ignore[method-assign]
            sim.play(target=200, scoring="standard", game_seed="mangle", max_hands=2)
            out += seen
    return out


REACHED = _reached_positions()
PIECES = ["", "-1", "0", "1", "4", "99", "x", "*", "#", ",", "/", ":", "R1", "W4", "R1,R1", "null"]


def plays_on(text: str) -> None:
    """``text`` is refused with a ``PositionError``, or is a position the game plays on from:
    every seat's legal commands are listed and each is decided without anything but a
    ``RuleError``, and bots play on for a while."""
    try:
        state, _ = start_from(text, seed="mangled")
    except PositionError:
        return
    assert format_position(parse_position(format_position(state))) == format_position(state)
    bots = [RandomBot(f"mangled:{seat}") for seat in range(state.players)]
    for _ in range(12):
        if state.finished:
            return
        for seat in range(state.players):
            for command in legal_commands(state, seat)[:6]:
                step(state, command)  # a listed command is accepted
        kind, seat = state.pending
        if seat < 0:
            return
        options = legal_commands(state, seat)
        assert options, f"seat {seat} has nothing it may do while {kind} from {text}"
        state, _ = step(state, bots[seat].choose(options))


@settings(max_examples=300, deadline=None)
@given(
    position=st.sampled_from(REACHED),
    data=st.data(),
)
def test_a_mangled_field_is_refused_or_plays_on(position, data):
    fields = position.split("|")
    i = data.draw(st.integers(1, len(fields) - 1), label="field")
    name = fields[i].partition("=")[0]
    value = data.draw(
        st.sampled_from(PIECES)
        | st.text(alphabet="0123456789-+,/:#*RGBYWSDV~!PO", max_size=8)
        | st.sampled_from(REACHED).map(lambda other: other.split("|")[i % 9 + 1].partition("=")[2])
        | st.just(fields[i].partition("=")[2] + ","),
        label="value",
    )
    fields[i] = f"{name}={value}"
    plays_on("|".join(fields))


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-2, 12) | st.sampled_from(["", "R1", "W4", "joke"]),
    lambda inner: st.lists(inner, max_size=5),
    max_leaves=8,
)


@settings(max_examples=300, deadline=None)
@given(
    position=st.sampled_from([p for p in REACHED if "|extra=" in p]),
    data=st.data(),
)
def test_an_edition_state_of_any_json_is_refused_or_plays_on(position, data):
    before, _, after = position.partition("|extra=")
    extra_text, bar, rest = after.partition("|")
    extra = json.loads(extra_text)
    key = data.draw(st.sampled_from([*sorted(extra), "unknown"]), label="field")
    extra[key] = data.draw(JSON, label="value")
    plays_on(f"{before}|extra={json.dumps(extra)}{bar}{rest}")


@pytest.mark.parametrize(
    ("hand", "rest"), [("B5,G5,R9", "R9"), ("B5,G5,R9,R9", "R9, R9"), ("B5,G5", None)]
)
def test_almost_uno_waits_for_the_card_on_top_only_when_the_rest_offer_a_choice(hand, rest):
    # "If the Wheel causes you to discard multiple cards, you get to decide which of your
    # cards is placed on the top": the rest all one coloured card leaves nothing to decide,
    # and they are discarded as the two cards are kept.
    text = WHEEL_WAIT.format(kind="almost_uno_top", top="R3~").replace("B5,G5,R9", hand)
    text += '|extra={"kept":["B5","G5"]}'

    error = refused(text)

    if rest is None:  # nothing left to discard: there is nothing to do at all
        assert error.part == "pending"
    else:
        assert error.part == "extra"
        assert f"no card on top to choose from the rest ({rest})" in str(error)
    kept_with_a_wild = text.replace(hand, "B5,G5,R9,W")
    assert start_from(kept_with_a_wild, seed="s")[0].pending == ("almost_uno_top", 1)


def _spin_keeping() -> list[str]:
    """Positions of UNO Spin while an Almost UNO spinner keeps two cards."""
    sim = Simulation("spin", 4, "keeping", options=None)
    seen: list[str] = []

    def keep(s: GameState, where: str) -> None:
        if s.pending[0] == "almost_uno_top":
            seen.append(format_position(s))

    sim.check_state = keep  # type: ignore[method-assign]
    sim.play(target=500, scoring="standard", game_seed="keeping", max_hands=12)
    return seen


KEEPING = _spin_keeping()


def _tokens(text: str) -> set[str]:
    return set(re.split(r'[|/,;="\[\]{}]', text))


@pytest.mark.parametrize("text", REACHED + KEEPING)
def test_a_seats_view_of_a_position_names_no_card_it_may_not_see(text):
    state = parse_position(text)
    variant = get_variant(state.variant)
    for viewer in (*range(state.players), None):
        visible = set(state.discard)
        hidden = set(state.draw_pile)
        for seat, hand in enumerate(state.hands):
            (visible if seat == viewer or seat in state.shown else hidden).update(hand)
        if state.w4 is not None and state.w4[0] != viewer and state.w4[0] not in state.shown:
            hidden.update(state.w4[2])
        secret = (hidden - visible) & set(variant.deck)
        view = format_position(state, viewer)
        assert not secret & _tokens(view), (viewer, sorted(secret & _tokens(view)), view)


def test_positions_with_an_almost_uno_spinner_keeping_cards_were_reached():
    assert len(KEEPING) >= 3


def test_every_example_of_the_notation_document_parses():
    from pathlib import Path

    doc = Path(__file__).parents[2] / "docs" / "POSITION.md"
    examples = [
        line
        for line in doc.read_text().splitlines()
        if line.split("|")[0] in EDITIONS and "#" not in line
    ]
    assert {line.split("|")[0] for line in examples} == set(EDITIONS)
    for line in examples:
        state = parse_position(line, seed="doc")
        assert parse_position(format_position(state)) == state


def wild_turned_up(variant: str, wild: str, players: int = 3) -> GameState:
    """A new game of ``variant`` whose first hand turns ``wild`` up to start."""
    deck = list(get_variant(variant).deck)
    deck.remove(wild)
    deck.insert(players * 7, wild)  # the first card after the deal
    state, _ = new_game(variant=variant, players=players, deck=deck, dealer=0, seed="s")
    return state


WILDS_TURNED_UP = [
    (variant, wild)
    for variant in EDITIONS
    for wild in sorted(set(get_variant(variant).deck))
    if COLOUR[wild] is None and wild not in get_variant(variant).starter_returns
]


@pytest.mark.parametrize("variant, wild", WILDS_TURNED_UP)
def test_a_wild_turned_up_to_start_waits_for_its_colour_and_that_position_is_set_up(variant, wild):
    state = wild_turned_up(variant, wild)
    assert state.pending == ("colour", 1) and state.discard == (wild,)
    assert get_variant(variant).unreachable(state) == []
    assert parse_position(format_position(state)) == as_position(state)


COLOUR_WAIT = (
    "classic|players=3|hand=1|dealer=1|pending=colour:2|dir=+|colour=-|discard=W"
    "|pile=*|hands=RD2,GS,RV,G9,BS,B5,R8/R8,BV,Y5,G3,B6,GV,B1/YV,B1,RV,G8,B2,R9,BV"
)


@pytest.mark.parametrize(
    "change, part, words",
    [
        (("discard=W", "discard=R5,W"), "discard", "so the discard pile is that one wild card"),
        (("discard=W", "discard=W4"), "discard", "W4 turned up to start goes back into the pile"),
        (("colour=-", "colour=G"), "colour", "still to be chosen: no colour is in play, not green"),
        (("dir=+", "dir=-"), "dir", "play still goes the way every hand starts"),
        (("colour:2", "colour:0"), "pending", "chosen by the player after the dealer, seat 2"),
    ],
)
def test_a_wait_for_a_colour_no_game_reaches_is_refused_saying_why(change, part, words):
    assert parse_position(COLOUR_WAIT, seed="s").pending == ("colour", 2)
    text = COLOUR_WAIT.replace(*change)
    error = refused(text)
    assert error.part == part and words in str(error)
    assert parse_position(text, seed="s", recorded=True).pending[0] == "colour"  # a record
