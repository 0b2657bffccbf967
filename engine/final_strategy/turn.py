"""One player's turn, step by step: occupy, barriers with chains, kidnappers, bombs, the swap.

``Turn`` applies steps to a working ``Position`` and records events; ``StepRefused`` says why a
step may not be taken now. The end of the turn (next seat, passes, end of the game) is in
``end_of_turn``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.base import Text
from engine.base import gettext_noop as _
from engine.final_strategy import board
from engine.final_strategy.position import BOMBS, KIDNAPPERS, TROOPS, Position, make_piece

Event = dict[str, Any]
Step = dict[str, Any]


class StepRefused(Exception):
    """A step that is not well formed or not legal at this point of the turn (``text`` says
    why, for the portal to translate)."""

    def __init__(self, message: str | Text, params: Mapping[str, Any] | None = None) -> None:
        self.text = message if isinstance(message, Text) else Text(message, dict(params or {}))
        super().__init__(str(self.text))


def normalize_step(raw: Any) -> Step:
    """The canonical form of one step, or StepRefused saying what is wrong with its shape."""
    if not isinstance(raw, Mapping):
        raise StepRefused(_('A step is an object such as {"barrier": "e5-e6"}.'))
    kinds = [k for k in ("occupy", "barrier", "kidnapper", "bomb", "swap") if k in raw]
    if len(kinds) != 1:
        raise StepRefused(_("A step names exactly one of occupy, barrier, kidnapper, bomb, swap."))
    kind = kinds[0]
    allowed = {"occupy": {"occupy"}, "barrier": {"barrier"}, "bomb": {"bomb"},
               "kidnapper": {"kidnapper", "corner"}, "swap": {"swap", "for", "corner"}}[kind]
    extra = sorted(str(k) for k in raw if k not in allowed)
    if extra:
        raise StepRefused(_("Unknown field(s) in a %(kind)s step: %(extra)s."),
                          {"kind": kind, "extra": ', '.join(extra)})
    if kind == "barrier":
        edge = board.parse_edge(raw["barrier"])
        if edge is None:
            raise StepRefused(_("%(barrier)s is not an edge between two adjacent squares (write "
                                "it like e5-e6)."),
                              {"barrier": repr(raw['barrier'])})
        return {"barrier": board.EDGE_NAMES[edge]}
    sq = board.parse_square(raw[kind])
    if sq is None:
        raise StepRefused(_("%(square)s is not a square (a1 to j10)."),
                          {"square": repr(raw[kind])})
    step: Step = {kind: board.SQUARE_NAMES[sq]}
    piece = raw.get("for") if kind == "swap" else kind
    if kind == "swap":
        if piece not in ("kidnapper", "bomb"):
            raise StepRefused(_('A swap is "for" a "kidnapper" or a "bomb".'))
        step["for"] = piece
    if piece == "kidnapper":
        corner = raw.get("corner")
        if corner not in board.CORNERS:
            raise StepRefused(_("A kidnapper names its corner: ne, nw, se or sw."))
        step["corner"] = corner
    elif "corner" in raw:
        raise StepRefused(_("Only a kidnapper names a corner."))
    return step


class Turn:
    """The turn of ``seat`` in progress on ``pos`` (which it changes in place)."""

    def __init__(self, pos: Position, seat: int) -> None:
        self.pos = pos
        self.seat = seat
        self.events: list[Event] = []
        self.started = False  # a barrier, kidnapper or bomb has been placed
        self.ended = False
        self.occupied = False
        self.swapped = False
        self.last_closed: tuple[int, ...] = ()

    # -- what may come next ---------------------------------------------------------------
    def can_place(self) -> bool:
        """Whether a barrier, kidnapper or bomb can still be placed (else the turn ends)."""
        return self.pos.can_move(self.seat)

    def may_occupy(self) -> bool:
        return not self.started and not self.occupied and not self.ended

    # -- steps -----------------------------------------------------------------------------
    def step(self, step: Step) -> None:
        """Take one normalized step, or raise StepRefused (leaving the position unchanged)."""
        if self.ended:
            raise StepRefused(_("The turn has already ended."))
        if "occupy" in step:
            self._occupy(board.SQUARE_INDEX[step["occupy"]])
        elif "barrier" in step:
            self._barrier(board.EDGE_INDEX[step["barrier"]])
        elif "kidnapper" in step:
            self._place(board.SQUARE_INDEX[step["kidnapper"]], "kidnapper", step["corner"])
            self._finish()
        elif "bomb" in step:
            self._place(board.SQUARE_INDEX[step["bomb"]], "bomb", None)
            self._finish()
        else:
            self._swap(board.SQUARE_INDEX[step["swap"]], step["for"], step.get("corner"))

    def _occupy(self, sq: int) -> None:
        pos = self.pos
        if not self.may_occupy():
            raise StepRefused(_("A square can be occupied only once, at the start of the turn."))
        if sq in pos.pieces:
            raise StepRefused(_("%(square)s already holds a piece: only an empty square walled "
                                "on all four sides can be occupied."),
                              {"square": board.SQUARE_NAMES[sq]})
        if not pos.is_closed(sq):
            raise StepRefused(_("%(square)s cannot be occupied yet: it is not walled on all four "
                                "sides. Place a barrier on an edge instead."),
                              {"square": board.SQUARE_NAMES[sq]})
        if pos.bunkers[self.seat][TROOPS] < 1:
            raise StepRefused(_("You have no troop left in your bunker."))
        self.occupied = True
        self._put_troop(sq)

    def _put_troop(self, sq: int) -> None:
        self.pos.bunkers[self.seat][TROOPS] -= 1
        self.pos.pieces[sq] = make_piece(self.seat, "troop", None, sq)
        self.events.append({"type": "occupy", "seat": self.seat, "at": board.SQUARE_NAMES[sq]})

    def _barrier(self, edge: int) -> None:
        pos = self.pos
        if edge in pos.barriers:
            raise StepRefused(_("There is already a barrier on %(edge)s."),
                              {"edge": board.EDGE_NAMES[edge]})
        self.started = True
        pos.barriers.add(edge)
        self.events.append({"type": "barrier", "seat": self.seat, "edge": board.EDGE_NAMES[edge]})
        closed = tuple(sq for sq in board.EDGE_SQUARES[edge] if pos.is_closed(sq))
        if not closed:
            self._finish()
            return
        self.events.append({"type": "close", "seat": self.seat,
                            "squares": [board.SQUARE_NAMES[sq] for sq in closed]})
        in_chain = not self.last_closed or any(
            sq in board.NEIGHBOURS[last] for sq in closed for last in self.last_closed)
        self.last_closed = closed
        if not in_chain:
            self._finish()
            return
        empty = [sq for sq in closed if sq not in pos.pieces]  # lower edge order first
        troops = pos.bunkers[self.seat][TROOPS]
        for sq in empty[:troops]:
            self._put_troop(sq)
        if len(empty) < len(closed) or troops < len(empty) or not self.can_place():
            self._finish()

    def _place(self, sq: int, kind: str, corner: str | None, swap: bool = False) -> None:
        pos = self.pos
        slot = KIDNAPPERS if kind == "kidnapper" else BOMBS
        if pos.bunkers[self.seat][slot] < 1:
            raise StepRefused(_("You have no kidnapper left in your bunker.")
                              if kind == "kidnapper" else
                              _("You have no bomb left in your bunker."))
        if sq in pos.pieces and not swap:
            raise StepRefused(_("%(square)s already holds a piece."),
                              {"square": board.SQUARE_NAMES[sq]})
        self.started = self.started or not swap
        pos.bunkers[self.seat][slot] -= 1
        pos.pieces[sq] = make_piece(self.seat, kind, corner, sq)
        name = board.SQUARE_NAMES[sq]
        if kind == "kidnapper":
            assert corner is not None
            self.events.append({"type": "kidnapper", "seat": self.seat, "at": name,
                                "corner": corner})
            self._kidnap(board.capture_area(sq, corner))
        else:
            self.events.append({"type": "bomb", "seat": self.seat, "at": name})
            self._bomb(sq)

    def _exposed_troops(self, area: tuple[int, ...]) -> list[int]:
        """Troops in ``area`` that a kidnapper or bomb acts on (not on safe or neutral squares,
        not a removed seat's)."""
        pos = self.pos
        return [sq for sq in area if sq not in board.PROTECTED and sq in pos.pieces
                and pos.pieces[sq]["kind"] == "troop" and pos.pieces[sq]["seat"] not in pos.removed]

    def _kidnap(self, area: tuple[int, ...]) -> None:
        pos = self.pos
        for sq in self._exposed_troops(area):
            owner = pos.pieces.pop(sq)["seat"]
            name = board.SQUARE_NAMES[sq]
            if owner == self.seat:
                pos.bunkers[owner][TROOPS] += 1
                self.events.append({"type": "return", "seat": owner, "at": name})
            else:
                by = pos.prisoners.setdefault(self.seat, {})
                by[owner] = by.get(owner, 0) + 1
                self.events.append({"type": "capture", "seat": self.seat, "victim": owner,
                                    "at": name})

    def _bomb(self, sq: int) -> None:
        pos = self.pos
        for target in self._exposed_troops(board.bomb_block(sq)):
            owner = pos.pieces.pop(target)["seat"]
            pos.bunkers[owner][TROOPS] += 1
            self.events.append({"type": "return", "seat": owner,
                                "at": board.SQUARE_NAMES[target]})
        cleared = [e for e in board.BOMB_EDGES[sq] if e in pos.barriers]
        pos.barriers.difference_update(cleared)
        self.events.append({"type": "clear", "seat": self.seat, "at": board.SQUARE_NAMES[sq],
                            "edges": [board.EDGE_NAMES[e] for e in board.sort_edges(cleared)]})

    def _swap(self, sq: int, kind: str, corner: str | None) -> None:
        pos = self.pos
        if self.swapped:
            raise StepRefused(_("The swap may be made only once a turn."))
        piece = pos.pieces.get(sq)
        if sq not in board.SAFE or piece is None or piece["seat"] != self.seat \
                or piece["kind"] != "troop":
            raise StepRefused(_("%(square)s is not a safe square holding one of your "
                                "troops."),
                              {"square": board.SQUARE_NAMES[sq]})
        slot = KIDNAPPERS if kind == "kidnapper" else BOMBS
        if pos.bunkers[self.seat][slot] < 1:
            raise StepRefused(_("You have no kidnapper left in your bunker.")
                              if kind == "kidnapper" else
                              _("You have no bomb left in your bunker."))
        self.swapped = True
        del pos.pieces[sq]
        pos.bunkers[self.seat][TROOPS] += 1
        self.events.append({"type": "swap", "seat": self.seat, "at": board.SQUARE_NAMES[sq],
                            "for": kind})
        self._place(sq, kind, corner, swap=True)

    def _finish(self) -> None:
        self.ended = True


def legal_steps(turn: Turn) -> list[Step]:
    """Every step ``turn``'s player may take now (barriers, pieces, occupy, swaps)."""
    if turn.ended:
        return []
    pos, seat = turn.pos, turn.seat
    steps: list[Step] = []
    bunker = pos.bunkers[seat]
    if turn.may_occupy() and bunker[TROOPS] > 0:
        steps += [{"occupy": board.SQUARE_NAMES[sq]} for sq in pos.formed()]
    steps += [{"barrier": board.EDGE_NAMES[e]} for e in board.EDGES if e not in pos.barriers]
    empty = pos.empty_squares()
    if bunker[KIDNAPPERS]:
        steps += [{"kidnapper": board.SQUARE_NAMES[sq], "corner": c}
                  for sq in empty for c in board.CORNERS]
    if bunker[BOMBS]:
        steps += [{"bomb": board.SQUARE_NAMES[sq]} for sq in empty]
    if not turn.swapped:
        own_safe = [sq for sq in sorted(board.SAFE) if sq in pos.pieces
                    and pos.pieces[sq]["seat"] == seat and pos.pieces[sq]["kind"] == "troop"]
        for sq in own_safe:
            if bunker[KIDNAPPERS]:
                steps += [{"swap": board.SQUARE_NAMES[sq], "for": "kidnapper", "corner": c}
                          for c in board.CORNERS]
            if bunker[BOMBS]:
                steps.append({"swap": board.SQUARE_NAMES[sq], "for": "bomb"})
    return steps
