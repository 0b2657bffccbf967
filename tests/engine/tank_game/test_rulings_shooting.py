"""Rulings, "Shooting": range, line of sight with the per-corner rule, hit dice, walls."""

from __future__ import annotations

import random

from engine.tank_game import sight


def test_target_any_square_within_range_chebyshev(h) -> None:
    """Target: any square within range (Chebyshev distance) with line of sight."""
    state = h.start({1: "C3", 2: "H8"}, walls={}, mines=[])
    assert (
        h.act(state, 1, {"type": "shoot", "at": "E5"}).events[-1]["text"].endswith("(miss)")
    )
    assert (
        "3 squares away; your range is 2"
        in h.refused(state, 1, {"type": "shoot", "at": "F4"})["at"]
    )


def test_a_tank_may_not_target_its_own_square(h) -> None:
    """A tank may not target its own square."""
    state = h.start({1: "C3", 2: "H8"}, walls={}, mines=[])
    assert "own square" in h.refused(state, 1, {"type": "shoot", "at": "C3"})["at"]


def test_line_of_sight_blocked_by_a_wall_or_tank_in_a_passed_square(h) -> None:
    """A square the segment passes through the interior of blocks it if it holds a wall or a
    tank (living or dead) other than the target."""
    state = h.start({1: "A1", 2: "A3", 3: "C1", 4: "B1"}, walls={"A2": 3}, mines=[])
    assert "A2 is in the way" in h.refused(state, 1, {"type": "shoot", "at": "A3"})["at"]
    assert "B1 is in the way" in h.refused(state, 1, {"type": "shoot", "at": "C1"})["at"]
    h.kill(state, 4)
    assert "B1 is in the way" in h.refused(state, 1, {"type": "shoot", "at": "C1"})["at"]


def test_line_through_a_corner_blocks_only_if_both_touching_squares_block(h) -> None:
    """Passing exactly through a grid corner blocks only if both squares touching the line at
    that corner are blockers."""
    state = h.start({1: "A1", 2: "C3"}, walls={"B1": 2}, mines=[])  # A1->C3 passes B2 interior
    assert h.game.action_problems(state, 1, {"type": "shoot", "at": "C3"}, h.now) == []
    # A1 -> B2 passes exactly through the corner between A2 and B1
    state = h.start({1: "A1", 2: "B2"}, walls={"B1": 2}, mines=[])
    assert h.game.action_problems(state, 1, {"type": "shoot", "at": "B2"}, h.now) == []
    state["walls"]["A2"] = 2
    problem = h.refused(state, 1, {"type": "shoot", "at": "B2"})["at"]
    assert "corner between A2 and B1" in problem


def test_corner_rule_is_per_corner_not_left_and_right_along_the_line(h) -> None:
    """We rule per corner: blockers touching different corners on opposite sides do not add up
    (the TankGameOrg "left touched / right touched" flags would block)."""
    # A1 -> C3 passes the corners (B1|A2) and (C2|B3); a blocker on each side at different corners
    crossed = sight.crossings((0, 0), (2, 2))
    assert crossed == [((1, 0), (0, 1)), ((1, 1),), ((2, 1), (1, 2))]
    state = h.start({1: "A1", 2: "C3"}, walls={"B1": 1, "B3": 1}, mines=[])
    h.set(state, 1, range=3)
    assert h.game.action_problems(state, 1, {"type": "shoot", "at": "C3"}, h.now) == []


def test_line_of_sight_uses_exact_centre_to_centre_geometry() -> None:
    """Segment from centre to centre: A1 -> C2 passes through the interiors of B1 and B2;
    A1 -> D2 passes B1, then exactly the corner between C1 and B2, then C2."""
    assert sight.crossings((0, 0), (2, 1)) == [((1, 0),), ((1, 1),)]
    assert sight.crossings((0, 0), (0, 3)) == [((0, 1),), ((0, 2),)]
    assert sight.crossings((0, 0), (3, 1)) == [((1, 0),), ((2, 0), (1, 1)), ((2, 1),)]


def test_shooting_an_empty_square_misses(h) -> None:
    """Empty square: miss."""
    state = h.start({1: "C3", 2: "H8"}, walls={}, mines=[])
    after = h.act(state, 1, {"type": "shoot", "at": "C4"}).state
    assert h.log[-1]["text"].endswith("Shot at C4 (miss)")
    assert h.tank(after, 1)["ap"] == 0


def test_wall_or_dead_tank_is_an_automatic_hit_minus_1_durability(h) -> None:
    """Wall or dead tank: automatic hit, -1 durability; durability 0 destroys the wall."""
    state = h.start({1: "C3", 2: "H8", 3: "D4"}, walls={"C4": 2}, mines=[])
    h.set(state, 1, ap=3)
    state = h.act(state, 1, {"type": "shoot", "at": "C4"}).state
    assert state["walls"]["C4"] == 1
    state = h.act(state, 1, {"type": "shoot", "at": "C4"}).state
    assert "C4" not in state["walls"]
    h.kill(state, 3)
    state = h.act(state, 1, {"type": "shoot", "at": "D4"}).state
    assert h.tank(state, 3)["durability"] == 2


def test_hit_dice_range_minus_distance_plus_one_each_hits_half(h) -> None:
    """Living tank: roll (range - distance) + 1 hit dice; each die hits with probability 1/2;
    any hit -> -1 life; the log stores every die."""
    state = h.start({1: "C3", 2: "D4", 3: "E5"}, walls={}, mines=[])
    h.set(state, 1, range=4)
    after = h.act(state, 1, {"type": "shoot", "at": "D4"}, rng=random.Random(11)).state
    dice = h.log[-1]["dice"]
    same = random.Random(11)
    assert dice == [same.randint(1, 6) for _ in range(4)]
    hit = any(d >= 4 for d in dice)
    assert h.tank(after, 2)["lives"] == (2 if hit else 3)
    assert h.log[-1]["text"].endswith("(hit)" if hit else "(miss)")
    hits = 0
    for seed in range(400):
        one = h.game.apply(state, 1, {"type": "shoot", "at": "D4"}, h.now, random.Random(seed))
        hits += one.state["tanks"]["2"]["lives"] == 2
    assert 0.90 < hits / 400 < 0.97  # 4 dice: 1 - 1/16 = 0.9375
    h.set(state, 1, range=2)
    h.set(state, 2, at="H8")
    one = h.game.apply(state, 1, {"type": "shoot", "at": "E5"}, h.now, random.Random(1))
    assert len(one.events[-1]["dice"]) == 1  # at range: one die
