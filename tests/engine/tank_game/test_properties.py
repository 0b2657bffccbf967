"""Property tests over random games: no crash, lives/AP/gold never out of bounds, any input
refused cleanly, replay of the log reproduces the state exactly."""

from __future__ import annotations

import contextlib
import json
import random
from datetime import UTC, datetime, timedelta
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from engine.base import RuleError, rng_for
from engine.tank_game.state import FINISHED_BALLOTS_KEPT

GAME = engine.get("tank-game")
SCHEDULE = {"kind": "every", "minutes": 90, "open_minutes": 60}

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-5, 200)
    | st.text(max_size=6)
    | st.sampled_from(["A1", "C3", "Z99", "stimulus", "bounty", "grant_life", "l12"]),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=6,
)
junk_actions = st.one_of(
    json_values,
    st.dictionaries(
        st.sampled_from(["type", "to", "at", "gold", "seat", "target", "ballot", "decree", "x"]),
        json_values,
        max_size=5,
    ).map(lambda d: d),
    st.builds(
        lambda kind, rest: {"type": kind, **rest},
        st.sampled_from(
            ["move", "shoot", "give", "buy_ap", "upgrade_range", "open_ballot", "vote"]
        ),
        st.dictionaries(
            st.sampled_from(["to", "at", "gold", "seat", "target", "ballot", "decree"]),
            json_values,
            max_size=4,
        ),
    ),
)


def check_invariants(state: dict[str, Any]) -> None:
    assert json.loads(json.dumps(state)) == state
    # what the rules need now, nothing of the history: bounded by the seats and the map
    assert "log" not in state
    assert sum(b["status"] == "open" for b in state["ballots"]) <= 3
    assert sum(b["status"] != "open" for b in state["ballots"]) <= FINISHED_BALLOTS_KEPT
    assert len(state["deaths"]) <= state["seats"]
    seen: set[str] = set()
    for tank in state["tanks"].values():
        assert 0 <= tank["lives"] <= 3
        assert 0 <= tank["ap"] <= 5
        assert tank["gold"] >= 0 and tank["bounty"] >= 0 and tank["range"] >= 2
        assert (tank["status"] == "alive") == (tank["lives"] > 0)
        if tank["status"] == "dead":
            assert 1 <= tank["durability"] <= 3 and tank["gold"] == 0 and tank["ap"] == 0
        if tank["status"] == "destroyed":
            assert tank["at"] is None
        else:
            assert tank["at"] not in seen and tank["at"] not in state["walls"]
            seen.add(tank["at"])
    assert state["coffer"] >= 0
    assert all(1 <= d <= 6 for d in state["walls"].values())
    assert not set(state["mines"]) & set(state["walls"])


def play(seats: int, game_map: str, seed: int, steps: int, junk: list[Any] | None = None):
    options = GAME.validate_options({"map": game_map, "schedule": SCHEDULE, "armistice_limit": 400})
    state = GAME.start(seats, options, seed)
    rng = random.Random(seed)
    now = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
    inputs: list[dict[str, Any]] = []
    log: list[dict[str, Any]] = []
    junk = list(junk or [])
    for step in range(steps):
        if GAME.result(state) is not None:
            break
        due = GAME.next_tick_at(state, now)
        if due is not None and due <= now:
            inputs.append(
                {
                    "seq": len(inputs) + 1,
                    "kind": "tick",
                    "seat": None,
                    "action": None,
                    "at": now.isoformat(),
                }
            )
            ticked = GAME.tick(state, now, rng_for(seed, len(inputs)))
            state = ticked.state
            log += ticked.events
            check_invariants(state)
            continue
        seat = rng.randint(1, seats)
        if junk and step % 3 == 0:
            action = junk.pop()
        else:
            action = GAME.bot_submission(state, seat, "random", rng)
        before = json.dumps(state, sort_keys=True) if step % 50 == 0 else None
        try:
            outcome = GAME.apply(state, seat, action, now, rng_for(seed, len(inputs) + 1))
        except RuleError as error:
            assert error.problems
            assert GAME.action_problems(state, seat, action, now)
        else:
            inputs.append(
                {
                    "seq": len(inputs) + 1,
                    "kind": "action",
                    "seat": seat,
                    "action": json.loads(json.dumps(action)),
                    "at": now.isoformat(),
                }
            )
            assert json.loads(json.dumps(outcome.events)) == outcome.events
            assert before is None or json.dumps(state, sort_keys=True) == before  # pure
            state = outcome.state
            log += outcome.events
            check_invariants(state)
        now += timedelta(seconds=rng.choice((20, 90, 400)))
    return options, state, inputs, log


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seats=st.integers(2, 16),
    seed=st.integers(0, 10_000),
    junk=st.lists(junk_actions, max_size=25),
)
def test_random_games_keep_every_bound_and_replay_exactly(
    seats: int, seed: int, junk: list[Any]
) -> None:
    options, state, inputs, log = play(seats, "classic", seed, 600, junk)
    for seat in (None, *range(1, seats + 1)):
        view = GAME.view(state, seat)
        assert json.loads(json.dumps(view)) == view
    assert GAME.replay(seats, options, seed, inputs) == state
    assert [e["seq"] for e in log] == list(range(1, state["entries"] + 1))
    assert len(GAME.log_text(state, 1, log).splitlines()) == len(log)
    GAME.board_text(state, 1)
    result = GAME.result(state)
    if result is not None:
        assert sorted(s for group in result.ranking for s in group) == list(range(1, seats + 1))


@settings(max_examples=40, deadline=None)
@given(action=junk_actions, seat=st.one_of(st.integers(-2, 5), json_values))
def test_any_input_is_accepted_or_refused_with_problems(action: Any, seat: Any) -> None:
    options = GAME.validate_options({"schedule": SCHEDULE})
    state = GAME.start(4, options, 1)
    now = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
    state = GAME.tick(state, now, random.Random(0)).state
    try:
        GAME.apply(state, seat, action, now, random.Random(0))
    except RuleError as error:
        assert all(p.message for p in error.problems)
    with contextlib.suppress(RuleError):
        GAME.validate(state, seat, action)


@settings(max_examples=40, deadline=None)
@given(
    options=json_values
    | st.dictionaries(
        st.sampled_from(
            ["map", "cooldown_minutes", "schedule", "armistice_limit", "bounties", "names"]
        ),
        json_values,
        max_size=4,
    )
)
def test_any_options_are_normalized_or_refused(options: Any) -> None:
    try:
        normalized = GAME.validate_options(options)
    except RuleError as error:
        assert error.problems
    else:
        assert GAME.validate_options(normalized) == normalized


def test_legal_actions_are_all_accepted() -> None:
    """Every action legal_actions lists passes validate (time aside) in a mid-game position."""
    options, state, _, _ = play(8, "classic", 5, 400)
    for seat in range(1, 9):
        for action in GAME.legal_actions(state, seat):
            assert GAME.validate(state, seat, action) == action
