"""Playing a lesson against the engine: the learner's orders are read with the game's text
grammar, checked and resolved by the engine (the other seats play the lesson's fixed orders or
the engine's default), and the lesson's goal is checked on what the learner may see after.

A lesson never touches the database: each try starts again from the lesson's position, so the
same orders always give the same answer (the dice come from the lesson's own seed)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from django.utils.translation import gettext as _

import engine
from engine import Game, PhaseKind, RuleError, rng_for
from games import plugins
from portal.lessons.catalogue import Lesson

# The moment a lesson is played at (a Monday morning): continuous games act at this time.
LESSON_TIME = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
MAX_ORDERS_LENGTH = 4000


@dataclass(frozen=True)
class Attempt:
    """What one try gave: solved or not, why the orders were refused (one sentence a problem),
    what happened in words, and the position after (None when the orders were refused)."""

    solved: bool
    problems: list[str] = field(default_factory=list)
    report: list[str] = field(default_factory=list)
    state: Any = None


def lesson_start(lesson: Lesson) -> Any:
    """The lesson's position: the engine started from the lesson's options (its scenario)."""
    return plugins.plugin_for(lesson.game).lesson_start(
        seats=lesson.seats, options=lesson.options, seed=lesson.seed, now=LESSON_TIME)


def lesson_attempt(lesson: Lesson, text: str) -> Attempt:
    """Play ``text`` (orders in the game's grammar) as the learner's move in ``lesson``."""
    game, plugin = engine.get(lesson.game), plugins.plugin_for(lesson.game)
    state = lesson_start(lesson)
    if not text.strip():
        return Attempt(False, problems=[_("Write your orders first.")])
    try:
        state, events, orders = _play(game, lesson, state, text)
    except RuleError as error:
        return Attempt(False, problems=plugin.problem_lines(error.problems, text))
    view = game.view(state, lesson.seat)
    solved = goal_met(lesson.goal, game=game, state=state, view=view, seat=lesson.seat,
                      events=events, orders=orders)
    return Attempt(solved, report=plugin.round_report(events, lesson.seat), state=state)


def lesson_board_orders(lesson: Lesson, raw: str) -> str:
    """The orders the learner made on the clickable board (``raw``: the sheet as JSON),
    checked and written as typed orders; a ``RuleError`` says what is wrong with them."""
    return plugins.posted_sheet_text(plugins.plugin_for(lesson.game), lesson_start(lesson),
                                     lesson.seat, raw)


def _is_continuous(game: Game, state: Any, seat: int) -> bool:
    prompt = game.prompts(state).get(seat)
    return prompt is not None and prompt.kind == PhaseKind.CONTINUOUS


def _play(game: Game, lesson: Lesson, state: Any, text: str) -> tuple[Any, list[dict], Any]:
    """The position after the learner's orders (and the other seats'), its events, and the
    learner's orders as the engine checked them."""
    seat, rng = lesson.seat, rng_for(lesson.seed, 1)
    prompts = game.prompts(state)
    submission = game.parse_text(state, seat, text)
    prompt = prompts.get(seat)
    if prompt is not None and prompt.kind == PhaseKind.SIMULTANEOUS:
        sheets = {seat: game.validate(state, seat, submission)}
        for other in prompts:
            if other != seat:
                sheets[other] = _opponent_sheet(game, lesson, state, other, rng)
        outcome = game.resolve(state, sheets, rng)
        return outcome.state, list(outcome.events), sheets[seat]
    if prompt is None and not game.is_setting(submission):
        raise RuleError(_("It is not your move in this lesson."))
    events: list[dict] = []
    checked: list[Any] = []
    for one in _actions(game, state, seat, submission):
        if not _is_continuous(game, state, seat) and not game.is_setting(one):
            one = game.validate(state, seat, one)
        checked.append(one)
        outcome = game.apply(state, seat, one, LESSON_TIME, rng)
        state, events = outcome.state, events + list(outcome.events)
    for step in lesson.then:
        try:  # the lesson's own moves, read in the position the learner's left
            action = game.parse_text(state, step["seat"], step["text"])
            for one in _actions(game, state, step["seat"], action):
                outcome = game.apply(state, step["seat"], one, LESSON_TIME, rng)
                state, events = outcome.state, events + list(outcome.events)
        except RuleError:
            break  # after these orders the lesson's next move cannot be played: it ends here
    return state, events, checked[0] if len(checked) == 1 else {"actions": checked}


def _opponent_sheet(game: Game, lesson: Lesson, state: Any, seat: int, rng: Any) -> Any:
    """What another seat submits in a simultaneous phase: the lesson's orders (text), the
    game's bot (``{"bot": name}``), or the engine's default sheet."""
    orders = lesson.opponents.get(seat, "")
    if isinstance(orders, Mapping):
        return game.validate(state, seat, game.bot_submission(state, seat, orders["bot"], rng))
    if orders:
        return game.validate(state, seat, game.parse_text(state, seat, orders))
    return game.default_submission(state, seat)


def _actions(game: Game, state: Any, seat: int, submission: Any) -> list[Any]:
    """A continuous phase's sheet holds several actions, applied one by one (as the match
    lifecycle does); any other submission is one action."""
    if _is_continuous(game, state, seat) and isinstance(submission, dict) \
            and isinstance(submission.get("actions"), list):
        return list(submission["actions"])
    return [submission]


# -- goals ------------------------------------------------------------------------------------

def goal_met(goal: Mapping[str, Any], *, game: Game, state: Any, view: Any, seat: int,
             events: list[dict], orders: Any) -> bool:
    """Does the position (as ``seat`` sees it) or the orders meet the lesson's goal?

    ``{"orders": [pattern, ...]}``: the learner's checked orders contain one of the patterns.
    ``{"outcome": [condition, ...]}``: every condition holds after the engine resolved the move:
    ``{"won": true}`` (the learner wins), ``{"path": "a.b", "equals": v}`` (a value in the
    view), ``{"find": "a.b", "where": {...}, "has": {...}}`` (an item of a list in the view:
    the one matching ``where`` has the fields of ``has``; ``"has": null``: there is none),
    ``{"event": {...}}`` (an event of the move holds these fields)."""
    if "orders" in goal:
        return any(contains(orders, pattern) for pattern in goal["orders"])
    return all(_holds(c, game=game, state=state, view=view, seat=seat, events=events)
               for c in goal["outcome"])


def _holds(condition: Mapping[str, Any], *, game: Game, state: Any, view: Any, seat: int,
           events: list[dict]) -> bool:
    if "won" in condition:
        result = game.result(state)
        return (result is not None and seat in result.winners) == bool(condition["won"])
    if "event" in condition:
        return any(contains(event, condition["event"]) for event in events)
    found = _at(view, condition.get("path") or condition["find"])
    if "path" in condition:
        return found == condition["equals"]
    matching = [item for item in (found or []) if contains(item, condition.get("where", {}))]
    if condition["has"] is None:
        return not matching
    return any(contains(item, condition["has"]) for item in matching)


def _at(value: Any, path: str) -> Any:
    for key in path.split("."):
        if not isinstance(value, Mapping) or key not in value:
            return None
        value = value[key]
    return value


def contains(value: Any, pattern: Any) -> bool:
    """Does ``value`` hold ``pattern``: every key of a pattern dict (recursively), every item
    of a pattern list in the same order, an equal value otherwise?"""
    if isinstance(pattern, Mapping):
        return isinstance(value, Mapping) and all(
            key in value and contains(value[key], part) for key, part in pattern.items())
    if isinstance(pattern, list):
        return isinstance(value, list) and len(value) == len(pattern) and all(
            contains(v, p) for v, p in zip(value, pattern, strict=True))
    return bool(value == pattern)
