"""A small harness for the Tank Game ruling tests: positions are plain state data, inputs go
through the public API (start, tick, apply)."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

import engine
from engine.base import Outcome, RuleError, rng_for

# A Monday, inside the always-open daily gameday used by most tests.
T0 = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
DAILY = {"kind": "every", "minutes": 1440, "open_minutes": 1440}


class Harness:
    def __init__(self) -> None:
        self.game = engine.get("tank-game")
        self.now = T0
        self.seq = 0
        self.log: list[dict[str, Any]] = []  # the logbook: every event returned, in order

    def start(
        self,
        tanks: dict[int, str] | None = None,
        seats: int | None = None,
        walls: dict[str, int] | None = None,
        mines: list[str] | None = None,
        seed: int = 1,
        **options: Any,
    ) -> dict[str, Any]:
        """A started match with its first gameday open; ``tanks`` places seats on squares."""
        options.setdefault("schedule", DAILY)
        seats = seats or (max(tanks) if tanks else 2)
        state = self.game.start(seats, self.game.validate_options(options), seed)
        if walls is not None:
            state["walls"] = dict(walls)
        if mines is not None:
            state["mines"] = sorted(mines)
        if tanks:
            for seat, square in tanks.items():
                state["tanks"][str(seat)]["at"] = square
        self.now = T0
        outcome = self.game.tick(state, self.now, random.Random(0))
        self.log = list(outcome.events)
        return outcome.state

    def tank(self, state: dict[str, Any], seat: int) -> dict[str, Any]:
        result: dict[str, Any] = state["tanks"][str(seat)]
        return result

    def set(self, state: dict[str, Any], seat: int, **fields: Any) -> None:
        state["tanks"][str(seat)].update(fields)

    def kill(self, state: dict[str, Any], seat: int, destroyed: bool = False) -> None:
        """Make a tank dead (or destroyed) as the rules would, for Council set-ups."""
        tank = self.tank(state, seat)
        tank.update(lives=0, ap=0, gold=0, bounty=0, status="dead", durability=3)
        if destroyed:
            tank.update(status="destroyed", at=None, durability=0)
        state["deaths"].append(seat)

    def act(
        self, state: dict[str, Any], seat: int, action: Any, rng: random.Random | None = None
    ) -> Outcome:
        """Apply at the harness clock, then move the clock past any cooldown."""
        self.seq += 1
        outcome = self.game.apply(state, seat, action, self.now, rng or rng_for(7, self.seq))
        self.now += timedelta(minutes=6)
        self.log += outcome.events
        return outcome

    def refused(self, state: dict[str, Any], seat: int, action: Any) -> dict[str, str]:
        """The problems (path -> message) of a refused action."""
        with pytest.raises(RuleError) as caught:
            self.game.apply(state, seat, action, self.now, random.Random(0))
        return {p.path: p.message for p in caught.value.problems}

    def next_day(self, state: dict[str, Any]) -> dict[str, Any]:
        """Tick the next gameday of the daily schedule."""
        self.now = self.game.next_tick_at(state, self.now) + timedelta(minutes=1)
        outcome = self.game.tick(state, self.now, random.Random(0))
        self.log += outcome.events
        return outcome.state


@pytest.fixture
def h() -> Harness:
    return Harness()
