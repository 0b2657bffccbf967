"""Creating a match against a bot in a real browser (Debian's Chromium through Playwright, the
real stack: PostgreSQL, Redis, a Celery worker and beat): log in, choose only the game and the
"Play the bot now" preset (no JSON), then play two turns on the page and see the phases resolve
and the history. One test per game."""

from __future__ import annotations

import re
import time

import pytest

from games.models import Action, Match
from tests.browser import BROWSER_MARKS, browser_page, log_in
from tests.integration import final_act_pages as fa
from tests.portal.builders import (
    fast_password_hashing,  # noqa: F401  (autouse)
    make_user,
)

pytestmark = [pytest.mark.integration, *BROWSER_MARKS]


page = browser_page(viewport={"width": 1280, "height": 1000}, timeout=20_000)


def settled(page) -> None:
    page.wait_for_timeout(200)
    page.wait_for_function("!document.querySelector('.htmx-request')")


def create_against_the_bot(page, game: str, title: str) -> Match:
    """The create form with only the game and the preset chosen; everything else as drawn."""
    make_user("alice")
    log_in(page, "alice")
    page.goto(page.base + "/matches/new/")
    page.select_option("select[name=game]", game)
    page.wait_for_selector(f"input[name=options_game][value='{game}']", state="attached")
    settled(page)
    page.get_by_label("Play the bot now").check()
    settled(page)
    assert page.locator("textarea[name=options]").is_hidden()  # the JSON stays "advanced"
    assert page.locator("#game-options").is_visible()
    page.fill("input[name=title]", title)
    page.click("button:has-text('Create the match')")
    page.wait_for_url(re.compile(r".*/matches/\d+/$"))
    match = Match.objects.get(title=title)
    assert match.status == Match.Status.ACTIVE and match.seats.get(number=2).bot
    return match


@pytest.mark.long
def test_tank_game_against_the_bot(stack, page):
    stack.worker()
    stack.beat()
    match = create_against_the_bot(page, "tank-game", "Tanks now")
    assert match.options["schedule"]["kind"] == "every"  # the quick preset's gamedays
    url = page.url
    moves = 0
    deadline = time.monotonic() + 200  # two gamedays of two minutes, and some
    while moves < 2 and time.monotonic() < deadline:
        page.goto(url)
        move = page.locator("form:has(input[name=type][value=move]) button")
        if move.count():
            move.click()
            settled(page)
            moves += 1
            mine = Action.objects.filter(match=match, kind=Action.Kind.ACTION, seat=1)
            for _ in range(50):
                if mine.count() == moves:
                    break
                time.sleep(0.2)
            assert mine.count() == moves, page.inner_text("#tank-play")
        else:
            page.wait_for_timeout(3_000)  # no AP left or cooling down: the next gameday
    assert moves == 2
    page.goto(url)
    log = page.inner_text(".tank-log")
    assert log.count("Moved to") >= 2
    mine = Action.objects.filter(match=match, kind=Action.Kind.ACTION, seat=1)
    assert mine.count() == 2
    # a gameday opened between the two moves (one action point each)
    ticks = Action.objects.filter(match=match, kind=Action.Kind.TICK)
    assert ticks.filter(at__gt=mine.earliest("seq").at).exists()


@pytest.mark.long
def test_final_act_against_the_bot(stack, page):
    stack.worker()
    create_against_the_bot(page, "final-act", "Final Act now")
    assert "Setup" in fa.phase_heading(page)
    fa.place_setup_by_clicking(page)
    fa.seal_setup(page)
    fa.wait_for_heading(page, "Round 1")
    assert fa.report_title(page).startswith("Last: Setup revealed")
    order = fa.order_one_unit(page)
    fa.fire_at(page, order)
    fa.quiet(page)
    fa.seal_orders(page)
    fa.wait_for_heading(page, "Round 2")
    assert "Round 1" in fa.report_title(page)
    assert any(order["unit"] in line for line in fa.story(page))


def test_panzer_squadron_against_the_bot(stack, page):
    stack.worker()
    create_against_the_bot(page, "panzer-squadron", "Panzers now")
    url = page.url
    played = 0
    deadline = time.monotonic() + 90
    while played < 2 and time.monotonic() < deadline:
        page.goto(url)
        if page.query_selector("#ps-path-form"):
            reach = page.query_selector(".ps-board .ps-reach")
            if reach is not None:
                reach.click()  # a hex on the board
            page.click("#ps-path-form button[type=submit]")
            played += 1
        elif page.query_selector("#ps-activate-form"):
            page.locator("#ps-activate-form input[name=choice]").first.check()
            page.click("#ps-activate-form button[type=submit]")
            played += 1
        else:
            page.wait_for_timeout(700)  # the bot's activation, in the worker
        page.wait_for_load_state()
    assert played == 2
    page.goto(url)
    assert page.locator("#history .history-entry, #history details, #history li").count()
    assert "Phase" in page.inner_text("#history") or "activat" in page.inner_text("#history")


@pytest.mark.long
def test_final_strategy_against_the_bot(stack, page):
    stack.worker()
    match = create_against_the_bot(page, "final-strategy", "Strategy now")
    url = page.url
    played = 0
    deadline = time.monotonic() + 90
    while played < 2 and time.monotonic() < deadline:
        page.goto(url)
        example = page.locator("#example-sheet")
        if example.count():
            page.click("#typed-orders summary")  # the text grammar, on demand under the board
            page.click("#typed-orders summary:has-text('Example')")
            page.click("button:has-text('Start from this example')")
            page.click("#typed-orders button[type=submit]")
            settled(page)
            played += 1
        else:
            page.wait_for_timeout(700)  # the bot's turn, in the worker
    assert played == 2
    match.refresh_from_db()
    assert match.phase_number >= 4  # my two turns and the bot's in between
    page.goto(url)
    assert page.locator("#history").is_visible()
