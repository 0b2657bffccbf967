"""Hardening: log-in and sign-up throttling (django-allauth's rate limits, counted in the shared
cache) and the Content-Security-Policy header (django-csp) on every kind of answer."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests.portal.builders import PASSWORD, duel, make_user

pytestmark = pytest.mark.django_db


def test_repeated_wrong_passwords_lock_the_account_out_for_a_while(client):
    make_user("alice")
    url = reverse("account_login")
    statuses = [client.post(url, {"login": "alice", "password": f"guess-{n}"}).status_code
                for n in range(5)]
    assert statuses == [400] * 5
    # Now even the right password is refused for a while: a guesser learns nothing.
    locked = client.post(url, {"login": "alice", "password": PASSWORD})
    assert locked.status_code == 400
    assert "Too many failed login attempts" in locked.content.decode()
    assert "_auth_user_id" not in client.session
    # The lock is on that account: another one logs in from the same place.
    make_user("bob")
    assert client.post(url, {"login": "bob", "password": PASSWORD}).status_code == 302


def test_the_failure_count_is_shared_by_every_web_process():
    """Two clients (two processes' worth of sessions) share one count: it lives in the cache."""
    make_user("alice")
    url = reverse("account_login")
    for n in range(3):
        Client().post(url, {"login": "alice", "password": f"guess-{n}"})
    for n in range(2):
        Client().post(url, {"login": "alice", "password": f"again-{n}"})
    locked = Client().post(url, {"login": "alice", "password": PASSWORD})
    assert locked.status_code == 400
    assert "Too many failed login attempts" in locked.content.decode()


def test_sign_ups_from_one_address_are_throttled(client):
    url = reverse("account_signup")
    statuses = []
    for n in range(6):
        statuses.append(client.post(url, {
            "email": f"new{n}@example.test", "username": f"new{n}",
            "password1": "a-long-password-1", "password2": "a-long-password-1"}).status_code)
    assert statuses[:5] == [302] * 5 and statuses[5] == 429
    assert "Too many attempts" in client.post(url, {}).content.decode()
    assert get_user_model().objects.filter(username__startswith="new").count() == 5


def test_the_admin_log_in_goes_through_the_throttled_log_in_page(client):
    response = client.get("/admin/login/?next=/admin/")
    assert response.status_code == 302
    assert response.url.startswith(reverse("account_login"))


@pytest.mark.parametrize("url", ["/", "/accounts/login/", "/api/v1/openapi.json",
                                 "/no-such-page/"])
def test_every_answer_carries_the_content_security_policy(url):
    policy = Client().get(url)["Content-Security-Policy"]
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";") if part.strip())
    assert directives["script-src"] == "'self'"
    assert "unsafe-inline" not in directives["script-src"]
    assert "unsafe-eval" not in policy
    assert directives["default-src"] == "'self'"
    assert directives["object-src"] == "'none'"


def test_no_template_has_an_inline_script_or_event_handler():
    """What the policy forbids is not written anywhere: every script is a static file (JSON
    data blocks, which never run, excepted), no element has an on…= handler, and no htmx
    attribute needs eval."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    offenders = []
    for path in list((root / "templates").rglob("*.html")) + list(
            (root / "games").rglob("*.py")) + list((root / "portal").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        for tag in re.findall(r"<script\b[^>]*>", text):
            if "src=" not in tag and "application/json" not in tag:
                offenders.append(f"{path}: {tag}")
        for handler in re.findall(r"<[^>]*\son[a-z]+\s*=\s*[\"']", text):
            offenders.append(f"{path}: {handler[:60]}")
        if "javascript:" in text:
            offenders.append(f"{path}: javascript: URL")
        # htmx evaluates these as code (hx-on, js: values, trigger filters): eval is forbidden.
        for attribute in re.findall(r"hx-on[:-][^=]*=|hx-vals=[\"']js:|hx-trigger=\"[^\"]*\[",
                                    text):
            offenders.append(f"{path}: {attribute}")
    assert offenders == []


def test_the_match_page_of_a_logged_in_player_has_the_policy(client):
    alice, bob = make_user("alice"), make_user("bob")
    match = duel(alice, bob)
    client.force_login(alice)
    response = client.get(f"/matches/{match.pk}/")
    assert response.status_code == 200
    assert "script-src 'self'" in response["Content-Security-Policy"]
