"""Every legal input for a seat right now, time aside (for the action panel, bots and tests)."""

from __future__ import annotations

import random
from typing import Any

from engine.base import State
from engine.tank_game import actions, council, squares
from engine.tank_game.state import MAX_AP, occupants, tank
from engine.tank_game.state import council as members


def legal_actions(state: State, seat: int) -> list[dict[str, Any]]:
    if state["over"] is not None or str(seat) not in state["tanks"]:
        return []
    me = tank(state, seat)
    if me["status"] == "alive":
        return _tank_actions(state, me)
    return _council_actions(state, seat)


def _tank_actions(state: State, me: dict[str, Any]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    size = state["size"]
    here = squares.parse(me["at"], size)
    assert here is not None
    occupied = occupants(state)
    if me["ap"] >= 1:
        for near in squares.adjacent(here, size):
            to = squares.name(near)
            if not actions._move_problems(state, me["at"], to, occupied):
                out.append({"type": "move", "to": to})
        for square in squares.within(here, me["range"], size):
            at = squares.name(square)
            if actions.line_of_sight_problem(state, me["at"], at, occupied) is None:
                out.append({"type": "shoot", "at": at})
    if me["gold"] >= 2:
        for other in state["tanks"].values():
            if other["status"] != "alive" or other["seat"] == me["seat"]:
                continue
            there = squares.parse(other["at"], size)
            assert there is not None
            if squares.distance(here, there) <= me["range"]:
                out.extend(
                    {"type": "give", "seat": other["seat"], "gold": gold}
                    for gold in range(1, me["gold"])
                )
    if me["gold"] >= actions.BUY_AP_COST and me["ap"] < MAX_AP:
        out.append({"type": "buy_ap"})
    if me["gold"] >= actions.UPGRADE_RANGE_COST:
        out.append({"type": "upgrade_range"})
    return out


def _options(state: State, decree: str) -> list[dict[str, Any]]:
    targets = [
        t["seat"]
        for t in state["tanks"].values()
        if council.target_problem(state, decree, t["seat"]) is None
    ]
    if decree == "bounty":
        low, high = council.BOUNTY_GOLD
        return [{"target": t, "gold": g} for t in targets for g in range(low, high + 1)]
    return [{"target": t} for t in targets]


def _council_actions(state: State, seat: int) -> list[dict[str, Any]]:
    if seat not in members(state):
        return []
    out: list[dict[str, Any]] = []
    enough = len(members(state)) >= council.GRANT_LIFE_MEMBERS
    for decree in council.DECREES:
        if decree == "grant_life" and not enough:
            continue
        ballot = council.open_ballot(state, decree)
        if ballot is not None:
            out.extend(
                {"type": "vote", "ballot": ballot["id"], **o} for o in _options(state, decree)
            )
        elif decree == "stimulus" or state["allowances"][decree] >= 1:
            out.extend(
                {"type": "open_ballot", "decree": decree, **o} for o in _options(state, decree)
            )
    return out


def random_action(state: State, seat: int, rng: random.Random) -> dict[str, Any]:
    """The "random" bot: one legal action, shooting and moving more often than giving."""
    legal = legal_actions(state, seat)
    if not legal:
        return {}
    kinds = sorted({a["type"] for a in legal})
    kind = rng.choice(kinds)
    return rng.choice([a for a in legal if a["type"] == kind])


def rivals_in_reach(state: State, seat: int) -> set[int]:
    """The seats whose living tank ``seat``'s tank could shoot at now (an action point left,
    in range, in line of sight); empty for a tank that cannot shoot. For the moderators'
    "spares a seat" measure (the portal's signals)."""
    if state["over"] is not None or str(seat) not in state["tanks"]:
        return set()
    me = tank(state, seat)
    if me["status"] != "alive" or me["ap"] < 1:
        return set()
    size = state["size"]
    here = squares.parse(me["at"], size)
    assert here is not None
    occupied = occupants(state)
    found = set()
    for other in state["tanks"].values():
        if other["seat"] == me["seat"] or other["status"] != "alive":
            continue
        there = squares.parse(other["at"], size)
        if there is not None and squares.distance(here, there) <= me["range"] and \
                actions.line_of_sight_problem(state, me["at"], other["at"], occupied) is None:
            found.add(other["seat"])
    return found


def shot_at(state: State, action: Any) -> int | None:
    """The seat whose living tank ``action`` shoots at (None: not a shot at a tank)."""
    if not isinstance(action, dict) or action.get("type") != "shoot":
        return None
    for other in state["tanks"].values():
        if other["status"] == "alive" and other["at"] == action.get("at"):
            seat: int = other["seat"]
            return seat
    return None
