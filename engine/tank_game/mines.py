"""Gold mines: squares that pay out at the start of a gameday; they grow into destroyed walls
orthogonally adjacent to them, and mines that touch are one mine."""

from __future__ import annotations

from engine.base import State
from engine.tank_game import squares


def regions(state: State) -> list[list[str]]:
    """The mines as connected regions (orthogonal adjacency), each a sorted list of squares."""
    size = state["size"]
    left = {squares.parse(sq, size) for sq in state["mines"]}
    found: list[list[str]] = []
    while left:
        seed = min(left)  # type: ignore[type-var]
        left.discard(seed)
        region, todo = [seed], [seed]
        while todo:
            current = todo.pop()
            assert current is not None
            for near in squares.orthogonal(current, size):
                if near in left:
                    left.discard(near)
                    region.append(near)
                    todo.append(near)
        found.append(sorted(squares.name(sq) for sq in region if sq is not None))
    return sorted(found)


def grow(state: State, destroyed_wall: str) -> bool:
    """Make a destroyed wall's square mine if it touches a mine orthogonally; True if it did."""
    size = state["size"]
    square = squares.parse(destroyed_wall, size)
    assert square is not None
    mine = set(state["mines"])
    if any(squares.name(near) in mine for near in squares.orthogonal(square, size)):
        state["mines"] = sorted(mine | {destroyed_wall})
        return True
    return False
