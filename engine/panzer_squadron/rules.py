"""Activations, fire, opportunity fire, the turn and the end.

``check`` validates one submission (every problem, with paths); ``apply`` plays a checked one.
Dice come from the ``dice`` option first, then from the phase's seeded ``rng``; every roll is
in the events.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from engine.base import Phrasebook, Problem, RuleError, State, Text
from engine.base import gettext_noop as _
from engine.panzer_squadron import hexes, movement
from engine.panzer_squadron.board import Board, Sight
from engine.panzer_squadron.data import CARDS
from engine.panzer_squadron.options import reaction_problems

# How a match ends (the result's reason, read back for translation: see ``Phrasebook``).
NO_TANKS = _("Seat %(seat)s has no tanks left.")
LIMIT_WON = _("Turn limit %(limit)s: destroyed %(one)s to %(two)s, seat %(seat)s wins.")
LIMIT_DRAWN = _("Turn limit %(limit)s: destroyed %(one)s to %(two)s, a draw.")
CONCEDED = _("Seat %(seat)s conceded.")
PHRASEBOOK = Phrasebook(NO_TANKS, LIMIT_WON, LIMIT_DRAWN, CONCEDED)

ACTIONS = ("move", "move-fire", "fire", "ambush")
STILL = ("stationary", "ambush")  # a tank that starts still may do anything
ENDS = ("moving", "stopped")


# -- reading a state ----------------------------------------------------------------------
def tank(state: State, name: str) -> dict[str, Any] | None:
    for t in state["tanks"]:
        if t["name"] == name:
            found: dict[str, Any] = t
            return found
    return None


def ready(state: State, seat: int) -> list[dict[str, Any]]:
    """The seat's living tanks not yet activated this turn, by name."""
    return [t for t in state["tanks"] if t["seat"] == seat and t["alive"] and not t["activated"]]


def allowed_actions(t: Mapping[str, Any]) -> tuple[str, ...]:
    """A still tank may fire, move, move and fire or ambush; one in movement only moves."""
    return ACTIONS if t["state"] in STILL else ("move", "move-fire")


def dice_count(t: Mapping[str, Any]) -> int:
    return 1 if t["state"] in STILL else 2


def _copy(state: State) -> State:
    new = dict(state)
    new["tanks"] = [dict(t) for t in state["tanks"]]
    new["reactions"] = {k: dict(v) for k, v in state["reactions"].items()}
    new["destroyed"] = dict(state["destroyed"])
    new["dice"] = list(state["dice"])
    new["pending"] = dict(state["pending"]) if state["pending"] else None
    return new


def _roll(state: State, rng: random.Random, sides: int) -> int:
    if state["dice"]:
        return int(state["dice"].pop(0))
    return rng.randint(1, sides)


def target_problems(board: Board, seat: int, at: hexes.Hex, facing: int, target: Any,
                    path: str = "target") -> tuple[dict[str, Any] | None, list[Problem]]:
    """The enemy tank on hex ``target`` if the cannon at (``at``, ``facing``) sees it."""
    where = hexes.parse(target, board.size)
    if where is None:
        return None, [Problem(path, _("%(hex)s is not a hex of the map."),
                              {"hex": repr(target)})]
    name = board.occupied.get(where)
    if name is None:
        return None, [Problem(path, _("No tank on %(hex)s."),
                              {"hex": hexes.name(where)})]
    victim = board.tanks[name]
    if victim["seat"] == seat:
        return None, [Problem(path, _("%(name)s is your own tank."),
                              {"name": name})]
    if not board.sight(at, facing, where).visible:
        return None, [Problem(path, _("%(name)s on %(hex)s is not visible."),
                              {"name": name, "hex": hexes.name(where)})]
    return victim, []


# -- validation -----------------------------------------------------------------------------
def check(state: State, seat: int, sub: Any) -> tuple[dict[str, Any], list[Problem]]:
    if not isinstance(sub, Mapping):
        return {}, [Problem("", _("A submission is an object."))]
    if state["result"] is not None:
        return {}, [Problem("", _("The match is over."))]
    if "reactions" in sub:
        return _check_reactions(state, seat, sub)
    if seat != state["to_move"]:
        return {}, [Problem("seat", _("It is not your turn to activate."))]
    if state["phase"] == "activate":
        return _check_activate(state, seat, sub)
    return _check_path(state, seat, sub)


def _check_reactions(state: State, seat: int, sub: Mapping[str, Any]
                     ) -> tuple[dict[str, Any], list[Problem]]:
    problems = []
    if set(sub) != {"reactions"} or not isinstance(sub["reactions"], Mapping) \
            or not sub["reactions"]:
        return {}, [Problem("reactions", _("Reactions are {TANK: {mode, max_range}}, alone."))]
    normalized = {}
    for name, value in sub["reactions"].items():
        t = tank(state, name)
        if t is None or t["seat"] != seat or not t["alive"]:
            problems.append(Problem(f"reactions.{name}", _("%(name)s is not one of your tanks."),
                                    {"name": name}))
            continue
        reaction, found = reaction_problems(value, f"reactions.{name}")
        problems.extend(found)
        if reaction is not None:
            normalized[name] = reaction
    return {"reactions": dict(sorted(normalized.items()))}, problems


def _check_activate(state: State, seat: int, sub: Mapping[str, Any]
                    ) -> tuple[dict[str, Any], list[Problem]]:
    problems = []
    extra = set(sub) - {"activate", "action", "target"}
    if extra:
        problems.append(Problem("", _("Unknown keys %(extra)s; choose with activate, action and "
                                      "target."),
                                {"extra": str(sorted(extra))}))
    name = sub.get("activate")
    t = tank(state, name) if isinstance(name, str) else None
    if t is None or t["seat"] != seat or not t["alive"]:
        problems.append(Problem("activate", _("%(name)s is not one of your living tanks."),
                                {"name": repr(name)}))
    elif t["activated"]:
        problems.append(Problem("activate", _("%(name)s has already been activated this turn."),
                                {"name": name}))
    action = sub.get("action")
    if action not in ACTIONS:
        problems.append(Problem("action", _("The action is one of %(actions)s."),
                                {"actions": ', '.join(ACTIONS)}))
    elif t is not None and not problems and action not in allowed_actions(t):
        problems.append(Problem("action", _("%(name)s is in movement: it may only move or move "
                                            "and fire."),
                                {"name": name}))
    target = sub.get("target")
    normalized: dict[str, Any] = {"activate": name, "action": action}
    if action == "fire":
        if target is None:
            problems.append(Problem("target", _("Fire needs a target hex.")))
        elif not problems and t is not None:
            board = Board(state)
            _target, found = target_problems(board, seat, board.hex_of(t), t["facing"], target)
            problems.extend(found)
            normalized["target"] = target
    elif target is not None:
        problems.append(Problem("target", _("A target is chosen with fire here; a move and fire "
                                            "names it with the path.")))
    return normalized, problems


def _check_path(state: State, seat: int, sub: Mapping[str, Any]
                ) -> tuple[dict[str, Any], list[Problem]]:
    pending = state["pending"]
    t = tank(state, pending["tank"])
    assert t is not None
    problems = []
    extra = set(sub) - {"path", "target", "end"}
    if extra:
        problems.append(Problem("", _("Unknown keys %(extra)s; give path, target, end."),
                                {"extra": str(sorted(extra))}))
    board = Board(state)
    raw = sub.get("path", [])
    steps: list[movement.Step] = []
    if not isinstance(raw, list) or len(raw) > 40:
        problems.append(Problem("path", _("The path is a list of steps.")))
        raw = []
    for i, r in enumerate(raw):
        step, found = movement.parse_step(r, board.size, f"path.{i}")
        problems.extend(found)
        if step is not None:
            steps.append(step)
    target = sub.get("target")
    end = sub.get("end", "stopped")
    if end not in ENDS:
        problems.append(Problem("end", _("The end is moving or stopped.")))
    firing = target is not None
    if firing and pending["action"] != "move-fire":
        problems.append(Problem("target", _("Only a move and fire names a target.")))
    if firing and pending["points"] < movement.FIRE_COST:
        problems.append(Problem("target", _("Firing costs %(cost)s points; %(points)s were "
                                            "rolled."),
                                {"cost": movement.FIRE_COST, "points": pending['points']}))
    budget = pending["points"] - (movement.FIRE_COST if firing else 0)
    if problems:
        return {}, problems
    start = board.hex_of(t)
    board.remove(start)  # the mover leaves its hex as it goes
    walked, found = movement.walk(board, start, t["facing"], steps, max(budget, 0))
    problems.extend(found)
    if not problems and not (walked.forward or walked.reversed) \
            and movement.must_move(board, start, t["facing"], budget):
        problems.append(Problem("path", _("Having rolled, the tank must enter at least one hex "
                                          "(it can).")))
    if firing and not problems:
        board.occupied[walked.at] = t["name"]
        _target, found = target_problems(board, seat, walked.at, walked.facing, target)
        problems.extend(found)
    normalized = {"path": [s.as_dict() for s in steps], "target": target, "end": end}
    return normalized, problems


# -- playing ----------------------------------------------------------------------------------
def apply(state: State, seat: int, sub: Mapping[str, Any], rng: random.Random
          ) -> tuple[State, list[dict[str, Any]]]:
    """Play a checked submission; returns the new state and the events."""
    state = _copy(state)
    if "reactions" in sub:
        # a standing order, secret like a sealed sheet: no event, no change of turn
        state["reactions"].update({k: dict(v) for k, v in sub["reactions"].items()})
        return state, []
    events: list[dict[str, Any]] = []
    if state["phase"] == "activate":
        _activate(state, seat, sub, rng, events)
    else:
        _path(state, seat, sub, rng, events)
    if state["pending"] is None and state["result"] is None:
        _next(state, seat, events)
    return state, events


def _activate(state: State, seat: int, sub: Mapping[str, Any], rng: random.Random,
              events: list[dict[str, Any]]) -> None:
    t = tank(state, sub["activate"])
    assert t is not None
    action = sub["action"]
    t["activated"] = True
    events.append({"type": "activate", "seat": seat, "tank": t["name"], "action": action,
                   "text": f"{t['name']} activates: {action}."})
    if action == "ambush":
        t["state"] = "ambush"
        return
    if action == "fire":
        board = Board(state)
        t["state"] = "stationary"
        victim = board.tanks[board.occupied[hexes.parse(sub["target"], board.size)]]  # type: ignore[index]
        _fire(state, board, t, victim, rng, events, opportunity=False)
        return
    dice = [_roll(state, rng, 4) for _ in range(dice_count(t))]
    points = max(0, sum(dice) + CARDS[t["card"]]["modifier"])
    state["pending"] = {"tank": t["name"], "action": action, "dice": dice, "points": points}
    state["phase"] = "path"
    events.append({"type": "roll", "seat": seat, "tank": t["name"], "action": action,
                   "dice": dice, "points": points,
                   "text": f"{t['name']} rolls {'+'.join(map(str, dice))}: {points} points."})


def _path(state: State, seat: int, sub: Mapping[str, Any], rng: random.Random,
          events: list[dict[str, Any]]) -> None:
    pending = state["pending"]
    t = tank(state, pending["tank"])
    assert t is not None
    board = Board(state)
    forward = reversed_ = False
    for raw in sub["path"]:
        step, _problems = movement.parse_step(raw, board.size, "")
        assert step is not None
        if step.kind == "turn":
            events.append({"type": "turn", "seat": seat, "tank": t["name"], "from": t["facing"],
                           "facing": step.facing, "at": t["at"],
                           "text": f"{t['name']} turns to {step.facing} o'clock."})
            t["facing"] = step.facing
            continue
        assert step.at is not None
        old = board.hex_of(t)
        t["at"], t["facing"] = hexes.name(step.at), step.facing
        board.place(t["name"], old, step.at)
        forward = forward or step.kind == "move"
        reversed_ = reversed_ or step.kind == "reverse"
        verb = "moves" if step.kind == "move" else "reverses"
        events.append({"type": step.kind, "seat": seat, "tank": t["name"],
                       "from": hexes.name(old), "to": t["at"], "facing": step.facing,
                       "text": f"{t['name']} {verb} {hexes.name(old)} → {t['at']}, "
                               f"facing {step.facing}."})
        _opportunity(state, board, t, rng, events)
        if not t["alive"] or state["result"] is not None:
            break
    state["pending"] = None
    state["phase"] = "activate"
    if not t["alive"] or state["result"] is not None:
        return
    fired = sub.get("target") is not None
    if fired:
        victim = board.tanks[board.occupied[hexes.parse(sub["target"], board.size)]]  # type: ignore[index]
        _fire(state, board, t, victim, rng, events, opportunity=False)
    if forward and not fired and sub.get("end") == "moving":
        t["state"] = "moving"
    else:
        t["state"] = "stationary"


def reacts(board: Board, reaction: Mapping[str, Any], defender: dict[str, Any],
           mover: dict[str, Any]) -> Sight | None:
    """Does ``defender``'s standing reaction fire at ``mover`` where it stands now? Returns
    the sight line if so (the caller checks alive, activation and the once-per-turn)."""
    if reaction["mode"] == "hold":
        return None
    at, where = board.hex_of(defender), board.hex_of(mover)
    if reaction["max_range"] is not None and hexes.distance(at, where) > reaction["max_range"]:
        return None
    sight = board.sight(at, defender["facing"], where)
    if not sight.visible:
        return None
    if reaction["mode"] == "side-rear" and hexes.arc(where, mover["facing"], at) == "front":
        return None
    return sight


def _opportunity(state: State, board: Board, mover: dict[str, Any], rng: random.Random,
                 events: list[dict[str, Any]]) -> None:
    """After the mover enters a hex: each eligible enemy tank, by name, fires once."""
    for d in state["tanks"]:
        if d["seat"] == mover["seat"] or not d["alive"] or d["reacted"]:
            continue
        if d["activated"] and d["state"] != "ambush":
            continue
        if reacts(board, state["reactions"][d["name"]], d, mover) is None:
            continue
        d["reacted"] = True
        d["activated"] = True
        d["state"] = "stationary"
        _fire(state, board, d, mover, rng, events, opportunity=True)
        if not mover["alive"] or state["result"] is not None:
            return


def _fire(state: State, board: Board, firer: dict[str, Any], victim: dict[str, Any],
          rng: random.Random, events: list[dict[str, Any]], *, opportunity: bool) -> None:
    at, where = board.hex_of(firer), board.hex_of(victim)
    shot = board.shot(at, firer["facing"], firer["card"], victim,
                      board.sight(at, firer["facing"], where))
    roll = _roll(state, rng, 100)
    hit = roll > shot.needed
    kind = "opportunity fire" if opportunity else "fires"
    events.append({
        "type": "fire", "seat": firer["seat"], "tank": firer["name"], "from": firer["at"],
        "target": victim["name"], "at": victim["at"], "roll": roll, "needed": shot.needed,
        "arc": shot.arc, "cover": shot.cover, "distance": shot.distance, "hit": hit,
        "opportunity": opportunity,
        "text": f"{firer['name']} {kind} at {victim['name']} on {victim['at']} "
                f"({shot.arc}{', cover' if shot.cover else ''}, range {shot.distance}): "
                f"d100 {roll} against more than {shot.needed} — {'hit' if hit else 'miss'}.",
    })
    if not hit:
        return
    victim["alive"] = False
    board.remove(where)
    state["destroyed"][str(firer["seat"])] += 1
    events.append({"type": "destroyed", "seat": victim["seat"], "tank": victim["name"],
                   "at": victim["at"], "by": firer["name"],
                   "text": f"{victim['name']} is destroyed on {victim['at']}."})
    if not any(t["alive"] for t in state["tanks"] if t["seat"] == victim["seat"]):
        _finish(state, events, winner=firer["seat"],
                reason=str(Text(NO_TANKS, {"seat": victim["seat"]})))


def concede(state: State, seat: Any) -> tuple[State, list[dict[str, Any]]]:
    """``seat`` concedes: the other seat wins at once (a pending activation is dropped)."""
    if seat not in (1, 2) or isinstance(seat, bool):
        raise RuleError("Panzer Squadron seats are 1 and 2.", "seat")
    if state["result"] is not None:
        raise RuleError("The match is over.")
    state = _copy(state)
    events: list[dict[str, Any]] = []
    _finish(state, events, winner=3 - seat, reason=str(Text(CONCEDED, {"seat": seat})))
    return state, events


def _finish(state: State, events: list[dict[str, Any]], *, winner: int | None,
            reason: str) -> None:
    ranking = [[winner], [3 - winner]] if winner else [[1, 2]]
    state["result"] = {"ranking": ranking, "reason": reason}
    state["phase"] = "over"
    state["pending"] = None
    events.append({"type": "end", "ranking": ranking, "reason": reason, "text": reason})


def _next(state: State, last: int, events: list[dict[str, Any]]) -> None:
    """Alternate: the other seat if it has a tank to activate, else the same; else the turn
    ends and the next one starts with the initiative (by parity)."""
    other = 3 - last
    if ready(state, other):
        state["to_move"] = other
        return
    if ready(state, last):
        state["to_move"] = last
        return
    settle_turn(state, events)


def settle_turn(state: State, events: list[dict[str, Any]]) -> None:
    """Start the turn over when nobody has a tank left to activate (also fixes a scenario
    whose initiative seat has nothing to activate)."""
    if ready(state, state["to_move"]):
        return
    if ready(state, 3 - state["to_move"]):
        state["to_move"] = 3 - state["to_move"]
        return
    ended = state["turn"]
    events.append({"type": "turn_end", "turn": ended, "destroyed": dict(state["destroyed"]),
                   "text": f"Turn {ended} ends."})
    limit = state["turn_limit"]
    if limit is not None and ended >= limit:
        one, two = state["destroyed"]["1"], state["destroyed"]["2"]
        winner = 1 if one > two else 2 if two > one else None
        _finish(state, events, winner=winner, reason=str(
            Text(LIMIT_WON, {"limit": limit, "one": one, "two": two, "seat": winner}) if winner
            else Text(LIMIT_DRAWN, {"limit": limit, "one": one, "two": two})))
        return
    state["turn"] = ended + 1
    state["initiative"] = 1 if state["turn"] % 2 else 2
    for t in state["tanks"]:
        t["activated"] = False
        t["reacted"] = False
    state["to_move"] = state["initiative"]
