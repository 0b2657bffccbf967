"""A lesson played on the game's own clickable board in a real browser (Debian's Chromium):
Tank Game's "Range", first by mouse (a move: played, the goal not reached), then by keyboard
alone (Tab to the board, arrow keys, Enter on the square, Enter on Shoot): solved in place."""

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
GAME = "tank-game"


def test_a_lesson_played_on_the_board_by_mouse_and_keyboard(page):
    lesson = game_lessons(GAME)[0]  # Ada on C6, range 2: shoot at E7
    user = make_user("learner")
    log_in(page, user.username)
    page.goto(f"{page.base}/learn/{GAME}/{lesson.slug}/")
    page.wait_for_selector("[data-play-board] .tank-sq")
    page.evaluate("window.notReloaded = true")
    assert page.is_hidden("#lesson-orders")  # typing is folded under the board

    page.click('.tank-sq[data-square="D6"]')
    page.click("#tank-play button:has-text('Move')")
    page.wait_for_selector(".lesson-missed")
    assert page.input_value("#lesson-hints") == "1"

    page.click("h1")  # the keyboard from the top of the page
    for _ in range(80):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.matches('.tank-sq')"):
            break
    assert page.evaluate("document.activeElement.dataset.square") == "C6"
    for key in ("ArrowRight", "ArrowRight", "ArrowDown"):
        page.keyboard.press(key)
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.textContent.trim()") == "Shoot"
    page.keyboard.press("Enter")
    page.wait_for_selector(".lesson-solved")
    assert page.evaluate("window.notReloaded") is True  # answered in place
    progress = LessonProgress.objects.get(user=user, game=GAME, lesson=lesson.slug)
    assert progress.attempts == 2 and progress.solved_at


def test_a_final_strategy_turn_built_on_the_board_by_mouse_then_keyboard(page):
    lesson = game_lessons("final-strategy")[0]  # close c3 (c3-d3), then one quiet barrier
    page.goto(f"{page.base}/learn/final-strategy/{lesson.slug}/")
    page.click('[data-edge="c3-d3"]')
    page.wait_for_function("document.getElementById('fs-turn-text').textContent.includes('c3-d3')")
    assert page.is_hidden(".lesson-solved")  # the turn goes on: c3 was closed
    page.click("h1")
    for _ in range(80):
        page.keyboard.press("Tab")
        if page.evaluate("!!document.activeElement.closest('#fs-board-wrap [data-square]')"):
            break
    assert page.evaluate("document.activeElement.dataset.square") == "e5"
    for key in ("ArrowRight",) * 3 + ("ArrowUp",) * 3 + ("Shift+ArrowUp",):
        page.keyboard.press(key)
    assert page.evaluate("document.activeElement.dataset.edge") == "h8-h9"
    page.keyboard.press("Enter")  # the quiet barrier ends the turn: played at once
    page.wait_for_selector(".lesson-solved")
