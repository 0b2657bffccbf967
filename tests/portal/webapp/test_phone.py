"""The site on a phone (Chromium, 390 × 844, touch): no page scrolls sideways, the boards fit
the screen and their targets are big enough for a thumb, a stray tap never seals orders, and
the messages and votes are reachable without scrolling past the whole board."""

from __future__ import annotations

import pytest
from django.urls import reverse

from competitions.services.clubs import club_create, club_join_by_token
from competitions.services.ladders import ladder_create
from competitions.services.tournaments import (
    tournament_create,
    tournament_register,
    tournament_start,
)
from games.models import Submission
from tests.browser import BROWSER_MARKS, log_in, settle
from tests.portal.builders import duel, make_user
from tests.portal.played import GAMES, played_match, players

pytestmark = BROWSER_MARKS

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
         "device_scale_factor": 2}

# What is wider than the screen, for the failure message (the widest few elements).
WIDEST = """() => {
  const width = innerWidth;
  return [...document.querySelectorAll("body *")]
    .map((node) => [node, node.getBoundingClientRect()])
    .filter(([, box]) => box.right > width + 1 && box.width > 0)
    .sort((a, b) => b[1].right - a[1].right).slice(0, 3)
    .map(([node, box]) => `${node.tagName.toLowerCase()}#${node.id}.`
      + `${node.getAttribute("class")} right=${Math.round(box.right)}`);
}"""

# The board's targets a player taps that are too small for a thumb (44 × 44 CSS pixels): the
# board's elements that take a tap or the keyboard's focus and name a square, a hex or an edge,
# unless they take no tap (Final Strategy's edges, a few pixels thick: on a touch screen a
# barrier is placed from its square and a side picker).
TARGETS = """() => [...document.querySelectorAll("#play svg [tabindex], #play svg [role=button]")]
  .filter((node) => node.closest("[data-square], [data-hex], [data-edge]")
    && node.getClientRects().length && getComputedStyle(node).pointerEvents !== "none")
  .map((node) => {
    const box = node.getBoundingClientRect();
    return `${node.tagName}.${node.getAttribute("class")} `
      + `${Math.round(box.width)}x${Math.round(box.height)}`
      + (box.width < 44 || box.height < 44 ? " SMALL" : "");
  })"""


def sideways(page, paths: list[str], who: str) -> list[str]:
    found = []
    for path in paths:
        response = page.goto(page.base + path)
        assert response is not None and response.ok, f"{path} as {who}: {response.status}"
        settle(page)
        wide, width = page.evaluate(
            "() => [document.scrollingElement.scrollWidth, innerWidth]")
        if wide > width:
            found.append(f"{path} as {who}: {wide} > {width} ({page.evaluate(WIDEST)})")
    return found


@pytest.mark.presentation
@pytest.mark.long
def test_no_page_scrolls_sideways_on_a_phone(new_page):
    people = players("ph")
    alice, bob = people["seat1"], people["seat2"]
    matches = {slug: played_match(slug, people) for slug in GAMES}
    club = club_create(by=alice, name="Thumbs")
    club_join_by_token(token=club.invite_token, user=bob)
    ladder = ladder_create(by=alice, club_id=club.pk, game="final-strategy")
    cup = tournament_create(by=alice, name="Thumbs cup", game="final-strategy",
                            format="round_robin", club_id=club.pk)
    for player in (alice, bob):
        tournament_register(tournament_id=cup.pk, user=player)
    tournament_start(tournament_id=cup.pk, by=alice)
    paths = [reverse("home"), reverse("games:lobby"), reverse("games:my_matches"),
             reverse("games:match_create"), reverse("accounts_profile"),
             reverse("competitions:clubs"), reverse("competitions:club", args=[club.slug]),
             reverse("competitions:ladder", args=[ladder.pk]),
             reverse("competitions:tournament", args=[cup.pk]),
             reverse("competitions:crosstable", args=[cup.pk]), reverse("lessons:index"),
             reverse("webapp_offline")]
    for slug, match in matches.items():
        paths += [reverse("games:match", args=[match.pk]),
                  reverse("games:history", args=[match.pk]),
                  reverse("games:rules", args=[slug]),
                  reverse("sharing:embed", args=[match.pk])]
    page = new_page(**PHONE)
    log_in(page, alice.username)
    found = sideways(page, paths, "seat 1")
    spectator = new_page(**PHONE)
    found += sideways(spectator, [reverse("games:match", args=[m.pk]) for m in matches.values()]
                      + [reverse("account_login"), reverse("competitions:clubs")], "anonymous")
    assert found == [], "\n".join(found)


@pytest.mark.presentation
@pytest.mark.parametrize("slug", GAMES)
def test_the_board_fits_the_phone_and_its_targets_fit_a_thumb(slug, new_page):
    people = players(slug[:4])
    match = played_match(slug, people)
    page = new_page(**PHONE)
    log_in(page, people["seat1"].username)
    page.goto(page.base + reverse("games:match", args=[match.pk]))
    settle(page)
    if page.locator("#ps-activate-form").count():  # Panzer Squadron: a tank's move, then hexes
        page.locator("#ps-activate-form input[data-action^=move]").first.check()
        page.click("#ps-activate-form button[type=submit]")
        page.wait_for_selector("#ps-path-form")
    board = page.locator("#play svg").first
    box = board.bounding_box()
    assert box is not None and box["width"] > 0
    # The board never widens the page; it may pan inside its own frame.
    assert page.evaluate("document.scrollingElement.scrollWidth <= innerWidth")
    # Pinch zoom is never turned off.
    viewport = page.get_attribute("meta[name=viewport]", "content")
    assert "user-scalable=no" not in viewport and "maximum-scale=1" not in viewport
    targets = page.evaluate(TARGETS)
    assert targets, "no square or hex to tap on the board"
    small = [target for target in targets if target.endswith("SMALL")]
    assert small == [], small[:5]


def test_one_tap_on_the_seal_button_does_not_seal(new_page):
    alice, bob = make_user("alice"), make_user("bob")
    match = duel(alice, bob)
    page = new_page(**PHONE)
    log_in(page, "alice")
    page.goto(page.base + reverse("games:match", args=[match.pk]))
    page.fill("#id_orders", "2")
    seal = page.locator("#orders-panel button[type=submit]")
    seal.tap()
    # The button now asks for a second tap; nothing was sealed.
    assert seal.inner_text() == "Tap again to seal these orders"
    page.wait_for_timeout(300)  # (time for a submission that should not happen to arrive)
    assert not Submission.objects.filter(phase__match=match).exists()
    seal.tap()
    page.wait_for_selector("#orders-panel:has-text('Your sealed sheet')")
    assert Submission.objects.filter(phase__match=match, seat__number=1).exists()


def test_a_mouse_click_or_the_keyboard_seals_at_once(new_page):
    alice, bob = make_user("alice"), make_user("bob")
    match = duel(alice, bob)
    page = new_page(viewport={"width": 1280, "height": 900})
    log_in(page, "alice")
    page.goto(page.base + reverse("games:match", args=[match.pk]))
    page.fill("#id_orders", "2")
    page.click("#orders-panel button[type=submit]")
    page.wait_for_selector("#orders-panel:has-text('Your sealed sheet')")
    assert Submission.objects.filter(phase__match=match, seat__number=1).exists()


def test_messages_and_votes_are_a_skip_link_away_on_a_phone(new_page):
    alice, bob = make_user("alice"), make_user("bob")
    match = duel(alice, bob)
    page = new_page(**PHONE)
    log_in(page, "alice")
    page.goto(page.base + reverse("games:match", args=[match.pk]))
    for target in ("#messages", "#votes"):
        link = page.locator(f".skip-link[href='{target}']")
        assert link.count() == 1, target
    page.keyboard.press("Tab")  # the first skip links lead the tab order
    names = []
    for _ in range(6):
        names.append(page.evaluate("document.activeElement.getAttribute('href')"))
        page.keyboard.press("Tab")
    assert "#messages" in names and "#votes" in names, names


def test_a_final_strategy_turn_ended_by_a_tap_waits_for_its_confirmation(new_page):
    import engine

    people = players("fst")
    match = played_match("final-strategy", people)
    game = engine.get("final-strategy")
    assert 1 in game.prompts(match.state)
    barrier = next(action["steps"][0]["barrier"] for action in game.legal_actions(match.state, 1)
                   if len(action["steps"]) == 1 and "barrier" in action["steps"][0])
    number = match.phase_number
    page = new_page(**PHONE)
    log_in(page, people["seat1"].username)
    page.goto(page.base + reverse("games:match", args=[match.pk]))
    # The edge is too thin to tap: the barrier tool, then the square south or west of it,
    # then its side.
    south_west, other = barrier.split("-")
    side = "n" if south_west[0] == other[0] else "e"
    assert page.evaluate("""name => getComputedStyle(document.querySelector(
        `#fs-board-wrap [data-edge='${name}']`)).pointerEvents""", barrier) == "none"
    page.locator("#fs-play input[name=fs-tool][value=barrier]").tap()
    page.locator(f"#fs-board-wrap [data-square='{south_west}']").tap()
    page.wait_for_selector("#fs-side-picker:not([hidden])")
    sizes = page.evaluate("""() => [...document.querySelectorAll("#fs-side-picker button")]
        .filter((b) => !b.hidden).map((b) => [b.offsetWidth, b.offsetHeight])""")
    assert len(sizes) >= 2 and all(w >= 44 and h >= 44 for w, h in sizes), sizes
    page.locator(f"#fs-side-picker [data-side='{side}']").tap()
    # The one step ends the turn: it is shown, and waits for the second tap.
    page.wait_for_selector("#fs-confirm-box:not([hidden])")
    assert barrier in page.inner_text("#fs-turn-text")
    page.wait_for_timeout(300)  # (time for a seal that should not happen to arrive)
    match.refresh_from_db()
    assert match.phase_number == number
    with page.expect_navigation():  # sealed, the page reloads
        page.locator("#fs-confirm").tap()
    match.refresh_from_db()
    assert match.phase_number > number
