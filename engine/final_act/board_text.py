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

from engine.base import Text, pgettext
from engine.base import gettext_noop as _
from engine.final_act import board
from engine.final_act.legal import legal_actions
from engine.final_act.report import PHRASEBOOK, round_story
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


# A unit's status as the unit list shows it.
STATUS = {
    "ok": pgettext("unit status", "ok"),
    "damaged": pgettext("unit status", "damaged"),
    "out": pgettext("unit status", "out"),
    "wreck": pgettext("unit status", "wreck"),
    "broke_through": pgettext("unit status", "broke through"),
    "repairing": pgettext("unit status", "repairing"),
}
HEADINGS = {
    "setup": _("Round %(round)s of %(limit)s (setup phase). Breakthroughs: Alpha %(alpha)s, "
               "Delta %(delta)s."),
    "orders": _("Round %(round)s of %(limit)s (orders phase). Breakthroughs: Alpha %(alpha)s, "
                "Delta %(delta)s."),
    "over": _("Round %(round)s of %(limit)s (over phase). Breakthroughs: Alpha %(alpha)s, "
              "Delta %(delta)s."),
}


def _indented(line: str | Text, depth: int = 2) -> Text:
    return Text(" " * depth + "%(line)s", {"line": line})


def _unit_lines(seen: dict[str, Any]) -> list[Text]:
    lines = []
    for unit in seen["units"]:
        values = {"unit": f"{board.SEAT_NAMES[unit['seat']]} {unit['name']}",
                  "square": unit["at"], "facing": unit["facing"], "hits": unit["hits"],
                  "status": STATUS.get(unit["status"], unit["status"].replace("_", " "))}
        if not unit["at"]:
            line = (Text(_("%(unit)s: off the board, %(hits)s hit(s), %(status)s"), values)
                    if unit["hits"] else Text(_("%(unit)s: off the board, %(status)s"), values))
        elif unit["hits"]:
            line = Text(_("%(unit)s: at %(square)s facing %(facing)s, %(hits)s hit(s), "
                          "%(status)s"), values)
        else:
            line = Text(_("%(unit)s: at %(square)s facing %(facing)s, %(status)s"), values)
        lines.append(_indented(line))
    return lines


def board_text(state: State, seat: int | None) -> Text:
    """What ``view(state, seat)`` shows, as a monospace diagram with a list of units."""
    seen = view(state, seat)
    breakthroughs = seen["breakthroughs"]
    parts: list[str | Text] = [
        Text(HEADINGS.get(seen["phase"], HEADINGS["over"]),
             {"round": seen["round"], "limit": seen["round_limit"],
              "alpha": breakthroughs["1"], "delta": breakthroughs["2"]}),
        "",
        diagram(seen),
        "",
        Text(_("Key: Alpha in CAPITALS, Delta in lower case; ^ > v < facing N E S W; "
               "= berm, ~ swamp, x minefield, o its passage.")),
    ]
    units = _unit_lines(seen)
    if units:
        parts += ["", Text(_("Units:")), *units]
    elif seen["phase"] == "setup":
        parts += ["", Text(_("Nothing is on the board yet: both sides place their units in "
                             "secret."))]
    if seen["board_tokens"]:
        parts += ["", Text(_("Tokens on the board:"))]
        parts += [
            _indented(Text(_("%(token)s at %(square)s (%(side)s, round %(round)s)"),
                           {"token": t["token"].replace("_", " "), "square": t["at"],
                            "side": board.SEAT_NAMES[int(t["seat"])], "round": t["round"]}))
            for t in seen["board_tokens"]
        ]
    if seat is not None and seen["tokens"].get(str(seat)):
        names = ", ".join(t.replace("_", " ") for t in seen["tokens"][str(seat)])
        parts += ["", Text(_("Your unused tokens: %(tokens)s"), {"tokens": names})]
    if seen["last_round"]:
        parts += ["", Text(_("Last round:"))]
        parts += [_indented(line) for line in round_story(seen["last_round"], seat)]
    if seen.get("result"):
        parts += ["", Text(_("Result: %(reason)s"),
                           {"reason": PHRASEBOOK.read(seen["result"]["reason"])})]
    return Text.lines(parts)


SETUP_HELP = _("""\
Write one order per line (";" also separates orders). Setup orders:
  large berm c3 d3
  small berms f2 h3
  swamp a5 b5 a6 b6
  minefield g5 h5 i5 passage h5 arrow N
  C e1 N                 (unit, square, facing)
  draft smoke air strike quick sand   (only when tokens are drafted)""")

ORDERS_HELP = _("""\
Write one order per line (";" also separates orders). Units you leave out stay and hold fire.
  1A FL turn fire e7     (tank: stay F FL FR B BL BR, "turn" with a diagonal move, shells)
  AT1 NE face E          (AT unit: compass step, new facing)
  smoke d4 / air strike c1 fire c9 c10 paid by 1B / full throttle 1A
  quick shot C fire e7 f7 / mine clearing c8 / quick sand d5 / red cross d3
  repair 1A / double shot C""")


def _moves_text(moves: list[dict[str, Any]]) -> str:
    words = []
    for move in moves:
        if move["move"] == "stay" and not move.get("turn"):
            words.append("stay")
            continue
        turn = " turn" if move.get("turn") else ""
        words.append(f"{move['move']}{turn}->{move['to']}")
    return ", ".join(words)


def text_help(state: State, seat: int) -> Text:
    """The order grammar of the current phase, and the seat's units with their legal moves."""
    if state["phase"] == "setup":
        legal = legal_actions(state, seat)
        return Text(_("%(help)s\n\nYour units: %(units)s\nThey may start on: %(squares)s"),
                    {"help": Text(SETUP_HELP), "units": " ".join(legal.get("units", [])),
                     "squares": " ".join(legal.get("unit_squares", []))})
    if state["phase"] != "orders":
        return Text(_("The match is over: no more orders are taken."))
    legal = legal_actions(state, seat)
    lines: list[str | Text] = [Text(ORDERS_HELP), "", Text(_("Your units and their legal moves:"))]
    for name, unit in legal.get("units", {}).items():
        lines.append(f"  {name}: {_moves_text(unit.get('moves', []))}")
        if unit.get("fire") and unit.get("shells"):
            lines.append(_indented(Text(_("may fire %(shells)s shell(s) at: %(squares)s"),
                                        {"shells": unit["shells"],
                                         "squares": " ".join(unit["fire"])}), 6))
    tokens = legal.get("tokens") or {}
    if tokens:
        lines.append(Text(_("Tokens you may play: %(tokens)s"),
                          {"tokens": ", ".join(t.replace("_", " ") for t in tokens)}))
    return Text.lines(lines)
