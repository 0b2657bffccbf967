"""Outages and races: Redis going away, and submissions racing a deadline."""

from __future__ import annotations

import threading
import time
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from games import services
from games.models import Match, Phase, Submission
from games.services import ServiceError
from tests.helpers import submit
from tests.integration.conftest import broker, wait_until
from tests.integration.test_lifecycle import duel, resolved

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def test_orders_survive_a_redis_restart_and_resolve_when_it_is_back(stack, make_user):
    redis_proc, url = stack.redis()
    port = int(url.rsplit(":", 1)[1].split("/")[0])
    stack.worker(broker_url=url)
    stack.beat(broker_url=url)
    with broker(url):
        before = duel(make_user, "before")
        during = [duel(make_user, f"during{i}") for i in range(3)]
        for match in (before, *during):
            submit(match, match.alice, 1, 4, phase=1)

        redis_proc.stop()  # Redis is gone; nothing in it survives (no persistence)
        started = time.monotonic()
        # each completes its phase
        receipts = [submit(match, match.bob, 2, 2, phase=1) for match in during]
        elapsed = time.monotonic() - started
        assert all(r.complete for r in receipts)
        assert elapsed < 30, f"submitting with Redis down took {elapsed:.1f}s"
        stored = Submission.objects.filter(phase__match__in=during, seat__number=2)
        assert sorted(s.receipt for s in stored) == sorted(r.receipt for r in receipts)
        assert not any(resolved(m.pk, 1) for m in during)

        stack.redis(port)  # back, empty: the queued resolutions were never sent
        submit(before, before.bob, 2, 3, phase=1)
        for match in (before, *during):
            wait_until(lambda m=match: resolved(m.pk, 1), 60,
                       f"match {match.pk} to resolve once Redis is back")
    for match, receipt in zip(during, receipts, strict=True):
        phase = Phase.objects.get(match=match, number=1)
        assert phase.revealed["2"]["receipt"] == receipt.receipt
        assert phase.revealed["2"]["source"] == "web"


def test_50_submissions_racing_a_deadline_are_each_stored_and_used_or_refused(
    stack, make_user
):
    stack.worker(concurrency=2)
    stack.beat()
    matches = [duel(make_user, f"race{i}") for i in range(25)]
    deadline = timezone.now() + timedelta(seconds=3)
    ids = [m.pk for m in matches]
    Match.objects.filter(pk__in=ids).update(deadline=deadline)
    Phase.objects.filter(match__in=ids, number=1).update(deadline=deadline)

    jobs = [(m, seat) for m in matches for seat in (1, 2)]
    # Fire times spread from 1 s before to 1 s after the deadline, interleaving matches.
    start = deadline - timedelta(seconds=1)
    fire_at = {i: start + timedelta(seconds=2 * i / len(jobs)) for i in range(len(jobs))}
    outcomes: dict[int, tuple] = {}

    def run(i: int) -> None:
        match, seat = jobs[i]
        try:
            delay = (fire_at[i] - timezone.now()).total_seconds()
            if delay > 0:
                time.sleep(delay)
            user = match.alice if seat == 1 else match.bob
            receipt = submit(match, user, seat, 1 + i % 5, phase=1)
            outcomes[i] = ("stored", receipt)
        except ServiceError as error:
            outcomes[i] = ("refused", error.code)
        except Exception as error:  # anything else is a bug this test must report
            outcomes[i] = ("crashed", repr(error))
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(jobs))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert len(outcomes) == 50
    assert {o[1] for o in outcomes.values() if o[0] != "stored"} <= {"deadline_passed"}, outcomes
    kinds = [o[0] for o in outcomes.values()]
    assert 0 < kinds.count("stored") < 50, "the race should land on both sides of the deadline"

    for match in matches:
        wait_until(lambda m=match: resolved(m.pk, 1), 60, f"match {match.pk} to resolve")
    for i, (match, seat) in enumerate(jobs):
        revealed = Phase.objects.get(match=match, number=1).revealed[str(seat)]
        if outcomes[i][0] == "stored":
            receipt = outcomes[i][1]
            assert revealed["receipt"] == receipt.receipt and revealed["source"] == "web"
            sheet = Submission.objects.get(pk=receipt.submission_id)
            assert sheet.submitted_at < deadline
        else:
            assert revealed["source"] == "default"
            assert not Submission.objects.filter(phase__match=match, phase__number=1,
                                                 seat__number=seat, source="web").exists()


def test_final_act_plays_a_phase_through_the_worker(stack, make_user):
    import engine

    try:
        game = engine.get("final-act")
    except (KeyError, ImportError) as error:
        pytest.skip(f"final-act is not registered yet: {error}")
    if not game.bots:
        pytest.skip("final-act has no bot yet")
    stack.worker()
    player = make_user("commander")
    match = services.match_create(
        creator=player, game="final-act", options=game.default_options(), hours_per_phase=24,
        seats=[{"kind": "human", "user": player}, {"kind": "bot", "bot": game.bots[0]}])
    for number in (1, 2):
        match.refresh_from_db()
        assert match.status == "active" and match.phase_number == number
        sheet = game.default_submission(match.state, 1)
        services.orders_submit(match_id=match.pk, seat_number=1, user=player,
                               phase_number=number, data=sheet, source="web")
        wait_until(lambda n=number: resolved(match.pk, n), 60,
                   f"final-act phase {number} to resolve with the bot's sheet")
        phase = Phase.objects.get(match=match, number=number)
        assert phase.revealed["2"]["source"] == "bot"


@pytest.mark.long
def test_what_a_commit_promised_is_done_by_the_sweeper_when_its_queueing_failed(
    stack, make_user, settings
):
    """A resolution commits, but the task that would carry out its side effects never reaches
    the broker: the "your move" mail of the next phase is still sent, by the outbox sweeper.
    (Without the relay, where each transaction queues its own: with it, the relay would
    queue these rows on the worker's broker at once.)"""
    from durable.models import OutboxEvent
    from portal.mail.models import OutgoingEmail

    settings.OUTBOX_RELAY = False
    stack.worker(OUTBOX_GRACE_SECONDS="1", OUTBOX_RELAY="false")
    stack.beat()  # sweeps the outbox every 4 s here
    match = duel(make_user, "promise")
    submit(match, match.alice, 1, 4, phase=1)
    with broker("redis://127.0.0.1:9/0"):  # nothing listens there: every queueing fails
        # completes the phase; queueing its resolution fails too
        submit(match, match.bob, 2, 2, phase=1)
        assert services.phase_resolve(match_id=match.pk, phase_number=1)
    promised = OutboxEvent.objects.get(series=match.pk, name="phase_opened",
                                       payload__phase_number=2)
    assert promised.done_at is None  # committed with the resolution, not yet carried out
    wait_until(lambda: OutgoingEmail.objects.filter(match_id=match.pk, phase_number=2,
                                                    kind="phase_opened").count() == 2,
               60, "the sweeper to carry out the promised 'your move' mails")
    # The row is marked done just after its listeners return (the mails are in by then).
    wait_until(lambda: OutboxEvent.objects.filter(pk=promised.pk, done_at__isnull=False)
               .exists(), 30, "the promised row to be marked done")
    time.sleep(5)  # another sweep or two: nothing is done twice
    assert OutgoingEmail.objects.filter(match_id=match.pk, phase_number=2,
                                        kind="phase_opened").count() == 2


def test_a_worker_whose_broker_vanishes_mid_task_survives_restoring_its_messages():
    """When Redis goes away while a worker holds an unacknowledged message, Celery closes the
    consumer's connection and kombu restores the message on the channel's way out; in a race
    seen in the Redis-restart test above, the transport was already closed and kombu's
    restore raised AttributeError, which killed the worker ("Unrecoverable error"): nothing
    resolved once Redis was back. The restore now gives up quietly (the message comes back
    through the visibility timeout if Redis kept it; the sweepers redo its work if not)."""
    import os

    from kombu import Connection

    import portal.celery  # noqa: F401  installs the tolerant restore

    with Connection(os.environ["REDIS_URL"]) as conn:
        channel = conn.default_channel
        channel.qos._delivered["tag-in-flight"] = object()  # a message a task is running
        channel._disconnect_pools()  # the state the race leaves: no pool, no transport client
        conn.transport.client = None
        channel.qos.restore_unacked_once(stderr=None)  # raised AttributeError before
        assert not channel.qos._delivered


def test_a_worker_whose_broker_vanishes_as_a_task_ends_survives_acknowledging_it():
    """The same race at the other end of a task: a task (acks_late) finished just as Redis
    went away, and its ack found the channel's pool gone: kombu died on ``None.client``
    (AttributeError), and the worker with it (seen once in the Redis-restart test). The ack
    and the reject now forget the message quietly, as a lost ack would."""
    import os

    from kombu import Connection

    import portal.celery  # noqa: F401  installs the tolerant QoS

    with Connection(os.environ["REDIS_URL"]) as conn:
        channel = conn.default_channel
        for tag in ("acked", "rejected"):
            channel.qos._delivered[tag] = object()  # a message a task was running
        channel._disconnect_pools()
        conn.transport.client = None  # what kombu's _connparams reads: gone
        channel.qos.ack("acked")  # raised AttributeError before
        channel.qos.reject("rejected")
        channel.qos._flush()
        assert not channel.qos._delivered


def test_mail_queued_while_redis_is_down_goes_once_when_the_sweeper_finds_it(stack):
    """The commit's flush cannot be queued (logged, the request goes on); once Redis is back,
    beat's delivery sweeper queues a flush and each mail goes once."""
    from django.db import transaction

    from portal.delivery import pipeline
    from portal.mail import services as mail
    from portal.mail.models import OutgoingEmail
    from tests.portal.mail.smtp import start_server

    controller, boxes = start_server()
    redis_proc, url = stack.redis()
    port = int(url.rsplit(":", 1)[1].split("/")[0])
    try:
        stack.worker(broker_url=url, EMAIL_URL=f"smtp://{controller.hostname}:{controller.port}")
        with broker(url):
            redis_proc.stop()
            started = time.monotonic()
            with transaction.atomic():
                for n in range(3):
                    mail.email_queue(kind="digest", dedupe_key=f"outage{n}",
                                     to=f"o{n}@example.test", subject="Later", body_text="b")
            assert time.monotonic() - started < 10, "queueing mail waited on the broker"
            rows = OutgoingEmail.objects.filter(dedupe_key__startswith="outage")
            assert set(rows.values_list("status", flat=True)) == {"queued"}
            stack.redis(port)  # back, empty: the flush was never queued
            assert pipeline.sweep()["mail"] == 3
            wait_until(lambda: rows.filter(status="sent").count() == 3, 60, "the mails sent")
        assert [len(boxes.to(f"o{n}@example.test")) for n in range(3)] == [1] * 3
    finally:
        controller.stop()
