"""Small helpers shared by the validators of options, setups and order sheets."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from engine.base import Problem, Text
from engine.base import gettext_noop as _
from engine.final_act import board
from engine.final_act.board import key_text, show
from engine.final_act.position import Position
from engine.final_act.units import Unit, label

MAX_UNKNOWN = 5
MAX_FIRE = 4


# What ``unknown_fields`` calls a key it does not know, and how it says how many more there are.
UNKNOWN = {
    "field": (_("Unknown field %(key)s; expected %(allowed)s."),
              _("%(count)s more unknown fields.")),
    "option": (_("Unknown option %(key)s; expected %(allowed)s."),
               _("%(count)s more unknown options.")),
    "token option": (_("Unknown token option %(key)s; expected %(allowed)s."),
                     _("%(count)s more unknown token options.")),
    "setup field": (_("Unknown setup field %(key)s; expected %(allowed)s."),
                    _("%(count)s more unknown setup fields.")),
    "terrain piece": (_("Unknown terrain piece %(key)s; expected %(allowed)s."),
                      _("%(count)s more unknown terrain pieces.")),
    "unit": (_("Unknown unit %(key)s; expected %(allowed)s."),
             _("%(count)s more unknown units.")),
    "scenario field": (_("Unknown scenario field %(key)s; expected %(allowed)s."),
                       _("%(count)s more unknown scenario fields.")),
    "unit field": (_("Unknown unit field %(key)s; expected %(allowed)s."),
                   _("%(count)s more unknown unit fields.")),
}


def unknown_fields(
    value: Mapping[Any, Any], allowed: Iterable[str], path: str, what: str = "field"
) -> list[Problem]:
    """A problem per key of ``value`` not in ``allowed`` (at most a few, then one summary);
    ``what`` is a key of ``UNKNOWN``."""
    allowed = tuple(allowed)
    one, more = UNKNOWN[what]
    out: list[Problem] = []
    extra = [key for key in value if key not in allowed]
    for key in extra[:MAX_UNKNOWN]:
        where = f"{path}.{key_text(key)}" if path else key_text(key)
        out.append(Problem(where, one, {"key": show(key), "allowed": ", ".join(allowed)}))
    if len(extra) > MAX_UNKNOWN:
        out.append(Problem(path, more, {"count": len(extra) - MAX_UNKNOWN}))
    return out


def is_int(value: Any) -> bool:
    """A whole number (``True`` is not one)."""
    return isinstance(value, int) and not isinstance(value, bool)


def short(value: Any) -> str | Text:
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

    def bad(self, path: str, message: str | Text, params: Mapping[str, Any] | None = None
            ) -> None:
        self.problems.append(Problem(path, message, params))

    # -- small parsers -------------------------------------------------------------------
    def square(self, value: Any, path: str) -> int | None:
        sq = board.parse(value)
        if sq is None:
            self.bad(path, _("%(value)s is not a square (a1 to l12)."), {"value": short(value)})
        return sq

    def squares(self, value: Any, path: str, limit: int = MAX_FIRE) -> list[int] | None:
        if value is None:
            return []
        if not isinstance(value, list):
            self.bad(path, _('Expected a list of squares, like ["e7"].'))
            return None
        if len(value) > limit:
            self.bad(path, _("At most %(limit)s squares may be listed here."), {"limit": limit})
            return None
        out = [self.square(item, f"{path}.{i}") for i, item in enumerate(value)]
        return [s for s in out if s is not None] if None not in out else None

    def own_unit(self, value: Any, path: str, kinds: tuple[str, ...] = ("tank",)) -> Unit | None:
        key = value.strip().upper() if isinstance(value, str) and len(value) < 8 else None
        unit = self.pos.unit(self.seat, key) if key else None
        if unit is None or unit["kind"] not in kinds:
            self.bad(path, _("%(value)s is not one of your tanks.") if kinds == ("tank",) else
                     _("%(value)s is not one of your units."), {"value": short(value)})
            return None
        if unit["state"] != "active":
            self.bad(path, _("%(unit)s is no longer on the board."), {"unit": label(unit["name"])})
            return None
        return unit

    def keys(self, value: Mapping[str, Any], allowed: tuple[str, ...], path: str) -> None:
        self.problems.extend(unknown_fields(value, allowed, path))
