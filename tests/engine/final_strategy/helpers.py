"""Scenarios and shortcuts for the Final Strategy rulings' tests."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from typing import Any

import engine
from engine.final_strategy import board

GAME = engine.get("final-strategy")
NOW = datetime(2026, 1, 1, tzinfo=UTC)


def sides(square: str) -> list[str]:
    """The interior edges around ``square``, by name."""
    return [board.EDGE_NAMES[e] for e in board.SIDES[board.SQUARE_INDEX[square]]]


def start(seats: int = 2, **scenario: Any) -> dict[str, Any]:
    options: dict[str, Any] = {}
    turn_limit = scenario.pop("turn_limit", None)
    if turn_limit is not None:
        options["turn_limit"] = turn_limit
    if scenario:
        options["scenario"] = scenario
    return GAME.start(seats, options, 7)


def play(state: dict[str, Any], *steps: dict[str, Any], seat: int | None = None,
         **extra: Any) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    seat = state["to_move"] if seat is None else seat
    action = GAME.validate(state, seat, {"steps": list(steps)})
    outcome = GAME.apply(state, seat, {**action, **extra}, NOW, random.Random(0))
    return outcome.state, outcome.events


def piece_at(state: dict[str, Any], square: str) -> dict[str, Any] | None:
    return next((p for p in state["pieces"] if p["at"] == square), None)


def types(events: list[dict[str, Any]]) -> list[str]:
    return [e["type"] for e in events]
