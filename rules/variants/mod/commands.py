"""UNO Mod's command: a play that gives a colour away."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rules.commands import PlayCard, _colour, register_play


@register_play
@dataclass(frozen=True, slots=True)
class ModPlay(PlayCard):
    """Play a Mod (``WM``), calling ``colour`` and giving away every card of ``give`` held.
    In the API: ``{"type": "play", "card": "WM", "colour": "B", "give": "G"}``. A Mod played
    holding no coloured card to give is a plain ``PlayCard``."""

    edition: ClassVar[str | None] = "mod"
    edition_field: ClassVar[str | None] = "give"
    refusal: ClassVar[str] = "give is only for the Mod card"
    give: str | None = _colour()
