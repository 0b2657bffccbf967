"""Tank Game V4 as an engine game (shared/rules/tank-game-v4.md; API in the package docstring)."""

from __future__ import annotations

import copy
import random
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
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
)
from engine.base import gettext_noop as _
from engine.tank_game import legal, rules, schedule, text, view, words
from engine.tank_game import state as setup
from engine.tank_game.gameday import open_gameday
from engine.tank_game.options import (
    OPTIONS_SCHEMA,
    default_options,
    options_notes,
    preset_options,
    validate_options,
)


class TankGame(Game):
    slug = "tank-game"
    phrasebook = words.PHRASEBOOK
    name = "Tank Game V4"
    min_seats = 2
    max_seats = 100
    bots = ("random",)

    # -- options and setup -------------------------------------------------------------
    def default_options(self) -> dict[str, Any]:
        return default_options()

    def validate_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        return validate_options(options)

    def start(self, seats: int, options: Mapping[str, Any], seed: int) -> State:
        return setup.start(seats, validate_options(options), seed)

    def options_schema(self) -> tuple[Option, ...]:
        return OPTIONS_SCHEMA

    def preset_options(self, preset: str) -> dict[str, Any]:
        return preset_options(preset)

    def options_notes(self, options: Mapping[str, Any]) -> list[tuple[str, dict[str, Any]]]:
        return options_notes(options)

    # -- time ------------------------------------------------------------------------------
    def window_open(self, state: State, now: datetime) -> bool:
        now = rules.aware(now)
        return rules.first_waits_for_tick(state) or rules.gameday_now(state, now) is not None

    def gameday_key(self, state: State, now: datetime) -> str | None:
        now = rules.aware(now)
        if rules.first_waits_for_tick(state):
            return schedule.first_at_start(state["options"]["schedule"], now).key
        day = rules.gameday_now(state, now)
        return day.key if day is not None else None

    def next_tick_at(self, state: State, now: datetime) -> datetime | None:
        return rules.next_tick_at(state, rules.aware(now))

    # -- phases --------------------------------------------------------------------------
    def prompts(self, state: State) -> dict[int, Prompt]:
        if state["over"] is not None:
            return {}
        prompt = Prompt(PhaseKind.CONTINUOUS, "gameday", required=False)
        # every seat may act: living tanks act, dead and destroyed ones vote in the Council;
        # a seat that conceded does neither
        return {t["seat"]: prompt for t in state["tanks"].values() if t["status"] != "resigned"}

    def validate(self, state: State, seat: int, submission: Any) -> Submission:
        normalized, problems = rules.check(state, seat, submission)
        if problems:
            raise RuleError(problems)
        return normalized

    def action_problems(self, state: State, seat: int, action: Any, now: datetime) -> list[Problem]:
        """Every reason ``action`` would be refused at ``now`` ([] when it would be accepted)."""
        return rules.problems_now(state, seat, action, now)

    def default_submission(self, state: State, seat: int) -> Submission:
        return {}  # a continuous phase has no default: a seat that does nothing does nothing

    def apply(self, state: State, seat: int, action: Any, now: Any, rng: random.Random) -> Outcome:
        return rules.apply(state, seat, action, now, rng)

    def tick(self, state: State, now: Any, rng: random.Random) -> Outcome:
        now = rules.aware(now)
        day = rules.due_gameday(state, now)
        if day is None:
            return Outcome(state, [])
        new = setup.clone(state)
        events: list[dict[str, Any]] = []
        if rules.first_waits_for_tick(state):
            new["first_window"] = {"key": day.key, "start": day.start.astimezone(UTC).isoformat(),
                                   "end": day.end.astimezone(UTC).isoformat()}
        # logged at the gameday's opening time, however late the tick runs (catch-up)
        open_gameday(new, day.key, day.start.astimezone(UTC).isoformat(), events)
        return Outcome(new, events)

    # -- reading -------------------------------------------------------------------------
    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return view.view(state, seat)

    def public_state(self, state: State) -> State | None:
        """Nothing is hidden on the board, but each Council vote is its voter's secret (only
        tallies are public) and ballots are counted from the votes: a position with votes in
        it cannot be rebuilt from what a spectator sees."""
        if any(ballot["votes"] for ballot in state["ballots"]):
            return None
        return copy.deepcopy(state)

    def result(self, state: State) -> Result | None:
        over = state["over"]
        if over is None:
            return None
        seats = [int(s) for s in state["tanks"]]
        winners = tuple(over["winners"])
        # seats that conceded come last, the latest to concede first
        conceded = [s for s in reversed(state.get("resigned", [])) if s not in winners]
        if over["reason"] == "armistice":
            rest = tuple(s for s in seats if s not in winners and s not in conceded)
            ranking: tuple[tuple[int, ...], ...] = (winners, rest) if rest else (winners,)
            ranking += tuple((s,) for s in conceded)
        else:
            fallen = [s for s in seats if s not in winners and s not in conceded]
            # the fallen by order of death, the latest first; tanks never killed (none) last
            order = list(reversed(state["deaths"]))
            fallen.sort(key=lambda s: order.index(s) if s in order else len(order))
            fallen += conceded
            ranking = (winners, *((s,) for s in fallen)) if winners else tuple((s,) for s in fallen)
        scores = {s: 1.0 if s in winners else 0.0 for s in seats}
        return Result(ranking=tuple(g for g in ranking if g), scores=scores, reason=over["reason"])

    def resign(self, state: State, seat: int, now: Any) -> Outcome:
        """The tank leaves the board, its gold to the coffer, no Council seat (``rules``)."""
        return rules.resign(state, seat, now)

    def seats_out(self, state: State) -> frozenset[int]:
        return frozenset(state.get("resigned", ()))

    def legal_actions(self, state: State, seat: int) -> list[dict[str, Any]]:
        return legal.legal_actions(state, seat)

    def bot_submission(self, state: State, seat: int, bot: str, rng: random.Random) -> Submission:
        if bot != "random":
            raise RuleError([Problem("bot", _("Unknown bot %(bot)s; this game has: random."),
                                     {"bot": repr(bot)})])
        return legal.random_action(state, seat, rng)

    def log_text(
        self, state: State, seat: int | None = None, entries: Iterable[dict[str, Any]] = ()
    ) -> str:
        """Logbook ``entries`` (the events ``apply`` and ``tick`` returned, which the state does
        not keep) as text in the rule book's style, as ``seat`` may read them."""
        return view.log_text(state, entries, seat)

    def public_entry(self, entry: dict[str, Any], seat: int | None) -> dict[str, Any]:
        """A logbook entry as ``seat`` may see it (a vote's choice is its voter's alone)."""
        return view.public_entry(entry, seat)

    # -- text grammar (email) --------------------------------------------------------------
    def parse_text(self, state: State, seat: int, text_: str) -> Submission:
        return text.parse_text(state, seat, text_)

    def format_text(self, state: State, seat: int, submission: Submission) -> str:
        return text.format_text(state, seat, submission)

    def board_text(self, state: State, seat: int | None) -> str:
        return view.board_text(state, seat)

    def text_help(self, state: State, seat: int) -> str:
        return view.text_help(state, seat)

    # -- replay ------------------------------------------------------------------------------
    def replay(
        self, seats: int, options: Mapping[str, Any], seed: int, inputs: Iterable[Mapping[str, Any]]
    ) -> State:
        """The state after re-applying stored inputs from the start; refused inputs are skipped.

        Each input is {"seq", "kind": "action" | "tick" | "resign", "seat", "action", "at"}; its
        dice come from ``rng_for(seed, seq)``, so striking one input out leaves the others' dice
        as they were.
        """
        state = start = self.start(seats, options, seed)
        for _item, after, _events in self.replay_steps(start, seed, inputs):
            state = after
        return state
