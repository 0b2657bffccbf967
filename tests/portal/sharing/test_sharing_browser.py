"""The new pages in Chromium: axe-core finds no serious violation on the embed of a played match
of every game, the offline page, and a match page on a phone (its jumps in sight); the embed
reads in French for a French reader; its links are reached by the keyboard."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.axe import axe_violations
from tests.browser import BROWSER_MARKS, log_in, settle
from tests.french import english_in
from tests.portal.played import GAMES, played_match, players

pytestmark = BROWSER_MARKS

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


@pytest.mark.presentation
@pytest.mark.long
def test_the_embeds_offline_page_and_phone_match_page_have_no_serious_violation(
        new_page, axe_script):
    people = players("emb")
    matches = [played_match(slug, people) for slug in GAMES]
    page = new_page(viewport={"width": 480, "height": 640})
    found = []
    for match in matches + [None]:
        path = reverse("sharing:embed", args=[match.pk]) if match else reverse("webapp_offline")
        response = page.goto(page.base + path)
        assert response is not None and response.ok, path
        found += axe_violations(page, axe_script, where=path)
    phone = new_page(**PHONE)
    log_in(phone, people["seat1"].username)
    for match in matches:
        path = reverse("games:match", args=[match.pk])
        phone.goto(phone.base + path)
        settle(phone)
        assert phone.locator(".match-jump a[href='#messages']").is_visible()
        found += axe_violations(phone, axe_script, where=f"{path} on a phone")
    assert found == [], "\n".join(found)


def test_the_embed_reads_in_french_and_its_links_take_the_keyboard(new_page):
    people = players("embfr")
    match = played_match("final-strategy", people)
    page = new_page(viewport={"width": 480, "height": 640}, locale="fr-FR",
                    extra_http_headers={"Accept-Language": "fr"})
    page.goto(page.base + reverse("sharing:embed", args=[match.pk]))
    assert page.get_attribute("html", "lang") == "fr"
    assert english_in(page.content(), names=[str(match)]) == []
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.getAttribute('href')") == reverse(
        "games:match", args=[match.pk])
