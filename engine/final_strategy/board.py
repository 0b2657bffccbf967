"""The 10 x 10 board: squares, interior edges, corners, safe and neutral squares.

Squares are numbered ``col * 10 + row`` (a1 = 0, a2 = 1, ..., j10 = 99) inside the engine and
named ``"a1"`` .. ``"j10"`` outside it. An interior edge is numbered 0..179: edge ``c * 9 + r``
separates (c, r) from (c, r + 1) (a "north" edge), edge ``90 + c * 10 + r`` separates (c, r) from
(c + 1, r) (an "east" edge). Edge names put the lower square first (lower column, then lower row).
"""

from __future__ import annotations

from typing import Any

SIZE = 10
COLUMNS = "abcdefghij"
SQUARES = range(SIZE * SIZE)
EDGES = range(180)
CORNERS = ("ne", "nw", "se", "sw")
KINDS = ("troop", "kidnapper", "bomb")


def square(col: int, row: int) -> int:
    return col * SIZE + row


def col_row(sq: int) -> tuple[int, int]:
    return divmod(sq, SIZE)


SQUARE_NAMES = tuple(f"{COLUMNS[c]}{r + 1}" for c in range(SIZE) for r in range(SIZE))
SQUARE_INDEX = {name: i for i, name in enumerate(SQUARE_NAMES)}


def parse_square(name: Any) -> int | None:
    """The square named ``name`` ("e5"), or None when there is no such square."""
    if not isinstance(name, str):
        return None
    if name in SQUARE_INDEX:
        return SQUARE_INDEX[name]
    return SQUARE_INDEX.get(name.strip().lower())


def _edge_between(a: int, b: int) -> int | None:
    (ca, ra), (cb, rb) = col_row(min(a, b)), col_row(max(a, b))
    if ca == cb and rb == ra + 1:
        return ca * 9 + ra
    if ra == rb and cb == ca + 1:
        return 90 + ca * SIZE + ra
    return None


def edge_squares(edge: int) -> tuple[int, int]:
    """The two squares an edge separates, lower first."""
    if edge < 90:
        c, r = divmod(edge, 9)
        return square(c, r), square(c, r + 1)
    c, r = divmod(edge - 90, SIZE)
    return square(c, r), square(c + 1, r)


EDGE_SQUARES = tuple(edge_squares(e) for e in EDGES)
EDGE_NAMES = tuple(f"{SQUARE_NAMES[a]}-{SQUARE_NAMES[b]}" for a, b in EDGE_SQUARES)
EDGE_INDEX = {name: e for e, name in enumerate(EDGE_NAMES)}
# Edge order for output: by lower square (column, then row), then by upper square.
EDGE_ORDER = {e: i for i, e in enumerate(sorted(EDGES, key=lambda e: EDGE_SQUARES[e]))}


def parse_edge(name: Any) -> int | None:
    """The edge named ``"e5-e6"`` (either order of its squares), or None."""
    if not isinstance(name, str):
        return None
    if name in EDGE_INDEX:  # the canonical spelling, the usual case
        return EDGE_INDEX[name]
    if name.count("-") != 1:
        return None
    left, right = name.split("-")
    a, b = parse_square(left), parse_square(right)
    if a is None or b is None:
        return None
    return _edge_between(a, b)


def sort_edges(edges: Any) -> list[int]:
    return sorted(edges, key=EDGE_ORDER.__getitem__)


def _sides(sq: int) -> tuple[int, ...]:
    c, r = col_row(sq)
    sides = []
    for dc, dr in ((0, 1), (0, -1), (1, 0), (-1, 0)):
        if 0 <= c + dc < SIZE and 0 <= r + dr < SIZE:
            edge = _edge_between(sq, square(c + dc, r + dr))
            assert edge is not None
            sides.append(edge)
    return tuple(sides)


# The interior edges around each square (the border is walled for good).
SIDES = tuple(_sides(sq) for sq in SQUARES)
SIDE_SETS = tuple(frozenset(sides) for sides in SIDES)


def _neighbours(sq: int) -> frozenset[int]:
    c, r = col_row(sq)
    return frozenset(square(c + dc, r + dr) for dc, dr in ((0, 1), (0, -1), (1, 0), (-1, 0))
                     if 0 <= c + dc < SIZE and 0 <= r + dr < SIZE)


NEIGHBOURS = tuple(_neighbours(sq) for sq in SQUARES)

SAFE = frozenset(SQUARE_INDEX[n] for n in ("e5", "f5", "e6", "f6", "b2", "i2", "b9", "i9"))
NEUTRAL = frozenset(SQUARE_INDEX[n] for n in (
    "a1", "j1", "a10", "j10", "e1", "f1", "e10", "f10", "a5", "a6", "j5", "j6"))
PROTECTED = SAFE | NEUTRAL


def _block(c0: int, c1: int, r0: int, r1: int) -> tuple[int, ...]:
    return tuple(square(c, r) for c in range(max(c0, 0), min(c1, SIZE - 1) + 1)
                 for r in range(max(r0, 0), min(r1, SIZE - 1) + 1))


def capture_area(sq: int, corner: str) -> tuple[int, ...]:
    """The 2 x 2 block of a kidnapper on ``sq`` naming ``corner``, cut at the board's edge."""
    c, r = col_row(sq)
    dc = 1 if corner[1] == "e" else -1
    dr = 1 if corner[0] == "n" else -1
    return _block(min(c, c + dc), max(c, c + dc), min(r, r + dr), max(r, r + dr))


def bomb_block(sq: int) -> tuple[int, ...]:
    """The 3 x 3 block centred on a bomb, cut at the board's edge."""
    c, r = col_row(sq)
    return _block(c - 1, c + 1, r - 1, r + 1)


def inner_edges(block: tuple[int, ...]) -> tuple[int, ...]:
    """The edges both of whose squares lie in ``block`` (12 for a full 3 x 3 block)."""
    inside = set(block)
    return tuple(e for e in EDGES if EDGE_SQUARES[e][0] in inside and EDGE_SQUARES[e][1] in inside)


BOMB_EDGES = tuple(inner_edges(bomb_block(sq)) for sq in SQUARES)

# Pieces per seat by number of seats (the seed's table): troops, kidnappers, bombs.
ALLOTMENT = {2: (36, 3, 1), 3: (22, 3, 1), 4: (16, 3, 1)}
