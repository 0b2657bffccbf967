"""The default move for a missed turn, and the bots: ``random`` and ``greedy``.

Each builds a whole turn step by step on a copy of the position, so every step it returns is
one the engine accepted.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from engine.final_strategy import board
from engine.final_strategy.position import BOMBS, KIDNAPPERS, TROOPS, Position
from engine.final_strategy.turn import Step, Turn

BOTS = ("random", "greedy")


def walls(pos: Position, sq: int) -> int:
    """Walled sides of ``sq``, the board's border included."""
    sides = board.SIDES[sq]
    return 4 - len(sides) + sum(1 for e in sides if e in pos.barriers)


def is_quiet(pos: Position, edge: int) -> bool:
    """Closes no square and leaves no square with a third walled side it did not have."""
    a, b = board.EDGE_SQUARES[edge]
    return walls(pos, a) <= 1 and walls(pos, b) <= 1


def _piece_step(pos: Position, seat: int, rng: random.Random) -> Step | None:
    """A kidnapper (else a bomb) on a random empty square, or None."""
    empty = pos.empty_squares()
    if not empty:
        return None
    bunker = pos.bunkers[seat]
    sq = board.SQUARE_NAMES[rng.choice(empty)]
    if bunker[KIDNAPPERS]:
        return {"kidnapper": sq, "corner": rng.choice(board.CORNERS)}
    if bunker[BOMBS]:
        return {"bomb": sq}
    return None


def _build(pos: Position, seat: int, choose: Callable[[Turn], Step | None]) -> list[Step]:
    """Take the steps ``choose`` picks on a copy of ``pos`` until the turn ends."""
    turn = Turn(pos.copy(), seat)
    steps: list[Step] = []
    while not turn.ended:
        if turn.started and not turn.can_place():
            break
        step = choose(turn)
        if step is None:
            break
        turn.step(step)
        steps.append(step)
    return steps


def default_steps(pos: Position, seat: int, rng: random.Random) -> list[Step]:
    """The default move: a quiet edge if one exists, else any empty edge, else a kidnapper (else
    a bomb) on a random empty square; the same preference again while a chain goes on."""

    def choose(turn: Turn) -> Step | None:
        empty = turn.pos.empty_edges()
        if empty:
            quiet = [e for e in empty if is_quiet(turn.pos, e)]
            return {"barrier": board.EDGE_NAMES[rng.choice(quiet or empty)]}
        return _piece_step(turn.pos, seat, rng)

    return _build(pos, seat, choose)


def random_steps(pos: Position, seat: int, rng: random.Random) -> list[Step]:
    """Random legal steps: mostly barriers, sometimes an occupation, a swap, a piece."""

    def choose(turn: Turn) -> Step | None:
        p = turn.pos
        if turn.may_occupy() and p.bunkers[seat][TROOPS] and rng.random() < 0.5:
            formed = p.formed()
            if formed:
                return {"occupy": board.SQUARE_NAMES[rng.choice(formed)]}
        if not turn.swapped and rng.random() < 0.05:
            own = [sq for sq in board.SAFE if sq in p.pieces and p.pieces[sq]["seat"] == seat
                   and p.pieces[sq]["kind"] == "troop"]
            if own and p.bunkers[seat][KIDNAPPERS]:
                return {"swap": board.SQUARE_NAMES[rng.choice(sorted(own))], "for": "kidnapper",
                        "corner": rng.choice(board.CORNERS)}
        if len(p.barriers) < len(board.EDGES) and rng.random() < 0.9:
            edge = rng.randrange(len(board.EDGES))
            while edge in p.barriers:
                edge = rng.randrange(len(board.EDGES))
            return {"barrier": board.EDGE_NAMES[edge]}
        step = _piece_step(p, seat, rng)
        if step is None and len(p.barriers) < len(board.EDGES):
            return {"barrier": board.EDGE_NAMES[rng.choice(p.empty_edges())]}
        return step

    return _build(pos, seat, choose)


def _capture_value(pos: Position, seat: int, sq: int, corner: str) -> int:
    value = 0
    for target in board.capture_area(sq, corner):
        piece = pos.pieces.get(target)
        if piece is None or piece["kind"] != "troop" or target in board.PROTECTED \
                or piece["seat"] in pos.removed:
            continue
        value += -1 if piece["seat"] == seat else 1
    return value


def greedy_steps(pos: Position, seat: int, rng: random.Random) -> list[Step]:
    """Take every free square (formed ones first, then every box it can close in a chain) and
    otherwise avoid handing anyone a third side; kidnap where it pays."""

    def choose(turn: Turn) -> Step | None:
        p = turn.pos
        if turn.may_occupy() and p.bunkers[seat][TROOPS]:
            formed = p.formed()
            if formed:
                return {"occupy": board.SQUARE_NAMES[formed[0]]}
        empty = p.empty_edges()
        closing = []
        for e in empty:
            squares = [sq for sq in board.EDGE_SQUARES[e] if walls(p, sq) == 3]
            if not squares or any(sq in p.pieces for sq in squares):
                continue
            if turn.last_closed and not any(sq in board.NEIGHBOURS[last] for sq in squares
                                            for last in turn.last_closed):
                continue
            if len(squares) > p.bunkers[seat][TROOPS]:
                continue
            closing.append((len(squares), e))
        if closing:
            best = max(n for n, _ in closing)
            return {"barrier": board.EDGE_NAMES[rng.choice([e for n, e in closing if n == best])]}
        quiet = [e for e in empty if is_quiet(p, e)]
        if quiet:
            return {"barrier": board.EDGE_NAMES[rng.choice(quiet)]}
        if p.bunkers[seat][KIDNAPPERS]:
            best_value, best_step = 0, None
            for sq in p.empty_squares():
                for corner in board.CORNERS:
                    value = _capture_value(p, seat, sq, corner)
                    if value > best_value:
                        best_value = value
                        best_step = {"kidnapper": board.SQUARE_NAMES[sq], "corner": corner}
            if best_step is not None and best_value >= 2:
                return best_step
        if empty:
            # Hand out as few third sides as possible.
            def cost(e: int) -> int:
                return sum(1 for sq in board.EDGE_SQUARES[e] if walls(p, sq) >= 2)
            low = min(cost(e) for e in empty)
            return {"barrier": board.EDGE_NAMES[rng.choice([e for e in empty if cost(e) == low])]}
        return _piece_step(p, seat, rng)

    return _build(pos, seat, choose)


STRATEGIES = {"random": random_steps, "greedy": greedy_steps}
