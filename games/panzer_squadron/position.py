"""Panzer Squadron's position told in sentences for a screen reader (the match page's "The
position in words"): drawn from a seat's view only, so a seat's standing reactions are told to
that seat alone."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from games.panzer_squadron.words import ACTIONS

CARDS = {"light": gettext_lazy("light"), "medium": gettext_lazy("medium"),
         "heavy": gettext_lazy("heavy")}
STATES = {"moving": gettext_lazy("in movement"), "ambush": gettext_lazy("in ambush"),
          "stationary": pgettext_lazy("tank state", "stationary")}
SIDES = {1: gettext_lazy("seat 1 (South)"), 2: gettext_lazy("seat 2 (North)")}
MODES = {"hold": gettext_lazy("hold fire"),
         "first": gettext_lazy("fire at the first visible mover"),
         "side-rear": gettext_lazy("fire only at side or rear shots")}


def _names(names: list[str]) -> str:
    return ", ".join(names) if names else _("none")


def position_words(view: dict[str, Any], seat: int | None) -> list[str]:
    to_move = view.get("to_move")
    if view.get("phase") == "over" or to_move is None:
        lines = [_("Turn %(turn)s; the game is over.") % {"turn": view["turn"]}]
    elif to_move == seat:
        lines = [_("Turn %(turn)s: your move.") % {"turn": view["turn"]}]
    else:
        lines = [_("Turn %(turn)s: %(side)s to move.") % {
            "turn": view["turn"], "side": SIDES.get(to_move, to_move)}]
    pending = view.get("pending")
    if pending:
        lines.append(_("%(tank)s chose to %(action)s: the dice show %(dice)s, %(points)s "
                       "movement points.") % {
            "tank": pending["tank"], "action": ACTIONS.get(pending["action"], pending["action"]),
            "dice": " + ".join(str(d) for d in pending["dice"]), "points": pending["points"]})
    for side in (1, 2):
        tanks = sorted((t for t in view["tanks"] if t["seat"] == side), key=lambda t: t["name"])
        told = []
        for t in tanks:
            if not t["alive"]:
                continue
            words = _("%(tank)s, %(card)s, on %(at)s facing %(facing)s o'clock, %(state)s") % {
                "tank": t["name"], "card": CARDS.get(t["card"], t["card"]), "at": t["at"],
                "facing": t["facing"], "state": STATES.get(t["state"], t["state"])}
            if t["activated"]:
                words = _("%(tank)s (activated this turn)") % {"tank": words}
            told.append(words)
        lost = [t["name"] for t in tanks if not t["alive"]]
        who = (_("You, %(side)s") if side == seat else _("Tanks of %(side)s")) % {
            "side": SIDES[side]}
        lines.append(_("%(who)s: %(tanks)s. Destroyed: %(lost)s.") % {
            "who": who, "tanks": _names(told), "lost": _names(lost)})
    terrain = view.get("terrain", {})
    lines.append(_("Woods: %(woods)s. Buildings: %(buildings)s. Water: %(water)s.") % {
        "woods": _names(terrain.get("woods", [])), "buildings": _names(terrain.get("building", [])),
        "water": _names(terrain.get("water", []))})
    mine = {t["name"] for t in view["tanks"] if t["seat"] == seat and t["alive"]}
    reactions = [_("%(tank)s: %(mode)s") % {
        "tank": name, "mode": MODES.get(r["mode"], r["mode"])} + (
        _(", at most %(range)s hexes away") % {"range": r["max_range"]}
        if r.get("max_range") else "")
        for name, r in sorted((view.get("reactions") or {}).items()) if name in mine]
    if reactions:  # only the reader's own, and only the reader sees them
        lines.append(_("Your standing reactions (only you see them): %(list)s.") % {
            "list": "; ".join(reactions)})
    return lines
