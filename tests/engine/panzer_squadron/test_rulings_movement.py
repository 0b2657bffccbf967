"""Rulings on movement: front hexes, facing after a move, turning costs, reversing, the
one-hex obligation, terrain costs, move and fire's 3 points, the end-of-activation state."""

from __future__ import annotations

import pytest

from engine.base import RuleError

from .conftest import GAME, find, of_type, play, start, tank


def rolled(tanks, dice, action="move", **kw):
    """A position after A (seat 1) chose ``action`` with the given dice."""
    s = start([*tanks, tank("X", "o11", 6, seat=2)], dice=dice, **kw)
    return play(s, 1, {"activate": "A", "action": action}).state


def problems(state, sub, seat=1):
    with pytest.raises(RuleError) as error:
        GAME.validate(state, seat, sub)
    return {p.path for p in error.value.problems}


def test_a_tank_moves_only_into_the_two_hexes_in_front():
    """Moving: into one of the two hexes in front (for facing 12 at c2: c3 and d3)."""
    s = rolled([tank("A", "c2", 12, card="light")], [2])
    GAME.validate(s, 1, {"path": [{"move": "c3", "face": 12}]})
    GAME.validate(s, 1, {"path": [{"move": "d3", "face": 12}]})
    assert problems(s, {"path": [{"move": "d2", "face": 2}]}) == {"path.0.move"}
    assert problems(s, {"path": [{"move": "c1", "face": 12}]}) == {"path.0.move"}


def test_after_moving_the_tank_faces_a_corner_along_its_travel():
    """Afterwards it faces one of the two corners of the new hex pointing along its travel."""
    s = rolled([tank("A", "c2", 12, card="light")], [2])
    GAME.validate(s, 1, {"path": [{"move": "c3", "face": 10}]})
    assert problems(s, {"path": [{"move": "c3", "face": 2}]}) == {"path.0.face"}


@pytest.mark.parametrize("turn,cost", [(2, 1), (10, 1), (4, 2), (6, 2)])
def test_turning_in_place_costs_1_or_2(turn, cost):
    """Turning one corner in place costs 1 point; two or three corners cost 2."""
    walls = ("c6", "d5", "c4", "b4", "b5", "b6")  # c5 boxed in: it need not move
    s = rolled([tank("A", "c5", 12, card="light")], [cost], building=walls)
    GAME.validate(s, 1, {"path": [{"turn": turn}]})
    if cost == 2:
        s = rolled([tank("A", "c5", 12, card="light")], [1], building=walls)
        assert problems(s, {"path": [{"turn": turn}]}) == {"path"}
        GAME.validate(s, 1, {"path": [{"turn": 2 if turn != 2 else 10}]})


def test_a_turn_step_must_change_the_facing():
    s = rolled([tank("A", "c2", 12, card="light")], [3])
    assert problems(s, {"path": [{"turn": 12}, {"move": "c3", "face": 12}]}) == {"path.0.turn"}


def test_reverse_goes_through_the_hexes_behind_and_faces_against_the_travel():
    """Reversing: into one of the two hexes behind; it then faces a corner against its
    direction of travel (keeps its front forward)."""
    s = rolled([tank("A", "c5", 12, card="light")], [2])
    GAME.validate(s, 1, {"path": [{"reverse": "c4", "face": 12}]})
    GAME.validate(s, 1, {"path": [{"reverse": "b4", "face": 2}]})
    assert problems(s, {"path": [{"reverse": "c4", "face": 6}]}) == {"path.0.face"}
    assert problems(s, {"path": [{"reverse": "c6", "face": 12}]}) == {"path.0.reverse"}


def test_reverse_and_forward_never_mix_in_one_activation():
    s = rolled([tank("A", "c5", 12, card="light")], [4])
    assert "path.1" in problems(s, {"path": [{"reverse": "c4", "face": 12},
                                             {"move": "c5", "face": 12}]})
    assert "path.1" in problems(s, {"path": [{"move": "c6", "face": 12},
                                             {"reverse": "c5", "face": 12}]})


def test_a_tank_that_reversed_ends_stopped():
    """A tank that reversed ends stopped, whatever ``end`` says."""
    s = rolled([tank("A", "c5", 12, card="light")], [2])
    s = play(s, 1, {"path": [{"reverse": "c4", "face": 12}], "end": "moving"}).state
    assert find(s, "A")["state"] == "stationary" and find(s, "A")["at"] == "c4"


@pytest.mark.parametrize("end", ["moving", "stopped"])
def test_after_only_moving_the_player_chooses_moving_or_stopped(end):
    s = rolled([tank("A", "c2", 12, card="light")], [2])
    s = play(s, 1, {"path": [{"move": "c3", "face": 12}], "end": end}).state
    assert find(s, "A")["state"] == ("moving" if end == "moving" else "stationary")


def test_the_tank_must_enter_a_hex_if_it_can():
    """Having rolled, the tank must move at least one hex if some turns and then one hex fit
    in the points it may spend."""
    s = rolled([tank("A", "c2", 12, card="light")], [1])
    assert problems(s, {"path": []}) == {"path"}
    assert problems(s, {"path": [], "end": "stopped"}) == {"path"}


def test_a_tank_that_cannot_enter_a_hex_may_stay():
    """No hex fits: blocked in front by buildings and water, behind by the map's edge, and
    a turn would use the single point. Also 0 points."""
    s = rolled([tank("A", "c1", 12, card="light")], [1], building=("c2",), water=("b2",))
    GAME.validate(s, 1, {"path": []})
    s = rolled([tank("A", "c2", 12, card="heavy")], [1])
    GAME.validate(s, 1, {"path": []})


def test_woods_cost_two_points_buildings_water_tanks_and_the_edge_cannot_be_entered():
    s = rolled([tank("A", "c2", 12, card="light")], [1], woods=("c3",), building=("d3",))
    assert problems(s, {"path": [{"move": "c3", "face": 12}]}) == {"path"}  # 2 > 1
    assert problems(s, {"path": [{"move": "d3", "face": 12}]}) == {"path.0.move"}
    s = rolled([tank("A", "c2", 12, card="light")], [2], woods=("c3",))
    GAME.validate(s, 1, {"path": [{"move": "c3", "face": 12}]})
    s = rolled([tank("A", "c2", 12, card="light"), tank("B", "c3", 12)], [2], water=("d3",))
    assert problems(s, {"path": [{"move": "c3", "face": 12}]}) == {"path.0.move"}
    assert problems(s, {"path": [{"move": "d3", "face": 12}]}) == {"path.0.move"}
    s = rolled([tank("A", "a1", 6, card="light")], [2])
    assert problems(s, {"path": [{"move": "a0", "face": 6}]}) == {"path.0.move"}  # off the map


def test_move_and_fire_keeps_three_points_for_the_shot():
    """In a move and fire that fires, the path may spend at most points − 3; without a
    target it is a plain move that may spend every point, and its end counts."""
    s = start([tank("A", "c2", 12, card="light", state="moving"),
               tank("X", "c8", 6, seat=2)], dice=[2, 2])
    s = play(s, 1, {"activate": "A", "action": "move-fire"}).state
    GAME.validate(s, 1, {"path": [{"move": "c3", "face": 12}], "target": "c8"})
    assert problems(s, {"path": [{"move": "c3", "face": 12}, {"move": "c4", "face": 12}],
                        "target": "c8"}) == {"path"}
    # without a target it is a plain move: every point, and its end counts
    out = play(s, 1, {"path": [{"move": "c3", "face": 12}, {"move": "c4", "face": 12}],
                      "target": None, "end": "moving"})
    assert find(out.state, "A")["state"] == "moving"


def test_move_and_fire_with_fewer_than_three_points_cannot_fire():
    s = start([tank("A", "c2", 12, card="medium"), tank("X", "c8", 6, seat=2)], dice=[3])
    s = play(s, 1, {"activate": "A", "action": "move-fire"}).state
    assert s["pending"]["points"] == 2
    assert "target" in problems(s, {"path": [{"move": "c3", "face": 12}], "target": "c8"})


def test_after_move_and_fire_the_tank_is_stationary():
    s = start([tank("A", "c2", 12, card="light", state="moving"),
               tank("X", "c8", 6, seat=2, reaction={"mode": "hold", "max_range": None})],
              dice=[2, 2, 1])
    s = play(s, 1, {"activate": "A", "action": "move-fire"}).state
    out = play(s, 1, {"path": [{"move": "c3", "face": 12}], "target": "c8", "end": "moving"})
    assert find(out.state, "A")["state"] == "stationary"
    assert len(of_type(out.events, "fire")) == 1


def test_missed_path_defaults_to_the_cheapest_legal_path():
    """The default path: nothing where the tank need not move, else the fewest points that
    enter one hex (straight ahead first); it ends stopped and fires at nothing."""
    s = rolled([tank("A", "c2", 12, card="light")], [3])
    default = GAME.default_submission(s, 1)
    assert default == {"path": [{"move": "c3", "face": 10}], "target": None, "end": "stopped"}
    GAME.validate(s, 1, default)
    s = rolled([tank("A", "c2", 12, card="light")], [3], building=("c3", "d3"))
    default = GAME.default_submission(s, 1)
    assert default["path"] == [{"reverse": "d1", "face": 10}]
    s = rolled([tank("A", "c2", 12, card="heavy")], [1])
    assert GAME.default_submission(s, 1)["path"] == []
