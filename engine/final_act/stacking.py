"""Which units may share a square (Extra Forces stacking) and who is run over.

One square may hold one unit, or (all of one side) a tank + an AT, two ATs, or the R unit + an
AT; the R unit + a tank only while repairing it (the R unit may move onto a damaged own tank,
or the tank onto it; once the repair is done the two may stay together until one moves off).
An enemy tank and AT on one square after movement: the AT is run over (out) and does not count
against the stack.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.base import Text
from engine.base import gettext_noop as _

Unit = dict[str, Any]


def stack_problem(
    group: Sequence[Unit], at_start: bool = False, repair_ok: bool = False
) -> Text | None:
    """Why ``group`` may not share one square, or None. ``at_start``: no run-overs allowed
    (setup and scenarios); ``repair_ok``: the R unit may join the (damaged) tank here."""
    if len(group) <= 1:
        return None
    if any(u["state"] == "wreck" for u in group):
        return Text(_("a wreck cannot share its square"))
    tanks = [u for u in group if u["kind"] == "tank"]
    if len(tanks) > 1:
        return Text(_("two tanks can never share a square"))
    rest = list(group)
    if tanks and not at_start:
        rest = [u for u in group if not (u["kind"] == "at" and u["seat"] != tanks[0]["seat"])]
    if len({u["seat"] for u in rest}) > 1:
        return Text(_("units of both sides cannot share a square"))
    if len(rest) > 2:
        return Text(_("at most two units (a tank and an AT, two ATs, or the R unit and an AT) "
                      "may share a square"))
    kinds = {u["kind"] for u in rest}
    if kinds == {"r", "tank"} and not repair_ok:
        return Text(_("the R unit shares a square with a tank only while repairing it"))
    return None


def run_over(group: Sequence[Unit]) -> list[Unit]:
    """The ATs in ``group`` run over by an enemy tank on the same square."""
    tanks = [u for u in group if u["kind"] == "tank" and u["state"] == "active"]
    if len(tanks) != 1:
        return []
    return [u for u in group if u["kind"] == "at" and u["seat"] != tanks[0]["seat"]]
