"""Final Strategy's lessons: closing squares, chains, kidnappers, the bomb and the swap on a
safe square, each a scenario position where seat 1 plays one turn."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _


def troops(seat: int, *squares: str) -> list[dict[str, Any]]:
    return [{"seat": seat, "kind": "troop", "at": square} for square in squares]


def scenario(barriers: list[str], pieces: list[dict[str, Any]] | None = None
             ) -> dict[str, Any]:
    return {"scenario": {"turn": 1, "to_move": 1, "barriers": barriers,
                         "pieces": pieces or []}}


def troop_on(square: str, seat: int = 1) -> dict[str, Any]:
    """The goal's condition: a troop of ``seat`` stands on ``square``."""
    return {"find": "pieces", "where": {"at": square},
            "has": {"seat": seat, "kind": "troop"}}


# A corridor c3-d3-e3: walled above, below and at both ends, open between its three squares.
CORRIDOR = ["b3-c3", "c2-c3", "c3-c4", "d2-d3", "d3-d4", "e2-e3", "e3-e4", "e3-f3"]

LESSONS: list[dict[str, Any]] = [
    {
        "slug": "close-a-square",
        "title": _("Closing a square"),
        "intro": _("The square c3 has walls on three sides; only its east side, towards d3, is "
                   "open. Whoever places the fourth barrier of a square puts a troop on it at "
                   "once, and must then place again. Take c3, and finish your turn."),
        "options": scenario(["b3-c3", "c2-c3", "c3-c4"]),
        "goal": {"outcome": [troop_on("c3")]},
        "hints": [_("The missing side of c3 is the edge c3-d3."),
                  _("Close it with “wall c3-d3”, then place one more barrier somewhere "
                    "quiet, e.g. “wall h8-h9”.")],
        "solution": "wall c3-d3; wall h8-h9",
        "wrong": "wall h8-h9",
        "success": _("Right: the fourth wall took c3, and the turn went on until a barrier "
                     "closed nothing."),
    },
    {
        "slug": "chain",
        "title": _("A chain of squares"),
        "intro": _("A corridor runs from c3 to e3, walled all round but open inside. Each "
                   "square you close earns a troop and another placement, as long as each new "
                   "square closed touches the one closed before: a chain. Take all three "
                   "squares in one turn."),
        "options": scenario(CORRIDOR),
        "goal": {"outcome": [troop_on("c3"), troop_on("d3"), troop_on("e3")]},
        "hints": [_("Closing c3-d3 takes c3 and leaves d3 with three walls."),
                  _("“wall c3-d3; wall d3-e3” takes the three squares (the second barrier "
                    "closes two at once); end with a quiet barrier such as “wall h8-h9”.")],
        "solution": "wall c3-d3; wall d3-e3; wall h8-h9",
        "wrong": "wall c3-d3; wall h8-h9",
        "success": _("Right: one chain, three squares, three troops."),
    },
    {
        "slug": "kidnapper",
        "title": _("The kidnapper"),
        "intro": _("Seat 2's troops hold g7, h7 and g8. A kidnapper is placed on an empty "
                   "square and names one of its corners: the four squares around that corner "
                   "are its capture area, and every enemy troop there becomes your prisoner. "
                   "Place a kidnapper that takes all three."),
        "options": scenario(["f7-g7", "f8-g8", "g6-g7", "h6-h7", "h7-i7"],
                            troops(2, "g7", "h7", "g8")),
        "goal": {"outcome": [{"path": "prisoners.1.2", "equals": 3}]},
        "hints": [_("The only empty square whose corner touches all three is h8."),
                  _("From h8 the south-west corner covers g7, h7, g8 and h8: "
                    "“kidnapper h8 sw”.")],
        "solution": "kidnapper h8 sw",
        "wrong": "kidnapper h8 ne",
        "success": _("Right: three prisoners, and each one counts for your score."),
    },
    {
        "slug": "safe-squares",
        "title": _("Safe squares"),
        "intro": _("Seat 2 has troops on d8, e7 and e6. The centre squares (e5, f5, e6, f6) "
                   "and the squares next to the corners are safe: no kidnapper or bomb takes a "
                   "troop there. Take the two troops that can be taken, with one kidnapper."),
        "options": scenario(["d7-d8", "c8-d8"], troops(2, "d8", "e7", "e6")),
        "goal": {"outcome": [{"path": "prisoners.1.2", "equals": 2}]},
        "hints": [_("The troop on e6 is safe whatever you do: aim at d8 and e7 together."),
                  _("A kidnapper on d7 naming its north-east corner covers d7, e7, d8 and "
                    "e8: “kidnapper d7 ne”.")],
        "solution": "kidnapper d7 ne",
        "wrong": "kidnapper d6 ne",
        "success": _("Right: the safe square kept its troop; the other two are yours."),
    },
    {
        "slug": "swap",
        "title": _("The swap"),
        "intro": _("Seat 2's troops hold h8, h9 and i8, next to your troop on the safe square "
                   "i9. Every square of that corner is taken, so no kidnapper can be placed "
                   "there. Once a turn you may take back a troop of yours from a safe square "
                   "and put a kidnapper (or the bomb) in its place: it acts at once, and your "
                   "turn goes on. Take the three troops, then end your turn."),
        "options": scenario(["g8-h8", "g9-h9"], troops(2, "h8", "h9", "i8") + troops(1, "i9")),
        "goal": {"outcome": [{"path": "prisoners.1.2", "equals": 3}]},
        "hints": [_("A kidnapper on g8 or g9 reaches only two of the three troops."),
                  _("Swap your troop on i9 for a kidnapper naming its south-west corner, then "
                    "place a barrier: “swap i9 kidnapper sw; wall a2-b2”.")],
        "solution": "swap i9 kidnapper sw; wall a2-b2",
        "wrong": "kidnapper g8 ne",
        "success": _("Right: the swap put a kidnapper where no square was free."),
    },
]
