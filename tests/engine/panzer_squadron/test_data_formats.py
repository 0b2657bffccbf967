"""The public surface exactly as the rules file's "Data formats" fix it (the shared
``data_formats.py`` check, kept in the repository's own tests)."""

from __future__ import annotations

import json

import pytest

from engine.base import OptionsError

from .conftest import GAME, of_type, play, start, tank

VIEW_KEYS = {"phase", "turn", "initiative", "to_move", "size", "terrain", "tanks", "pending",
             "reactions", "destroyed"}
TANK_KEYS = {"seat", "name", "card", "at", "facing", "state", "activated", "alive"}
FIRE_KEYS = {"tank", "target", "at", "roll", "needed", "arc", "cover", "hit", "opportunity"}


def test_view_tanks_pending_reactions_and_events_have_their_keys():
    s = start([tank("M1", "c4", 12), tank("L1", "c9", 6, seat=2, card="light",
                                           reaction={"mode": "hold", "max_range": None})],
              dice=[3, 50])
    view = GAME.view(s, 1)
    assert set(view) >= VIEW_KEYS and all(set(t) >= TANK_KEYS for t in view["tanks"])
    assert (view["phase"], view["to_move"], view["pending"]) == ("activate", 1, None)
    assert set(view["reactions"]) == {"M1"} and GAME.view(s, None)["reactions"] == {}
    out = play(s, 1, {"activate": "M1", "action": "move"})
    roll = of_type(out.events, "roll")[0]
    assert (roll["dice"], roll["points"]) == ([3], 2)
    assert GAME.view(out.state, 1)["pending"] == {"tank": "M1", "action": "move",
                                                  "dice": [3], "points": 2}
    out = play(out.state, 1, {"path": [{"move": "c5", "face": 12}], "target": None,
                              "end": "stopped"})
    out = play(out.state, 2, {"activate": "L1", "action": "fire", "target": "c5"})
    fire = of_type(out.events, "fire")[0]
    assert set(fire) >= FIRE_KEYS and fire["target"] == "M1" and fire["at"] == "c5"
    assert fire["needed"] == 80 - 20 + 2 * (4 - 3) and fire["roll"] == 50
    assert all("type" in e for e in out.events)
    assert json.loads(json.dumps(out.state)) == out.state


def test_scenario_fields_may_be_omitted_and_bad_ones_are_named():
    s = GAME.start(2, {"scenario": {"size": [15, 11], "tanks": [
        {"seat": 1, "name": "M1", "card": "medium", "at": "c4", "facing": 12},
        {"seat": 2, "name": "L1", "card": "light", "at": "k9", "facing": 6}]}}, 1)
    assert s["destroyed"] == {"1": 0, "2": 0} and s["reactions"]["L1"] == {
        "mode": "first", "max_range": None}
    with pytest.raises(OptionsError) as error:
        GAME.validate_options({"map": "moon", "turn_limit": 0, "dice": [0], "scenario": {
            "size": [15, 11], "tanks": [{"seat": 3, "name": "M1", "card": "tiger",
                                         "at": "z99", "facing": 3}]}})
    paths = {p.path for p in error.value.problems}
    assert {"map", "turn_limit", "dice", "scenario.tanks.0.seat", "scenario.tanks.0.card",
            "scenario.tanks.0.at", "scenario.tanks.0.facing"} <= paths
    assert GAME.validate_options({"turn_limit": None})["turn_limit"] is None
