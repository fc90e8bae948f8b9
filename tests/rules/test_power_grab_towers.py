"""UNO Power Grab: matching (never by Power Icon), the Draw One, and grabbing towers with
Power Icon cards, Grab-2-Towers and Wild Grab-A-Tower."""

import pytest

from rules.commands import DrawCard, PlayCard, command_from_dict
from rules.engine import legal_commands, step
from rules.errors import IllegalCommand, InvalidCommand
from rules.events import CardsDrawn, SeatSkipped, TurnBegan
from rules.variants.mod.commands import ModPlay
from rules.variants.power_grab.commands import PowerGrabPlay
from rules.variants.power_grab.events import TOWERS, TowersGrabbed
from tests.rules.helpers import play, types

from .power_grab_helpers import event, holders, table

# Matching --------------------------------------------------------------------------------------


def test_a_power_icon_card_is_matched_by_number():
    state = table({1: ["R5:U"]}, starter="B5")
    state, _ = play(state, PlayCard(1, "R5:U"))
    assert state.top == "R5:U" and state.colour == "R"


def test_a_power_icon_card_is_matched_by_colour():
    state = table({1: ["R1:U"]}, starter="R3")
    state, _ = play(state, PlayCard(1, "R1:U"))
    assert state.top == "R1:U"


def test_a_plain_number_is_matched_by_number_on_a_power_icon_card():
    state = table({1: ["B3"]}, starter="R3:O")
    state, _ = play(state, PlayCard(1, "B3"))
    assert state.top == "B3"


def test_cards_are_never_matched_by_power_icon():
    state = table({1: ["R1:U"]}, starter="B5:U")
    with pytest.raises(IllegalCommand, match="R1:U cannot be played on B5:U"):
        step(state, PlayCard(1, "R1:U"))
    assert PlayCard(1, "R1:U") not in legal_commands(state, 1)


def test_a_draw_one_may_be_played_on_another_draw_one():
    state = table({2: ["BD1"]}, starter="RD1")  # seat 1 draws one and is skipped
    state, _ = play(state, PlayCard(2, "BD1"))
    assert state.top == "BD1"


def test_a_draw_one_cannot_be_played_on_a_draw_two_of_another_colour():
    state = table({2: ["BD1"]}, starter="RD2")  # seat 1 draws two and is skipped
    with pytest.raises(IllegalCommand, match="BD1 cannot be played on RD2"):
        step(state, PlayCard(2, "BD1"))


def test_a_grab_two_towers_cannot_be_played_on_another_colour_without_a_grab_two_towers():
    state = table({1: ["BG2"]}, starter="R3")
    with pytest.raises(IllegalCommand, match="BG2 cannot be played on R3"):
        step(state, PowerGrabPlay(1, "BG2", towers=("U", "N")))


# The Draw One ------------------------------------------------------------------------------------


def test_a_draw_one_makes_the_next_player_draw_one_and_miss_their_turn():
    state = table({1: ["RD1"]}, draws=["Y9"])
    state, events = play(state, PlayCard(1, "RD1"))
    assert events[1:] == [CardsDrawn(2, ("Y9",), "draw_one"), SeatSkipped(2), TurnBegan(0)]
    assert state.hands[2][-1] == "Y9"


# Power Icons -------------------------------------------------------------------------------------


def test_playing_a_power_icon_card_grabs_its_unclaimed_tower():
    state = table({1: ["R4:!"]})
    state, events = play(state, PlayCard(1, "R4:!"))
    assert event(events, TowersGrabbed) == TowersGrabbed(1, "R4:!", ("!",), (None,))
    assert holders(state)["!"] == 1
    assert state.pending == ("turn", 2)


def test_a_power_icon_card_grabs_the_tower_from_the_player_holding_it():
    state = table({1: ["R6:N"]}, towers={"N": 0})
    state, events = play(state, PlayCard(1, "R6:N"))
    assert event(events, TowersGrabbed) == TowersGrabbed(1, "R6:N", ("N",), (0,))
    assert holders(state)["N"] == 1


def test_the_tower_grabbed_does_not_have_to_match_the_colour_of_the_icon_card():
    # The U tower is red; a blue U card grabs it all the same.
    state = table({1: ["B1:U"]}, starter="B3")
    state, _ = play(state, PlayCard(1, "B1:U"))
    assert holders(state)["U"] == 1


def test_playing_the_icon_of_a_tower_already_held_changes_nothing():
    state = table({1: ["R7:O"]}, towers={"O": 1})
    state, events = play(state, PlayCard(1, "R7:O"))
    assert "towers_grabbed" not in types(events)
    assert holders(state)["O"] == 1


def test_a_plain_copy_of_a_number_grabs_no_tower():
    state = table({1: ["R5"]})
    state, events = play(state, PlayCard(1, "R5"))
    assert "towers_grabbed" not in types(events)


def test_a_power_icon_card_drawn_and_played_grabs_its_tower():
    state = table({}, draws=["R8:!"])
    state, _ = play(state, DrawCard(1), PlayCard(1, "R8:!"))
    assert holders(state)["!"] == 1


def test_a_power_icon_card_names_no_towers_itself():
    state = table({1: ["R1:U"]})
    with pytest.raises(InvalidCommand, match="a Power Icon grabs its own tower") as exc:
        step(state, PowerGrabPlay(1, "R1:U", towers=("N",)))
    assert exc.value.field == "towers"


def test_the_last_card_grabs_no_tower_the_hand_being_over():
    # Two seats: seat 1 skips seat 0 six times and goes out with a U card.
    state = table({1: ["RS", "RS", "GS", "GS", "BS", "BS", "B5:U"]}, players=2)
    for card in ("RS", "RS", "GS", "GS", "BS"):
        state, _ = play(state, PlayCard(1, card))
    state, events = play(state, PlayCard(1, "BS", uno=True), PlayCard(1, "B5:U"))
    assert "towers_grabbed" not in types(events)
    assert "hand_ended" in types(events)


# Grab-2-Towers ----------------------------------------------------------------------------------


def test_grab_two_towers_grabs_the_two_unclaimed_towers_named():
    state = table({1: ["RG2"]})
    state, events = play(state, PowerGrabPlay(1, "RG2", towers=("O", "!")))
    assert event(events, TowersGrabbed) == TowersGrabbed(1, "RG2", ("O", "!"), (None, None))
    assert holders(state) == {"U": None, "N": None, "O": 1, "!": 1}
    assert state.pending == ("turn", 2)


def test_grab_two_towers_may_take_both_towers_from_other_players():
    state = table({1: ["RG2"]}, towers={"U": 2, "N": 0})
    state, events = play(state, PowerGrabPlay(1, "RG2", towers=("U", "N")))
    assert event(events, TowersGrabbed).previous == (2, 0)
    assert holders(state) == {"U": 1, "N": 1, "O": None, "!": None}


def test_grab_two_towers_may_take_one_from_a_player_and_one_unclaimed():
    state = table({1: ["RG2"]}, towers={"U": 2})
    state, events = play(state, PowerGrabPlay(1, "RG2", towers=("U", "!")))
    assert event(events, TowersGrabbed).previous == (2, None)
    assert holders(state) == {"U": 1, "N": None, "O": None, "!": 1}


def test_grab_two_towers_must_name_two_towers():
    state = table({1: ["RG2"]})
    with pytest.raises(InvalidCommand, match="RG2 grabs 2 towers: name 2"):
        step(state, PowerGrabPlay(1, "RG2", towers=("U",)))
    with pytest.raises(InvalidCommand, match="RG2 grabs 2 towers: name 2"):
        step(state, PlayCard(1, "RG2"))


def test_grab_two_towers_cannot_name_the_same_tower_twice():
    state = table({1: ["RG2"]})
    with pytest.raises(InvalidCommand, match="each tower can be named once"):
        step(state, PowerGrabPlay(1, "RG2", towers=("U", "U")))


def test_grab_two_towers_cannot_name_a_tower_the_player_already_holds():
    state = table({1: ["RG2"]}, towers={"U": 1})
    with pytest.raises(IllegalCommand, match="seat 1 already holds the U tower"):
        step(state, PowerGrabPlay(1, "RG2", towers=("U", "N")))


def test_a_player_holding_three_towers_grabs_the_last_one_with_grab_two_towers():
    state = table({1: ["RG2", "B2", "Y2"]}, towers={"U": 1, "N": 1, "O": 1})
    with pytest.raises(IllegalCommand, match="seat 1 already holds the U tower"):
        step(state, PowerGrabPlay(1, "RG2", towers=("!", "U")))
    assert [c.towers for c in legal_commands(state, 1) if c.type == "play" and c.card == "RG2"] == [
        ("!",)
    ]
    state, events = play(state, PowerGrabPlay(1, "RG2", towers=("!",)))
    assert event(events, TowersGrabbed).towers == ("!",)


def test_an_unknown_tower_is_refused_by_name():
    state = table({1: ["RG2"]})
    with pytest.raises(InvalidCommand, match="unknown tower 'X': expected one of U, N, O, !"):
        step(state, PowerGrabPlay(1, "RG2", towers=("U", "X")))


def test_the_legal_plays_of_grab_two_towers_are_every_pair_of_towers_not_held():
    state = table({1: ["RG2"]}, towers={"O": 1, "U": 2})
    plays = [c for c in legal_commands(state, 1) if c.type == "play" and c.card == "RG2"]
    assert [c.towers for c in plays] == [("U", "N"), ("U", "!"), ("N", "!")]


def test_grab_two_towers_as_the_last_card_names_no_towers():
    state = table({1: ["RS", "RS", "GS", "GS", "BS", "BS", "BG2"]}, players=2)
    for card in ("RS", "RS", "GS", "GS", "BS"):
        state, _ = play(state, PlayCard(1, card))
    state, _ = play(state, PlayCard(1, "BS", uno=True))
    # A plain play: no towers to name.
    assert [c for c in legal_commands(state, 1) if c.type == "play"] == [PlayCard(1, "BG2")]
    with pytest.raises(
        IllegalCommand, match="BG2 is the last card: the hand ends, there are no towers to grab"
    ):
        step(state, PowerGrabPlay(1, "BG2", towers=("U", "N")))
    state, events = play(state, PlayCard(1, "BG2"))
    assert "hand_ended" in types(events)


# Wild Grab-A-Tower --------------------------------------------------------------------------------


def test_wild_grab_a_tower_grabs_one_tower_and_calls_the_colour():
    state = table({1: ["WG"]}, towers={"N": 0})
    state, events = play(state, PowerGrabPlay(1, "WG", "G", towers=("N",)))
    assert event(events, TowersGrabbed) == TowersGrabbed(1, "WG", ("N",), (0,))
    assert state.colour == "G" and state.pending == ("turn", 2)


def test_wild_grab_a_tower_may_call_the_colour_already_in_play():
    state = table({1: ["WG"]}, starter="R3")
    state, _ = play(state, PowerGrabPlay(1, "WG", "R", towers=("U",)))
    assert state.colour == "R"


def test_wild_grab_a_tower_must_name_exactly_one_tower():
    state = table({1: ["WG"]})
    with pytest.raises(InvalidCommand, match="WG grabs 1 tower: name 1"):
        step(state, PowerGrabPlay(1, "WG", "G", towers=("U", "N")))
    with pytest.raises(InvalidCommand, match="WG grabs 1 tower: name 1"):
        step(state, PlayCard(1, "WG", "G"))


def test_wild_grab_a_tower_needs_a_colour():
    state = table({1: ["WG"]})
    with pytest.raises(InvalidCommand, match="playing WG needs a colour"):
        step(state, PowerGrabPlay(1, "WG", towers=("U",)))


def test_the_legal_plays_of_wild_grab_a_tower_are_each_colour_with_each_tower_not_held():
    state = table({1: ["WG"]}, towers={"U": 1, "N": 1})
    plays = [c for c in legal_commands(state, 1) if c.type == "play" and c.card == "WG"]
    assert {(c.colour, c.towers) for c in plays} == {(c, (t,)) for c in "RGBY" for t in "O!"}
    assert len(plays) == 8


def test_other_cards_name_no_towers():
    state = table({1: ["RD1"]})
    with pytest.raises(
        InvalidCommand, match="towers are named only with a Grab-2-Towers or Wild Grab-A-Tower"
    ):
        step(state, PowerGrabPlay(1, "RD1", towers=("U",)))


def test_a_play_gives_nothing_away_in_power_grab():
    state = table({1: ["R5"]})
    with pytest.raises(InvalidCommand, match="give is only for the Mod card"):
        step(state, ModPlay(1, "R5", give="G"))


def test_a_grab_card_gives_nothing_away_either():
    body = {"type": "play", "card": "RG2", "give": "G", "towers": ["U", "N"]}
    with pytest.raises(InvalidCommand, match="give is only for the Mod card"):
        command_from_dict(1, body, variant="power_grab")
    # A command carries one edition's field: a Mod play naming towers cannot be built.
    with pytest.raises(TypeError):
        ModPlay(1, "RG2", give="G", towers=("U", "N"))  # type: ignore[call-arg]


def test_the_two_towers_may_be_named_in_either_order_and_are_grabbed_as_one_move():
    state = table({1: ["RG2"]})
    _, named = play(state, PowerGrabPlay(1, "RG2", towers=("N", "U")))
    _, in_order = play(state, PowerGrabPlay(1, "RG2", towers=("U", "N")))
    assert named == in_order
    assert event(named, TowersGrabbed).towers == ("U", "N")


@pytest.mark.parametrize("card", ["RG2", "WG"])
def test_a_grab_is_accepted_exactly_when_its_towers_are_among_the_ways_listed(card):
    # Every set of towers seat 1 may hold on its turn (the others with seat 2 or unclaimed),
    # every naming of up to three towers (unknown and repeated ones too): accepted exactly when
    # listed, in any order, and refused otherwise.
    names = [*TOWERS, "X"]
    namings = [()] + [(a,) for a in names] + [(a, b) for a in names for b in names]
    namings += [("U", "N", "O"), ("N", "O", "!")]
    for mask in range(15):  # (holding all four, the seat would be choosing a card to keep)
        mine = {t: 1 for i, t in enumerate(TOWERS) if mask >> i & 1}
        others = {t: 2 for i, t in enumerate(TOWERS) if not mask >> i & 1 and i % 2}
        state = table({1: [card, "B2", "Y2"]}, towers={**mine, **others})
        listed = {
            frozenset(c.towers)
            for c in legal_commands(state, 1)
            if c.type == "play" and c.card == card
        }
        for named in namings:
            command = PowerGrabPlay(1, card, "R" if card == "WG" else None, towers=named)
            if len(set(named)) == len(named) and frozenset(named) in listed:
                play(state, command)
            else:
                with pytest.raises((IllegalCommand, InvalidCommand)):
                    step(state, command)
