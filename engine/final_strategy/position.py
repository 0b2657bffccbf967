"""A position as a mutable working object, built from the plain-JSON state and dumped back.

The state (JSON) keeps squares and edges by name; the working object keeps them as numbers
(see ``board``) so that a turn costs set lookups, not string work.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.final_strategy import board

TROOPS, KIDNAPPERS, BOMBS = 0, 1, 2
KIND_SLOT = {"troop": TROOPS, "kidnapper": KIDNAPPERS, "bomb": BOMBS}
SLOT_NAMES = ("troops", "kidnappers", "bombs")


Piece = dict[str, Any]  # {"seat", "kind", "at", "corner"?}, as in the state; never mutated


def make_piece(seat: int, kind: str, corner: str | None, sq: int) -> Piece:
    piece: Piece = {"seat": seat, "kind": kind, "at": board.SQUARE_NAMES[sq]}
    if corner is not None:
        piece["corner"] = corner
    return piece


@dataclass
class Position:
    seats: int
    turn: int = 1
    to_move: int | None = 1
    barriers: set[int] = field(default_factory=set)
    pieces: dict[int, Piece] = field(default_factory=dict)
    bunkers: dict[int, list[int]] = field(default_factory=dict)
    prisoners: dict[int, dict[int, int]] = field(default_factory=dict)
    removed: list[int] = field(default_factory=list)
    over: bool = False
    reason: str = ""

    # -- questions ------------------------------------------------------------------------
    def seat_numbers(self) -> range:
        return range(1, self.seats + 1)

    def remaining(self) -> list[int]:
        return [s for s in self.seat_numbers() if s not in self.removed]

    def is_closed(self, sq: int) -> bool:
        return board.SIDE_SETS[sq] <= self.barriers

    def formed(self) -> list[int]:
        barriers, pieces, sides = self.barriers, self.pieces, board.SIDE_SETS
        return [sq for sq in board.SQUARES if sides[sq] <= barriers and sq not in pieces]

    def empty_edges(self) -> list[int]:
        return [e for e in board.EDGES if e not in self.barriers]

    def empty_squares(self) -> list[int]:
        return [sq for sq in board.SQUARES if sq not in self.pieces]

    def bunker_count(self, seat: int) -> int:
        return sum(self.bunkers[seat])

    def can_move(self, seat: int) -> bool:
        """A legal turn exists: an empty edge, or a kidnapper or bomb and an empty square."""
        if len(self.barriers) < len(board.EDGES):
            return True
        bunker = self.bunkers[seat]
        return (bunker[KIDNAPPERS] + bunker[BOMBS]) > 0 and len(self.pieces) < len(board.SQUARES)

    def prisoners_taken(self, seat: int) -> int:
        return sum(self.prisoners.get(seat, {}).values())

    def score(self, seat: int) -> int:
        return self.prisoners_taken(seat) - self.bunker_count(seat)

    def copy(self) -> Position:
        return Position(
            seats=self.seats, turn=self.turn, to_move=self.to_move, barriers=set(self.barriers),
            pieces=dict(self.pieces),
            bunkers={s: list(b) for s, b in self.bunkers.items()},
            prisoners={s: dict(v) for s, v in self.prisoners.items()},
            removed=list(self.removed), over=self.over,
            reason=self.reason)

    # -- plain JSON ------------------------------------------------------------------------
    @classmethod
    def from_state(cls, state: dict[str, Any]) -> Position:
        index = board.SQUARE_INDEX
        pieces = {index[p["at"]]: p for p in state["pieces"]}
        return cls(
            seats=state["seats"], turn=state["turn"], to_move=state["to_move"],
            barriers=set(map(board.EDGE_INDEX.__getitem__, state["barriers"])),
            pieces=pieces,
            bunkers={int(s): [b["troops"], b["kidnappers"], b["bombs"]]
                     for s, b in state["bunkers"].items()},
            prisoners={int(s): {int(v): n for v, n in by.items()}
                       for s, by in state["prisoners"].items()},
            removed=list(state["removed"]),
            over=state["over"], reason=state["reason"])

    def to_state(self, base: dict[str, Any]) -> dict[str, Any]:
        """The position as plain JSON, keeping ``base``'s other keys (options, seed)."""
        return {
            **base,
            "seats": self.seats, "turn": self.turn, "to_move": self.to_move,
            "barriers": [board.EDGE_NAMES[e] for e in board.sort_edges(self.barriers)],
            "pieces": [self.pieces[sq] for sq in sorted(self.pieces)],
            "bunkers": {str(s): dict(zip(SLOT_NAMES, b, strict=True))
                        for s, b in sorted(self.bunkers.items())},
            "prisoners": {str(s): {str(v): n for v, n in sorted(by.items()) if n}
                          for s, by in sorted(self.prisoners.items())
                          if any(by.values())},
            "removed": sorted(self.removed),
            "over": self.over, "reason": self.reason,
        }
