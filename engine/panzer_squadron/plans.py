"""Plans (docs/conditional-orders.md): a seat's activations said ahead of its turn.

A planned move is one **whole activation**: the tank, the action, and for a move or a move
and fire the path, its target and its end, as the two steps would give them::

    {"activate": "M1", "action": "fire", "target": "e7"}
    {"activate": "M1", "action": "ambush"}
    {"activate": "M1", "action": "move" | "move-fire", "path": [STEP, ...],
     "target": HEX | null, "end": "moving" | "stopped"}

Its canonical form (``plan_move``) reads the shape alone: hexes in lower case, ``target``
null unless fired, ``end`` "stopped" where the rules ignore it (a shot, no forward step). The
other seat's activation is compared in the same form, as it gave it (choice and path), never
by its dice or by what the reactions did to it.

Played (``plan_step``) in the activation's two steps, one phase each: before the choice is
applied, the choice is checked in the position and the path as if the dice gave the most
points they can; a move the position refuses is dropped whole, nothing played, and that check
reads no die. Once the choice is applied the roll is made and public; a planned path the roll
cannot pay for is replaced by the rules' default path (the one a missed path gets), so the
activation always ends whole and no roll is ever seen and taken back.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.base import Problem, RuleError, State, Submission
from engine.base import gettext_noop as _
from engine.panzer_squadron import hexes, legal, movement, rules
from engine.panzer_squadron.data import CARDS

MOVES = ("move", "move-fire")
_ANY_MAP = (26, 99)  # the shape of a hex name, for any map


def _hex(raw: Any, path: str, problems: list[Problem]) -> str | None:
    at = hexes.parse(raw.strip() if isinstance(raw, str) else raw, _ANY_MAP)
    if at is None:
        problems.append(Problem(path, _("%(hex)s is not a hex."), {"hex": repr(raw)}))
        return None
    return hexes.name(at)


def plan_move(seat: int, move: Any) -> Submission:
    """A whole activation in canonical form, by its shape alone (see the module)."""
    if not isinstance(move, Mapping):
        raise RuleError([Problem("", _("A planned activation is {activate, action, ...}."))])
    problems: list[Problem] = []
    extra = set(move) - {"activate", "action", "target", "path", "end"}
    if extra:
        problems.append(Problem("", _("Unknown keys %(extra)s; an activation has activate, "
                                      "action, target, path and end."),
                                {"extra": str(sorted(extra))}))
    name = move.get("activate")
    if not isinstance(name, str) or not name.strip() or len(name) > 20:
        problems.append(Problem("activate", _("Name the tank to activate.")))
        name = None
    action = move.get("action")
    if action not in rules.ACTIONS:
        problems.append(Problem("action", _("The action is one of %(actions)s."),
                                {"actions": ", ".join(rules.ACTIONS)}))
    out: dict[str, Any] = {"activate": name.strip() if name else name, "action": action}
    target = move.get("target")
    if action in MOVES:
        raw = move.get("path")
        if not isinstance(raw, list) or len(raw) > 40:
            problems.append(Problem("path", _("A move names its path (a list of steps; "
                                              "“path none” for none).")))
            raw = []
        steps = []
        for i, step in enumerate(raw):
            found, wrong = movement.parse_step(step, _ANY_MAP, f"path.{i}")
            problems.extend(wrong)
            if found is not None:
                steps.append(found.as_dict())
        if target is not None and action != "move-fire":
            problems.append(Problem("target", _("Only a move and fire names a target.")))
        target = None if target is None else _hex(target, "target", problems)
        end = move.get("end", "stopped")
        if end not in rules.ENDS:
            problems.append(Problem("end", _("The end is moving or stopped.")))
        forward = any("move" in step for step in steps)
        out.update(path=steps, target=target,
                   end=end if forward and target is None else "stopped")
    elif action == "fire":
        if target is None:
            problems.append(Problem("target", _("Fire needs a target hex.")))
        else:
            out["target"] = _hex(target, "target", problems)
        if "path" in move:
            problems.append(Problem("path", _("Only a move has a path.")))
    elif action == "ambush" and (target is not None or "path" in move):
        problems.append(Problem("", _("An ambush names no target and no path.")))
    if problems:
        raise RuleError(problems)
    return out


def _choice(move: Mapping[str, Any]) -> dict[str, Any]:
    choice = {"activate": move["activate"], "action": move["action"]}
    if move["action"] == "fire":
        choice["target"] = move["target"]
    return choice


def _path(move: Mapping[str, Any]) -> dict[str, Any]:
    return {"path": list(move["path"]), "target": move["target"], "end": move["end"]}


def plan_played(steps: Sequence[tuple[int, int, Any]]) -> list[tuple[int, int, Any]]:
    """The whole activations in the submissions played one phase each (phase, seat, data):
    a move's choice and its path make one activation, numbered by the choice's phase; a path
    whose choice came before ``steps`` stands alone as None (it cannot be compared)."""
    out: list[tuple[int, int, Any]] = []
    waiting: dict[int, int] = {}  # seat -> index in out of its choice awaiting the path
    for number, seat, data in steps:
        if not isinstance(data, Mapping):
            out.append((number, seat, None))
        elif "activate" in data:
            if data.get("action") in MOVES:
                waiting[seat] = len(out)
                out.append((number, seat, dict(data)))
            else:
                out.append((number, seat, _canonical(seat, data)))
        elif "path" in data and seat in waiting:
            at = waiting.pop(seat)
            first, _seat, choice = out[at]
            out[at] = (first, seat, _canonical(seat, {**choice, **data}))
        else:
            out.append((number, seat, None))
    for seat, at in waiting.items():  # a choice whose path is not played yet
        out[at] = (out[at][0], seat, None)
    return out


def _canonical(seat: int, data: Mapping[str, Any]) -> Any:
    try:
        return plan_move(seat, data)
    except RuleError:
        return None


def plan_step(state: State, seat: int, move: Mapping[str, Any], index: int
              ) -> Submission | None:
    """The submission that plays step ``index`` of the planned activation ``move`` in
    ``state`` (0: the choice, 1: the path), or None when the activation is whole. Step 0
    raises RuleError when the position refuses the activation (see the module)."""
    if index == 0:
        choice = _choice(move)
        if state["phase"] != "activate":
            raise RuleError([Problem("", _("No activation is to be chosen now."))])
        _normalized, problems = rules.check(state, seat, choice)
        if not problems and move["action"] in MOVES:
            problems = _path_problems(state, seat, move)
        if problems:
            raise RuleError(problems)
        return choice
    pending = state.get("pending")
    if (index != 1 or move["action"] not in MOVES or state["phase"] != "path"
            or pending is None or pending["tank"] != move["activate"]
            or state["to_move"] != seat):
        return None
    path = _path(move)
    _normalized, problems = rules.check(state, seat, path)
    return legal.default_submission(state, seat) if problems else path


def _path_problems(state: State, seat: int, move: Mapping[str, Any]) -> list[Problem]:
    """The planned path checked where the tank stands now, as if its dice gave the most."""
    t = rules.tank(state, move["activate"])
    assert t is not None
    count = rules.dice_count(t)
    most = max(0, 4 * count + CARDS[t["card"]]["modifier"])
    hypothetical = {**state, "phase": "path",
                    "pending": {"tank": t["name"], "action": move["action"],
                                "dice": [4] * count, "points": most}}
    _normalized, problems = rules.check(hypothetical, seat, _path(move))
    return problems
