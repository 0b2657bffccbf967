"""Terrain on the board: berms, swamps and minefields, and whether a step may cross them."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from engine.base import Text
from engine.base import gettext_noop as _
from engine.final_act import board


@dataclass(frozen=True)
class Minefield:
    owner: int
    squares: frozenset[int]
    passage: int
    arrow: str


class Terrain:
    """An index over the state's ``terrain`` list."""

    def __init__(self, pieces: Iterable[Mapping[str, Any]]) -> None:
        self.berm_owner: dict[int, int] = {}
        self.swamp: set[int] = set()
        self.mine: dict[int, Minefield] = {}
        self.minefields: list[Minefield] = []
        for piece in pieces:
            squares = [board.parse(s) for s in piece["squares"]]
            cells = [s for s in squares if s is not None]
            if piece["kind"] == "berm":
                for sq in cells:
                    self.berm_owner[sq] = int(piece["owner"])
            elif piece["kind"] == "swamp":
                self.swamp.update(cells)
            elif piece["kind"] == "minefield":
                passage = board.parse(piece["passage"])
                field = Minefield(
                    int(piece["owner"]), frozenset(cells), passage or 0, piece["arrow"]
                )
                self.minefields.append(field)
                for sq in cells:
                    self.mine[sq] = field

    def is_berm(self, sq: int) -> bool:
        return sq in self.berm_owner

    def blocks_standing(self, sq: int) -> bool:
        """No unit may stand here: a swamp, or a minefield square other than its passage."""
        if sq in self.swamp:
            return True
        field = self.mine.get(sq)
        return field is not None and field.passage != sq

    def step_problem(self, frm: int, to: int, cleared: Collection[int] = ()) -> Text | None:
        """Why a one-square step from ``frm`` to ``to`` is not allowed by terrain, or None.

        ``cleared`` holds minefield squares the mover may cross in any direction (mine clearing).
        """
        if to in self.swamp:
            return Text(_("%(square)s is a swamp"), {"square": board.name(to)})
        fx, fy = board.coords(frm)
        tx, ty = board.coords(to)
        vector = (tx - fx, ty - fy)
        for sq, entering in ((to, True), (frm, False)):
            field = self.mine.get(sq)
            if field is None or sq in cleared:
                continue
            if sq != field.passage or board.VECTORS[field.arrow] != vector:
                if entering or sq == field.passage:
                    return Text(_("%(square)s is in a minefield, which may only be crossed "
                                  "through its passage %(passage)s heading %(arrow)s"),
                                {"square": board.name(sq), "passage": board.name(field.passage),
                                 "arrow": field.arrow})
                return Text(_("it cannot leave the minefield at %(square)s"),
                            {"square": board.name(sq)})
        return None
