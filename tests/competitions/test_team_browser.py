"""An organiser challenges a club, names a roster and swaps in an alternate with the keyboard
alone, in English and in French (Debian's Chromium through Playwright); axe finds no serious
violation on the team pages."""

from __future__ import annotations

import re

import pytest

from competitions import services
from competitions.models import TeamMatch, TeamPlayer
from portal.accounts.services import profile_update
from tests.axe import axe_violations
from tests.browser import BROWSER_MARKS, browser_page, log_in, settle
from tests.french import english_in, text_of
from tests.portal.builders import fast_password_hashing, make_user  # noqa: F401

pytestmark = BROWSER_MARKS

page = browser_page(viewport={"width": 1280, "height": 1000})

FOCUSED = "document.activeElement"
TEXTS = {
    "en": {"challenge": "Challenge another club", "send": "Send the challenge",
           "save": "Save the roster", "swap": "Swap", "saved": "The roster is saved.",
           "now_plays": "now plays board 2"},
    "fr": {"challenge": "Défier un autre club", "send": "Envoyer le défi",
           "save": "Enregistrer l’équipe", "swap": "Remplacer",
           "saved": "L’équipe est enregistrée.", "now_plays": "joue désormais le plateau 2"},
}


def tab_to(page, selector: str, presses: int = 400) -> None:
    """Press Tab until the element ``selector`` finds (a Playwright selector) has the focus."""
    target = page.locator(selector).first.element_handle()
    for _ in range(presses):
        page.keyboard.press("Tab")
        if page.evaluate(f"e => {FOCUSED} === e", target):
            return
    raise AssertionError(f"Tab never reached {selector}")


def choose(page, selector: str, label: str) -> None:
    """Tab to a <select> and type the start of an option's label (the browser's own
    type-ahead), as a keyboard user picks from a menu."""
    tab_to(page, selector)
    page.keyboard.type(label)
    chosen = page.eval_on_selector(selector, "e => e.options[e.selectedIndex].text")
    assert chosen.startswith(label), (selector, chosen)


def audit(page, axe_script: str, where: str) -> None:
    settle(page)
    assert axe_violations(page, axe_script, where=where) == []


@pytest.mark.parametrize("language", ["en", "fr"])
def test_an_organiser_challenges_names_a_roster_and_swaps_an_alternate_by_keyboard(
        page, axe_script, language):
    words = TEXTS[language]
    owner = make_user(f"cap{language}")
    if language == "fr":
        profile_update(user=owner, language="fr")
    alpha = services.club_create(by=owner, name=f"Alpha {language}")
    members = [make_user(f"{language}m{i}") for i in range(1, 5)]
    for user in members:
        services.club_join_by_token(token=alpha.invite_token, user=user)
    rival = make_user(f"rival{language}")
    bravo = services.club_create(by=rival, name=f"Bravo {language}")

    log_in(page, owner.username)
    page.goto(page.base + f"/clubs/{alpha.slug}/")
    audit(page, axe_script, f"club page ({language})")
    tab_to(page, f"a:text-is('{words['challenge']}')")
    page.keyboard.press("Enter")
    page.wait_for_url("**/team-matches/new/")
    audit(page, axe_script, f"challenge form ({language})")
    choose(page, "#id_opponent", bravo.name)
    tab_to(page, "#id_boards")
    page.keyboard.press("Control+A")
    page.keyboard.type("2")
    tab_to(page, f"button:text-is('{words['send']}')")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/team-matches/\d+/$"))
    team_match = TeamMatch.objects.get(club_a=alpha)
    assert (team_match.club_b, team_match.boards) == (bravo, 2)
    audit(page, axe_script, f"team match page ({language})")
    if language == "fr":
        main = page.inner_html("main")
        assert not english_in(text_of(main), names=[alpha.name, bravo.name, owner.username,
                                                     "Toy Duel"]
                                                    + [m.username for m in members])

    # The roster in the captain's own order, two alternates, by keyboard only.
    choose(page, f"#board-{alpha.pk}-1", members[2].username)
    choose(page, f"#board-{alpha.pk}-2", members[0].username)
    for alternate in (members[1], members[3]):
        tab_to(page, f"#roster-{alpha.pk} input[name=alternates][value='{alternate.pk}']")
        page.keyboard.press("Space")
    tab_to(page, f"#roster-{alpha.pk} input[name=order][value=rating]")
    page.keyboard.press("ArrowDown")  # the radio group's next choice: my own order
    assert page.is_checked(f"#roster-{alpha.pk} input[name=order][value=given]")
    tab_to(page, f"button:text-is('{words['save']}')")
    page.keyboard.press("Enter")
    page.wait_for_selector(f"text={words['saved']}")
    boards = {row.board: row.user for row in TeamPlayer.objects.filter(
        team_match=team_match, board__isnull=False)}
    assert boards == {1: members[2], 2: members[0]}
    assert set(TeamPlayer.objects.filter(team_match=team_match, board__isnull=True)
               .values_list("user_id", flat=True)) == {members[1].pk, members[3].pk}

    # Swap: the fourth member onto board 2.
    choose(page, f"#swap-board-{alpha.pk}", "2")
    choose(page, f"#swap-alternate-{alpha.pk}", members[3].username)
    tab_to(page, f"#roster-{alpha.pk} button:text-is('{words['swap']}')")
    page.keyboard.press("Enter")
    page.wait_for_selector(f"text={words['now_plays']}")
    assert TeamPlayer.objects.get(team_match=team_match, board=2).user == members[3]
    assert members[0].username in page.inner_text(f"#roster-{alpha.pk}")
    audit(page, axe_script, f"team match page after the swap ({language})")


def test_the_team_league_pages_have_no_serious_violation(page, axe_script):
    owner, rival = make_user("host"), make_user("guest")
    alpha = services.club_create(by=owner, name="Alpha")
    bravo = services.club_create(by=rival, name="Bravo")
    league = services.team_league_create(by=owner, club_id=alpha.pk, name="Ligue",
                                         game="toy-duel", boards=2, clubs=[bravo.pk])
    services.team_league_join(league_id=league.pk, club_id=bravo.pk, by=rival)
    services.team_league_start(league_id=league.pk, by=owner)
    log_in(page, "host")
    for path in (f"/team-leagues/{league.pk}/", f"/clubs/{alpha.slug}/team-leagues/new/"):
        page.goto(page.base + path)
        audit(page, axe_script, path)
    assert "Alpha" in page.inner_text("main")
