"""Driving the Final Act match page in Chromium the way a player does: clicks and taps on the
board, the setup and order panels, the round report. Used by test_final_act_browser.py.

Everything here goes through the page (never the services): it reads only what the page shows
or what its scripts were given (#fa-legal, the board's classes and data attributes).
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

sync_api = pytest.importorskip("playwright.sync_api")

REPO = Path(__file__).resolve().parents[2]
LIVE = "#fa-board-live"

# Every status message a panel (or the page's message list) showed, kept in sessionStorage so
# that it survives the reload the status poll does when the phase resolves, which may follow a
# seal at once. (A seal that completes a phase resolved before the answer is sent goes to the
# match page with the receipt in its messages instead of answering with the panel.)
RECORD_MESSAGES = """
(() => {
  const seen = () => JSON.parse(sessionStorage.getItem("fa-seen") || "[]");
  const note = () => {
    document.querySelectorAll(
      ".fa-panel .message.success, .fa-panel .fa-sealed, .messages .message.success")
      .forEach((node) => {
        const list = seen();
        const text = node.textContent.replace(/\\s+/g, " ").trim();
        if (text && !list.includes(text)) {
          list.push(text);
          sessionStorage.setItem("fa-seen", JSON.stringify(list));
        }
      });
  };
  new MutationObserver(note).observe(document, {childList: true, subtree: true});
})();
"""


def artifacts_dir() -> Path:
    path = Path(os.environ.get("TEST_ARTIFACTS_DIR") or REPO / "test-artifacts")
    path.mkdir(parents=True, exist_ok=True)
    return path


def screenshot(page, step: str) -> None:
    page.screenshot(path=str(artifacts_dir() / f"final-act-{step}.png"), full_page=True)


def seen_messages(page) -> list[str]:
    return json.loads(page.evaluate("sessionStorage.getItem('fa-seen') || '[]'"))


def quiet(page) -> None:
    """Let the live check (posted 120-150 ms after a change) come back and settle."""
    page.wait_for_timeout(300)
    page.wait_for_function("!document.querySelector('.htmx-request')")
    page.wait_for_timeout(100)


def square(name: str) -> str:
    return f'{LIVE} rect.fa-sq[data-square="{name}"]'


def click_square(page, name: str, *, tap: bool = False) -> None:
    if tap:
        page.tap(square(name))
    else:
        page.click(square(name))


def marked(page, cls: str) -> list[str]:
    """Squares of the live board carrying ``cls`` (is-legal, is-cone, is-area, ...)."""
    return page.eval_on_selector_all(f"{LIVE} .fa-sq.{cls}",
                                     "els => els.map(e => e.dataset.square)")


def wait_marked(page, cls: str, name: str, timeout: float = 5_000) -> None:
    """Wait until square ``name`` of the live board carries ``cls``. (The live check swaps the
    board for a new one a moment after each change; the scripts mark the new one again.)"""
    try:
        page.wait_for_function(
            """([cls, name]) => {
                 const rect = document.querySelector(
                   `#fa-board-live rect.fa-sq[data-square="${name}"]`);
                 return rect && rect.classList.contains(cls);
               }""", arg=[cls, name], timeout=timeout)
    except sync_api.TimeoutError:
        raise AssertionError(f"{name} never got {cls}; marked: {marked(page, cls)}") from None


def board_units(page, board: str = LIVE, seat: int | None = None) -> dict[str, str]:
    """{unit name: square} of the units drawn on a board (one side's, if ``seat``)."""
    which = f'[data-seat="{seat}"]' if seat else ""
    pairs = page.eval_on_selector_all(f"{board} .fa-unit{which}",
                                      "els => els.map(e => [e.dataset.unit, e.dataset.square])")
    return dict(pairs)


def plan_titles(page) -> list[str]:
    return page.eval_on_selector_all(
        f"{LIVE} .fa-layer-plan > g > title", "els => els.map(e => e.textContent)")


def legal(page) -> dict[str, Any]:
    """What the order panel's script was given: own units, their moves and cones."""
    return json.loads(page.inner_text("#fa-legal"))


def phase_heading(page) -> str:
    return page.inner_text("#phase-heading")


def story(page) -> list[str]:
    return [line.strip() for line in page.locator("#fa-report .fa-story li").all_inner_texts()]


def report_title(page) -> str:
    return page.inner_text("#fa-report-heading")


def choose_order(info: dict[str, Any], own_squares: set[str], seat: int
                 ) -> tuple[str, str, str] | None:
    """(move, destination, target) for one unit: a move to a square no own unit stands on, and
    a shell at the square of its cone farthest towards the other side (never on an own unit);
    None if it has no such pair."""
    moves = [m for m in info["moves"] if m["move"] != "stay" and not m["turn"]
             and m["to"] not in own_squares]
    targets = [t for t in info["fire"] if t not in own_squares]
    if not moves or not targets:
        return None
    forward = 1 if seat == 1 else -1
    target = max(targets, key=lambda sq: (forward * int(sq[1:]), sq[0]))
    return moves[0]["move"], moves[0]["to"], target


def best_order(data: dict[str, Any]) -> tuple[str, dict[str, Any], tuple[str, str, str]]:
    """The unit (name, its legal choices, its order) whose shell flies farthest forward."""
    own = {info["at"] for info in data["units"].values()}
    forward = 1 if data["seat"] == 1 else -1
    choices = [(name, info, choose_order(info, own, data["seat"]))
               for name, info in data["units"].items()]
    choices = [c for c in choices if c[2] is not None]
    assert choices, f"no unit can both move and fire: {data}"
    return max(choices, key=lambda c: forward * int(c[2][2][1:]))


def order_one_unit(page, *, tap: bool = False) -> dict[str, Any]:
    """Click (or tap) one own unit, a highlighted destination, then a target in its cone.
    Returns what was ordered: {"unit", "from", "move", "to", "target"}."""
    name, info, (move, to, target) = best_order(legal(page))
    click_square(page, info["at"], tap=tap)
    wait_marked(page, "is-selected", info["at"])
    wait_marked(page, "is-legal", to)
    click_square(page, to, tap=tap)
    chosen = page.input_value(f"select[name='u-{name}-move']")
    assert chosen == move, f"{name}: the move field says {chosen!r}, not {move!r}"
    wait_marked(page, "is-cone", target)
    return {"unit": name, "from": info["at"], "move": move, "to": to, "target": target}


def fire_at(page, order: dict[str, Any], *, tap: bool = False) -> None:
    click_square(page, order["target"], tap=tap)
    chosen = page.input_value(f"select[name='u-{order['unit']}-fire']")
    assert chosen == order["target"], f"the fire field says {chosen!r}, not {order['target']!r}"
    wait_marked(page, "is-target", order["target"])
    wait_for_plan(page, f"Plan: {order['unit']} fires at {order['target']}")


def wait_for_plan(page, *titles: str) -> None:
    """Wait for the live check that draws ``titles`` on the live board: each change is posted
    a moment later (a loaded machine delays the timer), and the board is redrawn with the plan
    when the answer lands (an earlier answer may still be drawing the plan before it)."""
    page.wait_for_function(
        "wanted => { const have = [...document.querySelectorAll("
        f"'{LIVE} .fa-layer-plan > g > title')].map(e => e.textContent);"
        " return wanted.every(w => have.includes(w)); }", arg=list(titles), timeout=20_000)


def seal_orders(page) -> str:
    """Press the seal button; returns the body of the answer: the panel with the receipt, or
    nothing when the page is sent to the match page (the round already resolved)."""
    return _answer_to(page, "#fa-seal", re.compile(r".*/sheet/submit/$"))


def seal_setup(page) -> str:
    return _answer_to(page, "#fa-setup-seal", re.compile(r".*/seats/\d+/setup/$"))


def _answer_to(page, button: str, url: re.Pattern) -> str:
    """Click ``button`` and return the body of the POST it sends to ``url``, read on its way
    to the page: once the page has it, the round may resolve and the page's poll reload it
    before the test asks for the body, which the browser has then dropped."""
    answers: list[tuple[int, str]] = []

    def keep(route) -> None:
        if route.request.method != "POST":
            route.fallback()
            return
        response = route.fetch()
        answers.append((response.status, response.text()))
        route.fulfill(response=response)

    page.route(url, keep)
    try:
        with page.expect_response(lambda r: url.match(r.url) is not None
                                  and r.request.method == "POST"):
            page.click(button)
    finally:
        page.unroute(url, keep)
    ((status, body),) = answers
    assert status == 200, body
    return body


def wait_for_heading(page, text: str, timeout: float = 40_000) -> None:
    """Wait until the page (reloaded by its status poll) shows ``text`` in its heading, or the
    end screen."""
    page.wait_for_function(
        """(text) => {
             const h = document.querySelector('#phase-heading');
             return (h && h.innerText.includes(text)) || document.querySelector('#fa-end-heading');
           }""", arg=text, timeout=timeout)


def no_horizontal_scroll(page) -> tuple[int, int]:
    return tuple(page.evaluate(
        "[document.scrollingElement.scrollWidth, window.innerWidth]"))


# Alpha's setup as test_final_act_browser places it by clicking: piece, squares clicked.
CLICKED_SETUP = {
    "terrain": {
        "large_berm": ["h3", "i3"],
        "small_berms": ["a3", "l3"],
        "swamp": ["e5", "f5", "e6", "f6"],
        "minefield": {"squares": ["h4", "i4", "j4"], "passage": "i4", "arrow": "N"},
    },
    "units": {"C": {"at": "g1", "facing": "E"}, "1": {"at": "b1", "facing": "N"},
              "1A": {"at": "c1", "facing": "N"}, "1B": {"at": "d1", "facing": "N"},
              "2": {"at": "h1", "facing": "N"}, "2A": {"at": "i1", "facing": "N"},
              "2B": {"at": "k1", "facing": "E"}},
}


def place_setup_by_clicking(page) -> None:
    """Alpha's CLICKED_SETUP through the panel's piece buttons and the board (no typing):
    the swamp from its top-left square, the minefield from its two ends, the units one after
    another, 2B turned with the R key and C with its Turn button."""

    def pick(piece: str, unit: str | None = None) -> None:
        which = f'[data-unit="{unit}"]' if unit else ""
        page.click(f'.fa-setup-pick[data-piece="{piece}"]{which}')

    pick("large_berm")
    wait_marked(page, "is-area", "h3")
    assert "h4" not in marked(page, "is-area"), "berms go in rows 1-3 only"
    click_square(page, "h3")
    click_square(page, "i3")
    pick("small_berm1")
    click_square(page, "a3")
    pick("small_berm2")
    click_square(page, "l3")
    pick("swamp")
    click_square(page, "e6")  # the top left of e6 f6 / e5 f5 as Alpha sees the board
    pick("minefield")
    click_square(page, "h4")
    click_square(page, "j4")  # the other end: the middle is filled in
    click_square(page, "i4")  # then the passage
    page.select_option("#fa-f-minefield-arrow", "N")
    pick("unit", "C")
    for sq in ("g1", "b1", "c1", "d1", "h1", "i1", "k1"):  # C 1 1A 1B 2 2A 2B in turn
        click_square(page, sq)
    page.keyboard.press("r")  # turns the unit placed last (2B)
    page.click('.fa-setup-turn[data-unit="C"]')
    quiet(page)
    values = {name: page.input_value(f"[name='{name}']") for name in (
        "f-large_berm", "f-small_berm1", "f-small_berm2", "f-swamp", "f-minefield",
        "f-minefield-passage", "f-minefield-arrow", "u-C-at", "u-C-facing", "u-2B-at",
        "u-2B-facing", "u-1-facing")}
    assert values == {
        "f-large_berm": "h3 i3", "f-small_berm1": "a3", "f-small_berm2": "l3",
        "f-swamp": "e6 f6 e5 f5", "f-minefield": "h4 i4 j4", "f-minefield-passage": "i4",
        "f-minefield-arrow": "N", "u-C-at": "g1", "u-C-facing": "E", "u-2B-at": "k1",
        "u-2B-facing": "E", "u-1-facing": "N"}, values
