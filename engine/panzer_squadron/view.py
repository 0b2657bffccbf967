"""What a seat may see: everything on the board, and only its own standing reactions."""

from __future__ import annotations

from typing import Any

from engine.base import State

TANK_KEYS = ("seat", "name", "card", "at", "facing", "state", "activated", "alive")


def view(state: State, seat: int | None) -> dict[str, Any]:
    own = {t["name"] for t in state["tanks"] if seat is not None and t["seat"] == seat}
    return {
        "phase": state["phase"],
        "turn": state["turn"],
        "initiative": state["initiative"],
        "to_move": None if state["result"] is not None else state["to_move"],
        "size": list(state["size"]),
        "terrain": {k: list(v) for k, v in state["terrain"].items()},
        "tanks": [{k: t[k] for k in TANK_KEYS} for t in state["tanks"]],
        "pending": dict(state["pending"]) if state["pending"] else None,
        "reactions": {n: dict(r) for n, r in sorted(state["reactions"].items()) if n in own},
        "destroyed": dict(state["destroyed"]),
        "turn_limit": state["turn_limit"],
        "result": state["result"],
    }
