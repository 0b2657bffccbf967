"""In Chromium: a player's own page with its rating graph (and axe on the new pages), and a
moderator, in English then in French, dismissing with a note the signal of two accounts that
logged in from one browser (one device cookie) and play one match."""

from __future__ import annotations

import pytest

from competitions.services.ladders import match_rate
from games.services import match_create, phase_resolve
from portal.accounts.services import profile_update
from portal.signals.detect import signals_scan
from portal.signals.models import Signal, SignalAction
from tests.axe import axe_violations
from tests.browser import BROWSER_MARKS, log_in
from tests.helpers import submit
from tests.portal.builders import fast_password_hashing, make_user  # noqa: F401  (autouse)

pytestmark = BROWSER_MARKS


def _duel(alice, bob, winner: int | None = None):
    match = match_create(creator=alice, game="toy-duel", options={"target": 1},
                         seats=[{"kind": "human", "user": alice}, {"kind": "human", "user": bob}],
                         hours_per_phase=24)
    if winner is not None:
        submit(match, alice, 1, 5 if winner == 1 else 1)
        submit(match, bob, 2, 5 if winner == 2 else 1)
        phase_resolve(match_id=match.pk, phase_number=1)
        match_rate(match_id=match.pk)
    return match


def test_a_player_reads_their_own_page_with_a_rating_graph(new_page, axe_script):
    alice, bob = make_user("alice"), make_user("bob")
    for winner in (1, 1, 2, 1, 1, 1):
        _duel(alice, bob, winner)
    page = new_page()
    log_in(page, "alice")
    page.goto(page.base + "/players/alice/")
    graph = page.locator("svg.line-graph")
    assert graph.count() == 1 and graph.get_attribute("role") == "img"
    assert graph.locator("circle").count() == 6
    assert "over 6 rated games" in page.locator(".graph-summary").inner_text()
    page.get_by_text("The graph as a table").click()
    assert page.locator("#ratings table tbody tr").count() == 6
    assert page.locator("#record tbody th").inner_text() == "Toy Duel"
    found = axe_violations(page, axe_script, where="/players/alice/ as alice")
    # The privacy choice by keyboard alone.
    page.focus("#id_members_only")
    page.keyboard.press("Space")
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    page.wait_for_url("**/players/alice/#privacy")
    assert "Only you, the moderators" in page.locator("#privacy").inner_text()
    for path in ("/privacy/", "/accounts/profile/"):
        page.goto(page.base + path)
        found += axe_violations(page, axe_script, where=f"{path} as alice")
    stranger = new_page()
    assert stranger.goto(stranger.base + "/players/alice/").status == 403
    found += axe_violations(stranger, axe_script, where="/players/alice/ closed")
    assert found == [], "\n".join(found)


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_moderator_dismisses_a_shared_device_signal_with_a_note(new_page, language):
    alice, bob = make_user("alice"), make_user("bob")
    moderator = make_user("modo", staff=True)
    from django.contrib.auth.models import Group

    moderator.groups.add(Group.objects.get(name="Moderator"))
    if language == "fr":
        profile_update(user=moderator, language="fr")
    match = _duel(alice, bob)
    shared = new_page()  # one browser, two accounts
    log_in(shared, "alice")
    shared.goto(shared.base + "/accounts/logout/")
    shared.click("main button[type=submit]")
    log_in(shared, "bob")
    signals_scan(match_id=match.pk)
    signal = Signal.objects.get(kind="shared_device")

    page = new_page()
    log_in(page, "modo")
    page.goto(page.base + "/admin/signals/signal/")
    row = page.locator("#result_list tr", has=page.locator(
        f"input[name=_selected_action][value='{signal.pk}']"))
    assert ("Two accounts of one match share a device" if language == "en" else
            "Deux comptes d’une même partie partagent un appareil") in row.inner_text()
    note = "Frères : même ordinateur." if language == "fr" else "Brothers: one computer."
    if language == "en":  # from the queue: select, the action, its note
        row.locator("input[name=_selected_action]").check()
        page.select_option("select[name=action]", "dismiss")
        page.click("button[name=index]")
        page.fill("textarea[name=note]", note)
        page.click("input[name=apply]")
        page.wait_for_url("**/admin/signals/signal/**")
    else:  # from the signal's own page, by keyboard
        with page.expect_navigation():
            row.get_by_role("link", name=str(signal.pk), exact=True).click()
        assert f"/admin/signals/signal/{signal.pk}/change/" in page.url
        assert page.locator("input[name=_save]").count() == 0  # nothing to save there
        page.focus("#signal-act textarea[name=note]")
        page.keyboard.type(note)
        page.keyboard.press("Tab")  # to the first action, "Écarter"
        assert page.evaluate("document.activeElement.value") == "dismiss"
        with page.expect_navigation():
            page.keyboard.press("Enter")
        assert page.url.endswith(f"/admin/signals/signal/{signal.pk}/change/")
    assert ("1 signal done." if language == "en" else "1 indice traité.") in \
        page.locator(".messagelist").inner_text()
    signal.refresh_from_db()
    assert signal.status == "dismissed"
    action = SignalAction.objects.get(signal=signal)
    assert (action.action, action.by_id) == ("dismiss", moderator.pk)
    page.goto(page.base + f"/admin/signals/signal/{signal.pk}/change/")
    assert action.note in page.content()
