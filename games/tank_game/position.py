"""Tank Game's position told in sentences for a screen reader (the play area's "The position in
words"): drawn from a seat's view only, so a Council vote is told to its voter alone."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games.words import say

DECREES = {"stimulus": gettext_lazy("Stimulus"), "bounty": gettext_lazy("Bounty"),
           "grant_life": gettext_lazy("Grant Life")}


def _names(names: list[str]) -> str:
    return ", ".join(names) if names else _("none")


def _tank(t: dict[str, Any], seat: int | None) -> str:
    who = (_("Your tank %(name)s") if t.get("seat") == seat else
           _("Tank %(name)s (seat %(seat)s)")) % {"name": say(t.get("name")), "seat": t.get("seat")}
    if t.get("status") == "alive":
        line = ngettext("%(who)s on %(at)s: %(lives)s life", "%(who)s on %(at)s: %(lives)s lives",
                        t.get("lives") or 0) % {"who": who, "at": t.get("at"),
                                                "lives": t.get("lives")}
        line += ", " + _("%(ap)s AP, %(gold)s gold, range %(range)s") % t
        if t.get("bounty"):
            line += ", " + _("bounty %(bounty)s") % t
        return line + "."
    if t.get("status") == "dead":
        return _("%(who)s on %(at)s is dead (durability %(durability)s).") % {
            "who": who, "at": t.get("at"), "durability": t.get("durability") or 0}
    return _("%(who)s is destroyed.") % {"who": who}


def position_words(view: dict[str, Any], seat: int | None) -> list[str]:
    board = view.get("board") or {}
    lines = []
    if view.get("gameday"):
        lines.append(_("Gameday %(number)s of the match.") % {"number": view.get("gamedays")})
    lines += [_tank(t, seat) for t in view.get("tanks") or []]
    walls = [_("%(square)s (durability %(durability)s)") % {"square": sq, "durability": d}
             for sq, d in sorted((board.get("walls") or {}).items())]
    lines.append(_("Walls: %(walls)s.") % {"walls": _names(walls)})
    mines = [" + ".join(group) if isinstance(group, list) else str(group)
             for group in board.get("mines") or []]
    lines.append(_("Gold mines: %(mines)s.") % {"mines": _names(mines)})
    council = view.get("council") or {}
    members = [_("%(name)s (weight %(weight)s)") % {**m, "name": say(m.get("name"))}
               for m in council.get("members") or []]
    lines.append(_("Council: %(members)s; the coffer holds %(coffer)s gold.") % {
        "members": _names(members), "coffer": council.get("coffer", 0)})
    names = {t.get("seat"): say(t.get("name")) for t in view.get("tanks") or []}
    for ballot in council.get("ballots") or []:
        if ballot.get("status") != "open":
            continue
        tallies = [_("%(name)s: weight %(weight)s") % {
            "name": names.get(t.get("target"), t.get("target")), "weight": t.get("weight")}
            for t in ballot.get("tallies") or []]
        line = _("Open ballot %(id)s (%(title)s): %(tallies)s.") % {
            "id": ballot.get("id"),
            "title": DECREES.get(ballot.get("decree"), ballot.get("title")),
            "tallies": _names(tallies)}
        vote = ballot.get("my_vote")
        if vote:  # the reader's own vote: nobody else is told it
            line += " " + _("Your vote: %(name)s.") % {
                "name": names.get(vote.get("target"), vote.get("target"))}
        lines.append(line)
    return lines
