"""Final Strategy (see shared/rules/final-strategy.md): 2 to 4 seats on a 10 x 10 board of
barriers, troops, kidnappers and bombs. ``engine.get("final-strategy")`` returns the game.

Data formats (the engine's public surface):

- Squares ``"a1"`` .. ``"j10"`` (column a-j west to east, row 1-10 south to north). An edge is
  the two squares it separates, lower first (lower column, then lower row): ``"e5-e6"``,
  ``"e5-f5"``; input may give them in either order. Corners ``"ne" "nw" "se" "sw"``.
- Options: ``{"turn_limit": null | n, "scenario": POSITION}``;
  POSITION is ``{"turn", "to_move", "barriers", "pieces", "bunkers", "prisoners",
  "removed"}`` (pieces ``{"seat", "kind": "troop"|"kidnapper"|"bomb", "at", "corner"?}``;
  a seat missing from ``bunkers`` gets its allotment less its pieces and prisoners held).
- A turn: ``{"steps": [STEP, ...]}`` with steps ``{"occupy": SQ}``, ``{"barrier": EDGE}``,
  ``{"kidnapper": SQ, "corner": C}``, ``{"bomb": SQ}``, ``{"swap": SQ, "for": "kidnapper" |
  "bomb", "corner": C}``; refusals name ``steps.N``. The default move adds ``"default": true``
  (the engine counts no misses: the match's policy does, and takes a seat out with
  ``remove_seats``).
- ``view(state, seat)``: ``phase, turn, to_move, seats, barriers, pieces, formed, bunkers
  (split only for its own seat, else {"count"}), prisoners, scores, removed, reason``.
- Events: ``occupy barrier close capture return kidnapper bomb clear swap pass remove end``.
- Text: ``occupy e5; wall e5-e6; wall e6-f6; kidnapper c3 ne`` (see ``text``).
"""

from engine import register
from engine.final_strategy.game import FinalStrategy

GAME = register(FinalStrategy())

__all__ = ["GAME", "FinalStrategy"]
