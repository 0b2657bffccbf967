"""A lesson in a real browser (Debian's Chromium driven by Playwright): from the menu to the
Learn page, a wrong answer typed (under the clickable board) answered in place with the first
hint (no page load), then the solution typed and sent with the keyboard alone, solved in place
and kept as progress."""

from __future__ import annotations

import pytest

from portal.lessons.catalogue import game_lessons
from portal.lessons.models import LessonProgress
from tests.browser import BROWSER_MARKS, browser_page, log_in
from tests.portal.builders import (
    fast_password_hashing,  # noqa: F401  (autouse)
    make_user,
)

pytestmark = [pytest.mark.integration, *BROWSER_MARKS]

page = browser_page(timeout=20_000)
GAME = "final-act"


def test_a_player_solves_a_lesson_in_place(page):
    lesson = game_lessons(GAME)[0]
    user = make_user("learner")
    log_in(page, user.username)
    page.click("nav[aria-label=Main] >> text=Learn")
    page.wait_for_url("**/learn/")
    page.click(f"a[href='/learn/{GAME}/{lesson.slug}/']")
    page.wait_for_selector("svg")  # the game's own board
    page.evaluate("window.notReloaded = true")

    page.click("summary:has-text('Type your orders instead')")  # under the clickable board
    page.fill("#lesson-orders", lesson.wrong)
    page.click("#lesson-form button[type=submit]")
    page.wait_for_selector(".lesson-hints li")
    assert page.inner_text(".lesson-hints li") == str(lesson.hints[0])
    assert page.input_value("#lesson-hints") == "1"

    page.focus("#lesson-orders")
    page.keyboard.press("Control+A")
    page.keyboard.type(lesson.solution)
    page.keyboard.press("Tab")  # to the button
    page.keyboard.press("Enter")
    page.wait_for_selector(".lesson-solved")
    assert page.evaluate("window.notReloaded") is True  # answered in place
    progress = LessonProgress.objects.get(user=user, game=GAME, lesson=lesson.slug)
    assert progress.attempts == 2 and progress.hints_used == 1 and progress.solved_at

    page.goto(page.base + f"/learn/{GAME}/")
    assert "1 of" in page.inner_text("main")
