"""Final Strategy in a real browser (Debian's Chromium driven by Playwright): a 3-player match
through the pages. Seat 1 walls in a square and goes on (each click checked by the engine), seat
2 places a kidnapper and picks its corner with the mouse, seat 3 plays with the keyboard alone;
the other players' pages follow without a manual reload (the status poll), and nobody's page
shows another seat's bunker split. Then the page on a phone."""

from __future__ import annotations

import pytest

from games.models import Match
from games.services import match_create
from tests.browser import BROWSER_MARKS, log_in
from tests.portal.builders import (
    fast_password_hashing,  # noqa: F401  (autouse)
    make_user,
)

pytestmark = [pytest.mark.integration, *BROWSER_MARKS]

SCENARIO = {"barriers": ["c3-c4", "c3-d3", "b3-c3"]}
INTERACTIVE = "#fs-board.fs-interactive"


@pytest.fixture
def new_page(new_page):
    def make(**options):
        return new_page(**{"viewport": {"width": 1280, "height": 1000}, "timeout": 20_000,
                           **options})

    return make


def state_of(match: Match) -> dict:
    match.refresh_from_db()
    return match.state


def wait_turn(match: Match, to_move: int) -> None:
    import time

    for _ in range(100):
        if state_of(match)["to_move"] == to_move:
            return
        time.sleep(0.1)
    raise AssertionError(f"seat {to_move} never got the move: {state_of(match)['to_move']}")


@pytest.mark.long
def test_a_three_player_match_through_the_pages(new_page):
    users = [make_user(f"fsb_{n}") for n in ("ann", "ben", "cat")]
    match = match_create(creator=users[0], game="final-strategy",
                         options={"scenario": SCENARIO}, hours_per_phase=24,
                         seats=[{"kind": "human", "user": u} for u in users])
    url = f"/matches/{match.pk}/"
    pages = []
    for user in users:
        page = new_page()
        log_in(page, user.username)
        page.goto(page.base + url)
        pages.append(page)
    ann, ben, cat = pages
    assert ann.locator(INTERACTIVE).count() == 1 and ben.locator(INTERACTIVE).count() == 0
    assert "26" in ben.locator('[data-bunker="1"]').inner_text()
    assert "troops" not in ben.locator('[data-bunker="1"]').inner_text()

    # Seat 1: the barrier walls in c3 (occupied, the turn goes on), then a quiet barrier.
    ann.click(f'{INTERACTIVE} [data-edge="c2-c3"]')
    ann.wait_for_function("document.getElementById('fs-turn-text').textContent === 'wall c2-c3'")
    assert "c3" in ann.locator("#fs-story").inner_text()
    assert ann.locator('#fs-board [data-square="c3"] circle.fs-troop').count() == 1
    assert state_of(match)["to_move"] == 1  # nothing sealed yet
    ann.click(f'{INTERACTIVE} [data-edge="h8-h9"]')
    wait_turn(match, 2)
    assert {"seat": 1, "kind": "troop", "at": "c3"} in state_of(match)["pieces"]

    # Seat 2's page follows by itself; a refused step is explained, then a kidnapper.
    ben.wait_for_selector(INTERACTIVE, timeout=30_000)
    wall = ben.locator(f'{INTERACTIVE} [data-edge="c3-c4"]')  # already a barrier:
    assert wall.get_attribute("aria-disabled") == "true"  # a disabled button, and a click
    wall.click(force=True)  # (forced past Playwright's own check) does nothing
    ben.check("input[name=fs-tool][value=occupy]")
    ben.click(f'{INTERACTIVE} [data-square="e5"]')  # not a formed square
    ben.wait_for_selector("#fs-problems:not([hidden])")
    assert "e5" in ben.locator("#fs-problems").inner_text()
    ben.check("input[name=fs-tool][value=kidnapper]")
    ben.click(f'{INTERACTIVE} [data-square="d4"]')
    ben.click("#fs-corner-picker button[data-corner=sw]")
    wait_turn(match, 3)
    state = state_of(match)
    assert state["prisoners"] == {"2": {"1": 1}}
    assert {"seat": 2, "kind": "kidnapper", "at": "d4", "corner": "sw"} in state["pieces"]

    # Seat 3 with the keyboard alone: Tab to the board (one tab stop, e5), arrows to a9,
    # Shift + ArrowUp to the edge on its north side, Enter for the barrier there.
    cat.wait_for_selector(INTERACTIVE, timeout=30_000)
    cat.focus(f'{INTERACTIVE} [data-square="e5"]')
    for key in ["ArrowLeft"] * 6 + ["ArrowUp"] * 4:
        cat.keyboard.press(key)
    assert cat.evaluate("document.activeElement.dataset.square") == "a9"
    cat.keyboard.press("Shift+ArrowUp")  # to the edge a9-a10
    assert cat.evaluate("document.activeElement.dataset.edge") == "a9-a10"
    cat.keyboard.press("Enter")
    wait_turn(match, 1)
    assert "a9-a10" in state_of(match)["barriers"]

    # Seat 1's page has followed the other turns without a manual reload.
    ann.wait_for_selector(INTERACTIVE, timeout=30_000)
    assert ann.locator('#fs-board [data-square="d4"] .fs-kidnapper').count() == 1
    assert ann.locator('#fs-board [data-edge="a9-a10"].fs-wall').count() == 1
    assert "troops" not in ann.locator('[data-bunker="2"]').inner_text()

    # The replay steps through the turns on the board.
    ann.goto(ann.base + url + "?replay=2")
    assert "kidnapper on d4" in ann.content()

    # On a phone: the board fits the screen, and a barrier is placed from a square and its
    # side (the edges, a few pixels thick, take no tap there).
    phone = new_page(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    log_in(phone, users[0].username)
    phone.goto(phone.base + url)
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    phone.tap("#fs-play input[name=fs-tool][value=barrier]")
    phone.tap(f'{INTERACTIVE} [data-square="h2"]')
    phone.tap('#fs-side-picker [data-side="n"]')
    # A tap that ends the turn shows it and waits: a stray tap seals nothing.
    phone.wait_for_selector("#fs-confirm-box:not([hidden])")
    assert state_of(match)["to_move"] == 1
    phone.tap("#fs-confirm")
    wait_turn(match, 2)
