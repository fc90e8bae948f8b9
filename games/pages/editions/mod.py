"""UNO Mod at the table: the Mod card, a wild that gives away every card of one colour."""

from __future__ import annotations

from typing import Any, ClassVar

from games.pages.editions.base import Face
from games.pages.editions.classic import Classic
from games.pages.editions.words import Namer, Words, colour_word, count


def _gifts(d: dict[str, Any], name: Namer) -> str:
    counts: dict[int, int] = {}
    for to, _card in d.get("gifts") or []:
        counts[to] = counts.get(to, 0) + 1
    given = ", ".join(f"{count(n)} to {name(to)}" for to, n in counts.items())
    return f"{name.cap(d['seat'])} gave away every {colour_word(d['colour'])} card: {given}."


class Mod(Classic):
    name = "mod"
    title = "UNO Mod"
    summary = (
        "Classic UNO with one more wild: the Mod card.",
        "Play a Mod card and name a colour of your hand to give away: starting with the "
        "player on your left and going round, each opponent gets one card of that colour "
        "until you have none left. You also choose the colour in play, as with any wild.",
        "A Mod card turned up to start is a plain wild: the first player chooses the colour.",
    )
    events: ClassVar[dict[str, Words]] = {**Classic.events, "cards_given": _gifts}
    card_help: ClassVar[dict[str, str]] = {
        **Classic.card_help,
        "Mod": "gives away every card of the colour you name, one to each opponent in turn, "
        "starting on your left; you also choose the colour in play.",
    }
    faces: ClassVar[dict[str, Face]] = {**Classic.faces, "WM": Face("⇶", "Mod")}

    def play_parts(self, data: dict[str, Any], name: Namer) -> list[str]:
        parts = super().play_parts(data, name)
        if data.get("give"):
            parts.append(f"give away {colour_word(data['give'])}")
        return parts


EDITION = Mod()
