"""What a seat may do now, the missed-deadline defaults, and the bots.

Paths are endless in number; the legal list offers the cheapest path to each reachable
position (forward or reverse), each with its targets and end states: every one of them is an
action ``apply`` accepts.
"""

from __future__ import annotations

import random
from typing import Any

from engine.base import State
from engine.panzer_squadron import hexes, movement, rules
from engine.panzer_squadron.board import Board


def _enemies(board: Board, seat: int) -> list[dict[str, Any]]:
    return [board.tanks[n] for n in board.occupied.values() if board.tanks[n]["seat"] != seat]


def shots(board: Board, seat: int, at: hexes.Hex, facing: int, card: str
          ) -> list[tuple[int, str]]:
    """(needed, target hex) for every enemy tank visible from the cannon at (at, facing)."""
    found = []
    for enemy in _enemies(board, seat):
        where = board.hex_of(enemy)
        sight = board.sight(at, facing, where)
        if sight.visible:
            found.append((board.shot(at, facing, card, enemy, sight).needed, enemy["at"]))
    return sorted(found)


def activations(state: State, seat: int) -> list[dict[str, Any]]:
    board = Board(state)
    found = []
    for t in rules.ready(state, seat):
        for action in rules.allowed_actions(t):
            if action == "fire":
                for _, target in shots(board, seat, board.hex_of(t), t["facing"], t["card"]):
                    found.append({"activate": t["name"], "action": "fire", "target": target})
            else:
                found.append({"activate": t["name"], "action": action})
    return found


def _positions(state: State, budget: int) -> tuple[Board, dict[str, Any], list[tuple[
        int, tuple[movement.Step, ...], hexes.Hex, int, str]]]:
    """(cost, steps, hex, facing, kind) for the cheapest way to each reachable position."""
    t = rules.tank(state, state["pending"]["tank"])
    assert t is not None
    board = Board(state)
    start = board.hex_of(t)
    board.remove(start)
    found = []
    for kind in ("move", "reverse"):
        for (h, f), (cost, steps) in movement.cheapest(board, start, t["facing"], budget,
                                                       kind).items():
            if kind == "reverse" and not any(s.kind == "reverse" for s in steps):
                continue  # pure turns are listed once, with the forward search
            found.append((cost, steps, h, f, kind))
    return board, t, found


def paths(state: State, seat: int) -> list[dict[str, Any]]:
    pending = state["pending"]
    points = pending["points"]
    board, t, found = _positions(state, points)
    start = board.hex_of(t)
    obliged = movement.must_move(board, start, t["facing"], points)
    obliged_firing = movement.must_move(board, start, t["facing"], points - movement.FIRE_COST)
    result = []
    for cost, steps, h, f, kind in found:
        entered = any(s.kind != "turn" for s in steps)
        path = [s.as_dict() for s in steps]
        if entered or not obliged:
            ends = ("moving", "stopped") if kind == "move" and entered else ("stopped",)
            for end in ends:
                result.append({"path": path, "target": None, "end": end})
        if pending["action"] == "move-fire" and cost <= points - movement.FIRE_COST \
                and (entered or not obliged_firing):
            board.occupied[h] = t["name"]
            for _, target in shots(board, seat, h, f, t["card"]):
                result.append({"path": path, "target": target, "end": "stopped"})
            del board.occupied[h]
    return result


def legal_actions(state: State, seat: int) -> list[dict[str, Any]]:
    if state["result"] is not None or seat != state["to_move"]:
        return []
    return activations(state, seat) if state["phase"] == "activate" else paths(state, seat)


def default_submission(state: State, seat: int) -> dict[str, Any]:
    """A missed activation: the first ready tank ambushes (a tank in movement moves); a missed
    path: the cheapest legal one, stopped, firing at nothing."""
    if state["phase"] == "activate":
        first = rules.ready(state, seat)[0]
        return {"activate": first["name"], "action": "ambush" if first["state"] in rules.STILL
                else "move"}
    t = rules.tank(state, state["pending"]["tank"])
    assert t is not None
    board = Board(state)
    start = board.hex_of(t)
    board.remove(start)
    steps = movement.default_path(board, start, t["facing"], state["pending"]["points"])
    return {"path": [s.as_dict() for s in steps], "target": None, "end": "stopped"}


# -- bots ---------------------------------------------------------------------------------
def random_bot(state: State, seat: int, rng: random.Random) -> dict[str, Any]:
    return rng.choice(legal_actions(state, seat))


def _nearest_enemy(board: Board, seat: int, h: hexes.Hex) -> int:
    return min((hexes.distance(h, board.hex_of(e)) for e in _enemies(board, seat)), default=0)


def greedy_bot(state: State, seat: int, rng: random.Random) -> dict[str, Any]:
    """Take the likeliest shot (roll needed lowest); otherwise close in on the nearest enemy,
    keeping a shot at the end of the move when one is there, and keep moving."""
    if state["phase"] == "activate":
        board = Board(state)
        best: tuple[int, dict[str, Any]] | None = None
        for t in rules.ready(state, seat):
            if t["state"] in rules.STILL:
                aims = shots(board, seat, board.hex_of(t), t["facing"], t["card"])
                if aims and (best is None or aims[0][0] < best[0]):
                    best = (aims[0][0], {"activate": t["name"], "action": "fire",
                                         "target": aims[0][1]})
        if best is not None and best[0] < 75:
            return best[1]
        movers = sorted(rules.ready(state, seat),
                        key=lambda t: (_nearest_enemy(board, seat, board.hex_of(t)), t["name"]))
        t = movers[0]
        return {"activate": t["name"], "action": "move-fire"}
    pending = state["pending"]
    board, t, found = _positions(state, pending["points"])
    start = board.hex_of(t)
    firing_budget = pending["points"] - movement.FIRE_COST
    best_shot: tuple[int, int, dict[str, Any]] | None = None
    if firing_budget >= 0:
        for cost, steps, h, f, _ in found:
            if cost > firing_budget:
                continue
            if not any(s.kind != "turn" for s in steps) and movement.must_move(
                    board, start, t["facing"], firing_budget):
                continue
            board.occupied[h] = t["name"]
            in_sight = shots(board, seat, h, f, t["card"])
            del board.occupied[h]
            if in_sight and (best_shot is None or in_sight[0][0] < best_shot[0]):
                best_shot = (in_sight[0][0], cost, {"path": [s.as_dict() for s in steps],
                                                    "target": in_sight[0][1], "end": "stopped"})
    if best_shot is not None and best_shot[0] < 80:
        return best_shot[2]
    moves = [(c, s, h, f) for c, s, h, f, kind in found
             if kind == "move" and any(x.kind == "move" for x in s)]
    if not moves:
        return default_submission(state, seat)
    cost, steps, h, f = min(moves, key=lambda m: (_nearest_enemy(board, seat, m[2]), -m[0],
                                                  len(m[1])))
    return {"path": [s.as_dict() for s in steps], "target": None, "end": "moving"}
