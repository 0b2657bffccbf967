"""A random playout with 100 seats on the big map: no crash, bounds kept, replay exact, fast."""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime, timedelta

import engine
from engine.base import rng_for

from .test_properties import GAME, check_invariants, play


def test_100_seats_on_the_big_map() -> None:
    options, state, inputs, log = play(100, "big", 3, 4000)
    check_invariants(state)
    assert sum(1 for i in inputs if i["kind"] == "action") > 1000
    assert any(e["kind"] == "kill" for e in log)
    # the state does not grow with the match: 100 seats on the big map stay under 40 KB
    assert len(log) > 1000 and state["entries"] == len(log)
    assert len(json.dumps(state)) < 40_000
    assert GAME.replay(100, options, 3, inputs) == state


def test_apply_and_tick_are_fast_with_100_tanks() -> None:
    """Well under 5 ms per action and 50 ms per tick in pure Python (generous bounds here)."""
    options, state, _, _ = play(100, "big", 4, 1500)
    now = GAME.next_tick_at(state, datetime(2026, 3, 9, tzinfo=UTC)) + timedelta(minutes=1)
    state = GAME.tick(state, now, rng_for(4, 0)).state
    game = engine.get("tank-game")
    timings = []
    for seat in range(1, 101):
        action = game.bot_submission(state, seat, "random", rng_for(4, seat))
        if not action or game.action_problems(state, seat, action, now):
            continue
        started = time.perf_counter()
        game.apply(state, seat, action, now, rng_for(4, seat))
        timings.append(time.perf_counter() - started)
    timings.sort()
    assert len(timings) > 20 and timings[len(timings) // 2] < 0.005
    later = GAME.next_tick_at(state, now) + timedelta(minutes=1)
    started = time.perf_counter()
    GAME.tick(state, later, rng_for(4, 1))
    assert time.perf_counter() - started < 0.05
