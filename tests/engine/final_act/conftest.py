"""A small harness for the ruling tests: scenario positions through the public API only."""

from __future__ import annotations

import random
from typing import Any

import pytest

import engine
from engine.base import Outcome, RuleError


class Harness:
    def __init__(self) -> None:
        self.game = engine.get("final-act")

    @staticmethod
    def unit(
        seat: int, name: str, at: str | None, facing: str | None = None, hits: int = 0
    ) -> dict[str, Any]:
        return {
            "seat": seat,
            "name": name,
            "at": at,
            "facing": facing or ("N" if seat == 1 else "S"),
            "hits": hits,
        }

    def start(
        self,
        units: list[dict[str, Any]],
        terrain: list[dict[str, Any]] | None = None,
        round: int = 1,
        tokens: dict[str, list[str]] | None = None,
        breakthroughs: dict[str, int] | None = None,
        seed: int = 7,
        **options: Any,
    ) -> dict[str, Any]:
        scenario: dict[str, Any] = {"round": round, "units": units, "terrain": terrain or []}
        if tokens is not None:
            scenario["tokens"] = tokens
        if breakthroughs is not None:
            scenario["breakthroughs"] = breakthroughs
        opts = self.game.validate_options({**options, "scenario": scenario})
        return self.game.start(2, opts, seed)

    def validate(self, state: dict[str, Any], seat: int, sheet: Any) -> dict[str, Any]:
        return self.game.validate(state, seat, sheet)

    def problems(self, state: dict[str, Any], seat: int, sheet: Any) -> list[tuple[str, str]]:
        """The (path, message) pairs of the RuleError ``sheet`` must raise."""
        with pytest.raises(RuleError) as info:
            self.game.validate(state, seat, sheet)
        return [(p.path, p.message) for p in info.value.problems]

    def paths(self, state: dict[str, Any], seat: int, sheet: Any) -> list[str]:
        return [path for path, _ in self.problems(state, seat, sheet)]

    def resolve(
        self,
        state: dict[str, Any],
        alpha: dict[str, Any] | None = None,
        delta: dict[str, Any] | None = None,
    ) -> Outcome:
        subs = {
            1: self.game.validate(state, 1, alpha or {}),
            2: self.game.validate(state, 2, delta or {}),
        }
        return self.game.resolve(state, subs, random.Random(0))

    def play(
        self,
        state: dict[str, Any],
        alpha: dict[str, Any] | None = None,
        delta: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        return self.resolve(state, alpha, delta).state

    def seen(
        self, state: dict[str, Any], seat: int, name: str, viewer: int | None = None
    ) -> dict[str, Any]:
        """A unit as ``viewer`` sees it."""
        for unit in self.game.view(state, viewer)["units"]:
            if unit["seat"] == seat and unit["name"] == name:
                return dict(unit)
        raise AssertionError(f"no unit {seat}:{name} in the view")

    def at(self, state: dict[str, Any], seat: int, name: str) -> str | None:
        return self.seen(state, seat, name)["at"]

    def legal(self, state: dict[str, Any], seat: int) -> dict[str, Any]:
        return self.game.legal_actions(state, seat)

    def fire_squares(self, state: dict[str, Any], seat: int, name: str) -> set[str]:
        return set(self.legal(state, seat)["units"][name]["fire"])

    def texts(self, outcome: Outcome) -> list[str]:
        return [e["text"] for e in outcome.events]


def berm(owner: int, *squares: str) -> dict[str, Any]:
    return {"kind": "berm", "owner": owner, "squares": list(squares)}


@pytest.fixture
def fa() -> Harness:
    return Harness()


@pytest.fixture
def terrain() -> Any:
    """Terrain piece builders: terrain.berm(owner, *squares), .swamp(...), .minefield(...)."""

    class Build:
        berm = staticmethod(berm)

        @staticmethod
        def swamp(owner: int, *squares: str) -> dict[str, Any]:
            return {"kind": "swamp", "owner": owner, "squares": list(squares)}

        @staticmethod
        def minefield(owner: int, squares: list[str], passage: str, arrow: str) -> dict[str, Any]:
            return {
                "kind": "minefield",
                "owner": owner,
                "squares": squares,
                "passage": passage,
                "arrow": arrow,
            }

    return Build
