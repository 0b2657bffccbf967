"""Tank actions: move, shoot, give gold, buy AP, upgrade range (rulings, "Actions", "Shooting",
"Death, destruction, loot")."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from engine.base import Problem, State, Text, pgettext
from engine.base import gettext_noop as _
from engine.tank_game import mines, sight, squares, words
from engine.tank_game.state import DEAD_DURABILITY, MAX_AP, add_log, name, occupants, tank

# A tank's status as problems name it ("Your tank is dead; ...").
STATUS = {"alive": pgettext("tank status", "alive"), "dead": pgettext("tank status", "dead"),
          "destroyed": pgettext("tank status", "destroyed")}
TANK_ACTIONS = ("move", "shoot", "give", "buy_ap", "upgrade_range")
BUY_AP_COST, UPGRADE_RANGE_COST = 3, 5
HIT_FACES = (4, 5, 6)  # three hit faces of six: each die hits with probability 1/2

_KEYS = {
    "move": {"type", "to"},
    "shoot": {"type", "at"},
    "give": {"type", "to", "seat", "gold"},
    "buy_ap": {"type"},
    "upgrade_range": {"type"},
}


def _square(state: State, raw: Any, path: str, problems: list[Problem]) -> str | None:
    square = squares.parse(raw, state["size"])
    if square is None:
        last = squares.name((state["size"] - 1, state["size"] - 1))
        problems.append(Problem(path, _("%(square)s is not a square on this board (A1 to "
                                        "%(last)s)."), {"square": repr(raw), "last": last}))
        return None
    return squares.name(square)


def _blocks(state: State, occupied: Mapping[str, int]) -> Any:
    walls = state["walls"]

    def blocks(square: squares.Square) -> bool:
        sq = squares.name(square)
        return sq in walls or sq in occupied

    return blocks


def line_of_sight_problem(
    state: State, origin: str, target: str, occupied: Mapping[str, int] | None = None
) -> Text | None:
    """Why ``origin`` cannot see ``target`` (naming the blocking square or corner), or None."""
    size = state["size"]
    a, b = squares.parse(origin, size), squares.parse(target, size)
    assert a is not None and b is not None
    if occupied is None:
        occupied = occupants(state)
    blocked = sight.blocker(a, b, _blocks(state, occupied))
    if blocked is None:
        return None
    if len(blocked) == 1:
        return Text(_("No line of sight to %(target)s: %(square)s is in the way."),
                    {"target": target, "square": squares.name(blocked[0])})
    first, second = sorted(squares.name(s) for s in blocked)
    return Text(_("No line of sight to %(target)s: the corner between %(first)s and %(second)s "
                  "is blocked."), {"target": target, "first": first, "second": second})


def check(
    state: State, seat: int, action: Mapping[str, Any]
) -> tuple[dict[str, Any], list[Problem]]:
    """The normalized tank action and every problem with it (time not considered)."""
    kind = action["type"]
    problems: list[Problem] = []
    out: dict[str, Any] = {"type": kind}
    unknown = set(action) - _KEYS[kind]
    if unknown:
        problems.append(
            Problem("", _("Unknown keys for %(kind)s: %(keys)s."),
                    {"kind": kind, "keys": ', '.join(sorted(map(str, unknown)))})
        )
    me = tank(state, seat)
    if me["status"] != "alive":
        problems.append(
            Problem("tank", _("Your tank is %(status)s; the Council votes, it does not act."),
                    {"status": STATUS[me["status"]]})
        )
        return out, problems
    occupied = occupants(state)
    if kind in ("move", "shoot") and me["ap"] < 1:
        problems.append(Problem("ap", _("No action points left (the next gameday brings one).")))
    if kind == "move":
        to = _square(state, action.get("to"), "to", problems)
        if to is not None:
            out["to"] = to
            problems.extend(_move_problems(state, me["at"], to, occupied))
    elif kind == "shoot":
        at = _square(state, action.get("at"), "at", problems)
        if at is not None:
            out["at"] = at
            problems.extend(_shoot_problems(state, me, at, occupied))
    elif kind == "give":
        out.update(_give(state, me, action, occupied, problems))
    elif kind == "buy_ap":
        if me["gold"] < BUY_AP_COST:
            problems.append(
                Problem(
                    "gold",
                    _("Buying an action point costs %(cost)s gold; you have %(gold)s."),
                    {"cost": BUY_AP_COST, "gold": me["gold"]},
                )
            )
        if me["ap"] >= MAX_AP:
            problems.append(
                Problem("ap", _("You already have %(count)s action points, the most a tank may "
                                "hold."),
                        {"count": MAX_AP})
            )
    elif kind == "upgrade_range" and me["gold"] < UPGRADE_RANGE_COST:
        problems.append(
            Problem(
                "gold",
                _("Upgrading range costs %(cost)s gold; you have %(gold)s."),
                {"cost": UPGRADE_RANGE_COST, "gold": me["gold"]},
            )
        )
    return out, problems


def walkable(state: State, sq: str, occupied: Mapping[str, int]) -> bool:
    return sq not in state["walls"] and sq not in occupied


def _move_problems(
    state: State, origin: str, to: str, occupied: Mapping[str, int]
) -> list[Problem]:
    size = state["size"]
    a, b = squares.parse(origin, size), squares.parse(to, size)
    assert a is not None and b is not None
    if squares.distance(a, b) != 1:
        return [Problem("to", _("%(to)s is not adjacent to your tank at %(origin)s."),
                        {"to": to, "origin": origin})]
    if to in state["walls"]:
        return [Problem("to", _("%(to)s holds a wall."),
                        {"to": to})]
    if to in occupied:
        return [Problem("to", _("%(to)s is occupied by %(name)s's tank."),
                        {"to": to, "name": name(state, occupied[to])})]
    if a[0] != b[0] and a[1] != b[1]:
        via = sorted([squares.name((b[0], a[1])), squares.name((a[0], b[1]))])
        if not any(walkable(state, sq, occupied) for sq in via):
            return [
                Problem(
                    "to",
                    _("A diagonal move to %(to)s needs %(first)s or %(second)s to be free (it must "
                      "be possible in two steps)."),
                    {"to": to, "first": via[0], "second": via[1]},
                )
            ]
    return []


def _shoot_problems(
    state: State, me: dict[str, Any], at: str, occupied: Mapping[str, int]
) -> list[Problem]:
    size = state["size"]
    a, b = squares.parse(me["at"], size), squares.parse(at, size)
    assert a is not None and b is not None
    if a == b:
        return [Problem("at", _("A tank may not target its own square."))]
    distance = squares.distance(a, b)
    if distance > me["range"]:
        return [Problem("at", _("%(at)s is %(distance)s squares away; your range is %(range)s."),
                        {"at": at, "distance": distance, "range": me["range"]})]
    blocked = line_of_sight_problem(state, me["at"], at, occupied)
    return [Problem("at", blocked)] if blocked else []


def _give(
    state: State,
    me: dict[str, Any],
    action: Mapping[str, Any],
    occupied: Mapping[str, int],
    problems: list[Problem],
) -> dict[str, Any]:
    out: dict[str, Any] = {}
    gold = action.get("gold")
    if isinstance(gold, bool) or not isinstance(gold, int) or gold < 1:
        problems.append(Problem("gold", _("Give a whole number of gold, at least 1.")))
    else:
        out["gold"] = gold
        if gold + 1 > me["gold"]:
            problems.append(
                Problem(
                    "gold",
                    _("Giving %(gold)s gold costs %(count)s (1 goes to the coffer); you have "
                      "%(have)s."),
                    {"gold": gold, "count": gold + 1, "have": me["gold"]},
                )
            )
    if ("to" in action) == ("seat" in action):
        problems.append(
            Problem("to", _("Name the receiving tank by its square ('to') or its seat ('seat')."))
        )
        return out
    target: int | None = None
    if "to" in action:
        to = _square(state, action["to"], "to", problems)
        if to is None:
            return out
        out["to"] = to
        target = occupied.get(to)
        if target is None:
            problems.append(Problem("to", _("There is no tank on %(to)s."),
                                    {"to": to}))
            return out
    else:
        raw = action["seat"]
        if isinstance(raw, bool) or not isinstance(raw, int) or str(raw) not in state["tanks"]:
            problems.append(Problem("seat", _("%(seat)s is not a seat in this match."),
                                    {"seat": repr(raw)}))
            return out
        out["seat"] = target = raw
    other = tank(state, target)
    path = "to" if "to" in out else "seat"
    if target == me["seat"]:
        problems.append(Problem(path, _("You cannot give gold to yourself.")))
    elif other["status"] != "alive":
        problems.append(
            Problem(
                path, _("%(name)s's tank is %(status)s; give to a living tank."),
                {"name": name(state, target), "status": STATUS[other["status"]]}
            )
        )
    else:
        a, b = squares.parse(me["at"], state["size"]), squares.parse(other["at"], state["size"])
        assert a is not None and b is not None
        if squares.distance(a, b) > me["range"]:
            problems.append(
                Problem(
                    path,
                    _("%(name)s is %(distance)s squares away; your range is %(range)s."),
                    {"name": name(state, target), "distance": squares.distance(a, b),
                     "range": me["range"]},
                )
            )
    return out


# -- performing (the action has been checked) ---------------------------------------------------


def perform(
    state: State,
    seat: int,
    action: dict[str, Any],
    at: str,
    rng: random.Random,
    events: list[dict[str, Any]],
) -> None:
    me = tank(state, seat)
    kind = action["type"]
    entry: dict[str, Any] = {"at": at, "kind": "action", "seat": seat, "action": action, "dice": []}
    who = name(state, seat)
    if kind == "move":
        me["ap"] -= 1
        me["at"] = action["to"]
        add_log(state, dict(entry, text=str(Text(words.MOVED, {"who": who,
                                                               "square": action["to"]}))),
                events)
    elif kind == "shoot":
        me["ap"] -= 1
        _shoot(state, me, action["at"], entry, at, rng, events)
    elif kind == "give":
        gold = action["gold"]
        target = action.get("seat") or occupants(state)[action["to"]]
        me["gold"] -= gold + 1
        tank(state, target)["gold"] += gold
        state["coffer"] += 1
        add_log(state, dict(entry, text=str(Text(words.GAVE, {
            "who": who, "gold": gold, "name": name(state, target)}))), events)
    elif kind == "buy_ap":
        me["gold"] -= BUY_AP_COST
        me["ap"] += 1
        add_log(state, dict(entry, text=str(Text(words.BOUGHT_AP, {"who": who}))), events)
    elif kind == "upgrade_range":
        me["gold"] -= UPGRADE_RANGE_COST
        me["range"] += 1
        add_log(state, dict(entry, text=str(Text(words.UPGRADED, {"who": who,
                                                                  "range": me["range"]}))),
                events)


def _shoot(
    state: State,
    me: dict[str, Any],
    target_sq: str,
    entry: dict[str, Any],
    at: str,
    rng: random.Random,
    events: list[dict[str, Any]],
) -> None:
    who = name(state, me["seat"])
    occupied = occupants(state)

    def shot(outcome: Text) -> str:
        return str(Text(words.SHOT, {"who": who, "square": target_sq, "outcome": outcome}))

    if target_sq in state["walls"]:
        durability = state["walls"][target_sq] - 1
        if durability > 0:
            state["walls"][target_sq] = durability
            note = Text(words.HIT_WALL, {"durability": durability})
        else:
            del state["walls"][target_sq]
            grew = mines.grow(state, target_sq)
            note = Text(words.WALL_DOWN_MINE if grew else words.WALL_DOWN)
        add_log(state, dict(entry, text=shot(note)), events)
        return
    if target_sq not in occupied:
        add_log(state, dict(entry, text=shot(words.MISS)), events)
        return
    victim = tank(state, occupied[target_sq])
    if victim["status"] == "dead":
        victim["durability"] -= 1
        if victim["durability"] > 0:
            add_log(state, dict(entry, text=shot(Text(words.HIT_DEAD_TANK, {
                "durability": victim["durability"]}))), events)
            return
        victim["status"], victim["at"] = "destroyed", None
        add_log(state, dict(entry, text=shot(Text(words.TANK_DOWN))), events)
        add_log(
            state,
            {
                "at": at,
                "kind": "destroyed",
                "seat": victim["seat"],
                "action": None,
                "dice": [],
                "text": str(Text(words.DESTROYED, {"name": name(state, victim["seat"]),
                                                   "who": who})),
            },
            events,
        )
        return
    a = squares.parse(me["at"], state["size"])
    b = squares.parse(target_sq, state["size"])
    assert a is not None and b is not None
    count = me["range"] - squares.distance(a, b) + 1
    dice = [rng.randint(1, 6) for _ in range(count)]
    hit = any(d in HIT_FACES for d in dice)
    entry = dict(entry, dice=dice)
    add_log(state, dict(entry, text=shot(words.HIT if hit else words.MISS)), events)
    if hit:
        victim["lives"] -= 1
        if victim["lives"] == 0:
            kill(state, me, victim, at, events)


def loot_split(gold: int) -> tuple[int, int]:
    """(killer's share, coffer's tax) of a victim's gold: tax max(1, round 25 %), killer >= 1."""
    if gold <= 0:
        return 0, 0
    tax = min(gold - 1, max(1, (gold + 2) // 4))
    return gold - tax, tax


def kill(
    state: State,
    killer: dict[str, Any],
    victim: dict[str, Any],
    at: str,
    events: list[dict[str, Any]],
) -> None:
    share, tax = loot_split(victim["gold"])
    bounty = victim["bounty"]
    killer["gold"] += share + bounty
    state["coffer"] += tax
    victim.update(status="dead", durability=DEAD_DURABILITY, ap=0, gold=0, bounty=0, lives=0)
    state["deaths"].append(victim["seat"])
    loot = Text(words.LOOT_BOUNTY if bounty else words.LOOT,
                {"share": share, "tax": tax, "bounty": bounty})
    add_log(
        state,
        {
            "at": at,
            "kind": "kill",
            "seat": victim["seat"],
            "action": None,
            "dice": [],
            "text": str(Text(words.KILLED, {"name": name(state, victim["seat"]),
                                            "who": name(state, killer["seat"]), "loot": loot})),
        },
        events,
    )
