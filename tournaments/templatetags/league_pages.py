"""Template filters for the league pages: variant titles, scoring in words, ordinals and
placings, so numbers read as words and nothing is told by colour alone."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import template

from games.pages.editions.words import SCORING_SHORT, SCORING_WORDS
from rules.cards import describe
from rules.variants import get_variant, variant_names
from tournaments.leagues.selectors import tournament_roles as roles_of

register = template.Library()


@register.filter
def variant_title(name: str) -> str:
    """``"power_grab"`` as ``"UNO Power Grab"`` (the name itself for an unknown edition)."""
    try:
        return get_variant(name).title
    except KeyError:
        return name


@register.filter
def scoring_words(scoring: str) -> str:
    return SCORING_WORDS.get(scoring, scoring)


@register.simple_tag
def edition_options(variant: str, options: dict | None) -> list[str]:
    """An edition's options for a league's or tournament's games, in words (UNO VETO's house
    rules: "card 1: Tell a joke ..."); nothing for an edition's defaults."""
    from games.pages.editions import edition_for

    if variant not in variant_names() or not options:
        return []
    return edition_for(variant).option_lines(get_variant(variant).parse_options(dict(options)))


@register.filter
def scoring_short(scoring: str) -> str:
    """A scoring in two words: ``"none"`` as ``"no scoring"``."""
    return SCORING_SHORT.get(scoring, scoring)


@register.filter
def ordinal(number: int | None) -> str:
    """1 as ``"1st"``, 2 as ``"2nd"``, 11 as ``"11th"``; nothing for ``None``."""
    if number is None:
        return ""
    if 10 <= number % 100 <= 20:
        suffix = "th"
    else:
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


@register.filter
def placings_short(placings: Sequence[int]) -> str:
    """Games placed 1st, 2nd, 3rd ... as ``"5/3/2"`` (``"–"`` for none)."""
    return "/".join(str(n) for n in placings) if placings else "–"


@register.filter
def placings_words(placings: Sequence[int]) -> str:
    """Games placed 1st, 2nd, 3rd ... in words: ``"1st 5 times, 2nd 3 times"``."""
    parts = [
        f"{ordinal(place)} {count} time{'s' if count != 1 else ''}"
        for place, count in enumerate(placings, start=1)
        if count
    ]
    return ", ".join(parts) if parts else "no games placed"


@register.filter
def cards_in_words(cards: Sequence[str]) -> str:
    """Card codes as words: ``["R7", "W4"]`` as ``"red 7, wild draw four"``."""
    words = []
    for code in cards:
        try:
            words.append(describe(code))
        except ValueError:
            words.append(code)
    return ", ".join(words) if words else "no cards"


def names_and(names: Sequence[str]) -> str:
    """Names in a sentence: ``"Tia"``, ``"Tia and Vic"``, ``"Sam, Tia and Vic"``."""
    names = list(names)
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else "".join(names)


# What each kind of a director's decision did, in words (those against someone say who).
RULING_WORDS = {
    "forfeit": "{who} forfeited",
    "disqualification": "{who} {was} disqualified",
    "no_show": "{who} did not show",
    "time": "time called",
    "absent": "{who} ruled absent",
    "reopened": "table reopened",
    "withdrawn": "result withdrawn (the game was undone)",
    "repaired": "round seated again",
    "cards": "played with cards",
}
PLACED_KINDS = ("forfeit", "disqualification", "no_show", "time", "cards")


@register.filter
def ruling_words(ruling: dict[str, Any]) -> str:
    """A director's decision (as ``tournament_detail`` lists it) in words, after its round and
    table: ``"Vic forfeited; placed 1st Tia, 2nd Vic"``."""
    kind, players = ruling["kind"], list(ruling["players"])
    who = list(ruling.get("against") or ()) or (players if kind == "absent" else [])
    words = RULING_WORDS.get(kind, kind)
    if "{who}" in words:
        words = words.format(
            who=names_and(who) or "a player", was="was" if len(who) < 2 else "were"
        )
    if kind in PLACED_KINDS and players:
        places = ", ".join(f"{ordinal(i)} {name}" for i, name in enumerate(players, start=1))
        words += f"; placed {places}"
    return words


@register.inclusion_tag("tournaments/roles.html", takes_context=True)
def tournament_roles(context: template.Context, tournament_id: int) -> dict[str, Any]:
    """The tournament page's panel of who runs it: its organiser and named referees, and for
    the organiser, the form that names another referee."""
    request = context.get("request")
    user = getattr(request, "user", None)
    roles = roles_of(tournament_id)
    organiser = bool(user and user.is_authenticated and user.pk == roles["organiser_id"])
    return {
        "roles": roles,
        "organiser": organiser,
        "request": request,
        "csrf_token": context.get("csrf_token"),
    }
