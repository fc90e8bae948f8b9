"""UNO Power Grab at the table: four Power Towers that block action cards, and the cards that
grab them."""

from __future__ import annotations

from typing import Any, ClassVar

from django import forms

from games.pages.editions.base import Face, SetUpPart, SetUpTable, player_field
from games.pages.editions.classic import DRAW_REASONS, Classic, drawn
from games.pages.editions.words import Namer, Words, count
from rules.cards import card_info, describe
from rules.variants.power_grab.variant import BLOCKED_BY

# What each tower blocks (the rulebook's Power Towers).
TOWER_BLOCKS = {"U": "Draw One", "N": "Draw Two", "O": "Wild Draw 4", "!": "Skip"}
# Each tower's set-up field (``tower_<key>``), in the order of the rules' towers.
TOWER_KEYS = {"U": "u", "N": "n", "O": "o", "!": "bang"}

GRAB_DRAWS = {**DRAW_REASONS, "draw_one": " (Draw One)"}


def _towers(d: dict[str, Any], name: Namer) -> str:
    """Who grabbed which towers, and from whom ("from Bob", "from the middle")."""
    previous = d.get("previous") or [None] * len(d["towers"])
    parts = [
        f"the {tower} tower " + ("from the middle" if held is None else f"from {name(held)}")
        for tower, held in zip(d["towers"], previous, strict=False)
    ]
    return f"{name.cap(d['seat'])} grabbed {' and '.join(parts)}."


def _instant(d: dict[str, Any], name: Namer) -> str:
    kept = d.get("kept")
    what = f" kept {describe(kept)} and" if kept else ""
    n = len(d.get("discarded") or [])
    return f"Instant UNO! {name.cap(d['seat'])}{what} discarded {count(n)}."


def _keep(d: dict[str, Any], name: Namer) -> str:
    return f"Keep {describe(d['card'])}" + (" and say UNO" if d.get("uno") else "")


class PowerGrab(Classic):
    name = "power_grab"
    title = "UNO Power Grab"
    summary = (
        "Classic UNO with Draw One cards and four Power Towers: U, N, O and !. Whoever holds "
        "a tower may block one kind of card played at them: U blocks a Draw One, N a Draw "
        "Two, O a Wild Draw 4 and ! a Skip.",
        "Play a number card with a Power Icon (the letter in its corner) to take that tower, "
        "from the middle or from another player. A Grab 2 Towers card takes any two towers "
        "and goes only on its colour or on another Grab 2 Towers; a Wild Grab a Tower takes "
        "one and is also a wild.",
        "Hold all four towers for Instant UNO: keep one card, discard the rest, and the "
        "towers go back to the middle.",
    )
    events: ClassVar[dict[str, Words]] = {
        **Classic.events,
        "choice_offered": lambda d, n: (
            f"{n.cap(d['seat'])} {PowerGrab.pending.get(d['choice'], d['choice'])}."
        ),
        "cards_drawn": lambda d, n: drawn(d, n, GRAB_DRAWS),
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
    }
    commands: ClassVar[dict[str, Words]] = {
        **Classic.commands,
        "block": lambda d, n: "Block it with your tower",
        "take": lambda d, n: "Take it",
        "keep": _keep,
    }
    buttons = (*Classic.buttons[:-1], "block", "take", "deal")
    help: ClassVar[dict[str, str]] = {
        **Classic.help,
        "block": "You hold the tower that protects against this card: block it and you "
        "neither draw nor lose your turn.",
        "take": "Let the card hit you as usual, keeping your tower.",
    }
    card_help: ClassVar[dict[str, str]] = {
        **Classic.card_help,
        "Draw One": "the next player draws one and loses a turn (the U tower blocks it).",
        "Grab 2 Towers": "grab any two towers, from the middle or from other players; it "
        "goes only on its colour or on another Grab 2 Towers.",
        "Wild Grab a Tower": "grab any one tower, and choose the colour in play.",
        "Power Icons (U, N, O, !)": "on some number cards: playing one takes that tower.",
    }
    pending: ClassVar[dict[str, str]] = {
        **Classic.pending,
        "block": "blocks with a tower or takes the card",
        "keep": "keeps one card (Instant UNO)",
    }
    your_move: ClassVar[dict[str, str]] = {
        **Classic.your_move,
        "block": "block with your tower, or take the card",
        "keep": "keep one card (Instant UNO)",
    }
    faces: ClassVar[dict[str, Face]] = {
        **Classic.faces,
        "D1": Face("+1", "Draw One"),
        "G2": Face("♜♜", "Grab 2 Towers"),
        "WG": Face("♜", "Wild Grab a Tower"),
    }
    marks: ClassVar[dict[str, tuple[str, str]]] = {
        icon: (icon, f"{icon} tower") for icon in TOWER_BLOCKS
    }

    def play_parts(self, data: dict[str, Any], name: Namer) -> list[str]:
        parts = super().play_parts(data, name)
        if data.get("towers"):
            parts.append("grab " + " and ".join(data["towers"]))
        return parts

    def lines(self, edition: dict[str, Any], name: Namer) -> list[str]:
        return [
            f"{tower} tower: "
            + ("in the middle" if holder is None else name(holder))
            + f" (blocks {TOWER_BLOCKS.get(tower, 'a card')})"
            for tower, holder in (edition.get("towers") or {}).items()
        ]

    def badges(self, edition: dict[str, Any], seat: int) -> list[str]:
        towers = edition.get("towers") or {}
        return [f"{t} tower" for t, holder in towers.items() if holder == seat]

    # Setting up a position: who holds each tower, and a block to decide --------------------

    setup_moments = (
        ("block", "Blocks the action card on top with a tower, or takes it"),
        ("keep", "Keeps one card and discards the rest, having grabbed the fourth tower"),
    )
    setup_legend = "the Power Towers"

    def setup_fields(self) -> dict[str, forms.Field]:
        return {
            f"tower_{key}": player_field(
                f"The {tower} tower (blocks a {TOWER_BLOCKS[tower]})",
                nobody="By the Play Tray: nobody holds it",
                what="who holds the tower",
            )
            for tower, key in TOWER_KEYS.items()
        }

    def setup_part(self, values: dict[str, Any], moment: str, table: SetUpTable) -> SetUpPart:
        rows = {tower: values.get(f"tower_{key}") for tower, key in TOWER_KEYS.items()}
        errors = {
            f"tower_{TOWER_KEYS[tower]}": problem
            for tower, row in rows.items()
            if (problem := table.off_table(row))
        }
        if errors:
            return SetUpPart(errors=errors)
        towers = [table.seat(row) for row in rows.values()]
        if moment == "keep":
            return _instant_uno(rows, table)
        threat = None
        if moment == "block":
            rank = card_info(table.top).rank
            if rank not in ("D1", "D2", "S"):
                return SetUpPart(
                    errors={
                        "moment": f"A tower blocks a Draw One, a Draw Two or a Skip, not a "
                        f"{describe(table.top)}. (A Wild Draw 4 on the O tower's holder is "
                        "blocked when they challenge it or take it.)"
                    }
                )
            tower = BLOCKED_BY[rank]
            if table.seat(rows[tower]) != table.turn:
                name = table.names[table.turn]
                return SetUpPart(
                    errors={
                        "moment": f"{name} does not hold the {tower} tower, which blocks a "
                        f"{TOWER_BLOCKS[tower]}: say below who holds the towers."
                    }
                )
            # A card that went out on its player's last card still makes the blocker draw.
            threat = [table.top, table.before, not table.hands[table.before]]
        if threat is None and all(seat is None for seat in towers):
            return SetUpPart()
        # The rules' refusals of a block are about the moment chosen.
        return SetUpPart(
            extra={"threat": threat, "towers": towers},
            refused_on="moment" if threat else None,
        )


def _instant_uno(rows: dict[str, int | None], table: SetUpTable) -> SetUpPart:
    """Instant UNO: the player whose turn it is has just grabbed the fourth tower with the card
    on top, holds all four (a tower left empty on the form is theirs) and chooses the card to
    keep."""
    name, seat = table.names[table.turn], table.turn
    others = {
        f"tower_{TOWER_KEYS[tower]}": f"{name} holds all four towers at Instant UNO, not "
        f"{table.names[holder]}: choose {name} or leave it empty."
        for tower, row in rows.items()
        if (holder := table.seat(row)) is not None and holder != seat
    }
    if others:
        return SetUpPart(errors=others)
    held = len(table.hands[seat])
    if held < 2:
        return SetUpPart(
            errors={
                "moment": f"{name} holds {count(held)}: at Instant UNO with one card or none "
                "there is nothing to keep or discard."
            }
        )
    return SetUpPart(extra={"threat": None, "towers": [seat] * 4}, refused_on="moment")


EDITION = PowerGrab()
