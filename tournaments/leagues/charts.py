"""Small charts drawn on the server as inline SVG, so a page needs no chart library and no
JavaScript: a pure function from labelled values to an SVG string.

The SVG is accessible on its own: ``role="img"`` named by its ``<title>`` and ``<desc>``, each
point a ``<circle>`` with its own ``<title>`` (a tooltip, and what a screen reader reads), and
axis labels as text. Strokes and fills use ``currentColor`` so the chart follows the page's
text colour (dark mode included), and points are marked by shape as well as by the line, so
nothing depends on telling colours apart. Pages should still give the numbers as a table too.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape

# The plot area's margins inside the SVG's box: room for the y labels on the left and the x
# labels below.
LEFT, RIGHT, TOP, BOTTOM = 56, 16, 16, 44
MAX_X_LABELS = 12  # more points than this: label every k-th, so the labels never overlap
TICKS = 5  # about this many y ticks
PAD = 0.05  # of the values' span, added above and below before rounding the axis


def nice_step(span: float, ticks: int = TICKS) -> float:
    """A round step (1, 2, 2.5 or 5 times a power of ten) giving about ``ticks`` steps over
    ``span``."""
    if span <= 0:
        return 1.0
    raw = span / ticks
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 2.5, 5, 10):
        if raw <= factor * power:
            return factor * power
    return 10 * power  # pragma: no cover (the loop always returns)


def y_range(values: Sequence[float]) -> tuple[float, float, float]:
    """The y axis: (low, high, step), round numbers around ``values`` with a little room."""
    low, high = min(values), max(values)
    if low == high:  # one value (or all equal): a band of a few units around it
        low, high = low - 1, high + 1
    else:  # room above and below, so no point sits on the x axis
        pad = (high - low) * PAD
        low, high = low - pad, high + pad
    step = nice_step(high - low)
    return math.floor(low / step) * step, math.ceil(high / step) * step, step


def format_number(value: float) -> str:
    """A value as a label: at most two decimals, without trailing zeros (``27.5``, ``25``)."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _attrs(**attributes: object) -> str:
    return " ".join(
        f'{name.rstrip("_").replace("_", "-")}="{escape(str(value))}"'
        for name, value in attributes.items()
    )


def line_chart(
    points: Sequence[tuple[str, float]],
    *,
    title: str,
    description: str = "",
    x_label: str = "",
    y_label: str = "",
    id_prefix: str = "chart",
    width: int = 640,
    height: int = 260,
) -> str:
    """An SVG line chart of ``points`` (label, value), left to right in the order given.

    Each point is one ``<circle>`` whose ``<title>`` reads "label: value". The y axis has
    round ticks with grid lines; the x axis labels the points (every k-th when there are many).
    ``id_prefix`` keeps the ids of the title and description unique when a page has several
    charts. Every text is escaped. With no points, an empty chart that says so.
    """
    title_id, desc_id = f"{id_prefix}-title", f"{id_prefix}-desc"
    parts = [
        f"<svg {_attrs(xmlns='http://www.w3.org/2000/svg', viewBox=f'0 0 {width} {height}')}"
        f" {_attrs(width=width, height=height, role='img', class_='line-chart')}"
        f' aria-labelledby="{escape(title_id)}"'
        + (f' aria-describedby="{escape(desc_id)}"' if description else "")
        + ">",
        f'<title id="{escape(title_id)}">{escape(title)}</title>',
    ]
    if description:
        parts.append(f'<desc id="{escape(desc_id)}">{escape(description)}</desc>')
    left, right = LEFT, width - RIGHT
    top, bottom = TOP, height - BOTTOM
    if not points:
        parts.append(
            f"<text {_attrs(x=width / 2, y=height / 2, text_anchor='middle')}>No data yet</text>"
        )
        parts.append("</svg>")
        return "".join(parts)

    low, high, step = y_range([value for _, value in points])

    def y_of(value: float) -> float:
        return bottom - (value - low) / (high - low) * (bottom - top)

    def x_of(i: int) -> float:
        if len(points) == 1:
            return (left + right) / 2
        return left + i * (right - left) / (len(points) - 1)

    # Axes, y ticks with grid lines, and the axis titles.
    parts.append('<g class="axes" fill="currentColor" stroke="currentColor" font-size="12">')
    ticks = round((high - low) / step)
    for k in range(ticks + 1):
        value = low + k * step
        y = round(y_of(value), 2)
        parts.append(
            f"<line {_attrs(x1=left, y1=y, x2=right, y2=y, stroke_opacity='0.25')}"
            f' stroke-dasharray="4 4"/>'
        )
        parts.append(
            f"<text {_attrs(x=left - 6, y=y + 4, text_anchor='end', stroke='none')}>"
            f"{escape(format_number(value))}</text>"
        )
    parts.append(f"<line {_attrs(x1=left, y1=top, x2=left, y2=bottom, stroke_width=1.5)}/>")
    parts.append(f"<line {_attrs(x1=left, y1=bottom, x2=right, y2=bottom, stroke_width=1.5)}/>")
    every = math.ceil(len(points) / MAX_X_LABELS)
    for i, (label, _) in enumerate(points):
        if i % every and i != len(points) - 1:
            continue
        x = round(x_of(i), 2)
        parts.append(f"<line {_attrs(x1=x, y1=bottom, x2=x, y2=bottom + 5)}/>")
        parts.append(
            f"<text {_attrs(x=x, y=bottom + 18, text_anchor='middle', stroke='none')}>"
            f"{escape(label)}</text>"
        )
    if x_label:
        parts.append(
            f"<text {_attrs(x=(left + right) / 2, y=height - 6, text_anchor='middle')}"
            f' stroke="none">{escape(x_label)}</text>'
        )
    if y_label:
        x, y = 14, (top + bottom) / 2
        parts.append(
            f"<text {_attrs(x=x, y=y, text_anchor='middle', transform=f'rotate(-90 {x} {y})')}"
            f' stroke="none">{escape(y_label)}</text>'
        )
    parts.append("</g>")

    # The line, then the points over it.
    coordinates = [
        (round(x_of(i), 2), round(y_of(value), 2)) for i, (_, value) in enumerate(points)
    ]
    if len(points) > 1:
        line = " ".join(f"{x},{y}" for x, y in coordinates)
        parts.append(
            f"<polyline {_attrs(class_='line', points=line, fill='none')}"
            ' stroke="currentColor" stroke-width="2.5" stroke-linejoin="round"/>'
        )
    parts.append('<g class="points" fill="currentColor">')
    for (label, value), (x, y) in zip(points, coordinates, strict=True):
        parts.append(
            f"<circle {_attrs(cx=x, cy=y, r=4.5)}>"
            f"<title>{escape(label)}: {escape(format_number(value))}</title></circle>"
        )
    parts.append("</g></svg>")
    return "".join(parts)
