"""Web push with the real stack: a match's phases opened and resolved by a Celery worker
process, whose pushes (queued by the lifecycle's outbox, sent by the push task) reach the local
push service signed with the site's key and decryptable by each browser; a subscription the
push service calls gone is removed by the worker."""

from __future__ import annotations

import pytest

from games import services as games_services
from portal.push import vapid
from portal.push.models import PushMessage, PushSubscription
from tests.integration.conftest import wait_until
from tests.portal.push.pushserver import PushService
from tests.portal.tls import ca_bundle

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def push_service(settings):
    service = PushService()
    settings.OUTBOUND_ALLOW_LOOPBACK = True
    settings.OUTBOUND_CA_BUNDLE = ca_bundle()
    settings.PUSH_ENDPOINT_HOSTS = ["localhost"]
    yield service
    service.stop()


def test_the_worker_pushes_each_phase_and_drops_a_dead_subscription(stack, push_service,
                                                                     make_user):
    from portal.push.services import subscription_save

    stack.worker(VAPID_PRIVATE_KEY=vapid.private_key(), SITE_URL="https://tanks.example.test",
                 OUTBOUND_ALLOW_LOOPBACK="true", OUTBOUND_CA_BUNDLE=ca_bundle(),
                 PUSH_ENDPOINT_HOSTS="localhost")
    alice, bob = make_user("push-alice"), make_user("push-bob")
    for user, name in ((alice, "alice-phone"), (bob, "bob-phone"), (bob, "bob-old-laptop")):
        subscription_save(user=user, data=push_service.browser(name).subscription(
            push_service.endpoint(name)), label=name)
    push_service.answer("bob-old-laptop", 410)
    match = games_services.match_create(
        creator=alice, game="toy-duel", options={"target": 2}, hours_per_phase=24,
        title="Worker duel",
        seats=[{"kind": "human", "user": alice}, {"kind": "human", "user": bob}])
    push_service.wait_for(2)
    wait_until(lambda: not PushSubscription.objects.filter(label="bob-old-laptop").exists(),
               30, "the gone subscription to be removed")
    for seat, user, number in ((1, alice, 4), (2, bob, 2)):
        games_services.orders_submit(match_id=match.pk, seat_number=seat, user=user,
                                     phase_number=1, source="web", text=str(number))
    received = push_service.wait_for(4)
    phone = [r.payload for r in received if r.path.endswith("/alice-phone")]
    assert [p["title"] for p in phone] == ["Your move: Worker duel"] * 2
    assert phone[1]["body"].startswith("Duel 2.")
    assert {r.vapid_key for r in received} == {vapid.public_key()}
    # Recorded after the batch's requests: wait for the worker to write it.
    wait_until(lambda: PushMessage.objects.filter(status="sent").count() == 4, 30,
               "the four pushes recorded as sent")
    assert push_service.to("bob-old-laptop") == []


def devices(push_service, make_user, count: int) -> list:
    from portal.push.services import subscription_save

    found = []
    for n in range(count):
        name = f"device{n}"
        found.append(subscription_save(user=make_user(f"push-once-{n}"), label=name,
                                       data=push_service.browser(name).subscription(
                                           push_service.endpoint(name))))
    return found


def worker_env() -> dict[str, str]:
    return {"VAPID_PRIVATE_KEY": vapid.private_key(), "OUTBOUND_ALLOW_LOOPBACK": "true",
            "OUTBOUND_CA_BUNDLE": ca_bundle(), "PUSH_ENDPOINT_HOSTS": "localhost"}


def queue_pushes(subscriptions, prefix: str) -> None:
    from django.db import transaction

    from portal.push.services import push_queue

    with transaction.atomic():  # one flush queued on commit
        for subscription in subscriptions:
            push_queue(subscription=subscription, kind="your_move", ttl_seconds=3600,
                       dedupe_key=f"{prefix}:{subscription.pk}",
                       payload={"title": "Your move", "body": prefix})


@pytest.mark.long
def test_a_push_worker_killed_mid_batch_pushes_each_device_once(stack, push_service, make_user,
                                                                settings):
    """Killed while the push service keeps it waiting at the third device: the next worker
    sends the third and fourth once their lease ran out; no device gets a push twice."""
    import time

    from portal.delivery import pipeline

    settings.PUSH_LEASE_SECONDS = 3
    subscriptions = devices(push_service, make_user, 4)
    push_service.hold("device2")
    queue_pushes(subscriptions, "killed")
    rows = PushMessage.objects.filter(dedupe_key__startswith="killed")
    doomed = stack.worker(concurrency=1, DELIVERY_LEASE_SECONDS="3", **worker_env())
    assert push_service.holding.wait(30), "the worker never reached the third device"
    assert rows.filter(status="sent").count() == 2  # each recorded as it went
    doomed.kill()
    push_service.release()
    stack.worker(concurrency=1, DELIVERY_LEASE_SECONDS="3", **worker_env())
    time.sleep(3.5)  # the dead worker's lease runs out ...
    assert pipeline.sweep()["push"] == 2  # ... and beat's sweeper queues a flush
    wait_until(lambda: rows.filter(status="sent").count() == 4, 30, "all four sent")
    assert [len(push_service.to(f"device{n}")) for n in range(4)] == [1] * 4


def test_a_push_flush_delivered_many_times_at_once_pushes_each_device_once(
        stack, push_service, make_user):
    from portal.celery import app

    queue_pushes(devices(push_service, make_user, 12), "dup")
    for _ in range(9):  # the on-commit flush plus nine duplicates, on four processes
        app.send_task("portal.delivery.tasks.deliver_due", kwargs={"channel": "push"})
    stack.worker(concurrency=4, DELIVERY_BATCH_SIZE="3", **worker_env())
    push_service.wait_for(12)
    wait_until(lambda: PushMessage.objects.filter(status="sent").count() == 12, 30,
               "all twelve recorded as sent")
    assert [len(push_service.to(f"device{n}")) for n in range(12)] == [1] * 12
