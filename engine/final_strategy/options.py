"""Match options: ``turn_limit`` and a ``scenario`` start position. How many missed turns take
a seat out is the match's missed-deadline policy, not an option of the game."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.base import Option, OptionKind, OptionsError, Problem
from engine.base import gettext_noop as _
from engine.final_strategy import board
from engine.final_strategy.position import SLOT_NAMES

MAX_SEATS = 4


def default_options() -> dict[str, Any]:
    return {"turn_limit": None}


def _count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _seat(value: Any) -> int | None:
    """A seat given as a value: a whole number 1 to 4, never a string or a float read as one."""
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    return value if 1 <= value <= MAX_SEATS else None


def _seat_key(key: Any) -> int | None:
    """A seat given as an object's key, which JSON writes as text: "1" to "4" (or the int)."""
    if isinstance(key, str):
        return int(key) if key in {str(n) for n in range(1, MAX_SEATS + 1)} else None
    return _seat(key)


def validate_scenario(raw: Any, problems: list[Problem]) -> dict[str, Any] | None:
    """A scenario's normalized form; its problems (paths under ``scenario``) go to ``problems``."""
    if not isinstance(raw, Mapping):
        problems.append(Problem("scenario", _("A scenario is an object (see the data formats).")))
        return None
    before = len(problems)
    known = {"turn", "to_move", "barriers", "pieces", "bunkers", "prisoners", "removed"}
    problems.extend(Problem(f"scenario.{k}", _("Unknown field %(field)s."),
                            {"field": repr(k)}) for k in raw
                    if k not in known)
    turn = raw.get("turn", 1)
    if not isinstance(turn, int) or isinstance(turn, bool) or turn < 1:
        problems.append(Problem("scenario.turn", _("The turn is a whole number from 1.")))
    to_move = _seat(raw.get("to_move", 1))
    if to_move is None:
        problems.append(Problem("scenario.to_move", _("to_move is a seat from 1 to 4.")))
    barriers: set[str] = set()
    for i, name in enumerate(raw.get("barriers", [])):
        edge = board.parse_edge(name)
        if edge is None:
            problems.append(Problem(f"scenario.barriers.{i}", _("%(name)s is not an edge."),
                                    {"name": repr(name)}))
        else:
            barriers.add(board.EDGE_NAMES[edge])
    pieces: list[dict[str, Any]] = []
    taken: set[str] = set()
    for i, p in enumerate(raw.get("pieces", [])):
        path = f"scenario.pieces.{i}"
        if not isinstance(p, Mapping):
            problems.append(Problem(path, _("A piece is an object {seat, kind, at}.")))
            continue
        seat, sq = _seat(p.get("seat")), board.parse_square(p.get("at"))
        kind, corner = p.get("kind"), p.get("corner")
        if seat is None:
            problems.append(Problem(f"{path}.seat", _("The seat is 1 to 4.")))
        if sq is None:
            problems.append(Problem(f"{path}.at", _("%(square)s is not a square on the board."),
                                    {"square": repr(p.get("at"))}))
        elif board.SQUARE_NAMES[sq] in taken:
            problems.append(Problem(f"{path}.at", _("Two pieces on %(square)s."),
                                    {"square": board.SQUARE_NAMES[sq]}))
        if kind not in board.KINDS:
            problems.append(Problem(f"{path}.kind", _("The kind is troop, kidnapper or bomb.")))
        if kind == "kidnapper" and corner not in board.CORNERS:
            problems.append(Problem(f"{path}.corner", _("A kidnapper names ne, nw, se or sw.")))
        if kind != "kidnapper" and corner is not None:
            problems.append(Problem(f"{path}.corner", _("Only a kidnapper names a corner.")))
        if seat is not None and sq is not None and kind in board.KINDS:
            taken.add(board.SQUARE_NAMES[sq])
            piece = {"seat": seat, "kind": kind, "at": board.SQUARE_NAMES[sq]}
            if kind == "kidnapper" and corner in board.CORNERS:
                piece["corner"] = corner
            pieces.append(piece)
    bunkers: dict[str, dict[str, int]] = {}
    raw_bunkers = raw.get("bunkers", {})
    if not isinstance(raw_bunkers, Mapping):
        problems.append(Problem("scenario.bunkers", _("Bunkers map a seat to its counts.")))
        raw_bunkers = {}
    for key, counts in raw_bunkers.items():
        seat = _seat_key(key)
        if seat is None or not isinstance(counts, Mapping):
            problems.append(Problem(f"scenario.bunkers.{key}", _("Bunkers map a seat (1 to 4) to "
                                                                 "{troops, kidnappers, bombs}.")))
            continue
        bunker = {}
        for slot in SLOT_NAMES:
            if not _count(counts.get(slot, 0)):
                problems.append(Problem(f"scenario.bunkers.{key}.{slot}",
                                        _("A count is a whole number, 0 or more.")))
            else:
                bunker[slot] = counts.get(slot, 0)
        bunkers[str(seat)] = bunker
    prisoners: dict[str, dict[str, int]] = {}
    raw_prisoners = raw.get("prisoners", {})
    if not isinstance(raw_prisoners, Mapping):
        problems.append(Problem("scenario.prisoners", _("Prisoners map captor → victim → count.")))
        raw_prisoners = {}
    for captor, by in raw_prisoners.items():
        if _seat_key(captor) is None or not isinstance(by, Mapping):
            problems.append(Problem(f"scenario.prisoners.{captor}", _("Not a seat 1 to 4.")))
            continue
        for victim, n in by.items():
            if _seat_key(victim) is None or not _count(n):
                problems.append(Problem(f"scenario.prisoners.{captor}.{victim}",
                                        _("A victim seat (1 to 4) and a count, 0 or more.")))
            elif n:
                prisoners.setdefault(str(_seat_key(captor)), {})[str(_seat_key(victim))] = n
    removed = []
    for i, value in enumerate(raw.get("removed", [])):
        seat = _seat(value)
        if seat is None:
            problems.append(Problem(f"scenario.removed.{i}", _("Not a seat 1 to 4.")))
        else:
            removed.append(seat)
    if len(problems) > before:
        return None
    return {"turn": turn, "to_move": to_move,
            "barriers": [board.EDGE_NAMES[e] for e in board.sort_edges(
                board.EDGE_INDEX[b] for b in barriers)],
            "pieces": sorted(pieces, key=lambda p: board.SQUARE_INDEX[p["at"]]),
            "bunkers": bunkers, "prisoners": prisoners, "removed": sorted(set(removed))}


def validate_options(options: Any) -> dict[str, Any]:
    if not isinstance(options, Mapping):
        raise OptionsError(_("Options must be an object."))
    result = default_options()
    problems: list[Problem] = []
    for key, value in options.items():
        if key == "turn_limit":
            if value is None:
                result[key] = None
            elif isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 10000:
                problems.append(Problem(key, _("Must be a whole number from 1 (or null).")))
            else:
                result[key] = value
        elif key == "miss_limit":
            problems.append(Problem(key, "Not a game option: the match's missed-deadline "
                                    "policy says after how many missed turns a seat is out."))
        elif key == "scenario":
            if value is not None:
                scenario = validate_scenario(value, problems)
                if scenario is not None:
                    result["scenario"] = scenario
        else:
            problems.append(Problem(str(key), _("Unknown option %(key)s."),
                                    {"key": repr(key)}))
    if problems:
        raise OptionsError(problems)
    return result


def check_scenario_seats(scenario: Mapping[str, Any], seats: int) -> None:
    """The scenario's seat numbers exist in a match of ``seats`` seats; counts stay >= 0."""
    problems = []
    def off(seat: Any) -> bool:
        return int(seat) > seats
    if off(scenario["to_move"]):
        problems.append(Problem("scenario.to_move", _("There is no seat %(to_move)s."),
                                {"to_move": scenario['to_move']}))
    for i, p in enumerate(scenario["pieces"]):
        if off(p["seat"]):
            problems.append(Problem(f"scenario.pieces.{i}.seat", _("There is no seat %(seat)s."),
                                    {"seat": p['seat']}))
    for key in scenario["bunkers"]:
        if off(key):
            problems.append(Problem(f"scenario.bunkers.{key}", _("There is no seat %(key)s."),
                                    {"key": key}))
    for captor, by in scenario["prisoners"].items():
        for victim in by:
            if off(captor) or off(victim):
                problems.append(Problem(f"scenario.prisoners.{captor}.{victim}",
                                        _("There is no such seat.")))
    for seat in scenario["removed"]:
        if off(seat):
            problems.append(Problem("scenario.removed", _("There is no seat %(seat)s."),
                                    {"seat": seat}))
    if problems:
        raise OptionsError(problems)


# -- the options as a form shows them (``validate_options`` above stays the judge) -------------

OPTIONS_SCHEMA: tuple[Option, ...] = (
    Option("turn_limit", OptionKind.INT, _("Turn limit"),
           _("The match ends after this many turns; empty: no limit."), minimum=1,
           maximum=10000, optional=True),
)
