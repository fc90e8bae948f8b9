"""Events and commands in players' words: the table page's log and buttons, the replay viewer.

Works on the JSON shapes (``Event.to_dict`` or ``redacted``, ``Command.to_dict``), so a seat's
page words exactly what that seat may know: a redacted field (``None``) is never guessed at.
Cards are named by ``rules.cards.describe`` ("red 7", "wild draw four").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rules.cards import COLOUR_NAMES, describe

# Events that say nothing a player needs in a short log (the table's log leaves them out; the
# replay viewer shows every event).
QUIET = frozenset(
    {
        "turn_began",
        "uno_window_closed",
        "choice_offered",
        "house_rules_drawn",
        "customizable_dealt",
        "traded_uno_window_closed",
        "starter_returned",
    }
)

DRAW_REASONS = {
    "turn": "",
    "draw_two": " (Draw Two)",
    "draw_one": " (Draw One)",
    "wild_draw_four": " (Wild Draw 4)",
    "uno_penalty": " (UNO penalty)",
    "challenge_guilty": " (the Wild Draw 4 was a bluff)",
    "challenge_innocent": " (lost the challenge)",
    "last_card": " (the last card's penalty)",
    "draw_red": " (the wheel: draw until red)",
    "draw_blue": " (the wheel: draw until blue)",
    "draw_until_colour": " (house rule: draw until the colour)",
    "three_if_stuck": " (house rule: stuck)",
    "house_rule": " (house rule)",
    "joke": " (nobody laughed)",
    "rooster": " (chickened out)",
}

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

# What the game waits for, by pending kind (the seat is named before it).
PENDING_WORDS = {
    "turn": "plays or draws",
    "drawn": "plays the card just drawn or keeps it",
    "colour": "chooses the colour",
    "challenge": "challenges or accepts the Wild Draw 4",
    "deal": "deals the next hand",
    "spin": "spins the wheel",
    "almost_uno": "discards all but two cards (Almost UNO)",
    "discard_number": "discards cards of one number",
    "discard_colour": "discards cards of one colour",
    "war_discard": "discards the numbers of the War",
    "uno_spin": "— everyone races to claim the UNO Spin",
    "uno_spin_discard": "discards one card (UNO Spin)",
    "block": "blocks with a tower or takes the card",
    "keep": "keeps one card (Instant UNO)",
    "name_colour": "names a colour (house rule)",
    "discard": "discards a card (house rule)",
    "joke": "tells a joke (house rule)",
    "keep_card": "keeps one card (the joke)",
    "rooster": "does a rooster call (house rule)",
    "hand_over": "won the hand",
    "playing": "is playing",
    "starter": "turns up the first card",
}


def colour_word(code: str | None) -> str:
    return COLOUR_NAMES.get(code or "", "no colour")


def cards_words(cards: Sequence[str] | None) -> str:
    if not cards:
        return "no cards"
    return ", ".join(describe(c) for c in cards)


# What the game waits for, when it waits for the viewer: what to do, in the imperative.
YOUR_MOVE = {
    "turn": "play a card or draw",
    "drawn": "play the card you drew, or keep it",
    "colour": "choose the colour",
    "challenge": "challenge the Wild Draw 4, or accept it",
    "deal": "deal the next hand",
    "spin": "spin the wheel",
    "almost_uno": "discard all but two cards (Almost UNO)",
    "discard_number": "discard cards of one number",
    "discard_colour": "discard cards of one colour",
    "war_discard": "discard the numbers of the War",
    "uno_spin_discard": "discard one card (UNO Spin)",
    "block": "block with your tower, or take the card",
    "keep": "keep one card (Instant UNO)",
    "name_colour": "name a colour (house rule)",
    "discard": "discard a card (house rule)",
    "joke": "tell a joke, then say whether anyone laughed",
    "keep_card": "keep one card (the joke)",
    "rooster": "do your best rooster call, or chicken out",
}


class Namer:
    """Seat numbers to names; the viewer's own seat is marked "(you)" (the verbs of the log
    stay in the third person)."""

    def __init__(self, names: Sequence[str], viewer: int | None = None) -> None:
        self.names = list(names)
        self.viewer = viewer

    def __call__(self, seat: int | None) -> str:
        if seat is None or seat < 0:
            return "the referee"
        name = self.names[seat] if seat < len(self.names) else f"seat {seat}"
        return f"{name} (you)" if seat == self.viewer else name

    def cap(self, seat: int | None) -> str:
        name = self(seat)
        return name[:1].upper() + name[1:]


def _count(n: int, thing: str = "card") -> str:
    return f"{n} {thing}" if n == 1 else f"{n} {thing}s"


def event_text(data: dict[str, Any], name: Namer) -> str:
    """One event (its JSON shape, redacted or not) in words."""
    kind = data.get("type", "")
    handler = _EVENTS.get(kind)
    if handler is None:
        return kind.replace("_", " ").capitalize() + "."
    return handler(data, name)


def _drawn(d: dict[str, Any], name: Namer) -> str:
    cards = d.get("cards")
    count = d.get("count", len(cards) if cards is not None else 0)
    reason = DRAW_REASONS.get(d.get("reason", ""), "")
    who = name.cap(d["seat"])
    if cards is not None and cards:
        return f"{who} drew {cards_words(cards)}{reason}."
    if not count:
        return f"{who} could not draw: both piles are empty."
    return f"{who} drew {_count(count)}{reason}."


def _played(d: dict[str, Any], name: Namer) -> str:
    text = f"{name.cap(d['seat'])} played {describe(d['card'])}"
    if d.get("colour"):
        text += f" and called {colour_word(d['colour'])}"
    if d.get("uno"):
        text += ", saying UNO"
    return text + "."


def _challenge(d: dict[str, Any], name: Namer) -> str:
    text = f"{name.cap(d['challenger'])} challenged {name(d['offender'])}'s Wild Draw 4: " + (
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


def _game_ended(d: dict[str, Any], name: Namer) -> str:
    return f"Game over: {name(d['winner'])} won the game."


def _dealer(d: dict[str, Any], name: Namer) -> str:
    return f"{name.cap(d['dealer'])} deals."


def _gifts(d: dict[str, Any], name: Namer) -> str:
    counts: dict[int, int] = {}
    for to, _card in d.get("gifts") or []:
        counts[to] = counts.get(to, 0) + 1
    given = ", ".join(f"{_count(n)} to {name(to)}" for to, n in counts.items())
    return f"{name.cap(d['seat'])} gave away every {colour_word(d['colour'])} card: {given}."


def _traded(d: dict[str, Any], name: Namer) -> str:
    return f"{name.cap(d['seat'])}'s wheel: every hand passed to the left."


def _war(d: dict[str, Any], name: Namer) -> str:
    if d.get("winner") is None:
        return "War: nobody won."
    return f"War: {name(d['winner'])} showed the highest number and discards it."


def _towers(d: dict[str, Any], name: Namer) -> str:
    towers = " and ".join(d["towers"])
    return f"{name.cap(d['seat'])} grabbed the {towers} tower{'s' if len(d['towers']) > 1 else ''}."


def _instant(d: dict[str, Any], name: Namer) -> str:
    kept = d.get("kept")
    what = f" kept {describe(kept)} and" if kept else ""
    n = len(d.get("discarded") or [])
    return f"Instant UNO! {name.cap(d['seat'])}{what} discarded {_count(n)}."


def _discarded(d: dict[str, Any], name: Namer) -> str:
    return f"{name.cap(d['seat'])} discarded {cards_words(d.get('cards'))}."


_EVENTS: dict[str, Callable[[dict[str, Any], Namer], str]] = {
    "game_started": lambda d, n: f"The game started: {d['players']} players.",
    "position_set_up": lambda d, n: "The referee set the game up from a position.",
    "dealer_chosen": _dealer,
    "hand_dealt": lambda d, n: f"Hand {d['hand']} dealt by {n(d['dealer'])}.",
    "starter_returned": lambda d, n: f"{describe(d['card']).capitalize()} went back into the deck.",
    "starter_turned": lambda d, n: f"{describe(d['card']).capitalize()} turned up to start.",
    "turn_began": lambda d, n: f"{n.cap(d['seat'])}: turn.",
    "choice_offered": lambda d, n: (
        f"{n.cap(d['seat'])} {PENDING_WORDS.get(d['choice'], d['choice'])}."
    ),
    "card_played": _played,
    "cards_drawn": _drawn,
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
    "game_ended": _game_ended,
    "rewound": lambda d, n: (
        f"A referee reopened the finished game and went back to event {d['to_version']}: "
        f"{d['reason']}"
        if d.get("reopened")
        else f"A referee went back to version {d['to_version']}: {d['reason']}"
    ),
    "hand_recorded": lambda d, n: f"Hand {d['hand']} recorded: {n(d['out'])} went out.",
    # UNO Mod
    "cards_given": _gifts,
    # UNO Spin
    "wheel_spun": lambda d, n: (
        f"{n.cap(d['seat'])} spun the wheel: {WHEEL_WORDS.get(d['segment'], d['segment'])}."
    ),
    "wheel_discarded": _discarded,
    "hands_traded": _traded,
    "hand_shown": lambda d, n: f"{n.cap(d['seat'])}'s hand is shown to everyone.",
    "hand_hidden": lambda d, n: f"{n.cap(d['seat'])}'s hand is hidden again.",
    "war_fought": _war,
    "uno_spin_claimed": lambda d, n: f"{n.cap(d['seat'])} claimed the UNO Spin!",
    "traded_uno_called": lambda d, n: f"{n.cap(d['seat'])} said UNO!",
    "traded_uno_caught": lambda d, n: f"{n.cap(d['by'])} caught {n(d['seat'])} without UNO.",
    "traded_uno_window_closed": lambda d, n: "Nobody can be caught for the trade any more.",
    # UNO Power Grab
    "towers_grabbed": _towers,
    "block_offered": lambda d, n: (
        f"{n.cap(d['seat'])} may block {describe(d['card'])} with the {d['tower']} tower."
    ),
    "action_blocked": lambda d, n: (
        f"{n.cap(d['seat'])} blocked {describe(d['card'])} with the {d['tower']} tower."
    ),
    "block_declined": lambda d, n: (
        f"{n.cap(d['seat'])} took {describe(d['card'])} without blocking."
    ),
    "instant_uno_claimed": _instant,
    "towers_returned": lambda d, n: "The towers went back to the middle.",
    # UNO VETO and Wild Customizable
    "customizable_dealt": lambda d, n: "The Wild Customizable cards were dealt.",
    "house_rules_drawn": lambda d, n: f"{n.cap(d['seat'])} drew house rules.",
    "customizable_played": lambda d, n: (
        f"{n.cap(d['seat'])}'s house rule: " + (d.get("text") or "none (a plain wild)")
    ),
    "cards_discarded": _discarded,
    "discards_owed": lambda d, n: "Some players must discard down to a number of cards.",
    "colour_named": lambda d, n: (
        f"{n.cap(d['seat'])} named {colour_word(d['colour'])}: "
        f"{n(d['victim'])} draws until one comes."
    ),
    "stuck_rule_set": lambda d, n: f"If {n(d['seat'])} cannot play next turn, they take three.",
    "stuck_checked": lambda d, n: (
        f"{n.cap(d['seat'])} "
        + ("could not play and takes three cards." if d["stuck"] else "can play.")
    ),
    "hands_shown": lambda d, n: f"Every hand is face up until {n(d['seat'])}'s next turn.",
    "hands_hidden": lambda d, n: "The hands are face down again.",
    "joke_reported": lambda d, n: (
        f"{n.cap(d['seat'])}'s joke: " + ("someone laughed." if d["laughed"] else "nobody laughed.")
    ),
    "rooster_reported": lambda d, n: (
        f"{n.cap(d['seat'])} " + ("did the rooster call." if d["performed"] else "chickened out.")
    ),
    "veto_slapped": lambda d, n: f"{n.cap(d['by'])} slapped the VETO on {n(d['target'])}!",
    "veto_served": lambda d, n: f"{n.cap(d['seat'])} skipped a turn for the VETO.",
}


# Commands --------------------------------------------------------------------------------------


def command_text(data: dict[str, Any], name: Namer) -> str:
    """A command a seat may send (its JSON shape), as the words on its button."""
    kind = data.get("type", "")
    if kind == "play":
        text = f"Play {describe(data['card'])}"
        parts = []
        if data.get("colour"):
            parts.append(f"call {colour_word(data['colour'])}")
        if data.get("give"):
            parts.append(f"give away {colour_word(data['give'])}")
        if data.get("towers"):
            parts.append("grab " + " and ".join(data["towers"]))
        if data.get("rule"):
            parts.append(f"house rule {rule_words(data['rule'])}")
        if parts:
            text += ": " + ", ".join(parts)
        return text + (" and say UNO" if data.get("uno") else "")
    simple = {
        "draw": "Draw a card",
        "pass": "Keep it and pass",
        "call_uno": "Say UNO!",
        "challenge": "Challenge the Wild Draw 4",
        "accept": "Accept: draw 4",
        "deal": "Deal the next hand",
        "spin": "Spin the wheel",
        "claim_uno_spin": "Claim the UNO Spin!",
        "block": "Block it with your tower",
        "take": "Take it",
    }
    if kind in simple:
        return simple[kind]
    if kind == "catch":
        return f"Catch {name(data['seat'])}: no UNO!"
    if kind in ("choose_colour", "name_colour"):
        return colour_word(data["colour"]).capitalize()
    if kind == "veto":
        return f"VETO {name(data['seat'])}"
    if kind in ("keep", "keep_card"):
        text = f"Keep {describe(data['card'])}"
        return text + (" and say UNO" if data.get("uno") else "")
    if kind == "discard":
        return f"Discard {describe(data['card'])}"
    if kind == "report_joke":
        return "Someone laughed" if data.get("laughed") else "Nobody laughed"
    if kind == "report_rooster":
        return "Rooster call done" if data.get("performed") else "Chickened out: draw 4"
    if kind == "wheel_discard":
        return f"Discard {cards_words(data.get('cards'))}"
    return kind.replace("_", " ").capitalize()


def rule_words(rule: str) -> str:
    """A VETO house rule's name in words."""
    if rule.startswith("text:"):
        return f"“{rule[5:]}”"
    return rule.replace("_", " ")
