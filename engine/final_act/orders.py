"""Round order sheets: validation and normalization.

A round submission (every part optional; omitted units stay and do not fire)::

    {"units": {
        "C":   {"move": "FL", "turn": true, "fire": ["e7"]},    # tanks: relative moves
        "1A":  {"move": "stay"},
        "AT1": {"move": "NE", "face": "E"},                     # AT: compass step, any facing
        "AT2": {"fire": ["c6"], "face": "N"},                   # AT: move OR fire
        "R":   {"move": "F"}},                                  # R: tank moves, never fires/turns
     "tokens": {
        "air_strike":    {"at": "c1", "fire": ["c9", "c10"], "paid_by": ["1B"]},
        "full_throttle": {"unit": "1A"},
        "quick_shot":    {"unit": "C", "fire": ["e7", "f7"]},
        "mine_clearing": {"at": "c8"},
        "smoke":         {"at": "d4"},
        "quick_sand":    {"at": "d5"},
        "red_cross":     {"at": "d3"}          # placement, or {"activate": "1A"} later
     },
     "declare": {"repair": "1A", "double_shot": "C"}}

Tank moves are ``stay F FL FR B BL BR`` relative to the facing; ``turn`` (default false) swings
the hull 90 degrees with a diagonal move (FL/BR: left, FR/BL: right). A turn with stay, F or B
is accepted, ignored and reported by ``warnings``. AT moves are ``stay N NE E SE S SW W NW``;
``face`` (default: unchanged) is the facing after the round. The R unit moves like a tank
relative to its side's forward direction (Alpha N, Delta S) and never turns.

Fire lists name target squares, aimed from the position at the start of the round. A tank fires
at most one shell; two with ``declare.double_shot`` naming it, or with the quick shot token (its
shells may be listed in either place; the normal form keeps them in ``tokens.quick_shot.fire``).
Air strike: ``at`` is a square of the own last line; ``fire`` 1-2 squares of that file other than
``at``; ``paid_by`` lists operational tanks that then fire nothing this round (they pay one shell
each); every other air strike shell, the quick shot and the double shot each use the shell of
one own tank that is out. Full throttle: the named tank moves its (turn-free, non-stay) move
twice. ``declare.repair`` (advanced rule 4) names a damaged tank in the own half with an own
berm right in front of it; it must stay and not fire.

The normal form (what ``validate`` returns) lists every operational own unit in the order
C 1 1A 1B 2 2A 2B AT1 AT2 R with every field present (tanks: move/turn/fire, AT: move/face/fire,
R: move), squares in lower case, only the tokens and declarations used, and is a fixed point of
``validate``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.base import Problem, RuleError, ngettext
from engine.base import gettext_noop as _
from engine.final_act import board
from engine.final_act.checks import case, short
from engine.final_act.position import Position
from engine.final_act.tokens import TokenChecks
from engine.final_act.units import ALL_UNITS, TOKENS, Unit, label


class SheetReader(TokenChecks):
    """Reads one side's order sheet against a position, collecting every problem."""

    # -- the sheet -----------------------------------------------------------------------
    def read(self, sheet: Any) -> dict[str, Any]:
        if not isinstance(sheet, Mapping):
            raise RuleError(
                [Problem("", _("An order sheet must be an object with units, tokens, declare."))]
            )
        self.keys(sheet, ("units", "tokens", "declare"), "")
        raw_units = sheet.get("units", {})
        raw_tokens = sheet.get("tokens", {})
        raw_declare = sheet.get("declare", {})
        orders: dict[str, dict[str, Any]] = {}
        if not isinstance(raw_units, Mapping) or len(raw_units) > 40:
            self.bad("units", _("'units' must be an object mapping unit names to orders."))
        else:
            named: set[str] = set()
            for name, order in raw_units.items():
                path = f"units.{board.key_text(name)}"
                unit = self.own_unit(name, path, ("tank", "at", "r"))
                if unit is None:
                    continue
                if unit["name"] in named:
                    self.bad(path, _("%(unit)s has two orders."), {"unit": label(unit["name"])})
                named.add(unit["name"])
                parsed = self.unit_order(unit, order, path)
                if parsed is not None:
                    orders[unit["name"]] = parsed
            for unit in self.pos.active(self.seat):
                if unit["name"] not in named:
                    orders[unit["name"]] = self.unit_order(unit, {}, "") or {}
        tokens = self.tokens(raw_tokens)
        declare = self.declare(raw_declare)
        self.cross_checks(orders, tokens, declare)
        if self.problems:
            raise RuleError(self.problems)
        return {
            "units": {n: orders[n] for n in ALL_UNITS if n in orders},
            "tokens": {t: tokens[t] for t in TOKENS if t in tokens},
            "declare": declare,
        }

    def unit_order(self, unit: Unit, order: Any, path: str) -> dict[str, Any] | None:
        kind = unit["kind"]
        if not isinstance(order, Mapping):
            self.bad(path, _('The order for %(unit)s must be an object like {"move": "F"}.'),
                     {"unit": label(unit["name"])})
            return None
        allowed = {
            "tank": ("move", "turn", "fire"),
            "at": ("move", "face", "fire"),
            "r": ("move", "turn", "fire"),
        }[kind]
        before = len(self.problems)
        self.keys(order, allowed, path)
        move = case(order.get("move", "stay"))
        moves = board.AT_MOVES if kind == "at" else board.TANK_MOVES
        if move not in moves:
            self.bad(f"{path}.move", _("%(unit)s cannot move %(move)s; moves: %(moves)s."),
                     {"unit": label(unit["name"]), "move": short(move), "moves": " ".join(moves)})
        result: dict[str, Any] = {"move": move}
        if kind in ("tank", "r"):
            turn = order.get("turn", False)
            if not isinstance(turn, bool):
                self.bad(f"{path}.turn", _("'turn' must be true or false."))
            elif kind == "r" and turn:
                self.bad(f"{path}.turn", _("The R unit cannot turn (its facing does not matter)."))
            if kind == "tank":
                result["turn"] = turn
        if kind == "at":
            face = case(order.get("face", unit["facing"]))
            if face not in board.FACINGS:
                self.bad(f"{path}.face", _("%(value)s is not a facing (N, E, S or W)."),
                         {"value": short(face)})
            result["face"] = face
        if kind in ("tank", "at"):
            fire = self.squares(order.get("fire", []), f"{path}.fire")
            result["fire"] = [board.name(s) for s in fire or []]
        elif order.get("fire"):
            self.bad(f"{path}.fire", _("The R unit never fires."))
        if len(self.problems) > before:
            return None
        return result

    def declare(self, raw: Any) -> dict[str, str]:
        out: dict[str, str] = {}
        if raw is None:
            return out
        if not isinstance(raw, Mapping):
            self.bad("declare", _('\'declare\' must be an object like {"repair": "1A"}.'))
            return out
        self.keys(raw, ("repair", "double_shot"), "declare")
        not_in_play = {"repair": _("The repair advanced rule is not in play."),
                       "double_shot": _("The double shot advanced rule is not in play.")}
        used = {"repair": _("You have already used your repair."),
                "double_shot": _("You have already used your double shot.")}
        for key in ("repair", "double_shot"):
            if key not in raw:
                continue
            if key not in self.pos.advanced:
                self.bad(f"declare.{key}", not_in_play[key])
                continue
            if self.pos.state["used"][str(self.seat)][key]:
                self.bad(f"declare.{key}", used[key])
                continue
            unit = self.own_unit(raw[key], f"declare.{key}")
            if unit is not None:
                out[key] = unit["name"]
        return out

    # -- rules that need the whole sheet --------------------------------------------------
    def cross_checks(
        self,
        orders: dict[str, dict[str, Any]],
        tokens: dict[str, dict[str, Any]],
        declare: dict[str, str],
    ) -> None:
        pos, seat = self.pos, self.seat
        own_clear: set[int] = set()
        own_sand: set[int] = set()
        if "mine_clearing" in tokens:
            self.check_mine_clearing(tokens["mine_clearing"])
            sq = board.parse(tokens["mine_clearing"]["at"])
            if sq is not None:
                own_clear.add(sq)
        if "quick_sand" in tokens:
            sq = board.parse(tokens["quick_sand"]["at"])
            if sq is not None:
                own_sand.add(sq)
        quick = tokens.get("quick_shot")
        if quick is not None and quick["unit"] in orders:
            # Its shells may be listed in either place; keep them with the token.
            quick["fire"] = orders[quick["unit"]]["fire"] + quick["fire"]
            orders[quick["unit"]]["fire"] = []
        throttle = tokens.get("full_throttle", {}).get("unit")
        paid_by = set(tokens.get("air_strike", {}).get("paid_by", []))
        shells_from_tanks = 0
        for name, order in orders.items():
            unit = pos.unit(seat, name)
            assert unit is not None
            path = f"units.{name}"
            who = {"unit": label(name)}
            move = order["move"]
            steps = 2 if name == throttle else 1
            if (seat, name) in pos.repairing and (move != "stay" or order.get("fire")):
                self.bad(path, _("%(unit)s is being repaired by the R unit this round: it must "
                                 "stay and not fire."), who)
            if unit["kind"] == "r" and seat in pos.r_busy and move != "stay":
                self.bad(f"{path}.move",
                         _("The R unit is repairing a tank this round and must stay."))
            if name == declare.get("repair") and (move != "stay" or order.get("fire")):
                self.bad(path, _("%(unit)s is declared for repair: it must stay and not fire "
                                 "this round."), who)
            if name == throttle:
                if move == "stay":
                    self.bad(f"{path}.move",
                             _("%(unit)s has full throttle but no move to make twice."), who)
                if order.get("turn"):
                    self.bad(f"{path}.turn", _("Full throttle cannot be combined with a turn."))
            _path, reason = pos.move_path(unit, move, steps, own_clear, own_sand)
            if reason:
                self.bad(f"{path}.move", _("%(unit)s cannot move %(move)s at full throttle: "
                                           "%(reason)s.") if steps == 2 else
                         _("%(unit)s cannot move %(move)s: %(reason)s."),
                         {**who, "move": move, "reason": reason})
            fire = order.get("fire", [])
            if unit["kind"] == "at" and fire and move != "stay":
                self.bad(path, _("%(unit)s may either move or fire in a round, not both."), who)
            limit = 1
            if name == declare.get("double_shot"):
                limit = 2
            if name in paid_by:
                limit = 0
                if fire:
                    self.bad(f"{path}.fire", _("%(unit)s pays for an air strike shell and fires "
                                               "nothing this round."), who)
            if len(fire) > limit and name not in paid_by:
                if unit["kind"] == "tank":
                    self.bad(f"{path}.fire", ngettext(
                        "%(unit)s may fire %(count)s shell (declare a double shot or use quick "
                        "shot for two).",
                        "%(unit)s may fire %(count)s shells (declare a double shot or use quick "
                        "shot for two).", "count", {**who, "count": limit}))
                else:
                    self.bad(f"{path}.fire", ngettext(
                        "%(unit)s may fire %(count)s shell.", "%(unit)s may fire %(count)s shells.",
                        "count", {**who, "count": limit}))
            self.check_targets(unit, fire, f"{path}.fire")
            if unit["kind"] == "tank":
                shells_from_tanks += len(fire)
        out_shells_used = 0
        if quick is not None and quick["unit"]:
            unit = pos.unit(seat, quick["unit"])
            assert unit is not None
            if not 1 <= len(quick["fire"]) <= 2:
                self.bad("tokens.quick_shot.fire",
                         _("Quick shot fires one or two shells from the tank's cone."))
            if quick["unit"] == declare.get("double_shot"):
                self.bad("tokens.quick_shot",
                         _("A tank cannot use quick shot and double shot together."))
            if (seat, quick["unit"]) in pos.repairing or quick["unit"] == declare.get("repair"):
                self.bad("tokens.quick_shot", _("%(unit)s is being repaired and cannot fire."),
                         {"unit": label(quick["unit"])})
            if quick["unit"] in paid_by:
                self.bad("tokens.quick_shot", _("%(unit)s pays for an air strike shell."),
                         {"unit": label(quick["unit"])})
            self.check_targets(unit, quick["fire"], "tokens.quick_shot.fire")
            shells_from_tanks += len(quick["fire"])
            out_shells_used += 1
            if pos.out_tanks(seat) == 0:
                self.bad("tokens.quick_shot",
                         _("Quick shot needs the shell of one of your tanks that is out."))
        if "double_shot" in declare:
            out_shells_used += 1
            if pos.out_tanks(seat) == 0:
                self.bad("declare.double_shot",
                         _("Double shot needs one of your tanks to be out first."))
        if "repair" in declare:
            self.check_repair(declare["repair"])
        air = tokens.get("air_strike")
        if air is not None:
            out_shells_used += self.check_air_strike(air)
            shells_from_tanks += len(air["fire"])
        if out_shells_used > pos.out_tanks(seat) and pos.out_tanks(seat) > 0:
            self.bad("tokens", _("Tokens this round use %(used)s shells of out tanks, but only "
                                 "%(out)s of your tanks are out."),
                     {"used": out_shells_used, "out": pos.out_tanks(seat)})
        if pos.officer_loss_applies(seat):
            allowed = len(pos.active_tanks(seat)) + out_shells_used - 1
            if shells_from_tanks > allowed:
                self.bad("units", _("An officer went out last round: your tanks may fire at most "
                                    "%(allowed)s shells this round (one fewer than usual)."),
                         {"allowed": allowed})
        if "smoke" in tokens:
            self.check_smoke(tokens["smoke"]["at"])
        if "red_cross" in tokens:
            self.check_red_cross(tokens["red_cross"])

    def check_targets(self, unit: Unit, fire: list[str], path: str) -> None:
        for i, target in enumerate(fire):
            sq = board.parse(target)
            assert sq is not None
            reason = self.pos.fire_problem(unit, sq)
            if reason:
                self.bad(f"{path}.{i}", _("%(unit)s cannot fire at %(target)s: %(reason)s."),
                         {"unit": label(unit["name"]), "target": target, "reason": reason})

    def check_repair(self, name: str) -> None:
        pos, seat = self.pos, self.seat
        unit = pos.unit(seat, name)
        assert unit is not None
        sq = pos.sq(unit)
        ahead = board.step(sq, board.VECTORS[board.forward(seat)])
        who = {"unit": label(name)}
        if unit["hits"] != 1:
            self.bad("declare.repair", _("%(unit)s is not damaged."), who)
        elif not board.in_own_half(seat, sq):
            self.bad("declare.repair", _("%(unit)s must be in your own half to be repaired."), who)
        elif ahead is None or pos.terrain.berm_owner.get(ahead) != seat:
            self.bad("declare.repair", _("%(unit)s must stand right behind one of your berms."),
                     who)


def validate_orders(pos: Position, seat: int, sheet: Any) -> dict[str, Any]:
    """The normal form of ``seat``'s order sheet, or RuleError listing every problem."""
    return SheetReader(pos, seat).read(sheet)


def default_orders(pos: Position, seat: int) -> dict[str, Any]:
    """Every unit stays and does not fire."""
    return validate_orders(pos, seat, {})


def sheet_warnings(pos: Position, sheet: dict[str, Any]) -> list[Problem]:
    """Things in a valid sheet the player probably did not mean: a turn with stay, F or B (it is
    ignored); a Red Cross aimed at a square that is occupied now (it is placed only if the square
    is vacant at the end of the round)."""
    out = turn_warnings(sheet)
    place = sheet.get("tokens", {}).get("red_cross", {}).get("at")
    sq = board.parse(place)
    if sq is not None and pos.occupied(sq):
        out.append(
            Problem("tokens.red_cross.at", _("%(square)s is occupied now; the Red Cross is placed "
                                             "only if it is vacant at the end of the round."),
                    {"square": place})
        )
    return out


def turn_warnings(sheet: dict[str, Any]) -> list[Problem]:
    """A turn ordered with stay, F or B is ignored: say so."""
    out = []
    for name, order in sheet.get("units", {}).items():
        if order.get("turn") and order.get("move") not in board.DIAGONAL_MOVES:
            out.append(
                Problem(f"units.{name}.turn",
                        _("%(unit)s can only turn with a diagonal move (FL, FR, BL, BR); the turn "
                          "with %(move)s is ignored."),
                        {"unit": label(name), "move": order.get("move")})
            )
    return out
