"""Panzer Squadron's events told in the reader's language (gettext), a sentence each, from the
event's data (formats: the engine's ``rules`` module; the engine's English ``text`` is only the
fallback for an event this module does not know)."""

from __future__ import annotations

from typing import Any

from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext_lazy

ACTIONS = {"move": gettext_lazy("move"), "move-fire": gettext_lazy("move and fire"),
           "fire": gettext_lazy("fire"), "ambush": gettext_lazy("lie in ambush")}
ARCS = {"front": gettext_lazy("front"), "side": gettext_lazy("side"),
        "rear": gettext_lazy("rear")}
CARDS = {"heavy": pgettext_lazy("tank card", "heavy"),
         "medium": pgettext_lazy("tank card", "medium"),
         "light": pgettext_lazy("tank card", "light")}
STATES = {"stationary": pgettext_lazy("tank state", "stationary"),
          "moving": pgettext_lazy("tank state", "moving"),
          "ambush": pgettext_lazy("tank state", "in ambush")}
REACTIONS = {"hold": gettext_lazy("hold fire"),
             "first": gettext_lazy("fire at the first visible mover"),
             "side-rear": gettext_lazy("fire only at side or rear shots")}


def action_word(action: str) -> str:
    """An activation's action ("move-fire") in words ("move and fire")."""
    return str(ACTIONS.get(action, action))


def card_word(card: str) -> str:
    """A tank's card ("heavy") in the reader's language."""
    return str(CARDS.get(card, card))


def state_word(state: str) -> str:
    """A tank's state ("stationary", "moving", "ambush") in the reader's language."""
    return str(STATES.get(state, state))


def reaction_word(mode: str) -> str:
    """A standing reaction's mode ("side-rear") in words."""
    return str(REACTIONS.get(mode, mode))


def _tank(event: dict[str, Any], key: str, reader: int | None, seat: Any) -> str:
    name = str(event.get(key, ""))
    if reader is not None and seat == reader:
        return _("your %(tank)s") % {"tank": name}
    return name


def event_line(e: dict[str, Any], reader: int | None) -> str | None:
    """One event as a sentence (None: nothing to tell)."""
    kind, seat = e.get("type"), e.get("seat")
    tank = _tank(e, "tank", reader, seat)
    if kind == "activate":
        return _("%(tank)s is activated to %(action)s.") % {
            "tank": tank, "action": ACTIONS.get(e.get("action"), e.get("action"))}
    if kind == "roll":
        dice = " + ".join(str(d) for d in e.get("dice", []))
        return ngettext("%(tank)s rolls %(dice)s: %(points)s movement point.",
                        "%(tank)s rolls %(dice)s: %(points)s movement points.",
                        e.get("points", 0)) % {"tank": tank, "dice": dice,
                                               "points": e.get("points", 0)}
    if kind == "turn":
        return _("%(tank)s turns to face %(facing)s o'clock on %(at)s.") % {
            "tank": tank, "facing": e.get("facing"), "at": e.get("at")}
    if kind == "move":
        return _("%(tank)s moves from %(from)s to %(to)s, facing %(facing)s o'clock.") % {
            "tank": tank, "from": e.get("from"), "to": e.get("to"), "facing": e.get("facing")}
    if kind == "reverse":
        return _("%(tank)s reverses from %(from)s to %(to)s, facing %(facing)s o'clock.") % {
            "tank": tank, "from": e.get("from"), "to": e.get("to"), "facing": e.get("facing")}
    if kind == "fire":
        values = {"tank": tank, "target": e.get("target"), "at": e.get("at"),
                  "arc": ARCS.get(e.get("arc"), e.get("arc")), "range": e.get("distance"),
                  "roll": e.get("roll"), "needed": e.get("needed")}
        if e.get("opportunity"):
            shot = _("%(tank)s takes an opportunity shot at %(target)s on %(at)s") % values
        else:
            shot = _("%(tank)s fires at %(target)s on %(at)s") % values
        where = (_("%(arc)s armour, in cover, range %(range)s") if e.get("cover")
                 else _("%(arc)s armour, range %(range)s")) % values
        outcome = (_("rolls %(roll)s, needing more than %(needed)s: a hit") if e.get("hit")
                   else _("rolls %(roll)s, needing more than %(needed)s: a miss")) % values
        return f"{shot} ({where}) — {outcome}."
    if kind == "destroyed":
        return _("%(tank)s is destroyed on %(at)s by %(by)s.") % {
            "tank": tank, "at": e.get("at"), "by": e.get("by")}
    if kind == "turn_end":
        return _("Turn %(turn)s ends.") % {"turn": e.get("turn")}
    if kind == "end":
        ranking = e.get("ranking") or []
        if len(ranking) == 1:
            return _("The match ends in a draw.")
        winner = ranking[0][0] if ranking and ranking[0] else None
        if reader is not None and winner == reader:
            return _("The match is over: you win.")
        return _("The match is over: seat %(seat)s wins.") % {"seat": winner}
    text = e.get("text")
    return text if isinstance(text, str) else None


def event_lines(events: list[dict[str, Any]], reader: int | None) -> list[str]:
    """A line for each event the reader should know about."""
    lines = []
    for event in events:
        if isinstance(event, dict):
            line = event_line(event, reader)
            if line:
                lines.append(capfirst(line))
    return lines
