"""Recording a login's and a submission's network (/24, /48) and device cookie, nothing more;
the retention job deletes what is older than 90 days."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from games.models import Submission
from portal.api.services import api_token_create
from portal.signals.models import ClientTrace
from portal.signals.traces import DEVICE_COOKIE, network_of, traces_prune
from tests.helpers import client_for, submit
from tests.portal.builders import PASSWORD, duel, make_user


@pytest.mark.parametrize(("address", "network"), [
    ("203.0.113.77", "203.0.113.0/24"),
    ("2001:db8:abcd:12:1::5", "2001:db8:abcd::/48"),
    ("::ffff:198.51.100.9", "198.51.100.0/24"),
    ("", ""), ("not an address", ""), ("203.0.113.300", ""),
])
def test_an_address_is_cut_to_its_network(address, network):
    assert network_of(address) == network


@pytest.mark.django_db
def test_a_login_records_its_network_and_sets_a_device_cookie():
    make_user("alice")
    client = client_for(None, REMOTE_ADDR="203.0.113.77")
    response = client.post("/accounts/login/", {"login": "alice", "password": PASSWORD})
    assert response.status_code == 302
    trace = ClientTrace.objects.get()
    assert (trace.kind, trace.network) == ("login", "203.0.113.0/24")
    cookie = response.cookies[DEVICE_COOKIE]
    assert cookie.value == trace.device and len(trace.device) == 32
    assert cookie["max-age"] >= 365 * 86400 and cookie["httponly"]
    # The same browser logging in again keeps its device.
    client.post("/accounts/logout/")
    client.post("/accounts/login/", {"login": "alice", "password": PASSWORD})
    assert set(ClientTrace.objects.values_list("device", flat=True)) == {trace.device}
    # A failed login records nothing.
    client_for(None).post("/accounts/login/", {"login": "alice", "password": "wrong"})
    assert ClientTrace.objects.count() == 2


@pytest.mark.django_db
def test_a_submission_by_the_api_records_its_network_and_match():
    alice, bob = make_user("alice"), make_user("bob")
    match = duel(alice, bob)
    token = api_token_create(user=alice, name="bot").token
    client = client_for(None, REMOTE_ADDR="2001:db8:abcd:12::1")
    response = client.post(f"/api/v1/matches/{match.pk}/orders",
                           {"phase_number": match.phase_number, "data": {"number": 3}},
                           content_type="application/json",
                           headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 200, response.content
    trace = ClientTrace.objects.get()
    assert (trace.user, trace.kind, trace.network, trace.match_id) == (
        alice, "submission", "2001:db8:abcd::/48", match.pk)


@pytest.mark.django_db
def test_a_submission_outside_a_request_records_nothing():
    alice, bob = make_user("alice"), make_user("bob")
    match = duel(alice, bob)
    submit(match, alice, 1, 3, source="email")
    submit(match, bob, 2, 4)
    assert Submission.objects.filter(phase__match=match).count() == 2
    assert not ClientTrace.objects.exists()


@pytest.mark.django_db
def test_the_retention_job_deletes_what_is_older_than_90_days():
    alice = make_user("alice")
    now = timezone.now()
    for days in (91, 90.01, 89, 1):
        ClientTrace.objects.create(user=alice, kind="login", network="203.0.113.0/24",
                                   device="d" * 32, at=now - timedelta(days=days))
    assert traces_prune(now=now) == 2
    assert sorted(round((now - t.at).days) for t in ClientTrace.objects.all()) == [1, 89]
    # Beat's entry runs that job: the task it names deletes a row past the retention.
    from portal.signals import tasks

    entry = settings.CELERY_BEAT_SCHEDULE["signals-traces-prune"]
    assert entry["task"] == tasks.traces_prune.name
    ClientTrace.objects.create(user=alice, kind="login", network="203.0.113.0/24",
                               device="d" * 32, at=now - timedelta(days=95))
    assert tasks.traces_prune.apply().get() == 1
    assert settings.TRACE_RETENTION_DAYS == 90
