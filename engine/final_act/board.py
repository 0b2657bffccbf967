"""The 12 x 12 board: square names, facings, directions, sides and rows.

Squares are ints 0..143 inside the engine (``file + 12 * rank``, both 0-based) and names like
``"c7"`` everywhere outside it. Board north is towards rank 12.
"""

from __future__ import annotations

import re
from typing import Any

from engine.base import Text
from engine.base import gettext_noop as _

SIZE = 12
FILES = "abcdefghijkl"
SQUARES = range(SIZE * SIZE)

SEATS = (1, 2)
SEAT_NAMES = {1: "Alpha", 2: "Delta"}

FACINGS = ("N", "E", "S", "W")
VECTORS: dict[str, tuple[int, int]] = {"N": (0, 1), "E": (1, 0), "S": (0, -1), "W": (-1, 0)}
LEFT_OF = {"N": "W", "W": "S", "S": "E", "E": "N"}
RIGHT_OF = {v: k for k, v in LEFT_OF.items()}

COMPASS: dict[str, tuple[int, int]] = {
    "N": (0, 1),
    "NE": (1, 1),
    "E": (1, 0),
    "SE": (1, -1),
    "S": (0, -1),
    "SW": (-1, -1),
    "W": (-1, 0),
    "NW": (-1, 1),
}
AT_MOVES = ("stay", *COMPASS)
TANK_MOVES = ("stay", "F", "FL", "FR", "B", "BL", "BR")
DIAGONAL_MOVES = ("FL", "FR", "BL", "BR")

_SQUARE_RE = re.compile(r"^([a-l])(1[0-2]|[1-9])$")
_NAMES = [f"{FILES[i % SIZE]}{i // SIZE + 1}" for i in SQUARES]
_INDEX = {text: i for i, text in enumerate(_NAMES)}


def square(file: int, rank: int) -> int:
    """The square at 0-based ``file`` and ``rank`` (no bounds check)."""
    return file + SIZE * rank


def coords(sq: int) -> tuple[int, int]:
    """``(file, rank)``, both 0-based."""
    return sq % SIZE, sq // SIZE


def name(sq: int) -> str:
    return _NAMES[sq]


def parse(text: Any) -> int | None:
    """The square named ``text`` (case-insensitive), or None if it is not a square name."""
    if not isinstance(text, str):
        return None
    sq = _INDEX.get(text)
    if sq is not None or len(text) > 5:
        return sq
    match = _SQUARE_RE.match(text.strip().lower())
    if match is None:
        return None
    return square(FILES.index(match.group(1)), int(match.group(2)) - 1)


def on_board(file: int, rank: int) -> bool:
    return 0 <= file < SIZE and 0 <= rank < SIZE


def step(sq: int, vector: tuple[int, int]) -> int | None:
    """The square ``vector`` away from ``sq``, or None off the board."""
    file, rank = coords(sq)
    file, rank = file + vector[0], rank + vector[1]
    return square(file, rank) if on_board(file, rank) else None


def neighbours(sq: int) -> list[int]:
    """The up to 8 squares around ``sq``."""
    return [n for v in COMPASS.values() if (n := step(sq, v)) is not None]


def forward(seat: int) -> str:
    """The facing towards the enemy: Alpha looks N, Delta S."""
    return "N" if seat == 1 else "S"


def enemy(seat: int) -> int:
    return 2 if seat == 1 else 1


def row(seat: int, sq: int) -> int:
    """Row of ``sq`` counted from ``seat``'s last line (row 1 = own last line)."""
    rank = sq // SIZE
    return rank + 1 if seat == 1 else SIZE - rank


def in_own_half(seat: int, sq: int) -> bool:
    return row(seat, sq) <= SIZE // 2


def enemy_last_line(seat: int, sq: int) -> bool:
    return row(seat, sq) == SIZE


def squares_in_rows(seat: int, first: int, last: int) -> list[int]:
    """Squares whose row (for ``seat``) is between ``first`` and ``last``."""
    return [sq for sq in SQUARES if first <= row(seat, sq) <= last]


def relative_vector(facing: str, move: str) -> tuple[int, int]:
    """The board vector of a tank move (F, FL, FR, B, BL, BR) for a unit facing ``facing``."""
    fx, fy = VECTORS[facing]
    lx, ly = VECTORS[LEFT_OF[facing]]
    ahead = 1 if move[0] == "F" else -1
    side = 0 if len(move) == 1 else (1 if move[1] == "L" else -1)
    return ahead * fx + side * lx, ahead * fy + side * ly


def turned(facing: str, move: str) -> str:
    """The facing after a diagonal move with a turn: the hull swings towards the move."""
    return LEFT_OF[facing] if move in ("FL", "BR") else RIGHT_OF[facing]


def direction_of(vector: tuple[int, int]) -> str | None:
    """The compass name of a one-square step, or None."""
    for key, value in COMPASS.items():
        if value == vector:
            return key
    return None


def show(value: Any, limit: int = 24) -> str | Text:
    """A short, safe rendering of any input value for an error message."""
    if isinstance(value, str | int | float | bool) or value is None:
        text = repr(value)
        return text if len(text) <= limit else text[: limit - 3] + "..."
    return Text(_("a %(type)s"), {"type": type(value).__name__})


def key_text(key: Any, limit: int = 30) -> str:
    """A mapping key as it goes into an error path."""
    return key[:limit] if isinstance(key, str) else str(show(key, limit))
