"""Final Strategy's board as SVG: squares and edges the player clicks (or reaches with the
keyboard), barriers, pieces, safe and neutral squares, formed squares. Drawn from a ``view``
only, so it shows exactly what the viewer may see."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from engine.final_strategy import board

CELL = 40
MARGIN = 24
SEAT_COLOURS = {1: "#c0392b", 2: "#2471a3", 3: "#1e8449", 4: "#b7950b"}
CORNER_OFFSET = {"ne": (1, -1), "nw": (-1, -1), "se": (1, 1), "sw": (-1, 1)}


def _xy(sq: int) -> tuple[int, int]:
    col, row = board.col_row(sq)
    return MARGIN + col * CELL, MARGIN + (board.SIZE - 1 - row) * CELL


def _kind_name(kind: str) -> str:
    return {"troop": _("troop"), "kidnapper": _("kidnapper"), "bomb": _("bomb")}[kind]


def board_context(view: dict[str, Any], *, interactive: bool) -> dict[str, Any]:
    """The shapes the SVG template draws."""
    barriers = {board.EDGE_INDEX[e] for e in view["barriers"]}
    pieces = {board.SQUARE_INDEX[p["at"]]: p for p in view["pieces"]}
    formed = {board.SQUARE_INDEX[s] for s in view["formed"]}
    removed = set(view["removed"])
    squares = []
    for sq in board.SQUARES:
        x, y = _xy(sq)
        name = board.SQUARE_NAMES[sq]
        piece = pieces.get(sq)
        kind = "safe" if sq in board.SAFE else "neutral" if sq in board.NEUTRAL else "plain"
        label = name
        if kind == "safe":
            label += ", " + _("safe square")
        elif kind == "neutral":
            label += ", " + _("neutral square")
        if sq in formed:
            label += ", " + _("formed")
        col, row = board.col_row(sq)
        item: dict[str, Any] = {"name": name, "x": x, "y": y, "kind": kind, "col": col,
                                "row": row,
                                "formed": sq in formed, "piece": None}
        if piece is not None:
            # The seat on the piece itself (never by its colour alone): "2", "K2", "B2"; the
            # square's name says it too, as a button's name must hold its visible text.
            mark = {"troop": "", "kidnapper": "K", "bomb": "B"}[piece["kind"]] + str(piece["seat"])
            label += ", " + _("seat %(seat)s %(kind)s") % {
                "seat": piece["seat"], "kind": _kind_name(piece["kind"])}
            if piece["kind"] != "troop":
                label += f", {mark}"  # (axe reads past words in brackets)
            colour = "#777" if piece["seat"] in removed else SEAT_COLOURS[piece["seat"]]
            item["piece"] = {**piece, "colour": colour, "cx": x + CELL // 2, "cy": y + CELL // 2,
                             "mark": mark}
            if piece["kind"] == "kidnapper":
                dx, dy = CORNER_OFFSET[piece["corner"]]
                item["piece"]["mx"] = x + CELL // 2 + dx * 13
                item["piece"]["my"] = y + CELL // 2 + dy * 13
        item["label"] = label
        squares.append(item)
    edges = []
    for e in board.EDGES:
        a, b = board.EDGE_SQUARES[e]
        ax, ay = _xy(a)
        if e < 90:  # between a square and the one north of it: a horizontal line on top of a
            x1, y1, x2, y2 = ax, ay, ax + CELL, ay
        else:  # between a square and the one east of it: a vertical line on its right
            x1, y1, x2, y2 = ax + CELL, ay, ax + CELL, ay + CELL
        name = board.EDGE_NAMES[e]
        edges.append({"name": name, "x1": x1, "y1": y1, "x2": x2, "y2": y2,
                      "hx": min(x1, x2) - 5, "hy": min(y1, y2) - 5,
                      "hw": abs(x2 - x1) + 10, "hh": abs(y2 - y1) + 10,
                      "wall": e in barriers,
                      "label": _("edge %(edge)s") % {"edge": name}
                      + (", " + _("barrier") if e in barriers else "")})
    size = MARGIN * 2 + CELL * board.SIZE
    return {
        "squares": squares, "edges": edges, "size": size, "cell": CELL, "margin": MARGIN,
        "inner": CELL * board.SIZE, "interactive": interactive,
        "columns": [{"name": c, "x": MARGIN + i * CELL + CELL // 2}
                    for i, c in enumerate(board.COLUMNS)],
        "rows": [{"name": str(r + 1), "y": MARGIN + (board.SIZE - 1 - r) * CELL + CELL // 2 + 4}
                 for r in range(board.SIZE)],
        "bottom": MARGIN + CELL * board.SIZE + 16,
        "right": MARGIN + CELL * board.SIZE + 12,
    }
