"""Rulings: "Setup (a sealed, simultaneous phase)"."""

from __future__ import annotations

import json
import random

from engine.base import PhaseKind


def good_setup() -> dict:
    return {
        "terrain": {
            "large_berm": ["c3", "d3"],
            "small_berms": ["f2", "h3"],
            "swamp": ["a5", "b5", "a6", "b6"],
            "minefield": {"squares": ["g5", "h5", "i5"], "passage": "h5", "arrow": "N"},
        },
        "units": {
            "C": {"at": "e1", "facing": "N"},
            "1": {"at": "c2"},
            "1A": {"at": "d3"},
            "1B": {"at": "a1"},
            "2": {"at": "g2", "facing": "E"},
            "2A": {"at": "h2"},
            "2B": {"at": "l3"},
        },
    }


def test_setup_phase_prompts_both_seats_then_orders(fa):
    """Each side submits terrain and unit placement at once (a sealed, simultaneous phase)."""
    state = fa.game.start(2, {}, 1)
    prompts = fa.game.prompts(state)
    assert set(prompts) == {1, 2}
    assert all(p.kind == PhaseKind.SIMULTANEOUS and p.phase == "setup" for p in prompts.values())
    outcome = fa.game.resolve(
        state, {1: good_setup(), 2: fa.game.default_submission(state, 2)}, random.Random(0)
    )
    assert fa.game.prompts(outcome.state)[1].phase == "orders"
    assert fa.game.view(outcome.state, None)["round"] == 1
    assert fa.seen(outcome.state, 1, "2")["facing"] == "E"
    assert fa.seen(outcome.state, 1, "1A")["at"] == "d3"  # a unit may start on a berm
    assert [e["type"] for e in outcome.events] == ["setup", "setup"]


def test_setup_is_hidden_until_both_are_in(fa):
    """Neither side sees the other's setup until both are in; a spectator sees nothing."""
    state = fa.game.start(2, {}, 1)
    alpha = fa.game.validate(state, 1, good_setup())
    # Validating a setup does not put it into the state: views are unchanged.
    for viewer in (1, 2, None):
        view = fa.game.view(state, viewer)
        assert view["phase"] == "setup" and view["units"] == [] and view["terrain"] == []
        assert "c3" not in json.dumps(view)
    after = fa.game.resolve(
        state, {1: alpha, 2: fa.game.default_submission(state, 2)}, random.Random(0)
    ).state
    spectator = fa.game.view(after, None)
    assert {u["seat"] for u in spectator["units"]} == {1, 2}
    assert {t["owner"] for t in spectator["terrain"]} == {1, 2}


def test_default_setup_is_legal_and_mirrored(fa):
    """Default setup (missed deadline): a fixed legal layout, mirrored per side."""
    for options in ({}, {"extra_forces": True, "tokens": {"mode": "draft-k", "k": 2}}):
        state = fa.game.start(2, fa.game.validate_options(options), 1)
        alpha, delta = fa.game.default_submission(state, 1), fa.game.default_submission(state, 2)
        assert fa.game.validate(state, 1, alpha) == alpha
        assert fa.game.validate(state, 2, delta) == delta
        for name, spec in alpha["units"].items():
            other = delta["units"][name]
            assert other["at"][0] == spec["at"][0] and int(other["at"][1:]) == 13 - int(
                spec["at"][1:]
            )
            assert (spec["facing"], other["facing"]) == ("N", "S")


def test_every_setup_problem_is_listed_with_its_path(fa):
    """Swamp and minefield wholly inside the own half; berms and units within rows 1-3; no overlap;
    no unit on a swamp or minefield; one unit per square — every problem listed at once."""
    state = fa.game.start(2, {}, 1)
    bad = good_setup()
    bad["terrain"]["large_berm"] = ["c3", "c5"]  # not adjacent and outside rows 1-3
    bad["terrain"]["small_berms"] = ["f2", "d3"]  # d3 is not used by the large berm any more: fine
    bad["terrain"]["swamp"] = ["a6", "b6", "a7", "b7"]  # crosses into the enemy half
    bad["terrain"]["minefield"] = {"squares": ["g5", "h6", "i5"], "passage": "j5", "arrow": "X"}
    bad["units"]["C"] = {"at": "e4"}
    bad["units"]["1"] = {"at": "a5", "facing": "NE"}
    bad["units"]["2A"] = {"at": "g2"}
    del bad["units"]["2B"]
    bad["units"]["Z9"] = {"at": "a1"}
    paths = fa.paths(state, 1, bad)
    for expected in (
        "terrain.large_berm",
        "terrain.swamp",
        "terrain.minefield.squares",
        "terrain.minefield.passage",
        "terrain.minefield.arrow",
        "units.C.at",
        "units.1.facing",
        "units.2B",
        "units.Z9",
        "units.2A.at",
    ):
        assert expected in paths, expected
    messages = dict(fa.problems(state, 1, bad))
    assert messages["units.C.at"] == "Tank C must start within rows 1-3 of your side; e4 is not."
    assert messages["terrain.swamp"] == "The swamp must lie within your own half; a7 does not."


def test_no_unit_starts_on_a_swamp_or_minefield(fa):
    """No unit starts on a swamp or minefield square."""
    state = fa.game.start(2, {}, 1)
    setup = good_setup()
    setup["terrain"]["swamp"] = ["a2", "b2", "a3", "b3"]
    setup["units"]["1B"] = {"at": "b2"}
    assert fa.problems(state, 1, setup) == [
        ("units.1B.at", "Tank 1B cannot start on b2: it is a swamp or minefield square.")
    ]


def test_terrain_pieces_may_not_overlap(fa):
    """No two terrain pieces overlap."""
    state = fa.game.start(2, {}, 1)
    setup = good_setup()
    setup["terrain"]["small_berms"] = ["c3", "h3"]
    assert fa.paths(state, 1, setup) == ["terrain.small_berms"]


def test_delta_sets_up_on_ranks_7_to_12(fa):
    """Delta owns ranks 7-12; its rows 1-3 are ranks 12-10."""
    state = fa.game.start(2, {}, 1)
    assert fa.paths(state, 2, good_setup())  # Alpha's layout is not legal for Delta
    legal = fa.legal(state, 2)
    assert set(legal["unit_squares"]) == {f"{f}{r}" for f in "abcdefghijkl" for r in (10, 11, 12)}
    assert len(legal["half_squares"]) == 72 and legal["units"] == [
        "C",
        "1",
        "1A",
        "1B",
        "2",
        "2A",
        "2B",
    ]


def test_extra_forces_setup_stacking(fa):
    """Extra Forces units set up within rows 1-3 like tanks; stacking rules apply from the start."""
    state = fa.game.start(2, fa.game.validate_options({"extra_forces": True}), 1)
    setup = good_setup()
    setup["units"].update({"AT1": {"at": "e1"}, "AT2": {"at": "e1"}, "R": {"at": "k1"}})
    assert fa.paths(state, 1, setup) == ["units.AT2.at"]  # tank + two ATs
    setup["units"]["AT2"] = {"at": "k1"}  # R + AT is fine
    assert fa.game.validate(state, 1, setup)["units"]["AT2"] == {"at": "k1", "facing": "N"}
