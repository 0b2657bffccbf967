"""The hex board as monospace text for e-mail: offset rows, north at the top."""

from __future__ import annotations

from typing import Any

from engine.base import Text, pgettext
from engine.base import gettext_noop as _

ARROWS = {12: "^", 2: "/", 4: "\\", 6: "v", 8: "/", 10: "\\"}
TERRAIN_MARK = {"woods": "##", "building": "[]", "water": "~~"}


# A tank's state as the list under the board shows it.
STATES = {"stationary": pgettext("tank state", "stationary"),
          "moving": pgettext("tank state", "moving"),
          "ambush": pgettext("tank state", "ambush")}


def board_text(view: dict[str, Any]) -> Text:
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
    out: list[str] = [*lines, "",
                      Text(_("## woods   [] building   ~~ water   even rows sit half a hex east"))]
    for t in view["tanks"]:
        values = {"tank": f"{t['name']:<4}", "seat": t["seat"], "card": f"{t['card']:<6}",
                  "hex": t["at"], "facing": t["facing"],
                  "state": STATES.get(t["state"], t["state"])}
        if not t["alive"]:
            template = _("%(tank)s seat %(seat)s %(card)s destroyed")
        elif t["activated"]:
            template = _("%(tank)s seat %(seat)s %(card)s %(hex)s facing %(facing)s, %(state)s, "
                         "activated")
        else:
            template = _("%(tank)s seat %(seat)s %(card)s %(hex)s facing %(facing)s, %(state)s")
        out.append(Text(template, values))
    if view["pending"]:
        p = view["pending"]
        out.append(Text(_("%(tank)s %(action)s: rolled %(dice)s = %(points)s points"),
                        {"tank": p["tank"], "action": p["action"],
                         "dice": "+".join(map(str, p["dice"])), "points": p["points"]}))
    out.append(Text(_("Turn %(turn)s, initiative seat %(seat)s; destroyed %(one)s (seat 1) : "
                      "%(two)s (seat 2)"),
                    {"turn": view["turn"], "seat": view["initiative"],
                     "one": view["destroyed"]["1"], "two": view["destroyed"]["2"]}))
    return Text.lines(out)
