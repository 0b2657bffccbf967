"""Final Act in a real browser on the real stack: PostgreSQL, Redis, a Celery worker process,
the live server and Debian's Chromium driven by Playwright.

A whole match against the bot through the pages only (setup by clicking, orders by clicking,
the status poll reloading the page as rounds resolve, the end screen, the replay); two players
who never see each other's sealed setup or sheet; the board with the keyboard alone; the page
on a phone. Screenshots go to $TEST_ARTIFACTS_DIR (default <repo>/test-artifacts/).
"""

from __future__ import annotations

import re

import pytest

import engine
from engine.final_act import report
from games.models import Match, Phase, Submission
from games.services import orders_submit, phase_resolve
from tests.browser import BROWSER_MARKS, log_in
from tests.integration.final_act_pages import (
    CLICKED_SETUP,
    RECORD_MESSAGES,
    best_order,
    board_units,
    click_square,
    fire_at,
    legal,
    marked,
    no_horizontal_scroll,
    order_one_unit,
    phase_heading,
    place_setup_by_clicking,
    plan_titles,
    quiet,
    report_title,
    screenshot,
    seal_orders,
    seal_setup,
    seen_messages,
    story,
    wait_for_heading,
    wait_for_plan,
    wait_marked,
)
from tests.portal.builders import (
    duel,
    fast_password_hashing,  # noqa: F401  (autouse)
    make_user,
)

pytestmark = [pytest.mark.integration, *BROWSER_MARKS]

GAME = engine.get("final-act")
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True,
         "device_scale_factor": 2}


@pytest.fixture
def new_page(new_page):
    """new_page(**context_options) -> a page in its own browser context (its own cookies),
    recording the panels' messages. Any JavaScript error on any of them fails the test."""

    def make(**options):
        return new_page(**{"viewport": {"width": 1280, "height": 1000}, "timeout": 20_000,
                           "init_script": RECORD_MESSAGES, **options})

    return make


def sealed(match: Match, seat: int, phase_number: int) -> Submission:
    return Submission.objects.get(phase__match=match, phase__number=phase_number,
                                  seat__number=seat)


def expected_sheet(match: Match, phase_number: int, seat: int, order: dict) -> dict:
    """The normal form of a sheet that orders one unit and leaves the rest to stay."""
    state = Phase.objects.get(match=match, number=phase_number).state_before
    return GAME.validate(state, seat, {"units": {
        order["unit"]: {"move": order["move"], "fire": [order["target"]]}}})


def forget_seen(page) -> None:
    """Start a fresh list of the messages the player saw (before a seal, so that its notice,
    "... sealed (revision 1).", is not taken for an earlier round's)."""
    page.evaluate("sessionStorage.removeItem('fa-seen')")


def wait_until_seen(page, text: str) -> None:
    """The player saw ``text`` in a panel message (even if the page has reloaded since)."""
    page.wait_for_function(
        "(text) => (sessionStorage.getItem('fa-seen') || '').includes(text)", arg=text)


def unit_line(lines: list[str], order: dict) -> str:
    """The report's sentence about the reader's own ordered unit ("Your C moved ...")."""
    pattern = re.compile(rf"^(Your|your) {re.escape(order['unit'])} ")
    found = [line for line in lines if pattern.match(line)]
    assert found, f"no line about {order['unit']} in {lines}"
    return found[0]


def deployed(lines: list[str], side: str) -> bool:
    """The setup report tells how ``side`` ("You", "Alpha") deployed CLICKED_SETUP."""
    return any(line.startswith(f"{side} deployed ")
               and all(f"{name} {spec['at']}" in line
                       for name, spec in CLICKED_SETUP["units"].items())
               for line in lines)


def report_board(page) -> set[tuple[str, str, str]]:
    return {tuple(u) for u in page.eval_on_selector_all(
        "#fa-board-report .fa-unit",
        "els => els.map(e => [e.dataset.seat, e.dataset.unit, e.dataset.square])")}


def same_report(match: Match, phase_number: int, a, b) -> None:
    """Both players see the report of the same resolution: the same board, and the same story
    told to each (in their own words: "your C" for one's own units)."""
    events = Phase.objects.get(match=match, number=phase_number).events
    assert story(a) == report.round_story(events, seat=1)
    assert story(b) == report.round_story(events, seat=2)
    assert report_board(a) == report_board(b)
    assert report_title(a) == report_title(b)


def start_round_one(alice, bob) -> Match:
    """A match between alice and bob past its setup (default layouts), in round 1."""
    match = duel(alice, bob, game="final-act", options={"round_limit": 3})
    for seat, user in ((1, alice), (2, bob)):
        orders_submit(match_id=match.pk, seat_number=seat, user=user, phase_number=1,
                      data=GAME.default_submission(match.state, seat), source="web")
    assert phase_resolve(match_id=match.pk, phase_number=1)
    match.refresh_from_db()
    return match


# -- a) a whole match against the bot ----------------------------------------------------------

@pytest.mark.long
def test_a_whole_match_against_the_bot_is_played_through_the_pages(stack, new_page):
    stack.worker()
    make_user("alice")
    page = new_page()
    log_in(page, "alice")

    page.goto(page.base + "/matches/new/?game=final-act")
    page.select_option("select[name=seat_2]", "bot:random")
    page.fill("input[name=option__round_limit]", "3")
    page.fill("input[name=title]", "Alice against the bot")
    page.click("button:has-text('Create the match')")
    page.wait_for_url(re.compile(r".*/matches/\d+/$"))
    match = Match.objects.get(title="Alice against the bot")
    assert match.options["round_limit"] == 3
    assert "Setup" in phase_heading(page)

    # The setup, by clicking: the live board shows her own draft and nothing of Delta's.
    place_setup_by_clicking(page)
    assert "This setup is valid" in page.inner_text("#fa-setup-check")
    assert board_units(page, seat=1) == {
        name: spec["at"] for name, spec in CLICKED_SETUP["units"].items()}
    assert board_units(page, seat=2) == {}
    screenshot(page, "setup")
    forget_seen(page)
    seal_setup(page)
    setup = sealed(match, 1, 1)
    # (the notice names the revision; the receipt is on the panel, folded)
    wait_until_seen(page, f"sealed (revision {setup.revision})")
    assert setup.data == GAME.validate(
        Phase.objects.get(match=match, number=1).state_before, 1, CLICKED_SETUP)

    # The bot's setup is in: the phase resolves and the poll reloads the page.
    wait_for_heading(page, "Round 1")
    assert report_title(page).startswith("Last: Setup revealed")
    assert deployed(story(page), "You")
    assert set(board_units(page, seat=2)), "Delta's units appear once both setups are in"

    played = 0
    while not page.locator("#fa-end-heading").count():
        played += 1
        assert played <= 3, "the round limit is 3"
        match.refresh_from_db()
        phase_number = match.phase_number
        assert f"Round {played}" in phase_heading(page)
        order = order_one_unit(page)
        if played == 1:
            screenshot(page, "orders")  # the unit moved, its cone shaded
        fire_at(page, order)  # (waits for the live check that draws both orders)
        wanted = [f"Plan: {order['unit']} moves {order['move']} to {order['to']}",
                  f"Plan: {order['unit']} fires at {order['target']}"]
        quiet(page)
        assert set(wanted) <= set(plan_titles(page))
        forget_seen(page)
        answer = seal_orders(page)
        sheet = sealed(match, 1, phase_number)
        wait_until_seen(page, f"sealed (revision {sheet.revision})")
        if 'id="fa-sheet-panel"' in answer:  # answered in place (the round had not resolved)
            assert sheet.receipt in answer
            assert f"Your orders for round {played}</h2>" in answer, "the panel lost its round"
        assert sheet.data == expected_sheet(match, phase_number, 1, order)

        wait_for_heading(page, f"Round {played + 1}")
        assert f"Round {played}" in report_title(page)
        line = unit_line(story(page), order)
        assert f"fired at {order['target']}" in line, line
        # Its destination was free of own units: it got there unless Delta went there too.
        assert f"moved {order['from']} → {order['to']}" in line or "tried to move" in line, line
        assert page.locator("#fa-report [data-replay=previous]").count() == 1
        if played == 1:
            screenshot(page, "report")

    # The end screen names the result the database holds.
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    # (as every surface says it: games.endings)
    from games.endings import ending_of, ending_sentence, ending_status

    heading = page.inner_text("#fa-end-heading")
    ending = ending_of(match)
    if ending.is_draw:
        assert heading == "A draw."
    else:
        assert heading == {1: "Winner: Alpha.", 2: "Winner: Delta."}[ending.winners[0]]
    assert heading == ending_status(match.game, ending)
    assert ending_sentence(match.game, ending) in page.inner_text(".fa-end")
    assert page.locator("#phase-heading").count() == 0  # no phase open, no poll
    screenshot(page, "end")

    # The replay, back to the setup and forward again.
    titles = [report_title(page)]
    while page.locator("#fa-report [data-replay=previous]").count():
        before = report_title(page)
        page.click("#fa-report [data-replay=previous]")
        page.wait_for_function(
            "(t) => document.querySelector('#fa-report-heading').innerText !== t", arg=before)
        titles.append(report_title(page))
    assert titles[-1].startswith("Setup revealed")
    assert [t.split(" (")[0] for t in titles] == (
        [f"Last: Round {played}"] + [f"Round {n}" for n in range(played - 1, 0, -1)]
        + ["Setup revealed"])
    assert set(board_units(page, "#fa-board-report", seat=1)) == set(CLICKED_SETUP["units"])
    while page.locator("#fa-report [data-replay=next]").count():
        before = report_title(page)
        page.click("#fa-report [data-replay=next]")
        page.wait_for_function(
            "(t) => document.querySelector('#fa-report-heading').innerText !== t", arg=before)
    assert report_title(page).startswith(f"Last: Round {played}")

    # Exactly what was clicked, and nothing else, was sealed for Alpha.
    assert Submission.objects.filter(phase__match=match, seat__number=1).count() == played + 1
    assert all(s.revision == 1 for s in Submission.objects.filter(phase__match=match))


# -- b) two players: nothing sealed crosses over ----------------------------------------------

@pytest.mark.long
def test_two_players_never_see_the_other_s_sealed_setup_or_sheet(stack, new_page):
    stack.worker()
    alice, bob = make_user("alice"), make_user("bob")
    match = duel(alice, bob, game="final-act", options={"round_limit": 3})
    a, b = new_page(), new_page()
    log_in(a, "alice")
    log_in(b, "bob")
    url = f"/matches/{match.pk}/"
    a.goto(a.base + url)
    b.goto(b.base + url)

    # Alice places by clicking and seals; bob has not sealed yet.
    place_setup_by_clicking(a)
    seal_setup(a)
    alice_setup = sealed(match, 1, 1)
    b.reload()
    assert board_units(b, "svg.fa-board", seat=1) == {}
    assert b.locator(".fa-terrain.owner-1, .fa-sq.owner-1").count() == 0
    assert alice_setup.receipt not in b.content()
    assert alice_setup.salt not in b.content()
    assert "h3 i3" not in b.inner_text("main")  # her large berm, in any text form
    assert "orders in" in b.inner_text("#submission-status")  # that she is in: yes
    # Bob fills in the default layout with one button: a draft in his browser only.
    b.click("#fa-setup-default")
    b.wait_for_function(
        "document.querySelector('[name=\"u-C-at\"]').value === 'f11'")
    quiet(b)
    assert board_units(b, seat=2)["C"] == "f11"
    assert board_units(b, "svg.fa-board", seat=1) == {}
    assert b.locator(".fa-terrain.owner-1, .fa-sq.owner-1").count() == 0
    # Alice's page shows her own sealed setup and nothing of bob's draft.
    a.reload()
    assert alice_setup.receipt in a.content()
    assert board_units(a, seat=1) == {
        name: spec["at"] for name, spec in CLICKED_SETUP["units"].items()}
    assert board_units(a, "svg.fa-board", seat=2) == {}
    assert a.locator(".fa-terrain.owner-2, .fa-sq.owner-2").count() == 0
    assert "waiting" in a.inner_text("#submission-status")

    seal_setup(b)
    bob_setup = sealed(match, 2, 1)
    assert bob_setup.data == GAME.default_submission(
        Phase.objects.get(match=match, number=1).state_before, 2)

    for page in (a, b):
        wait_for_heading(page, "Round 1")
    same_report(match, 1, a, b)
    assert deployed(story(b), "Alpha")
    assert board_units(b, "#fa-board-report", seat=1)["C"] == "g1"

    # Round 1: alice seals first; bob's page shows nothing of her sheet.
    alice_order = order_one_unit(a)
    fire_at(a, alice_order)
    quiet(a)
    seal_orders(a)
    alice_sheet = sealed(match, 1, 2)
    a_plan = set(plan_titles(a))
    assert f"Plan: {alice_order['unit']} fires at {alice_order['target']}" in a_plan
    b.reload()
    assert legal(b)["seat"] == 2
    assert plan_titles(b) == []
    assert alice_sheet.receipt not in b.content()
    assert alice_sheet.salt not in b.content()
    alice_text = GAME.format_text(
        Phase.objects.get(match=match, number=2).state_before, 1, alice_sheet.data)
    fire_line = next(line for line in alice_text.splitlines() if "fire" in line)
    assert fire_line not in b.inner_text("main")
    # Bob's own draft is drawn for him alone, and his plan is not hers.
    bob_order = order_one_unit(b)
    fire_at(b, bob_order)
    quiet(b)
    b_plan = set(plan_titles(b))
    assert f"Plan: {bob_order['unit']} fires at {bob_order['target']}" in b_plan
    assert not b_plan & a_plan
    a.reload()
    assert set(plan_titles(a)) == a_plan  # her sealed sheet, nothing of bob's draft
    seal_orders(b)
    bob_sheet = sealed(match, 2, 2)

    for page in (a, b):
        wait_for_heading(page, "Round 2")
    same_report(match, 2, a, b)
    unit_line(story(a), alice_order)
    unit_line(story(b), bob_order)
    assert alice_sheet.data == expected_sheet(match, 2, 1, alice_order)
    assert bob_sheet.data == expected_sheet(match, 2, 2, bob_order)
    # Revealed now: both receipts on both pages' history.
    for page in (a, b):
        assert alice_sheet.receipt in page.inner_text("#history")
        assert bob_sheet.receipt in page.inner_text("#history")


# -- c) the keyboard alone ------------------------------------------------------------------

def focused_square(page) -> str | None:
    return page.evaluate(
        "(() => { const e = document.activeElement;"
        " return e && e.matches('#fa-board-live rect.fa-sq') ? e.dataset.square : null; })()")


def arrow_to(page, target: str) -> None:
    """Move the board's focus to ``target`` with the arrow keys (screen directions)."""
    here = page.evaluate(
        "[+document.activeElement.dataset.col, +document.activeElement.dataset.row]")
    there = page.eval_on_selector(f'#fa-board-live rect.fa-sq[data-square="{target}"]',
                                  "e => [+e.dataset.col, +e.dataset.row]")
    dx, dy = there[0] - here[0], there[1] - here[1]
    for _ in range(abs(dx)):
        page.keyboard.press("ArrowRight" if dx > 0 else "ArrowLeft")
    for _ in range(abs(dy)):
        page.keyboard.press("ArrowDown" if dy > 0 else "ArrowUp")
    assert focused_square(page) == target


def test_the_board_is_usable_with_the_keyboard_alone(stack, new_page):
    alice, bob = make_user("alice"), make_user("bob")
    match = start_round_one(alice, bob)
    page = new_page()
    log_in(page, "alice")
    page.goto(f"{page.base}/matches/{match.pk}/")

    for _ in range(80):  # Tab through the page until the board has the focus
        page.keyboard.press("Tab")
        if focused_square(page):
            break
    assert focused_square(page), "Tab never reached the board"
    assert page.locator('#fa-board-live rect.fa-sq[tabindex="0"]').count() == 1
    start = focused_square(page)
    page.keyboard.press("End")
    row_end = focused_square(page)
    page.keyboard.press("Home")
    assert focused_square(page) == start and row_end != start

    name, info, (move, to, target) = best_order(legal(page))
    arrow_to(page, info["at"])
    page.keyboard.press("Enter")
    wait_marked(page, "is-selected", info["at"])
    wait_marked(page, "is-legal", to)
    assert marked(page, "is-selected") == [info["at"]]
    arrow_to(page, to)
    page.keyboard.press("Enter")
    assert page.input_value(f"select[name='u-{name}-move']") == move
    quiet(page)  # the live check redraws the board ...
    assert focused_square(page) == to  # ... and the focus stays where it was
    arrow_to(page, target)
    page.keyboard.press(" ")
    assert page.input_value(f"select[name='u-{name}-fire']") == target
    wait_for_plan(page, f"Plan: {name} fires at {target}")
    quiet(page)
    assert f"Plan: {name} fires at {target}" in plan_titles(page)


# -- d) a phone ---------------------------------------------------------------------------------

def test_on_a_phone_nothing_scrolls_sideways_and_a_tap_orders_a_unit(stack, new_page):
    alice, bob = make_user("alice"), make_user("bob")
    setup_match = duel(alice, bob, game="final-act")
    match = start_round_one(alice, bob)
    page = new_page(**PHONE)
    log_in(page, "alice")

    page.goto(f"{page.base}/matches/{setup_match.pk}/")
    width, inner = no_horizontal_scroll(page)
    assert width <= inner, f"the setup page scrolls sideways: {width} > {inner}"
    page.click(".fa-setup-pick[data-piece='unit'][data-unit='C']")
    click_square(page, "g1", tap=True)
    assert page.input_value("[name='u-C-at']") == "g1"

    page.goto(f"{page.base}/matches/{match.pk}/")
    width, inner = no_horizontal_scroll(page)
    assert width <= inner, f"the orders page scrolls sideways: {width} > {inner}"
    order = order_one_unit(page, tap=True)
    fire_at(page, order, tap=True)
    quiet(page)
    screenshot(page, "phone")
    # On a touch screen a first tap only arms the seal button (a stray tap seals nothing).
    seal = page.locator("#fa-seal")
    seal.tap()
    assert seal.inner_text() == "Tap again to seal these orders"
    assert not Submission.objects.filter(phase__match=match, phase__number=2,
                                         seat__number=1).exists()
    seal.tap()
    page.wait_for_selector("#fa-sheet-panel .receipt", state="attached")
    sheet = sealed(match, 1, 2)
    assert sheet.receipt in page.text_content("#fa-sheet-panel")  # (folded: on demand)
    assert page.inner_text("#fa-sheet-heading") == "Your orders for round 1"
    assert sheet.data == expected_sheet(match, 2, 1, order)
    assert any(f"sealed (revision {sheet.revision})" in message
               for message in seen_messages(page))
    width, inner = no_horizontal_scroll(page)
    assert width <= inner, f"the sealed panel scrolls sideways: {width} > {inner}"
