"""A read-only index over a state at the start of a round: who stands where, what blocks fire,
which squares may be entered. Built once per validate / legal_actions / resolve call."""

from __future__ import annotations

from typing import Any

from engine.base import Text
from engine.base import gettext_noop as _
from engine.final_act import board
from engine.final_act.cone import cone
from engine.final_act.line_of_fire import blocker_on_path
from engine.final_act.terrain import Terrain
from engine.final_act.units import OFFICERS, Unit, full_label, label

State = dict[str, Any]


class Position:
    def __init__(self, state: State) -> None:
        self.state = state
        self.options: dict[str, Any] = state["options"]
        self.round: int = state["round"]
        self.advanced: frozenset[str] = frozenset(self.options.get("advanced", ()))
        self.terrain = Terrain(state["terrain"])
        self.units: list[Unit] = state["units"]
        self.by_key: dict[tuple[int, str], Unit] = {(u["seat"], u["name"]): u for u in self.units}
        self.square_of: dict[tuple[int, str], int] = {}
        self.at: dict[int, list[Unit]] = {}
        self.blockers: set[int] = set(self.terrain.berm_owner)
        self.wrecks: set[int] = set()
        for unit in self.units:
            if unit["at"] is None or unit["state"] not in ("active", "wreck"):
                continue
            sq = board.parse(unit["at"])
            assert sq is not None
            self.square_of[(unit["seat"], unit["name"])] = sq
            self.at.setdefault(sq, []).append(unit)
            if unit["kind"] != "at":
                self.blockers.add(sq)
            if unit["state"] == "wreck":
                self.wrecks.add(sq)
        self.quick_sand: set[int] = set()
        self.cleared: dict[int, set[int]] = {1: set(), 2: set()}
        self.red_cross: dict[int, dict[str, Any]] = {}
        for token in state["board_tokens"]:
            sq = board.parse(token["at"])
            assert sq is not None
            if token["token"] == "quick_sand":
                self.quick_sand.add(sq)
            elif token["token"] == "mine_clearing":
                self.cleared[token["seat"]].add(sq)
            elif token["token"] == "red_cross":
                self.red_cross[token["seat"]] = token
        self.repairing: set[tuple[int, str]] = {
            (r["seat"], r["tank"]) for r in state["repairing"] if r["round"] == self.round
        }
        self.r_busy: set[int] = {seat for seat, _ in self.repairing}
        self._fire_cache: dict[tuple[int, str], frozenset[int]] = {}

    # -- units ---------------------------------------------------------------------------
    def units_of(self, seat: int) -> list[Unit]:
        return [u for u in self.units if u["seat"] == seat]

    def active(self, seat: int) -> list[Unit]:
        return [u for u in self.units if u["seat"] == seat and u["state"] == "active"]

    def active_tanks(self, seat: int) -> list[Unit]:
        return [u for u in self.active(seat) if u["kind"] == "tank"]

    def out_tanks(self, seat: int) -> int:
        """Own tanks that are out (wrecks included): their shells may be used by tokens."""
        return sum(
            1
            for u in self.units
            if u["seat"] == seat and u["kind"] == "tank" and u["state"] in ("out", "wreck")
        )

    def unit(self, seat: int, name: str) -> Unit | None:
        return self.by_key.get((seat, name))

    def sq(self, unit: Unit) -> int:
        return self.square_of[(unit["seat"], unit["name"])]

    def occupied(self, sq: int) -> bool:
        return bool(self.at.get(sq))

    def has_tank_in_enemy_half(self, seat: int) -> bool:
        return any(not board.in_own_half(seat, self.sq(u)) for u in self.active_tanks(seat))

    def officer_loss_applies(self, seat: int) -> bool:
        """Advanced rule 2: an officer went out last round and the side still has >= 3 tanks."""
        return (
            "officer_loss" in self.advanced
            and 0 < self.state["officer_lost"][str(seat)] == self.round - 1
            and len(self.active_tanks(seat)) >= 3
        )

    def is_officer(self, unit: Unit) -> bool:
        return unit["kind"] == "tank" and unit["name"] in OFFICERS

    # -- movement ------------------------------------------------------------------------
    def step_problem(
        self,
        seat: int,
        frm: int,
        vector: tuple[int, int],
        extra_clear: set[int],
        extra_sand: set[int],
    ) -> tuple[int | None, Text | None]:
        """The square one ``vector`` step from ``frm`` and why it may not be entered (or None)."""
        to = board.step(frm, vector)
        if to is None:
            return None, Text(_("it would leave the board"))
        cleared = self.cleared[seat] | extra_clear if extra_clear else self.cleared[seat]
        reason = self.terrain.step_problem(frm, to, cleared)
        if reason:
            return to, reason
        if to in self.wrecks:
            return to, Text(_("there is a wreck on %(square)s"), {"square": board.name(to)})
        if to in self.quick_sand or to in extra_sand:
            return to, Text(_("%(square)s is covered by quick sand"), {"square": board.name(to)})
        return to, None

    def move_vector(self, unit: Unit, move: str) -> tuple[int, int]:
        if move == "stay":
            return (0, 0)
        if unit["kind"] == "at":
            return board.COMPASS[move]
        return board.relative_vector(unit["facing"], move)

    def move_path(
        self,
        unit: Unit,
        move: str,
        steps: int = 1,
        extra_clear: set[int] | None = None,
        extra_sand: set[int] | None = None,
    ) -> tuple[list[int], Text | None]:
        """The squares a move enters (1 or 2 with full throttle) and why it is illegal, if so."""
        if move == "stay":
            return [], None
        vector = self.move_vector(unit, move)
        here = self.sq(unit)
        squares: list[int] = []
        for _step in range(steps):
            to, reason = self.step_problem(
                unit["seat"], here, vector, extra_clear or set(), extra_sand or set()
            )
            if reason or to is None:
                return squares, reason or Text(_("it would leave the board"))
            squares.append(to)
            here = to
        return squares, None

    # -- fire ----------------------------------------------------------------------------
    def elevated(self, unit: Unit) -> bool:
        return self.terrain.is_berm(self.sq(unit))

    def cone_of(self, unit: Unit) -> frozenset[int]:
        return cone(self.sq(unit), unit["facing"], unit["kind"], self.elevated(unit))

    def fire_problem(self, unit: Unit, target: int) -> Text | None:
        """Why ``unit`` may not shell ``target`` this round (cone, line of fire), or None."""
        here = self.sq(unit)
        if target not in self.cone_of(unit):
            return Text(_("%(square)s is outside its fire cone"), {"square": board.name(target)})
        if self.elevated(unit):
            return None
        blocker = blocker_on_path(here, target, self.blockers)
        if blocker is None:
            return None
        return Text(_("the line of fire to %(square)s is blocked by %(blocker)s"),
                    {"square": board.name(target), "blocker": self.describe(blocker)})

    def fire_squares(self, unit: Unit) -> frozenset[int]:
        key = (unit["seat"], unit["name"])
        if key not in self._fire_cache:
            here = self.sq(unit)
            squares = self.cone_of(unit)
            if not self.elevated(unit):
                squares = frozenset(
                    t for t in squares if blocker_on_path(here, t, self.blockers) is None
                )
            self._fire_cache[key] = squares
        return self._fire_cache[key]

    def describe(self, sq: int) -> str | Text:
        """What stands on ``sq``, for a sentence: "Delta 2A at f8", "the berm at d5"."""
        for unit in self.at.get(sq, []):
            if unit["kind"] != "at":
                what = (_("the wreck of %(unit)s at %(square)s") if unit["state"] == "wreck"
                        else _("%(unit)s at %(square)s"))
                return Text(what, {"unit": full_label(unit["seat"], unit["name"]),
                                   "square": board.name(sq)})
        if self.terrain.is_berm(sq):
            return Text(_("the berm at %(square)s"), {"square": board.name(sq)})
        return board.name(sq)


def own_label(unit: Unit) -> Text:
    return label(unit["name"])
