"""Fire cones: which squares a unit may shell from where it stands.

With ``f`` squares straight ahead and ``s`` squares to the side, a tank's cone is every square
with ``f >= 1`` and ``|s| + |f - 3| <= 3`` (a diamond to 6 ahead, 3 to each side at f = 3); on a
berm it also reaches ``f = 7, s = 0``. An AT unit's cone is ``|s| + |f - 2| <= 2`` (4 ahead) and
never grows on a berm.
"""

from __future__ import annotations

from functools import cache

from engine.final_act.board import LEFT_OF, SQUARES, VECTORS, coords, on_board, square


def _offsets(kind: str, on_berm: bool) -> list[tuple[int, int]]:
    """(f, s) pairs of the cone."""
    if kind == "at":
        reach, centre = 4, 2
    else:
        reach, centre = 6, 3
    pairs = [
        (f, s)
        for f in range(1, reach + 1)
        for s in range(-centre, centre + 1)
        if abs(s) + abs(f - centre) <= centre
    ]
    if kind == "tank" and on_berm:
        pairs.append((7, 0))
    return pairs


@cache
def _cone(sq: int, facing: str, kind: str, on_berm: bool) -> frozenset[int]:
    fx, fy = VECTORS[facing]
    lx, ly = VECTORS[LEFT_OF[facing]]
    file, rank = coords(sq)
    result = set()
    for f, s in _offsets(kind, on_berm):
        x, y = file + f * fx + s * lx, rank + f * fy + s * ly
        if on_board(x, y):
            result.add(square(x, y))
    return frozenset(result)


def cone(sq: int, facing: str, kind: str, on_berm: bool = False) -> frozenset[int]:
    """Squares in the fire cone of a ``kind`` ("tank" or "at") unit on ``sq`` facing ``facing``."""
    return _cone(sq, facing, kind, on_berm and kind == "tank")


def all_cones_cached() -> int:
    """Warm the cache for every square and facing (used by benchmarks); returns the count."""
    count = 0
    for sq in SQUARES:
        for facing in VECTORS:
            for kind, berm in (("tank", False), ("tank", True), ("at", False)):
                count += len(cone(sq, facing, kind, berm))
    return count
