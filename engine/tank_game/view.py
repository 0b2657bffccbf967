"""What a seat (or a spectator) sees: the board, the tanks, the Council; and logbook entries
(which the state does not keep: the portal stores them) as a seat may read them.

Nothing is hidden on the board; a Council member's individual votes are shown only to that member
(the rule book records decree results, not who voted how), tallies are public.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.base import State, Text
from engine.base import gettext_noop as _
from engine.tank_game import council, mines, schedule, squares
from engine.tank_game.actions import STATUS
from engine.tank_game.maps import MAPS
from engine.tank_game.state import council as members
from engine.tank_game.state import name


def _tank_row(state: State, t: dict[str, Any]) -> dict[str, Any]:
    return {
        "seat": t["seat"],
        "name": name(state, t["seat"]),
        "at": t["at"],
        "lives": t["lives"],
        "ap": t["ap"],
        "gold": t["gold"],
        "range": t["range"],
        "bounty": t["bounty"],
        "status": t["status"],
        "alive": t["status"] == "alive",
        "dead": t["status"] == "dead",
        "destroyed": t["status"] == "destroyed",
        "resigned": t["status"] == "resigned",
        "durability": t["durability"],
        "cooldown_until": t["cooldown_until"],
    }


def public_entry(entry: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """A logbook entry as ``seat`` may see it: votes keep their details for the voter only."""
    if entry["kind"] == "vote" and entry["seat"] != seat:
        action = entry["action"]
        hidden = {k: v for k, v in action.items() if k in ("type", "ballot", "decree")}
        return dict(entry, action=hidden)
    return entry


def view(state: State, seat: int | None) -> dict[str, Any]:
    weights = members(state)
    ballots = []
    for ballot in state["ballots"]:
        mine = ballot["votes"].get(str(seat)) if seat is not None else None
        ballots.append(
            {
                "id": ballot["id"],
                "decree": ballot["decree"],
                "title": council.DECREE_NAMES[ballot["decree"]],
                "status": ballot["status"],
                "opened_by": ballot["opened_by"],
                "opened_at": ballot["opened_at"],
                "gameday": ballot["gameday"],
                "tallies": council.tallies(state, ballot),
                "voters": sorted(int(v) for v in ballot["votes"] if int(v) in weights),
                "passed": ballot["passed"],
                "my_vote": dict(mine) if mine else None,
            }
        )
    me = state["tanks"].get(str(seat)) if seat is not None else None
    return {
        "board": {
            "size": state["size"],
            "map": state["options"]["map"],
            "title": MAPS[state["options"]["map"]]["title"],
            "columns": squares.COLUMNS[: state["size"]],
            "walls": dict(state["walls"]),
            "mines": mines.regions(state),
        },
        "tanks": [_tank_row(state, t) for t in state["tanks"].values()],
        "council": {
            "members": [
                {
                    "seat": s,
                    "name": name(state, s),
                    "role": "senator" if w == 2 else "councillor",
                    "weight": w,
                }
                for s, w in sorted(weights.items())
            ],
            "weight": sum(weights.values()),
            "coffer": state["coffer"],
            "armistice": state["armistice"],
            "armistice_limit": state["armistice_limit"],
            "allowances": dict(state["allowances"]),
            "ballots": ballots,
        },
        "me": _tank_row(state, me) if me else None,
        "cooldown_minutes": state["options"]["cooldown_minutes"],
        "schedule": state["options"]["schedule"],
        "gameday": state["gameday"],
        "gamedays": state["gamedays"],
        "over": state["over"],
        "entries": state["entries"],
    }


def log_line(options: dict[str, Any], entry: dict[str, Any]) -> str:
    """One logbook entry in the rule book's style, stamped in the match's time zone."""
    return f"{schedule.local_stamp(options['schedule'], entry['at'])} — {entry['text']}"


def log_text(state: State, entries: Iterable[dict[str, Any]], seat: int | None = None) -> str:
    """Logbook ``entries`` in the rule book's style, one a line, in the match's time zone."""
    options = state["options"]
    return "".join(f"{log_line(options, public_entry(e, seat))}\n" for e in entries)


def board_text(state: State, seat: int | None) -> Text:
    """A monospace diagram: walls as #durability, mines as $, tanks by seat (x = dead)."""
    size = state["size"]
    by_square = {t["at"]: t for t in state["tanks"].values() if t["at"] is not None}
    mine = set(state["mines"])
    width = 5 if state["seats"] >= 100 else 4
    lines = ["    " + "".join(f"{c:>{width}}" for c in squares.COLUMNS[:size])]
    for row in range(size - 1, -1, -1):
        cells = []
        for col in range(size):
            sq = squares.name((col, row))
            if sq in state["walls"]:
                cell = f"#{state['walls'][sq]}"
            elif sq in by_square:
                t = by_square[sq]
                cell = f"{'x' if t['status'] == 'dead' else ''}{t['seat']}"
                if t["seat"] == seat:
                    cell = "*" + cell
            elif sq in mine:
                cell = "$"
            else:
                cell = "."
            cells.append(f"{cell:>{width}}")
        lines.append(f"{row + 1:>4}" + "".join(cells))
    out: list[str] = [*lines, "",
                      Text(_("Tanks (seat name: square, lives, AP, gold, range, bounty):"))]
    for t in state["tanks"].values():
        values = {"seat": f"{t['seat']:>3}", "name": name(state, t["seat"]),
                  "square": t["at"] or "-", "lives": t["lives"], "ap": t["ap"],
                  "gold": t["gold"], "range": t["range"], "bounty": t["bounty"],
                  "status": STATUS.get(t["status"], t["status"])}
        template = (_("%(seat)s %(name)s: %(square)s, %(lives)s lives, %(ap)s AP, %(gold)s gold, "
                      "range %(range)s, bounty %(bounty)s") if t["status"] == "alive" else
                    _("%(seat)s %(name)s: %(square)s, %(lives)s lives, %(ap)s AP, %(gold)s gold, "
                      "range %(range)s, bounty %(bounty)s [%(status)s]"))
        out.append(Text("  %(line)s", {"line": Text(template, values)}))
    out.append(Text(_("Coffer %(gold)s gold; armistice %(count)s/%(limit)s."),
                    {"gold": state["coffer"], "count": state["armistice"],
                     "limit": state["armistice_limit"]}))
    return Text.lines([*out, ""])


def text_help(state: State, seat: int) -> Text:
    return Text(_(
        "One action per line:\n"
        "  move B4 | shoot C5 | give 3 to C5 | give 3 to Corey | buy ap | upgrade range\n"
        "Council members:\n"
        "  stimulus Corey | bounty 3 on Corey | grant life Corey\n"
        "  vote 7 Corey | vote 7 3 on Corey\n"
        "A target is a square, a name or 'seat 4'. Actions count only while a gameday is open, "
        "and each tank action starts a %(minutes)s-minute cooldown.\n"),
        {"minutes": state["options"]["cooldown_minutes"]})
