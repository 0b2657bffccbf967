"""Final Strategy's position told in sentences for a screen reader (the match page's "The
position in words"): drawn from a seat's view only, so it says what that seat may see."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from engine.final_strategy import board
from games.final_strategy.words import bunker_pieces, corner_name


def _names(names: list[str]) -> str:
    return ", ".join(names) if names else _("none")


def position_words(view: dict[str, Any], seat: int | None) -> list[str]:
    if view["phase"] == "over":
        lines = [_("The game is over.")]
    elif view["to_move"] == seat:
        lines = [_("Turn %(turn)s: your move.") % {"turn": view["turn"]}]
    else:
        lines = [_("Turn %(turn)s: seat %(seat)s to move.") % {"turn": view["turn"],
                                                               "seat": view["to_move"]}]
    for s in range(1, view["seats"] + 1):
        key = str(s)
        pieces = [p for p in view["pieces"] if p["seat"] == s]
        troops = [p["at"] for p in pieces if p["kind"] == "troop"]
        kidnappers = [_("%(at)s (corner %(corner)s)") % {
            "at": p["at"], "corner": corner_name(p["corner"])}
            for p in pieces if p["kind"] == "kidnapper"]
        bombs = [p["at"] for p in pieces if p["kind"] == "bomb"]
        bunker = view["bunkers"].get(key, {"count": 0})
        who = (_("Seat %(seat)s (you)") if s == seat else _("Seat %(seat)s")) % {"seat": s}
        if s in view["removed"]:
            who = _("%(who)s, removed from the game") % {"who": who}
        line = " ".join([
            _("%(who)s: troops on %(troops)s; kidnappers on %(kidnappers)s; bombs on "
              "%(bombs)s.") % {"who": who, "troops": _names(troops),
                               "kidnappers": _names(kidnappers), "bombs": _names(bombs)},
            ngettext("%(count)s piece in the bunker.", "%(count)s pieces in the bunker.",
                     bunker["count"]) % {"count": bunker["count"]},
            _("Prisoners taken: %(prisoners)s. Score: %(score)s.") % {
                "prisoners": sum(view["prisoners"].get(key, {}).values()),
                "score": view["scores"].get(key, 0)}])
        if "troops" in bunker:  # the reader's own bunker: only they see how it is split
            line += " " + _("In your bunker: %(pieces)s.") % {"pieces": bunker_pieces(bunker)}
        lines.append(line)
    lines.append(_("Barriers: %(edges)s.") % {"edges": _names(sorted(
        view["barriers"], key=lambda e: board.EDGE_INDEX[e]))})
    lines.append(_("Formed squares: %(squares)s.") % {"squares": _names(view["formed"])})
    lines.append(_("Safe squares: %(safe)s. Neutral squares: %(neutral)s.") % {
        "safe": _names([board.SQUARE_NAMES[sq] for sq in sorted(board.SAFE)]),
        "neutral": _names([board.SQUARE_NAMES[sq] for sq in sorted(board.NEUTRAL)])})
    return lines
