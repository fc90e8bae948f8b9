"""Classic UNO at the table: the words of every event and command the core rules have (which
every edition has too), the buttons, the faces of the classic cards and the rules summary."""

from __future__ import annotations

from typing import Any, ClassVar

from games.pages.editions.base import Edition, Face
from games.pages.editions.words import (
    Namer,
    Words,
    card_words,
    cards_words,
    colour_word,
    count,
    target,
)
from rules.cards import describe

DRAW_REASONS = {
    "turn": "",
    "draw_two": " (Draw Two)",
    "wild_draw_four": " (Wild Draw 4)",
    "uno_penalty": " (UNO penalty)",
    "challenge_guilty": " (the Wild Draw 4 was a bluff)",
    "challenge_innocent": " (lost the challenge)",
    "last_card": " (the last card's penalty)",
}


def drawn(d: dict[str, Any], name: Namer, reasons: dict[str, str]) -> str:
    cards = d.get("cards")
    n = d.get("count", len(cards) if cards is not None else 0)
    reason = reasons.get(d.get("reason", ""), "")
    who = name.cap(d["seat"])
    if cards is not None and cards:
        return f"{who} drew {cards_words(cards)}{reason}."
    if not n:
        return f"{who} could not draw: both piles are empty."
    return f"{who} drew {count(n)}{reason}."


def _played(d: dict[str, Any], name: Namer) -> str:
    text = f"{name.cap(d['seat'])} played {describe(d['card'])}"
    if d.get("colour"):
        text += f" and called {colour_word(d['colour'])}"
    if d.get("uno"):
        text += ", saying UNO"
    return text + "."


def _challenge(d: dict[str, Any], name: Namer) -> str:
    text = f"{name.cap(d['challenger'])} challenged {name.whose(d['offender'])} Wild Draw 4: " + (
        "a bluff" if d["guilty"] else "it was legal"
    )
    hand = d.get("hand")  # shown to the challenger (and known to the challenged player)
    evidence = d.get("evidence")
    if hand is not None:
        text += f" ({name(d['offender'])} showed {cards_words(hand)})"
    elif d["guilty"] and evidence:
        text += f" ({name(d['offender'])} held {cards_words(evidence)})"
    return text + "."


def _hand_ended(d: dict[str, Any], name: Namer) -> str:
    gained = d.get("gained") or []
    won = gained[d["winner"]] if d["winner"] < len(gained) else 0
    tail = f", scoring {won} points" if won else ""
    return f"{name.cap(d['winner'])} went out and won hand {d['hand']}{tail}."


def _rewound(d: dict[str, Any], name: Namer) -> str:
    if d.get("reopened"):
        return (
            f"A referee reopened the finished game and undid everything after event "
            f"{d['to_version']}: {d['reason']}"
        )
    return f"A referee undid everything after event {d['to_version']}: {d['reason']}"


EVENTS: dict[str, Words] = {
    "game_started": lambda d, n: f"The game started: {d['players']} players.",
    "position_set_up": lambda d, n: "The referee set the game up from a position.",
    "dealer_chosen": lambda d, n: f"{n.cap(d['dealer'])} deals.",
    "hand_dealt": lambda d, n: f"Hand {d['hand']} dealt by {n(d['dealer'])}.",
    "starter_returned": lambda d, n: f"{card_words(d['card'])} went back into the deck.",
    "starter_turned": lambda d, n: f"{card_words(d['card'])} turned up to start.",
    "turn_began": lambda d, n: f"{n.whose_cap(d['seat'])} turn.",
    "card_played": _played,
    "cards_drawn": lambda d, n: drawn(d, n, DRAW_REASONS),
    "discard_reshuffled": lambda d, n: "The discard pile was shuffled into a new draw pile.",
    "passed": lambda d, n: f"{n.cap(d['seat'])} kept the card and passed.",
    "colour_chosen": lambda d, n: f"{n.cap(d['seat'])} chose {colour_word(d['colour'])}.",
    "direction_reversed": lambda d, n: (
        "Play goes " + ("clockwise." if d["direction"] == 1 else "counter-clockwise.")
    ),
    "seat_skipped": lambda d, n: f"{n.cap(d['seat'])} lost a turn.",
    "uno_called": lambda d, n: f"{n.cap(d['seat'])} said UNO!",
    "uno_caught": lambda d, n: f"{n.cap(d['by'])} caught {n(d['seat'])} without UNO.",
    "uno_window_closed": lambda d, n: f"{n.cap(d['seat'])} can no longer be caught.",
    "challenge_resolved": _challenge,
    "wild_draw_four_accepted": lambda d, n: f"{n.cap(d['seat'])} accepted the Wild Draw 4.",
    "hand_ended": _hand_ended,
    "game_ended": lambda d, n: f"Game over: {n(d['winner'])} won the game.",
    "rewound": _rewound,
    "hand_recorded": lambda d, n: f"Hand {d['hand']} recorded: {n(d['out'])} went out.",
}


COMMANDS: dict[str, Words] = {
    # "play" is worded by ``Edition.command_text`` below (each edition adds its parts).
    "draw": lambda d, n: "Draw a card",
    "pass": lambda d, n: "Keep it and pass",
    "call_uno": lambda d, n: "Say UNO!",
    "catch": lambda d, n: f"Catch {n(target(d))}: no UNO!",
    "challenge": lambda d, n: "Challenge the Wild Draw 4",
    "accept": lambda d, n: "Accept: draw 4",
    "choose_colour": lambda d, n: colour_word(d["colour"]).capitalize(),
    "deal": lambda d, n: "Deal the next hand",
    "record_hand": lambda d, n: f"Record the hand: {n(d.get('out'))} went out",
}

PENDING = {
    "turn": "plays or draws",
    "drawn": "plays the card just drawn or keeps it",
    "colour": "chooses the colour",
    "challenge": "challenges or accepts the Wild Draw 4",
    "deal": "deals the next hand",
    "hand_over": "won the hand",
    "playing": "is playing",
    "starter": "turns up the first card",
}

YOUR_MOVE = {
    "turn": "play a card or draw",
    "drawn": "play the card you drew, or keep it",
    "colour": "choose the colour",
    "challenge": "challenge the Wild Draw 4, or accept it",
    "deal": "deal the next hand",
}

FACES = {
    "S": Face("⊘", "Skip"),
    "V": Face("⇄", "Reverse"),
    "D2": Face("+2", "Draw Two"),
    "W": Face("★", "Wild"),
    "W4": Face("+4", "Wild Draw 4"),
}


class Classic(Edition):
    name = "classic"
    title = "Classic UNO"
    summary = (
        "Match the top card of the discard pile by colour, number or symbol, or play a wild. "
        "Cannot (or will not) play? Draw one card; you may play it at once.",
        "Skip: the next player loses a turn. Reverse: play changes direction. Draw Two: the "
        "next player draws two and loses a turn. Wild: you choose the colour.",
        "Wild Draw 4: you choose the colour and the next player draws four, but only if you "
        "hold no card of the colour in play. The next player may challenge: a bluff costs you "
        "four cards, a wrong challenge costs them six.",
        "Say UNO when you play your second-to-last card, or anyone may catch you and you draw "
        "two. The first to play their last card wins the hand and scores what the others "
        "still hold.",
    )
    events: ClassVar[dict[str, Words]] = {
        **EVENTS,
        "choice_offered": lambda d, n: (
            f"{n.cap(d['seat'])} {Classic.pending.get(d['choice'], d['choice'])}."
        ),
    }
    commands: ClassVar[dict[str, Words]] = COMMANDS
    quiet = frozenset({"turn_began", "uno_window_closed", "choice_offered", "starter_returned"})
    buttons = ("draw", "pass", "call_uno", "catch", "challenge", "accept", "choose_colour", "deal")
    help: ClassVar[dict[str, str]] = {
        "catch": "A player with one card left forgot to say UNO: catch them before the next "
        "player acts and they draw two.",
        "challenge": "You think the Wild Draw 4 was a bluff (its player held a card of the "
        "colour in play): if so they draw four instead of you; if not, you draw six.",
    }
    card_help: ClassVar[dict[str, str]] = {
        "Skip": "the next player loses a turn.",
        "Reverse": "play changes direction.",
        "Draw Two": "the next player draws two and loses a turn.",
        "Wild": "you choose the colour in play.",
        "Wild Draw 4": "you choose the colour; the next player draws four and loses a turn, unless "
        "they challenge it.",
    }
    pending: ClassVar[dict[str, str]] = PENDING
    your_move: ClassVar[dict[str, str]] = YOUR_MOVE
    faces: ClassVar[dict[str, Face]] = FACES

    def command_text(self, data: dict[str, Any], name: Namer) -> str:
        if data.get("type") != "play":
            return super().command_text(data, name)
        text = f"Play {describe(data['card'])}"
        parts = self.play_parts(data, name)
        if parts:
            text += ": " + ", ".join(parts)
        return text + (" and say UNO" if data.get("uno") else "")

    def play_parts(self, data: dict[str, Any], name: Namer) -> list[str]:
        return [f"call {colour_word(data['colour'])}"] if data.get("colour") else []


EDITION = Classic()
