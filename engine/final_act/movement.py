"""Simultaneous movement: every unit has an intended square; conflicts make units stay.

- Two or more units intending one square: none of them moves (unless Extra Forces stacking lets
  them share it, or an enemy tank runs over an AT there).
- A unit whose destination ends the round held by a unit it may not share with stays. Repeated
  until nothing changes (bounces cause bounces).
- Units trading squares, or any longer cycle of units moving into each other's squares: none of
  them moves.
- Full throttle: the intermediate square must not end the round occupied, or the tank stays.
- Enemy quick sand placed this round on a square a unit would enter: the unit stays.

A tank that does not move does not turn either (the turn is part of the diagonal move); an AT
changes its facing whether or not it moves.
"""

from __future__ import annotations

from typing import Any

from engine.base import Text
from engine.base import gettext_noop as _
from engine.final_act import board
from engine.final_act.position import Position
from engine.final_act.stacking import run_over, stack_problem
from engine.final_act.units import Unit, full_label

Key = tuple[int, str]

# Why a unit stays (a bounce event's "reason", read back by the report: see ``Phrasebook``).
QUICK_SAND = _("enemy quick sand on %(square)s")
ALSO_MOVED = _("%(units)s also moved there")
STAYED = _("%(units)s stayed there")
PASSES = _("the square it passes, %(square)s, ends the round occupied")
NO_TRADE = _("units cannot trade squares")
BOUNCES = (QUICK_SAND, ALSO_MOVED, STAYED, PASSES, NO_TRADE)

# What a unit did (an event's "text", read back by the report: see ``Phrasebook``).
MOVED = _("%(unit)s moved %(from)s -> %(to)s.")
MOVED_TURNED = _("%(unit)s moved %(from)s -> %(to)s and turned to face %(facing)s.")
THROTTLE_MOVED = _("%(unit)s moved at full throttle %(from)s -> %(to)s.")
THROTTLE_MOVED_TURNED = _("%(unit)s moved at full throttle %(from)s -> %(to)s and turned to "
                          "face %(facing)s.")
BOUNCED = _("%(unit)s stayed at %(from)s instead of moving to %(to)s: %(reason)s.")
RUN_OVER = _("%(unit)s was run over by %(tank)s at %(square)s: out.")
# The most specific first: a sentence is read back by the first template it fits.
TEXTS = (THROTTLE_MOVED_TURNED, THROTTLE_MOVED, MOVED_TURNED, MOVED, BOUNCED, RUN_OVER)


def _key(unit: Unit) -> Key:
    return unit["seat"], unit["name"]


class Mover:
    __slots__ = ("unit", "origin", "path", "facing", "reason")

    def __init__(self, unit: Unit, origin: int, path: list[int], facing: str) -> None:
        self.unit = unit
        self.origin = origin
        self.path = path  # squares entered, the last one is the destination
        self.facing = facing  # facing after a successful move
        self.reason: Text | None = None  # why it stays

    @property
    def dest(self) -> int:
        return self.path[-1] if self.path else self.origin


def plan_moves(pos: Position, sheets: dict[int, dict[str, Any]]) -> list[Mover]:
    """Every unit on the board (wrecks included) with its intended path."""
    movers = []
    for unit in pos.units:
        if unit["state"] not in ("active", "wreck"):
            continue
        origin = pos.sq(unit)
        facing = unit["facing"]
        path: list[int] = []
        if unit["state"] == "active":
            sheet = sheets[unit["seat"]]
            order = sheet["units"].get(unit["name"], {"move": "stay"})
            move = order["move"]
            throttle = sheet["tokens"].get("full_throttle", {}).get("unit") == unit["name"]
            if move != "stay":
                path, _why = pos.move_path(
                    unit, move, 2 if throttle else 1, extra_clear=_own_clear(sheet)
                )
            if unit["kind"] == "at":
                facing = order.get("face", facing)
            elif (
                unit["kind"] == "tank"
                and order.get("turn")
                and move in board.DIAGONAL_MOVES
                and not throttle
            ):
                facing = board.turned(facing, move)
        movers.append(Mover(unit, origin, path, facing))
    return movers


def _own_clear(sheet: dict[str, Any]) -> set[int]:
    use = sheet["tokens"].get("mine_clearing")
    sq = board.parse(use["at"]) if use else None
    return {sq} if sq is not None else set()


def resolve_movement(
    pos: Position,
    sheets: dict[int, dict[str, Any]],
    new_sand: dict[int, set[int]],
    events: list[dict[str, Any]],
) -> tuple[dict[Key, int], dict[Key, str], list[Unit]]:
    """Final squares and facings of every unit on the board, and the ATs run over."""
    movers = plan_moves(pos, sheets)
    moving = [m for m in movers if m.path]
    for m in moving:
        sand = new_sand[board.enemy(m.unit["seat"])]
        blocked = [sq for sq in m.path if sq in sand]
        if blocked:
            m.reason = Text(QUICK_SAND, {"square": board.name(blocked[0])})
    _settle(movers)
    final: dict[Key, int] = {}
    facing: dict[Key, str] = {}
    for m in movers:
        key = _key(m.unit)
        if m.path and not m.reason:
            final[key] = m.dest
            facing[key] = m.facing
            events.append(_move_event(m))
        else:
            final[key] = m.origin
            facing[key] = m.facing if m.unit["kind"] == "at" else m.unit["facing"]
            if m.path:
                events.append(_bounce_event(m))
    crushed: list[Unit] = []
    groups: dict[int, list[Unit]] = {}
    for m in movers:
        if m.unit["state"] == "active":
            groups.setdefault(final[_key(m.unit)], []).append(m.unit)
    for sq in sorted(groups):
        for at_unit in run_over(groups[sq]):
            tank = next(u for u in groups[sq] if u["kind"] == "tank")
            crushed.append(at_unit)
            events.append(
                {
                    "type": "out",
                    "seat": at_unit["seat"],
                    "unit": at_unit["name"],
                    "at": board.name(sq),
                    "cause": "run_over",
                    "by": {"seat": tank["seat"], "unit": tank["name"]},
                    "text": str(Text(RUN_OVER, {
                        "unit": full_label(at_unit["seat"], at_unit["name"]),
                        "tank": full_label(tank["seat"], tank["name"]), "square": board.name(sq)})),
                }
            )
    return final, facing, crushed


def _settle(movers: list[Mover]) -> None:
    """Mark (with a reason) every mover that stays, until nothing changes."""
    while True:
        live = [m for m in movers if m.path and not m.reason]
        ending: dict[int, list[Mover]] = {}
        for m in movers:
            ending.setdefault(m.dest if m.path and not m.reason else m.origin, []).append(m)
        changed = False
        for group in ending.values():
            if len(group) < 2:
                continue
            entering = [m for m in group if m.path and not m.reason]
            if not entering:
                continue
            units = [m.unit for m in group]
            damaged_tank = any(u["kind"] == "tank" and u["hits"] == 1 for u in units)
            if stack_problem(units, repair_ok=damaged_tank) is None:
                continue
            # Judge "also moved" against who was entering before any of them was stopped.
            was_entering = {id(m) for m in entering}
            for m in entering:
                others = [x for x in group if x is not m]
                names = tuple(full_label(x.unit["seat"], x.unit["name"]) for x in others)
                moved = any(id(x) in was_entering for x in others)
                m.reason = Text(ALSO_MOVED if moved else STAYED, {"units": names})
                changed = True
        if changed:
            continue
        for m in live:
            if len(m.path) == 2 and len(ending.get(m.path[0], [])) > 0:
                m.reason = Text(PASSES, {"square": board.name(m.path[0])})
                changed = True
        if changed:
            continue
        for m in _cycles(live):
            m.reason = Text(NO_TRADE)
            changed = True
        if not changed:
            return


def _cycles(live: list[Mover]) -> list[Mover]:
    """Movers on a cycle of units moving into each other's squares (swaps included)."""
    by_origin: dict[int, list[int]] = {}
    for i, m in enumerate(live):
        by_origin.setdefault(m.origin, []).append(i)
    edges = [by_origin.get(m.dest, []) for m in live]
    # Tarjan's strongly connected components; every node of a component of 2+ lies on a cycle.
    index: dict[int, int] = {}
    low: dict[int, int] = {}
    stack: list[int] = []
    on_stack: set[int] = set()
    result: list[Mover] = []
    counter = 0

    def visit(v: int) -> None:
        nonlocal counter
        index[v] = low[v] = counter
        counter += 1
        stack.append(v)
        on_stack.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                result.extend(live[w] for w in component)

    for v in range(len(live)):
        if v not in index:
            visit(v)
    return result


def _move_event(m: Mover) -> dict[str, Any]:
    unit = m.unit
    src, dst = board.name(m.origin), board.name(m.dest)
    throttle, turned = len(m.path) == 2, m.facing != unit["facing"]
    if throttle:
        template = THROTTLE_MOVED_TURNED if turned else THROTTLE_MOVED
    else:
        template = MOVED_TURNED if turned else MOVED
    text = Text(template, {"unit": full_label(unit["seat"], unit["name"]), "from": src,
                           "to": dst, "facing": m.facing})
    return {
        "type": "move",
        "seat": unit["seat"],
        "unit": unit["name"],
        "from": src,
        "to": dst,
        "facing": m.facing,
        "turned": turned,
        "full_throttle": throttle,
        "text": str(text),
    }


def _bounce_event(m: Mover) -> dict[str, Any]:
    unit = m.unit
    src, dst = board.name(m.origin), board.name(m.dest)
    return {
        "type": "bounce",
        "seat": unit["seat"],
        "unit": unit["name"],
        "from": src,
        "to": dst,
        "reason": str(m.reason),
        "text": str(Text(BOUNCED, {"unit": full_label(unit["seat"], unit["name"]), "from": src,
                                   "to": dst, "reason": m.reason})),
    }
