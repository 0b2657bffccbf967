"""Panzer Squadron in a real browser on the real stack (PostgreSQL, Redis, a Celery worker
for the bot, the live server, Debian's Chromium through Playwright): a whole match against
the bot through the pages only — create it, choose actions, see the rolled points, fill the
path by clicking a shaded hex, set a standing reaction, reach the end and step the replay
with its dice. A short scenario (two tanks a side, two turns) keeps it quick."""

from __future__ import annotations

import json
import re
import time

import pytest

from games.models import Match
from tests.browser import BROWSER_MARKS, browser_page, log_in
from tests.integration.final_act_pages import artifacts_dir
from tests.portal.builders import fast_password_hashing, make_user  # noqa: F401

pytestmark = [pytest.mark.integration, *BROWSER_MARKS]

SCENARIO = {"size": [9, 7], "turn": 1, "initiative": 1,
            "terrain": {"woods": ["e4"], "building": ["c4"], "water": []},
            "tanks": [{"seat": 1, "name": "A1", "card": "heavy", "at": "c1", "facing": 12},
                      {"seat": 1, "name": "A2", "card": "light", "at": "g1", "facing": 12},
                      {"seat": 2, "name": "B1", "card": "light", "at": "c7", "facing": 6},
                      {"seat": 2, "name": "B2", "card": "medium", "at": "g7", "facing": 6}]}


page = browser_page(viewport={"width": 1200, "height": 1000}, timeout=30_000)


def wait_for_my_turn_or_end(page, url: str, timeout: float = 90) -> str:
    """Reload until the activation panel or the result shows (the bot plays in the worker)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        page.goto(url)
        if page.query_selector("#ps-activation"):
            return "turn"
        if page.query_selector("#result-heading"):
            return "over"
        page.wait_for_timeout(700)
    raise AssertionError("neither my turn nor the end came")


def test_a_whole_match_against_the_bot_through_the_pages(stack, page):
    stack.worker()
    make_user("alice")
    log_in(page, "alice")
    page.goto(page.base + "/matches/new/?game=panzer-squadron")
    page.select_option("select[name=seat_2]", "bot:greedy")
    options = {"scenario": SCENARIO, "turn_limit": 2, "dice": [4]}  # A1's first move: 3 points
    page.click("#create-advanced summary")  # the options as JSON are "advanced"
    page.fill("textarea[name=options]", json.dumps(options))
    page.fill("input[name=title]", "Alice against the panzer bot")
    page.click("button:has-text('Create the match')")
    page.wait_for_url(re.compile(r".*/matches/\d+/$"))
    url = page.url
    match = Match.objects.get(title="Alice against the panzer bot")
    assert page.locator(".ps-board-section .ps-hex").count() == 9 * 7
    page.screenshot(path=str(artifacts_dir() / "panzer-squadron-start.png"), full_page=True)

    # a standing reaction, at once and without passing the turn
    page.select_option("select[name=mode_A2]", "side-rear")
    page.fill("input[name=max_A2]", "4")
    page.click("#ps-reactions button[type=submit]")
    page.wait_for_url(url)
    match.refresh_from_db()
    assert match.state["reactions"]["A2"] == {"mode": "side-rear", "max_range": 4}
    assert match.state["to_move"] == 1

    moved = False
    for _ in range(12):
        if wait_for_my_turn_or_end(page, url) == "over":
            break
        if page.query_selector("#ps-path-form"):
            assert "the dice show" in page.inner_text("#ps-activation")
            reach = page.query_selector(".ps-board .ps-reach")
            if reach is not None:
                reach.click()
                assert page.input_value("#ps-path") != ""
                moved = True
            page.click("#ps-path-form button[type=submit]")
        else:
            options = page.locator("#ps-activate-form input[name=choice]")
            values = [options.nth(i).get_attribute("value") for i in range(options.count())]
            moves = [v for v in values if v.endswith(" move")]
            fires = [v for v in values if " fire " in v]
            # the first time the two-step move (roll, then the path), then shoot when we can
            wanted = (moves or values)[0] if not moved else (fires or moves or values)[0]
            page.check(f"#ps-activate-form input[value='{wanted}']")
            page.click("#ps-activate-form button[type=submit]")
        page.wait_for_load_state()
    assert wait_for_my_turn_or_end(page, url) == "over"
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and moved
    page.screenshot(path=str(artifacts_dir() / "panzer-squadron-end.png"), full_page=True)

    # the replay steps through every phase, the dice in its story
    page.click("text=Step through the replay from the start")
    assert "is activated to" in page.content()
    found = False
    for number in range(1, match.phase_number):
        page.goto(f"{url}?replay={number}")
        content = page.content()
        if re.search(r"rolls \d", content) or "d100" in content:
            found = True
            break
    assert found, "no die roll in any replay frame"
