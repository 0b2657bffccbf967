"""axe-core on the site's pages in Chromium: every page of a played match of each game, as each
seat and as a spectator (match page, its replay, history, timeline and notebook, the rules and
the lessons), and the site around them (home, lobby, profile, notification settings, clubs,
ladders, tournaments). No serious or critical violation, and no duplicate id (tests/axe.py).

The pages are the real ones over the live server; axe is the npm package, installed by the
first run (tests/axe.py). Each test lists every violation it found before failing."""

from __future__ import annotations

import pytest
from django.urls import reverse

from competitions.services.clubs import club_create, club_join_by_token, club_request_join
from competitions.services.ladders import challenge_create, ladder_create
from competitions.services.tournaments import (
    tournament_create,
    tournament_register,
    tournament_start,
)
from games import plugins
from portal.lessons.catalogue import game_lessons
from tests.axe import axe_violations
from tests.browser import BROWSER_MARKS, log_in, settle
from tests.portal.builders import fast_password_hashing  # noqa: F401  (autouse)
from tests.portal.played import GAMES, played_match, players

pytestmark = BROWSER_MARKS


def audit(page, script: str, paths: list[str], who: str) -> list[str]:
    """Open each path and run axe on it once it has settled (HTMX loads done)."""
    found = []
    for path in paths:
        response = page.goto(page.base + path)
        assert response is not None and response.ok, (
            f"{path} as {who}: {response and response.status}")
        settle(page)
        found += axe_violations(page, script, where=f"{path} as {who}")
    return found


def match_paths(match, slug: str, who: str) -> list[str]:
    """The pages of a played match as ``who`` opens them: the match page and its replay for
    every role; the history, the timeline and the notes for seat 1 (seat 2's are the same
    pages); Tank Game's logbook for a seat and a spectator."""
    page = reverse("games:match", args=[match.pk])
    paths = [page, f"{page}?replay=1"]
    if who == "seat1":
        paths += [reverse("games:history", args=[match.pk]),
                  reverse("timeline:timeline", args=[match.pk]),
                  reverse("timeline:notebook", args=[match.pk])]
    if slug == "tank-game" and who != "seat2":
        logbook = reverse("games:tank_logbook", args=[match.pk])
        paths += [logbook, f"{logbook}?upto=1"]
    return paths


@pytest.mark.presentation
@pytest.mark.long
@pytest.mark.parametrize("slug", GAMES)
def test_every_page_of_a_played_match_has_no_serious_violation(slug, new_page, axe_script):
    people = players(slug.split("-")[-1][:4])
    match = played_match(slug, people)
    found = []
    for who in ("seat1", "seat2", "spectator"):
        page = new_page(viewport={"width": 1280, "height": 1000})
        log_in(page, people[who].username)
        found += audit(page, axe_script, match_paths(match, slug, who), who)
    anonymous = new_page(viewport={"width": 1280, "height": 1000})
    found += audit(anonymous, axe_script, [reverse("games:rules", args=[slug]),
                                           reverse("games:match", args=[match.pk]),
                                           reverse("lessons:game", args=[slug])], "anonymous")
    for lesson in game_lessons(slug):
        path = reverse("lessons:lesson", args=[slug, lesson.slug])
        anonymous.goto(anonymous.base + path)
        found += axe_violations(anonymous, axe_script, where=path)  # the clickable board
        # A try that misses: the page then shows the board after it too, and the hints.
        typed = anonymous.locator("summary:has-text('Type your orders instead')")
        if typed.count():  # typing is folded under the game's clickable board
            typed.click()
        anonymous.fill("#lesson-orders", lesson.wrong)
        anonymous.click("#lesson-form button[type=submit]")
        anonymous.wait_for_selector(
            "#lesson-result .lesson-missed, #lesson-result .lesson-refused")
        found += axe_violations(anonymous, axe_script, where=f"{path} after a try")
    assert found == [], "\n".join(found)


@pytest.mark.presentation
@pytest.mark.long
def test_the_site_around_the_matches_has_no_serious_violation(new_page, axe_script):
    people = players("site")
    alice, bob, carol = people["seat1"], people["seat2"], people["spectator"]
    played_match("final-strategy", people)
    club = club_create(by=alice, name="Readers")
    club_request_join(club_id=club.pk, user=carol, message="may I join?")
    club_join_by_token(token=club.invite_token, user=bob)
    ladder = ladder_create(by=alice, club_id=club.pk, game="final-strategy")
    challenge_create(ladder_id=ladder.pk, by=alice, opponent=bob)
    cup = tournament_create(by=alice, name="Readers' cup", game="final-strategy",
                            format="round_robin", club_id=club.pk)
    knockout = tournament_create(by=alice, name="Readers' knockout", game="final-strategy",
                                 format="single_elim", club_id=club.pk)
    for tournament in (cup, knockout):
        for player in (alice, bob):
            tournament_register(tournament_id=tournament.pk, user=player)
        tournament_start(tournament_id=tournament.pk, by=alice)
    paths = [
        reverse("home"), reverse("games:lobby"), reverse("games:my_matches"),
        reverse("games:match_create"), reverse("accounts_profile"),
        reverse("competitions:clubs"), reverse("competitions:club", args=[club.slug]),
        reverse("competitions:ladder", args=[ladder.pk]),
        reverse("competitions:ladder_player", args=[ladder.pk, bob.pk]),
        reverse("competitions:tournament", args=[cup.pk]),
        reverse("competitions:crosstable", args=[cup.pk]),
        reverse("competitions:bracket", args=[knockout.pk]), reverse("lessons:index"),
    ]
    page = new_page(viewport={"width": 1280, "height": 1000})
    log_in(page, alice.username)
    found = audit(page, axe_script, paths, "a club's owner")
    anonymous = new_page(viewport={"width": 1280, "height": 1000})
    found += audit(anonymous, axe_script, [
        reverse("games:lobby"), reverse("competitions:clubs"), reverse("account_login"),
        reverse("account_signup"), *[reverse("games:rules", args=[s])
                                     for s in plugins.installed() if s in GAMES]],
        "anonymous")
    assert found == [], "\n".join(found)
