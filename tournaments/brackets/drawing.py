"""The tournament's bracket as a picture: an inline SVG drawn on the server from the
tournament's detail (``selectors.tournament_detail``), one column a round, one box a table with
its players in the order they placed, a tick beside who went on, and a line from a table to
the table its players went on to. In players' words: names, placings, "bye", never a seat
number or a code. Styled by site.css (``.bracket``), light and dark alike."""

from __future__ import annotations

from typing import Any

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

COLUMN = 210  # a round's column, box and gap
BOX = 180
LINE = 22  # a player's line in a box
HEAD = 26  # a box's heading
GAP = 14  # between boxes
TOP = 34  # the column headings

# A decided table's note beside "Table N", short enough for the box.
DECIDED = {
    "award": "awarded",
    "time": "time called",
    "absent": "absences",
}


def _went_on(detail: dict[str, Any]) -> dict[int, set[str]]:
    """Who went on from each round: the players seated (or given a bye) in the next one; from
    the final, its winner. Nobody goes on to a Swiss round: every player plays each one."""
    rounds = detail["rounds"]
    out: dict[int, set[str]] = {}
    for i, rnd in enumerate(rounds):
        if i + 1 < len(rounds) and rounds[i + 1]["kind"] == "swiss":
            out[rnd["number"]] = set()
        elif i + 1 < len(rounds):
            nxt = rounds[i + 1]
            out[rnd["number"]] = {p for t in nxt["tables"] for p in t["players"]} | set(nxt["byes"])
        elif detail["winner"]:
            out[rnd["number"]] = {detail["winner"]}
        else:
            out[rnd["number"]] = set()
    return out


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def bracket_svg(detail: dict[str, Any]) -> SafeString:
    """The bracket of ``detail`` as an ``<svg>`` element (empty before round 1 is seated)."""
    rounds = detail["rounds"]
    if not rounds:
        return mark_safe("")
    went_on = _went_on(detail)
    parts: list[str] = []
    where: dict[tuple[int, str], tuple[float, float]] = {}  # (round, player) -> box's left mid
    boxes: list[tuple[int, list[str], float, float, float]] = []  # round, players, x, y, height
    height = TOP
    for col, rnd in enumerate(rounds):
        x = 8 + col * COLUMN
        heading = "Final table" if rnd["kind"] == "final" else f"Round {rnd['number']}"
        parts.append(
            f'<text class="bracket-round" x="{x}" y="20">{escape(heading)}'
            f"{' (playing)' if rnd['status'] == 'playing' else ''}</text>"
        )
        y = TOP
        entries: list[tuple[str, list[str], str]] = []  # heading, names, note
        for table in rnd["tables"]:
            finished = table["status"] == "finished"
            names = list(table["placings"]) if finished else list(table["players"])
            label = f"Table {table['number']}"
            note = DECIDED.get(table["decided_by"], "") if finished else "playing"
            entries.append((label, names, note))
        if rnd["byes"]:
            entries.append(("Bye", list(rnd["byes"]), ""))
        for label, names, note in entries:
            box_height = HEAD + LINE * len(names) + 6
            finished = note != "playing"
            parts.append(
                f'<g class="bracket-table{" is-playing" if not finished else ""}">'
                f'<rect x="{x}" y="{y}" width="{BOX}" height="{box_height}" rx="6"/>'
                f'<text class="bracket-label" x="{x + 8}" y="{y + 18}">{escape(label)}'
                f"{escape(' · ' + note) if note else ''}</text>"
            )
            for i, name in enumerate(names):
                line_y = y + HEAD + LINE * i + 15
                on = name in went_on.get(rnd["number"], set())
                place = f"{_ordinal(i + 1)} " if finished and label != "Bye" else ""
                mark = " ✓" if on else ""
                parts.append(
                    f'<text x="{x + 8}" y="{line_y}"{" class=bracket-on" if on else ""}>'
                    f"{escape(place + name)}{mark}</text>"
                )
            parts.append("</g>")
            for name in names:
                where[(rnd["number"], name)] = (x, y + box_height / 2)
            boxes.append((rnd["number"], names, x, y, box_height))
            y += box_height + GAP
        height = max(height, y)
    # A line from each box to every box of the next round one of its players went on to.
    numbers = [r["number"] for r in rounds]
    lines: set[tuple[float, float, float, float]] = set()
    for number, names, x, y, box_height in boxes:
        later = numbers.index(number) + 1
        if later >= len(numbers):
            continue
        for name in names:
            target = where.get((numbers[later], name))
            if target is not None and name in went_on.get(number, set()):
                lines.add((x + BOX, y + box_height / 2, target[0], target[1]))
    connectors = [
        f'<path class="bracket-line" d="M{x1} {y1} H{(x1 + x2) / 2} V{y2} H{x2}"/>'
        for x1, y1, x2, y2 in sorted(lines)
    ]
    width = 16 + len(rounds) * COLUMN - (COLUMN - BOX)
    title = escape(f"Bracket of {detail['name']}")
    svg = (
        f'<svg class="bracket" xmlns="http://www.w3.org/2000/svg" role="img" '
        f'aria-labelledby="bracket-title" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}"><title id="bracket-title">{title}</title>'
        + "".join(connectors)
        + "".join(parts)
        + "</svg>"
    )
    return mark_safe(svg)  # every name and word in it went through escape()
