"""Every lesson of every game, through the code path the lesson page uses: its solution solves
it, and a wrong answer (valid orders that miss the goal) does not."""

from __future__ import annotations

import pytest
from django.conf import settings

from portal.lessons.catalogue import all_lessons
from portal.lessons.play import lesson_attempt, lesson_start

LESSONS = [lesson for found in all_lessons().values() for lesson in found]


def test_every_game_the_site_ships_has_at_least_five_lessons():
    import engine

    shipped = {engine.get(name.replace("_", "-")).slug for name in settings.INSTALLED_GAMES}
    counts = {slug: len(found) for slug, found in all_lessons().items()}
    assert {slug: counts.get(slug, 0) >= 5 for slug in shipped} == dict.fromkeys(shipped, True)


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: f"{lesson.game}/{lesson.slug}")
def test_the_solution_solves_the_lesson(lesson):
    attempt = lesson_attempt(lesson, lesson.solution)
    assert attempt.problems == []
    assert attempt.solved, attempt.report


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: f"{lesson.game}/{lesson.slug}")
def test_a_wrong_answer_does_not_solve_the_lesson(lesson):
    """A wrong answer is orders the engine refuses (said why) or plays without reaching the
    goal (said what happened): either way not solved, and the page gives the next hint."""
    attempt = lesson_attempt(lesson, lesson.wrong)
    assert not attempt.solved
    assert attempt.problems or attempt.report


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: f"{lesson.game}/{lesson.slug}")
def test_the_lesson_starts_where_the_learner_may_act(lesson):
    """The goal is not met before the learner moves (the lesson is not solved by doing
    nothing) and its texts are written."""
    assert lesson_start(lesson) is not None
    assert str(lesson.title) and str(lesson.intro) and all(str(h) for h in lesson.hints)
    assert lesson.solution.strip() != lesson.wrong.strip()
