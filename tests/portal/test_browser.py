"""The pages in a real browser (Debian's Chromium driven by Playwright): what only JavaScript
does — HTMX swaps, the status poll that reloads the page when a phase resolves, the option
fields that give the options. Skipped where Playwright or Chromium is not installed."""

import re

from games.models import Match, Submission
from games.services import orders_submit, phase_resolve
from tests.browser import BROWSER_MARKS, browser_page, log_in, settle
from tests.portal.builders import duel, make_user

pytestmark = BROWSER_MARKS

page = browser_page()


def test_orders_are_sealed_in_place_and_the_page_follows_the_resolution(page):
    alice, bob = make_user("alice"), make_user("bob")
    match = duel(alice, bob)
    log_in(page, "alice")
    page.goto(f"{page.base}/matches/{match.pk}/")
    assert "Phase 1" in page.inner_text("#phase-heading")

    page.fill("#id_orders", "9")  # out of range: refused in place, with the reason
    page.click("button:has-text('Seal my orders')")
    page.wait_for_selector("#orders-panel .errors")
    assert "9 is not a number from 1 to 5" in page.inner_text("#orders-panel")

    page.click("summary:has-text('Example')")
    page.click("button:has-text('Start from this example')")
    assert page.input_value("#id_orders") == "1"
    page.fill("#id_orders", "4")
    page.click("button:has-text('Seal my orders')")
    page.wait_for_selector("#orders-panel >> text=Orders sealed")
    receipt = Submission.objects.get(seat__number=1).receipt
    assert receipt not in page.inner_text("#orders-panel")  # folded: shown on demand
    page.click("#orders-panel .receipt-box summary")
    assert receipt in page.inner_text("#orders-panel")

    # Bob submits elsewhere and the phase resolves: the poll reloads alice's page by itself.
    orders_submit(match_id=match.pk, seat_number=2, user=bob, phase_number=1,
                  data={"number": 2}, source="web")
    phase_resolve(match_id=match.pk, phase_number=1)
    page.wait_for_function(
        "document.querySelector('#phase-heading').innerText.includes('Phase 2')", timeout=20_000)
    assert "(matches the sealed sheet)" in page.inner_text("#history")


def test_option_fields_give_the_options_and_the_match_is_created(page):
    make_user("alice")
    log_in(page, "alice")
    page.goto(page.base + "/matches/new/?game=final-act")
    page.check("input[name=option__advanced][value=wrecks]")
    page.select_option("select[name=option__tokens_0]", "draft-k")  # Final Act's own widget
    page.fill("input[name=option__tokens_1]", "5")
    page.check("input[name=option__extra_forces]")
    page.fill("input[name=title]", "Made in a browser")
    page.click("button:has-text('Create the match')")
    page.wait_for_url(re.compile(r".*/matches/\d+/$"))
    match = Match.objects.get(title="Made in a browser")
    assert match.options == {"advanced": ["wrecks"], "tokens": {"mode": "draft-k", "k": 5},
                             "extra_forces": True, "round_limit": 80}
    assert match.status == Match.Status.ACTIVE


def test_broken_options_json_sets_the_fields_aside_and_the_server_explains(page):
    make_user("alice")
    log_in(page, "alice")
    page.goto(page.base + "/matches/new/?game=final-act")
    page.click("#create-advanced summary")  # the options as JSON are "advanced"
    page.fill("textarea[name=options]", "{broken")
    page.click("button:has-text('Create the match')")
    page.wait_for_selector("#create-form .errors")
    assert "Options are not valid JSON" in page.inner_text("#create-form")
    assert "these fields are not used" in page.inner_text("#game-options")
    assert page.input_value("textarea[name=options]") == "{broken"  # nothing lost
    assert not Match.objects.exists()


def alices_first_round(page, **options) -> Match:
    """A Final Act match of alice and bob (``options``) past its setups, both by default,
    and alice's page of it open at round 1's order sheet."""
    import engine

    game = engine.get("final-act")
    alice, bob = make_user("alice"), make_user("bob")
    match = duel(alice, bob, game="final-act", **options)
    for seat, user in ((1, alice), (2, bob)):
        orders_submit(match_id=match.pk, seat_number=seat, user=user, phase_number=1,
                      data=game.default_submission(match.state, seat), source="web")
    phase_resolve(match_id=match.pk, phase_number=1)
    log_in(page, "alice")
    page.goto(f"{page.base}/matches/{match.pk}/")
    return match


def test_final_act_tokens_are_placed_and_aimed_on_the_board(page):
    """The token panel's 'pick on the board' buttons: a smoke square and an air strike's two
    shells are chosen by clicking marked squares; the live check judges the result."""
    alices_first_round(page, options={"tokens": {"mode": "all", "k": 3}})

    page.click("#fa-token-smoke summary")
    page.click('.fa-token-pick[data-token="smoke"]')
    smoke = page.eval_on_selector_all("#fa-board-live rect.is-area",
                                      "els => els.map(e => e.dataset.square)")
    assert smoke  # the free squares next to Alpha's units
    page.click(f'#fa-board-live rect[data-square="{smoke[0]}"]')
    assert page.input_value('select[name="t-smoke-at"]') == smoke[0]

    page.click("#fa-token-air_strike summary")
    page.click('.fa-token-fire-pick[data-token="air_strike"]')
    assert "called from first" in page.inner_text("#fa-announce")
    page.select_option('select[name="t-air_strike-at"]', "c1")
    # That change posts the live check, whose answer redraws the board (and then its marks):
    # let it land before picking, or the marks are read off a board about to be replaced.
    settle(page)
    page.click('.fa-token-fire-pick[data-token="air_strike"]')
    settle(page)
    marked = page.eval_on_selector_all("#fa-board-live rect.is-cone",
                                       "els => els.map(e => e.dataset.square)")
    assert marked == [f"c{rank}" for rank in range(2, 13)]
    for square in ("c9", "c10", "d10"):
        page.click(f'#fa-board-live rect[data-square="{square}"]')
    assert "Air strike cannot target d10." in page.inner_text("#fa-announce")
    assert page.input_value('input[name="t-air_strike-fire"]') == "c9 c10"
    page.check('input[name="t-air_strike-paid_by"][value="1A"]')
    page.check('input[name="t-air_strike-paid_by"][value="1B"]')
    page.wait_for_function(
        "document.querySelector('#fa-sheet-check').innerText.includes('These orders are valid')")
    page.click("#fa-seal")
    page.wait_for_selector("#fa-sheet-panel >> text=Orders sealed")
    sealed = Submission.objects.get(phase__number=2, seat__number=1).data
    assert sealed["tokens"]["air_strike"] == {"at": "c1", "fire": ["c9", "c10"],
                                              "paid_by": ["1A", "1B"]}
    assert sealed["tokens"]["smoke"] == {"at": smoke[0]}


# Sets a field of the sheet (a select gets the value as an option if it lacks it) and says so
# as the page's own scripts do; `during_the_swap`: at the moment the live check's next answer
# is swapped in, as a fast player's second click may land.
SET_FIELD = """([name, value, during_the_swap]) => {
  const set = () => {
    const field = document.querySelector(`[name="${name}"]`);
    if (field.tagName === "SELECT" && ![...field.options].some((o) => o.value === value)) {
      field.add(new Option(value, value));
    }
    field.value = value;
    field.dispatchEvent(new Event("change", {bubbles: true}));
  };
  if (!during_the_swap) return set();
  document.body.addEventListener("htmx:afterSwap", (event) => {
    if (event.detail.target.closest("#fa-sheet-check")) set();
  }, {once: true});
}"""


def test_a_change_made_while_the_live_check_is_swapped_in_is_checked_too(page):
    """The live check listens to the sheet from a block that stays in place: a change that
    lands while an answer is being swapped in is heard and checked, so the check never shows
    an earlier draft than the one on screen."""
    alices_first_round(page)
    page.wait_for_selector("#fa-sheet-check .fa-ok")
    page.evaluate(SET_FIELD, ["u-C-fire", "z99", False])  # no such square: refused
    page.wait_for_selector("#fa-sheet-check .errors")
    settle(page)
    page.evaluate(SET_FIELD, ["u-C-fire", "", True])
    page.dispatch_event("#fa-sheet-form", "change")  # checked again, still refused...
    # ... and as that answer was swapped in, the shot was taken back: the last word is the
    # check of the sheet without it.
    page.wait_for_selector("#fa-sheet-check .fa-ok")
    settle(page)
    assert page.input_value('[name="u-C-fire"]') == ""
    assert page.locator("#fa-sheet-check .errors").count() == 0


def test_the_notification_table_is_used_with_the_keyboard_alone(page):
    """Tab reaches a row's radio buttons, the arrow keys choose in the row, Enter saves."""
    alice = make_user("alice")
    log_in(page, "alice")
    page.goto(page.base + "/accounts/profile/")
    page.focus("input[name=your_move][value=mail]")  # as Tab from the row before leaves it
    page.keyboard.press("ArrowLeft")  # to "Nothing", in the same row
    assert page.evaluate("document.activeElement.value") == "none"
    assert page.evaluate("document.activeElement.labels[0].textContent") == (
        "Your move (a phase opened in which you must act): Nothing")
    page.keyboard.press("Tab")  # to the next row, on its chosen button
    assert page.evaluate("document.activeElement.name") == "phase_resolved"
    page.keyboard.press("ArrowRight")  # round reports: e-mail
    page.keyboard.press("Enter")  # submits the form
    page.wait_for_selector("text=Notification choices saved.")
    alice.profile.refresh_from_db()
    assert "mail" not in alice.profile.channels["your_move"]
    assert "mail" in alice.profile.channels["phase_resolved"]


def test_the_deadline_countdown_keeps_the_readers_language(page):
    """The countdown the page's script keeps current says it in the page's words, not in the
    script's English."""
    from portal.accounts.services import profile_update

    alice, bob = make_user("alice"), make_user("bob")
    profile_update(user=alice, language="fr")
    match = duel(alice, bob, game="final-act")
    log_in(page, "alice")
    page.goto(f"{page.base}/matches/{match.pk}/")
    page.wait_for_function(
        "/^\\(dans \\d+ h \\d\\d min\\)$/.test("
        "document.querySelector('[data-countdown-for]').textContent)", timeout=10_000)
    assert "in " not in page.inner_text("[data-countdown-for]")
