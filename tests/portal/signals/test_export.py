"""The privacy page says what is recorded, why and for how long; a player downloads what is
kept about them as JSON, and nobody else's."""

from __future__ import annotations

import json

import pytest
from django.utils import timezone

from portal.reports.services import report_file
from portal.signals.models import ClientTrace
from portal.signals.services import relationship_declare
from tests.helpers import client_for
from tests.portal.builders import duel, make_user

pytestmark = pytest.mark.django_db


def test_the_privacy_page_says_what_why_and_how_long():
    body = client_for(None).get("/privacy/").content.decode()
    assert "203.0.113.0/24" in body and "deleted after 90 days" in body
    assert "only moderators see them" in body
    assert 'href="/privacy/"' in client_for(None).get("/").content.decode()  # every footer


def test_a_player_downloads_what_is_kept_about_them():
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    match = duel(alice, bob)
    ClientTrace.objects.create(user=alice, kind="login", network="203.0.113.0/24",
                               device="a" * 32, at=timezone.now())
    ClientTrace.objects.create(user=bob, kind="login", network="198.51.100.0/24",
                               device="b" * 32, at=timezone.now())
    relationship_declare(by=bob, username="alice", kind="household")
    report_file(reporter=alice, reason="Rude in chat", match_id=match.pk)
    report_file(reporter=carol, reason="Alice is two people", reported_user=alice)
    response = client_for(alice).get("/accounts/my-data.json")
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith("attachment;")
    data = json.loads(response.content)
    assert data["account"]["username"] == "alice"
    assert data["networks_and_devices"]["kept_days"] == 90
    assert [(r["network"], r["device"]) for r in data["networks_and_devices"]["records"]] == [
        ("203.0.113.0/24", "a" * 32)]
    assert data["relationships_declared"] == [{
        "with": "bob", "kind": "household", "declared_at": data["relationships_declared"][0][
            "declared_at"], "declared_by_me": False}]
    assert [r["reason"] for r in data["reports_filed"]] == ["Rude in chat"]
    assert [s["match_id"] for s in data["seats"]] == [match.pk]
    text = response.content.decode()
    assert "198.51.100.0/24" not in text and "b" * 32 not in text
    assert "Alice is two people" not in text  # a report about her is the moderators' notes
    assert client_for(None).get("/accounts/my-data.json").status_code == 302
    assert client_for(alice).post("/accounts/my-data.json").status_code == 405
