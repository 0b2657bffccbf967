"""Final Act's order panel in a real browser (Debian's Chromium driven by Playwright): after a
diagonal move the panel offers the turn ("Choose d5 again to turn"), and choosing that square
again gives exactly that order — a turn, not a shot at d5 — in the sealed sheet.

Also the text grammar on demand under the board, and the fresh setup page without a problem
list."""

from __future__ import annotations

from django.urls import reverse

import engine
from games.models import Submission
from tests.browser import BROWSER_MARKS, browser_page, log_in
from tests.portal.builders import duel, fast_password_hashing, make_user  # noqa: F401

pytestmark = BROWSER_MARKS

GAME = engine.get("final-act")
LIVE = "#fa-board-live"
# Alpha's commander on e4 facing north: d5 is its forward-left (FL) square, in its cone too.
SCENARIO = {"round": 1, "terrain": [],
            "units": [{"seat": 1, "name": "C", "at": "e4", "facing": "N", "hits": 0},
                      {"seat": 2, "name": "C", "at": "h10", "facing": "S", "hits": 0}]}

page = browser_page(viewport={"width": 1280, "height": 1000})


def quiet(page) -> None:
    """Let the live check (posted a moment after each change) come back and settle."""
    page.wait_for_timeout(300)
    page.wait_for_function("!document.querySelector('.htmx-request')")
    page.wait_for_timeout(100)


def choose(page, square: str) -> str:
    """Click ``square`` of the live board; what the panel announces then."""
    page.click(f'{LIVE} rect.fa-sq[data-square="{square}"]')
    quiet(page)
    return page.inner_text("#fa-announce")


def test_choosing_a_diagonal_square_again_gives_the_turn_the_panel_announced(page):
    alice = make_user("alice")
    match = duel(alice, make_user("bob"), game="final-act", options={"scenario": SCENARIO})
    log_in(page, "alice")
    page.goto(page.base + reverse("games:match", args=[match.pk]))

    assert "C on e4 selected" in choose(page, "e4")
    said = choose(page, "d5")
    assert "Choose d5 again to turn (face W)." in said
    said = choose(page, "d5")
    assert "turning to face W" in said and "fires" not in said
    assert page.is_checked("input[name=u-C-turn]")
    assert page.input_value("[name=u-C-fire]") == ""
    # Once more: the turn is taken back, as the panel said it would be.
    said = choose(page, "d5")
    assert "keeping its facing" in said and "Choose d5 again to turn" in said
    said = choose(page, "d5")
    assert "turning to face W" in said

    page.click("#fa-seal")
    page.wait_for_selector("#fa-sheet-panel .message.success")
    sheet = Submission.objects.get(phase__match=match, seat__number=1)
    assert sheet.data["units"]["C"] == {"move": "FL", "turn": True, "fire": []}
    match.refresh_from_db()
    assert GAME.format_text(match.state, 1, sheet.data) == "C FL turn\n"


def test_after_the_turn_a_click_elsewhere_aims_as_before(page):
    alice = make_user("alice")
    match = duel(alice, make_user("bob"), game="final-act", options={"scenario": SCENARIO})
    log_in(page, "alice")
    page.goto(page.base + reverse("games:match", args=[match.pk]))
    choose(page, "e4")
    choose(page, "d5")
    assert "C fires at e7." in choose(page, "e7")
    # The offer is gone once something else was chosen: d5 is now a target like any other.
    assert "C fires at d5." in choose(page, "d5")
    assert not page.is_checked("input[name=u-C-turn]")


def test_the_text_grammar_opens_on_demand_under_the_board(page):
    alice = make_user("alice")
    match = duel(alice, make_user("bob"), game="final-act", options={"scenario": SCENARIO})
    log_in(page, "alice")
    page.goto(page.base + reverse("games:match", args=[match.pk]))
    assert not page.is_visible("#typed-orders textarea")
    page.click("#typed-orders summary")
    page.fill("#typed-orders textarea", "C FR turn")
    page.click("#typed-orders button[type=submit]")
    page.wait_for_selector(".fa-sealed >> text=Sealed: revision 1")
    sheet = Submission.objects.get(phase__match=match, seat__number=1)
    assert sheet.data["units"]["C"] == {"move": "FR", "turn": True, "fire": []}


def test_a_fresh_setup_shows_a_guide_not_a_problem_list(page):
    alice = make_user("alice")
    match = duel(alice, make_user("bob"), game="final-act")
    log_in(page, "alice")
    page.goto(page.base + reverse("games:match", args=[match.pk]))
    check = page.inner_text("#fa-setup-check")
    assert "problem" not in check and "your 7 tanks" in check
    assert page.locator("#fa-setup-check .errors").count() == 0
    # A first piece placed by clicking: still no shouting about the others.
    page.click("#fa-setup-panel .fa-setup-pick[data-piece='unit'][data-unit='C']")
    page.click(f'{LIVE} rect.fa-sq[data-square="e1"]')
    quiet(page)
    check = page.inner_text("#fa-setup-check")
    assert "problem" not in check and "your 6 tanks" in check
