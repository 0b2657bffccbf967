"""Final Strategy as an engine game (see shared/rules/final-strategy.md)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from engine.base import (
    Game,
    Option,
    OptionsError,
    Outcome,
    PhaseKind,
    Problem,
    Prompt,
    Result,
    RuleError,
    State,
    Submission,
    Text,
    pgettext,
    rng_for,
)
from engine.base import gettext_noop as _
from engine.final_strategy import board, bots, text
from engine.final_strategy.options import (
    OPTIONS_SCHEMA,
    check_scenario_seats,
    default_options,
    validate_options,
)
from engine.final_strategy.play import (
    PHRASEBOOK,
    concede,
    end_check,
    end_turn,
    finish,
    next_seat,
    normalize_turn,
    remove_seat,
    run_steps,
)
from engine.final_strategy.position import KIND_SLOT, SLOT_NAMES, Position, make_piece
from engine.final_strategy.turn import StepRefused, Turn, legal_steps


def _start_position(seats: int, scenario: Mapping[str, Any] | None) -> Position:
    troops, kidnappers, bombs = board.ALLOTMENT[seats]
    pos = Position(seats=seats)
    pos.bunkers = {s: [troops, kidnappers, bombs] for s in pos.seat_numbers()}
    if scenario is None:
        return pos
    pos.turn, pos.to_move = scenario["turn"], scenario["to_move"]
    pos.barriers = {board.EDGE_INDEX[e] for e in scenario["barriers"]}
    pos.prisoners = {int(c): {int(v): n for v, n in by.items()}
                     for c, by in scenario["prisoners"].items()}
    pos.removed = list(scenario["removed"])
    for p in scenario["pieces"]:
        sq = board.SQUARE_INDEX[p["at"]]
        pos.pieces[sq] = make_piece(p["seat"], p["kind"], p.get("corner"), sq)
        pos.bunkers[p["seat"]][KIND_SLOT[p["kind"]]] -= 1
    for by in pos.prisoners.values():
        for victim, n in by.items():
            pos.bunkers[victim][0] -= n
    for key, counts in scenario["bunkers"].items():
        pos.bunkers[int(key)] = [counts.get(slot, 0) for slot in SLOT_NAMES]
    return pos


class FinalStrategy(Game):
    slug = "final-strategy"
    phrasebook = PHRASEBOOK
    name = "Final Strategy"
    min_seats = 2
    max_seats = 4
    seat_names = {1: pgettext("seat", "Red"), 2: pgettext("seat", "Blue"),
                  3: pgettext("seat", "Green"), 4: pgettext("seat", "Yellow")}
    bots = bots.BOTS

    # -- options and setup -------------------------------------------------------------
    def default_options(self) -> dict[str, Any]:
        return default_options()

    def validate_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        return validate_options(options)

    def options_schema(self) -> tuple[Option, ...]:
        return OPTIONS_SCHEMA

    def start(self, seats: int, options: Mapping[str, Any], seed: int) -> State:
        if seats not in board.ALLOTMENT:
            raise RuleError([Problem("seats", _("Final Strategy is played by 2 to 4 seats."))])
        opts = validate_options(options)
        scenario = opts.get("scenario")
        if scenario is not None:
            check_scenario_seats(scenario, seats)
        pos = _start_position(seats, scenario)
        if scenario is not None:
            negative = [Problem(f"scenario.bunkers.{s}", _("Seat %(seat)s's bunker would hold a "
                                                           "negative count (too many pieces on "
                                                           "the board or prisoners)."),
                                {"seat": s})
                        for s, b in sorted(pos.bunkers.items()) if min(b) < 0]
            if negative:
                raise OptionsError(negative)
        events: list[dict[str, Any]] = []
        reason = end_check(pos, opts["turn_limit"])
        if reason:
            finish(pos, events, reason)
        elif pos.to_move in pos.removed or not pos.can_move(pos.to_move or 1):
            pos.to_move = (pos.to_move or 1) - 1
            next_seat(pos, events)
        return pos.to_state({"options": opts, "seed": seed})

    # -- phases --------------------------------------------------------------------------
    def prompts(self, state: State) -> dict[int, Prompt]:
        if state["over"] or state["to_move"] is None:
            return {}
        return {state["to_move"]: Prompt(PhaseKind.SEQUENTIAL, "turn")}

    def validate(self, state: State, seat: int, submission: Any) -> Submission:
        steps = normalize_turn(submission)
        run_steps(Position.from_state(state), seat, steps)
        return {"steps": steps}

    plans = True

    def plan_move(self, seat: int, move: Any) -> Submission:
        """A planned turn: its steps in canonical form (a default's mark dropped, so a default
        turn compares equal to the same steps sent by hand)."""
        return {"steps": normalize_turn(move)}

    def check_steps(self, state: State, seat: int, submission: Any) -> dict[str, Any]:
        """A turn in progress (the page's step-by-step check): the position after its steps and
        whether the turn has ended. A RuleError names a refused step."""
        if not isinstance(submission, Mapping) or not isinstance(submission.get("steps"), list):
            raise RuleError([Problem("steps", _('A turn is {"steps": [...]}, a list of steps.'))])
        steps = normalize_turn(submission) if submission["steps"] else []
        pos = Position.from_state(state)
        if seat != pos.to_move:
            raise RuleError([Problem("seat", _("It is not your turn."))])
        turn = Turn(pos, seat)
        for i, step in enumerate(steps):
            try:
                turn.step(step)
            except StepRefused as refused:
                raise RuleError([Problem(f"steps.{i}", refused.text)]) from None
        ended = turn.ended or (turn.started and not turn.can_place())
        return {"steps": steps, "ended": ended, "may_occupy": turn.may_occupy(),
                "swapped": turn.swapped, "events": turn.events,
                "state": pos.to_state(state)}

    def default_submission(self, state: State, seat: int) -> Submission:
        pos = Position.from_state(state)
        if pos.over or seat != pos.to_move:
            return {"steps": [], "default": True}
        rng = rng_for(state["seed"], 1000000 + pos.turn)
        return {"steps": bots.default_steps(pos, seat, rng), "default": True}

    def apply(self, state: State, seat: int, action: Any, now: Any,
              rng: random.Random) -> Outcome:
        steps = normalize_turn(action)
        pos = Position.from_state(state)
        turn = run_steps(pos, seat, steps)
        events = list(turn.events)
        end_turn(pos, events, state["options"]["turn_limit"])
        return Outcome(pos.to_state(state), events)

    def resign(self, state: State, seat: int, now: Any) -> Outcome:
        """A seat that concedes is removed as after too many missed turns (see ``concede``)."""
        pos = Position.from_state(state)
        events: list[dict[str, Any]] = []
        concede(pos, seat, events, state["options"]["turn_limit"])
        return Outcome(pos.to_state(state), events)

    def seats_out(self, state: State) -> frozenset[int]:
        return frozenset(state["removed"])

    def remove_seats(self, state: State, seats: Sequence[int]) -> Outcome:
        """The match's policy took ``seats`` out after their missed turns (rulings, "Missed
        deadline"): each leaves, its troops stay on their squares as neutral obstacles, it
        ranks last and its bunker no longer ends the game; if it was one's turn the move
        passes on, and a match left with fewer than two seats ends. Seats already out, or a
        game already over: no change."""
        pos = Position.from_state(state)
        unknown = [seat for seat in seats if seat not in pos.seat_numbers()]
        if unknown:
            raise RuleError([Problem("seat", f"There is no seat {seat}.") for seat in unknown])
        leaving = sorted({seat for seat in seats if seat not in pos.removed})
        if pos.over or not leaving:
            return Outcome(state, [])
        events: list[dict[str, Any]] = []
        for seat in leaving:
            remove_seat(pos, seat, events)
        reason = end_check(pos, state["options"]["turn_limit"])
        if reason:
            finish(pos, events, reason)
        elif pos.to_move in pos.removed:
            next_seat(pos, events)
        return Outcome(pos.to_state(state), events)

    # -- reading -------------------------------------------------------------------------
    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        from engine.final_strategy.view import view

        return view(state, seat)

    def public_state(self, state: State) -> State | None:
        """None: how each bunker is split (troops, kidnappers, bombs) is its owner's secret,
        play depends on it, and the state carries the match's seed."""
        return None

    def result(self, state: State) -> Result | None:
        if not state["over"]:
            return None
        pos = Position.from_state(state)
        scores = {s: pos.score(s) for s in pos.seat_numbers()}
        remaining = pos.remaining()
        ranking: list[tuple[int, ...]] = []
        for value in sorted({scores[s] for s in remaining}, reverse=True):
            ranking.append(tuple(s for s in remaining if scores[s] == value))
        if pos.removed:
            ranking.append(tuple(sorted(pos.removed)))
        return Result(ranking=tuple(ranking), scores={s: float(v) for s, v in scores.items()},
                      reason=state["reason"])

    def legal_actions(self, state: State, seat: int) -> list[Submission]:
        """Complete one-step turns (a barrier that closes nothing, a kidnapper, a bomb); a
        barrier that closes squares is completed with the default's preference."""
        pos = Position.from_state(state)
        if pos.over or seat != pos.to_move:
            return []
        actions = []
        rng = rng_for(state["seed"], 2000000 + pos.turn)
        for step in legal_steps(Turn(pos, seat)):
            if "occupy" in step or "swap" in step:
                continue
            trial = Turn(pos.copy(), seat)
            trial.step(step)
            steps = [step]
            if not trial.ended and trial.can_place():
                rest = bots.default_steps(trial.pos, seat, rng)
                steps += rest
            actions.append({"steps": steps})
        return actions

    def bot_submission(self, state: State, seat: int, bot: str,
                       rng: random.Random) -> Submission:
        if bot not in bots.STRATEGIES:
            raise ValueError(f"final-strategy has no bot {bot!r}")
        return {"steps": bots.STRATEGIES[bot](Position.from_state(state), seat, rng)}

    # -- text grammar (email) --------------------------------------------------------------
    def parse_text(self, state: State, seat: int, text_: str) -> Submission:
        return text.parse_text(text_)

    def format_text(self, state: State, seat: int, submission: Submission) -> str:
        return text.format_text(submission)

    def text_help(self, state: State, seat: int) -> str:
        return Text(text.HELP)

    def board_text(self, state: State, seat: int | None) -> str:
        from engine.final_strategy.board_text import board_text

        return board_text(state, seat)

    def round_report(self, events: list[dict[str, Any]], seat: int | None) -> list[str]:
        from engine.final_strategy.report import report

        return report(events, seat)
