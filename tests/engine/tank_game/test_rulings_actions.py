"""Rulings, "Actions": move, shoot, give, buy AP, upgrade range and their costs."""

from __future__ import annotations


def test_move_costs_1_ap_to_an_adjacent_empty_walkable_square(h) -> None:
    """Move (1 AP, to an adjacent empty walkable square)."""
    state = h.start({1: "C3", 2: "D4"}, walls={"B3": 2}, mines=[])
    h.set(state, 1, ap=2)
    after = h.act(state, 1, {"type": "move", "to": "c2"}).state
    assert h.tank(after, 1)["at"] == "C2" and h.tank(after, 1)["ap"] == 1
    assert h.log[-1]["text"].endswith("Seat 1 — Moved to C2")
    assert "not adjacent" in h.refused(state, 1, {"type": "move", "to": "C5"})["to"]
    assert "wall" in h.refused(state, 1, {"type": "move", "to": "B3"})["to"]
    assert "occupied" in h.refused(state, 1, {"type": "move", "to": "D4"})["to"]


def test_move_into_a_square_holding_a_dead_tank_is_refused(h) -> None:
    """A dead tank stays on the board and occupies its square."""
    state = h.start({1: "C3", 2: "C4", 3: "H8"}, walls={}, mines=[])
    h.kill(state, 2)
    assert "occupied" in h.refused(state, 1, {"type": "move", "to": "C4"})["to"]


def test_diagonal_move_only_if_one_orthogonal_square_is_walkable(h) -> None:
    """A diagonal only if one of the two orthogonal squares it passes is walkable."""
    state = h.start({1: "C3", 2: "H8"}, walls={"C4": 1, "D3": 1}, mines=[])
    problem = h.refused(state, 1, {"type": "move", "to": "D4"})["to"]
    assert "C4 or D3" in problem
    state["walls"] = {"C4": 1}
    assert h.act(state, 1, {"type": "move", "to": "D4"}).state["tanks"]["1"]["at"] == "D4"


def test_move_and_shoot_need_an_action_point(h) -> None:
    """Move and Shoot cost 1 AP each; without one they are refused."""
    state = h.start({1: "C3", 2: "D4"}, walls={}, mines=[])
    h.set(state, 1, ap=0)
    assert "action points" in h.refused(state, 1, {"type": "move", "to": "C2"})["ap"]
    assert "ap" in h.refused(state, 1, {"type": "shoot", "at": "D4"})


def test_give_costs_x_plus_1_within_range_without_line_of_sight(h) -> None:
    """Give X gold (X + 1 gold, within range, no line of sight needed, the 1 gold goes to the
    coffer)."""
    state = h.start({1: "A1", 2: "C1", 3: "J10"}, walls={"B1": 6}, mines=[])
    h.set(state, 1, gold=6)
    after = h.act(state, 1, {"type": "give", "to": "C1", "gold": 5}).state
    assert h.tank(after, 1)["gold"] == 0
    assert h.tank(after, 2)["gold"] == 5
    assert after["coffer"] == state["coffer"] + 1
    assert h.log[-1]["text"].endswith("Gave 5 Gold to Seat 2")
    assert "costs 7" in h.refused(state, 1, {"type": "give", "seat": 2, "gold": 6})["gold"]
    assert "range" in h.refused(state, 1, {"type": "give", "seat": 3, "gold": 1})["seat"]
    assert "yourself" in h.refused(state, 1, {"type": "give", "seat": 1, "gold": 1})["seat"]


def test_buy_ap_costs_3_gold_max_5_ap(h) -> None:
    """Buy AP (3 gold, 1 AP, max 5 AP)."""
    state = h.start({1: "A1", 2: "C3"}, walls={}, mines=[])
    h.set(state, 1, gold=7, ap=4)
    after = h.act(state, 1, {"type": "buy_ap"}).state
    assert (h.tank(after, 1)["ap"], h.tank(after, 1)["gold"]) == (5, 4)
    h.now = h.now.replace(hour=h.now.hour + 1)
    assert "5 action points" in h.refused(after, 1, {"type": "buy_ap"})["ap"]
    h.set(state, 1, gold=2)
    assert "3 gold" in h.refused(state, 1, {"type": "buy_ap"})["gold"]


def test_upgrade_range_costs_5_gold_plus_1(h) -> None:
    """Upgrade range (5 gold, +1)."""
    state = h.start({1: "A1", 2: "C3"}, walls={}, mines=[])
    h.set(state, 1, gold=5)
    after = h.act(state, 1, {"type": "upgrade_range"}).state
    assert (h.tank(after, 1)["range"], h.tank(after, 1)["gold"]) == (3, 0)
    h.set(state, 1, gold=4)
    assert "5 gold" in h.refused(state, 1, {"type": "upgrade_range"})["gold"]


def test_dead_tanks_do_not_act(h) -> None:
    """Dead tanks cannot perform actions (their player votes in the Council instead)."""
    state = h.start({1: "A1", 2: "C3", 3: "F8"}, walls={}, mines=[])
    h.kill(state, 2)
    assert "dead" in h.refused(state, 2, {"type": "move", "to": "C4"})["tank"]


def test_malformed_input_is_a_rule_error_never_a_crash(h) -> None:
    """Malformed input of any shape is refused with a RuleError naming the problem."""
    state = h.start({1: "A1", 2: "C3"}, walls={}, mines=[])
    for bad in (
        None,
        3,
        "move",
        [],
        {},
        {"type": "fly"},
        {"type": "move"},
        {"type": "move", "to": 7},
        {"type": "give", "gold": "lots", "to": "C3"},
        {"type": "give", "gold": 1, "to": "C3", "seat": 2},
        {"type": "vote", "ballot": []},
        {"type": "open_ballot", "decree": {}, "target": None},
        {1: 2, "type": "move"},
        {"type": "shoot", "at": "C3", "extra": True},
    ):
        assert h.refused(state, 1, bad)
    assert "seat" in h.refused(state, 7, {"type": "buy_ap"})
