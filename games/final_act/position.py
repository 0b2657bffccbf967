"""Final Act's position told in sentences for a screen reader (the match page's "The position
in words"): drawn from a seat's view only (``engine.get("final-act").view(state, seat)``), as
the board is, so it never says more than the board shows."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from engine.final_act import board

SIDES = {1: gettext_lazy("Alpha"), 2: gettext_lazy("Delta")}
FACINGS = {"N": gettext_lazy("north"), "E": gettext_lazy("east"), "S": gettext_lazy("south"),
           "W": gettext_lazy("west")}
KINDS = {"tank": gettext_lazy("tank"), "at": gettext_lazy("AT unit"),
         "r": gettext_lazy("R unit")}
STATUSES = {"damaged": gettext_lazy("damaged"), "repairing": gettext_lazy("under repair"),
            "wreck": gettext_lazy("a wreck")}
TERRAIN = {"berm": gettext_lazy("berm"), "swamp": gettext_lazy("swamp"),
           "minefield": gettext_lazy("minefield")}
TOKENS = {"air_strike": gettext_lazy("air strike"), "full_throttle": gettext_lazy("full throttle"),
          "quick_shot": gettext_lazy("quick shot"), "mine_clearing": gettext_lazy("mine clearing"),
          "smoke": pgettext_lazy("Final Act token", "smoke"),
          "quick_sand": gettext_lazy("quick sand"), "red_cross": gettext_lazy("Red Cross")}
PHASES = {"setup": gettext_lazy("setup"), "orders": gettext_lazy("orders"),
          "over": gettext_lazy("the match is over")}


def _names(names: list[str]) -> str:
    return ", ".join(names) if names else _("none")


def _unit(unit: Mapping[str, Any]) -> str:
    kind = unit.get("kind")
    words = _("%(kind)s %(name)s") % {"kind": KINDS.get(kind, kind), "name": unit.get("name")}
    status = unit.get("status")
    if status in ("out", "broke_through") or board.parse(unit.get("at")) is None:
        return (_("%(unit)s broke through") if status == "broke_through"
                else _("%(unit)s is out")) % {"unit": words}
    if kind != "r":
        words = _("%(unit)s on %(at)s facing %(facing)s") % {
            "unit": words, "at": unit.get("at"),
            "facing": FACINGS.get(unit.get("facing"), unit.get("facing"))}
    else:
        words = _("%(unit)s on %(at)s") % {"unit": words, "at": unit.get("at")}
    if status in STATUSES:
        words = _("%(unit)s, %(status)s") % {"unit": words, "status": STATUSES[status]}
    return words


def position_words(view: Mapping[str, Any], seat: int | None) -> list[str]:
    phase = PHASES.get(view.get("phase"), view.get("phase") or "")
    if view.get("round"):
        lines = [_("Round %(round)s, %(phase)s.") % {"round": view["round"], "phase": phase}]
    else:
        lines = [_("Setup.")]
    if seat in SIDES:
        lines.append(_("You play %(side)s (rank 1 is Alpha's edge, rank 12 Delta's).") % {
            "side": SIDES[seat]})
    units = [u for u in view.get("units") or [] if isinstance(u, Mapping)]
    for side in (1, 2):
        lines.append(_("%(side)s: %(units)s.") % {"side": SIDES[side], "units": _names(
            [_unit(u) for u in units if u.get("seat") == side])})
    terrain = []
    for piece in view.get("terrain") or []:
        if not isinstance(piece, Mapping) or piece.get("owner") not in SIDES:
            continue
        words = _("%(side)s %(kind)s on %(squares)s") % {
            "side": SIDES[piece["owner"]],
            "kind": TERRAIN.get(piece.get("kind"), piece.get("kind")),
            "squares": ", ".join(str(sq) for sq in piece.get("squares") or [])}
        if piece.get("kind") == "minefield" and piece.get("passage"):
            words = _("%(piece)s, its passage on %(at)s heading %(facing)s") % {
                "piece": words, "at": piece["passage"],
                "facing": FACINGS.get(piece.get("arrow"), piece.get("arrow"))}
        terrain.append(words)
    lines.append(_("Terrain: %(pieces)s.") % {"pieces": _names(terrain)})
    tokens = [_("%(side)s %(token)s on %(at)s") % {
        "side": SIDES.get(t.get("seat"), "?"), "token": TOKENS.get(t.get("token"), t.get("token")),
        "at": t.get("at")} for t in view.get("board_tokens") or [] if isinstance(t, Mapping)]
    if tokens:
        lines.append(_("Tokens on the board: %(tokens)s.") % {"tokens": _names(tokens)})
    return lines
