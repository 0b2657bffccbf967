"""Hex geometry for a pointy-top map in offset rows, exact in integers.

A hex is named by column letter and row number ("c4"): columns a.. west to east, rows 1..
south to north, even rows half a hex further east. Internally a hex is ``(col, row)`` with
``col`` 0-based and ``row`` 1-based. Geometry works in *doubled* integer coordinates: the centre
of (c, r) is ``X = 2c + (1 if r is even)``, ``Y = 3r``; one X unit is half a hex's width, one Y
unit half a side. This is an affine image of the true plane, so "crosses the interior" and
"which side of a line" are the same questions in it; angles use the true metric
(``3·dx·dx' + dy·dy'``) and so stay exact too. No floating point anywhere: the 60°/120° arc
boundaries and lines through corners are everyday positions and must come out the same every time.
(A library such as ``hexalattice`` or ``hexy`` would bring floats and axial-only naming; the
whole geometry here is a few dozen lines.)
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

Hex = tuple[int, int]
Point = tuple[int, int]

FACINGS = (12, 2, 4, 6, 8, 10)  # corners a tank may face (clock hours)
SIDES = (1, 3, 5, 7, 9, 11)  # directions to the six neighbours
CORNER_OFFSET: dict[int, Point] = {12: (0, 2), 2: (1, 1), 4: (1, -1), 6: (0, -2),
                                   8: (-1, -1), 10: (-1, 1)}
NEIGHBOUR_OFFSET: dict[int, Point] = {1: (1, 3), 3: (2, 0), 5: (1, -3), 7: (-1, -3),
                                      9: (-2, 0), 11: (-1, 3)}
# the hexagon's corners counter-clockwise (Y points north), for the interior test
_RING = (12, 10, 8, 6, 4, 2)


def hour(h: int) -> int:
    """A clock hour brought into 1..12."""
    return (h - 1) % 12 + 1


def parse(name: object, size: tuple[int, int]) -> Hex | None:
    """``"c4"`` → ``(2, 4)``, or None when it is not a hex of a map of ``size`` (cols, rows)."""
    if not isinstance(name, str) or len(name) < 2:
        return None
    letter, digits = name[0].lower(), name[1:]
    if not ("a" <= letter <= "z") or not digits.isdigit() or digits[0] == "0":
        return None
    col, row = ord(letter) - ord("a"), int(digits)
    if not (col < size[0] and 1 <= row <= size[1]):
        return None
    return (col, row)


def name(h: Hex) -> str:
    return f"{chr(ord('a') + h[0])}{h[1]}"


@lru_cache(maxsize=4096)
def centre(h: Hex) -> Point:
    col, row = h
    return (2 * col + (1 if row % 2 == 0 else 0), 3 * row)


def from_centre(x: int, y: int) -> Hex:
    row = y // 3
    return ((x - (1 if row % 2 == 0 else 0)) // 2, row)


def corner(h: Hex, facing: int) -> Point:
    """The point of the corner at clock hour ``facing`` (12, 2, .., 10)."""
    x, y = centre(h)
    dx, dy = CORNER_OFFSET[facing]
    return (x + dx, y + dy)


def corners(h: Hex) -> list[Point]:
    return [corner(h, f) for f in FACINGS]


def neighbour(h: Hex, side: int) -> Hex:
    """The hex at odd clock hour ``side`` (may lie off the map: the caller checks)."""
    x, y = centre(h)
    dx, dy = NEIGHBOUR_OFFSET[side]
    return from_centre(x + dx, y + dy)


def on_map(h: Hex, size: tuple[int, int]) -> bool:
    return 0 <= h[0] < size[0] and 1 <= h[1] <= size[1]


def front_sides(facing: int) -> tuple[int, int]:
    """The two directions a tank facing ``facing`` moves forward into (12 → 11 and 1)."""
    return (hour(facing - 1), hour(facing + 1))


def behind_sides(facing: int) -> tuple[int, int]:
    """The two directions it reverses into: opposite the front ones (12 → 5 and 7)."""
    return (hour(facing - 1 + 6), hour(facing + 1 + 6))


def front(h: Hex, facing: int) -> tuple[Hex, Hex]:
    a, b = front_sides(facing)
    return (neighbour(h, a), neighbour(h, b))


def behind(h: Hex, facing: int) -> tuple[Hex, Hex]:
    a, b = behind_sides(facing)
    return (neighbour(h, a), neighbour(h, b))


def facings_after_move(side: int) -> tuple[int, int]:
    """Moving forward towards ``side`` the tank then faces one of the two corners along it."""
    return (hour(side - 1), hour(side + 1))


def facings_after_reverse(side: int) -> tuple[int, int]:
    """Reversing towards ``side`` it keeps its front forward: the corners against the travel."""
    return (hour(side + 6 - 1), hour(side + 6 + 1))


def side_between(a: Hex, b: Hex) -> int | None:
    """The direction from ``a`` to its neighbour ``b`` (None when they are not neighbours)."""
    ax, ay = centre(a)
    bx, by = centre(b)
    for side, offset in NEIGHBOUR_OFFSET.items():
        if offset == (bx - ax, by - ay):
            return side
    return None


def turn_cost(old: int, new: int) -> int:
    """Turning one corner costs 1 point; two or three corners cost 2."""
    steps = abs(old - new) // 2
    steps = min(steps, 6 - steps)
    return 0 if steps == 0 else (1 if steps == 1 else 2)


def distance(a: Hex, b: Hex) -> int:
    """Hexes between ``a`` and ``b`` (doubled-width coordinates)."""
    ax, ay = centre(a)
    bx, by = centre(b)
    dx, dr = abs(ax - bx), abs(ay - by) // 3
    return dr + max(0, (dx - dr) // 2)


def _less(n1: int, d1: int, n2: int, d2: int) -> bool:
    return n1 * d2 < n2 * d1  # denominators are positive


@lru_cache(maxsize=1 << 16)
def crosses_interior(p: Point, q: Point, h: Hex) -> bool:
    """Does the segment p–q pass through the open interior of hex ``h``?

    Running along an edge or touching a corner does not count. Clips the segment against the
    six inner half-planes with exact fractions (Cyrus–Beck)."""
    cx, cy = centre(h)
    if max(p[0], q[0]) <= cx - 1 or min(p[0], q[0]) >= cx + 1 \
            or max(p[1], q[1]) <= cy - 2 or min(p[1], q[1]) >= cy + 2:
        return False
    dx, dy = q[0] - p[0], q[1] - p[1]
    lo_n, lo_d, hi_n, hi_d = 0, 1, 1, 1
    for i, f in enumerate(_RING):
        vx, vy = CORNER_OFFSET[f]
        wx, wy = CORNER_OFFSET[_RING[(i + 1) % 6]]
        ex, ey = wx - vx, wy - vy
        a = ex * (p[1] - cy - vy) - ey * (p[0] - cx - vx)
        b = ex * dy - ey * dx
        if b == 0:
            if a <= 0:
                return False
        elif b > 0:  # t > -a/b
            if _less(lo_n, lo_d, -a, b):
                lo_n, lo_d = -a, b
        else:  # t < a/(-b)
            if _less(a, -b, hi_n, hi_d):
                hi_n, hi_d = a, -b
    return _less(lo_n, lo_d, hi_n, hi_d)


def arc(target: Hex, facing: int, firer: Hex) -> str:
    """Where a shot from ``firer`` strikes a tank at ``target`` facing ``facing``.

    θ is the angle between the target's facing and the bearing to the firer's centre:
    θ ≤ 60° front, θ ≥ 120° rear, otherwise side (cos 60° = 1/2, compared squared)."""
    tx, ty = centre(target)
    fx, fy = centre(firer)
    ux, uy = CORNER_OFFSET[facing]
    vx, vy = fx - tx, fy - ty
    dot = 3 * ux * vx + uy * vy
    norms = (3 * ux * ux + uy * uy) * (3 * vx * vx + vy * vy)
    if 4 * dot * dot >= norms:
        return "front" if dot > 0 else "rear"
    return "side"


def hexes_of(names: Iterable[str], size: tuple[int, int]) -> set[Hex]:
    found = set()
    for n in names:
        h = parse(n, size)
        if h is not None:
            found.add(h)
    return found
