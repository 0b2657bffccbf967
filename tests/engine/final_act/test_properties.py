"""Properties of Final Act over random seeded games with every option on.

Every option: all four advanced rules, every action token, Extra Forces. Games are played by the
random bot (and by sheets built straight from ``legal_actions``); at every round we check that
legal sheets are accepted, resolve does not raise, units only leave play, stacking holds, views
leak nothing of the other side's hidden setup or pending sheet, everything is deterministic and
survives a JSON round trip.
"""

from __future__ import annotations

import json
import random
from collections import Counter, defaultdict
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine

ALL_OPTIONS: dict[str, Any] = {
    "advanced": ["wrecks", "officer_loss", "double_shot", "repair"],
    "tokens": {"mode": "all"},
    "extra_forces": True,
}
DRAFT_OPTIONS: dict[str, Any] = {**ALL_OPTIONS, "tokens": {"mode": "draft-k", "k": 3}}
RANDOM_K_OPTIONS: dict[str, Any] = {**ALL_OPTIONS, "tokens": {"mode": "random-k", "k": 2}}
LIVE = ("ok", "damaged", "repairing")
ROUNDS = 40

PROPERTY_SETTINGS = settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
OPTION_SETS = st.sampled_from([ALL_OPTIONS, DRAFT_OPTIONS, RANDOM_K_OPTIONS])


def _game() -> engine.Game:
    return engine.get("final-act")


def _dump(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def _sheet_from_legal_actions(legal: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """One entry per unit picked straight from legal_actions: a move, and a shell if it may."""
    units: dict[str, Any] = {}
    for name, info in legal["units"].items():
        order: dict[str, Any] = {}
        fires = bool(info["fire"]) and info["shells"] > 0 and rng.random() < 0.7
        if info["kind"] != "at" or not fires:
            move = rng.choice(info["moves"])
            order["move"] = move["move"]
            if move.get("turn"):
                order["turn"] = True
        if fires:
            order["fire"] = [rng.choice(info["fire"])]
        if info["kind"] == "at" and info.get("faces"):
            order["face"] = rng.choice(info["faces"])
        units[name] = order
    shooters = [name for name, order in units.items() if order.get("fire")]
    limit = legal.get("shell_limit")
    if limit is not None and len(shooters) > limit:  # officer loss: one shell fewer
        for name in rng.sample(shooters, len(shooters) - limit):
            del units[name]["fire"]
    return {"units": units}


def _live_units(view: dict[str, Any]) -> set[tuple[int, str]]:
    return {(u["seat"], u["name"]) for u in view["units"] if u["status"] in LIVE}


def _check_stacking(view: dict[str, Any]) -> None:
    by_square: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for unit in view["units"]:
        if unit["status"] in (*LIVE, "wreck"):
            by_square[unit["at"]].append(unit)
    for square, units in by_square.items():
        kinds = Counter(
            "wreck"
            if u["status"] == "wreck"
            else ("at" if u["name"].startswith("AT") else ("r" if u["name"] == "R" else "tank"))
            for u in units
        )
        where = f"{square}: {[(u['seat'], u['name'], u['status']) for u in units]}"
        assert len({u["seat"] for u in units}) == 1, f"two sides share {where}"
        assert kinds["wreck"] + kinds["tank"] <= 1, f"two tanks (or a wreck) share {where}"
        assert not (kinds["wreck"] and len(units) > 1), f"a unit stands on a wreck at {where}"
        assert kinds["at"] <= 2, f"three ATs share {where}"
        assert not (kinds["tank"] and kinds["at"] == 2), f"a tank and two ATs share {where}"
        assert kinds["r"] + kinds["at"] + kinds["tank"] <= 2, f"too many units share {where}"


def _play(
    options: dict[str, Any], seed: int, rounds: int, check: bool
) -> tuple[list[str], list[str]]:
    """Play a random game; return the dumps of every state and every round's events."""
    game = _game()
    rng = random.Random(seed)
    state = game.start(2, game.validate_options(options), seed)
    states, events = [_dump(state)], []
    for _ in range(rounds):
        if game.result(state) is not None:
            break
        phase = game.view(state, None)["phase"]
        sheets = {seat: game.bot_submission(state, seat, "random", rng) for seat in (1, 2)}
        if check:
            _check_round(game, state, phase, sheets, rng)
        before = game.view(state, None)
        outcome = game.resolve(state, sheets, rng)
        state = outcome.state
        if check:
            after = game.view(state, None)
            assert json.loads(json.dumps(outcome.state)) == outcome.state
            assert json.loads(json.dumps(outcome.events)) == outcome.events
            assert all(isinstance(e, dict) and e.get("type") for e in outcome.events)
            if phase == "orders":
                assert _live_units(after) <= _live_units(before), "a unit came back into play"
                for side in ("1", "2"):
                    assert after["breakthroughs"][side] >= before["breakthroughs"][side]
            _check_stacking(after)
        states.append(_dump(state))
        events.append(_dump(outcome.events))
    return states, events


def _check_round(
    game: engine.Game,
    state: dict[str, Any],
    phase: str,
    sheets: dict[int, dict[str, Any]],
    rng: random.Random,
) -> None:
    for seat, sheet in sheets.items():
        assert json.loads(json.dumps(sheet)) == sheet
        assert game.validate(state, seat, sheet) == sheet, "a bot sheet is not in normal form"
        assert game.validate(state, seat, game.validate(state, seat, sheet)) == sheet
    if phase == "orders":
        for seat in (1, 2):
            built = _sheet_from_legal_actions(game.legal_actions(state, seat), rng)
            game.validate(state, seat, built)  # raises RuleError if a legal sheet is refused
    for seat in (1, 2):
        _check_views_ignore_the_other_sheet(game, state, seat, rng)


def _check_views_ignore_the_other_sheet(
    game: engine.Game, state: dict[str, Any], seat: int, rng: random.Random
) -> None:
    """Before the reveal a seat's view is the same whatever the other side has submitted."""
    other = 3 - seat
    frozen = _dump(state)
    views = set()
    for bot in ("random", "greedy", "random"):
        other_sheet = game.bot_submission(state, other, bot, random.Random(rng.random()))
        game.validate(state, other, other_sheet)
        views.add(_dump(game.view(state, seat)))
        views.add(_dump(game.view(state, None)))
    assert len(views) == 2, "a view changed with the other side's sheet"
    assert _dump(state) == frozen, "validating or a bot changed the state"
    view = game.view(state, seat)
    tokens = view["options"].get("tokens")
    if tokens and tokens["mode"] != "all":
        # Drawn or drafted tokens stay secret until used; only their number shows.
        assert str(other) not in view["tokens"], "a seat sees the other side's unused tokens"
        assert str(other) not in game.view(state, None)["tokens"]


@PROPERTY_SETTINGS
@given(options=OPTION_SETS, seed=SEEDS)
def test_random_games_keep_every_invariant(options: dict[str, Any], seed: int) -> None:
    _play(options, seed, ROUNDS, check=True)


@PROPERTY_SETTINGS
@given(options=OPTION_SETS, seed=SEEDS)
def test_the_same_seed_gives_byte_identical_games(options: dict[str, Any], seed: int) -> None:
    assert _play(options, seed, ROUNDS, check=False) == _play(options, seed, ROUNDS, check=False)


@PROPERTY_SETTINGS
@given(options=OPTION_SETS, seed=SEEDS)
def test_the_hidden_setup_stays_hidden_until_both_are_in(
    options: dict[str, Any], seed: int
) -> None:
    game = _game()
    rng = random.Random(seed)
    state = game.start(2, game.validate_options(options), seed)
    assert game.view(state, None)["phase"] == "setup"
    alpha = game.bot_submission(state, 1, "random", rng)
    delta_a = game.bot_submission(state, 2, "random", rng)
    delta_b = game.bot_submission(state, 2, "greedy", rng)
    # Alpha has submitted; Delta is still thinking. Nothing of Alpha's layout reaches Delta.
    for seat in (2, None):
        view = game.view(state, seat)
        assert all(u["seat"] != 1 for u in view["units"]), "Delta sees Alpha's units"
        assert all(t.get("owner") != 1 for t in view["terrain"]), "Delta sees Alpha's terrain"
    spectator = game.view(state, None)
    assert not spectator["units"] and not spectator["terrain"], "a spectator sees a setup"
    # Resolving with either Delta layout reveals the same Alpha layout to Delta.
    revealed = []
    for delta in (delta_a, delta_b):
        after = game.resolve(state, {1: alpha, 2: delta}, random.Random(seed)).state
        view = game.view(after, 2)
        revealed.append(sorted((u["name"], u["at"]) for u in view["units"] if u["seat"] == 1))
    assert revealed[0] == revealed[1]
    assert revealed[0] == sorted((n, p["at"]) for n, p in alpha["units"].items())


@PROPERTY_SETTINGS
@given(options=OPTION_SETS, seed=SEEDS)
def test_states_sheets_and_events_survive_a_json_round_trip(
    options: dict[str, Any], seed: int
) -> None:
    game = _game()
    rng = random.Random(seed)
    state = game.start(2, game.validate_options(options), seed)
    for _ in range(15):
        if game.result(state) is not None:
            break
        sheets = {seat: game.bot_submission(state, seat, "random", rng) for seat in (1, 2)}
        copied = json.loads(json.dumps(sheets))
        assert {int(k): v for k, v in copied.items()} == sheets
        outcome = game.resolve(json.loads(json.dumps(state)), sheets, random.Random(seed))
        again = game.resolve(state, sheets, random.Random(seed))
        assert _dump(outcome.state) == _dump(again.state)
        assert json.loads(json.dumps(outcome.events)) == outcome.events
        state = outcome.state
        assert json.loads(json.dumps(state)) == state
