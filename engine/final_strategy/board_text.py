"""The board as a monospace diagram for plain-text e-mail (only what a seat may see)."""

from __future__ import annotations

from typing import Any

from engine.final_strategy import board
from engine.final_strategy.view import view

LEGEND = ("1-4: a seat's troop   K1: seat 1's kidnapper   B1: seat 1's bomb   "
          "o: formed, empty   *: safe square   ~: neutral square")


def _cell(sq: int, pieces: dict[int, dict[str, Any]], formed: set[int]) -> str:
    piece = pieces.get(sq)
    if piece is not None:
        seat = piece["seat"]
        if piece["kind"] == "troop":
            return f" {seat} "
        return f"{'K' if piece['kind'] == 'kidnapper' else 'B'}{seat} "
    if sq in formed:
        return " o "
    if sq in board.SAFE:
        return " * "
    if sq in board.NEUTRAL:
        return " ~ "
    return "   "


def board_text(state: dict[str, Any], seat: int | None) -> str:
    v = view(state, seat)
    return "\n".join(diagram(v) + notes(v))


def diagram(v: dict[str, Any]) -> list[str]:
    """The grid alone: squares, pieces, barriers drawn with ASCII, coordinates around."""
    barriers = {board.EDGE_INDEX[e] for e in v["barriers"]}
    pieces = {board.SQUARE_INDEX[p["at"]]: p for p in v["pieces"]}
    formed = {board.SQUARE_INDEX[s] for s in v["formed"]}
    size = board.SIZE
    lines = ["    " + "".join(f" {c}  " for c in board.COLUMNS)]
    for row in range(size - 1, -1, -1):
        # The line above row ``row``: the border on top, then the edges north of each square.
        top = "    +"
        for col in range(size):
            if row == size - 1:
                top += "---+"
            else:
                edge = col * 9 + row
                top += ("---" if edge in barriers else "   ") + "+"
        lines.append(top)
        cells = f"{row + 1:>3} |"
        for col in range(size):
            sq = board.square(col, row)
            cells += _cell(sq, pieces, formed)
            if col == size - 1:
                cells += "|"
            else:
                cells += "|" if 90 + col * size + row in barriers else " "
        lines.append(cells + f" {row + 1}")
    lines.append("    +" + "---+" * size)
    lines.append("    " + "".join(f" {c}  " for c in board.COLUMNS))
    return lines


def notes(v: dict[str, Any]) -> list[str]:
    """The lines under the grid: kidnappers' corners, legend, bunkers and scores, who moves."""
    lines: list[str] = []
    kidnappers = [f"{p['at']} {p['corner']}" for p in v["pieces"] if p["kind"] == "kidnapper"]
    if kidnappers:
        lines.append("Kidnappers (square, corner): " + ", ".join(kidnappers))
    lines.append(LEGEND)
    bunkers = []
    for s, b in sorted(v["bunkers"].items(), key=lambda kv: int(kv[0])):
        split = (f" ({b['troops']} troops, {b['kidnappers']} kidnappers, {b['bombs']} bombs)"
                 if "troops" in b else "")
        gone = " [removed]" if int(s) in v["removed"] else ""
        bunkers.append(f"seat {s}: bunker {b['count']}{split}, score {v['scores'][s]}{gone}")
    lines.extend(bunkers)
    if v["to_move"] is not None:
        lines.append(f"Turn {v['turn']}: seat {v['to_move']} to move.")
    else:
        lines.append(f"Game over: {v['reason']}.")
    return lines
