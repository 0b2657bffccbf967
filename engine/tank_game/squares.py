"""Square names ("A1": column letter, 1-based row) and grid geometry."""

from __future__ import annotations

import re
from collections.abc import Iterator

Square = tuple[int, int]  # (column, row), both 0-based

COLUMNS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_NAME = re.compile(r"^([A-Za-z])([0-9]{1,2})$")


def parse(name: object, size: int) -> Square | None:
    """The square named ``name`` on a ``size`` board, or None if it is not one."""
    if not isinstance(name, str):
        return None
    match = _NAME.match(name.strip())
    if not match:
        return None
    col = COLUMNS.index(match.group(1).upper())
    row = int(match.group(2)) - 1
    if 0 <= col < size and 0 <= row < size:
        return col, row
    return None


def looks_like_square(text: str) -> bool:
    return bool(_NAME.match(text.strip()))


def name(square: Square) -> str:
    return f"{COLUMNS[square[0]]}{square[1] + 1}"


def distance(a: Square, b: Square) -> int:
    """Chebyshev distance: the number of adjacent steps between two squares."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def adjacent(square: Square, size: int) -> Iterator[Square]:
    """The up to 8 squares around ``square``."""
    x, y = square
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            if (dx or dy) and 0 <= x + dx < size and 0 <= y + dy < size:
                yield x + dx, y + dy


def orthogonal(square: Square, size: int) -> Iterator[Square]:
    x, y = square
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        if 0 <= x + dx < size and 0 <= y + dy < size:
            yield x + dx, y + dy


def within(square: Square, radius: int, size: int) -> Iterator[Square]:
    """Every square at distance 1..radius from ``square``."""
    x, y = square
    for cx in range(max(0, x - radius), min(size, x + radius + 1)):
        for cy in range(max(0, y - radius), min(size, y + radius + 1)):
            if (cx, cy) != square:
                yield cx, cy
