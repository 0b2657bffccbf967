"""Toy games for the lifecycle's tests (registered via ENGINE_EXTRA_GAMES).

Toy Duel:

Two seats, simultaneous sealed phases. Each seat submits {"number": 1..5}; the higher number
scores a point (a tie scores nothing); the first to ``target`` points (default 3) wins. Default
sheet {"number": 1}; a "random" bot; the text grammar is just the number ("5"). The state holds
nothing sealed, so ``view`` hides nothing.

Test hooks, all off by default:
- option ``poison_round``: resolving that round raises (a "poison game" for quarantine tests);
- env TOY_DUEL_RESOLVE_SLEEP (seconds) and TOY_DUEL_RESOLVE_MARKER (a path): resolve touches
  the marker file, then sleeps, so a test can SIGKILL a worker in the middle of a resolution.
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import engine
from engine import Game, OptionsError, Outcome, PhaseKind, Problem, Prompt, Result, RuleError
from engine.base import State, Submission, TextError

NUMBERS = range(1, 6)


class ToyDuel(Game):
    slug = "toy-duel"
    name = "Toy Duel"
    min_seats = 2
    max_seats = 2
    seat_names = {1: "North", 2: "South"}
    bots = ("random",)

    def default_options(self) -> dict[str, Any]:
        return {"target": 3, "poison_round": 0}

    def validate_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        if not isinstance(options, Mapping):
            raise OptionsError("Options must be an object.")
        problems = []
        result = self.default_options()
        for key, value in options.items():
            if key not in result:
                problems.append(Problem(str(key), f"Unknown option {key!r}."))
            elif not isinstance(value, int) or isinstance(value, bool):
                problems.append(Problem(key, "Must be a whole number."))
            elif key == "target" and not 1 <= value <= 9:
                problems.append(Problem(key, "The target must be between 1 and 9 points."))
            elif key == "poison_round" and value < 0:
                problems.append(Problem(key, "Must be 0 (off) or a round number."))
            else:
                result[key] = value
        if problems:
            raise OptionsError(problems)
        return result

    def start(self, seats: int, options: Mapping[str, Any], seed: int) -> State:
        options = self.validate_options(options)
        return {"round": 1, "scores": {"1": 0, "2": 0}, "target": options["target"],
                "poison_round": options["poison_round"], "last": None}

    def prompts(self, state: State) -> dict[int, Prompt]:
        if self.result(state) is not None:
            return {}
        return {seat: Prompt(PhaseKind.SIMULTANEOUS, "duel") for seat in (1, 2)}

    def validate(self, state: State, seat: int, submission: Any) -> Submission:
        if not isinstance(submission, Mapping):
            raise RuleError("The sheet must be an object like {\"number\": 3}.")
        problems = [Problem(str(k), f"Unknown field {k!r}.") for k in submission if k != "number"]
        number = submission.get("number")
        if "number" not in submission:
            problems.append(Problem("number", "Pick a number from 1 to 5."))
        elif not isinstance(number, int) or isinstance(number, bool) or number not in NUMBERS:
            problems.append(Problem("number", f"{number!r} is not a number from 1 to 5."))
        if problems:
            raise RuleError(problems)
        return {"number": number}

    def warnings(self, state: State, seat: int, submission: Submission) -> list[Problem]:
        if submission["number"] == 1:
            return [Problem("number", "1 can only tie; did you mean a higher number?")]
        return []

    def default_submission(self, state: State, seat: int) -> Submission:
        return {"number": 1}

    def resolve(self, state: State, submissions: Mapping[int, Submission],
                rng: random.Random) -> Outcome:
        if state["poison_round"] and state["round"] == state["poison_round"]:
            raise RuntimeError(f"toy-duel poisoned at round {state['round']}")
        delay = float(os.environ.get("TOY_DUEL_RESOLVE_SLEEP") or 0)
        if delay:
            marker = os.environ.get("TOY_DUEL_RESOLVE_MARKER")
            if marker:
                Path(marker).write_text(str(os.getpid()))
            time.sleep(delay)
        a, b = submissions[1]["number"], submissions[2]["number"]
        scores = dict(state["scores"])
        winner = 1 if a > b else 2 if b > a else None
        if winner:
            scores[str(winner)] += 1
        events = [{"type": "duel", "round": state["round"], "numbers": {"1": a, "2": b},
                   "winner": winner}]
        new_state = {**state, "round": state["round"] + 1, "scores": scores,
                     "last": {"1": a, "2": b}}
        return Outcome(new_state, events)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return {"round": state["round"], "scores": state["scores"], "target": state["target"],
                "last": state["last"]}

    def result(self, state: State) -> Result | None:
        scores = {int(s): v for s, v in state["scores"].items()}
        leaders = [s for s, v in scores.items() if v >= state["target"]]
        if not leaders:
            return None
        (winner,) = leaders  # one point per round: only one seat can reach the target first
        loser = 3 - winner
        return Result(((winner,), (loser,)), scores, f"{self.seat_name(winner)} reached "
                      f"{state['target']} points")

    def legal_actions(self, state: State, seat: int) -> list[Submission]:
        return [{"number": n} for n in NUMBERS]

    def bot_submission(self, state: State, seat: int, bot: str,
                       rng: random.Random) -> Submission:
        if bot not in self.bots:
            raise ValueError(f"toy-duel has no bot {bot!r}")
        return {"number": rng.choice(list(NUMBERS))}

    def parse_text(self, state: State, seat: int, text: str) -> Submission:
        words = str(text).split()
        if len(words) != 1 or not words[0].isdigit():
            raise TextError([Problem("line 1", "Write one number from 1 to 5, e.g. 4.")])
        return self.validate(state, seat, {"number": int(words[0])})

    def format_text(self, state: State, seat: int, submission: Submission) -> str:
        return str(submission["number"])


class ToyCount(Game):
    """Toy Count: seats take turns (sequential phases) adding 1..3 to a shared counter; whoever
    brings it to ``target`` (default 10) or beyond wins. Default: add 1."""

    slug = "toy-count"
    name = "Toy Count"
    min_seats = 2
    max_seats = 3
    bots = ("random",)

    def default_options(self) -> dict[str, Any]:
        return {"target": 10}

    def validate_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        if not isinstance(options, Mapping):
            raise OptionsError("Options must be an object.")
        unknown = [Problem(str(k), f"Unknown option {k!r}.") for k in options if k != "target"]
        target = options.get("target", 10)
        if isinstance(target, bool) or not isinstance(target, int) or not 3 <= target <= 99:
            unknown.append(Problem("target", "The target must be a whole number, 3 to 99."))
        if unknown:
            raise OptionsError(unknown)
        return {"target": target}

    def start(self, seats: int, options: Mapping[str, Any], seed: int) -> State:
        return {"seats": seats, "turn": 1, "counter": 0, "winner": None,
                "target": self.validate_options(options)["target"]}

    def prompts(self, state: State) -> dict[int, Prompt]:
        if state["winner"]:
            return {}
        return {state["turn"]: Prompt(PhaseKind.SEQUENTIAL, "count")}

    def validate(self, state: State, seat: int, submission: Any) -> Submission:
        add = submission.get("add") if isinstance(submission, Mapping) else None
        if isinstance(add, bool) or add not in (1, 2, 3):
            raise RuleError([Problem("add", "Add 1, 2 or 3.")])
        return {"add": add}

    def default_submission(self, state: State, seat: int) -> Submission:
        return {"add": 1}

    def apply(self, state: State, seat: int, action: Any, now: Any,
              rng: random.Random) -> Outcome:
        counter = state["counter"] + action["add"]
        winner = seat if counter >= state["target"] else None
        turn = seat % state["seats"] + 1
        return Outcome({**state, "counter": counter, "winner": winner, "turn": turn},
                       [{"type": "count", "seat": seat, "add": action["add"],
                         "counter": counter}])

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return dict(state)

    def result(self, state: State) -> Result | None:
        if not state["winner"]:
            return None
        others = tuple(s for s in range(1, state["seats"] + 1) if s != state["winner"])
        return Result(((state["winner"],), others), {state["winner"]: 1},
                      f"Seat {state['winner']} reached {state['target']}")

    def legal_actions(self, state: State, seat: int) -> list[Submission]:
        return [{"add": n} for n in (1, 2, 3)]

    def bot_submission(self, state: State, seat: int, bot: str,
                       rng: random.Random) -> Submission:
        return {"add": rng.choice((1, 2, 3))}

    def parse_text(self, state: State, seat: int, text: str) -> Submission:
        word = str(text).strip()
        if not word.isdigit():
            raise TextError([Problem("line 1", "Write 1, 2 or 3.")])
        return self.validate(state, seat, {"add": int(word)})

    def format_text(self, state: State, seat: int, submission: Submission) -> str:
        return str(submission["add"])


TOY_DUEL = engine.register(ToyDuel())
TOY_COUNT = engine.register(ToyCount())
