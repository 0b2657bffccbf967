"""The push channel of the delivery pipeline against the local push service: encryption and
VAPID as a real push service checks them, the TTL, topics replacing older messages, dead
subscriptions removed, retries."""

from __future__ import annotations

import socket
from datetime import timedelta

import pytest
from django.utils import timezone

from portal.delivery import pipeline
from portal.push import services, vapid
from portal.push.models import PushMessage, PushSubscription
from tests.portal.tls import StandIn

pytestmark = pytest.mark.django_db


def queue(subscription, key="k1", ttl=600, topic="", payload=None, **kwargs):
    return services.push_queue(subscription=subscription, kind="your_move", dedupe_key=key,
                               payload=payload or {"title": "Your move", "body": key},
                               ttl_seconds=ttl, topic=topic, **kwargs)


def test_a_push_arrives_encrypted_for_the_browser_and_signed_with_the_site_key(
        push_service, subscribe, make_user):
    device = subscribe(make_user("alice"), "alice-phone")
    queue(device, payload={"title": "Your move: Duel", "body": "Orders 1."}, ttl=3600,
          topic="m1-move", urgency="high")
    assert pipeline.flush("push") == 1
    [got] = push_service.to("alice-phone")
    # Decrypted with the browser's private key and auth secret (RFC 8291): our payload.
    assert got.payload == {"title": "Your move: Duel", "body": "Orders 1."}
    # Signed with the site's key (RFC 8292), for this push service's origin.
    assert got.vapid_key == vapid.public_key()
    assert got.claims["aud"] == push_service.origin
    assert got.claims["sub"].startswith("mailto:")
    assert 3590 <= got.ttl <= 3600
    assert got.headers["topic"] == "m1-move" and got.headers["urgency"] == "high"
    row = PushMessage.objects.get()
    assert row.status == "sent" and row.sent_at is not None
    device.refresh_from_db()
    assert device.last_sent_at is not None


def test_the_same_event_pushes_once(push_service, subscribe, make_user):
    device = subscribe(make_user("alice"), "a")
    assert queue(device, key="same") is not None
    assert queue(device, key="same") is None
    pipeline.flush("push")
    pipeline.flush("push")
    assert len(push_service.to("a")) == 1


def test_a_newer_message_on_a_topic_replaces_the_unsent_older_one(
        push_service, subscribe, make_user):
    device = subscribe(make_user("alice"), "a")
    old = queue(device, key="phase-1", topic="m7-move")
    queue(device, key="phase-2", topic="m7-move")
    queue(device, key="other", topic="m8-move")
    pipeline.flush("push")
    assert sorted(r.payload["body"] for r in push_service.to("a")) == ["other", "phase-2"]
    old.refresh_from_db()
    assert old.status == "expired"


def test_a_message_whose_time_to_live_ran_out_is_never_sent(push_service, subscribe,
                                                             make_user):
    device = subscribe(make_user("alice"), "a")
    stale = queue(device, key="stale", ttl=60)
    PushMessage.objects.filter(pk=stale.pk).update(
        expires_at=timezone.now() - timedelta(seconds=1))
    late = queue(device, key="late", ttl=600)
    PushMessage.objects.filter(pk=late.pk).update(
        expires_at=timezone.now() + timedelta(seconds=120))
    pipeline.flush("push")
    [got] = push_service.to("a")
    assert got.payload["body"] == "late"
    # A late send carries only what is left of its time to live.
    assert got.ttl <= 120
    stale.refresh_from_db()
    assert stale.status == "expired"


@pytest.mark.parametrize("status", [404, 410])
def test_a_subscription_the_push_service_calls_gone_is_removed(push_service, subscribe,
                                                               make_user, status):
    alice = make_user("alice")
    gone, kept = subscribe(alice, "old-laptop"), subscribe(alice, "phone")
    push_service.answer("old-laptop", status)
    queue(gone, key="1")
    queue(gone, key="2")
    queue(kept, key="3")
    assert pipeline.flush("push") == 1
    assert list(PushSubscription.objects.values_list("pk", flat=True)) == [kept.pk]
    assert not PushMessage.objects.filter(subscription_id=gone.pk).exists()
    assert len(push_service.to("phone")) == 1


def test_a_busy_push_service_is_tried_again_after_its_retry_after(push_service, subscribe,
                                                                  make_user):
    device = subscribe(make_user("alice"), "a")
    push_service.answer("a", 429, {"Retry-After": "120"})
    row = queue(device, ttl=3600)
    before = timezone.now()
    assert pipeline.flush("push") == 0
    row.refresh_from_db()
    assert row.status == "retry" and row.response_status == 429
    assert before + timedelta(seconds=115) <= row.next_attempt_at <= (
        timezone.now() + timedelta(seconds=125))
    # When it is due, and the service is back, it goes.
    push_service.answer("a", 201)
    PushMessage.objects.filter(pk=row.pk).update(next_attempt_at=timezone.now())
    assert pipeline.flush("push") == 1


def test_a_retry_that_would_come_after_the_time_to_live_expires_instead(
        push_service, subscribe, make_user, settings):
    settings.PUSH_RETRY_BASE_SECONDS = 600
    device = subscribe(make_user("alice"), "a")
    push_service.answer("a", 503)
    row = queue(device, ttl=300)
    pipeline.flush("push")
    row.refresh_from_db()
    assert row.status == "expired" and row.response_status == 503


def test_a_refused_message_fails_for_good(push_service, subscribe, make_user):
    device = subscribe(make_user("alice"), "a")
    push_service.answer("a", 400)
    row = queue(device)
    pipeline.flush("push")
    row.refresh_from_db()
    assert row.status == "failed" and row.response_status == 400
    assert PushSubscription.objects.filter(pk=device.pk).exists()


def test_an_unreachable_push_service_is_tried_again(push_service, subscribe, make_user,
                                                    settings):
    from portal.push.services import subscription_save
    from tests.portal.push.pushserver import Browser

    alice = make_user("alice")
    device = subscription_save(user=alice, data=Browser().subscription(
        "https://localhost:9/push/nobody-listens"))
    row = queue(device)
    pipeline.flush("push")
    row.refresh_from_db()
    assert row.status == "retry" and row.response_status is None
    assert "ConnectionError" in row.last_error


def test_the_sweeper_expires_stale_rows_and_flushes_due_ones(push_service, subscribe,
                                                             make_user, eager):
    device = subscribe(make_user("alice"), "a")
    due = queue(device, key="due")
    stale = queue(device, key="stale")
    PushMessage.objects.filter(pk=stale.pk).update(expires_at=timezone.now())
    assert pipeline.sweep()["push"] == 1
    due.refresh_from_db()
    stale.refresh_from_db()
    assert (due.status, stale.status) == ("sent", "expired")


def test_an_endpoint_whose_name_now_resolves_inside_is_never_contacted(
        push_service, subscribe, make_user, monkeypatch):
    """Its name resolved to the push service when it subscribed; now (DNS changed, or was
    made to change) it resolves to an internal address: the message fails unsent."""
    device = subscribe(make_user("alice"), "phone")
    row = queue(device)
    real = socket.getaddrinfo

    def inside(host, port, *args, **kwargs):
        if host == "localhost":
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("10.0.0.7", port))]
        return real(host, port, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", inside)
    pipeline.flush("push")
    row.refresh_from_db()
    assert row.status == "failed" and row.response_status is None
    assert "localhost does not resolve to public addresses only" in row.last_error
    assert push_service.received == [] and push_service.server.connections == 0
    assert PushSubscription.objects.filter(pk=device.pk).exists()


def test_an_endpoint_the_rules_refuse_now_is_removed_unsent(push_service, subscribe, make_user,
                                                            settings):
    """Saved before the rules (or the list of push services changed since): it is gone."""
    device = subscribe(make_user("alice"), "phone")
    queue(device)
    settings.PUSH_ENDPOINT_HOSTS = ["fcm.googleapis.com"]
    pipeline.flush("push")
    assert not PushSubscription.objects.filter(pk=device.pk).exists()
    assert push_service.server.connections == 0


@pytest.mark.parametrize("status", [301, 307, 308])
def test_a_redirecting_push_service_is_not_followed(push_service, subscribe, make_user,
                                                    status):
    elsewhere = StandIn(201)
    try:
        device = subscribe(make_user("alice"), "phone")
        push_service.answer("phone", status, {"Location": elsewhere.url("/push/phone")})
        row = queue(device)
        pipeline.flush("push")
        row.refresh_from_db()
        assert row.status == "failed" and row.response_status == status
        assert elsewhere.connections == 0 and elsewhere.requests == []
    finally:
        elsewhere.stop()
