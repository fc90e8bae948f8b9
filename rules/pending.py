"""What a game waits for: the kind half of ``GameState.pending`` (``(kind, seat)``).

One enum for the core engine and every edition. It is a ``StrEnum``: each kind is the string
it always was, so it compares, hashes, prints and serialises exactly as that string, and events
and states stored with the plain strings replay unchanged (``ChoiceOffered.choice`` holds one).
"""

from __future__ import annotations

from enum import StrEnum


class Pending(StrEnum):
    """A kind of pending choice. Its ``repr`` is the string's too, so a state, an event or a
    digest of event values (``python -m rules.simulate``) reads exactly as before."""

    __repr__ = str.__repr__

    # The core engine
    START = "start"  # nothing has happened yet (seat -1)
    STARTER = "starter"  # the starting card is being turned (within a decision only)
    TURN = "turn"  # seat plays or draws
    PLAYING = "playing"  # seat's card is being carried out (within a decision only)
    DRAWN = "drawn"  # seat drew on its turn and may play the drawn card or pass
    COLOUR = "colour"  # seat chooses the colour in play (a wild turned up to start)
    CHALLENGE = "challenge"  # seat challenges or accepts the Wild Draw 4 played on it
    HAND_OVER = "hand_over"  # the hand has been scored (within a decision only)
    DEAL = "deal"  # seat (the next dealer) deals the next hand
    OVER = "over"  # the game is finished (seat -1)
    SHEET = "sheet"  # a score sheet waits for the next hand to be recorded (seat -1)
    # UNO VETO and Wild Customizable: the house rules' choices
    NAME_COLOUR = "name_colour"  # the player names the colour the next player draws to
    DISCARD = "discard"  # seat discards one card (down to the number a rule says)
    JOKE = "joke"  # whether someone laughed at the player's joke is reported
    KEEP_CARD = "keep_card"  # the player who made someone laugh keeps one card
    ROOSTER = "rooster"  # the next player's rooster call is reported
    # UNO Spin: the wheel
    SPIN = "spin"  # seat spins the wheel instead of taking its turn
    ALMOST_UNO = "almost_uno"  # seat chooses the two cards to keep (Almost UNO)
    ALMOST_UNO_SECOND = "almost_uno_second"  # seat kept one card and chooses the second
    ALMOST_UNO_TOP = "almost_uno_top"  # seat discards the rest, choosing the card on top
    DISCARD_NUMBER = "discard_number"  # seat discards cards of one number
    DISCARD_COLOUR = "discard_colour"  # seat discards cards of one colour
    # seat has put down a card of the number (or colour) and discards more of it
    DISCARD_NUMBER_MORE = "discard_number_more"
    DISCARD_COLOUR_MORE = "discard_colour_more"
    WAR_DISCARD = "war_discard"  # the War's winner discards the numbers revealed
    UNO_SPIN = "uno_spin"  # any seat may claim the UNO Spin (seat: the spinner)
    UNO_SPIN_DISCARD = "uno_spin_discard"  # the claimer discards one card
    # UNO Power Grab
    BLOCK = "block"  # seat blocks the action card played on it, or takes it
    KEEP = "keep"  # seat, holding all four towers, keeps one card (Instant UNO)


# The kinds with no seat to wait for (the seat is -1).
SEATLESS = frozenset({Pending.START, Pending.OVER, Pending.SHEET})
