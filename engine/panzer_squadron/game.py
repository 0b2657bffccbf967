"""Panzer Squadron as an engine game (shared/rules/panzer-squadron.md; API in the package
docstring)."""

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
    Prompt,
    Result,
    RuleError,
    State,
    Submission,
    Text,
    TextError,
    pgettext,
)
from engine.base import gettext_noop as _
from engine.panzer_squadron import board_text, legal, options, plans, rules, text
from engine.panzer_squadron.rules import PHRASEBOOK
from engine.panzer_squadron.view import view as _view


class PanzerSquadron(Game):
    slug = "panzer-squadron"
    phrasebook = PHRASEBOOK
    name = "Panzer Squadron"
    min_seats = 2
    max_seats = 2
    seat_names = {1: pgettext("seat", "South"), 2: pgettext("seat", "North")}
    bots = ("random", "greedy")

    # -- options and setup -------------------------------------------------------------
    def default_options(self) -> dict[str, Any]:
        return options.default_options()

    def validate_options(self, opts: Mapping[str, Any]) -> dict[str, Any]:
        return options.validate_options(opts)

    def options_schema(self) -> tuple[Option, ...]:
        return options.OPTIONS_SCHEMA

    def start(self, seats: int, opts: Mapping[str, Any], seed: int) -> State:
        if seats != 2:
            raise RuleError(_("Panzer Squadron is for two seats."), "seats")
        state = options.start(options.validate_options(opts))
        rules.settle_turn(state, [])
        return state

    # -- phases --------------------------------------------------------------------------
    def prompts(self, state: State) -> dict[int, Prompt]:
        if state["result"] is not None:
            return {}
        return {state["to_move"]: Prompt(PhaseKind.SEQUENTIAL, state["phase"])}

    def validate(self, state: State, seat: int, submission: Any) -> Submission:
        normalized, problems = rules.check(state, seat, submission)
        if problems:
            raise RuleError(problems)
        return normalized

    def default_submission(self, state: State, seat: int) -> Submission:
        return legal.default_submission(state, seat)

    def apply(self, state: State, seat: int, action: Any, now: Any,
              rng: random.Random) -> Outcome:
        checked = self.validate(state, seat, action)
        new, events = rules.apply(state, seat, checked, rng)
        return Outcome(new, events)

    def resign(self, state: State, seat: int, now: Any) -> Outcome:
        """A seat that concedes loses at once; the other seat wins."""
        new, events = rules.concede(state, seat)
        return Outcome(new, events)

    def is_setting(self, submission: Any) -> bool:
        """Standing reactions: an out-of-turn setting, not a move (see DESIGN.md)."""
        return isinstance(submission, Mapping) and "reactions" in submission

    # -- plans (docs/conditional-orders.md; engine/panzer_squadron/plans.py) ------------
    plans = True

    def plan_move(self, seat: int, move: Any) -> Submission:
        """A planned move is a whole activation: tank, action, and a move's path."""
        return plans.plan_move(seat, move)

    def plan_played(self, steps: Any) -> list[tuple[int, int, Any]]:
        return plans.plan_played(steps)

    def plan_begun(self, state: State) -> int:
        """A path phase continues the activation chosen in the phase before."""
        return 1 if state["phase"] == "path" else 0

    def plan_opens(self, state: State, seat: int) -> bool:
        return bool(state["phase"] == "activate" and state["to_move"] == seat)

    def plan_step(self, state: State, seat: int, move: Any, index: int) -> Submission | None:
        return plans.plan_step(state, seat, move, index)

    def plan_from_text(self, state: State, seat: int, txt: str) -> Any:
        """A whole activation on one line: ``activate M1 move; path c5 12; end moving``."""
        if not isinstance(txt, str):
            raise TextError(_("Orders are text."))
        return self._names(state, text.parse(txt, whole=True))

    # -- reading -------------------------------------------------------------------------
    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return _view(state, seat)

    def public_state(self, state: State) -> State | None:
        """Everything is on the board but the standing reactions, which only their author
        knows: in the public position every tank stands at the default reaction."""
        return {**copy.deepcopy(state),
                "reactions": {name: options.default_reaction() for name in state["reactions"]}}

    def result(self, state: State) -> Result | None:
        found = state["result"]
        if found is None:
            return None
        scores = {1: float(state["destroyed"]["1"]), 2: float(state["destroyed"]["2"])}
        return Result(tuple(tuple(g) for g in found["ranking"]), scores, found["reason"])

    def legal_actions(self, state: State, seat: int) -> list[dict[str, Any]]:
        return legal.legal_actions(state, seat)

    def bot_submission(self, state: State, seat: int, bot: str,
                       rng: random.Random) -> Submission:
        if bot == "greedy":
            return legal.greedy_bot(state, seat, rng)
        if bot == "random":
            return legal.random_bot(state, seat, rng)
        raise ValueError(f"unknown bot {bot!r}")

    # -- text ----------------------------------------------------------------------------
    def parse_text(self, state: State, seat: int, txt: str) -> Submission:
        if not isinstance(txt, str):
            raise TextError(_("Orders are text."))
        return self._names(state, text.parse(txt))

    @staticmethod
    def _names(state: State, sub: dict[str, Any]) -> dict[str, Any]:
        """The tanks as the position names them (the grammar reads them in upper case)."""
        names = {t["name"].upper(): t["name"] for t in state["tanks"]}
        if "activate" in sub:
            sub["activate"] = names.get(sub["activate"], sub["activate"])
        if "reactions" in sub:
            sub["reactions"] = {names.get(k, k): v for k, v in sub["reactions"].items()}
        return sub

    def format_text(self, state: State, seat: int, submission: Submission) -> str:
        return text.format(submission)

    def text_help(self, state: State, seat: int) -> str:
        return Text(text.HELP["path" if state["phase"] == "path" else "activate"])

    def board_text(self, state: State, seat: int | None) -> str:
        return board_text.board_text(_view(state, seat))
