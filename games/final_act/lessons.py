"""Final Act's lessons: fire cones, lines of fire, berms, minefields and shells that land after
movement, each a scenario position where Alpha (seat 1) has one round to play."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _


def unit(seat: int, name: str, at: str, facing: str | None = None, hits: int = 0
         ) -> dict[str, Any]:
    return {"seat": seat, "name": name, "at": at, "facing": facing or "NS"[seat - 1],
            "hits": hits}


def scenario(units: list[dict[str, Any]], terrain: list[dict[str, Any]] | None = None
             ) -> dict[str, Any]:
    return {"scenario": {"round": 1, "units": units, "terrain": terrain or []}}


def out(seat: int, name: str) -> dict[str, Any]:
    """The goal's condition: that unit is out of the game."""
    return {"find": "units", "where": {"seat": seat, "name": name}, "has": {"status": "out"}}


LESSONS: list[dict[str, Any]] = [
    {
        "slug": "fire-cone",
        "title": _("The fire cone"),
        "intro": _("Your commander C stands on e4 facing north. Delta's tank 2A, already "
                   "damaged once, waits on f8. A tank fires at one square of its cone: the "
                   "diamond in front of it, one to six squares ahead and up to three squares "
                   "to each side at its widest (three squares ahead). Knock 2A out this round."),
        "options": scenario([unit(1, "C", "e4"), unit(2, "2A", "f8", hits=1),
                             unit(2, "C", "l12")]),
        "goal": {"outcome": [out(2, "2A")]},
        "hints": [_("Shells land on squares, not on tanks: aim at the square 2A stands on."),
                  _("f8 is four squares ahead of C and one to the side: inside the cone. "
                    "Write “C fire f8”.")],
        "solution": "C fire f8",
        "wrong": "C fire f7",
        "success": _("Right: f8 is in C's cone, and a second hit puts a tank out."),
    },
    {
        "slug": "line-of-fire",
        "title": _("A clear line of fire"),
        "intro": _("Delta's damaged 2A sits on e8. Your commander C on e4 has it straight "
                   "ahead, but your own tank 1A stands on e6, in the way: a line of fire is "
                   "blocked by any tank it passes through, yours included. Tank 2 on g5 also "
                   "faces north. Put 2A out."),
        "options": scenario([unit(1, "C", "e4"), unit(1, "1A", "e6"), unit(1, "2", "g5"),
                             unit(2, "2A", "e8", hits=1), unit(2, "C", "l12")]),
        "goal": {"outcome": [out(2, "2A")]},
        "hints": [_("C cannot fire through 1A. Which other tank sees e8?"),
                  _("From g5, e8 is three squares ahead and two to the side, and nothing "
                    "stands between: “2 fire e8”.")],
        "solution": "2 fire e8",
        "wrong": "C fire e8",
        "success": _("Right: tank 2 had a clear line to e8."),
    },
    {
        "slug": "berm",
        "title": _("Firing from a berm"),
        "intro": _("Your commander C stands on a berm on e3, facing north. Delta's damaged 2A "
                   "is on e10, seven squares ahead, behind Delta's tank 1 on e7. A tank on a "
                   "berm is raised: nothing blocks its line of fire, and it reaches one square "
                   "further straight ahead. Put 2A out."),
        "options": scenario(
            [unit(1, "C", "e3"), unit(2, "1", "e7"), unit(2, "2A", "e10", hits=1),
             unit(2, "C", "l12")],
            [{"kind": "berm", "owner": 1, "squares": ["e3"]}]),
        "goal": {"outcome": [out(2, "2A")]},
        "hints": [_("Stay on the berm: fire is aimed from where a tank starts the round."),
                  _("From the berm C reaches e10, straight ahead, over Delta's tank 1: "
                    "“C fire e10”.")],
        "solution": "C fire e10",
        "wrong": "C fire e7",
        "success": _("Right: from a berm a tank sees over the others and one square further."),
    },
    {
        "slug": "minefield",
        "title": _("Through the minefield"),
        "intro": _("Delta's minefield covers b9, c9 and d9. Its one passage is c9, and its "
                   "arrow points north: a tank may cross only through c9, stepping in and out "
                   "in the arrow's direction. Your tank 1 is on c8 facing north, tank 2 on d8. "
                   "Bring a tank onto the passage this round."),
        "options": scenario(
            [unit(1, "1", "c8"), unit(1, "2", "d8"), unit(2, "C", "l12")],
            [{"kind": "minefield", "owner": 2, "squares": ["b9", "c9", "d9"],
              "passage": "c9", "arrow": "N"}]),
        "goal": {"outcome": [{"find": "units", "where": {"seat": 1}, "has": {"at": "c9"}}]},
        "hints": [_("Only c9 can be entered, and only by a step north."),
                  _("Tank 1 on c8 steps straight ahead into the passage: “1 F”.")],
        "solution": "1 F",
        "wrong": "1 FL",
        "success": _("Right: straight in along the arrow, and next round straight out."),
    },
    {
        "slug": "shells-after-movement",
        "title": _("Shells land after movement"),
        "intro": _("Every side's orders are revealed together: first all tanks move, then the "
                   "shells land. Delta's damaged 2A on f9 faces south and always advances. Your "
                   "commander C on e4 faces north. Where must the shell land to put 2A out?"),
        "options": scenario([unit(1, "C", "e4"), unit(2, "2A", "f9", hits=1),
                             unit(2, "C", "l12")]),
        "opponents": {2: "2A F"},
        "goal": {"outcome": [out(2, "2A")]},
        "hints": [_("By the time your shell lands, 2A has moved one square south."),
                  _("Aim where 2A will be, one square ahead of it: “C fire f8”.")],
        "solution": "C fire f8",
        "wrong": "C fire f9",
        "success": _("Right: you fired where the enemy would be, not where it was."),
    },
]
