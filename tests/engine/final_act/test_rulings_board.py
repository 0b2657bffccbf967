"""Rulings: "Board and pieces" and "Fire" geometry — cones, berm range, line of fire."""

from __future__ import annotations


def rank_run(rank: int, files: str) -> set[str]:
    return {f"{f}{rank}" for f in files}


def file_run(file: str, first: int, last: int) -> set[str]:
    return {f"{file}{r}" for r in range(first, last + 1)}


def test_board_is_12_by_12_with_squares_a1_to_l12(fa):
    """Board: 12 x 12 squares, files a-l, ranks 1-12; square names like c7."""
    state = fa.start([fa.unit(1, "C", "l12", "S"), fa.unit(2, "C", "a1", "N")])
    assert fa.at(state, 1, "C") == "l12"
    assert fa.paths(fa.start([fa.unit(1, "C", "e4")]), 1, {"units": {"C": {"fire": ["m4"]}}}) == [
        "units.C.fire.0"
    ]
    moves = {m["move"] for m in fa.legal(state, 1)["units"]["C"]["moves"]}
    # At l12 facing S: F -> l11, FL (left of S is E) leaves the board, FR -> k11, B leaves.
    assert moves == {"stay", "F", "FR"}


def test_tank_cone_facing_north(fa):
    """Tank cone: f >= 1 and |s| + |f - 3| <= 3: a diamond to 6 ahead, 3 to each side at f = 3."""
    state = fa.start([fa.unit(1, "C", "e4", "N")])
    expected = (
        rank_run(5, "def")
        | rank_run(6, "cdefg")
        | rank_run(7, "bcdefgh")
        | rank_run(8, "cdefg")
        | rank_run(9, "def")
        | {"e10"}
    )
    assert fa.fire_squares(state, 1, "C") == expected


def test_tank_cone_facing_south(fa):
    """The cone is measured along the tank's facing (S: towards rank 1)."""
    state = fa.start([fa.unit(2, "C", "f9", "S")])
    expected = (
        rank_run(8, "efg")
        | rank_run(7, "defgh")
        | rank_run(6, "cdefghi")
        | rank_run(5, "defgh")
        | rank_run(4, "efg")
        | {"f3"}
    )
    assert fa.fire_squares(state, 2, "C") == expected


def test_tank_cone_facing_east(fa):
    """Facing E the diamond opens along the files."""
    state = fa.start([fa.unit(1, "C", "c6", "E")])
    expected = (
        file_run("d", 5, 7)
        | file_run("e", 4, 8)
        | file_run("f", 3, 9)
        | file_run("g", 4, 8)
        | file_run("h", 5, 7)
        | {"i6"}
    )
    assert fa.fire_squares(state, 1, "C") == expected


def test_tank_cone_facing_west_is_cut_by_the_board_edge(fa):
    """Facing W from d6: only the squares on the board remain (f = 1..3)."""
    state = fa.start([fa.unit(1, "C", "d6", "W")])
    expected = file_run("c", 5, 7) | file_run("b", 4, 8) | file_run("a", 3, 9)
    assert fa.fire_squares(state, 1, "C") == expected


def test_berm_adds_one_square_of_range_straight_ahead(fa, terrain):
    """A tank standing on a berm also reaches f = 7, s = 0 (and nothing else is added)."""
    flat = fa.start([fa.unit(1, "C", "e4", "N")])
    on_berm = fa.start([fa.unit(1, "C", "e4", "N")], [terrain.berm(1, "e4")])
    assert fa.fire_squares(on_berm, 1, "C") == fa.fire_squares(flat, 1, "C") | {"e11"}


def test_line_of_fire_blocked_by_a_tank_in_between(fa):
    """Line of fire is blocked by any square it passes through that holds a tank (either side)."""
    state = fa.start([fa.unit(1, "C", "e4", "N"), fa.unit(1, "1", "e6", "N")])
    squares = fa.fire_squares(state, 1, "C")
    assert "e6" in squares  # the target square itself never blocks
    assert "e7" not in squares and "e10" not in squares
    problems = fa.problems(state, 1, {"units": {"C": {"fire": ["e8"]}}})
    assert problems == [
        (
            "units.C.fire.0",
            "Tank C cannot fire at e8: the line of fire to e8 is blocked by Alpha 1 at e6.",
        )
    ]


def test_line_of_fire_through_the_interior_of_two_squares(fa):
    """A shot e4 -> f6 crosses the interiors of e5 and f5: a tank on either blocks it."""
    for blocker in ("e5", "f5"):
        state = fa.start([fa.unit(1, "C", "e4", "N"), fa.unit(2, "2", blocker, "S")])
        assert "f6" not in fa.fire_squares(state, 1, "C"), blocker
    state = fa.start([fa.unit(1, "C", "e4", "N"), fa.unit(2, "2", "d5", "S")])
    assert "f6" in fa.fire_squares(state, 1, "C")


def test_corner_touch_does_not_block(fa):
    """Touching a square only at a corner does not block: e4 -> g6 passes the corner of e5/f4."""
    state = fa.start([fa.unit(1, "C", "e4", "N"), fa.unit(2, "2", "e5", "S")])
    squares = fa.fire_squares(state, 1, "C")
    assert "g6" in squares
    assert "e6" not in squares  # but straight ahead e5 does block


def test_corner_between_two_diagonal_blockers_blocks(fa, terrain):
    """Passing through a corner shared by two diagonally opposite blocking squares blocks."""
    tanks = fa.start(
        [fa.unit(1, "C", "e4", "N"), fa.unit(2, "2", "e5", "S"), fa.unit(1, "1", "f4", "N")]
    )
    assert "g6" not in fa.fire_squares(tanks, 1, "C")
    # The second corner on the same shot (f6 / g5), with a berm as one of the two blockers.
    mixed = fa.start(
        [fa.unit(1, "C", "e4", "N"), fa.unit(2, "2", "f6", "S")], [terrain.berm(1, "g5")]
    )
    assert "g6" not in fa.fire_squares(mixed, 1, "C")
    # One of the pair alone is not enough.
    single = fa.start([fa.unit(1, "C", "e4", "N"), fa.unit(2, "2", "f6", "S")])
    assert "g6" in fa.fire_squares(single, 1, "C")


def test_berm_on_the_path_blocks_but_may_be_targeted(fa, terrain):
    """Berms block line of fire; the shooter may always target a berm square itself."""
    state = fa.start([fa.unit(1, "C", "e4", "N")], [terrain.berm(2, "e7")])
    squares = fa.fire_squares(state, 1, "C")
    assert "e7" in squares
    assert {"e8", "e9", "e10"}.isdisjoint(squares)
    assert "d8" in squares  # e4 -> d8 does not cross e7


def test_elevated_shooter_ignores_blocking(fa, terrain):
    """A tank on a berm ignores line-of-fire blocking (tanks and berms)."""
    units = [fa.unit(1, "C", "e4", "N"), fa.unit(1, "1", "e5", "N"), fa.unit(2, "2", "e8", "S")]
    state = fa.start(units, [terrain.berm(1, "e4"), terrain.berm(2, "e7")])
    squares = fa.fire_squares(state, 1, "C")
    assert {"e6", "e7", "e9", "e10", "e11"} <= squares


def test_swamps_and_minefields_never_block(fa, terrain):
    """Swamps and minefields never block line of fire."""
    state = fa.start(
        [fa.unit(1, "C", "e4", "N")],
        [
            terrain.swamp(1, "e5", "f5", "e6", "f6"),
            terrain.minefield(2, ["d7", "e7", "f7"], "e7", "S"),
        ],
    )
    assert {"e8", "e9", "e10"} <= fa.fire_squares(state, 1, "C")


def test_shell_may_target_any_cone_square_including_own_unit(fa):
    """A shell may target any square of the cone, empty or not, including one held by an own unit
    (it does no harm to own units)."""
    state = fa.start([fa.unit(1, "C", "e4", "N"), fa.unit(1, "1", "e6", "N", hits=1)])
    after = fa.play(state, {"units": {"C": {"fire": ["e6"]}}})
    assert fa.seen(after, 1, "1")["hits"] == 1
    assert fa.seen(after, 1, "1")["status"] == "damaged"
