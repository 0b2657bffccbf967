"""Plans in Chromium, as two players of Final Strategy: Blue writes a plan three moves deep on
the "Plan ahead" panel with the keyboard, Red plays three turns on the board, and each time the
match is back at Red's turn at once: Blue's planned moves were played without Blue."""

from __future__ import annotations

from django.urls import reverse
from playwright.sync_api import expect

from games import services
from games.models import Match, Submission
from tests.browser import BROWSER_MARKS, browser_page, log_in
from tests.portal.builders import fast_password_hashing, make_user  # noqa: F401

pytestmark = BROWSER_MARKS

page = browser_page(viewport={"width": 1280, "height": 1000})

PLAN = ("if Red: wall e5-e6 then wall c3-c4\n"
        "  if Red: wall g7-g8 then wall b2-b3\n"
        "    if Red: wall h2-h3 then wall a9-b9")


def test_a_plan_three_moves_deep_lets_the_match_advance_without_its_player(new_page):
    ann, ben = make_user("ann"), make_user("ben")
    match = services.match_create(creator=ann, game="final-strategy", options={},
                                  hours_per_phase=12,
                                  seats=[{"kind": "human", "user": u} for u in (ann, ben)])
    url = reverse("games:match", args=[match.pk])
    blue = new_page(viewport={"width": 1280, "height": 1000})
    log_in(blue, "ben")
    blue.goto(blue.base + url)
    blue.locator("#plan-text").focus()
    blue.keyboard.insert_text(PLAN)
    blue.keyboard.press("Tab")  # to the button, by the keyboard
    blue.keyboard.press("Enter")
    blue.wait_for_selector("#plan .plan-depth-2")
    assert "If Red plays “wall h2-h3”, play “wall a9-b9”." in blue.inner_text("#plan")

    red = new_page(viewport={"width": 1280, "height": 1000})
    log_in(red, "ann")
    red.goto(red.base + url)
    for number, edge in enumerate(("e5-e6", "g7-g8", "h2-h3")):
        red.locator(f'#fs-board-wrap [data-edge="{edge}"]').click()
        red.wait_for_function(f"document.querySelector('#phase-heading') && document"
                              f".querySelector('#phase-heading').textContent.includes("
                              f"'Phase {2 * number + 3}')")
        assert red.locator("#fs-board-wrap .fs-interactive").count() == 1  # Red's turn again
    match.refresh_from_db()
    assert match.phase_number == 7 and match.status == Match.Status.ACTIVE
    planned = Submission.objects.filter(phase__match=match, source="conditional")
    assert sorted(planned.values_list("phase__number", flat=True)) == [2, 4, 6]
    # Blue's page, open all along, reloads itself once its poll sees the match moved on (a
    # navigation of the test's own would race that reload: one aborts the other).
    expect(blue.locator("#plan")).to_contain_text(
        "The last move of your plan was played in phase 6.", timeout=30_000)
    assert "You have no plan." in red.inner_text("#plan")  # Red's own panel, not Blue's plan
