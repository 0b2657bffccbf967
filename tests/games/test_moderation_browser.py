"""The moderator's whole journey in a real browser (Debian's Chromium driven by Playwright):
log in to the admin, open the match, pause, resume, extend, roll back, replace a player, void;
then the public match page tells it in short."""

from datetime import timedelta

from django.contrib.auth.models import Group

from games.models import Match, ModerationEntry, Phase, Seat
from tests.browser import BROWSER_MARKS, browser_page
from tests.helpers import play_round
from tests.portal.builders import PASSWORD, duel, make_user

pytestmark = BROWSER_MARKS

page = browser_page(bypass_csp=False)  # nothing here evaluates script: the site's CSP holds


def act(page, op: str, reason: str, **fields: str) -> None:
    """Fill the op's form on the moderation page and wait for the result message."""
    form = page.locator(f"#op-{op}")
    for name, value in fields.items():
        if name == "replace_with":
            form.locator(f"input[name='{op}-replace_with'][value='{value}']").check()
        else:
            form.locator(f"[name='{op}-{name}']").fill(value)
    form.locator(f"[name='{op}-reason']").fill(reason)
    form.locator(f"#submit-{op}").click()
    page.wait_for_selector("ul.messagelist li.success")


def test_a_moderator_pauses_extends_rolls_back_replaces_and_voids(page):
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    moderator = make_user("mod", staff=True)
    moderator.groups.add(Group.objects.get(name="Moderator"))
    match = duel(alice, bob, options={"target": 9}, title="Journey duel")
    play_round(match, {1: 4, 2: 2})
    play_round(match, {1: 4, 2: 2})

    # The admin logs in through the site's (throttled) log-in page, then comes back.
    page.goto(page.base + "/admin/login/?next=/admin/")
    page.fill("input[name=login]", "mod")
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_selector("#site-name")
    page.goto(page.base + f"/admin/games/match/{match.pk}/change/")
    page.click("#moderate-link")
    page.wait_for_selector("#moderation")

    act(page, "pause", "players dispute a ruling")
    assert page.inner_text("#match-paused") == "paused"
    assert Match.objects.get(pk=match.pk).paused_at is not None

    act(page, "resume", "ruling settled")
    page.wait_for_selector("#match-deadline")
    act(page, "extend", "bob is travelling", hours="48")
    assert Phase.objects.get(match=match, number=3).extended > timedelta(hours=20)

    act(page, "rollback", "a wrong resolution", to_phase="2")
    assert page.inner_text("#match-phase") == "2"
    assert sorted(Phase.all_objects.filter(match=match, status="voided")
                  .values_list("number", flat=True)) == [2, 3]

    act(page, "replace", "bob left the site", seat="2", replace_with="user", username="carol")
    assert Seat.objects.get(match=match, number=2).user == carol
    assert "carol" in page.locator("#moderation-seats").inner_text()

    act(page, "void", "the match was collusion")
    assert page.inner_text("#match-status") == "Voided by a moderator"
    trail = page.locator("#audit-trail").inner_text()
    for reason in ("players dispute a ruling", "bob is travelling", "a wrong resolution",
                   "bob left the site", "the match was collusion"):
        assert reason in trail
    assert [e.kind for e in ModerationEntry.objects.filter(match=match).order_by("pk")] == [
        "pause", "resume", "extend", "rollback", "replace", "void"]

    # The public page tells it in short, without the moderator's name or reasons.
    page.goto(page.base + f"/matches/{match.pk}/")
    log = page.locator("#moderation-log").inner_text()
    assert "a moderator extended the deadline by" in log
    assert "rolled the match back to phase 2" in log and "voided the match" in log
    assert "mod" not in log.replace("moderator", "") and "collusion" not in log
