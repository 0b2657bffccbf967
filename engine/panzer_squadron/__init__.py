"""Panzer Squadron (shared/rules/panzer-squadron.md): two seats, five tanks each on a hex map,
alternating activations with D4 movement rolls, d100 fire, standing reactions.

``engine.get("panzer-squadron")`` returns the registered game. Its public surface, exactly as
the rules file's "Data formats":

Hexes are pointy-top, named column letter + row number (``"c4"``; a.. west to east, 1..
south to north); even rows sit half a hex further east. Directions are clock hours, 12 north;
a tank faces one of the corners 12, 2, 4, 6, 8, 10; neighbours lie at the odd hours.

Options (all optional)::

    {"map": "default" | "river", "turn_limit": 12 | null, "dice": [4, 2, 57],
     "scenario": {"size": [15, 11], "turn": 1, "initiative": 1,
                  "terrain": {"woods": [...], "building": [...], "water": [...]},
                  "tanks": [{"seat": 1, "name": "M1", "card": "medium", "at": "c4",
                             "facing": 12, "state": "stationary", "activated": false,
                             "reaction": {"mode": "first", "max_range": null}}],
                  "destroyed": {"1": 0, "2": 0}}}

``dice`` are used in order before the seeded random (each d4 or d100 takes the next one):
an activation's movement dice, then each opportunity shot in the order fired, then its own shot.

Submissions (sequential phases, ``apply`` plays them at once)::

    {"activate": "M1", "action": "move" | "move-fire" | "fire" | "ambush", "target": HEX}
    {"path": [{"move": HEX, "face": F} | {"reverse": HEX, "face": F} | {"turn": F}, ...],
     "target": HEX | null, "end": "moving" | "stopped"}
    {"reactions": {"H1": {"mode": "hold" | "first" | "side-rear", "max_range": 6 | null}}}

The third is an out-of-turn setting: either seat, any time before the end; it opens no phase and
changes no turn, and only its author's ``view`` shows it.

``view(state, seat)``: phase ("activate" | "path" | "over"), turn, initiative, to_move, size,
terrain, tanks (seat, name, card, at, facing, state, activated, alive), pending (tank, action,
dice, points — or null), reactions (the viewer's own tanks), destroyed (per seat, tanks it
destroyed), turn_limit, result.

Events (dicts with "type" and a sentence in "text"): activate, roll (dice, points), turn, move,
reverse, fire (tank, target, at, roll, needed, arc, cover, distance, hit, opportunity),
destroyed, turn_end, end.

Text grammar (e-mail): ``activate M1 move-fire`` / ``activate M1 fire e7``;
``path c5 12, d6 2, turn 4, reverse c4 12; fire e7; end moving`` (``path none`` for no step);
``reaction H1 side-rear max 6``. Lines or ``;`` separate clauses.
"""

from engine import register
from engine.panzer_squadron.game import PanzerSquadron

GAME = register(PanzerSquadron())

__all__ = ["GAME", "PanzerSquadron"]
