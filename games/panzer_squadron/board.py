"""The hex board as server-rendered SVG, drawn from a seat's view (never the state).

Pointy-top hexes in offset rows, north up; seat 2 sees the board turned round (its own edge
at the bottom). Marks: hexes a path can reach (with the cheapest path, for the click-to-fill
script), targets in sight (covered ones hatched), the lines of fire of a diagram.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from engine.panzer_squadron import hexes

SIDE = 24.0  # a hex side in pixels
UX = SIDE * math.sqrt(3) / 2  # one doubled-X unit
UY = SIDE / 2  # one Y unit
MARGIN = 18.0
TERRAIN_LABEL = {"woods": pgettext_lazy("terrain", "woods"),
                 "building": pgettext_lazy("terrain", "building"),
                 "water": pgettext_lazy("terrain", "water"),
                 "clear": pgettext_lazy("terrain", "clear")}
TANK_STATE = {"moving": gettext_lazy("in movement"), "ambush": gettext_lazy("in ambush")}


def _px(point: tuple[int, int], rows: int) -> tuple[float, float]:
    x, y = point
    return (MARGIN + (x + 1) * UX, MARGIN + (3 * rows + 2 - y) * UY)


def hex_points(h: hexes.Hex, rows: int) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in (_px(c, rows) for c in hexes.corners(h)))


def board_svg(view: Mapping[str, Any], seat: int | None, *,
              reach: Mapping[str, str] | None = None,
              targets: Mapping[str, bool] | None = None,
              lines: Iterable[tuple[str, int, str, int, bool]] = (),
              label: str = "", small: bool = False,
              interactive: bool = False, open_hexes: bool = False) -> SafeString:
    """``reach``: hex → cheapest path text; ``targets``: hex → in cover; ``lines``: (from hex,
    corner, to hex, corner, blocked) drawn as lines of fire. ``interactive``: the board the
    player chooses on (static/panzer-squadron/board.js): every hex a button, one tab stop
    (the first hex to choose), the arrow keys between hexes, Enter to choose a marked one.
    ``open_hexes`` (with ``interactive``): every hex may be chosen, not only the marked ones
    (the plan's branch builder, static/panzer-squadron/plan.js)."""
    from games.panzer_squadron.words import card_word

    label = label or _("Panzer Squadron board")
    cols, rows = view["size"]
    width = 2 * MARGIN + (2 * cols + 2) * UX
    height = 2 * MARGIN + (3 * rows + 1) * UY
    terrain = {n: kind for kind, names in view["terrain"].items() for n in names}
    reach = reach or {}
    targets = targets or {}
    flip = seat == 2
    on_hex = {t["at"]: t for t in view["tanks"] if t["alive"]} if interactive else {}
    tab_stop = next(iter(reach), next(iter(targets), None))
    if tab_stop is None and open_hexes:
        tab_stop = hexes.name((0, 1))
    parts: list[str] = []
    for row in range(1, rows + 1):
        for col in range(cols):
            h = (col, row)
            name = hexes.name(h)
            kind = terrain.get(name, "clear")
            classes = [f"ps-{kind}"]
            extra = ""
            words = [name, str(TERRAIN_LABEL.get(kind, TERRAIN_LABEL["clear"]))]
            if name in on_hex:
                words.append(_("tank %(name)s of seat %(seat)s") % {
                    "name": on_hex[name]["name"], "seat": on_hex[name]["seat"]})
            if name in reach:
                classes.append("ps-reach")
                extra = format_html(' data-path="{}"', reach[name])
                words.append(_("reachable"))
            if name in targets:
                classes.append("ps-target")
                if targets[name]:
                    classes.append("ps-cover")
                words.append(_("target in cover") if targets[name] else _("target in sight"))
            role = "img"
            if interactive:
                role = "button"
                extra = format_html(
                    '{} data-col="{}" data-row="{}" tabindex="{}"{}', extra, col, row,
                    0 if name == tab_stop else -1,
                    mark_safe("") if open_hexes or name in reach or name in targets
                    else mark_safe(' aria-disabled="true"'))
            cx, cy = _px(hexes.centre(h), rows)
            parts.append(format_html(
                '<g class="ps-hex {}" data-hex="{}"{} role="{}" aria-label="{}">'
                '<polygon points="{}"/>{}</g>',
                " ".join(classes), name, extra, role, ", ".join(words), hex_points(h, rows),
                format_html('<text class="ps-name" x="{}" y="{}"{}>{}</text>', f"{cx:.1f}",
                            f"{cy + 9:.1f}", _upright(flip, cx, cy + 9), name)
                if not small else ""))
    for t in view["tanks"]:
        if not t["alive"]:
            continue
        h = hexes.parse(t["at"], (cols, rows))
        if h is None:
            continue
        cx, cy = _px(hexes.centre(h), rows)
        fx, fy = _px(hexes.corner(h, t["facing"]), rows)
        mine = seat is not None and t["seat"] == seat
        state = str(TANK_STATE.get(t["state"], pgettext_lazy("tank state", "stationary")))
        values = {"tank": t["name"], "seat": t["seat"], "card": card_word(t["card"]),
                  "at": t["at"], "facing": t["facing"], "state": state}
        described = (_("%(tank)s: seat %(seat)s %(card)s tank on %(at)s, facing %(facing)s "
                       "o'clock, %(state)s, activated") if t["activated"] else
                     _("%(tank)s: seat %(seat)s %(card)s tank on %(at)s, facing %(facing)s "
                       "o'clock, %(state)s")) % values
        parts.append(format_html(
            '<g class="ps-tank ps-seat{} {}{}" data-tank="{}" data-hex="{}" role="img" '
            'aria-label="{}">'
            '<line x1="{}" y1="{}" x2="{}" y2="{}" class="ps-gun"/>'
            '<{} cx="{}" cy="{}" {} class="ps-body"/>'
            '<text x="{}" y="{}" class="ps-label"{}>{}</text></g>',
            t["seat"], "ps-mine" if mine else "", " ps-done" if t["activated"] else "",
            t["name"], t["at"], described,
            f"{cx:.1f}", f"{cy:.1f}", f"{fx:.1f}", f"{fy:.1f}",
            "circle" if t["seat"] == 1 else "ellipse", f"{cx:.1f}", f"{cy:.1f}",
            mark_safe('r="9"' if t["seat"] == 1 else 'rx="10" ry="8"'),
            f"{cx:.1f}", f"{cy + 3.5:.1f}", _upright(flip, cx, cy + 3.5), t["name"]))
    for a, fa, b, fb, blocked in lines:
        ha, hb = hexes.parse(a, (cols, rows)), hexes.parse(b, (cols, rows))
        if ha is None or hb is None:
            continue
        x1, y1 = _px(hexes.corner(ha, fa), rows)
        x2, y2 = _px(hexes.corner(hb, fb), rows)
        parts.append(format_html(
            '<line class="ps-lof{}" x1="{}" y1="{}" x2="{}" y2="{}"/>',
            " ps-blocked" if blocked else "", f"{x1:.1f}", f"{y1:.1f}", f"{x2:.1f}", f"{y2:.1f}"))
    turn = f' transform="rotate(180 {width / 2:.1f} {height / 2:.1f})"' if flip else ""
    return format_html(
        '<svg class="ps-board{}" viewBox="0 0 {} {}" role="group" aria-label="{}"{}>'
        '<g{}>{}</g></svg>',
        " ps-small" if small else "", f"{width:.0f}", f"{height:.0f}", label,
        mark_safe(f' data-flipped="{str(flip).lower()}"') if interactive
        else mark_safe(' tabindex="0"'), mark_safe(turn), mark_safe("".join(parts)))


def _upright(flip: bool, x: float, y: float) -> SafeString:
    """Text stays readable on the turned-round board."""
    if not flip:
        return mark_safe("")
    return mark_safe(f' transform="rotate(180 {x:.1f} {y - 3.5:.1f})"')


def legend() -> SafeString:
    return format_html(
        '<ul class="ps-legend"><li><span class="ps-key ps-woods"></span> {}</li>'
        '<li><span class="ps-key ps-building"></span> {}</li>'
        '<li><span class="ps-key ps-water"></span> {}</li><li>{}</li></ul>',
        _("woods (2 points, blocks)"), _("building (impassable, blocks)"),
        _("water (impassable, does not block)"),
        _("Seat 1 (South): blue round tanks; seat 2 (North): red ovals with a dashed outline. "
          "The line is the gun, pointing at the corner the tank faces; faded tanks are "
          "activated this turn"))
