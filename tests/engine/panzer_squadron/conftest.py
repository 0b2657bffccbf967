"""Positions for the Panzer Squadron ruling tests, built through the public API (scenario
option, validate, apply)."""

from __future__ import annotations

import random
from typing import Any

import engine

GAME = engine.get("panzer-squadron")


def tank(name: str, at: str, facing: int, seat: int = 1, card: str = "medium",
         **extra: Any) -> dict[str, Any]:
    return {"seat": seat, "name": name, "card": card, "at": at, "facing": facing, **extra}


def start(tanks: list[dict[str, Any]], dice: list[int] | None = None,
          woods: tuple[str, ...] = (), building: tuple[str, ...] = (),
          water: tuple[str, ...] = (), turn: int = 1, initiative: int = 1,
          turn_limit: int | None = 12, **scenario: Any) -> dict[str, Any]:
    pos = {"size": [15, 11], "turn": turn, "initiative": initiative,
           "terrain": {"woods": list(woods), "building": list(building), "water": list(water)},
           "tanks": tanks, **scenario}
    options: dict[str, Any] = {"scenario": pos, "turn_limit": turn_limit}
    if dice:
        options["dice"] = dice
    return GAME.start(2, GAME.validate_options(options), 0)


def play(state: dict[str, Any], seat: int, sub: dict[str, Any], seed: int = 0):
    return GAME.apply(state, seat, GAME.validate(state, seat, sub), None, random.Random(seed))


def find(state: dict[str, Any], name: str) -> dict[str, Any]:
    return next(t for t in state["tanks"] if t["name"] == name)


def of_type(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == kind]
