"""Checking and applying one input (a tank action or a council vote), with the time rules:
gameday windows and the cooldown."""

from __future__ import annotations

import random
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from typing import Any

from engine.base import Outcome, Problem, RuleError, State
from engine.base import gettext_noop as _
from engine.tank_game import actions, council, schedule
from engine.tank_game.gameday import check_last_man
from engine.tank_game.state import add_log, clone, name, tank

ACTION_TYPES = actions.TANK_ACTIONS + council.COUNCIL_ACTIONS


def aware(now: Any) -> datetime:
    """``now`` as an aware datetime, or RuleError."""
    if not isinstance(now, datetime) or now.tzinfo is None or now.utcoffset() is None:
        raise RuleError([Problem("now", _("The time must be a timezone-aware datetime."))])
    return now


def check(state: State, seat: Any, action: Any) -> tuple[dict[str, Any], list[Problem]]:
    """The normalized action and every problem with it, time aside."""
    if state.get("over") is not None:
        return {}, [Problem("match", _("The match is over."))]
    if isinstance(seat, bool) or not isinstance(seat, int) or str(seat) not in state["tanks"]:
        return {}, [Problem("seat", _("%(seat)s is not a seat in this match."),
                            {"seat": repr(seat)})]
    if not isinstance(action, Mapping):
        return {}, [Problem("", _("An action is an object with a 'type'."))]
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in ACTION_TYPES:
        return {}, [Problem("type", _("The action type is one of: %(types)s."),
                            {"types": ', '.join(ACTION_TYPES)})]
    if any(not isinstance(key, str) for key in action):
        return {}, [Problem("", _("Action keys must be strings."))]
    if kind in council.COUNCIL_ACTIONS:
        return council.check(state, seat, action)
    return actions.check(state, seat, action)


def _seconds(left: timedelta) -> str:
    total = max(1, int(left.total_seconds() + 0.999))
    minutes, seconds = divmod(total, 60)
    hours, minutes = divmod(minutes, 60)
    if hours:
        return f"{hours} h {minutes} min"
    return f"{minutes} min {seconds} s" if minutes else f"{seconds} s"


def first_waits_for_tick(state: State) -> bool:
    """Before its first tick, is the match's first gameday open anyway (it opens when the
    match starts, and its tick changes nothing but that)?"""
    return state["gameday"] is None and schedule.opens_at_start(state["options"]["schedule"])


def gameday_now(state: State, now: datetime) -> schedule.Gameday | None:
    """The gameday open at ``now``: the first one while it lasts (when it opened with the
    match), else the schedule's."""
    first = state.get("first_window")
    if first is not None and state["gameday"] == first["key"]:
        start, end = (datetime.fromisoformat(first[k]) for k in ("start", "end"))
        if start <= now < end:
            return schedule.Gameday(first["key"], start, end)
    return schedule.current(state["options"]["schedule"], now)


def time_problems(state: State, seat: int, kind: str, now: datetime) -> list[Problem]:
    """Window and cooldown problems for ``seat`` doing ``kind`` at ``now``."""
    problems: list[Problem] = []
    sched = state["options"]["schedule"]
    day = gameday_now(state, now)
    if first_waits_for_tick(state):
        pass  # open since the start; the tick that says so comes first in the portal
    elif day is None:
        opening = schedule.next_opening(sched, now)
        problems.append(
            Problem(
                "window",
                _("No gameday is open. The next gameday opens %(when)s."),
                {"when": schedule.describe(sched, opening.start)},
            )
        )
    elif day.key != state["gameday"]:
        problems.append(Problem("window", _("The gameday is opening; try again in a moment.")))
    if kind in actions.TANK_ACTIONS and str(seat) in state["tanks"]:
        until = tank(state, seat)["cooldown_until"]
        if until is not None and now < datetime.fromisoformat(until):
            left = datetime.fromisoformat(until) - now
            problems.append(Problem("cooldown", _("You can act again in %(wait)s."),
                                    {"wait": _seconds(left)}))
    return problems


def problems_now(state: State, seat: Any, action: Any, now: Any) -> list[Problem]:
    normalized, problems = check(state, seat, action)
    if problems and not normalized:
        return problems
    return problems + time_problems(state, seat, normalized["type"], aware(now))


def apply(state: State, seat: Any, action: Any, now: Any, rng: random.Random) -> Outcome:
    now = aware(now)
    normalized, problems = check(state, seat, action)
    if normalized:
        problems = problems + time_problems(state, seat, normalized["type"], now)
    if problems:
        raise RuleError(problems)
    new = clone(state)
    events: list[dict[str, Any]] = []
    at = now.astimezone(UTC).isoformat()
    if normalized["type"] in council.COUNCIL_ACTIONS:
        council.perform(new, seat, normalized, at, events)
    else:
        me = tank(new, seat)
        minutes = new["options"]["cooldown_minutes"]
        me["cooldown_until"] = (now + timedelta(minutes=minutes)).astimezone(UTC).isoformat()
        actions.perform(new, seat, normalized, at, rng, events)
    council.settle(new, at, events)
    check_last_man(new, at, events)
    return Outcome(new, events)


def resign(state: State, seat: Any, now: Any) -> Outcome:
    """``seat`` concedes (our ruling; the rule book has none): its tank leaves the board at
    once, its gold goes to the coffer and its bounty lapses; its player does not join the
    Council (a councillor or senator who concedes leaves it) and ranks below every seat that
    did not concede. Allowed at any time, in or out of a gameday; the Last Man Standing and
    the Council's ballots are settled again."""
    if state.get("over") is not None:
        raise RuleError([Problem("match", "The match is over.")])
    if isinstance(seat, bool) or not isinstance(seat, int) or str(seat) not in state["tanks"]:
        raise RuleError([Problem("seat", f"There is no seat {seat} in this match.")])
    if tank(state, seat)["status"] == "resigned":
        raise RuleError([Problem("seat", f"{name(state, seat)} has already conceded.")])
    new = clone(state)
    events: list[dict[str, Any]] = []
    at = aware(now).astimezone(UTC).isoformat()
    me = tank(new, seat)
    gold = me["gold"]
    new["coffer"] += gold
    me.update(status="resigned", at=None, lives=0, ap=0, gold=0, bounty=0, durability=0,
              cooldown_until=None)
    new["resigned"] = [*state.get("resigned", []), int(seat)]
    add_log(new, {"at": at, "kind": "resign", "seat": int(seat), "action": None, "dice": [],
                  "text": f"{name(new, seat)} conceded and left the match"
                          + (f" ({gold} gold to the coffer)" if gold else "")}, events)
    council.settle(new, at, events)
    check_last_man(new, at, events)
    return Outcome(new, events)


def next_tick_at(state: State, now: datetime) -> datetime | None:
    if state["over"] is not None:
        return None
    sched = state["options"]["schedule"]
    if first_waits_for_tick(state):
        return now
    if state["gameday"] is None:
        day = schedule.current(sched, now)
        return day.start if day is not None else schedule.next_opening(sched, now).start
    return schedule.first_after(sched, state["gameday"]).start


def due_gameday(state: State, now: datetime) -> schedule.Gameday | None:
    """The gameday a tick at ``now`` would open, or None if none is due."""
    if state["over"] is not None:
        return None
    sched = state["options"]["schedule"]
    if first_waits_for_tick(state):
        return schedule.first_at_start(sched, now)
    if state["gameday"] is None:
        day = schedule.current(sched, now)
        return day
    following = schedule.first_after(sched, state["gameday"])
    return following if following.start <= now else None
