"""Moving a state between formats: version 1 kept the whole logbook in ``state["log"]``;
version 2 keeps only the count of entries (the portal stores the entries themselves).

Used by the portal's data migration, both ways. Pure functions of plain data.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.base import State
from engine.tank_game.state import FINISHED_BALLOTS_KEPT, STATE_VERSION


def is_current(state: State) -> bool:
    return "log" not in state and "entries" in state


def without_log(state: State) -> tuple[State, list[dict[str, Any]]]:
    """A version 1 state as version 2 (no logbook; the entries' count; finished ballots of
    earlier gamedays forgotten, as the tick now does) and the logbook it held."""
    log = list(state["log"])
    new = {key: value for key, value in state.items() if key != "log"}
    new["version"] = STATE_VERSION
    new["entries"] = len(log)
    today = [b for b in state["ballots"] if b["status"] == "open" or
             b["gameday"] == state["gameday"]]
    finished = [b["id"] for b in today if b["status"] != "open"]
    forgotten = set(finished[: max(0, len(finished) - FINISHED_BALLOTS_KEPT)])
    new["ballots"] = [b for b in today if b["id"] not in forgotten]
    return new, log


def with_log(state: State, log: Iterable[dict[str, Any]]) -> State:
    """A version 2 state as version 1, holding ``log`` (its entries, in order). Forgotten
    ballots stay forgotten: version 1 reads a state without them."""
    old = {key: value for key, value in state.items() if key != "entries"}
    old["version"] = 1
    old["log"] = list(log)
    return old
