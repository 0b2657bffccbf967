"""A turn of each game played with the keyboard alone (Chromium through Playwright): Tab to the
board, arrow keys to a square, hex or edge, Enter to choose it, Enter on the panel's button to
send. Nothing is clicked or filled in: only keys are pressed (docs/accessibility.md)."""

from __future__ import annotations

from django.urls import reverse

import engine
from games import services
from games.models import Match, Submission
from tests.browser import BROWSER_MARKS, browser_page, log_in
from tests.portal.builders import duel, fast_password_hashing, make_user  # noqa: F401
from tests.portal.played import ALWAYS_OPEN, FINAL_STRATEGY

pytestmark = BROWSER_MARKS

page = browser_page(viewport={"width": 1280, "height": 1000}, timeout=20_000)

FOCUSED = "document.activeElement"


def tab_to(page, selector: str, presses: int = 300) -> None:
    """Press Tab until the focused element matches ``selector`` (fails if it never does)."""
    for _ in range(presses):
        page.keyboard.press("Tab")
        if page.evaluate(f"{FOCUSED} && {FOCUSED}.matches({selector!r})"):
            return
    raise AssertionError(f"Tab never reached {selector}")


def focused(page, attribute: str) -> str | None:
    return page.evaluate(f"{FOCUSED}.getAttribute({attribute!r})")


def arrow_to(page, selector: str, *, up: int = -1) -> None:
    """Arrow keys from the focused cell to the one matching ``selector``, by their data-col and
    data-row (``up``: how data-row changes going up the screen)."""
    here = page.evaluate(f"[+{FOCUSED}.dataset.col, +{FOCUSED}.dataset.row]")
    there = page.eval_on_selector(selector, "e => [+e.dataset.col, +e.dataset.row]")
    dx, dy = there[0] - here[0], (there[1] - here[1]) * up
    for _ in range(abs(dx)):
        page.keyboard.press("ArrowRight" if dx > 0 else "ArrowLeft")
    for _ in range(abs(dy)):
        page.keyboard.press("ArrowUp" if dy > 0 else "ArrowDown")
    assert page.evaluate(f"{FOCUSED}.matches({selector!r})"), f"the arrows missed {selector}"


def settled(page) -> None:
    page.wait_for_timeout(300)
    page.wait_for_function("!document.querySelector('.htmx-request, .htmx-settling, "
                           ".htmx-swapping')")


def test_final_act_a_unit_moved_and_the_sheet_sealed_with_the_keyboard(page):
    scenario = {"round": 1, "terrain": [],
                "units": [{"seat": 1, "name": "C", "at": "e4", "facing": "N", "hits": 0},
                          {"seat": 2, "name": "C", "at": "h10", "facing": "S", "hits": 0}]}
    alice = make_user("alice")
    match = duel(alice, make_user("bob"), game="final-act", options={"scenario": scenario})
    log_in(page, "alice")
    page.goto(page.base + reverse("games:match", args=[match.pk]))
    tab_to(page, "#fa-board-live rect.fa-sq")
    arrow_to(page, '#fa-board-live rect[data-square="e4"]', up=-1)
    page.keyboard.press("Enter")  # chooses the commander: its moves are marked
    page.wait_for_selector('#fa-board-live rect.is-legal[data-square="e5"]')
    page.keyboard.press("ArrowUp")
    assert focused(page, "data-square") == "e5"
    page.keyboard.press("Enter")  # moves it there
    settled(page)
    assert page.input_value("select[name='u-C-move']") == "F"
    tab_to(page, "#fa-seal")
    page.keyboard.press("Enter")
    page.wait_for_selector("#fa-sheet-panel .message.success")
    sheet = Submission.objects.get(phase__match=match, seat__number=1)
    assert sheet.data["units"]["C"]["move"] == "F"


def test_final_strategy_a_barrier_placed_on_an_edge_with_the_keyboard(page):
    alice, bob = make_user("alice"), make_user("bob")
    match = duel(alice, bob, game="final-strategy", options={"scenario": FINAL_STRATEGY})
    log_in(page, "alice")
    page.goto(page.base + reverse("games:match", args=[match.pk]))
    tab_to(page, "#fs-board [data-square]")
    assert focused(page, "data-square") == "e5"  # the board's one tab stop
    for key in ("ArrowRight", "ArrowRight", "ArrowUp"):
        page.keyboard.press(key)
    assert focused(page, "data-square") == "g6"
    page.keyboard.press("Shift+ArrowRight")  # to the edge on its east side
    assert focused(page, "data-edge") == "g6-h6"
    assert "edge g6-h6" in focused(page, "aria-label")
    page.keyboard.press("ArrowDown")  # along the edges
    assert focused(page, "data-edge") == "g5-h5"
    page.keyboard.press("Enter")  # a barrier there: it closes nothing, the turn is sealed
    page.wait_for_function("document.querySelector('#fs-board') === null", timeout=20_000)
    match.refresh_from_db()
    assert "g5-h5" in match.state["barriers"] and match.state["to_move"] == 2


def test_final_strategy_a_barrier_placed_from_a_square_and_its_side_with_the_keyboard(page):
    alice, bob = make_user("alice"), make_user("bob")
    match = duel(alice, bob, game="final-strategy", options={"scenario": FINAL_STRATEGY})
    log_in(page, "alice")
    page.goto(page.base + reverse("games:match", args=[match.pk]))
    tab_to(page, "#fs-play input[name=fs-tool]")
    for _ in range(5):  # the radio group's arrows: to its last choice, the barrier
        page.keyboard.press("ArrowDown")
    assert page.evaluate(f"{FOCUSED}.value") == "barrier"
    page.keyboard.press("Shift+Tab")
    tab_to(page, "#fs-board [data-square]")
    for key in ("ArrowRight", "ArrowRight"):
        page.keyboard.press(key)
    assert focused(page, "data-square") == "g5"
    page.keyboard.press("Enter")  # the side picker, its first side focused
    page.wait_for_selector("#fs-side-picker:not([hidden])")
    assert focused(page, "data-side") == "n"
    page.keyboard.press("Tab")
    assert focused(page, "data-side") == "e"
    page.keyboard.press("Enter")  # the east side: g5-h5, which ends the turn
    page.wait_for_function("document.querySelector('#fs-board') === null", timeout=20_000)
    match.refresh_from_db()
    assert "g5-h5" in match.state["barriers"] and match.state["to_move"] == 2


def test_panzer_squadron_an_activation_and_its_path_with_the_keyboard(page):
    scenario = {"size": [9, 7], "turn": 1, "initiative": 1,
                "terrain": {"woods": ["e4"], "building": ["c4"], "water": []},
                "tanks": [{"seat": 1, "name": "A1", "card": "heavy", "at": "c1", "facing": 12},
                          {"seat": 2, "name": "B1", "card": "light", "at": "g7", "facing": 6}]}
    alice, bob = make_user("alice"), make_user("bob")
    # The activation's die, then ones for any opportunity shot B1 takes at A1 on its way (a
    # 1 never hits): with the seed's dice instead, A1 was now and then destroyed on its path
    # and the match over, with no activation or waiting panel to wait for.
    match = duel(alice, bob, game="panzer-squadron",
                 options={"scenario": scenario, "dice": [4, 1, 1, 1, 1, 1]})
    log_in(page, "alice")
    url = page.base + reverse("games:match", args=[match.pk])
    page.goto(url)
    tab_to(page, "#ps-activate-form input[name=choice]")
    for _ in range(10):  # the arrows move through the radio group, choosing as they go
        if page.evaluate(f"{FOCUSED}.value") == "A1 move":
            break
        page.keyboard.press("ArrowDown")
    page.keyboard.press("Space")  # Tab gave the group's first radio the focus, not the check
    assert page.evaluate(f"{FOCUSED}.checked && {FOCUSED}.value") == "A1 move"
    page.keyboard.press("Enter")  # sends the form: the dice are rolled
    page.wait_for_selector("#ps-path-form")
    tab_to(page, ".ps-board .ps-hex[tabindex]")
    start = focused(page, "data-hex")
    assert "ps-reach" in page.evaluate(f"{FOCUSED}.getAttribute('class')")
    target = page.eval_on_selector_all(
        ".ps-board .ps-hex.ps-reach", f"(els) => els.map(e => e.dataset.hex)"
        f".filter(h => h !== {start!r})")[-1]
    arrow_to(page, f'.ps-board .ps-hex[data-hex="{target}"]', up=1)
    page.keyboard.press("Enter")  # fills the path and moves to its field
    assert page.evaluate(f"{FOCUSED}.id") == "ps-path"
    path = page.input_value("#ps-path")
    assert path.split(",")[-1].split()[0] == target
    page.keyboard.press("Enter")  # sends the path
    page.wait_for_selector("#ps-activate-form, #ps-waiting, #phase-heading")
    match.refresh_from_db()
    moved = next(t for t in engine.get("panzer-squadron").view(match.state, 1)["tanks"]
                 if t["name"] == "A1")
    assert moved["at"] == target and match.state["to_move"] == 2


def test_tank_game_a_move_chosen_on_the_board_with_the_keyboard(page):
    alice, bob = make_user("alice"), make_user("bob")
    match = services.match_create(
        creator=alice, game="tank-game", hours_per_phase=24,
        options={"schedule": ALWAYS_OPEN, "cooldown_minutes": 0},
        seats=[{"kind": "human", "user": u} for u in (alice, bob)])
    services.gameday_tick(match_id=match.pk)
    match.refresh_from_db()
    home = engine.get("tank-game").view(match.state, 1)["me"]["at"]
    log_in(page, "alice")
    page.goto(page.base + reverse("games:match", args=[match.pk]))
    tab_to(page, ".tank-board .tank-sq")
    assert focused(page, "data-square") == home  # my tank's square is the tab stop
    assert "your tank" in focused(page, "aria-label")
    moves = page.eval_on_selector_all("select[name=to] option", "els => els.map(e => e.value)")
    target = moves[-1]
    arrow_to(page, f'.tank-sq[data-square="{target}"]', up=-1)
    assert "you can move here" in focused(page, "aria-label")
    page.keyboard.press("Enter")  # chooses it in the move form, on its button
    assert page.evaluate(f"{FOCUSED}.textContent.trim()") == "Move"
    assert page.input_value("form:has(input[name=type][value=move]) select[name=to]") == target
    page.keyboard.press("Enter")
    page.wait_for_selector("#tank-play .notice")
    settled(page)
    assert page.evaluate(f"{FOCUSED}.matches('.tank-sq')")  # the focus is back on the board
    match = Match.objects.get(pk=match.pk)
    assert engine.get("tank-game").view(match.state, 1)["me"]["at"] == target
