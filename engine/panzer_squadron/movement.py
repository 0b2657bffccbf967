"""Movement: turning in place, moving into a hex in front, reversing into one behind.

A path is a list of steps ``{"turn": F}``, ``{"move": HEX, "face": F}``, ``{"reverse": HEX,
"face": F}``. Forward and reverse never mix in one activation. ``walk`` checks a whole path
and returns every problem with its step's path; ``cheapest`` searches the cheapest way to every
position a tank can reach (for the bots, the legal list and the missed-deadline default).
"""

from __future__ import annotations

import heapq
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.base import Problem
from engine.base import gettext_noop as _
from engine.panzer_squadron import hexes
from engine.panzer_squadron.board import Board
from engine.panzer_squadron.hexes import Hex

FIRE_COST = 3  # a move and fire keeps 3 points for the shot


@dataclass(frozen=True)
class Step:
    kind: str  # "turn" | "move" | "reverse"
    facing: int
    at: Hex | None = None  # the hex entered (move, reverse)

    def as_dict(self) -> dict[str, Any]:
        if self.kind == "turn":
            return {"turn": self.facing}
        assert self.at is not None
        return {self.kind: hexes.name(self.at), "face": self.facing}


@dataclass(frozen=True)
class Walk:
    """A checked path: its steps, where it ends, what it cost, how it moved."""

    steps: tuple[Step, ...]
    at: Hex
    facing: int
    cost: int
    forward: bool
    reversed: bool


def parse_step(raw: Any, size: tuple[int, int], path: str
               ) -> tuple[Step | None, list[Problem]]:
    """Read one step's shape (legality comes later, in ``walk``)."""
    if not isinstance(raw, Mapping):
        return None, [Problem(path, _("A step is {move|reverse: HEX, face: F} or {turn: F}."))]
    if set(raw) == {"turn"}:
        if raw["turn"] not in hexes.FACINGS:
            return None, [Problem(f"{path}.turn", _("Turn to a corner: 12, 2, 4, 6, 8 or 10."))]
        return Step("turn", raw["turn"]), []
    kinds = [k for k in ("move", "reverse") if k in raw]
    if len(kinds) != 1 or set(raw) != {kinds[0], "face"}:
        return None, [Problem(path, _("A step is {move|reverse: HEX, face: F} or {turn: F}."))]
    kind = kinds[0]
    problems = []
    at = hexes.parse(raw[kind], size)
    if at is None:
        problems.append(Problem(f"{path}.{kind}", _("%(hex)s is not a hex of the map."),
                                {"hex": repr(raw[kind])}))
    if raw["face"] not in hexes.FACINGS:
        problems.append(Problem(f"{path}.face", _("Face a corner: 12, 2, 4, 6, 8 or 10.")))
    if problems:
        return None, problems
    return Step(kind, raw["face"], at), []


def walk(board: Board, at: Hex, facing: int, steps: list[Step], budget: int
         ) -> tuple[Walk, list[Problem]]:
    """Follow ``steps`` from (``at``, ``facing``) spending at most ``budget`` points."""
    problems: list[Problem] = []
    cost, forward, reversed_ = 0, False, False
    for i, step in enumerate(steps):
        path = f"path.{i}"
        if step.kind == "turn":
            if step.facing == facing:
                problems.append(Problem(f"{path}.turn", _("A turn must change the facing.")))
                continue
            cost += hexes.turn_cost(facing, step.facing)
            facing = step.facing
            continue
        assert step.at is not None
        side = hexes.side_between(at, step.at)
        if step.kind == "move":
            allowed, faces = hexes.front_sides(facing), hexes.facings_after_move
            if reversed_:
                problems.append(Problem(path, _("No forward move after reversing.")))
        else:
            allowed, faces = hexes.behind_sides(facing), hexes.facings_after_reverse
            if forward:
                problems.append(Problem(path, _("No reversing after moving forward.")))
        if side not in allowed:
            problems.append(Problem(
                f"{path}.{step.kind}",
                _("%(hex)s is not in front of the tank (at %(at)s facing %(facing)s).")
                if step.kind == "move" else
                _("%(hex)s is not behind the tank (at %(at)s facing %(facing)s)."),
                {"hex": hexes.name(step.at), "at": hexes.name(at), "facing": facing}))
            break
        enter = board.enter_cost(step.at)
        if enter is None:
            problems.append(Problem(f"{path}.{step.kind}",
                                    _("%(hex)s cannot be entered."),
                                    {"hex": hexes.name(step.at)}))
            break
        if step.facing not in faces(side):
            choices = " or ".join(str(f) for f in faces(side))
            problems.append(Problem(f"{path}.face", _("After this step the tank faces "
                                                      "%(choices)s."),
                                    {"choices": choices}))
        cost += enter
        at, facing = step.at, step.facing
        forward = forward or step.kind == "move"
        reversed_ = reversed_ or step.kind == "reverse"
    if cost > budget and not problems:
        problems.append(Problem("path", _("The path costs %(cost)s points; %(budget)s may be "
                                          "spent."),
                                {"cost": cost, "budget": budget}))
    return Walk(tuple(steps), at, facing, cost, forward, reversed_), problems


def cheapest_entry(board: Board, at: Hex, facing: int) -> int | None:
    """The fewest points that enter one hex (turns first, then one hex, forward or reverse)."""
    best = None
    for new in hexes.FACINGS:
        turn = hexes.turn_cost(facing, new)
        for h in (*hexes.front(at, new), *hexes.behind(at, new)):
            enter = board.enter_cost(h)
            if enter is not None and (best is None or turn + enter < best):
                best = turn + enter
    return best


def must_move(board: Board, at: Hex, facing: int, budget: int) -> bool:
    """Having rolled, the tank must enter a hex if some turns and one hex fit the budget."""
    entry = cheapest_entry(board, at, facing)
    return entry is not None and entry <= budget


def cheapest(board: Board, at: Hex, facing: int, budget: int, kind: str
             ) -> dict[tuple[Hex, int], tuple[int, tuple[Step, ...]]]:
    """Every (hex, facing) reachable within ``budget`` moving only ``kind`` ("move" or
    "reverse") plus turns, with its cheapest cost and steps (ties: fewest steps, then the
    order the neighbours are tried: front left before front right)."""
    best: dict[tuple[Hex, int], tuple[int, tuple[Step, ...]]] = {(at, facing): (0, ())}
    counter = 0
    queue: list[tuple[int, int, int, Hex, int, tuple[Step, ...]]] = [(0, 0, 0, at, facing, ())]
    while queue:
        cost, _tie, _seq, here, face, steps = heapq.heappop(queue)
        if best.get((here, face), (None,))[0] != cost or best[(here, face)][1] != steps:
            continue
        options: list[tuple[int, Hex, int, Step]] = []
        for new in hexes.FACINGS:
            if new != face:
                options.append((hexes.turn_cost(face, new), here, new, Step("turn", new)))
        sides = hexes.front_sides(face) if kind == "move" else hexes.behind_sides(face)
        faces = hexes.facings_after_move if kind == "move" else hexes.facings_after_reverse
        for side in sides:
            h = hexes.neighbour(here, side)
            enter = board.enter_cost(h)
            if enter is None:
                continue
            for f in faces(side):
                options.append((enter, h, f, Step(kind, f, h)))
        for extra, h, f, step in options:
            total = cost + extra
            if total > budget:
                continue
            known = best.get((h, f))
            if known is None or total < known[0] or (total == known[0]
                                                     and len(steps) + 1 < len(known[1])):
                best[(h, f)] = (total, (*steps, step))
                counter += 1
                heapq.heappush(queue, (total, len(steps) + 1, counter, h, f, (*steps, step)))
    return best


def default_path(board: Board, at: Hex, facing: int, budget: int) -> list[Step]:
    """The missed-deadline path: nothing where the tank need not move, else the fewest points
    that enter one hex, straight ahead (no turn) first, forward before reverse."""
    if not must_move(board, at, facing, budget):
        return []
    candidates: list[tuple[int, int, list[Step]]] = []
    order = 0
    for kind in ("move", "reverse"):
        for new in sorted(hexes.FACINGS, key=lambda f: (hexes.turn_cost(facing, f),
                                                         hexes.FACINGS.index(f))):
            turn = hexes.turn_cost(facing, new)
            sides = hexes.front_sides(new) if kind == "move" else hexes.behind_sides(new)
            faces = hexes.facings_after_move if kind == "move" else hexes.facings_after_reverse
            for side in sides:
                h = hexes.neighbour(at, side)
                enter = board.enter_cost(h)
                if enter is None:
                    continue
                steps = ([Step("turn", new)] if turn else []) + [Step(kind, faces(side)[0], h)]
                candidates.append((turn + enter, order, steps))
                order += 1
    candidates.sort(key=lambda c: (c[0], c[1]))
    return candidates[0][2]
