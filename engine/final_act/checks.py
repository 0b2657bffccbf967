"""Small helpers shared by the validators of options, setups and order sheets."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from engine.base import Problem
from engine.final_act import board
from engine.final_act.board import key_text, show
from engine.final_act.position import Position
from engine.final_act.units import Unit, label

MAX_UNKNOWN = 5
MAX_FIRE = 4


def unknown_fields(
    value: Mapping[Any, Any], allowed: Iterable[str], path: str, what: str = "field"
) -> list[Problem]:
    """A problem per key of ``value`` not in ``allowed`` (at most a few, then one summary)."""
    allowed = tuple(allowed)
    out: list[Problem] = []
    extra = [key for key in value if key not in allowed]
    for key in extra[:MAX_UNKNOWN]:
        where = f"{path}.{key_text(key)}" if path else key_text(key)
        out.append(Problem(where, f"Unknown {what} {show(key)}; expected {', '.join(allowed)}."))
    if len(extra) > MAX_UNKNOWN:
        out.append(Problem(path, f"{len(extra) - MAX_UNKNOWN} more unknown {what}s."))
    return out


def is_int(value: Any) -> bool:
    """A whole number (``True`` is not one)."""
    return isinstance(value, int) and not isinstance(value, bool)


def short(value: Any) -> str:
    """An input value as an error message quotes it."""
    return board.show(value)


def case(value: Any) -> Any:
    """Moves and facings in their usual case ("fl" -> "FL", "STAY" -> "stay")."""
    if not isinstance(value, str) or len(value) > 8:
        return value
    value = value.strip()
    return "stay" if value.lower() == "stay" else value.upper()


class SheetBase:
    """Parsing helpers for one side's order sheet; problems are collected, never raised."""

    def __init__(self, pos: Position, seat: int) -> None:
        self.pos = pos
        self.seat = seat
        self.problems: list[Problem] = []

    def bad(self, path: str, message: str) -> None:
        self.problems.append(Problem(path, message))

    # -- small parsers -------------------------------------------------------------------
    def square(self, value: Any, path: str) -> int | None:
        sq = board.parse(value)
        if sq is None:
            self.bad(path, f"{short(value)} is not a square (a1 to l12).")
        return sq

    def squares(self, value: Any, path: str, limit: int = MAX_FIRE) -> list[int] | None:
        if value is None:
            return []
        if not isinstance(value, list):
            self.bad(path, 'Expected a list of squares, like ["e7"].')
            return None
        if len(value) > limit:
            self.bad(path, f"At most {limit} squares may be listed here.")
            return None
        out = [self.square(item, f"{path}.{i}") for i, item in enumerate(value)]
        return [s for s in out if s is not None] if None not in out else None

    def own_unit(self, value: Any, path: str, kinds: tuple[str, ...] = ("tank",)) -> Unit | None:
        key = value.strip().upper() if isinstance(value, str) and len(value) < 8 else None
        unit = self.pos.unit(self.seat, key) if key else None
        if unit is None or unit["kind"] not in kinds:
            what = "tank" if kinds == ("tank",) else "unit"
            self.bad(path, f"{short(value)} is not one of your {what}s.")
            return None
        if unit["state"] != "active":
            self.bad(path, f"{label(unit['name'])} is no longer on the board.")
            return None
        return unit

    def keys(self, value: Mapping[str, Any], allowed: tuple[str, ...], path: str) -> None:
        self.problems.extend(unknown_fields(value, allowed, path))
