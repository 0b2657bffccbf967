"""The Final Act board as server-rendered SVG: an ``fa-board`` svg with one ``fa-sq`` rect per
square (``data-square``), ``fa-unit`` groups and the ``fa-layer-last`` / ``fa-layer-plan``
overlays; static/final-act/board.js makes the squares clickable and keyboard-driven.

``board_model`` turns a view (``engine.get("final-act").view(state, seat)``, or any dict of
that shape, e.g. a setup preview) into plain geometry; ``render_board`` puts it through
``games/final-act/board.svg.html``. Only what is in the view and the viewer's own draft sheet is
ever drawn. Units that are out or broke through are not drawn on the board; they are named in
the svg's ``<desc>`` and listed in the model's ``off_board``.

Screen geometry: Alpha (seat 1) and spectators see rank 1 at the bottom and file a on the left;
Delta (seat 2) sees the board turned half a circle, so its own ranks 7-12 are at the bottom.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from html import escape
from typing import Any

from django.template.loader import get_template
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from engine.final_act import board
from engine.final_act.checks import case
from engine.final_act.position import Position
from engine.final_act.report import PHRASEBOOK, round_story
from engine.final_act.units import TOKENS
from games.words import say, sentence

CELL = 40
MARGIN = 24
SIDE = CELL * board.SIZE
VIEWBOX = SIDE + 2 * MARGIN
TEMPLATE = "games/final-act/board.svg.html"
# The match page's own board (setup preview, order plan): panels redraw it out of band.
LIVE_BOARD_ID = "fa-board-live"

SIDE_LETTERS = {1: "A", 2: "D"}
FACING_WORDS: dict[Any, Any] = {"N": pgettext_lazy("facing", "north"),
                                "E": pgettext_lazy("facing", "east"),
                                "S": pgettext_lazy("facing", "south"),
                                "W": pgettext_lazy("facing", "west")}
FACING_ANGLES = {"N": 0, "E": 90, "S": 180, "W": 270}
PHASE_WORDS: dict[Any, Any] = {"setup": pgettext_lazy("phase name", "setup"),
                               "orders": pgettext_lazy("phase name", "orders"),
                               "over": gettext_lazy("match over")}
TOKEN_LETTERS = {
    "air_strike": "AS",
    "full_throttle": "FT",
    "quick_shot": "QS",
    "mine_clearing": "MC",
    "smoke": "Sm",
    "quick_sand": "Sa",
    "red_cross": "+",
}
TOKEN_WORDS: dict[str, Any] = {
    "air_strike": gettext_lazy("air strike"), "full_throttle": gettext_lazy("full throttle"),
    "quick_shot": gettext_lazy("quick shot"), "mine_clearing": gettext_lazy("mine clearing"),
    "smoke": gettext_lazy("smoke"), "quick_sand": gettext_lazy("quick sand"),
    "red_cross": gettext_lazy("Red Cross")}
_CLASS_RE = re.compile(r"^[a-z][a-z0-9-]{0,40}$")

Point = tuple[float, float]


# -- geometry ------------------------------------------------------------------------------
def cell_of(sq: int, flipped: bool) -> tuple[int, int]:
    """Screen ``(col, row)`` of a square, row 0 at the top."""
    file, rank = board.coords(sq)
    if flipped:
        return board.SIZE - 1 - file, rank
    return file, board.SIZE - 1 - rank


def centre(sq: int, flipped: bool) -> Point:
    col, row = cell_of(sq, flipped)
    return MARGIN + col * CELL + CELL / 2, MARGIN + row * CELL + CELL / 2


def screen_angle(facing: str, flipped: bool) -> int:
    """Degrees clockwise from screen-up for a board facing."""
    return (FACING_ANGLES.get(facing, 0) + (180 if flipped else 0)) % 360


def _r(value: float) -> float:
    return round(value, 1)


def _toward(a: Point, b: Point, distance: float) -> Point:
    length = math.hypot(b[0] - a[0], b[1] - a[1]) or 1.0
    return a[0] + (b[0] - a[0]) * distance / length, a[1] + (b[1] - a[1]) * distance / length


def _arrow(
    a: Point, b: Point, *, start: float = 9, end: float = 9, head: float = 7
) -> dict[str, Any]:
    """A line from near ``a`` to near ``b`` and its arrowhead polygon."""
    length = math.hypot(b[0] - a[0], b[1] - a[1])
    p = _toward(a, b, start)
    q = _toward(a, b, max(start, length - end))
    ux, uy = (b[0] - a[0]) / (length or 1), (b[1] - a[1]) / (length or 1)
    base = (q[0] - ux * head, q[1] - uy * head)
    left = (base[0] - uy * head * 0.6, base[1] + ux * head * 0.6)
    right = (base[0] + uy * head * 0.6, base[1] - ux * head * 0.6)
    return {
        "line": (_r(p[0]), _r(p[1]), _r(base[0]), _r(base[1])),
        "head": _points([q, left, right]),
    }


def _points(points: Iterable[Point]) -> str:
    return " ".join(f"{_r(x)},{_r(y)}" for x, y in points)


def _burst(c: Point, outer: float, inner: float) -> str:
    pts = []
    for i in range(16):
        radius = outer if i % 2 == 0 else inner
        angle = math.pi * i / 8
        pts.append((c[0] + radius * math.sin(angle), c[1] - radius * math.cos(angle)))
    return _points(pts)


def _crosshair(c: Point, radius: float) -> list[tuple[float, float, float, float]]:
    x, y = c
    return [
        (_r(x - radius - 4), _r(y), _r(x - radius + 4), _r(y)),
        (_r(x + radius - 4), _r(y), _r(x + radius + 4), _r(y)),
        (_r(x), _r(y - radius - 4), _r(x), _r(y - radius + 4)),
        (_r(x), _r(y + radius - 4), _r(x), _r(y + radius + 4)),
    ]


def _overlay(cls: str, title: str) -> dict[str, Any]:
    return {"cls": cls, "title": title, "lines": [], "polygons": [], "circles": [], "rects": []}


def _shapes_markup(item: dict[str, Any]) -> SafeString:
    """The overlay's shapes as SVG elements: numbers only, so nothing needs escaping; built
    here because a template loop per line costs more than the whole rest of the board."""
    parts = [f'<line x1="{a}" y1="{b}" x2="{c}" y2="{d}"/>' for a, b, c, d in item["lines"]]
    parts += [f'<polygon points="{p}"/>' for p in item["polygons"]]
    parts += [f'<circle cx="{x}" cy="{y}" r="{r}"/>' for x, y, r in item["circles"]]
    parts += [
        f'<rect x="{x}" y="{y}" width="{w}" height="{w}" rx="5"/>' for x, y, w in item["rects"]
    ]
    if "stop" in item:
        a, b, c, d = item["stop"]
        parts.append(f'<line class="fa-stop" x1="{a}" y1="{b}" x2="{c}" y2="{d}"/>')
    return SafeString("".join(parts))


# -- reading the view ----------------------------------------------------------------------
def _seat(value: Any) -> int | None:
    return value if value in board.SEATS and not isinstance(value, bool) else None


def _side(seat: Any) -> str:
    return board.SEAT_NAMES.get(seat) or _("Unknown")


def _unit_words(unit: Mapping[str, Any]) -> str:
    side, name, kind = _side(unit.get("seat")), unit.get("name"), unit.get("kind")
    values = {"side": side, "name": name, "facing": FACING_WORDS.get(unit.get("facing"), "?")}
    if kind == "r":
        words = _("%(side)s R unit") % values
    elif kind == "at":
        words = _("%(side)s AT unit %(name)s facing %(facing)s") % values
    else:
        words = _("%(side)s tank %(name)s facing %(facing)s") % values
    status = unit.get("status")
    if status == "wreck":
        return _("wreck of %(side)s tank %(name)s") % values
    if status == "damaged":
        return _("%(unit)s, damaged") % {"unit": words}
    if status == "repairing":
        return (_("%(unit)s, repairing") if kind == "r" else _("%(unit)s, under repair")) % {
            "unit": words}
    return words


def _terrain_words(piece: Mapping[str, Any], sq_name: str) -> str:
    owner = _side(piece.get("owner"))
    kind = piece.get("kind")
    if kind == "berm":
        if len(piece.get("squares", ())) > 1:
            return _("%(side)s large berm") % {"side": owner}
        return _("%(side)s small berm") % {"side": owner}
    if kind == "minefield":
        if piece.get("passage") == sq_name:
            arrow = FACING_WORDS.get(piece.get("arrow"), "?")
            return _("%(side)s minefield passage, crossing heading %(facing)s") % {
                "side": owner, "facing": arrow}
        return _("%(side)s minefield") % {"side": owner}
    if kind == "swamp":
        return _("%(side)s swamp") % {"side": owner}
    return f"{owner} {kind}"


def _square_list(value: Any) -> list[int]:
    if not isinstance(value, list | tuple):
        return []
    return [sq for item in value if (sq := board.parse(item)) is not None]


def _bbox(cells: list[tuple[int, int]]) -> tuple[int, int, int, int]:
    cols = [c for c, _ in cells]
    rows = [r for _, r in cells]
    return min(cols), min(rows), max(cols), max(rows)


def _terrain_shapes(piece: Any, flipped: bool) -> list[dict[str, Any]]:
    """The shapes of one terrain piece; none for a piece that is not well formed."""
    if not isinstance(piece, Mapping):
        return []
    kind = piece.get("kind")
    owner = _seat(piece.get("owner"))
    squares = _square_list(piece.get("squares"))
    if kind not in ("berm", "swamp", "minefield") or not squares or owner is None:
        return []
    if kind == "minefield" and (
        board.parse(piece.get("passage")) not in squares or piece.get("arrow") not in board.FACINGS
    ):
        return []
    base = f"fa-terrain fa-{kind} owner-{owner}"
    shapes: list[dict[str, Any]] = []
    cells = [cell_of(sq, flipped) for sq in squares]
    if kind == "berm":
        c0, r0, c1, r1 = _bbox(cells)
        size = "large" if len(squares) > 1 else "small"
        boxes = (
            [(c0, r0, c1, r1)]
            if (c1 - c0 + 1) * (r1 - r0 + 1) == len(cells)
            else [(c, r, c, r) for c, r in cells]
        )
        for c0, r0, c1, r1 in boxes:
            x, y = MARGIN + c0 * CELL + 4, MARGIN + r0 * CELL + 4
            w, h = (c1 - c0 + 1) * CELL - 8, (r1 - r0 + 1) * CELL - 8
            shapes.append(
                {
                    "shape": "berm",
                    "cls": f"{base} {size}",
                    "x": x,
                    "y": y,
                    "w": w,
                    "h": h,
                    "top": (x + 4, y + 4, w - 8, h - 8),
                }
            )
    else:
        passage = board.parse(piece.get("passage")) if kind == "minefield" else None
        for sq, (col, row) in zip(squares, cells, strict=True):
            shape: dict[str, Any] = {
                "shape": kind,
                "cls": base + (" passage" if sq == passage else ""),
                "x": MARGIN + col * CELL + 1,
                "y": MARGIN + row * CELL + 1,
                "w": CELL - 2,
                "h": CELL - 2,
            }
            if sq == passage and piece.get("arrow") in board.FACINGS:
                cx, cy = centre(sq, flipped)
                shape["arrow"] = {
                    "transform": f"translate({_r(cx)} {_r(cy)}) "
                    f"rotate({screen_angle(piece['arrow'], flipped)})",
                }
            shapes.append(shape)
    first = min(cells, key=lambda c: (c[1], c[0]))
    shapes[0]["owner_letter"] = {
        "x": MARGIN + first[0] * CELL + 5,
        "y": MARGIN + first[1] * CELL + 12,
        "text": SIDE_LETTERS[owner],
        "owner": owner,
    }
    return shapes


def _unit_shape(
    unit: Mapping[str, Any], sq: int, flipped: bool, slot: int, stack: int
) -> dict[str, Any]:
    seat = _seat(unit.get("seat")) or 0
    kind = unit.get("kind") if unit.get("kind") in ("tank", "at", "r") else "tank"
    status = str(unit.get("status", "ok"))
    cx, cy = centre(sq, flipped)
    scale = 1.0
    if stack > 1:
        scale = 0.62
        cx += (slot - (stack - 1) / 2) * CELL * 0.44
    facing = str(unit["facing"]) if unit.get("facing") in board.FACINGS else "N"
    return {
        "cls": f"fa-unit side-{seat} kind-{kind} status-{status}",
        "seat": seat,
        "name": str(unit.get("name", "?")),
        "kind": kind,
        "square": board.name(sq),
        "transform": f"translate({_r(cx)} {_r(cy)})" + (f" scale({scale})" if stack > 1 else ""),
        "rotate": f"rotate({screen_angle(facing, flipped)})",
        "side_letter": SIDE_LETTERS.get(seat, "?"),
        "damaged": status == "damaged",
        "wreck": status == "wreck",
        "repairing": status == "repairing",
    }


def _board_token(token: Mapping[str, Any], flipped: bool) -> dict[str, Any] | None:
    sq = board.parse(token.get("at"))
    name = token.get("token")
    if sq is None or name not in TOKENS:
        return None
    col, row = cell_of(sq, flipped)
    seat = _seat(token.get("seat")) or 0
    placed = token.get("round")
    values = {"side": _side(seat), "token": TOKEN_WORDS[name], "square": board.name(sq),
              "round": placed}
    return {
        "cls": f"fa-token token-{name.replace('_', '-')} side-{seat}",
        "token": name,
        "seat": seat,
        "sq": sq,
        "square": board.name(sq),
        "x": MARGIN + col * CELL + CELL - 9,
        "y": MARGIN + row * CELL + CELL - 9,
        "letter": TOKEN_LETTERS[name],
        "title": (_("%(side)s %(token)s on %(square)s (round %(round)s)")
                  if isinstance(placed, int) and not isinstance(placed, bool)
                  else _("%(side)s %(token)s on %(square)s")) % values,
    }


# -- last round ----------------------------------------------------------------------------
def _event_shape(event: Mapping[str, Any], flipped: bool) -> dict[str, Any] | None:
    kind = event.get("type")
    # The engine's English, read back to be told in the reader's language.
    text = sentence(PHRASEBOOK.read(str(event.get("text", kind))))
    seat = _seat(event.get("seat")) or 0
    at = board.parse(event.get("at"))
    frm = board.parse(event.get("from"))
    to = board.parse(event.get("to"))
    if kind in ("move", "bounce") and frm is not None and to is not None and frm != to:
        a, b = centre(frm, flipped), centre(to, flipped)
        item = _overlay(f"fa-ev fa-ev-{kind} side-{seat}", text)
        if kind == "move":
            arrow = _arrow(a, b)
        else:
            stop = _toward(a, b, math.hypot(b[0] - a[0], b[1] - a[1]) * 0.55)
            arrow = _arrow(a, stop, end=0, head=5)
            ux, uy = (b[0] - a[0]), (b[1] - a[1])
            length = math.hypot(ux, uy) or 1
            px, py = -uy / length * 7, ux / length * 7
            item["stop"] = (_r(stop[0] + px), _r(stop[1] + py), _r(stop[0] - px), _r(stop[1] - py))
        item["lines"].append(arrow["line"])
        item["polygons"].append(arrow["head"])
        return item
    if kind == "shell" and at is not None:
        blocked = bool(event.get("blocked"))
        item = _overlay(f"fa-ev fa-ev-shell side-{seat}" + (" is-stopped" if blocked else ""), text)
        c = centre(at, flipped)
        if frm is not None and frm != at:
            a = centre(frm, flipped)
            end = _toward(a, c, math.hypot(c[0] - a[0], c[1] - a[1]) * 0.5) if blocked else c
            p = _toward(a, end, 8)
            item["lines"].append((_r(p[0]), _r(p[1]), _r(end[0]), _r(end[1])))
        item["circles"].append((_r(c[0]), _r(c[1]), 8))
        item["lines"].extend(_crosshair(c, 8))
        return item
    if kind in ("hit", "out") and at is not None:
        out = kind == "out" or bool(event.get("out"))
        item = _overlay(f"fa-ev fa-ev-hit side-{seat}" + (" is-out" if out else ""), text)
        c = centre(at, flipped)
        item["polygons"].append(_burst(c, 17, 8) if out else _burst(c, 12, 6))
        return item
    if kind in ("token", "wreck", "breakthrough", "repair") and at is not None:
        col, row = cell_of(at, flipped)
        item = _overlay(f"fa-ev fa-ev-{kind} side-{seat}", text)
        item["rects"].append((MARGIN + col * CELL + 3, MARGIN + row * CELL + 3, CELL - 6))
        return item
    return None


# -- the viewer's draft sheet --------------------------------------------------------------
def _position(view: Mapping[str, Any]) -> Position:
    """An engine position rebuilt from the view, to follow planned moves exactly as the
    engine would (terrain, wrecks, quick sand, cleared minefields)."""
    units = []
    for unit in view.get("units", []):
        if not isinstance(unit, Mapping):
            continue
        status = unit.get("status")
        state = status if status in ("out", "wreck", "broke_through") else "active"
        at = board.parse(unit.get("at"))
        if state in ("active", "wreck") and at is None:
            continue
        units.append(
            {
                "seat": unit.get("seat"),
                "name": unit.get("name"),
                "kind": unit.get("kind"),
                "at": board.name(at) if at is not None else None,
                "facing": unit.get("facing") if unit.get("facing") in board.FACINGS else "N",
                "hits": unit.get("hits", 0),
                "state": state,
            }
        )
    tokens = [
        t
        for t in view.get("board_tokens", [])
        if isinstance(t, Mapping) and board.parse(t.get("at")) is not None and _seat(t.get("seat"))
    ]
    repairing = [
        r
        for r in view.get("repairing", [])
        if isinstance(r, Mapping) and {"seat", "tank", "round"} <= r.keys()
    ]
    return Position(
        {
            "options": view.get("options") or {},
            "round": view.get("round", 0),
            "terrain": [p for p in view.get("terrain", []) if _terrain_shapes(p, False)],
            "units": units,
            "board_tokens": tokens,
            "repairing": repairing,
            "officer_lost": view.get("officer_lost", {"1": 0, "2": 0}),
            "used": view.get("used", {}),
            "tokens": view.get("tokens", {}),
        }
    )


def _token_square(tokens: Mapping[str, Any], name: str) -> int | None:
    use = tokens.get(name)
    return board.parse(use.get("at")) if isinstance(use, Mapping) else None


def _plan_shapes(
    view: Mapping[str, Any], seat: int | None, plan: Any, flipped: bool
) -> list[dict[str, Any]]:
    if seat is None or not isinstance(plan, Mapping):
        return []
    raw_units = plan.get("units")
    raw_units = raw_units if isinstance(raw_units, Mapping) else {}
    tokens = plan.get("tokens")
    tokens = tokens if isinstance(tokens, Mapping) else {}
    pos = _position(view)
    throttle = tokens.get("full_throttle")
    throttle_unit = throttle.get("unit") if isinstance(throttle, Mapping) else None
    extra_clear = {sq for sq in [_token_square(tokens, "mine_clearing")] if sq is not None}
    extra_sand = {sq for sq in [_token_square(tokens, "quick_sand")] if sq is not None}
    items: list[dict[str, Any]] = []

    def shells(origin: int | None, targets: Any, who: str) -> None:
        for target in _square_list(targets)[:4]:
            c = centre(target, flipped)
            item = _overlay("fa-plan fa-plan-shell", _("Plan: %(unit)s fires at %(square)s") % {
                "unit": who, "square": board.name(target)})
            if origin is not None and origin != target:
                a = centre(origin, flipped)
                p = _toward(a, c, 8)
                item["lines"].append((_r(p[0]), _r(p[1]), _r(c[0]), _r(c[1])))
            item["circles"].append((_r(c[0]), _r(c[1]), 7))
            item["lines"].extend(_crosshair(c, 7))
            items.append(item)

    for name, order in raw_units.items():
        if not isinstance(name, str) or not isinstance(order, Mapping):
            continue
        unit = pos.unit(seat, name)
        if unit is None or (seat, name) not in pos.square_of or unit["state"] != "active":
            continue
        here = pos.sq(unit)
        move = case(order.get("move", "stay"))
        moves = board.AT_MOVES if unit["kind"] == "at" else board.TANK_MOVES
        if isinstance(move, str) and move in moves and move != "stay":
            steps = 2 if throttle_unit == name else 1
            path, reason = pos.move_path(unit, move, steps, extra_clear, extra_sand)
            if not reason and path:
                values = {"unit": name, "move": move, "square": board.name(path[-1])}
                item = _overlay(
                    "fa-plan fa-plan-move",
                    (_("Plan: %(unit)s moves %(move)s and turns to %(square)s")
                     if order.get("turn") is True
                     else _("Plan: %(unit)s moves %(move)s to %(square)s")) % values,
                )
                arrow = _arrow(centre(here, flipped), centre(path[-1], flipped))
                item["lines"].append(arrow["line"])
                item["polygons"].append(arrow["head"])
                items.append(item)
        shells(here, order.get("fire"), name)
    for token in TOKENS:
        use = tokens.get(token)
        if not isinstance(use, Mapping):
            continue
        if token == "quick_shot":
            who = use.get("unit")
            origin = pos.square_of.get((seat, who)) if isinstance(who, str) else None
            shells(origin, use.get("fire"), _("%(unit)s (quick shot)") % {"unit": who})
        if token == "air_strike":
            shells(board.parse(use.get("at")), use.get("fire"), _("the air strike"))
        sq = board.parse(use.get("at"))
        if sq is None:
            continue
        col, row = cell_of(sq, flipped)
        item = _overlay(
            f"fa-plan fa-plan-token token-{token.replace('_', '-')}",
            _("Plan: %(token)s on %(square)s") % {"token": TOKEN_WORDS[token],
                                                   "square": board.name(sq)},
        )
        item["token"] = {
            "x": MARGIN + col * CELL + 9,
            "y": MARGIN + row * CELL + CELL - 9,
            "letter": TOKEN_LETTERS[token],
        }
        items.append(item)
    return items


# -- the model -----------------------------------------------------------------------------
def board_model(
    view: Mapping[str, Any],
    *,
    seat: int | None,
    plan: Mapping[str, Any] | None = None,
    last_round: bool = True,
    marks: Mapping[str, list[str]] | None = None,
) -> dict[str, Any]:
    """Everything the board template draws, as geometry and ready-made class strings."""
    seat = _seat(seat)
    flipped = seat == 2
    by_square: dict[int, list[str]] = {}
    classes: dict[int, list[str]] = {
        sq: [f"half-{1 if board.in_own_half(1, sq) else 2}"] for sq in board.SQUARES
    }

    terrain: list[dict[str, Any]] = []
    for piece in view.get("terrain", []) or []:
        shapes = _terrain_shapes(piece, flipped)
        if not shapes:
            continue
        terrain.extend(shapes)
        passage = board.parse(piece.get("passage"))
        for sq in _square_list(piece.get("squares")):
            kind = "passage" if piece["kind"] == "minefield" and sq == passage else piece["kind"]
            classes[sq] += [f"terrain-{kind}", f"owner-{piece.get('owner')}"]
            by_square.setdefault(sq, []).append(_terrain_words(piece, board.name(sq)))

    tokens = []
    for token in view.get("board_tokens", []) or []:
        drawn = _board_token(token, flipped) if isinstance(token, Mapping) else None
        if drawn is not None:
            tokens.append(drawn)
            words = _("%(side)s %(token)s") % {"side": _side(drawn["seat"]),
                                                "token": TOKEN_WORDS[drawn["token"]]}
            by_square.setdefault(drawn["sq"], []).append(words)

    units: list[dict[str, Any]] = []
    off_board: list[str] = []
    stacks: dict[int, list[Mapping[str, Any]]] = {}
    for unit in view.get("units", []) or []:
        if not isinstance(unit, Mapping):
            continue
        at = board.parse(unit.get("at"))
        if unit.get("status") in ("out", "broke_through") or at is None:
            values = {"side": _side(unit.get("seat")), "name": unit.get("name")}
            off_board.append((_("%(side)s %(name)s (broke through)")
                              if unit.get("status") == "broke_through"
                              else _("%(side)s %(name)s (out)")) % values)
            continue
        stacks.setdefault(at, []).append(unit)
    for where, group in stacks.items():
        for slot, unit in enumerate(group):
            units.append(_unit_shape(unit, where, flipped, slot, len(group)))
            by_square.setdefault(where, []).append(_unit_words(unit))
        classes[where].append("has-unit")

    for cls, names in (marks or {}).items():
        if not isinstance(cls, str) or not _CLASS_RE.match(cls):
            continue
        for sq in _square_list(names):
            classes[sq].append(cls)

    selected = next((sq for sq in board.SQUARES if "is-selected" in classes[sq]), None)
    tab_stop = selected if selected is not None else (board.square(11, 11) if flipped else 0)
    squares: list[dict[str, Any]] = []
    empty = {seat: _("empty, %(side)s half") % {"side": _side(seat)} for seat in board.SEATS}
    for sq in board.SQUARES:
        col, row = cell_of(sq, flipped)
        name = board.name(sq)
        what = "; ".join(by_square.get(sq, [])) or empty[1 if board.in_own_half(1, sq) else 2]
        entry: dict[str, Any] = {
            "name": name,
            "x": MARGIN + col * CELL,
            "y": MARGIN + row * CELL,
            "col": col,
            "row": row,
            "cls": " ".join(["fa-sq", *classes[sq]]),
            "label": f"{name}: {what}",
            "tabindex": 0 if sq == tab_stop else -1,
        }
        # 144 rects: one ready-made attribute string each keeps the template render fast.
        entry["attrs"] = SafeString(
            f'class="{escape(entry["cls"])}" data-square="{name}" data-col="{col}" '
            f'data-row="{row}" x="{entry["x"]}" y="{entry["y"]}" width="{CELL}" height="{CELL}" '
            f'tabindex="{entry["tabindex"]}" role="button" aria-label="{escape(entry["label"])}"'
        )
        squares.append(entry)

    events = view.get("last_round") if last_round else None
    last = []
    for event in events if isinstance(events, list) else []:
        if isinstance(event, Mapping):
            shape = _event_shape(event, flipped)
            if shape is not None:
                last.append(shape)

    plan_items = _plan_shapes(view, seat, plan, flipped)
    for item in last + plan_items:
        item["shapes"] = _shapes_markup(item)

    files = board.FILES[::-1] if flipped else board.FILES
    ranks = range(1, board.SIZE + 1) if flipped else range(board.SIZE, 0, -1)
    rnd = view.get("round")
    phase = PHASE_WORDS.get(view.get("phase"), "")
    limit = view.get("round_limit")
    parts = [_("Final Act board")]
    if rnd:
        parts.append(_("round %(round)s of %(limit)s") % {"round": rnd, "limit": limit} if limit
                     else _("round %(round)s") % {"round": rnd})
    if phase:
        parts.append(str(phase))
    parts.append(_("seen by %(side)s") % {"side": board.SEAT_NAMES[seat]} if seat
                 else _("spectator view"))
    title = ", ".join(parts)
    desc = []
    if off_board:
        desc.append(_("Not on the board: %(units)s.") % {"units": ", ".join(off_board)})
    if last_round:
        desc.extend(say(line) for line in round_story(list(last_events(view)), seat))
    alpha_y = MARGIN + (SIDE * 3 / 4 if not flipped else SIDE / 4)
    delta_y = MARGIN + (SIDE / 4 if not flipped else SIDE * 3 / 4)
    return {
        "flipped": flipped,
        "size": VIEWBOX,
        "cell": CELL,
        "margin": MARGIN,
        "side": SIDE,
        "title": title,
        "desc": " ".join(desc),
        "halves": [
            {"cls": "fa-half half-1", "y": MARGIN + (SIDE / 2 if not flipped else 0)},
            {"cls": "fa-half half-2", "y": MARGIN + (0 if not flipped else SIDE / 2)},
        ],
        "half_h": SIDE / 2,
        "centre_y": MARGIN + SIDE / 2,
        "side_names": [
            {"cls": "side-1", "text": "Alpha", "y": alpha_y},
            {"cls": "side-2", "text": "Delta", "y": delta_y},
        ],
        "side_name_x": MARGIN + SIDE + MARGIN / 2,
        "file_labels": [
            {"text": f, "x": MARGIN + i * CELL + CELL / 2} for i, f in enumerate(files)
        ],
        "rank_labels": [
            {"text": r, "y": MARGIN + i * CELL + CELL / 2 + 4} for i, r in enumerate(ranks)
        ],
        "board_end": MARGIN + SIDE,
        "file_top_y": MARGIN // 2 + 4,
        "file_bottom_y": MARGIN + SIDE + MARGIN // 2 + 4,
        "rank_x": MARGIN // 2,
        "squares": squares,
        "terrain": terrain,
        "tokens": tokens,
        "units": units,
        "off_board": off_board,
        "last": last,
        "plan": plan_items,
    }


def last_events(view: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The last round's events of a view (none if the key is missing or malformed)."""
    events = view.get("last_round")
    return [e for e in events if isinstance(e, Mapping)] if isinstance(events, list) else []


def render_board(
    view: Mapping[str, Any],
    *,
    seat: int | None,
    plan: Mapping[str, Any] | None = None,
    last_round: bool = True,
    board_id: str = "fa-board",
    caption: str = "",
    marks: Mapping[str, list[str]] | None = None,
) -> SafeString:
    """The board as an inline ``<svg class="fa-board">`` (see board_model for what is drawn)."""
    model = board_model(view, seat=seat, plan=plan, last_round=last_round, marks=marks)
    model["id"] = board_id
    model["caption"] = caption
    return SafeString(get_template(TEMPLATE).render({"b": model}))
