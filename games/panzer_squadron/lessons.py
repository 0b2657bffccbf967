"""Panzer Squadron's lessons: facing and armour, range, cover, standing reactions and the
ambush. Seat 1 plays; the dice are fixed by the ``dice`` option (or the lesson's seed), so a
lesson always plays out the same way."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _


def tank(seat: int, name: str, card: str, at: str, facing: int, **more: Any) -> dict[str, Any]:
    return {"seat": seat, "name": name, "card": card, "at": at, "facing": facing, **more}


def scenario(tanks: list[dict[str, Any]], dice: list[int], initiative: int = 1,
             **terrain: list[str]) -> dict[str, Any]:
    return {"dice": dice, "scenario": {"size": [9, 10], "turn": 1, "initiative": initiative,
                                       "terrain": terrain, "tanks": tanks}}


DESTROYED_ONE = {"outcome": [{"path": "destroyed.1", "equals": 1}]}

LESSONS: list[dict[str, Any]] = [
    {
        "slug": "facing-and-armour",
        "title": _("Hit them from behind"),
        "intro": _("A tank's armour is thickest in front, thinner on the sides and thinnest "
                   "behind; which side a shell hits depends on where the target faces. Your "
                   "light tank L1 on e2 may fire once. Two mediums stand three hexes away: M1 "
                   "on c5 faces you, M2 on g5 faces away. Your die will show 40 (plus L1's "
                   "firepower 20). Destroy a tank."),
        "options": scenario([tank(1, "L1", "light", "e2", 12), tank(2, "M1", "medium", "c5", 6),
                             tank(2, "M2", "medium", "g5", 12)], dice=[40]),
        "goal": DESTROYED_ONE,
        "hints": [_("40 + 20 = 60 does not beat a medium's front armour (80), but beats its "
                    "rear (50)."),
                  _("Fire at the tank that shows you its back: “activate L1 fire g5”.")],
        "solution": "activate L1 fire g5",
        "wrong": "activate L1 fire c5",
        "success": _("Right: the rear armour gave way."),
    },
    {
        "slug": "range",
        "title": _("Range costs accuracy"),
        "intro": _("Beyond three hexes, every hex of distance takes 2 off the roll. Your light "
                   "tank L1 on e2 faces two mediums showing you their backs: M2 on g5 and M3 "
                   "on e9. Your die will show 35 (plus firepower 20); a medium's rear armour is "
                   "50. Destroy a tank."),
        "options": scenario([tank(1, "L1", "light", "e2", 12), tank(2, "M2", "medium", "g5", 12),
                             tank(2, "M3", "medium", "e9", 12)], dice=[35]),
        "goal": DESTROYED_ONE,
        "hints": [_("The far tank is seven hexes away: 8 off the roll leaves 47, short of 50."),
                  _("Fire at the near one, three hexes away: “activate L1 fire g5”.")],
        "solution": "activate L1 fire g5",
        "wrong": "activate L1 fire e9",
        "success": _("Right: close enough that distance cost nothing."),
    },
    {
        "slug": "cover",
        "title": _("Cover"),
        "intro": _("A target partly hidden by woods, a building or another tank is in cover: "
                   "its armour counts 10 more. Your light tank L1 on e2 sees two mediums that "
                   "show you their backs: M1 on c5, behind the woods on c4, and M2 on g5 in the "
                   "open. Your die will show 35 (plus firepower 20). Destroy a tank."),
        "options": scenario([tank(1, "L1", "light", "e2", 12), tank(2, "M1", "medium", "c5", 12),
                             tank(2, "M2", "medium", "g5", 12)], dice=[35], woods=["c4"]),
        "goal": DESTROYED_ONE,
        "hints": [_("Against M1 you would need more than 50 + 10 for cover + 2 for range."),
                  _("Fire at the tank in the open: “activate L1 fire g5”.")],
        "solution": "activate L1 fire g5",
        "wrong": "activate L1 fire c5",
        "success": _("Right: no cover, no extra armour."),
    },
    {
        "slug": "opportunity-fire",
        "title": _("Opportunity fire"),
        "intro": _("It is your opponent's move, and you may be away when they play it. A tank "
                   "not yet activated this turn fires at an enemy that moves into its sight, "
                   "if its standing reaction says so. Your light tank L1 on e2 is set to hold "
                   "fire. Seat 2's medium M1 on b6 is about to move to c5, four hexes from "
                   "you. Set L1's reaction so that it fires."),
        "options": scenario([tank(1, "L1", "light", "e2", 12,
                                  reaction={"mode": "hold", "max_range": None}),
                             tank(2, "M1", "medium", "b6", 4)], dice=[3, 70], initiative=2),
        "then": [{"seat": 2, "text": "activate M1 move"}, {"seat": 2, "text": "path c5 6"}],
        "goal": DESTROYED_ONE,
        "hints": [_("A reaction may carry a maximum range: M1 will stop four hexes away."),
                  _("Fire at the first tank that moves into sight, at any range: "
                    "“reaction L1 first”.")],
        "solution": "reaction L1 first",
        "wrong": "reaction L1 first max 2",
        "success": _("Right: L1 fired while M1 was moving, without you being there."),
    },
    {
        "slug": "ambush",
        "title": _("The ambush"),
        "intro": _("Your light tank L1 on e2 is your only tank, so you must activate it now. "
                   "Seat 2's medium M1 on b6 faces you, in cover behind the buildings: a shot "
                   "now is hopeless. Once activated, a tank can no longer fire at movers — "
                   "unless its action was to wait in ambush. M1 will then come out of cover."),
        "options": scenario([tank(1, "L1", "light", "e2", 12), tank(2, "M1", "medium", "b6", 4)],
                            dice=[4], building=["b4", "c4", "b5"]),
        "seed": 5,
        "then": [{"seat": 2, "text": "activate M1 move"}, {"seat": 2, "text": "path c6 4"}],
        "goal": DESTROYED_ONE,
        "hints": [_("A tank that fires or moves is done for the turn: it will not react."),
                  _("Wait for M1 to come out: “activate L1 ambush”.")],
        "solution": "activate L1 ambush",
        "wrong": "activate L1 fire b6",
        "success": _("Right: from ambush L1 fired as soon as M1 left its cover."),
    },
]
