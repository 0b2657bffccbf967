"""A Panzer Squadron plan built on the board, in Chromium: North builds a one-level branch on
the "Plan ahead" panel's own board (South's expected activation, a tank, an action and the
hexes of its path, then the reply), once with the mouse and once with the keyboard alone; the
stored plan is the one the same words typed in the box store."""

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

TYPED = "if South: activate M1 move; path f2 12, f3 12 then activate L4 ambush"


def _match():
    ann, ben = make_user("ann"), make_user("ben")
    match = services.match_create(creator=ann, game="panzer-squadron", options={},
                                  hours_per_phase=12,
                                  seats=[{"kind": "human", "user": u} for u in (ann, ben)])
    return match, reverse("games:match", args=[match.pk])


def _as_typed(match, text):
    """The plan the same branch makes when written in the box."""
    game = engine.games()["panzer-squadron"]
    return plan_normalize(game=game, seat=2, seats=[1, 2],
                          tree=plan_parse(game, match.state, 2, [1, 2], text))


def _told(page, text):
    page.wait_for_function("document.getElementById('ps-plan-move').textContent.includes("
                           f"{text!r})")


def _on_to_the_reply(page):
    page.wait_for_function("document.querySelector('input[name=ps-plan-who][value=\"2\"]')"
                           ".checked")


def test_a_branch_is_built_on_the_board_with_the_mouse(new_page):
    match, url = _match()
    north = new_page(viewport={"width": 1280, "height": 1000})
    log_in(north, "ben")
    north.goto(north.base + url)
    assert north.locator("#ps-plan-builder").is_visible()
    # South's activation: M1 moves (the default action) to f2 then f3, facing 12.
    assert north.is_checked('#ps-plan-builder input[name=ps-plan-who][value="1"]')
    north.select_option("#ps-plan-tank", "M1")
    north.locator('#ps-plan-board-wrap .ps-hex[data-hex="f2"]').click()
    _told(north, "path f2 12")
    north.locator('#ps-plan-board-wrap .ps-hex[data-hex="f3"]').click()
    _told(north, "path f2 12, f3 12")
    north.click("#ps-plan-keep")
    _on_to_the_reply(north)
    # The reply: L4 in ambush.
    north.select_option("#ps-plan-tank", "L4")
    north.check('#ps-plan-builder input[name=ps-plan-action][value="ambush"]')
    north.click("#ps-plan-keep")
    north.wait_for_function("!document.getElementById('ps-plan-add').disabled")
    assert north.inner_text("#ps-plan-sentence") == (
        "If South plays “activate M1 move; path f2 12, f3 12; end stopped”, play "
        "“activate L4 ambush”.")
    north.click("#ps-plan-add")
    north.wait_for_selector("#plan .plan-depth-0")
    assert "The branch is added to your plan." in north.inner_text("#plan")
    # The page's own board was not touched by the builder's clicks.
    assert north.locator("#ps-path").count() == 0 or north.input_value("#ps-path") == ""

    plan = ConditionalPlan.objects.get(match=match, seat__number=2)
    assert plan.tree == _as_typed(match, TYPED)
    assert plan.after_phase == 1


def test_a_branch_is_built_with_the_keyboard(new_page):
    match, url = _match()
    north = new_page(viewport={"width": 1280, "height": 1000})
    log_in(north, "ben")
    north.goto(north.base + url)
    keys = north.keyboard
    # South's activation: M1 chosen in the list by typing its name, then f2 and f3 chosen by
    # Enter on the board (North's board is turned round: f3 is one hex down the screen).
    north.locator("#ps-plan-tank").focus()
    keys.type("M1")
    assert north.input_value("#ps-plan-tank") == "M1"
    north.locator('#ps-plan-board-wrap .ps-hex[data-hex="f2"]').focus()
    keys.press("Enter")
    _told(north, "path f2 12")
    keys.press("ArrowDown")
    assert north.evaluate("document.activeElement.getAttribute('data-hex')") == "f3"
    keys.press("Enter")
    _told(north, "path f2 12, f3 12")
    north.locator("#ps-plan-keep").focus()
    keys.press("Enter")
    _on_to_the_reply(north)
    # The reply: L4, its action by the arrow keys (the radio group wraps round to ambush).
    north.locator("#ps-plan-tank").focus()
    keys.type("L4")
    assert north.input_value("#ps-plan-tank") == "L4"
    north.locator('#ps-plan-builder input[name=ps-plan-action][value="move"]').focus()
    keys.press("ArrowUp")
    assert north.is_checked('#ps-plan-builder input[name=ps-plan-action][value="ambush"]')
    north.locator("#ps-plan-keep").focus()
    keys.press("Enter")
    north.wait_for_function("!document.getElementById('ps-plan-add').disabled")
    north.locator("#ps-plan-add").focus()
    keys.press("Enter")
    north.wait_for_selector("#plan .plan-depth-0")

    plan = ConditionalPlan.objects.get(match=match, seat__number=2)
    assert plan.tree == _as_typed(match, TYPED)
