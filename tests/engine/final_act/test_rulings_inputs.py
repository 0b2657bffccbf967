"""Rulings: "What the engine needs to expose" and "Data formats" — reasons for every rejected
order, malformed input, options, determinism, JSON data."""

from __future__ import annotations

import json
import random

import pytest

import engine
from engine.base import OptionsError, RuleError

ALL_TOKENS = [
    "air_strike",
    "full_throttle",
    "quick_shot",
    "mine_clearing",
    "smoke",
    "quick_sand",
    "red_cross",
]

EVERYTHING = {
    "advanced": ["wrecks", "officer_loss", "double_shot", "repair"],
    "tokens": {"mode": "all"},
    "extra_forces": True,
    "round_limit": 30,
}


def started(fa, options=EVERYTHING, seed=3):
    state = fa.game.start(2, fa.game.validate_options(options), seed)
    subs = {s: fa.game.default_submission(state, s) for s in (1, 2)}
    return fa.game.resolve(state, subs, random.Random(seed)).state


@pytest.mark.parametrize(
    "sheet",
    [
        None,
        [],
        "C F",
        42,
        {"units": []},
        {"units": {"C": "F"}},
        {"units": {"Z9": {"move": "F"}}},
        {"units": {"C": {"move": "sideways"}}},
        {"units": {"C": {"turn": "yes"}}},
        {"units": {"C": {"fire": "e7"}}},
        {"units": {"C": {"fire": ["z99"]}}},
        {"units": {"C": {"fire": ["e7"] * 10_000}}},
        {"units": {"C": {"fire": [[["deep"]]]}}},
        {"units": {"C": {"move": {"nested": ["junk"]}}}},
        {"units": {7: {"move": "F"}}},
        {"tokens": {"nuke": {}}},
        {"tokens": {"smoke": "d4"}},
        {"tokens": {"smoke": {"at": None}}},
        {"tokens": {"air_strike": {"at": "c1", "fire": "c9", "paid_by": "1B"}}},
        {"declare": {"repair": ["1A"]}},
        {"declare": []},
        {"orders": {}},
    ],
)
def test_malformed_orders_are_a_rule_error(fa, sheet):
    """Malformed input of any shape is a RuleError, never another exception."""
    state = started(fa)
    with pytest.raises(RuleError) as info:
        fa.game.validate(state, 1, sheet)
    assert info.value.problems
    assert all(p.message.endswith(".") for p in info.value.problems)


def test_every_problem_is_listed_with_its_path(fa):
    """Every rejected submission raises ONE RuleError listing every problem with its path."""
    state = started(fa)
    sheet = {
        "units": {"C": {"move": "B", "fire": ["a12"]}, "1A": {"move": "X"}, "AT1": {"face": "Q"}},
        "tokens": {"smoke": {"at": "a12"}},
        "declare": {"double_shot": "C"},
    }
    paths = fa.paths(state, 1, sheet)
    assert set(paths) == {
        "units.1A.move",
        "units.AT1.face",
        "units.C.fire.0",
        "tokens.smoke.at",
        "declare.double_shot",
    }
    paths = fa.paths(
        state,
        1,
        {
            "units": {"C": {"fire": ["a12"]}, "1": {"fire": ["a12"]}},
            "tokens": {"smoke": {"at": "a12"}},
        },
    )
    assert set(paths) == {"units.C.fire.0", "units.1.fire.0", "tokens.smoke.at"}


def test_validate_normal_form_is_stable(fa):
    """validate returns the normal form; validate(validate(x)) == validate(x)."""
    state = started(fa)
    sheet = {
        "units": {
            "C": {"move": "fl", "turn": True, "fire": ["H4"]},
            "AT1": {"move": "NE", "face": "E"},
        }
    }
    once = fa.game.validate(state, 1, sheet)
    assert once["units"]["C"] == {"move": "FL", "turn": True, "fire": ["h4"]}
    assert fa.game.validate(state, 1, once) == once
    assert list(once["units"]) == ["C", "1", "1A", "1B", "2", "2A", "2B", "AT1", "AT2", "R"]
    assert once["units"]["R"] == {"move": "stay"}
    assert fa.game.default_submission(state, 2) == fa.game.validate(state, 2, {})


def test_options_errors_list_every_problem(fa):
    """validate_options lists unknown keys, unknown advanced rule, bad token mode, k out of
    1..7, round_limit out of range and a bad scenario."""
    with pytest.raises(OptionsError) as info:
        fa.game.validate_options(
            {
                "colour": "red",
                "advanced": ["wrecks", "nukes"],
                "tokens": {"mode": "some", "k": 9},
                "round_limit": 0,
                "scenario": {"units": [{"seat": 3, "name": "C", "at": "e4"}]},
            }
        )
    paths = {p.path for p in info.value.problems}
    assert paths == {
        "colour",
        "advanced.1",
        "tokens.mode",
        "tokens.k",
        "round_limit",
        "scenario.units.0.seat",
    }
    assert fa.game.validate_options(EVERYTHING) == fa.game.validate_options(
        fa.game.validate_options(EVERYTHING)
    )
    with pytest.raises(OptionsError):
        fa.game.validate_options({"tokens": {"mode": "random-k", "k": 0}})
    with pytest.raises(OptionsError):
        fa.game.validate_options("wrecks")


def test_same_inputs_give_byte_identical_outcomes(fa):
    """Deterministic: same state, submissions and rng seed give byte-identical results, and
    state, submissions and events survive a JSON round trip unchanged."""
    runs = []
    for _ in range(2):
        state = fa.game.start(2, fa.game.validate_options(EVERYTHING), 9)
        log = []
        rng = random.Random(9)
        for _round in range(12):
            subs = {}
            for seat in (1, 2):
                legal = fa.game.legal_actions(state, seat)
                if legal["phase"] == "setup":
                    subs[seat] = fa.game.default_submission(state, seat)
                    continue
                units = {}
                for name, entry in legal["units"].items():
                    move = rng.choice(entry["moves"])
                    order = {"move": move["move"]}
                    if "turn" in move:
                        order["turn"] = move["turn"]
                    if entry["kind"] == "tank" and entry["fire"] and rng.random() < 0.5:
                        order["fire"] = [rng.choice(entry["fire"])]
                    units[name] = order
                subs[seat] = fa.game.validate(state, seat, {"units": units})
                assert json.loads(json.dumps(subs[seat])) == subs[seat]
            before = json.dumps(state, sort_keys=True)
            outcome = fa.game.resolve(state, subs, rng)
            assert json.dumps(state, sort_keys=True) == before  # the input state is untouched
            assert json.loads(json.dumps(outcome.state)) == outcome.state
            assert json.loads(json.dumps(outcome.events)) == outcome.events
            log.append(json.dumps([outcome.state, outcome.events], sort_keys=True))
            state = outcome.state
        runs.append(log)
    assert runs[0] == runs[1]


def test_resolve_validates_its_inputs(fa):
    """resolve must call validate on its inputs (so the portal can trust it)."""
    state = started(fa)
    with pytest.raises(RuleError) as info:
        fa.game.resolve(state, {1: {"units": {"C": {"move": "jump"}}}, 2: {}}, random.Random(0))
    assert [p.path for p in info.value.problems] == ["1.units.C.move"]


def test_events_are_readable_sentences_in_order(fa):
    """The round report: every move, bounce, shell, hit and breakthrough, in an order a person can
    follow (movement before fire, fire before the end of the round)."""
    units = [fa.unit(1, "C", "f4", "N"), fa.unit(1, "2B", "c11", "N"), fa.unit(2, "2A", "f9", "S")]
    outcome = fa.resolve(
        fa.start(units),
        {"units": {"C": {"fire": ["f8"]}, "2B": {"move": "F"}}},
        {"units": {"2A": {"move": "F"}}},
    )
    types = [e["type"] for e in outcome.events]
    assert types == ["move", "move", "shell", "hit", "breakthrough", "result"]
    assert all(isinstance(e["text"], str) and e["text"] for e in outcome.events)
    assert fa.game.view(outcome.state, None)["last_round"] == outcome.events


def test_registered_and_seat_names(fa):
    """Slug final-act, seats 1 (Alpha) and 2 (Delta)."""
    game = engine.get("final-act")
    assert (
        game.slug == "final-act" and game.seat_name(1) == "Alpha" and game.seat_name(2) == "Delta"
    )
    with pytest.raises(RuleError):
        game.validate(started(fa), 3, {})


def _entry_order(kind: str, move: dict, fire: list[str]) -> dict:
    order = {"move": move["move"], "fire": fire} if kind != "r" else {"move": move["move"]}
    if kind == "tank":
        order["turn"] = move["turn"]
    return order


def test_every_legal_entry_is_accepted(fa, terrain):
    """Legal orders for every unit (for the UI and bots): each listed move, fire square, token
    choice and declaration validates on its own."""
    units = [
        fa.unit(1, "C", "e4", "N"),
        fa.unit(1, "1A", "d3", "N", hits=1),
        fa.unit(1, "1", None, hits=2),
        fa.unit(1, "AT1", "f4", "E"),
        fa.unit(1, "R", "g3", "N"),
        fa.unit(2, "C", "e9", "S"),
        fa.unit(2, "AT2", "h8", "W"),
        fa.unit(2, "R", "c10", "S"),
    ]
    ground = [
        terrain.berm(1, "d4"),
        terrain.swamp(2, "f7", "g7", "f8", "g8"),
        terrain.minefield(1, ["a5", "b5", "c5"], "b5", "N"),
    ]
    state = fa.start(
        units,
        ground,
        extra_forces=True,
        advanced=["wrecks", "officer_loss", "double_shot", "repair"],
        tokens={"1": list(ALL_TOKENS), "2": []},
    )
    legal = fa.legal(state, 1)
    checked = 0
    for name, entry in legal["units"].items():
        for move in entry["moves"]:
            fa.validate(state, 1, {"units": {name: _entry_order(entry["kind"], move, [])}})
            checked += 1
        for face in entry.get("faces", []):
            fa.validate(state, 1, {"units": {name: {"face": face}}})
        for target in entry["fire"]:
            fa.validate(state, 1, {"units": {name: {"fire": [target]}}})
            checked += 1
    tokens = legal["tokens"]
    for token in ("smoke", "quick_sand", "mine_clearing", "red_cross"):
        for at in tokens[token]["at"]:
            fa.validate(state, 1, {"tokens": {token: {"at": at}}})
            checked += 1
    for name, moves in tokens["full_throttle"]["moves"].items():
        for move in moves:
            fa.validate(
                state,
                1,
                {
                    "units": {name: {"move": move["move"]}},
                    "tokens": {"full_throttle": {"unit": name}},
                },
            )
    for at in tokens["air_strike"]["at"]:
        for target in tokens["air_strike"]["fire"][at]:
            fa.validate(
                state, 1, {"tokens": {"air_strike": {"at": at, "fire": [target]}}}
            )  # out tank pays
    for name in tokens["quick_shot"]["units"]:
        target = legal["units"][name]["fire"][0]
        fa.validate(state, 1, {"tokens": {"quick_shot": {"unit": name, "fire": [target, target]}}})
    assert legal["declare"] == {"repair": ["1A"], "double_shot": ["C", "1A"]}
    fa.validate(state, 1, {"declare": {"repair": "1A"}})
    fa.validate(
        state,
        1,
        {
            "units": {"C": {"fire": legal["units"]["C"]["fire"][:2]}},
            "declare": {"double_shot": "C"},
        },
    )
    assert checked > 100
    assert legal["units"]["R"]["shells"] == 0 and legal["units"]["AT1"]["faces"] == [
        "N",
        "E",
        "S",
        "W",
    ]
