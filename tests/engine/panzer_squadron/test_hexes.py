"""Hex geometry: names, neighbours by clock hour, front and behind by facing, corners,
distance, the interior test and the impact arcs — exact, in integers."""

from __future__ import annotations

import pytest

from engine.panzer_squadron import hexes

SIZE = (15, 11)


def h(name: str) -> hexes.Hex:
    found = hexes.parse(name, SIZE)
    assert found is not None
    return found


def n(x: hexes.Hex) -> str:
    return hexes.name(x)


@pytest.mark.parametrize("name", ["c4", "a1", "o11"])
def test_names_round_trip(name):
    assert n(h(name)) == name


@pytest.mark.parametrize("bad", ["p1", "a0", "a12", "c", "4c", "", None, "c04"])
def test_bad_names_are_none(bad):
    assert hexes.parse(bad, SIZE) is None


@pytest.mark.parametrize("at,expected", [
    # odd row: 3 → c+1, 9 → c−1, 1 → c next row, 11 → c−1 next row, 5 → c prev, 7 → c−1 prev
    ("c5", {3: "d5", 9: "b5", 1: "c6", 11: "b6", 5: "c4", 7: "b4"}),
    # even row: 1 → c+1 next row, 11 → c next row, 5 → c+1 prev row, 7 → c prev row
    ("c4", {3: "d4", 9: "b4", 1: "d5", 11: "c5", 5: "d3", 7: "c3"}),
])
def test_neighbours_by_clock_hour(at, expected):
    """The six neighbours lie at the odd hours, as the data formats fix them for odd and
    even rows."""
    assert {side: n(hexes.neighbour(h(at), side)) for side in hexes.SIDES} == expected


@pytest.mark.parametrize("facing,front,behind", [
    (12, ("b6", "c6"), ("c4", "b4")),
    (2, ("c6", "d5"), ("b4", "b5")),
    (4, ("d5", "c4"), ("b5", "b6")),
    (6, ("c4", "b4"), ("b6", "c6")),
    (8, ("b4", "b5"), ("c6", "d5")),
    (10, ("b5", "b6"), ("d5", "c4")),
])
def test_front_and_behind_hexes_of_each_facing(facing, front, behind):
    """The hexes in front of facing F are the neighbours at F − 1 and F + 1; behind are the
    two opposite them."""
    assert tuple(n(x) for x in hexes.front(h("c5"), facing)) == front
    assert tuple(n(x) for x in hexes.behind(h("c5"), facing)) == behind


def test_adjacent_hexes_share_their_corners():
    """The corner at 12 of c5 is the corner at 8 of its neighbour at 1 and at 4 of the one
    at 11: the corner points are one grid."""
    assert hexes.corner(h("c5"), 12) == hexes.corner(h("c6"), 8) == hexes.corner(h("b6"), 4)
    assert hexes.corner(h("c4"), 2) == hexes.corner(h("d4"), 10)


@pytest.mark.parametrize("a,b,d", [("c4", "c4", 0), ("c4", "d4", 1), ("c4", "d5", 1),
                                   ("c4", "c6", 2), ("a1", "a11", 10), ("a1", "o1", 14),
                                   ("c5", "f8", 5), ("c4", "c8", 4), ("a2", "o1", 14)])
def test_distance(a, b, d):
    assert hexes.distance(h(a), h(b)) == d == hexes.distance(h(b), h(a))


@pytest.mark.parametrize("old,new,cost", [(12, 12, 0), (12, 2, 1), (12, 10, 1), (12, 4, 2),
                                          (12, 8, 2), (12, 6, 2), (2, 8, 2), (10, 2, 2)])
def test_turning_costs(old, new, cost):
    """Turning one corner in place costs 1 point; two or three corners cost 2."""
    assert hexes.turn_cost(old, new) == cost


def test_after_moving_the_tank_faces_along_its_travel():
    """After moving towards hour h the tank faces h − 1 or h + 1; after reversing towards h it
    faces the corners against its travel (it keeps its front forward)."""
    assert hexes.facings_after_move(1) == (12, 2)
    assert hexes.facings_after_move(11) == (10, 12)
    assert hexes.facings_after_reverse(5) == (10, 12)
    assert hexes.facings_after_reverse(7) == (12, 2)


def test_a_line_through_the_middle_crosses_the_interior():
    assert hexes.crosses_interior(hexes.centre(h("b5")), hexes.centre(h("d5")), h("c5"))


def test_a_line_along_an_edge_or_through_a_corner_does_not_block():
    """Running along an edge or touching a corner does not block; a chord does."""
    c5 = h("c5")
    assert not hexes.crosses_interior(hexes.corner(c5, 12), hexes.corner(c5, 2), c5)
    x, y = hexes.centre(c5)
    along = ((x + 1, y - 5), (x + 1, y + 5))  # along the edge c5 shares with d5, extended
    assert not hexes.crosses_interior(*along, c5)
    assert not hexes.crosses_interior(*along, h("d5"))
    px, py = hexes.corner(c5, 12)
    assert not hexes.crosses_interior((px - 3, py), (px + 3, py), c5)  # touches the corner
    assert hexes.crosses_interior((px - 3, py - 1), (px + 3, py - 1), c5)  # corner 10 to 2


def test_a_line_missing_the_hex_does_not_block():
    assert not hexes.crosses_interior(hexes.centre(h("a1")), hexes.centre(h("a3")), h("c5"))


@pytest.mark.parametrize("firer,arc", [
    ("c7", "front"),  # straight ahead: θ = 0°
    ("d6", "front"),  # θ = 60° exactly (through the 2 o'clock corner): front
    ("a6", "front"),  # θ = 60° exactly on the other side
    ("e6", "side"),   # just past 60°
    ("e5", "side"),   # due east: θ = 90°
    ("d4", "rear"),   # θ = 120° exactly: rear
    ("a4", "rear"),   # θ = 120° on the other side
    ("e4", "side"),   # just short of 120°
    ("c3", "rear"),   # straight behind: θ = 180°
])
def test_impact_arc_at_the_60_and_120_degree_boundaries(firer, arc):
    """Point of impact by θ between the target's facing and the bearing to the firer:
    θ ≤ 60° front, θ ≥ 120° rear, otherwise side. A target at c5 facing 12."""
    assert hexes.arc(h("c5"), 12, h(firer)) == arc


@pytest.mark.parametrize("facing", hexes.FACINGS)
def test_impact_arcs_turn_with_the_facing(facing):
    """Ahead of each facing is front, behind it rear, at right angles side."""
    target = h("g6")
    step = hexes.neighbour
    ahead = step(step(target, hexes.hour(facing - 1)), hexes.hour(facing + 1))
    behind = step(step(target, hexes.hour(facing + 5)), hexes.hour(facing + 7))
    beside = hexes.neighbour(target, hexes.hour(facing + 3))
    assert hexes.arc(target, facing, ahead) == "front"
    assert hexes.arc(target, facing, behind) == "rear"
    assert hexes.arc(target, facing, beside) == "side"
