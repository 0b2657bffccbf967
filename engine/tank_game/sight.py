"""Line of sight with the per-corner rule (rulings, "Shooting").

The segment runs from the centre of the shooter's square to the centre of the target's. A square
whose interior it passes through blocks if it holds a wall or a tank (living or dead) other than
the target. Passing exactly through a grid corner blocks only if both squares touching the line
at that corner are blockers. Integer arithmetic only: no float rounding at corners.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.tank_game.squares import Square


def crossings(start: Square, end: Square) -> list[tuple[Square, ...]]:
    """What the segment crosses between the two squares, in order.

    Each item is either ``(square,)`` for a square whose interior is passed, or
    ``(left, right)`` for the two squares touching the line at a grid corner it passes through.
    The start and end squares are not included.
    """
    x, y = start
    nx, ny = abs(end[0] - x), abs(end[1] - y)
    sx = 1 if end[0] > x else -1
    sy = 1 if end[1] > y else -1
    out: list[tuple[Square, ...]] = []
    ix = iy = 0
    while ix < nx or iy < ny:
        # Compare when the line next crosses a vertical (x) or horizontal (y) grid line:
        # t_x = (1 + 2 ix) / (2 nx), t_y = (1 + 2 iy) / (2 ny), cross-multiplied.
        decision = (1 + 2 * ix) * ny - (1 + 2 * iy) * nx
        if decision == 0:
            out.append(((x + sx, y), (x, y + sy)))
            x, y = x + sx, y + sy
            ix, iy = ix + 1, iy + 1
        elif decision < 0:
            x += sx
            ix += 1
        else:
            y += sy
            iy += 1
        if (x, y) != end:
            out.append(((x, y),))
    return out


def blocker(
    start: Square, end: Square, blocks: Callable[[Square], bool]
) -> tuple[Square, ...] | None:
    """The first thing that blocks the line from ``start`` to ``end``, or None if it is clear.

    A one-square tuple is a blocking square; a two-square tuple is a blocked corner.
    """
    for crossed in crossings(start, end):
        if all(blocks(square) for square in crossed):
            return crossed
    return None
