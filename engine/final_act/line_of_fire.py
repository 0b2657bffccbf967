"""Line of fire: the segment from the centre of the shooter's square to the target's centre.

It is blocked by every square whose interior it passes through that holds a blocker, except the
target square. Touching a square only at a corner does not block, unless the segment passes
through a corner shared by two diagonally opposite blocking squares. The geometry is exact:
it is worked out once per offset with rational numbers and cached.
"""

from __future__ import annotations

from collections.abc import Collection
from fractions import Fraction
from functools import cache

from engine.final_act.board import coords, on_board, square

Offset = tuple[int, int]


def _interval(start: int, delta: int, low: int, high: int) -> tuple[Fraction, Fraction] | None:
    """Open t-interval where ``start + t * delta`` lies strictly between ``low`` and ``high``."""
    if delta == 0:
        return (Fraction(-1), Fraction(2)) if low < start < high else None
    a, b = Fraction(low - start, delta), Fraction(high - start, delta)
    return (a, b) if a < b else (b, a)


@cache
def path(dx: int, dy: int) -> tuple[tuple[Offset, ...], tuple[tuple[Offset, Offset], ...]]:
    """For a target ``(dx, dy)`` away: the offsets whose interior the segment crosses (shooter
    and target excluded) and the pairs of offsets touched only at a corner it passes through."""
    # Doubled coordinates: square (i, j) is the open box (2i, 2i+2) x (2j, 2j+2); centres are odd.
    x0, y0, ddx, ddy = 1, 1, 2 * dx, 2 * dy
    crossed: list[Offset] = []
    for i in range(min(0, dx), max(0, dx) + 1):
        for j in range(min(0, dy), max(0, dy) + 1):
            if (i, j) in ((0, 0), (dx, dy)):
                continue
            ix = _interval(x0, ddx, 2 * i, 2 * i + 2)
            iy = _interval(y0, ddy, 2 * j, 2 * j + 2)
            if ix is None or iy is None:
                continue
            low = max(Fraction(0), ix[0], iy[0])
            high = min(Fraction(1), ix[1], iy[1])
            if low < high:
                crossed.append((i, j))
    corners: list[tuple[Offset, Offset]] = []
    if dx and dy:
        for a in range(min(0, dx), max(0, dx) + 2):
            t = Fraction(2 * a - x0, ddx)
            if not 0 < t < 1:
                continue
            y = y0 + t * ddy
            if y.denominator != 1 or int(y) % 2:
                continue
            b = int(y) // 2
            # The segment goes from quadrant to opposite quadrant; the other two only touch it.
            if (dx > 0) == (dy > 0):
                corners.append(((a - 1, b), (a, b - 1)))
            else:
                corners.append(((a - 1, b - 1), (a, b)))
    return tuple(crossed), tuple(corners)


@cache
def _squares_between(
    shooter: int, target: int
) -> tuple[tuple[int, ...], tuple[tuple[int, int], ...]]:
    """Board squares the segment crosses and the on-board corner pairs it passes, cached."""
    sx, sy = coords(shooter)
    tx, ty = coords(target)
    crossed, corners = path(tx - sx, ty - sy)
    squares = tuple(square(sx + ox, sy + oy) for ox, oy in crossed)
    pairs = tuple(
        (square(sx + ax, sy + ay), square(sx + bx, sy + by))
        for (ax, ay), (bx, by) in corners
        if on_board(sx + ax, sy + ay) and on_board(sx + bx, sy + by)
    )
    return squares, pairs


def blocker_on_path(shooter: int, target: int, blockers: Collection[int]) -> int | None:
    """The first square blocking the line of fire from ``shooter`` to ``target``, or None."""
    crossed, corners = _squares_between(shooter, target)
    for sq in crossed:
        if sq in blockers:
            return sq
    for first, second in corners:
        if first in blockers and second in blockers:
            return first
    return None
