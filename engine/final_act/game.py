"""Final Act as an engine game (see shared/rules/final-act.md)."""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping
from typing import Any

from engine.base import (
    Game,
    Option,
    Outcome,
    PhaseKind,
    Problem,
    Prompt,
    Result,
    RuleError,
    State,
    Submission,
    Text,
)
from engine.base import gettext_noop as _
from engine.final_act import board, conditions
from engine.final_act.end_of_round import CONCEDED
from engine.final_act.legal import legal_actions
from engine.final_act.options import OPTIONS_SCHEMA, default_options, validate_options
from engine.final_act.orders import default_orders, sheet_warnings, validate_orders
from engine.final_act.position import Position
from engine.final_act.report import PHRASEBOOK
from engine.final_act.rounds import resolve_round
from engine.final_act.scenario import scenario_units
from engine.final_act.setup import apply_setups, default_setup, validate_setup
from engine.final_act.units import TOKENS
from engine.final_act.view import view


def _deal_tokens(options: Mapping[str, Any], rng: random.Random) -> dict[str, list[str]]:
    tokens = options.get("tokens")
    if not tokens or tokens["mode"] == "draft-k":
        return {"1": [], "2": []}
    if tokens["mode"] == "all":
        return {"1": list(TOKENS), "2": list(TOKENS)}
    dealt = {}
    for seat in ("1", "2"):
        drawn = rng.sample(TOKENS, tokens["k"])
        dealt[seat] = [t for t in TOKENS if t in drawn]
    return dealt


def _check_seat(seat: Any) -> None:
    if seat not in board.SEATS or isinstance(seat, bool):
        raise RuleError([Problem("seat", _("Final Act seats are 1 (Alpha) and 2 (Delta)."))])


class FinalAct(Game):
    slug = "final-act"
    phrasebook = PHRASEBOOK
    name = "Final Act"
    min_seats = 2
    max_seats = 2
    seat_names = board.SEAT_NAMES

    @property
    def bots(self) -> tuple[str, ...]:  # type: ignore[override]
        try:
            from engine.final_act import bots
        except ImportError:
            return ()
        return tuple(getattr(bots, "BOTS", ()))

    # -- options and setup -------------------------------------------------------------
    def default_options(self) -> dict[str, Any]:
        return default_options()

    def validate_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        return validate_options(options)

    def options_schema(self) -> tuple[Option, ...]:
        return OPTIONS_SCHEMA

    def start(self, seats: int, options: Mapping[str, Any], seed: int) -> State:
        if seats != 2:
            raise RuleError([Problem("seats", _("Final Act is played by exactly 2 seats."))])
        opts = validate_options(options)
        rng = random.Random(seed)
        state: State = {
            "phase": "setup",
            "round": 0,
            "options": opts,
            "units": [],
            "terrain": [],
            "tokens": _deal_tokens(opts, rng),
            "board_tokens": [],
            "breakthroughs": {"1": 0, "2": 0},
            "used": {
                s: {"double_shot": False, "repair": False, "r_repairs": 0} for s in ("1", "2")
            },
            "officer_lost": {"1": 0, "2": 0},
            "repairing": [],
            "last_round": [],
            "result": None,
        }
        scenario = opts.get("scenario")
        if scenario is not None:
            state["phase"] = "orders"
            state["round"] = scenario["round"]
            state["units"] = scenario_units(scenario["units"], "wrecks" in opts["advanced"])
            state["terrain"] = [dict(t) for t in scenario["terrain"]]
            state["breakthroughs"] = dict(scenario["breakthroughs"])
            if "tokens" in scenario:
                state["tokens"] = {k: list(v) for k, v in scenario["tokens"].items()}
            elif opts.get("tokens") and opts["tokens"]["mode"] == "draft-k":
                # No setup to draft in: deal k at random instead.
                state["tokens"] = _deal_tokens(
                    {"tokens": {"mode": "random-k", "k": opts["tokens"]["k"]}}, rng
                )
        return state

    # -- phases --------------------------------------------------------------------------
    def prompts(self, state: State) -> dict[int, Prompt]:
        if state["phase"] == "over":
            return {}
        return {seat: Prompt(PhaseKind.SIMULTANEOUS, state["phase"]) for seat in board.SEATS}

    def validate(self, state: State, seat: int, submission: Any) -> Submission:
        _check_seat(seat)
        if state["phase"] == "setup":
            return validate_setup(seat, state["options"], submission)
        if state["phase"] == "orders":
            return validate_orders(Position(state), seat, submission)
        raise RuleError([Problem("", _("The match is over; no more orders are taken."))])

    def warnings(self, state: State, seat: int, submission: Submission) -> list[Problem]:
        if state["phase"] != "orders" or not isinstance(submission, Mapping):
            return []
        try:
            sheet = self.validate(state, seat, submission)
        except RuleError:
            return []
        return sheet_warnings(Position(state), sheet)

    sheet_conditions = conditions.KINDS

    def condition_normalize(self, seat: int, condition: Any) -> dict[str, Any]:
        return conditions.normalize_condition(condition)

    def condition_holds(self, state: State, seat: int, condition: Mapping[str, Any]) -> bool:
        return conditions.condition_holds(state, seat, condition)

    def condition_from_text(self, seat: int, text: str) -> dict[str, Any]:
        return conditions.condition_from_text(text)

    def condition_text(self, condition: Mapping[str, Any]) -> str:
        return conditions.condition_text(condition)

    def condition_words(self, condition: Mapping[str, Any]) -> str:
        return conditions.condition_words(condition)

    def conditions_help(self) -> str:
        return Text(conditions.HELP)

    def default_submission(self, state: State, seat: int) -> Submission:
        _check_seat(seat)
        if state["phase"] == "setup":
            return default_setup(seat, state["options"])
        if state["phase"] == "orders":
            return default_orders(Position(state), seat)
        return {}

    def resolve(
        self, state: State, submissions: Mapping[int, Submission], rng: random.Random
    ) -> Outcome:
        if state["phase"] == "over":
            raise RuleError([Problem("", _("The match is over."))])
        sheets: dict[int, dict[str, Any]] = {}
        problems: list[Problem] = []
        for seat in board.SEATS:
            sub = submissions.get(seat, submissions.get(str(seat)))  # type: ignore[call-overload]
            if sub is None:
                sub = self.default_submission(state, seat)
            try:
                sheets[seat] = self.validate(state, seat, sub)
            except RuleError as error:
                problems.extend(
                    Problem(f"{seat}.{p.path}" if p.path else str(seat), p.text)
                    for p in error.problems
                )
        if problems:
            raise RuleError(problems)
        if state["phase"] == "setup":
            new = dict(state)
            new["units"], new["terrain"] = [], []
            new["tokens"] = {k: list(v) for k, v in state["tokens"].items()}
            events = apply_setups(new, sheets)
            return Outcome(new, events)
        new, events = resolve_round(state, sheets)
        return Outcome(new, events)

    def resign(self, state: State, seat: int, now: Any) -> Outcome:
        """A side that concedes loses the match at once; the other side wins."""
        _check_seat(seat)
        if state["phase"] == "over":
            raise RuleError([Problem("", _("The match is over."))])
        winner = board.enemy(seat)
        reason = str(Text(CONCEDED, {"side": board.SEAT_NAMES[seat]}))
        new = copy.deepcopy(state)
        new["phase"] = "over"
        new["result"] = {"winner": winner, "reason": reason}
        return Outcome(new, [{"type": "result", "winner": winner, "text": reason}])

    # -- reading -------------------------------------------------------------------------
    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return view(state, seat)

    def public_state(self, state: State) -> State | None:
        """The state as it is, unless a side holds unused tokens a spectator may not name
        (a secret token mode): play cannot go on without them. During setup the state holds no
        placements (the sealed setups stay with the portal)."""
        seen = view(state, None)["tokens"]
        if any(state["tokens"][str(s)] and str(s) not in seen for s in board.SEATS):
            return None
        return copy.deepcopy(state)

    def result(self, state: State) -> Result | None:
        outcome = state.get("result")
        if outcome is None:
            return None
        winner = outcome["winner"]
        if winner is None:
            return Result(ranking=((1, 2),), scores={1: 0.5, 2: 0.5}, reason=outcome["reason"])
        loser = board.enemy(winner)
        return Result(
            ranking=((winner,), (loser,)),
            scores={winner: 1.0, loser: 0.0},
            reason=outcome["reason"],
        )

    def legal_actions(self, state: State, seat: int) -> dict[str, Any]:
        _check_seat(seat)
        return legal_actions(state, seat)

    def bot_submission(self, state: State, seat: int, bot: str, rng: random.Random) -> Submission:
        from engine.final_act import bots

        result: Submission = bots.bot_submission(state, seat, bot, rng)
        return result

    # -- text grammar (email) --------------------------------------------------------------
    def parse_text(self, state: State, seat: int, text: str) -> Submission:
        from engine.final_act import text as grammar

        result: Submission = grammar.parse_text(state, seat, text)
        return result

    def format_text(self, state: State, seat: int, submission: Submission) -> str:
        from engine.final_act import text as grammar

        result: str = grammar.format_text(state, seat, submission)
        return result

    # -- plain text for email ----------------------------------------------------------------
    def board_text(self, state: State, seat: int | None) -> str:
        from engine.final_act.board_text import board_text

        return board_text(state, seat)

    def round_report(self, events: list[dict[str, Any]], seat: int | None) -> list[str]:
        from engine.final_act.report import round_story

        return round_story(events, seat)

    def text_help(self, state: State, seat: int) -> str:
        from engine.final_act.board_text import text_help

        return text_help(state, seat)
