"""The plain-text order grammar (e-mail replies and the text form), with a round trip.

::

    activate M1 move-fire            choose the action (fire names its target: activate M1 fire e7)
    path c5 12, d6 2, turn 4         then the path: HEX FACING per hex, "reverse HEX FACING",
                                     "turn FACING"; "path none" for no step
    fire e7                          a move and fire's target
    end moving                       or "end stopped" (the default)
    reaction H1 side-rear max 6      a standing reaction (hold, first, side-rear; "max N")

Clauses go on separate lines or are separated by ";". A reply holds one activation, one path,
or only reactions.
"""

from __future__ import annotations

import re
from typing import Any

from engine.base import Problem, Submission, TextError
from engine.base import gettext_noop as _

_SPLIT = re.compile(r"[;\n]")


def _int(word: str) -> Any:
    return int(word) if word.isdigit() else word


def _step(words: list[str]) -> dict[str, Any] | None:
    if len(words) == 2 and words[0] == "turn":
        return {"turn": _int(words[1])}
    if len(words) == 3 and words[0] in ("reverse", "back"):
        return {"reverse": words[1], "face": _int(words[2])}
    if len(words) == 3 and words[0] in ("move", "to"):
        return {"move": words[1], "face": _int(words[2])}
    if len(words) == 2:
        return {"move": words[0], "face": _int(words[1])}
    return None


def parse(text: str, *, whole: bool = False) -> Submission:
    """One reply's orders; ``whole``: one whole activation, its choice and its path together
    (a plan's move: ``activate M1 move; path c5 12; end moving``)."""
    problems: list[Problem] = []
    sub: dict[str, Any] = {}
    reactions: dict[str, Any] = {}
    for number, raw in enumerate(_SPLIT.split(text), start=1):
        line = raw.split("#", 1)[0].strip().lower()
        if not line:
            continue
        where = f"clause {number}"
        words = line.replace(",", " , ").split()
        head, rest = words[0], words[1:]
        if head == "activate" and len(rest) in (2, 3):
            sub["activate"] = rest[0].upper()
            sub["action"] = rest[1]
            if len(rest) == 3:
                sub["target"] = rest[2]
        elif head == "path":
            steps: list[dict[str, Any]] = []
            if rest != ["none"]:
                chunk: list[str] = []
                for word in [*rest, ","]:
                    if word != ",":
                        chunk.append(word)
                        continue
                    if not chunk:
                        continue
                    step = _step(chunk)
                    if step is None:
                        problems.append(Problem(where, _("Cannot read the step %(chunk)s (HEX "
                                                         "FACING, reverse HEX FACING, turn "
                                                         "FACING)."),
                                                {"chunk": repr(' '.join(chunk))}))
                    else:
                        steps.append(step)
                    chunk = []
            sub["path"] = steps
            sub.setdefault("target", None)
        elif head == "fire" and len(rest) == 1:
            sub["target"] = None if rest[0] == "none" else rest[0]
        elif head == "end" and len(rest) == 1:
            sub["end"] = rest[0]
        elif head == "reaction" and len(rest) in (2, 4) and (len(rest) == 2 or rest[2] == "max"):
            reactions[rest[0].upper()] = {"mode": rest[1],
                                          "max_range": _int(rest[3]) if len(rest) == 4 else None}
        else:
            problems.append(Problem(where, _("Cannot read %(line)s."),
                                    {"line": repr(line)}))
    if reactions and sub:
        problems.append(Problem("", _("Reactions go in a reply of their own.")))
    if whole:
        if reactions or "activate" not in sub:
            problems.append(Problem("", _("A planned activation starts “activate TANK "
                                          "ACTION”; a move adds its path: “activate M1 move; "
                                          "path c5 12”.")))
    elif "activate" in sub and "path" in sub:
        problems.append(Problem("", _("Choose the action first; the path follows the roll.")))
    if not reactions and not sub and not problems:
        problems.append(Problem("", _("No orders found.")))
    if problems:
        raise TextError(problems)
    if reactions:
        return {"reactions": reactions}
    if "path" in sub or "end" in sub:
        sub.setdefault("path", [])
        sub.setdefault("end", "stopped")
        sub.setdefault("target", None)
    return sub


def _step_text(step: dict[str, Any]) -> str:
    if "turn" in step:
        return f"turn {step['turn']}"
    if "reverse" in step:
        return f"reverse {step['reverse']} {step['face']}"
    return f"{step['move']} {step['face']}"


def format(sub: Submission) -> str:
    if "reactions" in sub:
        lines = []
        for name, r in sub["reactions"].items():
            extra = f" max {r['max_range']}" if r.get("max_range") is not None else ""
            lines.append(f"reaction {name} {r['mode']}{extra}")
        return "\n".join(lines)
    if "activate" in sub and "path" in sub:  # a whole activation (a plan's), on one line
        clauses = [f"activate {sub['activate']} {sub['action']}",
                   *format({k: sub[k] for k in ("path", "target", "end") if k in sub}
                           ).split("\n")]
        return "; ".join(clauses)
    if "activate" in sub:
        target = f" {sub['target']}" if sub.get("target") and sub.get("action") == "fire" \
            else ""
        return f"activate {sub['activate']} {sub['action']}{target}"
    steps = ", ".join(_step_text(s) for s in sub.get("path", [])) or "none"
    lines = [f"path {steps}"]
    if sub.get("target"):
        lines.append(f"fire {sub['target']}")
    lines.append(f"end {sub.get('end', 'stopped')}")
    return "\n".join(lines)


HELP = {
    "activate": _("activate TANK move | move-fire | ambush   or   activate TANK fire HEX\n"
                  "reaction TANK hold | first | side-rear [max N]   (any time, in a reply of "
                  "its own)"),
    "path": _("path HEX FACING, HEX FACING, turn FACING   (or reverse HEX FACING; path none)\n"
              "fire HEX   (a move and fire's target)\nend moving | stopped"),
}
