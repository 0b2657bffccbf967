"""The engine's side of Panzer Squadron's plans (engine/panzer_squadron/plans.py): a whole
activation's canonical form and text, the activations found in the steps played, and the
steps that play a planned one."""

from __future__ import annotations

import random

import pytest

import engine
from engine.base import RuleError

GAME = engine.get("panzer-squadron")
HOLD = {"mode": "hold", "max_range": None}
SCENARIO = {"size": [8, 8], "turn": 1, "initiative": 1,
            "terrain": {"woods": [], "building": ["b4"], "water": []},
            "tanks": [{"seat": 1, "name": "A1", "card": "light", "at": "b2", "facing": 12,
                       "reaction": HOLD},
                      {"seat": 2, "name": "A2", "card": "light", "at": "g7", "facing": 6,
                       "reaction": HOLD}]}
UP = {"activate": "A1", "action": "move", "path": [{"move": "c3", "face": 12},
                                                   {"move": "c4", "face": 12}],
      "target": None, "end": "moving"}


def start(dice):
    return GAME.start(2, {"scenario": SCENARIO, "dice": dice}, 1)


def test_a_whole_activation_round_trips_through_the_grammar():
    state = start([])
    line = GAME.format_text(state, 1, GAME.plan_move(1, UP))
    assert line == "activate A1 move; path c3 12, c4 12; end moving"
    assert GAME.plan_move(1, GAME.plan_from_text(state, 1, line)) == GAME.plan_move(1, UP)
    with pytest.raises(RuleError):
        GAME.plan_from_text(state, 1, "path c3 12")  # a path alone is no activation


def test_the_steps_played_make_whole_activations_numbered_by_their_choice():
    steps = [(4, 2, {"path": [], "target": None, "end": "stopped"}),  # begun before
             (5, 1, {"activate": "A1", "action": "move"}),
             (6, 1, {"path": UP["path"], "target": None, "end": "moving"}),
             (7, 2, {"activate": "A2", "action": "ambush"}),
             (8, 1, {"activate": "A1", "action": "move-fire"})]  # its path still to come
    assert GAME.plan_played(steps) == [(4, 2, None), (5, 1, GAME.plan_move(1, UP)),
                                       (7, 2, {"activate": "A2", "action": "ambush"}),
                                       (8, 1, None)]


def test_a_planned_move_is_played_in_its_two_steps():
    state = start([2])
    move = GAME.plan_move(1, UP)
    assert GAME.plan_opens(state, 1) and not GAME.plan_opens(state, 2)
    choice = GAME.plan_step(state, 1, move, 0)
    assert choice == {"activate": "A1", "action": "move"}
    state = GAME.apply(state, 1, choice, None, random.Random(1)).state
    assert not GAME.plan_opens(state, 1) and GAME.plan_begun(state) == 1
    assert GAME.plan_step(state, 1, move, 1) == {k: UP[k] for k in ("path", "target", "end")}
    state = GAME.apply(state, 1, GAME.plan_step(state, 1, move, 1), None,
                       random.Random(1)).state
    assert GAME.plan_step(state, 1, move, 2) is None


def test_the_position_refuses_a_path_before_any_die_is_rolled():
    state = start([4])
    into_building = {**UP, "path": [{"move": "b3", "face": 12}, {"move": "b4", "face": 12}]}
    with pytest.raises(RuleError) as refused:
        GAME.plan_step(state, 1, GAME.plan_move(1, into_building), 0)
    assert "path.1.move" in {p.path for p in refused.value.problems}
    assert state["dice"] == [4]


def test_a_path_the_roll_cannot_pay_for_becomes_the_default_path():
    state = start([1])  # one point; the path costs two
    move = GAME.plan_move(1, UP)
    state = GAME.apply(state, 1, GAME.plan_step(state, 1, move, 0), None,
                       random.Random(1)).state
    path = GAME.plan_step(state, 1, move, 1)
    assert len(path["path"]) == 1 and path["end"] == "stopped" and path["target"] is None
    GAME.validate(state, 1, path)  # legal as it stands
