"""Conditions a seat may put on the sheet it enters ahead for the next round (a conditional
sheet, docs/conditional-orders.md), checked against the position after the current round:

- ``{"kind": "unit_on_board", "unit": "1A"}``: the seat's own unit is still on the board;
- ``{"kind": "unit_at", "unit": "1A", "square": "e5"}``: it stands on that square;
- ``{"kind": "enemy_within", "unit": "1A", "distance": 3}``: an enemy unit on the board is
  at most that many squares from it, counted as a king walks (diagonals count one).

Each is only about what the seat sees after the round anyway (its own units, and enemy units
on the board, which are in plain sight from the first round on).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.base import Problem, RuleError
from engine.base import gettext_noop as _
from engine.final_act import board
from engine.final_act.units import is_operational

KINDS = ("unit_on_board", "unit_at", "enemy_within")
MAX_DISTANCE = 12


def normalize_condition(raw: Any) -> dict[str, Any]:
    """The canonical form of one condition, by its shape (a RuleError says what is wrong)."""
    if not isinstance(raw, Mapping) or raw.get("kind") not in KINDS:
        raise RuleError([Problem("kind", _("A condition is one of: %(kinds)s."),
                                 {"kinds": ", ".join(KINDS)})])
    kind = raw["kind"]
    fields = {"unit_on_board": {"kind", "unit"}, "unit_at": {"kind", "unit", "square"},
              "enemy_within": {"kind", "unit", "distance"}}[kind]
    extra = sorted(str(key) for key in raw if key not in fields)
    if extra:
        raise RuleError([Problem(extra[0], _("Unknown field %(field)s."),
                                 {"field": repr(extra[0])})])
    unit = raw.get("unit")
    if not isinstance(unit, str) or not 0 < len(unit) <= 8:
        raise RuleError([Problem("unit", _("Name one of your units (e.g. 1A)."))])
    condition: dict[str, Any] = {"kind": kind, "unit": unit.upper()}
    if kind == "unit_at":
        square = board.parse(raw.get("square"))
        if square is None:
            raise RuleError([Problem("square", _("%(square)s is not a square of the board."),
                                     {"square": board.show(raw.get("square"))})])
        condition["square"] = board.name(square)
    if kind == "enemy_within":
        distance = raw.get("distance")
        if type(distance) is not int or not 0 < distance <= MAX_DISTANCE:
            raise RuleError([Problem("distance", _("A distance is a whole number of squares "
                                                   "from 1 to %(most)s."),
                                     {"most": MAX_DISTANCE})])
        condition["distance"] = distance
    return condition


def condition_holds(state: Mapping[str, Any], seat: int, condition: Mapping[str, Any]) -> bool:
    """Whether ``condition`` (canonical) holds for ``seat`` in ``state``."""
    units = [unit for unit in state["units"] if is_operational(unit) and unit["at"]]
    own = next((unit for unit in units if unit["seat"] == seat
                and unit["name"] == condition["unit"]), None)
    if own is None:
        return False
    if condition["kind"] == "unit_on_board":
        return True
    if condition["kind"] == "unit_at":
        return bool(own["at"] == condition["square"])
    file, rank = board.coords(board.parse(own["at"]))  # type: ignore[arg-type]
    for unit in units:
        if unit["seat"] != seat:
            other_file, other_rank = board.coords(board.parse(unit["at"]))  # type: ignore[arg-type]
            if max(abs(file - other_file), abs(rank - other_rank)) <= condition["distance"]:
                return True
    return False
