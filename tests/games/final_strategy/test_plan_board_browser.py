"""A plan built on the board, in Chromium: Blue builds two levels of branches on the "Plan
ahead" panel's own board, once with the mouse on a phone-sized page (an edge clicked, a
barrier placed through the side picker) and once with the keyboard alone; the stored plan is
the one the same branches make written in the box."""

from __future__ import annotations

from django.urls import reverse

import engine
from games import services
from games.models import ConditionalPlan
from games.plans import plan_parse
from games.services.plans import plan_normalize
from tests.browser import BROWSER_MARKS, log_in
from tests.portal.builders import fast_password_hashing, make_user  # noqa: F401

pytestmark = BROWSER_MARKS


def _match():
    ann, ben = make_user("ann"), make_user("ben")
    match = services.match_create(creator=ann, game="final-strategy", options={},
                                  hours_per_phase=12,
                                  seats=[{"kind": "human", "user": u} for u in (ann, ben)])
    return match, reverse("games:match", args=[match.pk])


def _as_typed(match, text):
    """The plan the same branches make when written in the box."""
    game = engine.games()["final-strategy"]
    return plan_normalize(game=game, seat=2, seats=[1, 2],
                          tree=plan_parse(game, match.state, 2, [1, 2], text))


def _kept(page, text):
    page.wait_for_function("document.getElementById('fs-plan-move').textContent.includes("
                           f"{text!r})")


def test_a_two_level_plan_is_built_on_the_board_with_the_mouse_on_a_phone(new_page):
    match, url = _match()
    blue = new_page(viewport={"width": 390, "height": 844})
    log_in(blue, "ben")
    blue.goto(blue.base + url)
    builder = blue.locator("#fs-plan-builder")
    assert builder.is_visible()
    # Red's move: an edge clicked.
    blue.locator('#fs-plan-board-wrap [data-edge="e5-e6"]').click()
    _kept(blue, "wall e5-e6")
    blue.click("#fs-plan-keep")
    blue.wait_for_function("document.querySelector('input[name=fs-plan-who][value=\"2\"]')"
                           ".checked")  # on to the reply
    # The reply: a barrier from a square and a side, as on a touch screen.
    blue.locator('#fs-plan-builder input[name=fs-plan-tool][value="barrier"]').check()
    blue.locator('#fs-plan-board-wrap [data-square="c3"]').click()
    blue.locator('#fs-plan-side-picker button[data-side="n"]').click()
    _kept(blue, "wall c3-c4")
    blue.click("#fs-plan-keep")
    blue.wait_for_function("!document.getElementById('fs-plan-add').disabled")
    assert blue.inner_text("#fs-plan-sentence") == (
        "If Red plays “wall e5-e6”, play “wall c3-c4”.")
    blue.click("#fs-plan-add")
    blue.wait_for_selector("#plan .plan-depth-0")
    assert "The branch is added to your plan." in blue.inner_text("#plan")

    # A second level, under the first branch (the panel was replaced: a new builder).
    blue.select_option("#fs-plan-under", "0")
    blue.locator('#fs-plan-board-wrap [data-edge="g7-g8"]').click()
    _kept(blue, "wall g7-g8")
    blue.click("#fs-plan-keep")
    blue.wait_for_function("document.querySelector('input[name=fs-plan-who][value=\"2\"]')"
                           ".checked")
    blue.locator('#fs-plan-board-wrap [data-edge="b2-b3"]').click()
    _kept(blue, "wall b2-b3")
    blue.click("#fs-plan-keep")
    blue.wait_for_function("!document.getElementById('fs-plan-add').disabled")
    blue.click("#fs-plan-add")
    blue.wait_for_selector("#plan .plan-depth-1")
    assert "If Red plays “wall g7-g8”, play “wall b2-b3”." in blue.inner_text(
        "#plan .plan-depth-1")
    # Nothing on the page is wider than the phone.
    assert blue.evaluate("document.documentElement.scrollWidth") <= 390

    plan = ConditionalPlan.objects.get(match=match, seat__number=2)
    assert plan.tree == _as_typed(match, "if Red: wall e5-e6 then wall c3-c4\n"
                                         "  if Red: wall g7-g8 then wall b2-b3")
    assert plan.after_phase == 1


def test_a_two_level_plan_is_built_with_the_keyboard(new_page):
    match, url = _match()
    blue = new_page(viewport={"width": 1280, "height": 1000})
    log_in(blue, "ben")
    blue.goto(blue.base + url)
    keys = blue.keyboard

    def board_at(square):
        blue.locator(f'#fs-plan-board-wrap [data-square="{square}"]').focus()

    # Red's move: occupy e5 (Enter on the square), then a barrier on its north side.
    board_at("e5")
    keys.press("Enter")
    _kept(blue, "occupy e5")
    keys.press("Shift+ArrowUp")
    keys.press("Enter")
    _kept(blue, "wall e5-e6")
    blue.locator("#fs-plan-keep").focus()
    keys.press("Enter")
    blue.wait_for_function("document.querySelector('input[name=fs-plan-who][value=\"2\"]')"
                           ".checked")
    # The reply: the barrier tool chosen by the keyboard, the side picker answered with it.
    blue.locator('#fs-plan-builder input[name=fs-plan-tool][value="occupy"]').focus()
    keys.press("ArrowUp")  # the radio group wraps round to its last choice: the barrier
    assert blue.locator('#fs-plan-builder input[name=fs-plan-tool][value="barrier"]'
                        ).is_checked()
    board_at("e5")
    for _ in range(2):
        keys.press("ArrowLeft")
    for _ in range(2):
        keys.press("ArrowDown")
    keys.press("Enter")  # c3: which side?
    assert blue.evaluate("document.activeElement.dataset.side") == "n"
    keys.press("Enter")
    _kept(blue, "wall c3-c4")
    blue.locator("#fs-plan-keep").focus()
    keys.press("Enter")
    blue.wait_for_function("!document.getElementById('fs-plan-add').disabled")
    blue.locator("#fs-plan-add").focus()
    keys.press("Enter")
    blue.wait_for_selector("#plan .plan-depth-0")

    # Under it: Red walls g7-g8, the reply walls b2-b3.
    blue.locator("#fs-plan-under").focus()
    keys.press("ArrowDown")  # the first branch
    assert blue.input_value("#fs-plan-under") == "0"
    board_at("g7")
    keys.press("Shift+ArrowUp")
    keys.press("Enter")
    _kept(blue, "wall g7-g8")
    blue.locator("#fs-plan-keep").focus()
    keys.press("Enter")
    blue.wait_for_function("document.querySelector('input[name=fs-plan-who][value=\"2\"]')"
                           ".checked")
    board_at("b2")
    keys.press("Shift+ArrowUp")
    keys.press("Enter")
    _kept(blue, "wall b2-b3")
    blue.locator("#fs-plan-keep").focus()
    keys.press("Enter")
    blue.wait_for_function("!document.getElementById('fs-plan-add').disabled")
    blue.locator("#fs-plan-add").focus()
    keys.press("Enter")
    blue.wait_for_selector("#plan .plan-depth-1")

    plan = ConditionalPlan.objects.get(match=match, seat__number=2)
    assert plan.tree == _as_typed(match, "if Red: occupy e5; wall e5-e6 then wall c3-c4\n"
                                         "  if Red: wall g7-g8 then wall b2-b3")
