"""Final Strategy told in the reader's language (gettext): a turn's events, the notes under the
board in e-mails. The engine's own English text stays the reference for the grammar."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from engine import Problem
from engine.final_strategy.board_text import diagram
from games.words import problem_message


def corner_name(corner: str) -> str:
    return {"ne": _("north-east"), "nw": _("north-west"), "se": _("south-east"),
            "sw": _("south-west")}.get(corner, corner)


def _who(seat: Any, reader: int | None) -> str:
    if reader is not None and seat == reader:
        return _("You")
    return _("Seat %(seat)s") % {"seat": seat}


def event_lines(events: list[dict[str, Any]], reader: int | None) -> list[str]:
    """A line for each event the reader should know about."""
    lines = []
    for e in events:
        if not isinstance(e, dict):
            continue
        kind, who = e.get("type"), _who(e.get("seat"), reader)
        values = {"who": who, **{k: v for k, v in e.items() if isinstance(v, str | int)}}
        if kind == "barrier":
            lines.append(_("%(who)s placed a barrier on %(edge)s.") % values)
        elif kind == "close":
            lines.append(_("%(who)s walled in %(squares)s.") % {
                **values, "squares": ", ".join(e["squares"])})
        elif kind == "occupy":
            lines.append(_("%(who)s occupied %(at)s.") % values)
        elif kind == "kidnapper":
            lines.append(_("%(who)s placed a kidnapper on %(at)s, corner %(corner)s.") % {
                **values, "corner": corner_name(e["corner"])})
        elif kind == "bomb":
            lines.append(_("%(who)s placed a bomb on %(at)s.") % values)
        elif kind == "capture":
            lines.append(_("%(who)s took seat %(victim)s's troop on %(at)s prisoner.") % values)
        elif kind == "return":
            lines.append(_("The troop on %(at)s went back to its bunker (%(who)s).") % values)
        elif kind == "clear" and e["edges"]:
            lines.append(ngettext("The bomb on %(at)s removed %(count)s barrier.",
                                  "The bomb on %(at)s removed %(count)s barriers.",
                                  len(e["edges"])) % {**values, "count": len(e["edges"])})
        elif kind == "swap":
            piece = _("a kidnapper") if e["for"] == "kidnapper" else _("a bomb")
            lines.append(_("%(who)s swapped the troop on %(at)s for %(piece)s.") % {
                **values, "piece": piece})
        elif kind == "pass":
            lines.append(_("%(who)s could not move and was skipped.") % values)
        elif kind == "remove":
            lines.append(_("%(who)s missed too many turns and left the game; the troops stay "
                           "as neutral obstacles.") % values)
        elif kind == "end":
            lines.append(_("The game is over: %(reason)s.") % {"reason": reason_text(e["reason"])})
    return lines


def reason_text(reason: str) -> str:
    """The engine's end reasons in the reader's language."""
    if reason.startswith("seat ") and reason.endswith("'s bunker is empty"):
        seat = reason.split()[1].split("'")[0]
        return _("seat %(seat)s's bunker is empty") % {"seat": seat}
    if reason.startswith("the turn limit ("):
        return _("the turn limit (%(limit)s) was reached") % {
            "limit": reason[len("the turn limit ("):].split(")")[0]}
    return {"no player can move": _("no player can move"),
            "fewer than two seats are left": _("fewer than two seats are left")}.get(reason,
                                                                                    reason)


def board_text(view: dict[str, Any]) -> str:
    """The board for a plain-text e-mail: the ASCII grid and notes in the reader's language."""
    lines = diagram(view)
    kidnappers = [f"{p['at']} {p['corner']}" for p in view["pieces"]
                  if p["kind"] == "kidnapper"]
    if kidnappers:
        lines.append(_("Kidnappers (square, corner): %(list)s") % {"list": ", ".join(kidnappers)})
    lines.append(_("1-4: a seat's troop   K1: seat 1's kidnapper   B1: seat 1's bomb   "
                   "o: walled in, empty   *: safe square   ~: neutral square   "
                   "| and ---: barriers"))
    for s, b in sorted(view["bunkers"].items(), key=lambda kv: int(kv[0])):
        values = {"seat": s, "count": b["count"], "score": view["scores"][s]}
        if "troops" in b:
            line = _("Seat %(seat)s: bunker %(count)s (%(pieces)s), score %(score)s") % {
                **values, "pieces": bunker_pieces(b)}
        else:
            line = _("Seat %(seat)s: bunker %(count)s, score %(score)s") % values
        if int(s) in view["removed"]:
            line += " " + _("[removed]")
        lines.append(line)
    if view["to_move"] is not None:
        lines.append(_("Turn %(turn)s: seat %(seat)s to move.") % {
            "turn": view["turn"], "seat": view["to_move"]})
    else:
        lines.append(_("The game is over: %(reason)s.") % {"reason": reason_text(view["reason"])})
    return "\n".join(lines)


def bunker_pieces(bunker: dict[str, Any]) -> str:
    """What a bunker holds, counted ("36 troops, 3 kidnappers, 1 bomb")."""
    return ", ".join([
        ngettext("%(count)s troop", "%(count)s troops", bunker["troops"])
        % {"count": bunker["troops"]},
        ngettext("%(count)s kidnapper", "%(count)s kidnappers", bunker["kidnappers"])
        % {"count": bunker["kidnappers"]},
        ngettext("%(count)s bomb", "%(count)s bombs", bunker["bombs"])
        % {"count": bunker["bombs"]}])


def orders_help() -> str:
    return _("Write your turn as steps, one per line or separated by semicolons: occupy SQ, "
             "wall SQ-SQ, kidnapper SQ CORNER, bomb SQ, swap SQ kidnapper CORNER, swap SQ bomb. "
             "Corners: ne, nw, se, sw. Example: occupy e5; wall e5-e6; wall e6-f6; "
             "kidnapper c3 ne")


def step_lines(text: str) -> list[int]:
    """The line number of each step written in ``text``, in order (as the grammar reads it)."""
    numbers = []
    for number, line in enumerate(str(text).splitlines(), start=1):
        line = line.strip()
        if not line or line[0] in "#>":
            continue
        numbers.extend(number for part in line.split(";") if part.strip())
    return numbers


def problem_lines(problems: Iterable[Problem], text: str) -> list[str]:
    lines = step_lines(text)
    out = []
    for problem in problems:
        where = problem.path or ""
        number: int | None = None
        if where.startswith("line "):
            number = int(where.split()[1]) if where.split()[1].isdigit() else None
        elif where.startswith("steps.") and where[6:].isdigit() and lines:
            number = lines[min(int(where[6:]), len(lines) - 1)]
        if number is not None:
            out.append(_("Line %(line)s: %(message)s") % {"line": number,
                                                          "message": problem_message(problem)})
        else:
            out.append(f"{where or _('The turn')}: {problem_message(problem)}")
    return out
