"""UNO Spin at the table: Spin cards send the next player to the wheel."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any, ClassVar

from django import forms

from games.pages.card_words import cards_from_words
from games.pages.editions.base import SetUpPart, SetUpTable, player_field, text_field
from games.pages.editions.classic import DRAW_REASONS, Classic, drawn
from games.pages.editions.words import Namer, Words, cards_words, colour_word
from rules.cards import card_info, describe

WHEEL_WORDS = {
    "almost_uno": "Almost UNO: discard all but two cards",
    "discard_number": "Discard Number: discard cards of one number",
    "discard_colour": "Discard Colour: discard cards of one colour",
    "draw_red": "Draw Red: draw until a red card",
    "draw_blue": "Draw Blue: draw until a blue card",
    "trade_hands": "Trade Hands: every hand passes to the left",
    "show_hand": "Show Hand: the hand is shown to everyone",
    "war": "War: the highest number wins",
    "uno_spin": "UNO Spin: the first to claim it discards a card",
}

# The moments set up once Almost UNO's spinner has kept cards, and how many are kept by then.
KEPT_MOMENTS = {"almost_uno_second": 1, "almost_uno_top": 2}
# The moments set up once a card is put down at Discard Number (True) or Colour (False).
MORE_MOMENTS = {"discard_number_more": True, "discard_colour_more": False}

SPIN_DRAWS = {
    **DRAW_REASONS,
    "draw_red": " (the wheel: draw until red)",
    "draw_blue": " (the wheel: draw until blue)",
}


def _discarded(d: dict[str, Any], name: Namer) -> str:
    return f"{name.cap(d['seat'])} discarded {cards_words(d.get('cards'))}."


def _laid(d: dict[str, Any], name: Namer) -> str:
    return (
        f"{name.cap(d['seat'])} put down {cards_words([d.get('card')])} and discards more "
        "of the same."
    )


def _war(d: dict[str, Any], name: Namer) -> str:
    if d.get("winner") is None:
        return "War: nobody won."
    return f"War: {name(d['winner'])} showed the highest number and discards it."


class Spin(Classic):
    name = "spin"
    title = "UNO Spin"
    summary = (
        "Classic UNO with a wheel. Some number cards (1 to 5 of each colour) are Spin cards, "
        "marked ↻ here: they play as numbers, but the next player must spin the wheel "
        "instead of taking their turn.",
        "The wheel may make you discard (all but two cards, every card of a number or of a "
        "colour), draw until a red or a blue card, pass every hand to the left, show your "
        "hand, fight a War of numbers, or start an UNO Spin race: the first to claim it "
        "discards a card.",
        "When the wheel lets you discard several cards, you choose the one that lands on top.",
    )
    events: ClassVar[dict[str, Words]] = {
        **Classic.events,
        "choice_offered": lambda d, n: (
            f"{n.cap(d['seat'])} {Spin.pending.get(d['choice'], d['choice'])}."
        ),
        "cards_drawn": lambda d, n: drawn(d, n, SPIN_DRAWS),
        "wheel_spun": lambda d, n: (
            f"{n.cap(d['seat'])} spun the wheel: {WHEEL_WORDS.get(d['segment'], d['segment'])}."
        ),
        "wheel_cards_kept": lambda d, n: (
            f"{n.cap(d['seat'])} kept two cards and chooses which of the others goes on top."
            if len(d.get("cards") or ()) == 2 or d.get("count") == 2
            else f"{n.cap(d['seat'])} kept a card and chooses the second to keep."
        ),
        "wheel_discarded": _discarded,
        "wheel_card_laid": _laid,
        "hands_traded": lambda d, n: (
            f"{n.whose_cap(d['seat'])} wheel: every hand passed to the left."
        ),
        "hand_shown": lambda d, n: f"{n.whose_cap(d['seat'])} hand is shown to everyone.",
        "hand_hidden": lambda d, n: f"{n.whose_cap(d['seat'])} hand is hidden again.",
        "war_fought": _war,
        "uno_spin_claimed": lambda d, n: f"{n.cap(d['seat'])} claimed the UNO Spin!",
        "traded_uno_called": lambda d, n: f"{n.cap(d['seat'])} said UNO!",
        "traded_uno_caught": lambda d, n: f"{n.cap(d['by'])} caught {n(d['seat'])} without UNO.",
        "traded_uno_window_closed": lambda d, n: "Nobody can be caught for the trade any more.",
    }
    commands: ClassVar[dict[str, Words]] = {
        **Classic.commands,
        "spin": lambda d, n: "Spin the wheel",
        "claim_uno_spin": lambda d, n: "Claim the UNO Spin!",
        "wheel_discard": lambda d, n: _discard_words(d),
        "wheel_keep": lambda d, n: f"Keep {cards_words(d.get('cards'))}",
        "wheel_lay": lambda d, n: f"Put down {cards_words([d.get('card')])} and discard more",
    }
    quiet = Classic.quiet | {"traded_uno_window_closed"}
    buttons = (*Classic.buttons[:-1], "spin", "wheel_keep", "claim_uno_spin", "deal")
    help: ClassVar[dict[str, str]] = {
        **Classic.help,
        "spin": "The card before you was a Spin card: spin the wheel instead of taking your "
        "turn, and do what it lands on.",
        "claim_uno_spin": "The wheel landed on UNO Spin: the first player to claim it "
        "discards one card.",
        "wheel_keep": "Almost UNO: keep this card; you keep two, one after the other, and "
        "discard the others, choosing which of them lands on top.",
    }
    card_help: ClassVar[dict[str, str]] = {
        **Classic.card_help,
        "Spin card (↻)": "plays as its number, and the next player spins the wheel.",
    }
    pending: ClassVar[dict[str, str]] = {
        **Classic.pending,
        "spin": "spins the wheel",
        "almost_uno": "chooses two cards to keep and discards the others (Almost UNO)",
        "almost_uno_second": "kept a card and chooses the second to keep (Almost UNO)",
        "almost_uno_top": "discards all but two cards, choosing the one on top (Almost UNO)",
        "discard_number": "discards cards of one number",
        "discard_colour": "discards cards of one colour",
        "discard_number_more": "discards more cards of the number on top",
        "discard_colour_more": "discards more cards of the colour on top",
        "war_discard": "discards the numbers of the War",
        "uno_spin": "— everyone races to claim the UNO Spin",
        "uno_spin_discard": "discards one card (UNO Spin)",
    }
    your_move: ClassVar[dict[str, str]] = {
        **Classic.your_move,
        "spin": "spin the wheel",
        "almost_uno": "choose the two cards to keep, one after the other (Almost UNO)",
        "almost_uno_second": "choose the second card to keep (Almost UNO)",
        "almost_uno_top": "discard the other cards, choosing the one on top (Almost UNO)",
        "discard_number": "discard cards of one number",
        "discard_colour": "discard cards of one colour",
        "discard_number_more": "discard more cards of the number on top",
        "discard_colour_more": "discard more cards of the colour on top",
        "war_discard": "discard the numbers of the War",
        "uno_spin_discard": "discard one card (UNO Spin)",
    }
    status: ClassVar[dict[str, str]] = {
        "uno_spin": "UNO Spin! The first to claim it discards a card."
    }
    # The moments whose cards are ticked (any number of them, or any one); an Almost UNO's
    # others and a War's cards are discarded with a button a way (which card goes on top).
    discard_kinds = frozenset(
        {
            "discard_number",
            "discard_colour",
            "discard_number_more",
            "discard_colour_more",
            "uno_spin_discard",
        }
    )
    # The ticked cards go as one ``wheel_discard``; a card laid down at a time is for programs.
    discard_commands = frozenset({"wheel_discard", "wheel_lay"})
    marks: ClassVar[dict[str, tuple[str, str]]] = {"~": ("↻", "Spin")}

    def lines(self, edition: dict[str, Any], name: Namer) -> list[str]:
        lines = []
        if edition.get("showing") is not None:
            lines.append(f"{name.whose_cap(edition['showing'])} hand is shown to everyone.")
        if edition.get("war_numbers"):
            lines.append("War: discard " + ", ".join(map(str, edition["war_numbers"])) + ".")
        return lines

    def badges(self, edition: dict[str, Any], seat: int) -> list[str]:
        return ["may be caught"] if seat in (edition.get("also_uno_exposed") or ()) else []

    def ticked_may_leave_one(
        self, kind: str, hand: tuple[str, ...], legal: list[dict[str, Any]]
    ) -> bool:
        # The cards listed one at a time are the ones that may go; at Discard Number (Colour)
        # they go together only if of one number (colour), once the first is down always.
        if len(hand) < 2:
            return False
        listed = {d["cards"][0] for d in legal if d.get("type") == "wheel_discard"}
        if kind == "discard_number":
            group = lambda card: card_info(card).rank  # noqa: E731
        elif kind == "discard_colour":
            group = lambda card: card_info(card).colour  # noqa: E731
        else:  # the number (colour) on top, or one card at UNO Spin
            group = lambda card: None  # noqa: E731
        most = Counter(group(card) for card in hand if card in listed).most_common(1)
        if kind == "uno_spin_discard":
            return bool(most) and len(hand) == 2
        return bool(most) and most[0][1] >= len(hand) - 1

    # Setting up a position: the wheel to spin, or landed on a segment where the spinner chooses

    setup_moments = (
        ("spin", "Spins the wheel after the Spin card on top"),
        ("almost_uno", "The wheel landed on Almost UNO (keeps two cards, discards the rest)"),
        ("almost_uno_second", "Kept one card at Almost UNO and chooses the second to keep"),
        (
            "almost_uno_top",
            "Kept two cards at Almost UNO and discards the rest, choosing the one on top",
        ),
        ("discard_number", "The wheel landed on Discard Number (discards the cards of one number)"),
        (
            "discard_number_more",
            "Put down the card on top at Discard Number and may put down more of its number",
        ),
        ("discard_colour", "The wheel landed on Discard Colour (discards the cards of one colour)"),
        (
            "discard_colour_more",
            "Put down the card on top at Discard Colour and may put down more of its colour",
        ),
        ("war_discard", "Won a War on the wheel and discards the War cards they played"),
        ("uno_spin", "The wheel landed on UNO Spin (the first to claim it discards a card)"),
        ("uno_spin_discard", "Claimed the UNO Spin first and discards one card"),
    )
    setup_legend = "the wheel"

    def setup_fields(self) -> dict[str, forms.Field]:
        return {
            "showing": player_field(
                "Whose hand the wheel's Show Hand has face up for everyone (until the turn "
                "of the player who plays now ends)",
                nobody="Nobody's",
                what="whose hand is shown",
            ),
            "kept": text_field(
                "The cards kept",
                200,
                label="At Almost UNO, once cards are kept: the card kept first, or both",
                required=False,
            ),
            "war": text_field(
                "The War's numbers",
                100,
                label="For a War's discard: the numbers of the War cards the winner played "
                "(9, or 9, 7 after a tie)",
                required=False,
            ),
        }

    def setup_part(self, values: dict[str, Any], moment: str, table: SetUpTable) -> SetUpPart:
        stray = {
            key: f"{what} are only for {moment_words}: choose that above, or clear this."
            for key, what, kinds, moment_words in (
                ("kept", "The cards kept", KEPT_MOMENTS, "Almost UNO once cards are kept"),
                ("war", "The War's numbers", ("war_discard",), "a War's discard"),
            )
            if (values.get(key) or "").strip() and moment not in kinds
        }
        if stray:
            return SetUpPart(errors=stray)
        row = values.get("showing")
        problem = table.off_table(row)
        if problem:
            return SetUpPart(errors={"showing": problem})
        if row is not None:
            return _showing(table.seat(row), moment, table, self.state_as_a_hand_starts(table))
        if moment not in dict(self.setup_moments):
            return SetUpPart()
        more = MORE_MOMENTS.get(moment)
        if more is not None:
            problem = _nothing_more(more, table)
            if problem:
                return SetUpPart(errors={"moment": problem})
        elif card_info(table.top).mark != "~":
            # The player before played a Spin card, which sends this player to the wheel.
            return SetUpPart(
                errors={
                    "moment": f"The wheel is spun after a Spin card: the top card is the "
                    f"{describe(table.top)}, not a Spin card."
                }
            )
        nothing = _nothing_to_discard(moment, table.names[table.turn], table.hands[table.turn])
        if nothing:
            return SetUpPart(
                errors={"moment": f"{nothing} has nothing to discard, and play goes on."}
            )
        start = self.state_as_a_hand_starts(table)
        extra: dict[str, Any] = {}
        if moment in KEPT_MOMENTS:
            kept = _kept(values.get("kept") or "", table, KEPT_MOMENTS[moment])
            if isinstance(kept, SetUpPart):
                return kept
            extra["kept"] = list(kept)
        elif moment == "war_discard":
            war = _war_numbers(values.get("war") or "", table)
            if isinstance(war, SetUpPart):
                return war
            extra["war"] = list(war)
        if moment in ("war_discard", "uno_spin_discard"):
            # The spinner is not the player who discards now: whoever holds nothing went out
            # with the Spin card, and the hand ends once the wheel is resolved.
            out = next((seat for seat, hand in enumerate(table.hands) if not hand), None)
        elif moment != "spin" and not table.hands[table.before]:
            out = table.before  # the Spin card was its player's last
        else:
            # (A Spin card that was its player's last, still to spin: the wheel records them
            # out as it stops.)
            out = None
        if out is not None:
            extra["out"] = out
        return SetUpPart(extra={**start, **extra} if extra else None, refused_on="moment")


def _showing(seat: int | None, moment: str, table: SetUpTable, start: dict[str, Any]) -> SetUpPart:
    """A hand shown by the wheel's Show Hand: face up for everyone until the turn of the player
    after the spinner, who plays now, ends."""
    assert seat is not None
    name = table.names[seat]
    if moment in dict(Spin.setup_moments):
        return SetUpPart(
            errors={
                "showing": f"{name}'s hand is shown until the next player's turn ends: set "
                "that player to play a card or draw, or clear this."
            }
        )
    if seat != table.before:
        return SetUpPart(
            errors={
                "showing": f"The hand shown is the spinner's, who played before "
                f"{table.names[table.turn]}: not {name}'s."
            }
        )
    return SetUpPart(
        extra={**start, "show": [seat, table.turn]}, shown=(seat,), refused_on="showing"
    )


def _kept(text: str, table: SetUpTable, count: int) -> tuple[str, ...] | SetUpPart:
    """The ``count`` cards (one or two) the spinner has kept at Almost UNO, read from
    ``text``; or the part with the error on its field."""
    name, hand = table.names[table.turn], table.hands[table.turn]
    try:
        kept = cards_from_words(text, "spin")
    except ValueError as exc:
        return SetUpPart(errors={"kept": str(exc)})
    if len(kept) != count:
        asked = (
            f"the card {name} kept first at Almost UNO: they choose the second now"
            if count == 1
            else f"the two cards {name} keeps at Almost UNO"
        )
        return SetUpPart(errors={"kept": f"Name {asked}."})
    rest = list(hand)
    said = " and the ".join(describe(card) for card in kept)
    for card in kept:
        if card not in rest:
            return SetUpPart(errors={"kept": f"{name} does not hold the {said} to keep."})
        rest.remove(card)
    if count == 2 and len(set(rest)) == 1 and card_info(rest[0]).colour is not None:
        return SetUpPart(
            errors={
                "kept": f"{name}'s other cards are all the {describe(rest[0])}: they are "
                "discarded at once, with no card on top to choose."
            }
        )
    return kept


def _war_numbers(text: str, table: SetUpTable) -> tuple[int, ...] | SetUpPart:
    """The numbers of the War cards the winner (the player whose turn it is) played, read
    from ``text``; or the part with the error on its field."""
    name, hand = table.names[table.turn], table.hands[table.turn]
    numbers: list[int] = []
    for piece in re.split(r"[,;\s]+|\band\b", text.strip()):
        if not piece:
            continue
        if not (piece.isdecimal() and len(piece) == 1):
            return SetUpPart(errors={"war": f"“{piece}” is not a number from 0 to 9."})
        numbers.append(int(piece))
    if not numbers:
        return SetUpPart(
            errors={"war": f"Name the numbers of the War cards {name} played: they discard them."}
        )
    held = Counter(card_info(c).number for c in hand)
    if Counter(numbers) - held:
        said = ", ".join(map(str, numbers))
        return SetUpPart(
            errors={
                "war": f"{name} does not hold a card of each number of the War ({said}): "
                "name the numbers of the War cards they played."
            }
        )
    return tuple(numbers)


def _nothing_more(by_number: bool, table: SetUpTable) -> str | None:
    """What is wrong, in words, with a player who has put down the card on top at Discard
    Number (``by_number``) or Discard Colour and may put down more of it; None if nothing."""
    name, top = table.names[table.turn], card_info(table.top)
    segment, kind = (
        ("Discard Number", "a number card") if by_number else ("Discard Colour", "a coloured card")
    )
    what = "number" if by_number else "colour"
    same = getattr(top, what)
    if same is None:
        return (
            f"At {segment} the card on top is the one {name} put down last, {kind}: "
            f"not the {describe(table.top)}."
        )
    if not any(getattr(card_info(c), what) == same for c in table.hands[table.turn]):
        other = str(same) if by_number else f"{colour_word(same)} card"
        return f"{name} holds no other {other}: the last one put down ends the discard."
    return None


def _nothing_to_discard(moment: str, name: str, cards: tuple[str, ...]) -> str | None:
    """Who holds nothing the wheel's segment ``moment`` discards (then it does nothing and play
    goes on), and the segment, in words; None when they hold something."""
    hand = [card_info(c) for c in cards]
    if moment in ("almost_uno", *KEPT_MOMENTS) and len(hand) <= 2:
        return f"{name} holds {len(hand)} card{'s' if len(hand) != 1 else ''}: Almost UNO"
    if moment == "discard_number" and all(c.number is None for c in hand):
        return f"{name} holds no number card: Discard Number"
    if moment == "discard_colour" and all(c.colour is None for c in hand):
        return f"{name} holds no coloured card: Discard Colour"
    if moment == "uno_spin_discard" and not hand:
        return f"{name} holds no card: the UNO Spin"
    return None


EDITION = Spin()


def _discard_words(data: dict[str, Any]) -> str:
    """A wheel discard in words: its cards (a few named, more counted), the last one on top,
    and the colour a wild on top calls."""
    cards = list(data.get("cards") or [])
    if len(cards) <= 1:
        words = f"Discard {cards_words(cards)}"
    elif len(cards) <= 3:
        named = ", ".join(describe(c) for c in cards[:-1]) + f" and {describe(cards[-1])}"
        words = f"Discard {named}, {describe(cards[-1])} on top"
    else:
        words = f"Discard these {len(cards)} cards, {describe(cards[-1])} on top"
    if data.get("colour"):
        words += f", calling {colour_word(data['colour'])}"
    return words
