"""The analysis board's clickable board in a real browser (Debian's Chromium): Tank Game's own
board and action panel, as on the match page. One action by mouse (a square, then the action's
button), one by keyboard alone (Tab to the board, arrow keys, Enter on the square, Enter on the
button the focus moved to); each becomes a position of the tree, played as typed orders."""

from __future__ import annotations

from analysis.models import Analysis
from tests.analysis.test_play_board import analysis_of
from tests.browser import BROWSER_MARKS, browser_page, log_in
from tests.portal.builders import make_user

pytestmark = BROWSER_MARKS

page = browser_page(timeout=20_000)


def heading_starts(page, text: str) -> None:
    page.wait_for_function("(text) => document.querySelector('#position-heading')"
                           ".innerText.startsWith(text)", arg=text)


def tab_to_board(page) -> None:
    for _ in range(60):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.matches('.tank-sq')"):
            return
    raise AssertionError("the board's squares cannot be reached with Tab")


def test_playing_tank_game_on_the_analysis_board_by_mouse_and_by_keyboard(page):
    owner = make_user("owner")
    analysis, seat = analysis_of(owner, "tank-game")  # Ada on C6 (range 2), Bert E7, Corey F6
    log_in(page, owner.username)
    page.goto(f"{page.base}/analysis/{analysis.token}/?as={seat}")
    assert page.is_hidden("#analysis .analysis-typed textarea")  # typing is folded away
    assert page.is_hidden("#analysis .analysis-json pre")  # and so is the data

    # The mouse: a square next to the tank, then the panel's Move.
    page.click('.tank-sq[data-square="D6"]')
    assert page.input_value("#tank-play select[name=to]") == "D6"
    page.click("#tank-play button:has-text('Move')")
    heading_starts(page, "Position 1")
    assert "as=1" in page.url
    analysis.refresh_from_db()
    assert analysis.nodes[1]["moves"] == {"1": "move D6"}
    assert analysis.nodes[1]["state"]["tanks"]["1"]["at"] == "D6"

    # The keyboard: ← back to the start (still as Ada), Tab to the board (her square first),
    # → → ↓ to E7, Enter chooses it (the focus goes to Shoot), Enter shoots.
    page.keyboard.press("ArrowLeft")
    heading_starts(page, "Starting position")
    tab_to_board(page)
    assert page.evaluate("document.activeElement.dataset.square") == "C6"
    for key in ("ArrowRight", "ArrowRight", "ArrowDown"):
        page.keyboard.press(key)
    assert page.evaluate("document.activeElement.dataset.square") == "E7"
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.textContent.trim()") == "Shoot"
    page.keyboard.press("Enter")
    heading_starts(page, "Position 2")
    analysis = Analysis.objects.get(pk=analysis.pk)
    assert analysis.nodes[2]["moves"] == {"1": "shoot E7"}
    assert [n["parent"] for n in analysis.nodes] == [None, 0, 0]


def test_final_act_orders_played_on_the_analysis_board(page):
    owner = make_user("owner")
    analysis, seat = analysis_of(owner, "final-act")  # the lesson: C fires at f8
    unit = next(u for u in analysis.nodes[0]["state"]["units"] if u["name"] == "C"
                and u["seat"] == seat)
    log_in(page, owner.username)
    page.goto(f"{page.base}/analysis/{analysis.token}/?as={seat}")
    page.click(f'#fa-live .fa-sq[data-square="{unit["at"]}"]')  # the unit, then aim: F
    page.keyboard.press("f")
    page.click('#fa-live .fa-sq[data-square="f8"]')
    page.wait_for_selector("#fa-sheet-check .fa-ok")  # checked live, here
    assert page.input_value('[name="u-C-fire"]') == "f8"
    page.click("#fa-seal")
    heading_starts(page, "Position 1")
    analysis = Analysis.objects.get(pk=analysis.pk)
    assert analysis.nodes[1]["moves"][str(seat)].strip() == "C stay fire f8"
