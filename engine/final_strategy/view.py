"""What a seat (or a spectator) sees: everything but the split of other seats' bunkers."""

from __future__ import annotations

from typing import Any

from engine.final_strategy import board
from engine.final_strategy.position import Position


def view(state: dict[str, Any], seat: int | None) -> dict[str, Any]:
    pos = Position.from_state(state)
    bunkers: dict[str, dict[str, int]] = {}
    for s, counts in state["bunkers"].items():
        bunkers[s] = {"count": sum(counts.values())}
        if seat is not None and s == str(seat):
            bunkers[s].update(counts)
    return {
        "phase": "over" if state["over"] else "turn",
        "turn": state["turn"],
        "to_move": state["to_move"],
        "seats": state["seats"],
        "barriers": list(state["barriers"]),
        "pieces": [dict(p) for p in state["pieces"]],
        "formed": [board.SQUARE_NAMES[sq] for sq in pos.formed()],
        "bunkers": bunkers,
        "prisoners": {k: dict(v) for k, v in state["prisoners"].items()},
        "scores": {str(s): pos.score(s) for s in pos.seat_numbers()},
        "removed": list(state["removed"]),
        "reason": state["reason"],
    }
