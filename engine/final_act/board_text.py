"""Final Act as plain text for email: a monospace board diagram and the order grammar help.

Everything here is drawn from ``view(state, seat)`` (and, for the seat's own moves,
``legal_actions``), so a diagram never shows more than that seat may see: before the setups are
revealed the state holds no placements at all, and nothing of a pending sheet is in the state.

The diagram (rank 12 at the top, as Delta sees the board from the north)::

         a   b   c   d   e   f   g   h   i   j   k   l
     12  .   .   .  2A v .   .   .   .   .   .   .   .   12
     ...

Each square is four characters: a unit's name with an arrow for its facing (``^ > v <`` for
N E S W; Alpha's units in capitals, Delta's in lower case), or the terrain: ``=`` berm,
``~`` swamp, ``x`` minefield (``o`` its passage), ``.`` open ground.
"""

from __future__ import annotations

from typing import Any

from engine.final_act import board
from engine.final_act.legal import legal_actions
from engine.final_act.view import view

State = dict[str, Any]

ARROWS = {"N": "^", "E": ">", "S": "v", "W": "<"}
TERRAIN_MARKS = {"berm": "=", "swamp": "~", "minefield": "x"}
CELL = 4


def _unit_mark(unit: dict[str, Any]) -> str:
    name = unit["name"] if unit["seat"] == 1 else unit["name"].lower()
    return f"{name}{ARROWS.get(unit['facing'] or '', '')}"


def _terrain_marks(terrain: list[dict[str, Any]]) -> dict[str, str]:
    marks: dict[str, str] = {}
    for piece in terrain:
        mark = TERRAIN_MARKS.get(piece["kind"], "?")
        for sq in piece["squares"]:
            marks[sq] = mark
        if piece["kind"] == "minefield" and piece.get("passage"):
            marks[piece["passage"]] = "o"
    return marks


def diagram(seen: dict[str, Any]) -> str:
    """The 12 x 12 grid of a view, one text line per rank."""
    marks = _terrain_marks(seen["terrain"])
    for unit in seen["units"]:
        if unit["at"]:
            marks[unit["at"]] = _unit_mark(unit)
    files = "".join(f.center(CELL) for f in board.FILES)
    lines = [f"    {files}"]
    for rank in range(board.SIZE, 0, -1):
        cells = "".join(
            marks.get(f"{f}{rank}", ".").center(CELL) for f in board.FILES
        )
        lines.append(f"{rank:>3} {cells} {rank}")
    lines.append(f"    {files}")
    return "\n".join(lines)


def _unit_lines(seen: dict[str, Any]) -> list[str]:
    lines = []
    for unit in seen["units"]:
        side = board.SEAT_NAMES[unit["seat"]]
        where = f"at {unit['at']} facing {unit['facing']}" if unit["at"] else "off the board"
        hits = f", {unit['hits']} hit(s)" if unit["hits"] else ""
        lines.append(f"  {side} {unit['name']}: {where}{hits}, {unit['status'].replace('_', ' ')}")
    return lines


def board_text(state: State, seat: int | None) -> str:
    """What ``view(state, seat)`` shows, as a monospace diagram with a list of units."""
    seen = view(state, seat)
    breakthroughs = seen["breakthroughs"]
    parts = [
        f"Round {seen['round']} of {seen['round_limit']} ({seen['phase']} phase). "
        f"Breakthroughs: Alpha {breakthroughs['1']}, Delta {breakthroughs['2']}.",
        "",
        diagram(seen),
        "",
        "Key: Alpha in CAPITALS, Delta in lower case; ^ > v < facing N E S W; "
        "= berm, ~ swamp, x minefield, o its passage.",
    ]
    units = _unit_lines(seen)
    if units:
        parts += ["", "Units:", *units]
    elif seen["phase"] == "setup":
        parts += ["", "Nothing is on the board yet: both sides place their units in secret."]
    if seen["board_tokens"]:
        parts += ["", "Tokens on the board:"]
        parts += [
            f"  {t['token'].replace('_', ' ')} at {t['at']} "
            f"({board.SEAT_NAMES[int(t['seat'])]}, round {t['round']})"
            for t in seen["board_tokens"]
        ]
    if seat is not None and seen["tokens"].get(str(seat)):
        names = ", ".join(t.replace("_", " ") for t in seen["tokens"][str(seat)])
        parts += ["", f"Your unused tokens: {names}"]
    if seen["last_round"]:
        parts += ["", "Last round:"]
        parts += [f"  {event['text']}" for event in seen["last_round"] if event.get("text")]
    if seen.get("result"):
        parts += ["", f"Result: {seen['result']['reason']}"]
    return "\n".join(parts)


SETUP_HELP = """\
Write one order per line (";" also separates orders). Setup orders:
  large berm c3 d3
  small berms f2 h3
  swamp a5 b5 a6 b6
  minefield g5 h5 i5 passage h5 arrow N
  C e1 N                 (unit, square, facing)
  draft smoke air strike quick sand   (only when tokens are drafted)"""

ORDERS_HELP = """\
Write one order per line (";" also separates orders). Units you leave out stay and hold fire.
  1A FL turn fire e7     (tank: stay F FL FR B BL BR, "turn" with a diagonal move, shells)
  AT1 NE face E          (AT unit: compass step, new facing)
  smoke d4 / air strike c1 fire c9 c10 paid by 1B / full throttle 1A
  quick shot C fire e7 f7 / mine clearing c8 / quick sand d5 / red cross d3
  repair 1A / double shot C"""


def _moves_text(moves: list[dict[str, Any]]) -> str:
    words = []
    for move in moves:
        if move["move"] == "stay" and not move.get("turn"):
            words.append("stay")
            continue
        turn = " turn" if move.get("turn") else ""
        words.append(f"{move['move']}{turn}->{move['to']}")
    return ", ".join(words)


def text_help(state: State, seat: int) -> str:
    """The order grammar of the current phase, and the seat's units with their legal moves."""
    if state["phase"] == "setup":
        legal = legal_actions(state, seat)
        squares = " ".join(legal.get("unit_squares", []))
        return (
            f"{SETUP_HELP}\n\nYour units: {' '.join(legal.get('units', []))}\n"
            f"They may start on: {squares}"
        )
    if state["phase"] != "orders":
        return "The match is over: no more orders are taken."
    legal = legal_actions(state, seat)
    lines = [ORDERS_HELP, "", "Your units and their legal moves:"]
    for name, unit in legal.get("units", {}).items():
        lines.append(f"  {name}: {_moves_text(unit.get('moves', []))}")
        if unit.get("fire") and unit.get("shells"):
            lines.append(f"      may fire {unit['shells']} shell(s) at: {' '.join(unit['fire'])}")
    tokens = legal.get("tokens") or {}
    if tokens:
        lines.append(f"Tokens you may play: {', '.join(t.replace('_', ' ') for t in tokens)}")
    return "\n".join(lines)
