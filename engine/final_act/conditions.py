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

import re
from collections.abc import Mapping
from typing import Any

from engine.base import Problem, RuleError, Text
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


# The conditions as text, a line each (the match page's box): "1A on board", "1A at e5",
# "enemy within 3 of 1A"; French reads "1A sur le plateau", "1A en e5", "ennemi à 3 de 1A".
_TEXT = (
    ("unit_on_board", re.compile(r"^(?P<unit>\w+)\s+(?:on\s+(?:the\s+)?board|sur\s+le\s+"
                                 r"plateau)$", re.IGNORECASE)),
    ("unit_at", re.compile(r"^(?P<unit>\w+)\s+(?:at|on|en|sur)\s+(?P<square>[a-z]\d{1,2})$",
                           re.IGNORECASE)),
    ("enemy_within", re.compile(r"^(?:enemy\s+within|ennemi\s+[àa])\s+(?P<distance>\d{1,2})"
                                r"\s+(?:squares?\s+)?(?:of|de|cases?\s+de)\s+(?P<unit>\w+)$",
                                re.IGNORECASE)),
)

HELP = _("One condition a line: “1A on board”, “1A at e5”, “enemy within 3 of 1A”.")


def condition_from_text(text: str) -> dict[str, Any]:
    """The condition written in ``text`` (see ``_TEXT``), canonical; a RuleError if none."""
    line = " ".join(str(text).split())
    for kind, pattern in _TEXT:
        found = pattern.match(line)
        if found is not None:
            raw: dict[str, Any] = {"kind": kind, **found.groupdict()}
            if "distance" in raw:
                raw["distance"] = int(raw["distance"])
            return normalize_condition(raw)
    raise RuleError([Problem("", _("“%(line)s” is not a condition. %(help)s"),
                             {"line": line[:60], "help": Text(HELP)})])


def condition_text(condition: Mapping[str, Any]) -> str:
    """A canonical condition as ``condition_from_text`` reads it back."""
    if condition["kind"] == "unit_at":
        return f"{condition['unit']} at {condition['square']}"
    if condition["kind"] == "enemy_within":
        return f"enemy within {condition['distance']} of {condition['unit']}"
    return f"{condition['unit']} on board"


def condition_words(condition: Mapping[str, Any]) -> Text:
    """A canonical condition in words, for the page."""
    if condition["kind"] == "unit_on_board":
        return Text(_("%(unit)s is still on the board"), {"unit": condition["unit"]})
    if condition["kind"] == "unit_at":
        return Text(_("%(unit)s stands on %(square)s"), dict(condition))
    return Text(_("an enemy unit is within %(distance)s squares of %(unit)s"), dict(condition))
