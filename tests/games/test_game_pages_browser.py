"""The game pages' scripts as a newcomer met them (issue 48), in Debian's Chromium: Final Act's
"Passage" button chooses the passage (it used to drop the choice, and the next click restarted
the minefield); Final Strategy's refusal reads as a sentence where the player looks, on a
phone too; a click on Tank Game's board fills one action, not two; the create form asks for k
only with a token mode that has one."""

from __future__ import annotations

from django.urls import reverse

from games import services
from tests.browser import BROWSER_MARKS, browser_page, log_in
from tests.portal.builders import duel, fast_password_hashing, make_user  # noqa: F401

pytestmark = BROWSER_MARKS

LIVE = "#fa-board-live"
page = browser_page(viewport={"width": 1280, "height": 1000})


def quiet(page) -> None:
    """Let the live check (posted a moment after each change) come back and settle."""
    page.wait_for_timeout(300)
    page.wait_for_function("!document.querySelector('.htmx-request')")
    page.wait_for_timeout(100)


def click_square(page, square: str) -> str:
    page.click(f'{LIVE} rect.fa-sq[data-square="{square}"]')
    quiet(page)
    return page.inner_text("#fa-setup-announce")


def test_final_act_the_passage_button_chooses_the_passage(page):
    alice = make_user("alice")
    match = duel(alice, make_user("bob"), game="final-act")
    log_in(page, "alice")
    page.goto(page.base + reverse("games:match", args=[match.pk]))
    page.click(".fa-setup-pick[data-piece='minefield']")
    click_square(page, "j5")
    assert "now choose its passage" in click_square(page, "l5")  # one end, then the other
    assert page.input_value("[name='f-minefield']") == "j5 k5 l5"
    # The player presses "Passage" as the panel says: the choice stays, it is not dropped.
    page.click(".fa-setup-pick[data-piece='passage']")
    said = page.inner_text("#fa-setup-announce")
    assert "dropped" not in said and "passage" in said
    assert page.get_attribute(".fa-setup-pick[data-piece='passage']", "aria-pressed") == "true"
    assert "Passage on k5" in click_square(page, "k5")
    assert page.input_value("[name='f-minefield']") == "j5 k5 l5"
    assert page.input_value("[name='f-minefield-passage']") == "k5"
    # A minefield laid again elsewhere takes its passage with it (no failing seal later).
    page.click(".fa-setup-pick[data-piece='minefield']")
    click_square(page, "b5")
    assert page.input_value("[name='f-minefield-passage']") == ""
    click_square(page, "d5")
    page.keyboard.press("Escape")
    # Nothing chosen: a click on a whole minefield without a passage sets the passage.
    assert "Passage on c5" in click_square(page, "c5")
    assert page.input_value("[name='f-minefield']") == "b5 c5 d5"


def test_final_strategy_a_refusal_is_a_sentence_in_sight_on_a_phone(new_page):
    users = [make_user(n) for n in ("ann", "ben")]
    match = services.match_create(creator=users[0], game="final-strategy", options={},
                                  hours_per_phase=12,
                                  seats=[{"kind": "human", "user": u} for u in users])
    phone = new_page(viewport={"width": 390, "height": 844})
    log_in(phone, "ann")
    phone.goto(phone.base + reverse("games:match", args=[match.pk]))
    phone.locator('#fs-board-wrap [data-square="c3"]').click()
    phone.wait_for_selector("#fs-problems:not([hidden])")
    text = phone.inner_text("#fs-problems")
    assert "steps." not in text and text.startswith("c3 cannot be occupied yet")
    box = phone.locator("#fs-problems").bounding_box()
    height = phone.evaluate("window.innerHeight")
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height, box


def test_tank_game_a_click_fills_one_action_and_again_the_next(page):
    alice = make_user("alice")
    match = services.match_create(
        creator=alice, game="tank-game", hours_per_phase=24,
        options={"schedule": {"kind": "every", "minutes": 60, "open_minutes": 60}},
        seats=[{"kind": "human", "user": alice}, {"kind": "bot", "bot": "random"}])
    services.gameday_tick(match_id=match.pk)
    log_in(page, "alice")
    page.goto(page.base + reverse("games:match", args=[match.pk]))
    moves = page.eval_on_selector_all("select[name=to] option", "o => o.map(x => x.value)")
    shots = page.eval_on_selector_all("select[name=at] option", "o => o.map(x => x.value)")
    both = next(square for square in moves if square in shots)
    other = next(square for square in shots if square != both)
    page.select_option("select[name=at]", other)
    page.click(f'.tank-sq[data-square="{both}"]')
    assert page.input_value("select[name=to]") == both
    assert page.input_value("select[name=at]") == other  # untouched
    assert page.inner_text("#tank-board-say").startswith(f"Move to {both}")
    page.click(f'.tank-sq[data-square="{both}"]')
    assert page.input_value("select[name=at]") == both
    assert page.inner_text("#tank-board-say").startswith(f"Shoot at {both}")


def test_the_create_form_asks_for_k_only_with_a_mode_that_has_one(page):
    make_user("alice")
    log_in(page, "alice")
    page.goto(page.base + reverse("games:match_create") + "?game=final-act")
    k = page.locator("input[name=option__tokens_1]")
    assert not k.is_visible()  # "No action tokens"
    page.select_option("select[name=option__tokens_0]", "draft-k")
    assert k.is_visible()
    page.select_option("select[name=option__tokens_0]", "all")
    assert not k.is_visible()
