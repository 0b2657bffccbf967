"""The analysis board in a real browser (Debian's Chromium driven by Playwright): open it from
a match page, play both sides with a bot's help, step back and forward with the keyboard, branch,
and see bad orders refused in place."""

from __future__ import annotations

import pytest

from analysis.models import Analysis
from tests.browser import BROWSER_MARKS, browser_page, log_in
from tests.portal.builders import duel, make_user

pytestmark = BROWSER_MARKS

page = browser_page()


def heading(page) -> str:
    return page.inner_text("#position-heading")


@pytest.mark.long
def test_stepping_through_an_analysis_board(page):
    alice, bob = make_user("alice"), make_user("bob")
    match = duel(alice, bob)
    log_in(page, "alice")
    page.goto(f"{page.base}/matches/{match.pk}/")
    page.click("text=Analyse this match on the analysis board")
    page.click("button:has-text('Open the analysis board')")
    page.wait_for_selector("#position-heading")
    assert heading(page).startswith("Starting position")
    token = Analysis.objects.get().token
    assert token in page.input_value("#share-link")

    # Both sides: North typed, South from the bot's suggestion.
    page.fill("#orders-1", "4")
    page.click("#analysis fieldset:has(#orders-2) button:has-text('Suggest a move')")
    page.wait_for_selector("#suggested-2")
    page.click("button:has-text('Use this suggestion')")
    suggested = page.input_value("#orders-2")
    assert suggested.strip() in {"1", "2", "3", "4", "5"}
    page.click("button:has-text('Play these orders')")
    page.wait_for_function("document.querySelector('#position-heading')"
                           ".innerText.startsWith('Position 1')")
    assert page.url.endswith("?node=1")

    # The keyboard: ← steps back, → steps forward.
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("document.querySelector('#position-heading')"
                           ".innerText.startsWith('Starting position')")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("document.querySelector('#position-heading')"
                           ".innerText.startsWith('Position 1')")

    # Back to the start and a second line from there: a branch.
    page.click("text=Step back")
    page.wait_for_function("document.querySelector('#position-heading')"
                           ".innerText.startsWith('Starting position')")
    page.fill("#orders-1", "9")  # refused in place, saying why
    page.click("button:has-text('Play these orders')")
    page.wait_for_selector("#analysis-errors")
    assert "North" in page.inner_text("#analysis-errors")
    page.fill("#orders-1", "5")
    page.fill("#orders-2", "1")
    page.click("button:has-text('Play these orders')")
    page.wait_for_function("document.querySelector('#position-heading')"
                           ".innerText.startsWith('Position 2')")
    page.click(".analysis-tree a:has-text('0.')")
    page.wait_for_function("document.querySelector('#position-heading')"
                           ".innerText.startsWith('Starting position')")
    assert "2 branches" in page.inner_text(".analysis-tree")
    analysis = Analysis.objects.get()
    assert [n["parent"] for n in analysis.nodes] == [None, 0, 0]
