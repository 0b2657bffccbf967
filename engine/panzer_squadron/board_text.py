"""The hex board as monospace text for e-mail: offset rows, north at the top."""

from __future__ import annotations

from typing import Any

ARROWS = {12: "^", 2: "/", 4: "\\", 6: "v", 8: "/", 10: "\\"}
TERRAIN_MARK = {"woods": "##", "building": "[]", "water": "~~"}


def board_text(view: dict[str, Any]) -> str:
    cols, rows = view["size"]
    marks: dict[str, str] = {}
    for kind, names in view["terrain"].items():
        for n in names:
            marks[n] = TERRAIN_MARK[kind]
    for t in view["tanks"]:
        if t["alive"]:
            marks[t["at"]] = t["name"][:2] if len(t["name"]) <= 2 else t["name"][:1] + \
                t["name"][-1]
    letters = [chr(ord("a") + c) for c in range(cols)]
    lines = ["    " + "".join(f"{c:<4}" for c in letters)]
    for row in range(rows, 0, -1):
        pad = "  " if row % 2 == 0 else ""
        cells = "".join(f"{marks.get(f'{c}{row}', ' .'):<4}" for c in letters)
        lines.append(f"{row:>2}  {pad}{cells}".rstrip())
    lines.append("")
    lines.append("## woods   [] building   ~~ water   even rows sit half a hex east")
    for t in view["tanks"]:
        where = f"{t['at']} facing {t['facing']}, {t['state']}" if t["alive"] else "destroyed"
        done = ", activated" if t["activated"] and t["alive"] else ""
        lines.append(f"{t['name']:<4} seat {t['seat']} {t['card']:<6} {where}{done}")
    if view["pending"]:
        p = view["pending"]
        lines.append(f"{p['tank']} {p['action']}: rolled {'+'.join(map(str, p['dice']))} = "
                     f"{p['points']} points")
    lines.append(f"Turn {view['turn']}, initiative seat {view['initiative']}; destroyed "
                 f"{view['destroyed']['1']} (seat 1) : {view['destroyed']['2']} (seat 2)")
    return "\n".join(lines)
