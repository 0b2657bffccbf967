"""A whole turn: check its steps, apply them, end the turn, pass the move on, end the game."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.base import Phrasebook, Problem, RuleError, Text
from engine.base import gettext_noop as _
from engine.final_strategy.position import Position
from engine.final_strategy.turn import Event, Step, StepRefused, Turn, normalize_step


def normalize_turn(submission: Any) -> list[Step]:
    """The turn's steps in canonical form; a RuleError lists every malformed step."""
    if not isinstance(submission, Mapping) or not isinstance(submission.get("steps"), list):
        raise RuleError([Problem("steps", _('A turn is {"steps": [...]}, a list of steps.'))])
    extra = [k for k in submission if k not in ("steps", "default")]
    problems = [Problem(str(k), _("Unknown field %(field)s."),
                        {"field": repr(k)}) for k in extra]
    steps = []
    for i, raw in enumerate(submission["steps"]):
        try:
            steps.append(normalize_step(raw))
        except StepRefused as refused:
            problems.append(Problem(f"steps.{i}", refused.text))
    if not submission["steps"]:
        problems.append(Problem("steps.0", _("A turn ends with a barrier, a kidnapper or a bomb.")))
    if problems:
        raise RuleError(problems)
    return steps


def run_steps(pos: Position, seat: int, steps: list[Step]) -> Turn:
    """Take ``steps`` as ``seat``'s whole turn on ``pos`` (changed in place). A RuleError with
    path ``steps.N`` names the first step that is refused, or the missing step."""
    if pos.over:
        raise RuleError([Problem("", _("The game is over."))])
    if seat != pos.to_move:
        raise RuleError([Problem("seat", _("It is seat %(to_move)s's turn, not seat %(seat)s's."),
                                 {"to_move": pos.to_move, "seat": seat})])
    turn = Turn(pos, seat)
    for i, step in enumerate(steps):
        try:
            turn.step(step)
        except StepRefused as refused:
            raise RuleError([Problem(f"steps.{i}", refused.text)]) from None
    if not turn.ended:
        if turn.started and not turn.can_place():
            turn.ended = True  # must place again but nothing can be placed
        else:
            message = (_("You must place again (a barrier, a kidnapper or a bomb).")
                       if turn.started else _("A turn ends with a barrier, a kidnapper or a bomb."))
            raise RuleError([Problem(f"steps.{len(steps)}", message)])
    return turn


def next_seat(pos: Position, events: list[Event]) -> None:
    """Pass the move to the next remaining seat that can move (skipped seats get a ``pass``
    event), or end the game when nobody can."""
    remaining = pos.remaining()
    start = pos.to_move or 0
    order = [s for s in range(start + 1, pos.seats + 1)] + [s for s in range(1, start + 1)]
    passed: list[int] = []
    for seat in order:
        if seat not in remaining:
            continue
        if pos.can_move(seat):
            events.extend({"type": "pass", "seat": s} for s in passed)
            pos.to_move = seat
            return
        passed.append(seat)
    finish(pos, events, STUCK)


def finish(pos: Position, events: list[Event], reason: str) -> None:
    pos.over = True
    pos.to_move = None
    pos.reason = reason
    events.append({"type": "end", "reason": reason,
                   "scores": {str(s): pos.score(s) for s in pos.seat_numbers()}})


# Why the game ends (the stored reason, read back for translation: see ``Phrasebook``).
EMPTY_BUNKER = _("seat %(seat)s's bunker is empty")
TOO_FEW = _("fewer than two seats are left")
TURN_LIMIT = _("the turn limit (%(limit)s) was reached")
STUCK = _("no player can move")
PHRASEBOOK = Phrasebook(EMPTY_BUNKER, TOO_FEW, TURN_LIMIT, STUCK)


def end_check(pos: Position, turn_limit: int | None) -> str | None:
    """Why the game ends now (a remaining seat's bunker is empty, the turn limit), or None."""
    for seat in pos.remaining():
        if pos.bunker_count(seat) == 0:
            return str(Text(EMPTY_BUNKER, {"seat": seat}))
    if len(pos.remaining()) < 2:
        return TOO_FEW
    if turn_limit is not None and pos.turn > turn_limit:
        return str(Text(TURN_LIMIT, {"limit": turn_limit}))
    return None


def end_turn(pos: Position, events: list[Event], turn_limit: int | None) -> None:
    """After a turn: count it, check the end, pass the move on."""
    pos.turn += 1
    reason = end_check(pos, turn_limit)
    if reason:
        finish(pos, events, reason)
    else:
        next_seat(pos, events)


def concede(pos: Position, seat: int, events: list[Event], turn_limit: int | None) -> None:
    """``seat`` concedes: it leaves like a seat removed after missed turns (its troops stay as
    neutral obstacles, it ranks last); the move passes on if it was its turn, and the game
    ends when fewer than two seats are left."""
    if pos.over:
        raise RuleError([Problem("", "The game is over.")])
    if seat not in pos.seat_numbers() or seat in pos.removed:
        raise RuleError([Problem("seat", f"Seat {seat} is not in the game.")])
    events.append({"type": "resign", "seat": seat})
    pos.removed = sorted([*pos.removed, seat])
    reason = end_check(pos, turn_limit)
    if reason:
        finish(pos, events, reason)
    elif pos.to_move == seat:
        next_seat(pos, events)


def remove_seat(pos: Position, seat: int, events: list[Event]) -> None:
    """A seat the match's missed-turn policy took out leaves; its troops stay as neutral
    obstacles."""
    if seat not in pos.removed:
        pos.removed.append(seat)
        pos.removed.sort()
        events.append({"type": "remove", "seat": seat})
