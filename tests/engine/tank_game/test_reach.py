"""Who a tank could shoot at, and at whom a shot is aimed: the measure the moderators' "a seat
that always spares another" signal reads from a replayed logbook (games/tank_game/plugin.py)."""

from __future__ import annotations

from engine.tank_game.legal import rivals_in_reach, shot_at


def test_a_tank_reaches_the_living_rivals_in_range_and_sight(h) -> None:
    state = h.start({1: "C3", 2: "D4", 3: "H8", 4: "E3"}, walls={}, mines=[])
    assert rivals_in_reach(state, 1) == {2, 4}
    h.kill(state, 4)
    assert rivals_in_reach(state, 1) == {2}
    assert rivals_in_reach(state, 3) == set()


def test_a_tank_without_action_points_or_a_dead_one_reaches_nobody(h) -> None:
    state = h.start({1: "C3", 2: "D4"}, walls={}, mines=[])
    h.set(state, 1, ap=0)
    assert rivals_in_reach(state, 1) == set()
    h.kill(state, 2)
    assert rivals_in_reach(state, 2) == set()
    assert rivals_in_reach(state, 9) == set()


def test_a_shot_names_the_tank_on_its_square(h) -> None:
    state = h.start({1: "C3", 2: "D4"}, walls={}, mines=[])
    assert shot_at(state, {"type": "shoot", "at": "D4"}) == 2
    assert shot_at(state, {"type": "shoot", "at": "E5"}) is None
    assert shot_at(state, {"type": "move", "to": "D4"}) is None
    assert shot_at(state, "shoot D4") is None
