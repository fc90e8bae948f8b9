"""A turn timer has something to send at every moment any edition waits for a seat: the
editions' own choices (UNO Spin's wheel, UNO Power Grab's blocks and Instant UNO, UNO VETO's
house rules) as well as a turn, a card drawn, a Wild Draw 4 and a deal. Without one, a table
whose player walked away at such a moment would wait for ever."""

import pytest

from rules import legal_commands, new_game, step
from rules.bots import RandomBot
from rules.pending import Pending
from tournaments.brackets.services import TIMEOUT_PREFERENCE, _default_command

OUT_OF_TURN = {"catch", "call_uno", "veto"}

EDITIONS = [
    ("classic", {}),
    ("mod", {}),
    ("veto", {"customizable": ["draw_until_colour", "discard_wilds", "seven_cards"]}),
    ("veto", {"customizable": ["three_cards", "joke", "rooster"]}),
    ("veto", {"customizable": ["three_if_stuck", "extra_turn", "face_up"]}),
    ("spin", {}),
    ("power_grab", {}),
]


@pytest.mark.parametrize(("variant", "options"), EDITIONS)
def test_the_timer_has_an_accepted_command_for_every_wait_of_every_edition(variant, options):
    kinds = set()
    for game in range(12):
        players = 2 + game % 5
        state, _ = new_game(
            variant=variant, players=players, seed=f"timer:{game}", target=300, options=options
        )
        bot = RandomBot(f"timer:{game}")
        for _ in range(1500):
            kind, seat = state.pending
            if kind == Pending.OVER:
                break
            default = _default_command(legal_commands(state, seat))
            assert default is not None, (variant, kind, legal_commands(state, seat))
            assert default.type not in OUT_OF_TURN
            kinds.add(kind)
            step(state, default)  # accepted (raises if not)
            state, _ = step(state, bot.choose(legal_commands(state, seat)))
    if variant == "spin":
        assert {Pending.SPIN, Pending.ALMOST_UNO, Pending.WAR_DISCARD, Pending.UNO_SPIN} <= kinds
    if variant == "power_grab":
        assert {Pending.BLOCK, Pending.KEEP} <= kinds
    if variant == "veto":
        house_rules = {Pending.NAME_COLOUR, Pending.DISCARD, Pending.JOKE, Pending.ROOSTER}
        assert kinds & house_rules or "face_up" in options["customizable"]


def test_the_timer_declines_what_a_player_would_have_to_do_and_never_acts_out_of_turn():
    assert not set(TIMEOUT_PREFERENCE) & OUT_OF_TURN
    from rules.variants.power_grab.commands import Block, Take
    from rules.variants.veto.commands import ReportJoke, ReportRooster

    assert _default_command([Block(1), Take(1)]) == Take(1)
    assert _default_command([ReportJoke(1, True), ReportJoke(1, False)]) == ReportJoke(1, False)
    assert _default_command([ReportRooster(2, True), ReportRooster(2, False)]) == ReportRooster(
        2, False
    )
