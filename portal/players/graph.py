"""A line graph drawn on the server as SVG (no chart library in the browser), with its words:
a sentence that says what the line does, for a screen reader and anyone who prefers words.
The page shows the points as a table beside it."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from django.utils.formats import date_format, number_format
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

WIDTH, HEIGHT, PAD = 600, 180, 28


def _label(value: float) -> str:
    return number_format(round(value, 1), decimal_pos=1)


def line_summary(points: Sequence[tuple[datetime, float]]) -> str:
    """"From 10.2 to 14.8 over 7 rated games (lowest 9.5, highest 15.0)."."""
    if not points:
        return _("No rated game yet.")
    values = [value for _at, value in points]
    return _("From %(first)s to %(last)s over %(count)s rated games (lowest %(low)s, highest "
             "%(high)s).") % {"first": _label(values[0]), "last": _label(values[-1]),
                              "count": len(values), "low": _label(min(values)),
                              "high": _label(max(values))}


def line_graph(points: Sequence[tuple[datetime, float]], *, title: str, key: str
               ) -> SafeString:
    """The points (oldest first) as an SVG line; ``key`` makes its ids unique on the page."""
    if not points:
        return SafeString("")
    values = [value for _at, value in points]
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    step = (WIDTH - 2 * PAD) / max(len(points) - 1, 1)

    def xy(index: int, value: float) -> tuple[float, float]:
        return (round(PAD + index * step, 1),
                round(HEIGHT - PAD - (value - low) / span * (HEIGHT - 2 * PAD), 1))

    coords = [xy(i, v) for i, v in enumerate(values)]
    line = " ".join(f"{x},{y}" for x, y in coords)
    dots = format_html_join("", '<circle cx="{}" cy="{}" r="3"><title>{}</title></circle>',
                            ((x, y, _("%(when)s: %(value)s") % {
                                "when": date_format(at, "SHORT_DATE_FORMAT"), "value": _label(v)})
                             for (x, y), (at, v) in zip(coords, points, strict=True)))
    return format_html(
        '<svg class="line-graph" viewBox="0 0 {w} {h}" width="{w}" height="{h}" role="img" '
        'aria-labelledby="{key}-title {key}-desc" preserveAspectRatio="xMinYMin meet">'
        '<title id="{key}-title">{title}</title><desc id="{key}-desc">{desc}</desc>'
        '<line x1="{pad}" y1="{bottom}" x2="{right}" y2="{bottom}" class="axis"/>'
        '<line x1="{pad}" y1="{pad}" x2="{pad}" y2="{bottom}" class="axis"/>'
        '<text x="2" y="{top_label}" class="tick">{high}</text>'
        '<text x="2" y="{bottom}" class="tick">{low}</text>'
        '<polyline points="{line}" fill="none" stroke="currentColor" stroke-width="2"/>'
        '{dots}</svg>',
        w=WIDTH, h=HEIGHT, key=key, title=title, desc=line_summary(points), pad=PAD,
        bottom=HEIGHT - PAD, right=WIDTH - PAD, top_label=PAD + 4, high=_label(high),
        low=_label(low), line=line, dots=dots)
