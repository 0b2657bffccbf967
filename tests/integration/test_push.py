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
