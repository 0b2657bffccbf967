"""Tank Game's lessons: range, line of sight, dice, gold and the Council. Tank Game's options
hold no start position, so a lesson's ``scenario`` (tanks, walls, the coffer) is laid on the
started match here, at the opening of its first gameday."""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from django.utils.translation import gettext_lazy as _

from engine import Game

TANK_FIELDS = ("at", "lives", "ap", "gold", "range", "bounty", "status")
# A gameday open all day, every day, and no cooldown: a lesson is played at any moment.
NAMES = {1: "Ada", 2: "Bert", 3: "Corey"}
ALWAYS_OPEN = {"schedule": {"kind": "every", "minutes": 1440, "open_minutes": 1440},
               "cooldown_minutes": 0}


def lesson_start(game: Game, *, seats: int, options: Mapping[str, Any], seed: int,
                 now: datetime) -> Any:
    """The match started from ``options`` (less its ``scenario``), its first gameday opened at
    ``now``, then the scenario's tanks, walls and coffer put in place."""
    options = dict(options)
    position = options.pop("scenario", {})
    unknown = set(position) - {"tanks", "walls", "coffer"}
    if unknown:
        raise ValueError(f"unknown scenario fields: {sorted(unknown)}")
    state = game.start(seats, game.validate_options(options), seed)
    state = game.tick(state, now, random.Random(seed)).state
    if "walls" in position:
        state["walls"] = dict(position["walls"])
    for seat, fields in position.get("tanks", {}).items():
        tank = state["tanks"][str(seat)]
        if set(fields) - set(TANK_FIELDS):
            raise ValueError(f"unknown tank fields: {sorted(set(fields) - set(TANK_FIELDS))}")
        tank.update(copy.deepcopy(fields))
        if fields.get("status") in ("dead", "destroyed"):
            tank.update(lives=0, ap=0, gold=0, bounty=0,
                        durability=3 if fields["status"] == "dead" else 0)
            if fields["status"] == "destroyed":
                tank["at"] = None
            state["deaths"].append(int(seat))
    state["coffer"] = position.get("coffer", state["coffer"])
    return state


def scenario(tanks: dict[int, dict[str, Any]], walls: dict[str, int] | None = None,
             coffer: int = 0) -> dict[str, Any]:
    names = {str(seat): NAMES[seat] for seat in tanks}  # every seat of the lesson is listed
    return {**ALWAYS_OPEN, "names": names,
            "scenario": {"tanks": tanks, "walls": walls or {}, "coffer": coffer}}


LESSONS: list[dict[str, Any]] = [
    {
        "slug": "range",
        "title": _("Range"),
        "intro": _("You are Ada, on C6, with a range of 2: you may shoot at squares up to two "
                   "steps away in any direction, diagonals counting as one step. Bert is on E7 "
                   "and Corey on F6. Shoot at the one you can reach."),
        "seats": 3,
        "options": scenario({1: {"at": "C6"}, 2: {"at": "E7"}, 3: {"at": "F6"}}),
        "goal": {"orders": [{"type": "shoot", "at": "E7"}]},
        "hints": [_("Count the steps, a diagonal being one: F6 is three columns away."),
                  _("E7 is two columns and one row away: two steps. “shoot E7”.")],
        "solution": "shoot E7",
        "wrong": "shoot F6",
        "success": _("Right: E7 is within range 2."),
    },
    {
        "slug": "dice",
        "title": _("Closer means more dice"),
        "intro": _("A shot at a tank rolls one die for every step of range left over, plus "
                   "one: each die hits on one chance in two, and any hit takes a life. You are "
                   "Ada on C6, range 2. Bert is on D6, right next to you; Corey on E8, two "
                   "steps away. Take the shot with the best chance."),
        "seats": 3,
        "options": scenario({1: {"at": "C6"}, 2: {"at": "D6"}, 3: {"at": "E8"}}),
        "goal": {"orders": [{"type": "shoot", "at": "D6"}]},
        "hints": [_("At two steps you roll (2 − 2) + 1 = 1 die; next to you, (2 − 1) + 1 = 2."),
                  _("Shoot at your neighbour: “shoot D6”.")],
        "solution": "shoot D6",
        "wrong": "shoot E8",
        "success": _("Right: two dice give three chances in four to hit."),
    },
    {
        "slug": "line-of-sight",
        "title": _("Line of sight"),
        "intro": _("Walls and other tanks block shots: the line from the centre of your square "
                   "to the centre of the target's must not cross them. You are Ada on C6, range "
                   "2. Bert is on E6 behind a wall on D6; Corey is on E4. Shoot at the one you "
                   "can see."),
        "seats": 3,
        "options": scenario({1: {"at": "C6"}, 2: {"at": "E6"}, 3: {"at": "E4"}},
                            walls={"D6": 3}),
        "goal": {"orders": [{"type": "shoot", "at": "E4"}]},
        "hints": [_("The line to E6 runs straight through the wall on D6."),
                  _("The diagonal to E4 is clear: “shoot E4”.")],
        "solution": "shoot E4",
        "wrong": "shoot D6",
        "success": _("Right: a clear line to E4."),
    },
    {
        "slug": "upgrade-range",
        "title": _("Gold buys range"),
        "intro": _("Gold buys things: 3 gold an action point, 5 gold one more square of range. "
                   "You are Ada on C6 with 5 gold and 2 action points. Bert is on F6, three "
                   "steps away: out of your range 2. Make the shot possible and take it."),
        "seats": 2,
        "options": scenario({1: {"at": "C6", "gold": 5, "ap": 2}, 2: {"at": "F6"}}),
        "goal": {"outcome": [{"event": {"action": {"type": "shoot", "at": "F6"}}}]},
        "hints": [_("With range 3, F6 is in reach."),
                  _("Two actions, one per line: “upgrade range”, then “shoot F6”.")],
        "solution": "upgrade range\nshoot F6",
        "wrong": "buy ap",
        "success": _("Right: 5 gold, one more square of range, and the shot."),
    },
    {
        "slug": "council",
        "title": _("The Council"),
        "intro": _("You are Corey, and your tank is dead: you now sit on the Council, which "
                   "spends the coffer's gold. You are its only member, so your vote is a "
                   "majority. The coffer holds 3 gold, the price of a Stimulus: one more action "
                   "point for a living tank. Ada on C6 has one action point left; give Ada "
                   "another."),
        "seats": 3,
        "seat": 3,
        "options": scenario({1: {"at": "C6"}, 2: {"at": "J9"}, 3: {"at": "L1", "status": "dead"}},
                            coffer=3),
        "goal": {"outcome": [{"find": "tanks", "where": {"seat": 1}, "has": {"ap": 2}}]},
        "hints": [_("A Stimulus costs the coffer 3 gold and gives a living tank one action "
                    "point."),
                  _("Open the ballot and vote in one line: “stimulus Ada”.")],
        "solution": "stimulus Ada",
        "wrong": "stimulus Bert",
        "success": _("Right: the ballot passed at once and Ada has two action points."),
    },
]
