"""Toy games for the lifecycle's tests (registered via ENGINE_EXTRA_GAMES).

Toy Duel:

Two seats, simultaneous sealed phases. Each seat submits {"number": 1..5}; the higher number
scores a point (a tie scores nothing); the first to ``target`` points (default 3) wins; a seat
that concedes (``resign``) loses. Default
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
from games import plugins

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

    def resign(self, state: State, seat: int, now: Any) -> Outcome:
        if self.result(state) is not None:
            raise RuleError("The duel is over.")
        if seat not in (1, 2):
            raise RuleError([Problem("seat", "Toy Duel seats are 1 and 2.")])
        return Outcome({**state, "resigned": seat},
                       [{"type": "resign", "seat": seat,
                         "text": f"{self.seat_name(seat)} conceded."}])

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return {"round": state["round"], "scores": state["scores"], "target": state["target"],
                "last": state["last"]}

    def public_state(self, state: State) -> State | None:
        return dict(state)  # nothing sealed is ever in the state

    def result(self, state: State) -> Result | None:
        scores = {int(s): v for s, v in state["scores"].items()}
        if state.get("resigned"):
            loser = state["resigned"]
            return Result(((3 - loser,), (loser,)), scores,
                          f"{self.seat_name(loser)} conceded.")
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


WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")


class ToyRace(Game):
    """Toy Race: a continuous game (every seat may act any time while the gameday window is
    open) with the same portal-facing API as Tank Game V4: a gameday schedule, a cooldown, a
    daily tick, dice from the rng, a logbook, replay, text grammar.

    Each runner starts with 3 AP; ``{"type": "step"}`` costs 1 AP and moves 1 or 2 squares (a
    die); the tick gives every runner 1 AP (at most 5). First to ``length`` wins. Schedule
    ``{"kind": "every", "minutes": N, "open_minutes": M}`` (slots counted from the Unix epoch)
    or ``{"kind": "weekly", "weekdays": [...], "open": "HH:MM", "close": "HH:MM",
    "time_zone": "Europe/Berlin", "holidays": ["YYYY-MM-DD"]}``. Test hook: option ``poison``
    ("tick" or "apply") makes that engine call raise, as an engine bug would.
    """

    slug = "toy-race"
    name = "Toy Race"
    min_seats = 2
    max_seats = 100
    bots = ("random",)

    def default_options(self) -> dict[str, Any]:
        return {"length": 10, "cooldown_minutes": 5,
                "schedule": {"kind": "every", "minutes": 60, "open_minutes": 60},
                "poison": ""}

    def validate_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        if not isinstance(options, Mapping):
            raise OptionsError("Options must be an object.")
        result = self.default_options()
        problems = []
        for key, value in options.items():
            if key not in result:
                problems.append(Problem(str(key), f"Unknown option {key!r}."))
            elif key == "poison":
                if value not in ("", "tick", "apply"):
                    problems.append(Problem(key, 'Must be "", "tick" or "apply".'))
                else:
                    result[key] = value
            elif key in ("length", "cooldown_minutes"):
                if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 999:
                    problems.append(Problem(key, "Must be a whole number from 0 to 999."))
                else:
                    result[key] = value
            else:
                schedule = self._schedule(value, problems)
                if schedule is not None:
                    result["schedule"] = schedule
        if problems:
            raise OptionsError(problems)
        return result

    @staticmethod
    def _schedule(value: Any, problems: list[Problem]) -> dict[str, Any] | None:
        from datetime import date
        from datetime import time as dtime
        from zoneinfo import ZoneInfo

        if not isinstance(value, Mapping) or value.get("kind") not in ("every", "weekly"):
            problems.append(Problem("schedule", 'kind must be "every" or "weekly".'))
            return None
        try:
            if value["kind"] == "every":
                minutes, open_minutes = int(value["minutes"]), int(value["open_minutes"])
                if not 1 <= open_minutes <= minutes:
                    raise ValueError("open_minutes must be 1..minutes")
                return {"kind": "every", "minutes": minutes, "open_minutes": open_minutes}
            days = [str(d) for d in value.get("weekdays", WEEKDAYS)]
            if not days or any(d not in WEEKDAYS for d in days):
                raise ValueError("weekdays must be mon..sun")
            dtime.fromisoformat(value["open"]), dtime.fromisoformat(value["close"])
            ZoneInfo(value["time_zone"])
            holidays = [date.fromisoformat(h).isoformat() for h in value.get("holidays", [])]
            return {"kind": "weekly", "weekdays": days, "open": value["open"],
                    "close": value["close"], "time_zone": value["time_zone"],
                    "holidays": holidays}
        except Exception as error:  # noqa: BLE001 - any malformed schedule is one problem
            problems.append(Problem("schedule", f"Not a valid schedule: {error}."))
            return None

    def start(self, seats: int, options: Mapping[str, Any], seed: int) -> State:
        options = self.validate_options(options)
        return {"options": options, "seats": seats,
                "runners": {str(s): {"at": 0, "ap": 3, "last": None} for s in
                            range(1, seats + 1)},
                "last_tick": None, "winner": None, "log": []}

    # -- the schedule ------------------------------------------------------------------------
    def _gameday_start(self, state: State, key: str) -> Any:
        from datetime import UTC, datetime
        from datetime import time as dtime
        from zoneinfo import ZoneInfo

        schedule = state["options"]["schedule"]
        if schedule["kind"] == "every":
            return datetime.fromtimestamp(int(key) * schedule["minutes"] * 60, UTC)
        local = datetime.combine(date_from(key), dtime.fromisoformat(schedule["open"]),
                                 ZoneInfo(schedule["time_zone"]))
        return local.astimezone(UTC)

    def _is_gameday(self, schedule: Mapping[str, Any], day: Any) -> bool:
        return (WEEKDAYS[day.weekday()] in schedule["weekdays"]
                and day.isoformat() not in schedule["holidays"])

    def gameday_key(self, state: State, now: Any) -> str:
        from zoneinfo import ZoneInfo

        schedule = state["options"]["schedule"]
        if schedule["kind"] == "every":
            return str(int(now.timestamp()) // (schedule["minutes"] * 60))
        return now.astimezone(ZoneInfo(schedule["time_zone"])).date().isoformat()

    def window_open(self, state: State, now: Any) -> bool:
        from datetime import time as dtime
        from zoneinfo import ZoneInfo

        schedule = state["options"]["schedule"]
        if schedule["kind"] == "every":
            return int(now.timestamp()) % (schedule["minutes"] * 60) < \
                schedule["open_minutes"] * 60
        local = now.astimezone(ZoneInfo(schedule["time_zone"]))
        return (self._is_gameday(schedule, local.date())
                and dtime.fromisoformat(schedule["open"]) <= local.time().replace(tzinfo=None)
                < dtime.fromisoformat(schedule["close"]))

    def next_tick_at(self, state: State, now: Any) -> Any:
        """The start of the first gameday after the last tick (or after ``now`` if none)."""
        from datetime import timedelta

        if state["winner"]:
            return None
        schedule = state["options"]["schedule"]
        if schedule["kind"] == "every":
            last = int(state["last_tick"]) if state["last_tick"] is not None \
                else int(self.gameday_key(state, now))
            return self._gameday_start(state, str(last + 1))
        day = date_from(state["last_tick"]) if state["last_tick"] else \
            date_from(self.gameday_key(state, now)) - timedelta(days=1)
        for _ in range(3660):
            day += timedelta(days=1)
            if self._is_gameday(schedule, day):
                start = self._gameday_start(state, day.isoformat())
                if state["last_tick"] or start > now:
                    return start
        return None

    # -- playing -------------------------------------------------------------------------------
    def prompts(self, state: State) -> dict[int, Prompt]:
        if state["winner"]:
            return {}
        return {s: Prompt(PhaseKind.CONTINUOUS, "gameday", required=False)
                for s in range(1, state["seats"] + 1)}

    def validate(self, state: State, seat: int, action: Any) -> Submission:
        if not isinstance(action, Mapping) or action.get("type") != "step" or len(action) != 1:
            raise RuleError([Problem("type", 'The only action is {"type": "step"}.')])
        problems = []
        if state["winner"]:
            problems.append(Problem("", "The race is over."))
        elif str(seat) not in state["runners"]:
            problems.append(Problem("seat", f"There is no runner {seat}."))
        elif state["runners"][str(seat)]["ap"] < 1:
            problems.append(Problem("ap", "You have no AP left."))
        if problems:
            raise RuleError(problems)
        return {"type": "step"}

    def action_problems(self, state: State, seat: int, action: Any, now: Any) -> list[Problem]:
        from datetime import datetime, timedelta

        try:
            self.validate(state, seat, action)
            problems = []
        except RuleError as error:
            problems = list(error.problems)
        if not self.window_open(state, now):
            problems.append(Problem("window", "The gameday window is closed."))
        runner = state["runners"].get(str(seat))
        if runner and runner["last"]:
            ready = datetime.fromisoformat(runner["last"]) + timedelta(
                minutes=state["options"]["cooldown_minutes"])
            if now < ready:
                left = int((ready - now).total_seconds() + 0.999)
                problems.append(Problem("cooldown", f"You can act again in {left // 60} min "
                                        f"{left % 60} s."))
        return problems

    def apply(self, state: State, seat: int, action: Any, now: Any,
              rng: random.Random) -> Outcome:
        problems = self.action_problems(state, seat, action, now)
        if problems:
            raise RuleError(problems)
        if state["options"]["poison"] == "apply":
            raise RuntimeError("toy-race poisoned: apply")
        die = rng.randint(1, 2)
        runners = {**state["runners"]}
        runner = runners[str(seat)]
        runners[str(seat)] = {"at": runner["at"] + die, "ap": runner["ap"] - 1,
                              "last": now.isoformat()}
        winner = seat if runners[str(seat)]["at"] >= state["options"]["length"] else None
        entry = {"seq": len(state["log"]) + 1, "at": now.isoformat(), "kind": "action",
                 "seat": seat, "action": {"type": "step"}, "dice": [die],
                 "text": f"Seat {seat} stepped {die}"}
        return Outcome({**state, "runners": runners, "winner": winner,
                        "log": [*state["log"], entry]}, [entry])

    def tick(self, state: State, now: Any, rng: random.Random) -> Outcome:
        key = self.gameday_key(state, now)
        if state["last_tick"] == key:
            return Outcome(state, [])
        if state["options"]["poison"] == "tick":
            raise RuntimeError("toy-race poisoned: tick")
        runners = {s: {**r, "ap": min(5, r["ap"] + 1)} for s, r in state["runners"].items()}
        entry = {"seq": len(state["log"]) + 1, "at": now.isoformat(), "kind": "tick",
                 "seat": None, "action": None, "dice": [], "text": f"Gameday {key} began"}
        return Outcome({**state, "runners": runners, "last_tick": key,
                        "log": [*state["log"], entry]}, [entry])

    def replay(self, seats: int, options: Mapping[str, Any], seed: int,
               entries: list[Mapping[str, Any]]) -> State:
        from datetime import datetime

        from engine import rng_for

        state = self.start(seats, options, seed)
        for entry in entries:
            now = datetime.fromisoformat(entry["at"])
            rng = rng_for(seed, entry["seq"])
            try:
                if entry["kind"] == "tick":
                    state = self.tick(state, now, rng).state
                else:
                    state = self.apply(state, entry["seat"], entry["action"], now, rng).state
            except RuleError:
                continue  # no longer legal without the struck entry: skipped
        return state

    def log_text(self, state: State, seat: int | None = None) -> str:
        return "".join(f"{e['at'][:16].replace('T', ' ')} — {e['text']}\n" for e in state["log"])

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return {"runners": state["runners"], "winner": state["winner"],
                "length": state["options"]["length"], "log": state["log"]}

    def result(self, state: State) -> Result | None:
        if not state["winner"]:
            return None
        others = tuple(s for s in range(1, state["seats"] + 1) if s != state["winner"])
        return Result(((state["winner"],), others), {state["winner"]: 1},
                      f"Seat {state['winner']} finished first")

    def default_submission(self, state: State, seat: int) -> Submission:
        return {}

    def legal_actions(self, state: State, seat: int) -> list[Submission]:
        try:
            return [self.validate(state, seat, {"type": "step"})]
        except RuleError:
            return []

    def bot_submission(self, state: State, seat: int, bot: str,
                       rng: random.Random) -> Submission:
        return {"type": "step"}

    def parse_text(self, state: State, seat: int, text: str) -> Submission:
        actions, problems = [], []
        for number, line in enumerate(str(text).splitlines(), start=1):
            if not line.strip():
                continue
            if line.strip().lower() == "step":
                actions.append({"type": "step"})
            else:
                problems.append(Problem(f"line {number}", f"{line.strip()!r}: write 'step'."))
        if problems or not actions:
            raise TextError(problems or [Problem("line 1", "Write 'step'.")])
        return {"actions": actions}

    def format_text(self, state: State, seat: int, submission: Submission) -> str:
        return "\n".join("step" for _ in submission.get("actions", [submission]))


def date_from(key: str) -> Any:
    from datetime import date

    return date.fromisoformat(key)


TOY_DUEL = engine.register(ToyDuel())
TOY_COUNT = engine.register(ToyCount())
TOY_RACE = engine.register(ToyRace())

# Offered on the site like an installed game (settings.INSTALLED_GAMES lists the real ones).
for _toy in (TOY_DUEL, TOY_COUNT, TOY_RACE):
    plugins.install(_toy.slug)
