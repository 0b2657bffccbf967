"""The installed app (portal.webapp): the manifest, the service worker at the root, the offline
page; in Chromium, its own installability check and the offline page with the network cut."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse
from PIL import Image

from tests.browser import browser_test, log_in
from tests.french import english_in
from tests.portal.builders import duel, make_user

ROOT = Path(__file__).resolve().parents[3]


def test_the_manifest_names_the_app_its_icons_and_opens_on_your_matches():
    response = Client().get(reverse("webapp_manifest"))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/manifest+json")
    manifest = json.loads(response.content)
    assert manifest["name"] == "Tank Portal"
    assert manifest["start_url"] == reverse("games:my_matches")
    assert manifest["display"] == "standalone"
    assert manifest["theme_color"] == "#2f5d3a"
    sizes = {(icon["sizes"], icon["purpose"]) for icon in manifest["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes
    for icon in manifest["icons"]:  # each file is a PNG of the size it claims
        path = ROOT / "static" / icon["src"].removeprefix("/static/")
        with Image.open(path) as image:
            assert image.format == "PNG"
            assert f"{image.width}x{image.height}" == icon["sizes"]


@pytest.mark.django_db
def test_every_page_links_the_manifest_and_the_worker():
    body = Client().get(reverse("games:lobby")).content.decode()
    assert f'<link rel="manifest" href="{reverse("webapp_manifest")}"' in body
    assert 'name="theme-color"' in body and 'rel="apple-touch-icon"' in body


def test_the_service_worker_is_served_from_the_root_and_always_asked_again():
    response = Client().get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Cache-Control"] == "no-cache"
    body = response.content.decode()
    assert f'var OFFLINE_URL = "{reverse("webapp_offline")}";' in body
    assert 'addEventListener("push"' in body  # push and offline: one worker
    assert Client().post("/sw.js").status_code == 405


@pytest.mark.django_db
def test_the_offline_page_names_nobody_and_is_in_french():
    alice = make_user("alice")
    client = Client()
    client.force_login(alice)
    body = client.get(reverse("webapp_offline")).content.decode()
    assert "alice" not in body
    french = Client(headers={"Accept-Language": "fr"}).get(reverse("webapp_offline"))
    assert "Vous êtes hors ligne" in french.content.decode()
    assert english_in(french.content.decode()) == []


@pytest.mark.django_db
def test_the_profile_says_how_to_install_on_ios_for_push():
    client = Client()
    client.force_login(make_user("alice"))
    body = client.get(reverse("accounts_profile")).content.decode()
    assert 'id="push-ios"' in body and "Add to Home Screen" in body


@browser_test
def test_chromium_finds_the_site_installable(persistent_page):
    page = persistent_page(viewport={"width": 390, "height": 844}, is_mobile=True,
                           has_touch=True)
    page.goto(page.base + reverse("home"))
    # The worker registers itself once the page has loaded, then controls the page.
    page.wait_for_function("navigator.serviceWorker.ready.then(() => true)")
    cdp = page.context.new_cdp_session(page)
    errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    assert errors == []
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["errors"] == [], manifest["errors"]


@browser_test
def test_with_the_network_cut_the_offline_page_lists_what_was_seen(new_page):
    alice = make_user("alice")
    match = duel(alice, make_user("bob"), title="Pocket duel")
    page = new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    log_in(page, "alice")
    page.wait_for_function("navigator.serviceWorker.ready.then(() => true)")
    page.wait_for_function("!!navigator.serviceWorker.controller")
    match_url = page.base + reverse("games:match", args=[match.pk])
    page.goto(match_url)
    page.wait_for_function(
        "u => caches.open('portal-pages-v1').then(c => c.match(u)).then(r => !!r)", arg=match_url)
    page.context.set_offline(True)
    # A page never seen: the offline page, listing the match page it kept.
    page.goto(page.base + reverse("competitions:clubs"))
    page.wait_for_selector("h1:has-text('You are offline')")
    page.wait_for_selector("#kept-pages a:has-text('Pocket duel')")
    # The match page seen before: its kept copy.
    page.goto(match_url)
    assert "Pocket duel" in page.title()
    page.context.set_offline(False)


@browser_test
def test_the_old_push_worker_address_still_runs_the_site_s_worker(new_page):
    page = new_page()
    page.goto(page.base + reverse("games:lobby"))
    state = page.evaluate("""() => navigator.serviceWorker
        .register("/static/push/sw.js", {scope: "/static/push/"})
        .then((reg) => new Promise((resolve) => {
          const worker = reg.installing || reg.waiting || reg.active;
          if (worker.state === "activated") return resolve(worker.state);
          worker.addEventListener("statechange", () => {
            if (worker.state === "activated" || worker.state === "redundant") resolve(worker.state);
          });
        }))""")
    assert state == "activated"
