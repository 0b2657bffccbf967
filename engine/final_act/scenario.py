"""Scenario positions (the ``scenario`` option): puzzles, tutorials and tests start here.

A scenario is ``{"round", "units": [{"seat", "name", "at", "facing", "hits"}], "terrain": [...],
"tokens": {"1": [...], "2": [...]}, "breakthroughs": {"1": n, "2": n}}`` (see the rulings, "Data
formats"). Units left out are not in the game; a tank with 2 hits (other units: 1) is out, and
with the wrecks rule and a square it is a wreck there.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.base import Problem, pgettext
from engine.base import gettext_noop as _
from engine.final_act import board
from engine.final_act.checks import is_int, unknown_fields
from engine.final_act.stacking import stack_problem
from engine.final_act.units import TOKENS, kind_of, unit_names

# A terrain piece's kind as a problem names it ("c3 already holds a berm.").
TERRAIN_KINDS = {"berm": pgettext("terrain", "berm"), "swamp": pgettext("terrain", "swamp"),
                 "minefield": pgettext("terrain", "minefield")}


def _square_list(value: Any, path: str, problems: list[Problem]) -> list[str] | None:
    if not isinstance(value, list) or not value or len(value) > 144:
        problems.append(Problem(path, _("Expected a non-empty list of squares.")))
        return None
    out = []
    for i, item in enumerate(value):
        sq = board.parse(item)
        if sq is None:
            problems.append(
                Problem(f"{path}.{i}", _("%(value)s is not a square (a1..l12)."),
                        {"value": board.show(item)})
            )
        else:
            out.append(board.name(sq))
    return out if len(out) == len(value) else None


def validate_scenario(
    scenario: Any, options: Mapping[str, Any], problems: list[Problem]
) -> dict[str, Any] | None:
    """A normalized scenario position (see rulings, "Data formats"), appending problems."""
    p = "scenario"
    if not isinstance(scenario, Mapping):
        problems.append(Problem(p, _("A scenario must be an object with units and terrain.")))
        return None
    before = len(problems)
    scenario_keys = ("round", "units", "terrain", "tokens", "breakthroughs")
    problems.extend(unknown_fields(scenario, scenario_keys, p, "scenario field"))
    rnd = scenario.get("round", 1)
    if not is_int(rnd) or not 1 <= rnd <= options["round_limit"]:
        problems.append(
            Problem(f"{p}.round", _("The round must be a whole number within the round limit."))
        )

    terrain: list[dict[str, Any]] = []
    raw_terrain = scenario.get("terrain", [])
    occupied: dict[str, str] = {}
    blocked: set[str] = set()
    if not isinstance(raw_terrain, list) or len(raw_terrain) > 60:
        problems.append(Problem(f"{p}.terrain", _("Terrain must be a list of terrain pieces.")))
        raw_terrain = []
    for i, piece in enumerate(raw_terrain):
        tp = f"{p}.terrain.{i}"
        if not isinstance(piece, Mapping):
            problems.append(Problem(tp, _("A terrain piece must be an object.")))
            continue
        kind = piece.get("kind")
        owner = piece.get("owner")
        if kind not in ("berm", "swamp", "minefield"):
            problems.append(Problem(f"{tp}.kind", _("Terrain kind must be berm, swamp or "
                                                    "minefield.")))
        if owner not in board.SEATS:
            problems.append(Problem(f"{tp}.owner", _("Terrain owner must be 1 or 2.")))
        squares = _square_list(piece.get("squares"), f"{tp}.squares", problems)
        if (
            squares is None
            or kind not in ("berm", "swamp", "minefield")
            or owner not in board.SEATS
        ):
            continue
        for cell in squares:
            if cell in occupied:
                problems.append(
                    Problem(f"{tp}.squares", _("%(square)s already holds a %(terrain)s."),
                            {"square": cell, "terrain": TERRAIN_KINDS[occupied[cell]]})
                )
            occupied[cell] = kind
        entry: dict[str, Any] = {"kind": kind, "owner": owner, "squares": squares}
        if kind == "minefield":
            passage = board.parse(piece.get("passage"))
            arrow = piece.get("arrow")
            if passage is None or board.name(passage) not in squares:
                problems.append(
                    Problem(f"{tp}.passage", _("The passage must be one of the minefield's "
                                               "squares."))
                )
            if arrow not in board.FACINGS:
                problems.append(Problem(f"{tp}.arrow", _("The arrow must be N, E, S or W.")))
            if passage is not None and arrow in board.FACINGS:
                entry["passage"] = board.name(passage)
                entry["arrow"] = arrow
                blocked.update(s for s in squares if s != entry["passage"])
        elif kind == "swamp":
            blocked.update(squares)
        terrain.append(entry)

    names = unit_names(bool(options.get("extra_forces")))
    wrecks = "wrecks" in options.get("advanced", [])
    units: list[dict[str, Any]] = []
    raw_units = scenario.get("units", [])
    if not isinstance(raw_units, list) or len(raw_units) > 2 * len(names):
        problems.append(
            Problem(f"{p}.units", _("Units must be a list of at most one entry per unit."))
        )
        raw_units = []
    seen: set[tuple[int, str]] = set()
    for i, unit in enumerate(raw_units):
        up = f"{p}.units.{i}"
        if not isinstance(unit, Mapping):
            problems.append(Problem(up, _("A unit must be an object.")))
            continue
        problems.extend(
            unknown_fields(unit, ("seat", "name", "at", "facing", "hits"), up, "unit field")
        )
        seat, name, facing, hits = (
            unit.get("seat"),
            unit.get("name"),
            unit.get("facing"),
            unit.get("hits", 0),
        )
        ok = True
        if seat not in board.SEATS:
            problems.append(Problem(f"{up}.seat", _("The seat must be 1 or 2.")))
            ok = False
        if name not in names:
            problems.append(
                Problem(
                    f"{up}.name", _("Unknown unit %(value)s; units: %(names)s."),
                    {"value": board.show(name), "names": ', '.join(names)}
                )
            )
            ok = False
        if facing is None:
            facing = board.forward(seat) if seat in board.SEATS else "N"
        if facing not in board.FACINGS:
            problems.append(Problem(f"{up}.facing", _("The facing must be N, E, S or W.")))
            ok = False
        max_hits = 2 if name in names and kind_of(name) == "tank" else 1
        if not is_int(hits) or not 0 <= hits <= max_hits:
            problems.append(Problem(f"{up}.hits", _("Hits must be 0 to %(most)s for this "
                                                    "unit."),
                                    {"most": max_hits}))
            ok = False
        out = ok and hits == max_hits
        at = unit.get("at")
        sq = board.parse(at)
        if at is None and out:
            pass
        elif sq is None:
            problems.append(Problem(f"{up}.at", _("%(value)s is not a square (a1..l12)."),
                                    {"value": board.show(at)}))
            ok = False
        elif board.name(sq) in blocked and not out:
            problems.append(
                Problem(f"{up}.at", _("%(square)s is a swamp or minefield square."),
                        {"square": board.name(sq)})
            )
        if not ok:
            continue
        assert isinstance(seat, int) and isinstance(name, str)
        if (seat, name) in seen:
            problems.append(
                Problem(f"{up}.name", _("%(side)s %(name)s is listed twice."),
                        {"side": board.SEAT_NAMES[seat], "name": name})
            )
            continue
        seen.add((seat, name))
        units.append(
            {
                "seat": seat,
                "name": name,
                "at": board.name(sq) if sq is not None else None,
                "facing": facing,
                "hits": hits,
            }
        )
    by_square: dict[str, list[dict[str, Any]]] = {}
    for unit in scenario_units(units, wrecks):
        if unit["at"] is not None:
            by_square.setdefault(unit["at"], []).append(unit)
    for where, group in sorted(by_square.items()):
        reason = stack_problem(group, at_start=True)
        if reason:
            problems.append(Problem(f"{p}.units", _("%(where)s: %(reason)s"),
                                    {"where": where, "reason": reason}))

    tokens: dict[str, list[str]] = {"1": [], "2": []}
    raw_tokens = scenario.get("tokens", {})
    if not isinstance(raw_tokens, Mapping):
        problems.append(
            Problem(f"{p}.tokens", _('Tokens must be an object like {"1": [...], "2": [...]}.'))
        )
        raw_tokens = {}
    for key, value in raw_tokens.items():
        if key not in ("1", "2"):
            problems.append(
                Problem(f"{p}.tokens.{board.key_text(key)}", _('Token owners are "1" and "2".'))
            )
            continue
        if not isinstance(value, list) or any(t not in TOKENS for t in value):
            problems.append(
                Problem(f"{p}.tokens.{key}", _("Tokens must be a list of: %(tokens)s."),
                        {"tokens": ', '.join(TOKENS)})
            )
            continue
        tokens[key] = [t for t in TOKENS if t in value]
    breakthroughs = {"1": 0, "2": 0}
    raw_bt = scenario.get("breakthroughs", {})
    if not isinstance(raw_bt, Mapping):
        raw_bt = {"?": None}
    for key, value in raw_bt.items():
        if key not in ("1", "2") or not is_int(value) or not 0 <= value <= 7:
            problems.append(
                Problem(f"{p}.breakthroughs", _('Breakthroughs must be {"1": n, "2": n}, n 0..7.'))
            )
            break
        breakthroughs[key] = value
    if len(problems) > before:
        return None
    units.sort(key=lambda u: (u["seat"], names.index(u["name"])))
    result: dict[str, Any] = {
        "round": rnd,
        "units": units,
        "terrain": terrain,
        "breakthroughs": breakthroughs,
    }
    if "tokens" in scenario:
        result["tokens"] = tokens
    return result


def scenario_units(units: list[dict[str, Any]], wrecks: bool) -> list[dict[str, Any]]:
    """State units for the canonical scenario ``units`` list."""
    out = []
    for unit in units:
        kind = kind_of(unit["name"])
        max_hits = 2 if kind == "tank" else 1
        state = "active"
        if unit["hits"] >= max_hits:
            state = "wreck" if wrecks and kind == "tank" and unit["at"] is not None else "out"
        out.append(
            {
                "seat": unit["seat"],
                "name": unit["name"],
                "kind": kind,
                "at": unit["at"] if state != "out" else None,
                "facing": board.forward(unit["seat"]) if kind == "r" else unit["facing"],
                "hits": unit["hits"],
                "state": state,
            }
        )
    return out
