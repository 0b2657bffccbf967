"""Webhooks with the real stack: a Celery worker process carries out the lifecycle's events and
the delivery pipeline's flushes, posting to a local chat service; the same event reported many
times at once and flushes delivered many times concurrently post once per (target, event)."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection, transaction

from games import services as games
from portal.celery import app
from portal.webhooks import receivers
from portal.webhooks.models import WebhookDelivery
from portal.webhooks.services import target_create
from tests.helpers import submit
from tests.integration.conftest import wait_until
from tests.portal.tls import ca_bundle
from tests.portal.webhooks.receiver import Receiver

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def receiver(settings):
    receiver = Receiver()
    settings.OUTBOUND_ALLOW_LOOPBACK = True
    settings.OUTBOUND_CA_BUNDLE = ca_bundle()
    yield receiver
    receiver.stop()


def test_each_event_posts_once_per_target_under_duplicate_reports_and_flushes(
        stack, receiver, make_user):
    stack.worker(concurrency=4, SITE_URL="https://tanks.example.test",
                 OUTBOUND_ALLOW_LOOPBACK="true", OUTBOUND_CA_BUNDLE=ca_bundle())
    alice, bob = make_user("hook-a"), make_user("hook-b")
    match = games.match_create(
        creator=alice, game="toy-duel", options={}, hours_per_phase=24, title="Hooked",
        seats=[{"kind": "human", "user": alice}, {"kind": "human", "user": None}])
    match.alice, match.bob = alice, bob
    targets = {}
    for path, format in (("/discord", "discord"), ("/generic", "generic")):
        targets[path], _ = target_create(by=alice, match=match, name=path, format=format,
                                              url=receiver.url(path), language="en-gb")
    receiver.secrets["/generic"] = targets["/generic"].secret
    games.seat_join(match_id=match.pk, user=bob, invite_token=match.invite_token)  # starts it

    # The same "your move" reported by eight threads at once, and twenty flushes queued while
    # the worker's own flush runs.
    def report() -> None:
        try:
            receivers.on_phase_opened(None, match_id=match.pk, phase_number=1)
        finally:
            connection.close()

    threads = [threading.Thread(target=report) for _ in range(8)]
    for thread in threads:
        thread.start()
    for _ in range(20):
        app.send_task("portal.delivery.tasks.deliver_due", kwargs={"channel": "webhook"})
    for thread in threads:
        thread.join()
    wait_until(lambda: len(receiver.posts) >= 2, 60, "the worker to post 'your move'")

    submit(match, match.alice, 1, 4, phase=1)
    # completes phase 1: resolved, and phase 2's "your move"
    submit(match, match.bob, 2, 2, phase=1)
    wait_until(lambda: len(receiver.posts) >= 6, 60, "the worker to post the next events")
    for _ in range(20):
        app.send_task("portal.delivery.tasks.deliver_due", kwargs={"channel": "webhook"})
    time.sleep(3)  # the duplicate flushes run: nothing more arrives

    assert len(receiver.to("/discord")) == 3
    assert sorted((post.json["event"], post.json["phase"]) for post in receiver.to("/generic")
                  ) == [("phase_resolved", 1), ("your_move", 1), ("your_move", 2)]
    assert all(post.verified for post in receiver.to("/generic"))
    wait_until(lambda: WebhookDelivery.objects.filter(status="sent").count() == 6, 30,
               "the six posts recorded as sent")
    assert WebhookDelivery.objects.count() == 6


def test_a_webhook_worker_killed_mid_batch_posts_to_each_target_once(stack, receiver, make_user,
                                                                    settings):
    """Killed while the chat service keeps it waiting at the third target: the next worker
    posts the third and fourth once the dead worker's lease ran out; no target gets a post
    twice, and the posts before the kill were recorded as they went."""
    from portal.delivery import pipeline
    from portal.webhooks import messages
    from portal.webhooks.services import webhook_queue

    settings.WEBHOOK_LEASE_SECONDS = 3
    env = {"SITE_URL": "https://tanks.example.test", "OUTBOUND_ALLOW_LOOPBACK": "true",
           "OUTBOUND_CA_BUNDLE": ca_bundle(), "DELIVERY_LEASE_SECONDS": "3"}
    alice = make_user("kill-a")
    match = games.match_create(
        creator=alice, game="toy-duel", options={}, hours_per_phase=24, title="Killed",
        seats=[{"kind": "human", "user": alice}, {"kind": "human", "user": None}])
    targets = [target_create(by=alice, match=match, name=f"t{n}", format="slack",
                             url=receiver.url(f"/t{n}"), language="en-gb")[0]
               for n in range(4)]
    receiver.hold("/t2")
    with transaction.atomic():  # one flush queued on commit
        for target in targets:
            webhook_queue(target=target, message=messages.test(target=target), key="killed")
    rows = WebhookDelivery.objects.filter(dedupe_key__startswith="webhook:killed")
    doomed = stack.worker(concurrency=1, **env)
    assert receiver.holding.wait(30), "the worker never reached the third target"
    wait_until(lambda: rows.filter(status="sent").count() == 2, 10,
               "the first two posts recorded as they went")
    doomed.kill()  # SIGKILL in the middle of the batch
    receiver.release()
    stack.worker(concurrency=1, **env)
    time.sleep(3.5)  # the dead worker's lease runs out ...
    assert pipeline.sweep()["webhook"] == 2  # ... and beat's sweeper queues a flush
    wait_until(lambda: rows.filter(status="sent").count() == 4, 30, "all four sent")
    assert [len(receiver.to(f"/t{n}")) for n in range(4)] == [1] * 4
