"""The board as the rules read it: terrain, where the living tanks are, lines of fire.

A ``Board`` is built from a state for one question at a time and never stored.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.base import State
from engine.panzer_squadron import hexes
from engine.panzer_squadron.data import CARDS
from engine.panzer_squadron.hexes import Hex

COVER_BONUS = 10
FREE_RANGE = 3  # hexes without a range penalty
RANGE_PENALTY = 2  # per hex beyond FREE_RANGE
ENTER_COST = {"clear": 1, "woods": 2}


@dataclass(frozen=True)
class Sight:
    """The six lines from a cannon to a target hex's corners."""

    blocked: tuple[bool, ...]

    @property
    def visible(self) -> bool:
        return self.blocked.count(False) >= 2

    @property
    def cover(self) -> bool:
        return self.visible and any(self.blocked)


@dataclass(frozen=True)
class Shot:
    """What a shot would need: the arc struck, cover, range and the number to beat."""

    arc: str
    cover: bool
    distance: int
    needed: int


class Board:
    def __init__(self, state: State) -> None:
        self.size: tuple[int, int] = (state["size"][0], state["size"][1])
        size = self.size
        self.woods = hexes.hexes_of(state["terrain"]["woods"], size)
        self.buildings = hexes.hexes_of(state["terrain"]["building"], size)
        self.water = hexes.hexes_of(state["terrain"]["water"], size)
        self.tanks: dict[str, dict[str, Any]] = {t["name"]: t for t in state["tanks"]}
        self.occupied: dict[Hex, str] = {}
        for t in state["tanks"]:
            if t["alive"]:
                h = hexes.parse(t["at"], size)
                assert h is not None
                self.occupied[h] = t["name"]

    def hex_of(self, tank: dict[str, Any]) -> Hex:
        h = hexes.parse(tank["at"], self.size)
        assert h is not None
        return h

    def place(self, name: str, old: Hex, new: Hex) -> None:
        """Follow a tank along its path (the board is a scratch copy)."""
        self.occupied.pop(old, None)
        self.occupied[new] = name

    def remove(self, at: Hex) -> None:
        self.occupied.pop(at, None)

    def enter_cost(self, h: Hex) -> int | None:
        """Points to enter ``h``, None when it cannot be entered (edge, building, water, tank)."""
        if not hexes.on_map(h, self.size) or h in self.buildings or h in self.water \
                or h in self.occupied:
            return None
        return ENTER_COST["woods"] if h in self.woods else ENTER_COST["clear"]

    def sight(self, at: Hex, facing: int, target: Hex) -> Sight:
        """Lines from the cannon (the corner ``facing`` of ``at``) to the six corners of
        ``target``: a line is blocked by the interior of woods, buildings and hexes holding
        another tank; the firer's and the target's own hexes never block."""
        px, py = hexes.corner(at, facing)
        tx, ty = hexes.centre(target)
        x0, x1 = min(px, tx - 1), max(px, tx + 1)
        y0, y1 = min(py, ty - 2), max(py, ty + 2)
        blockers = []
        for h in (*self.woods, *self.buildings, *self.occupied):
            if h in (at, target):
                continue
            cx, cy = hexes.centre(h)
            if cx - 1 < x1 and cx + 1 > x0 and cy - 2 < y1 and cy + 2 > y0:
                blockers.append(h)
        cannon = (px, py)
        blocked = []
        for point in hexes.corners(target):
            blocked.append(any(hexes.crosses_interior(cannon, point, h) for h in blockers))
            if blocked.count(True) >= 5:  # not visible whatever the rest: cover is moot
                blocked.extend([True] * (6 - len(blocked)))
                break
        return Sight(tuple(blocked))

    def shot(self, at: Hex, facing: int, card: str, target: dict[str, Any],
             sight: Sight) -> Shot:
        where = self.hex_of(target)
        arc = hexes.arc(where, target["facing"], at)
        distance = hexes.distance(at, where)
        needed = (CARDS[target["card"]]["armour"][arc] + (COVER_BONUS if sight.cover else 0)
                  - CARDS[card]["firepower"] + RANGE_PENALTY * max(0, distance - FREE_RANGE))
        return Shot(arc, sight.cover, distance, needed)
