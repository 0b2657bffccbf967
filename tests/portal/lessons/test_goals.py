"""The goal conditions a lesson may state, checked on real engine play (a lesson built here,
outside any plug-in's list) and on plain data."""

from __future__ import annotations

import pytest

from portal.lessons.catalogue import Lesson
from portal.lessons.play import contains, lesson_attempt

BREAKTHROUGH = {"scenario": {"round": 1, "terrain": [], "units": [
    {"seat": 1, "name": "C", "at": "e11", "facing": "N", "hits": 0},
    {"seat": 2, "name": "C", "at": "l12", "facing": "S", "hits": 0}]}}


def lesson(goal, **more):
    return Lesson(game="final-act", slug="test", title="t", intro="i", options=BREAKTHROUGH,
                  seat=1, goal=goal, hints=("h",), solution="C F", wrong="C stay", **more)


@pytest.mark.parametrize("goal, solved", [
    ({"outcome": [{"won": True}]}, True),
    ({"outcome": [{"won": False}]}, False),
    ({"outcome": [{"path": "breakthroughs.1", "equals": 1}]}, True),
    ({"outcome": [{"find": "units", "where": {"seat": 1, "name": "C"}, "has": None}]}, False),
    ({"outcome": [{"find": "units", "where": {"seat": 1, "name": "X"}, "has": None}]}, True),
    ({"outcome": [{"event": {"type": "breakthrough"}}]}, True),
    ({"outcome": [{"event": {"type": "breakthrough", "seat": 2}}]}, False),
    ({"orders": [{"units": {"C": {"move": "F"}}}]}, True),
    ({"orders": [{"units": {"C": {"move": "FL"}}}]}, False),
])
def test_each_kind_of_goal_is_checked_after_the_engine_played(goal, solved):
    assert lesson_attempt(lesson(goal), "C F").solved is solved


def test_orders_the_engine_refuses_are_not_played():
    attempt = lesson_attempt(lesson({"outcome": [{"won": True}]}), "C fire a1")
    assert not attempt.solved and attempt.problems and attempt.state is None


def test_the_other_seats_play_the_lessons_orders():
    """Delta's C steps onto e12 as Alpha's does: neither moves (a bounce), nobody wins."""
    bounce = Lesson(**{**lesson({"outcome": [{"won": True}]}).__dict__,
                       "options": {"scenario": {**BREAKTHROUGH["scenario"], "units": [
                           {"seat": 1, "name": "C", "at": "e11", "facing": "N", "hits": 0},
                           {"seat": 2, "name": "C", "at": "f12", "facing": "W", "hits": 0}]}},
                       "opponents": {2: "C F"}})
    assert not lesson_attempt(bounce, "C F").solved
    assert lesson_attempt(Lesson(**{**bounce.__dict__, "opponents": {}}), "C F").solved


@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_another_seat_may_be_played_by_the_games_bot(bot):
    played = lesson(goal={"outcome": [{"won": True}]}, opponents={2: {"bot": bot}})
    attempt = lesson_attempt(played, "C F")
    assert attempt.problems == [] and attempt.solved


@pytest.mark.parametrize("value, pattern, holds", [
    ({"a": 1, "b": {"c": [1, 2]}}, {"b": {"c": [1, 2]}}, True),
    ({"a": 1}, {"a": 1, "b": 2}, False),
    ([1, 2], [1], False),
    ("x", "x", True),
])
def test_a_pattern_holds_when_every_key_it_names_matches(value, pattern, holds):
    assert contains(value, pattern) is holds


def test_a_lesson_stops_where_its_next_move_cannot_be_played():
    """After "activate L1 move" the learner owes a path: seat 2's scripted move is not its
    turn, so the lesson ends there, played but not solved."""
    from portal.lessons.catalogue import lesson_get

    attempt = lesson_attempt(lesson_get("panzer-squadron", "ambush"), "activate L1 move")
    assert not attempt.solved and attempt.problems == [] and attempt.report
    assert attempt.state["phase"] == "path"
