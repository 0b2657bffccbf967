"""The plain-text grammar of a turn, for e-mail and the page.

One step per line or separated by ``;``::

    occupy e5; wall e5-e6; wall e6-f6; kidnapper c3 ne
    swap e5 kidnapper sw; bomb h8

Words: ``occupy SQ``, ``wall EDGE`` (or ``barrier EDGE``), ``kidnapper SQ CORNER``,
``bomb SQ``, ``swap SQ kidnapper CORNER`` / ``swap SQ bomb``. French words are read too:
``occuper``, ``mur``/``barriere``, ``ravisseur``, ``bombe``, ``echange``; corners ``no``/``so``
stand for ``nw``/``sw``. Lines starting with ``#`` or ``>`` are ignored (quoted mail).
"""

from __future__ import annotations

import re
from typing import Any

from engine.base import Problem, Text, TextError
from engine.base import gettext_noop as _
from engine.final_strategy.turn import Step, StepRefused, normalize_step

WORDS = {
    "occupy": "occupy", "occuper": "occupy", "occupe": "occupy",
    "wall": "barrier", "barrier": "barrier", "mur": "barrier", "barriere": "barrier",
    "barrière": "barrier",
    "kidnapper": "kidnapper", "ravisseur": "kidnapper",
    "bomb": "bomb", "bombe": "bomb",
    "swap": "swap", "echange": "swap", "échange": "swap",
}
PIECES = {"kidnapper": "kidnapper", "ravisseur": "kidnapper", "bomb": "bomb", "bombe": "bomb"}
CORNERS = {"ne": "ne", "nw": "nw", "se": "se", "sw": "sw", "no": "nw", "so": "sw"}

HELP = _("One step per line or separated by ';': occupy SQ, wall SQ-SQ, kidnapper SQ CORNER, "
         "bomb SQ, swap SQ kidnapper CORNER, swap SQ bomb. Example: "
         "occupy e5; wall e5-e6; wall e6-f6; kidnapper c3 ne")


def _parse_step(words: list[str]) -> dict[str, Any]:
    kind = WORDS.get(words[0])
    if kind is None:
        raise StepRefused(_("%(word)s is not a step (occupy, wall, kidnapper, bomb, swap)."),
                          {"word": repr(words[0])})
    args = words[1:]
    shapes = {"occupy": 1, "barrier": 1, "bomb": 1, "kidnapper": 2}
    if kind in shapes and len(args) != shapes[kind]:
        raise StepRefused(_("Write it like: %(shape)s"), {"shape": {
            "occupy": Text(_("occupy SQ (e.g. occupy e5)")),
            "barrier": Text(_("wall SQ-SQ (e.g. wall e5-e6)")),
            "bomb": Text(_("bomb SQ (e.g. bomb h8)")),
            "kidnapper": Text(_("kidnapper SQ CORNER (e.g. kidnapper c3 ne)"))}[kind]})
    if kind == "kidnapper":
        return {"kidnapper": args[0], "corner": CORNERS.get(args[1], args[1])}
    if kind == "swap":
        if len(args) < 2 or PIECES.get(args[1]) is None or \
                len(args) != (3 if PIECES[args[1]] == "kidnapper" else 2):
            raise StepRefused(_("Write it like: swap e5 kidnapper sw, or swap e5 bomb."))
        step: dict[str, Any] = {"swap": args[0], "for": PIECES[args[1]]}
        if step["for"] == "kidnapper":
            step["corner"] = CORNERS.get(args[2], args[2])
        return step
    return {kind: args[0]}


def parse_text(text: str) -> dict[str, Any]:
    """The turn written in ``text``; a TextError names each line (and step) it cannot read."""
    steps: list[Step] = []
    problems = []
    for number, line in enumerate(str(text).splitlines(), start=1):
        line = line.strip()
        if not line or line[0] in "#>":
            continue
        for part in line.split(";"):
            words = re.split(r"[\s,]+", part.strip().lower())
            words = [w for w in words if w]
            if not words:
                continue
            try:
                steps.append(normalize_step(_parse_step(words)))
            except StepRefused as refused:
                problems.append(Problem(f"line {number}", _("%(part)s: %(refused)s"),
                                        {"part": repr(part.strip()), "refused": refused.text}))
    if not steps and not problems:
        problems.append(Problem("line 1", _("Write your turn, e.g. %(example)s"),
                                {"example": HELP.split("Example: ")[1]}))
    if problems:
        raise TextError(problems)
    return {"steps": steps}


def format_step(step: Step) -> str:
    if "occupy" in step:
        return f"occupy {step['occupy']}"
    if "barrier" in step:
        return f"wall {step['barrier']}"
    if "kidnapper" in step:
        return f"kidnapper {step['kidnapper']} {step['corner']}"
    if "bomb" in step:
        return f"bomb {step['bomb']}"
    tail = f" {step['corner']}" if step["for"] == "kidnapper" else ""
    return f"swap {step['swap']} {step['for']}{tail}"


def format_text(submission: dict[str, Any]) -> str:
    return "; ".join(format_step(s) for s in submission["steps"])
