"""Rulings on fire: lines of fire to the corners, visibility with two lines, cover, the
point of impact, the range penalty, the hit roll; and opportunity fire from standing
reactions."""

from __future__ import annotations

import pytest

from engine.base import RuleError

from .conftest import GAME, find, of_type, play, start, tank

HOLD = {"mode": "hold", "max_range": None}


def shoot(woods=(), target_at="e8", target_facing=6, roll=1, **kw):
    """Medium A at c2 facing 12 fires at light X (the numbers: front 70 − 30 + 2 × 3)."""
    s = start([tank("A", "c2", 12), tank("X", target_at, target_facing, seat=2, card="light"),
               *kw.pop("more", [])], dice=[roll], woods=woods, **kw)
    out = play(s, 1, {"activate": "A", "action": "fire", "target": target_at})
    return out, of_type(out.events, "fire")[0]


def test_the_target_is_visible_with_two_unblocked_lines():
    """Visible: at least two of the six lines from the cannon to the target's corners pass no
    blocking interior. Woods on d4 leave exactly two of them (c2 → e8): visible, with cover."""
    _, fire = shoot(woods=("d4",))
    assert fire["cover"] is True


def test_one_unblocked_line_is_not_enough():
    """Woods on c4 leave one line: not visible, the fire is refused."""
    s = start([tank("A", "c2", 12), tank("X", "e8", 6, seat=2)], woods=("c4",))
    with pytest.raises(RuleError) as error:
        GAME.validate(s, 1, {"activate": "A", "action": "fire", "target": "e8"})
    assert error.value.problems[0].path == "target"


def test_cover_adds_ten_to_the_armour():
    """Visible and at least one of the six lines blocked: +10 armour."""
    _, clear = shoot()
    _, covered = shoot(woods=("d8",))
    assert (clear["needed"], clear["cover"]) == (70 - 30 + 2 * 3, False)
    assert (covered["needed"], covered["cover"]) == (clear["needed"] + 10, True)


def test_buildings_and_tanks_block_water_does_not():
    _, fire = shoot(building=("d8",))
    assert fire["cover"] is True
    _, fire = shoot(more=[tank("B", "d8", 12)])
    assert fire["cover"] is True
    _, fire = shoot(water=("d4", "d8", "c4"))
    assert fire["cover"] is False


def test_the_firers_and_targets_own_hexes_never_block():
    """Whatever their terrain, the firer's and the target's own hexes never block."""
    _, fire = shoot(woods=("c2", "e8"))
    assert fire["cover"] is False


def test_a_destroyed_tank_blocks_nothing():
    s = start([tank("A", "c2", 12, card="heavy"), tank("B", "e2", 12),
               tank("Y", "d8", 6, seat=2, card="light"),
               tank("X", "e8", 6, seat=2, card="light")], dice=[100, 1])
    s = play(s, 1, {"activate": "A", "action": "fire", "target": "d8"}).state
    assert not find(s, "Y")["alive"]
    s = play(s, 2, {"activate": "X", "action": "ambush"}).state
    fire = of_type(play(s, 1, {"activate": "B", "action": "fire", "target": "e8"}).events,
                   "fire")[0]
    assert fire["target"] == "X"
    view = GAME.view(s, None)
    assert {"name": "Y", "alive": False}.items() <= next(
        t for t in view["tanks"] if t["name"] == "Y").items()


@pytest.mark.parametrize("facing,arc,armour", [(8, "front", 70), (10, "front", 70),
                                               (12, "side", 55), (6, "side", 55),
                                               (2, "rear", 45), (4, "rear", 45)])
def test_point_of_impact_by_bearing(facing, arc, armour):
    """Front within 60° of the target's facing, rear within 60° of the opposite, else side;
    the armour of that arc is the one hit."""
    _, fire = shoot(target_at="g2", target_facing=facing)  # the firer due west, 4 hexes
    assert (fire["arc"], fire["needed"]) == (arc, armour - 30 + 2)


@pytest.mark.parametrize("target_at,distance", [("c5", 3), ("c6", 4), ("c8", 6)])
def test_range_penalty_two_per_hex_beyond_three(target_at, distance):
    _, fire = shoot(target_at=target_at)
    assert fire["distance"] == distance
    assert fire["needed"] == 70 - 30 + 2 * max(0, distance - 3)


@pytest.mark.parametrize("roll,hit", [(40, False), (41, True)])
def test_the_roll_must_exceed_the_number_needed(roll, hit):
    """d100 + firepower − 2 per hex beyond 3 must exceed the armour: a roll equal to
    ``needed`` misses. A hit destroys the tank and counts for the firer's seat."""
    out, fire = shoot(target_at="c5", roll=roll, more=[tank("Z", "o11", 6, seat=2)])
    assert (fire["needed"], fire["roll"], fire["hit"]) == (40, roll, hit)
    assert find(out.state, "X")["alive"] is (not hit)
    assert out.state["destroyed"] == {"1": int(hit), "2": 0}


def test_fire_at_your_own_tank_is_refused():
    s = start([tank("A", "c2", 12), tank("B", "c5", 12), tank("X", "o11", 6, seat=2)])
    with pytest.raises(RuleError):
        GAME.validate(s, 1, {"activate": "A", "action": "fire", "target": "c5"})


# -- opportunity fire -----------------------------------------------------------------
def moving_through(defenders, dice, steps=2, card="light", state="moving"):
    """Light A (seat 1) at c2 facing 12 moves north c3, c4 (two hexes)."""
    s = start([tank("A", "c2", 12, card=card, state=state), *defenders], dice=dice)
    s = play(s, 1, {"activate": "A", "action": "move"}).state
    path = [{"move": "c3", "face": 12}, {"move": "c4", "face": 12}][:steps]
    return play(s, 1, {"path": path, "end": "moving"})


def test_opportunity_fire_once_per_turn():
    """An enemy tank fires once, after the mover entered a hex, and is then activated and
    stationary for the turn."""
    out = moving_through([tank("D", "c9", 6, seat=2), tank("E", "o11", 6, seat=2,
                                                             reaction=HOLD)], dice=[1, 1, 1])
    fires = of_type(out.events, "fire")
    assert [(f["tank"], f["at"], f["opportunity"]) for f in fires] == [("D", "c3", True)]
    d = find(out.state, "D")
    assert d["activated"] and d["state"] == "stationary"
    assert find(out.state, "A")["at"] == "c4"
    assert out.state["to_move"] == 2 and not find(out.state, "E")["activated"]


def test_a_destroyed_mover_stops_mid_path():
    """Hex by hex: a mover destroyed by opportunity fire stops in that hex; its activation
    ends."""
    out = moving_through([tank("D", "c9", 6, seat=2)], dice=[1, 1, 100])
    assert [e["type"] for e in out.events if e["type"] in ("move", "fire", "destroyed")] == \
        ["move", "fire", "destroyed"]
    a = find(out.state, "A")
    assert (a["at"], a["alive"]) == ("c3", False)


def test_a_tank_already_activated_cannot_react():
    out = moving_through([tank("D", "c9", 6, seat=2, activated=True),
                          tank("E", "o11", 6, seat=2, reaction=HOLD)], dice=[1, 1])
    assert of_type(out.events, "fire") == []


def test_a_tank_in_ambush_reacts_even_when_activated():
    out = moving_through([tank("D", "c9", 6, seat=2, activated=True, state="ambush"),
                          tank("E", "o11", 6, seat=2, reaction=HOLD)], dice=[1, 1, 1])
    assert [f["tank"] for f in of_type(out.events, "fire")] == ["D"]


def test_hold_never_fires():
    out = moving_through([tank("D", "c9", 6, seat=2, reaction=HOLD)], dice=[1, 1])
    assert of_type(out.events, "fire") == []


def test_side_rear_fires_only_at_side_or_rear_shots():
    """``side-rear``: the defender fires only if it would hit the side or the rear. The mover
    faces 12; D ahead (front shot) holds its fire, E beside it (side shot) fires."""
    reaction = {"mode": "side-rear", "max_range": None}
    out = moving_through([tank("D", "c9", 6, seat=2, reaction=reaction),
                          tank("E", "h3", 8, seat=2, reaction=reaction)], dice=[1, 1, 1])
    fires = of_type(out.events, "fire")
    assert [(f["tank"], f["arc"]) for f in fires] == [("E", "side")]


def test_max_range_limits_the_reaction():
    """With a maximum range, a mover farther away is not fired at (c9 → c3 is 6, → c4 is 5)."""
    reaction = {"mode": "first", "max_range": 5}
    out = moving_through([tank("D", "c9", 6, seat=2, reaction=reaction)], dice=[1, 1, 1])
    assert [f["at"] for f in of_type(out.events, "fire")] == ["c4"]


def test_defenders_fire_in_order_of_name_until_the_mover_is_destroyed():
    out = moving_through([tank("E", "d9", 6, seat=2), tank("D", "c9", 6, seat=2),
                          tank("F", "e9", 6, seat=2)], dice=[1, 1, 1, 100])
    fires = of_type(out.events, "fire")
    assert [(f["tank"], f["hit"]) for f in fires] == [("D", False), ("E", True)]
    assert not find(out.state, "F")["activated"]


def test_turning_in_place_never_triggers_a_reaction():
    s = start([tank("A", "c2", 12, card="light"), tank("D", "c9", 6, seat=2)], dice=[2],
              building=("c3", "d3", "c1", "d1", "b2", "d2"))
    s = play(s, 1, {"activate": "A", "action": "move"}).state
    out = play(s, 1, {"path": [{"turn": 2}]})
    assert of_type(out.events, "fire") == [] and not find(out.state, "D")["activated"]


def test_dice_order_movement_then_opportunity_then_own_shot():
    """The order of rolls: the movement dice, each opportunity shot's d100 as fired, then the
    activation's own shot."""
    s = start([tank("A", "c2", 12, card="light", state="moving"),
               tank("D", "c9", 6, seat=2), tank("E", "o11", 6, seat=2, reaction=HOLD)],
              dice=[4, 3, 11, 99])
    s = play(s, 1, {"activate": "A", "action": "move-fire"}).state
    out = play(s, 1, {"path": [{"move": "c3", "face": 12}], "target": "c9"})
    rolls = [(e["tank"], e["roll"]) for e in of_type(out.events, "fire")]
    assert rolls == [("D", 11), ("A", 99)]
    assert of_type(out.events, "destroyed")[0]["tank"] == "D"


def test_standing_reactions_are_set_any_time_by_either_seat_and_stay_secret():
    """Reactions: from either seat at any time, without passing the turn; only their author
    sees them (the view's reactions hold the viewer's own tanks only)."""
    s = start([tank("A", "c2", 12), tank("D", "c9", 6, seat=2)])
    out = play(s, 2, {"reactions": {"D": {"mode": "side-rear", "max_range": 4}}})
    assert out.events == []
    assert (out.state["to_move"], out.state["phase"]) == (1, "activate")
    assert GAME.view(out.state, 2)["reactions"] == {"D": {"mode": "side-rear",
                                                          "max_range": 4}}
    assert GAME.view(out.state, 1)["reactions"] == {"A": {"mode": "first", "max_range": None}}
    assert GAME.view(out.state, None)["reactions"] == {}
    assert "side-rear" not in repr(GAME.view(out.state, 1))


def test_reactions_only_for_your_own_tanks():
    s = start([tank("A", "c2", 12), tank("D", "c9", 6, seat=2)])
    with pytest.raises(RuleError) as error:
        GAME.validate(s, 1, {"reactions": {"D": {"mode": "hold", "max_range": None}}})
    assert error.value.problems[0].path == "reactions.D"
    with pytest.raises(RuleError):
        GAME.validate(s, 1, {"reactions": {"A": {"mode": "sometimes", "max_range": 0}}})
