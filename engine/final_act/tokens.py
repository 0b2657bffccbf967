"""Action tokens on an order sheet: reading each token's use and the checks of where it may go.

The seven tokens and their sub-formats are documented with the order sheet in ``orders.py``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.base import gettext_noop as _
from engine.final_act import board
from engine.final_act.checks import SheetBase, short
from engine.final_act.units import ALL_UNITS, TOKENS

TOKEN_KEYS = {
    "air_strike": ("at", "fire", "paid_by"),
    "full_throttle": ("unit",),
    "quick_shot": ("unit", "fire"),
    "mine_clearing": ("at",),
    "smoke": ("at",),
    "quick_sand": ("at",),
    "red_cross": ("at", "activate"),
}


class TokenChecks(SheetBase):
    """The token part of an order sheet (mixed into the sheet reader)."""

    def tokens(self, raw: Any) -> dict[str, dict[str, Any]]:
        """The normal form of each token used, if it is one this side still holds."""
        out: dict[str, dict[str, Any]] = {}
        if raw is None:
            return out
        if not isinstance(raw, Mapping) or len(raw) > 20:
            self.bad("tokens", _("'tokens' must be an object mapping token names to their use."))
            return out
        available = self.pos.state["tokens"][str(self.seat)]
        for name, use in raw.items():
            path = f"tokens.{board.key_text(name)}"
            if name not in TOKENS:
                self.bad(path, _("Unknown token %(token)s; tokens: %(tokens)s."),
                         {"token": short(name), "tokens": ", ".join(TOKENS)})
                continue
            if not isinstance(use, Mapping):
                self.bad(path, _('The %(token)s token needs an object like {"at": "d4"}.'),
                         {"token": name})
                continue
            activating = name == "red_cross" and "activate" in use
            if activating:
                if self.seat not in self.pos.red_cross:
                    self.bad(path, _("You have no Red Cross on the board to activate."))
                    continue
            elif name not in available:
                self.bad(path, _("You have no %(token)s token to use."),
                         {"token": name.replace("_", " ")})
                continue
            before = len(self.problems)
            self.keys(use, TOKEN_KEYS[name], path)
            parsed: dict[str, Any] = {}
            if "at" in TOKEN_KEYS[name] and not activating:
                sq = self.square(use.get("at"), f"{path}.at")
                parsed["at"] = board.name(sq) if sq is not None else None
            if "fire" in TOKEN_KEYS[name]:
                fire = self.squares(use.get("fire", []), f"{path}.fire")
                parsed["fire"] = [board.name(s) for s in fire or []]
            if name in ("full_throttle", "quick_shot"):
                unit = self.own_unit(use.get("unit"), f"{path}.unit")
                parsed["unit"] = unit["name"] if unit else None
            if name == "air_strike":
                paid = use.get("paid_by", [])
                if not isinstance(paid, list) or len(paid) > 2:
                    self.bad(f"{path}.paid_by", _("'paid_by' must list at most 2 of your tanks."))
                else:
                    names = []
                    for i, who in enumerate(paid):
                        unit = self.own_unit(who, f"{path}.paid_by.{i}")
                        if unit is not None:
                            names.append(unit["name"])
                    parsed["paid_by"] = [n for n in ALL_UNITS if n in names]
                    if len(set(names)) != len(names):
                        self.bad(f"{path}.paid_by",
                                 _("A tank can pay for only one air strike shell."))
            if activating:
                if "at" in use:
                    self.bad(f"{path}.at",
                             _("Give either 'at' (placement) or 'activate', not both."))
                unit = self.own_unit(use.get("activate"), f"{path}.activate")
                parsed = {"activate": unit["name"] if unit else None}
            if len(self.problems) == before:
                out[name] = parsed
        return out

    def check_mine_clearing(self, use: dict[str, Any]) -> None:
        sq = board.parse(use["at"])
        assert sq is not None
        field = self.pos.terrain.mine.get(sq)
        if field is None:
            self.bad("tokens.mine_clearing.at", _("%(square)s is not a minefield square."),
                     {"square": use["at"]})
        elif field.owner != self.seat and not self.pos.has_tank_in_enemy_half(self.seat):
            self.bad("tokens.mine_clearing.at", _("Mine clearing on the enemy minefield needs one "
                                                  "of your tanks in the enemy half."))

    def check_air_strike(self, air: dict[str, Any]) -> int:
        """Check the air strike; return how many of its shells use out tanks' shells."""
        sq = board.parse(air["at"])
        if sq is None:
            return 0
        if board.row(self.seat, sq) != 1:
            self.bad("tokens.air_strike.at", _("%(square)s is not on your last line."),
                     {"square": air["at"]})
        if not 1 <= len(air["fire"]) <= 2:
            self.bad("tokens.air_strike.fire", _("An air strike fires one or two shells."))
        for i, target in enumerate(air["fire"]):
            tsq = board.parse(target)
            assert tsq is not None
            if tsq == sq or tsq % board.SIZE != sq % board.SIZE:
                self.bad(f"tokens.air_strike.fire.{i}",
                         _("Air strike shells land in file %(file)s, not on the airfield "
                           "%(airfield)s: %(target)s is not allowed."),
                         {"file": air["at"][0], "airfield": air["at"], "target": target})
        if len(air["paid_by"]) > len(air["fire"]):
            self.bad("tokens.air_strike.paid_by",
                     _("More tanks pay than the air strike has shells."))
        from_out = max(0, len(air["fire"]) - len(air["paid_by"]))
        if from_out > self.pos.out_tanks(self.seat):
            self.bad("tokens.air_strike.paid_by",
                     _("%(count)s air strike shell(s) must be paid by out tanks, but you have "
                       "%(out)s out; name tanks in 'paid_by' to pay instead."),
                     {"count": from_out, "out": self.pos.out_tanks(self.seat)})
        return from_out

    def check_smoke(self, at: str) -> None:
        sq = board.parse(at)
        assert sq is not None
        if self.pos.occupied(sq):
            self.bad("tokens.smoke.at", _("Smoke needs a vacant square; %(square)s is occupied."),
                     {"square": at})
        near = {n for n in board.neighbours(sq)}
        if not any(self.pos.sq(u) in near for u in self.pos.active(self.seat)):
            self.bad("tokens.smoke.at",
                     _("Smoke must be next to one of your units; %(square)s is not."),
                     {"square": at})

    def check_red_cross(self, use: dict[str, Any]) -> None:
        if "activate" in use:
            token = self.pos.red_cross[self.seat]
            if token["round"] >= self.pos.round:
                self.bad("tokens.red_cross.activate",
                         _("The Red Cross can be activated from the round after it was placed."))
            return
        sq = board.parse(use["at"])
        assert sq is not None
        if not board.in_own_half(self.seat, sq):
            self.bad("tokens.red_cross.at",
                     _("The Red Cross goes on your own half; %(square)s is not."),
                     {"square": use["at"]})
