"""Match options and the starting position (a map's deployment or a ``scenario``)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from engine.base import Option, OptionKind, OptionsError, Problem, State
from engine.base import gettext_noop as _
from engine.panzer_squadron import hexes
from engine.panzer_squadron.data import CARDS, DEFAULT_MAP, MAPS

DEFAULT_TURN_LIMIT = 12
MODES = ("hold", "first", "side-rear")
STATES = ("stationary", "moving", "ambush")
TERRAIN = ("woods", "building", "water")
_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9]{0,7}$")


def default_options() -> dict[str, Any]:
    return {"map": DEFAULT_MAP, "turn_limit": DEFAULT_TURN_LIMIT}


def default_reaction() -> dict[str, Any]:
    return {"mode": "first", "max_range": None}


def reaction_problems(value: Any, path: str) -> tuple[dict[str, Any] | None, list[Problem]]:
    """A standing reaction ``{"mode", "max_range"}`` normalized, or the problems with it."""
    if not isinstance(value, Mapping):
        return None, [Problem(path, _("A reaction is an object with mode and max_range."))]
    problems = []
    extra = set(value) - {"mode", "max_range"}
    if extra:
        problems.append(Problem(path, _("Unknown keys %(extra)s."),
                                {"extra": str(sorted(extra))}))
    mode = value.get("mode")
    if mode not in MODES:
        problems.append(Problem(f"{path}.mode", _("The mode is one of %(modes)s."),
                                {"modes": ', '.join(MODES)}))
    max_range = value.get("max_range")
    if max_range is not None and (type(max_range) is not int or not 1 <= max_range <= 99):
        problems.append(Problem(f"{path}.max_range", _("The maximum range is 1..99 or null.")))
    return ({"mode": mode, "max_range": max_range} if not problems else None), problems


def _scenario(pos: Any, problems: list[Problem]) -> dict[str, Any] | None:
    if not isinstance(pos, Mapping):
        problems.append(Problem("scenario", _("The scenario is an object.")))
        return None
    before = len(problems)
    size = pos.get("size")
    if not (isinstance(size, list) and len(size) == 2 and all(type(n) is int for n in size)
            and 2 <= size[0] <= 26 and 2 <= size[1] <= 99):
        problems.append(Problem("scenario.size", _("The size is [columns 2..26, rows 2..99].")))
        return None
    turn = pos.get("turn", 1)
    if type(turn) is not int or turn < 1:
        problems.append(Problem("scenario.turn", _("The turn is a whole number from 1.")))
    initiative = pos.get("initiative", 1 if turn % 2 else 2) if type(turn) is int else 1
    if initiative not in (1, 2):
        problems.append(Problem("scenario.initiative", _("The initiative is seat 1 or 2.")))
    terrain_in = pos.get("terrain", {})
    terrain: dict[str, list[str]] = {k: [] for k in TERRAIN}
    taken: dict[str, str] = {}
    if not isinstance(terrain_in, Mapping) or set(terrain_in) - set(TERRAIN):
        problems.append(Problem("scenario.terrain", _("Terrain lists woods, building, water.")))
    else:
        for kind in TERRAIN:
            names = terrain_in.get(kind, [])
            if not isinstance(names, list):
                problems.append(Problem(f"scenario.terrain.{kind}", _("A list of hexes.")))
                continue
            for i, at in enumerate(names):
                h = hexes.parse(at, tuple(size))
                if h is None or hexes.name(h) in taken:
                    problems.append(Problem(f"scenario.terrain.{kind}.{i}",
                                            _("%(hex)s is not a free hex of the map."),
                                            {"hex": repr(at)}))
                    continue
                taken[hexes.name(h)] = kind
                terrain[kind].append(hexes.name(h))
    tanks = []
    names_seen: set[str] = set()
    tanks_in = pos.get("tanks")
    if not isinstance(tanks_in, list) or not tanks_in:
        problems.append(Problem("scenario.tanks", _("The scenario lists its tanks.")))
        tanks_in = []
    for i, t in enumerate(tanks_in):
        path = f"scenario.tanks.{i}"
        if not isinstance(t, Mapping):
            problems.append(Problem(path, _("A tank is an object.")))
            continue
        name = t.get("name")
        if not isinstance(name, str) or not _NAME.match(name) or name in names_seen:
            problems.append(Problem(f"{path}.name", _("A unique name of 1-8 letters and digits.")))
        names_seen.add(str(name))
        if t.get("seat") not in (1, 2):
            problems.append(Problem(f"{path}.seat", _("The seat is 1 or 2.")))
        if t.get("card") not in CARDS:
            problems.append(Problem(f"{path}.card", _("The card is one of %(cards)s."),
                                    {"cards": str(sorted(CARDS))}))
        h = hexes.parse(t.get("at"), tuple(size))
        if h is None or taken.get(hexes.name(h)) in ("building", "water", "tank"):
            problems.append(Problem(f"{path}.at", _("%(hex)s is not a free hex."),
                                    {"hex": repr(t.get("at"))}))
        else:
            taken[hexes.name(h)] = "tank"
        if t.get("facing") not in hexes.FACINGS:
            problems.append(Problem(f"{path}.facing", _("The facing is 12, 2, 4, 6, 8 or 10.")))
        if t.get("state", "stationary") not in STATES:
            problems.append(Problem(f"{path}.state", _("The state is one of %(states)s."),
                                    {"states": ', '.join(STATES)}))
        if type(t.get("activated", False)) is not bool:
            problems.append(Problem(f"{path}.activated", _("true or false.")))
        reaction, found = reaction_problems(t.get("reaction", default_reaction()),
                                            f"{path}.reaction")
        problems.extend(found)
        if len(problems) == before:
            tanks.append({"seat": t["seat"], "name": name, "card": t["card"],
                          "at": hexes.name(h), "facing": t["facing"],  # type: ignore[arg-type]
                          "state": t.get("state", "stationary"),
                          "activated": t.get("activated", False), "reaction": reaction})
    destroyed = pos.get("destroyed", {"1": 0, "2": 0})
    if not (isinstance(destroyed, Mapping) and set(destroyed) <= {"1", "2"}
            and all(type(v) is int and v >= 0 for v in destroyed.values())):
        problems.append(Problem("scenario.destroyed", _('Counts per seat: {"1": 0, "2": 0}.')))
        destroyed = {}
    if len(problems) != before:
        return None
    return {"size": list(size), "turn": turn, "initiative": initiative, "terrain": terrain,
            "tanks": tanks,
            "destroyed": {"1": destroyed.get("1", 0), "2": destroyed.get("2", 0)}}


def validate_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """Return normalized options or raise OptionsError listing every problem."""
    if not isinstance(options, Mapping):
        raise OptionsError(_("The options are an object."))
    problems: list[Problem] = []
    extra = set(options) - {"map", "turn_limit", "dice", "scenario"}
    if extra:
        problems.append(Problem("", _("Unknown options %(extra)s."),
                                {"extra": str(sorted(extra))}))
    map_name = options.get("map", DEFAULT_MAP)
    if map_name not in MAPS:
        problems.append(Problem("map", _("The map is one of %(maps)s."),
                                {"maps": str(sorted(MAPS))}))
    turn_limit = options.get("turn_limit", DEFAULT_TURN_LIMIT)
    if turn_limit is not None and (type(turn_limit) is not int or not 1 <= turn_limit <= 99):
        problems.append(Problem("turn_limit", _("The turn limit is 1..99 or null.")))
    dice = options.get("dice", [])
    if not (isinstance(dice, list) and len(dice) <= 1000
            and all(type(d) is int and 1 <= d <= 100 for d in dice)):
        problems.append(Problem("dice", _("Dice are a list of rolls 1..100.")))
    scenario = None
    if options.get("scenario") is not None:
        scenario = _scenario(options["scenario"], problems)
    if problems:
        raise OptionsError(problems)
    normalized: dict[str, Any] = {"map": map_name, "turn_limit": turn_limit}
    if dice:
        normalized["dice"] = list(dice)
    if scenario is not None:
        normalized["scenario"] = scenario
    return normalized


def start(options: Mapping[str, Any]) -> State:
    """The state at the start of a match (options already normalized)."""
    scenario = options.get("scenario")
    if scenario is None:
        m = MAPS[options["map"]]
        scenario = {"size": m["size"], "turn": 1, "initiative": 1, "terrain": m["terrain"],
                    "destroyed": {"1": 0, "2": 0},
                    "tanks": [dict(t, state="stationary", activated=False,
                                   reaction=default_reaction()) for t in m["tanks"]]}
    tanks = sorted(({"seat": t["seat"], "name": t["name"], "card": t["card"], "at": t["at"],
                     "facing": t["facing"], "state": t["state"], "activated": t["activated"],
                     "alive": True, "reacted": False} for t in scenario["tanks"]),
                   key=lambda t: t["name"])
    state: State = {
        "size": list(scenario["size"]),
        "terrain": {k: sorted(scenario["terrain"].get(k, [])) for k in TERRAIN},
        "turn": scenario["turn"], "initiative": scenario["initiative"],
        "turn_limit": options.get("turn_limit", DEFAULT_TURN_LIMIT),
        "phase": "activate", "to_move": scenario["initiative"],
        "tanks": tanks,
        "reactions": {t["name"]: dict(t["reaction"]) for t in scenario["tanks"]},
        "pending": None,
        "destroyed": dict(scenario["destroyed"]),
        "dice": list(options.get("dice", [])),
        "result": None,
    }
    return state


# -- the options as a form shows them (``validate_options`` above stays the judge) -------------

OPTIONS_SCHEMA: tuple[Option, ...] = (
    Option("map", OptionKind.CHOICE, _("Map"),
           choices=tuple((name, m["title"]) for name, m in sorted(MAPS.items()))),
    Option("turn_limit", OptionKind.INT, _("Turn limit"),
           _("The match ends after this many turns; empty: no limit."), minimum=1, maximum=99,
           optional=True),
)
