"""legal_orders per unit: "cone" (the whole fire cone), "fire" (what may be shelled) and
"blocked" (cone squares whose line of fire is cut), per the rulings' "Fire" section."""

from __future__ import annotations

from engine.final_act import board


def cone_by_formula(at: str, facing: str, reach: int, centre: int) -> set[str]:
    """The cone written straight from the ruling: f >= 1 and |s| + |f - centre| <= centre."""
    sq = board.parse(at)
    assert sq is not None
    x0, y0 = board.coords(sq)
    fx, fy = board.VECTORS[facing]
    out = set()
    for target in board.SQUARES:
        x, y = board.coords(target)
        f = (x - x0) * fx + (y - y0) * fy
        s = (x - x0) * fy - (y - y0) * fx
        if 1 <= f <= reach and abs(s) + abs(f - centre) <= centre:
            out.add(board.name(target))
    return out


def entry(fa, state, seat, name):
    return fa.legal(state, seat)["units"][name]


def test_tank_cone_is_the_diamond_six_ahead(fa):
    """Tank cone: every square with f >= 1 and |s| + |f - 3| <= 3; with nothing in the way all
    of it may be shelled, so nothing is blocked."""
    state = fa.start([fa.unit(1, "C", "f4", "N"), fa.unit(2, "C", "l12", "S")])
    unit = entry(fa, state, 1, "C")
    assert set(unit["cone"]) == cone_by_formula("f4", "N", 6, 3)
    assert len(unit["cone"]) == 24
    assert unit["fire"] == unit["cone"] and unit["blocked"] == []


def test_cone_turns_with_the_facing(fa):
    """The cone is measured from the unit's facing: Delta facing S, Alpha facing E."""
    state = fa.start([fa.unit(1, "C", "b6", "E"), fa.unit(2, "C", "f9", "S")])
    assert set(entry(fa, state, 2, "C")["cone"]) == cone_by_formula("f9", "S", 6, 3)
    assert set(entry(fa, state, 1, "C")["cone"]) == cone_by_formula("b6", "E", 6, 3)
    assert "f3" in entry(fa, state, 2, "C")["cone"]  # six ahead of f9 facing S


def test_cone_is_cut_at_the_board_edge(fa):
    """Cone squares off the board are simply not there; facing the edge leaves no cone."""
    state = fa.start([fa.unit(1, "C", "a1", "W"), fa.unit(1, "1", "b10", "N")])
    assert entry(fa, state, 1, "C")["cone"] == []
    assert set(entry(fa, state, 1, "1")["cone"]) == cone_by_formula("b10", "N", 6, 3)


def test_blocked_is_the_cone_minus_fire(fa):
    """A tank in the line of fire blocks the squares behind it but may itself be shelled;
    fire and blocked split the cone exactly."""
    state = fa.start([fa.unit(1, "C", "f4", "N"), fa.unit(2, "2A", "f6", "S")])
    unit = entry(fa, state, 1, "C")
    assert set(unit["fire"]) | set(unit["blocked"]) == set(unit["cone"])
    assert not set(unit["fire"]) & set(unit["blocked"])
    assert {"f7", "f8", "f9", "f10"} <= set(unit["blocked"])
    assert "f6" in unit["fire"]


def test_touching_a_corner_does_not_block(fa):
    """The line from f4 to e7 only touches the corner of f6: e7 stays in "fire"."""
    state = fa.start([fa.unit(1, "C", "f4", "N"), fa.unit(1, "1", "f6", "N")])
    unit = entry(fa, state, 1, "C")
    assert "e7" in unit["fire"] and "e7" not in unit["blocked"]


def test_blocked_squares_are_exactly_those_the_sheet_refuses(fa, terrain):
    """Every "fire" square is accepted as a shell on the order sheet; every "blocked" square is
    refused with a line-of-fire reason."""
    units = [fa.unit(1, "C", "e4", "N"), fa.unit(2, "1", "d7", "S"), fa.unit(1, "2", "g6", "N")]
    state = fa.start(units, [terrain.berm(1, "e5")])
    unit = entry(fa, state, 1, "C")
    assert unit["blocked"]
    for target in unit["fire"]:
        fa.validate(state, 1, {"units": {"C": {"fire": [target]}}})
    for target in unit["blocked"]:
        problems = fa.problems(state, 1, {"units": {"C": {"fire": [target]}}})
        assert problems[0][0] == "units.C.fire.0"
        assert "line of fire" in problems[0][1]


def test_a_berm_blocks_but_may_be_shelled_itself(fa, terrain):
    """A berm square blocks the line of fire beyond it; the berm square itself may be shelled."""
    state = fa.start([fa.unit(1, "C", "f4", "N")], [terrain.berm(2, "f7")])
    unit = entry(fa, state, 1, "C")
    assert "f7" in unit["fire"]
    assert {"f8", "f9", "f10"} <= set(unit["blocked"])


def test_on_a_berm_the_cone_reaches_seven_and_nothing_blocks(fa, terrain):
    """A tank on a berm also reaches f = 7, s = 0, and ignores line-of-fire blocking."""
    units = [fa.unit(1, "C", "f4", "N"), fa.unit(2, "2A", "f6", "S")]
    state = fa.start(units, [terrain.berm(1, "f4")])
    unit = entry(fa, state, 1, "C")
    assert set(unit["cone"]) == cone_by_formula("f4", "N", 6, 3) | {"f11"}
    assert unit["fire"] == unit["cone"] and unit["blocked"] == []


def test_at_cone_is_four_ahead_and_does_not_grow_on_a_berm(fa, terrain):
    """AT cone: |s| + |f - 2| <= 2 (4 ahead); on a berm it ignores blocking but gains no range."""
    units = [
        fa.unit(1, "AT1", "c4", "N"),
        fa.unit(1, "AT2", "h4", "N"),
        fa.unit(2, "C", "c6", "S"),
        fa.unit(2, "1", "h6", "S"),
    ]
    state = fa.start(units, [terrain.berm(1, "h4")], extra_forces=True)
    low, high = entry(fa, state, 1, "AT1"), entry(fa, state, 1, "AT2")
    assert set(low["cone"]) == cone_by_formula("c4", "N", 4, 2) and len(low["cone"]) == 12
    assert set(low["blocked"]) == {"c7", "c8"}
    assert set(high["cone"]) == cone_by_formula("h4", "N", 4, 2)
    assert high["blocked"] == [] and high["fire"] == high["cone"]


def test_at_units_never_block(fa):
    """AT units never block anyone's line of fire: an AT in front leaves nothing blocked."""
    units = [fa.unit(1, "C", "f4", "N"), fa.unit(2, "AT1", "f6", "S")]
    state = fa.start(units, extra_forces=True)
    assert entry(fa, state, 1, "C")["blocked"] == []


def test_units_that_cannot_fire_have_empty_lists(fa):
    """The R unit never fires; a tank under repair by R (and R itself) fires nothing that round:
    cone, fire and blocked are all empty."""
    units = [
        fa.unit(1, "1A", "d4", "N", hits=1),
        fa.unit(1, "R", "d3", "N"),
        fa.unit(2, "C", "l12"),
    ]
    state = fa.start(units, extra_forces=True)
    r_unit = entry(fa, state, 1, "R")
    assert (r_unit["cone"], r_unit["fire"], r_unit["blocked"]) == ([], [], [])
    assert entry(fa, state, 1, "1A")["cone"]
    repairing = fa.play(state, {"units": {"R": {"move": "F"}}})
    tank = entry(fa, repairing, 1, "1A")
    assert (tank["cone"], tank["fire"], tank["blocked"], tank["shells"]) == ([], [], [], 0)


def test_lists_are_sorted_like_fire(fa):
    """cone, fire and blocked are sorted by square name, the order "fire" always had."""
    state = fa.start([fa.unit(1, "C", "f4", "N"), fa.unit(2, "2A", "f6", "S")])
    unit = entry(fa, state, 1, "C")
    for key in ("cone", "fire", "blocked"):
        assert unit[key] == sorted(unit[key])


def test_a_wreck_blocks_like_a_tank(fa):
    """Advanced rule 1: a wreck blocks the line of fire; the wreck's square itself stays in
    "fire"."""
    units = [fa.unit(1, "C", "f4", "N"), fa.unit(2, "2A", "f6", "S", hits=2)]
    state = fa.start(units, advanced=["wrecks"])
    unit = entry(fa, state, 1, "C")
    assert fa.seen(state, 2, "2A")["status"] == "wreck"
    assert "f6" in unit["fire"] and {"f7", "f8", "f9", "f10"} <= set(unit["blocked"])
