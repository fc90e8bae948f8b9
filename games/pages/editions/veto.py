"""UNO VETO and Wild Customizable at the table: the VETO card anyone may slap on a player,
and wild cards with house rules written on them (the game's options)."""

from __future__ import annotations

import re
from typing import Any, ClassVar

from django import forms

from games.pages.editions.base import PLAYER_ROWS, Face, SetUpPart, SetUpTable, player_field
from games.pages.editions.classic import DRAW_REASONS, Classic, drawn
from games.pages.editions.words import Namer, Words, cards_words, colour_word, target
from rules import RuleError
from rules.cards import describe
from rules.variants import get_variant
from rules.variants.veto.events import WC

CUSTOMIZABLE_CARDS = 3  # a deck has up to three Wild Customizable cards
RULE_LENGTH = 200  # the longest house rule the rules take

# The rulebook's thought-starters (the names the rules take), in a few words each: the full
# rule is shown at the table when the card is played.
THOUGHT_STARTERS = {
    "draw_until_colour": "Next player draws until a colour you name",
    "discard_wilds": "Everyone else discards their wild cards",
    "three_if_stuck": "Next player takes three if they cannot play",
    "extra_turn": "Take an extra turn",
    "seven_cards": "Next player draws or discards to exactly 7 cards",
    "three_cards": "Everyone draws or discards to exactly 3 cards",
    "face_up": "Everyone plays face up until your next turn",
    "joke": "Tell a joke: a laugh and you discard down to one card",
    "elbows": "Next player may not bend their elbows until someone says UNO",
    "rooster": "Next player does a rooster call or draws 4",
}
BLANK = "blank"
TEXT = "text:"

VETO_DRAWS = {
    **DRAW_REASONS,
    "draw_until_colour": " (house rule: draw until the colour)",
    "three_if_stuck": " (house rule: stuck)",
    "house_rule": " (house rule)",
    "joke": " (nobody laughed)",
    "rooster": " (chickened out)",
}


def rule_words(rule: str) -> str:
    """A house rule of a play (its name or "text:...") in words."""
    if rule.startswith(TEXT):
        return f"“{rule[len(TEXT) :]}”"
    if rule == BLANK:
        return "none (a plain wild)"
    return THOUGHT_STARTERS.get(rule, rule.replace("_", " ")).lower()


def _discarded(d: dict[str, Any], name: Namer) -> str:
    return f"{name.cap(d['seat'])} discarded {cards_words(d.get('cards'))}."


def _house_rules_drawn(d: dict[str, Any], name: Namer) -> str:
    """The house rules of the Wild Customizable cards a draw brought (a referee's replay: the
    table's log leaves this event out, as it follows every draw)."""
    rules = d.get("rules")
    if not rules:
        return f"{name.cap(d['seat'])} drew no Wild Customizable card."
    words = "; ".join(rule_words(rule) for rule in rules)
    cards = (
        "a Wild Customizable card" if len(rules) == 1 else f"{len(rules)} Wild Customizable cards"
    )
    return f"{name.cap(d['seat'])} drew {cards}, house rule: {words}."


def _keep(d: dict[str, Any], name: Namer) -> str:
    return f"Keep {describe(d['card'])}" + (" and say UNO" if d.get("uno") else "")


class Veto(Classic):
    name = "veto"
    title = "UNO VETO"
    summary = (
        "Classic UNO in purple, green, orange and yellow, with a VETO card and Wild "
        "Customizable cards.",
        "The VETO card lies in the middle. Anyone may slap it on a player who talks politics "
        "at the table: that player skips their next turn, then the VETO goes back to the "
        "middle for the next offender.",
        "A Wild Customizable card is a wild with a house rule written on it, chosen when the "
        "game is set up (or written when it is played). Play it, choose the colour, and the "
        "rule happens.",
    )
    events: ClassVar[dict[str, Words]] = {
        **Classic.events,
        "choice_offered": lambda d, n: (
            f"{n.cap(d['seat'])} {Veto.pending.get(d['choice'], d['choice'])}."
        ),
        "cards_drawn": lambda d, n: drawn(d, n, VETO_DRAWS),
        "customizable_dealt": lambda d, n: "The Wild Customizable cards were dealt.",
        "house_rules_drawn": lambda d, n: _house_rules_drawn(d, n),
        "customizable_played": lambda d, n: (
            f"{n.whose_cap(d['seat'])} house rule: " + (d.get("text") or "none (a plain wild)")
        ),
        "cards_discarded": _discarded,
        "discards_owed": lambda d, n: _owed(d["queue"], n),
        "colour_named": lambda d, n: (
            f"{n.cap(d['seat'])} named {colour_word(d['colour'])}: "
            f"{n(d['victim'])} draws until one comes."
        ),
        "stuck_rule_set": lambda d, n: f"If {n(d['seat'])} cannot play next turn, they take three.",
        "stuck_checked": lambda d, n: (
            f"{n.cap(d['seat'])} "
            + ("could not play and takes three cards." if d["stuck"] else "can play.")
        ),
        "hands_shown": lambda d, n: f"Every hand is face up until {n.whose(d['seat'])} next turn.",
        "hands_hidden": lambda d, n: "The hands are face down again.",
        "joke_reported": lambda d, n: (
            f"{n.whose_cap(d['seat'])} joke: "
            + ("someone laughed." if d["laughed"] else "nobody laughed.")
        ),
        "rooster_reported": lambda d, n: (
            f"{n.cap(d['seat'])} "
            + ("did the rooster call." if d["performed"] else "chickened out.")
        ),
        "veto_slapped": lambda d, n: f"{n.cap(d['by'])} slapped the VETO on {n(d['target'])}!",
        "veto_served": lambda d, n: f"{n.cap(d['seat'])} skipped a turn for the VETO.",
    }
    commands: ClassVar[dict[str, Words]] = {
        **Classic.commands,
        "veto": lambda d, n: f"Slap the VETO on {n(target(d))}",
        "name_colour": lambda d, n: colour_word(d["colour"]).capitalize(),
        "discard": lambda d, n: f"Discard {describe(d['card'])}",
        "report_joke": lambda d, n: "Someone laughed" if d.get("laughed") else "Nobody laughed",
        "report_rooster": lambda d, n: (
            "Rooster call done" if d.get("performed") else "Chickened out: draw 4"
        ),
        "keep_card": _keep,
    }
    quiet = Classic.quiet | {"house_rules_drawn", "customizable_dealt"}
    buttons = (
        *Classic.buttons[:-1],
        "name_colour",
        "report_joke",
        "report_rooster",
        "deal",
        "veto",
    )
    help: ClassVar[dict[str, str]] = {
        **Classic.help,
        "veto": "The VETO card: slap it on a player who talks politics at the table. They "
        "skip their next turn, then the card goes back to the middle.",
        "name_colour": "Your house rule: name a colour, and the next player draws until they "
        "draw a card of it.",
        "report_joke": "Your house rule: tell a joke out loud, then say honestly whether "
        "anyone laughed (a laugh: discard down to one card; silence: draw four).",
        "report_rooster": "Your house rule: do your best rooster call, or chicken out and "
        "draw four.",
    }
    card_help: ClassVar[dict[str, str]] = {
        **Classic.card_help,
        "Wild Customizable": "a wild with a house rule: choose the colour, and the rule "
        "written on it happens.",
    }
    pending: ClassVar[dict[str, str]] = {
        **Classic.pending,
        "name_colour": "names a colour (house rule)",
        "discard": "discards a card (house rule)",
        "joke": "tells a joke (house rule)",
        "keep_card": "keeps one card (the joke)",
        "rooster": "does a rooster call (house rule)",
    }
    your_move: ClassVar[dict[str, str]] = {
        **Classic.your_move,
        "name_colour": "name a colour (house rule)",
        "discard": "discard a card (house rule)",
        "joke": "tell a joke, then say whether anyone laughed",
        "keep_card": "keep one card (the joke)",
        "rooster": "do your best rooster call, or chicken out",
    }
    faces: ClassVar[dict[str, Face]] = {**Classic.faces, "WC": Face("✎", "Wild Customizable")}

    def play_parts(self, data: dict[str, Any], name: Namer) -> list[str]:
        parts = super().play_parts(data, name)
        if data.get("rule"):
            parts.append(f"house rule {rule_words(data['rule'])}")
        return parts

    def lines(self, edition: dict[str, Any], name: Namer) -> list[str]:
        if "veto_on" not in edition:
            return []
        on = edition["veto_on"]
        lines = ["The VETO card lies in the middle." if on is None else f"VETO on {name(on)}."]
        for rule in edition.get("house_rules") or []:
            if rule["text"]:
                lines.append(f"House rule: {rule['text']}")
        if edition.get("discards_owed"):
            lines.append(_owed(edition["discards_owed"], name))
        return lines

    def badges(self, edition: dict[str, Any], seat: int) -> list[str]:
        return ["VETO on them"] if edition.get("veto_on") == seat else []

    # Setting up a position: where the VETO card lies, the house rules and their moments ----

    setup_moments = (
        ("name_colour", "Names the colour the next player draws to (the house rule on top)"),
        ("joke", "Tells a joke (the house rule on top): did anyone laugh?"),
        ("keep_card", "Someone laughed at their joke: keeps one card, discards the rest"),
        ("rooster", "Does the rooster call, or chickens out (the house rule on top)"),
        ("discard", "Discards down to 7 or 3 cards (the house rule on top), one card at a time"),
    )
    setup_legend = "the VETO card and the house rules"

    def setup_fields(self) -> dict[str, forms.Field]:
        fields: dict[str, forms.Field] = {
            "veto": player_field(
                "Who the VETO card was slapped on (they skip their next turn)",
                nobody="Nobody: it lies in the middle",
                what="who the VETO card is on",
            )
        }
        fields["face_up"] = player_field(
            "Every hand face up until this player's next turn (they played the face-up house rule)",
            nobody="Nobody: hands are hidden",
            what="whose next turn turns the hands down",
        )
        fields["played"] = player_field(
            "For a discard down to 3 cards: who played the Wild Customizable card (everyone "
            "discards in turn from them)",
            nobody="(not a discard down to 3)",
            what="who played the card",
        )
        options = self.option_fields()
        fields["cards"] = options.pop("cards")
        for n in range(1, CUSTOMIZABLE_CARDS + 1):
            fields[f"rule_{n}"] = options.pop(f"rule_{n}")
            fields[f"own_{n}"] = options.pop(f"own_{n}")
            fields[f"where_{n}"] = forms.ChoiceField(
                label=f"Where card {n} is (asked when the cards' house rules differ)",
                choices=WHERE,
                required=False,
                error_messages={"invalid_choice": f"Where card {n} is: choose from the list."},
            )
        return fields

    def setup_part(self, values: dict[str, Any], moment: str, table: SetUpTable) -> SetUpPart:
        row = values.get("veto")
        problem = table.off_table(row)
        if problem:
            return SetUpPart(errors={"veto": problem})
        played = values.get("played")
        problem = table.off_table(played)
        if problem:
            return SetUpPart(errors={"played": problem})
        if played is not None and moment != "discard":
            return SetUpPart(
                errors={
                    "played": "Who played the card is only for a discard down to 3 cards: "
                    "choose that above, or leave it empty."
                }
            )
        face_up = values.get("face_up")
        problem = table.off_table(face_up)
        if problem:
            return SetUpPart(errors={"face_up": problem})
        if face_up is not None and table.seat(face_up) == table.turn:
            name = table.names[table.turn]
            return SetUpPart(
                errors={
                    "face_up": f"{name} plays now: the hands went face down as {name}'s turn began."
                }
            )
        chosen, errors = self.options_from(values)
        if errors:
            return SetUpPart(errors=errors)
        try:
            options = get_variant(self.name).parse_options(chosen)
        except RuleError as exc:
            detail = str(exc).split(": ", 1)[-1] if str(exc).startswith("options") else str(exc)
            field = self.option_error_field(str(getattr(exc, "field", "") or ""))
            return SetUpPart(errors={field: detail[:1].upper() + detail[1:]})
        rules: list[str] = list(dict(options)["customizable"])
        if face_up is not None and "face_up" not in rules:
            return SetUpPart(
                errors={
                    "face_up": "No Wild Customizable card of this game has the face-up house "
                    "rule: give one card that rule, or clear this."
                }
            )
        start = self.state_as_a_hand_starts(table, options)
        extra = {**start, "veto": table.seat(row)}
        shown: tuple[int, ...] = ()
        if face_up is not None:
            extra["showing"] = [table.seat(face_up)]
            shown = tuple(range(len(table.names)))
        if start["tracked"]:
            placed = _placed(values, rules, table)
            if isinstance(placed, SetUpPart):
                return placed
            extra["held"], extra["discard_rules"], on_top = placed
        else:
            on_top = rules[0] if table.top == WC and rules else None
        if moment in HOUSE_RULE_MOMENTS:
            problem = _house_rule_moment(moment, on_top, table)
            if problem:
                return SetUpPart(errors={"moment": problem})
            extra["player"] = table.before if moment == "rooster" else table.turn
        elif moment == "discard":
            owed = _discards_owed(on_top, table, table.seat(played))
            if isinstance(owed, SetUpPart):
                return owed
            extra["player"], extra["queue"] = owed
        # Where the rules' refusal of this state is told: on what the referee chose last.
        if moment in HOUSE_RULE_MOMENTS or moment == "discard":
            refused_on: str | None = "moment"
        elif face_up is not None:
            refused_on = "face_up"
        elif row is not None:
            refused_on = "veto"
        else:
            refused_on = "where_1" if start["tracked"] else None
        return SetUpPart(
            extra=extra if extra != start else None,
            options=chosen if rules != [BLANK] * CUSTOMIZABLE_CARDS else None,
            refused_on=refused_on,
            shown=shown,
        )

    # Options: the Wild Customizable cards and their house rules ---------------------------

    def option_fields(self) -> dict[str, forms.Field]:
        choices = [("", "No rule: a plain wild"), *THOUGHT_STARTERS.items()]
        fields: dict[str, forms.Field] = {
            "cards": forms.TypedChoiceField(
                label="Wild Customizable cards in the deck",
                choices=[(n, str(n)) for n in range(CUSTOMIZABLE_CARDS + 1)],
                coerce=int,
                empty_value=None,
                required=False,
                initial=CUSTOMIZABLE_CARDS,
                error_messages={
                    "invalid_choice": f"A deck has 0 to {CUSTOMIZABLE_CARDS} Wild "
                    "Customizable cards."
                },
            )
        }
        for n in range(1, CUSTOMIZABLE_CARDS + 1):
            fields[f"rule_{n}"] = forms.ChoiceField(
                label=f"House rule of card {n}",
                choices=choices,
                required=False,
                error_messages={
                    "invalid_choice": f"House rule of card {n}: choose one from the list."
                },
            )
            fields[f"own_{n}"] = forms.CharField(
                label=f"…or your own house rule for card {n}",
                required=False,
                max_length=RULE_LENGTH,
                error_messages={
                    "max_length": f"Your house rule for card {n} is too long: at most "
                    f"{RULE_LENGTH} characters.",
                    "null_characters_not_allowed": f"Your house rule for card {n} has a "
                    "character that cannot be stored.",
                },
            )
        return fields

    def options_from(self, values: dict[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
        cards = values.get("cards")
        if cards is None:
            cards = CUSTOMIZABLE_CARDS
        rules: list[str] = []
        errors: dict[str, str] = {}
        for n in range(1, CUSTOMIZABLE_CARDS + 1):
            rule, own = values.get(f"rule_{n}") or "", (values.get(f"own_{n}") or "").strip()
            if rule and own:
                errors[f"own_{n}"] = (
                    f"Card {n}: choose a house rule from the list or write your own, not both."
                )
            if n > cards:
                if rule or own:
                    errors[f"rule_{n}"] = (
                        f"The deck has {cards} Wild Customizable card{'s' * (cards != 1)}: "
                        f"leave the house rule of card {n} empty, or put more cards in."
                    )
                continue
            rules.append(TEXT + own if own else rule or BLANK)
        return {"customizable": rules}, errors

    def option_error_field(self, field: str) -> str:
        match = re.fullmatch(r"options\.customizable\[(\d+)\]", field)
        if match:
            return f"own_{int(match.group(1)) + 1}"
        return "cards"

    def option_lines(self, options: tuple[tuple[str, Any], ...]) -> list[str]:
        rules = dict(options).get("customizable")
        if rules is None:
            return []
        if not rules:
            return ["No Wild Customizable cards in the deck."]
        lines = [f"{len(rules)} Wild Customizable card{'s' * (len(rules) != 1)} in the deck:"]
        lines += [f"card {i}: {rule_words(rule)}" for i, rule in enumerate(rules, 1)]
        return lines


# Where a Wild Customizable card is, on the set-up form: told only when the cards differ.
WHERE = [
    ("", "In the draw pile (or not said)"),
    ("top", "On top of the discard pile"),
    ("under", "Under the top card"),
    *((f"p{n}", f"In Player {n}'s hand") for n, _ in PLAYER_ROWS),
]
# The house rules' moments on the set-up form: the rule on the card on top, and what the
# player does, in words.
HOUSE_RULE_MOMENTS = {
    "name_colour": ("draw_until_colour", "naming the colour the next player draws to"),
    "joke": ("joke", "telling a joke"),
    "keep_card": ("joke", "keeping one card after a laugh at the joke"),
    "rooster": ("rooster", "the rooster call"),
}


def _placed(
    values: dict[str, Any], rules: list[str], table: SetUpTable
) -> tuple[list[list[str]], list[str], str | None] | SetUpPart:
    """Which house rule each hand and the discard pile hold, from where the form says each
    Wild Customizable card is (``where_<n>``), when the cards' rules differ: the rules held by
    each player (sorted), those in the discard pile (bottom first) and the rule on top (None:
    no Customizable card on top). A ``SetUpPart`` with the errors when the places do not
    match the cards described."""
    places = {n: values.get(f"where_{n}") or "" for n in range(1, CUSTOMIZABLE_CARDS + 1)}
    errors = {}
    for n, place in places.items():
        if place and n > len(rules):
            errors[f"where_{n}"] = (
                f"The deck has {len(rules)} Wild Customizable card{'s' * (len(rules) != 1)}: "
                f"leave where card {n} is empty."
            )
        elif place.startswith("p") and int(place[1:]) > len(table.names):
            errors[f"where_{n}"] = f"There are {len(table.names)} players: choose one of them."
    if errors:
        return SetUpPart(errors=errors)
    at = {place: [n for n, p in places.items() if p == place] for place in set(places.values())}
    wanted = [("top", int(table.top == WC), "on top of the discard pile")]
    wanted.append(("under", table.under.count(WC), "under the top card"))
    wanted += [
        (f"p{seat + 1}", hand.count(WC), f"in {table.names[seat]}'s hand")
        for seat, hand in enumerate(table.hands)
    ]
    for place, count, words in wanted:
        said = len(at.get(place, []))
        if said != count:
            cards = f"{count} Wild Customizable card{'s' * (count != 1)}"
            return SetUpPart(
                errors={
                    "where_1": f"There {'is' if count == 1 else 'are'} {cards} {words}, and "
                    f"{said} said to be there: the cards' house rules differ, so say where "
                    "each card is."
                }
            )
    held = [
        sorted(rules[n - 1] for n in at.get(f"p{seat + 1}", [])) for seat in range(len(table.names))
    ]
    on_top = [rules[n - 1] for n in at.get("top", [])]
    discard = [rules[n - 1] for n in at.get("under", [])] + on_top
    return held, discard, (on_top[0] if on_top else None)


def _quoted(rule: str) -> str:
    """A house rule in words, in quotation marks (a rule of the table's own has them)."""
    said = rule_words(rule)
    return said if rule.startswith(TEXT) else f"“{said[:1].upper()}{said[1:]}”"


def _house_rule_moment(moment: str, on_top: str | None, table: SetUpTable) -> str | None:
    """What is wrong with a house rule's moment on the set-up form, in words (None: nothing):
    it comes right after the Wild Customizable card with that rule, which is on top."""
    rule, doing = HOUSE_RULE_MOMENTS[moment]
    wanted = f"the house rule {_quoted(rule)}"
    if table.top != WC:
        return (
            f"{doing.capitalize()} comes right after a Wild Customizable card with {wanted}: "
            f"the top card is the {describe(table.top)}."
        )
    if on_top != rule:
        return (
            f"{doing.capitalize()} comes after a Wild Customizable card with {wanted}; the one "
            f"on top has {_quoted(on_top or BLANK)}. Choose its house rule below."
        )
    held = len(table.hands[table.turn])
    if moment == "keep_card" and held < 2:
        return (
            f"{table.names[table.turn]} holds {held} card{'s' * (held != 1)}: after a laugh at "
            "the joke a player with one card keeps it, and nobody is asked which."
        )
    return None


def _discards_owed(
    on_top: str | None, table: SetUpTable, played: int | None
) -> tuple[int, list[list[int]]] | SetUpPart:
    """Who played the Wild Customizable card and the discards still owed (seat and size, in
    turn), for a player discarding down to 7 or 3 cards; or the part with the error, in words.
    Down to 7: the player before played it. Down to 3: ``played`` did (the form asks), those
    with fewer drew up to 3 at once, and in turn from them, those before the player discarding
    now are down to 3 already."""
    if table.top != WC or on_top not in ("seven_cards", "three_cards"):
        rules = f"{_quoted('seven_cards')} or {_quoted('three_cards')}"
        said = (
            f"the top card is the {describe(table.top)}"
            if table.top != WC
            else f"the one on top has {_quoted(on_top or BLANK)}. Choose its house rule below"
        )
        return SetUpPart(
            errors={
                "moment": f"Discarding down to 7 or 3 cards comes right after a Wild "
                f"Customizable card with the house rule {rules}: {said}."
            }
        )
    names, hands, turn = table.names, table.hands, table.turn
    size = 7 if on_top == "seven_cards" else 3
    if len(hands[turn]) <= size:
        return SetUpPart(
            errors={
                "moment": f"{names[turn]} holds {len(hands[turn])} card"
                f"{'s' * (len(hands[turn]) != 1)}: down to {size} there is nothing to "
                f"discard (a player with fewer draws up to {size} at once)."
            }
        )
    if size == 7:
        if played is not None and played != table.before:
            return SetUpPart(
                errors={
                    "played": f"Down to 7 cards, the player who discards is the one after "
                    f"whoever played the card: {names[table.before]}. Choose them, or leave "
                    "it empty."
                }
            )
        return table.before, [[turn, 7]]
    if played is None:
        return SetUpPart(
            errors={
                "played": "Say who played the Wild Customizable card: everyone discards "
                "down to 3 in turn from them, and play goes on after them."
            }
        )
    n = len(names)
    step = 1 if (turn - table.before) % n == 1 else -1
    order = [(played + step * k) % n for k in range(n)]
    done = order[: order.index(turn)]
    for seat in order:
        held = len(hands[seat])
        if held < 3:
            return SetUpPart(
                errors={
                    "moment": f"{names[seat]} holds {held} card{'s' * (held != 1)}: "
                    "with everyone down to 3, a player with fewer draws up to 3 at once."
                }
            )
        if seat in done and held != 3:
            return SetUpPart(
                errors={
                    "moment": f"{names[seat]} holds {held} cards, but discards down to 3 "
                    f"before {names[turn]} does (in turn from {names[played]}, who played "
                    "the card)."
                }
            )
    return played, [[seat, 3] for seat in order[len(done) :] if len(hands[seat]) > 3]


EDITION = Veto()


def _owed(queue: list[list[int]] | tuple[tuple[int, int], ...], name: Namer) -> str:
    """Who must still discard down to how many cards, in turn ("Bob discards down to 7 cards,
    then Cy down to 3")."""
    parts = [f"{name(seat)} down to {size} card{'s' if size != 1 else ''}" for seat, size in queue]
    return "Discarding by the house rule: " + ", then ".join(parts) + "."
