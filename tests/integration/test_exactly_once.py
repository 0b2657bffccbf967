"""Each phase resolves exactly once: delivered many times, concurrently, or after a crash."""

from __future__ import annotations

import re
import time

import pytest

from games.models import Match, Phase, Submission
from portal.celery import app
from tests.helpers import submit
from tests.integration.conftest import wait_until
from tests.integration.test_lifecycle import duel, resolved

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

SUCCEEDED = re.compile(r"Task games\.tasks\.resolve_phase\[[^\]]+\] succeeded in [\d.]+s: (\w+)")


def assert_resolved_once(match: Match) -> None:
    phases = list(Phase.objects.filter(match=match).order_by("number"))
    assert [(p.number, p.status) for p in phases] == [(1, "resolved"), (2, "open")]
    assert len(phases[0].events) == 1 and phases[0].events[0]["round"] == 1
    assert Submission.objects.filter(phase=phases[0]).count() == 2
    match.refresh_from_db()
    assert match.state["round"] == 2 and match.phase_number == 2
    assert phases[1].state_before == match.state


def test_the_same_resolution_delivered_20_times_concurrently_resolves_once(stack, make_user):
    match = duel(make_user, "dup")
    submit(match, match.alice, 1, 5, phase=1)
    submit(match, match.bob, 2, 2, phase=1)  # queues the first delivery on commit
    for _ in range(19):
        app.send_task("games.tasks.resolve_phase",
                      kwargs={"match_id": match.pk, "phase_number": 1})
    # Four processes take the 20 messages at once; the winner holds the lock for a second so
    # the others really wait on it, then find the phase resolved.
    worker = stack.worker(concurrency=4, TOY_DUEL_RESOLVE_SLEEP="1")
    wait_until(lambda: len(SUCCEEDED.findall(worker.log())) >= 20, 60,
               "all 20 deliveries to finish")
    outcomes = SUCCEEDED.findall(worker.log())
    assert sorted(outcomes) == ["False"] * 19 + ["True"]
    assert_resolved_once(match)


def test_a_worker_killed_mid_resolution_resolves_the_phase_once_after_restart(
    stack, make_user, tmp_path
):
    marker = tmp_path / "resolving"
    # Prefork (one child): without acks_late the parent would ack before the child runs the
    # task and the kill would lose it; with acks_late the message stays unacknowledged.
    doomed = stack.worker(concurrency=1, TOY_DUEL_RESOLVE_SLEEP="60",
                          TOY_DUEL_RESOLVE_MARKER=str(marker))
    match = duel(make_user, "crash")
    submit(match, match.alice, 1, 5, phase=1)
    submit(match, match.bob, 2, 2, phase=1)
    wait_until(marker.exists, 30, "the worker to be inside the resolution")
    assert Phase.objects.get(match=match, number=1).status == "open"  # not committed
    doomed.kill()  # SIGKILL: the message is neither acked nor rejected
    assert Phase.objects.get(match=match, number=1).status == "open"  # rolled back

    # No beat here: only the broker's redelivery (acks_late + visibility timeout) can save it.
    survivor = stack.worker(pool="solo", TEST_VISIBILITY_TIMEOUT="3")
    wait_until(lambda: resolved(match.pk, 1), 60, "the redelivered resolution")
    assert "games.tasks.resolve_phase" in survivor.log()
    assert_resolved_once(match)


# -- every way out: each (recipient, event) once, however the flush is delivered ------------------

def test_a_mail_worker_killed_mid_batch_mails_each_recipient_once(stack, settings):
    """The worker sends a batch of six, recording each mail as the server takes it; it is
    killed while the server keeps it waiting at the fourth. The next worker sends the fourth
    to sixth once their lease ran out, and nobody gets a mail twice."""
    from django.db import transaction

    from portal.delivery import pipeline
    from portal.mail import services
    from portal.mail.models import OutgoingEmail
    from tests.portal.mail.smtp import start_server

    controller, boxes = start_server()
    try:
        settings.MAIL_LEASE_SECONDS = 3
        env = {"EMAIL_URL": f"smtp://{controller.hostname}:{controller.port}",
               "DELIVERY_LEASE_SECONDS": "3"}
        boxes.hold("p3@example.test")
        with transaction.atomic():  # one flush queued on commit, for a worker to take
            for n in range(6):
                services.email_queue(kind="digest", dedupe_key=f"kill{n}",
                                     to=f"p{n}@example.test", subject="Once", body_text="b")
        rows = OutgoingEmail.objects.filter(dedupe_key__startswith="kill")
        doomed = stack.worker(concurrency=1, **env)
        assert boxes.holding.wait(30), "the worker never reached the fourth mail"
        # the three before it are recorded while the server holds the fourth (their group
        # is handed over when the gathering time is up)
        wait_until(lambda: rows.filter(status="sent").count() == 3, 10, "three recorded")
        doomed.kill()  # SIGKILL in the middle of the batch
        boxes.release()
        assert rows.filter(status="sending").count() == 3  # claimed, never recorded
        stack.worker(concurrency=1, **env)
        time.sleep(3.5)  # the dead worker's lease runs out ...
        assert pipeline.sweep()["mail"] == 3  # ... and beat's sweeper queues a flush
        wait_until(lambda: rows.filter(status="sent").count() == 6, 30, "all six sent")
        assert [len(boxes.to(f"p{n}@example.test")) for n in range(6)] == [1] * 6
    finally:
        controller.stop()


def test_a_mail_flush_delivered_many_times_at_once_mails_each_recipient_once(stack):
    from django.db import transaction

    from portal.mail import services
    from portal.mail.models import OutgoingEmail
    from tests.portal.mail.smtp import start_server

    controller, boxes = start_server()
    try:
        with transaction.atomic():
            for n in range(30):
                services.email_queue(kind="digest", dedupe_key=f"dup{n}",
                                     to=f"d{n}@example.test", subject="Once", body_text="b")
        for _ in range(9):  # the on-commit flush plus nine duplicates, on four processes
            app.send_task("portal.delivery.tasks.deliver_due", kwargs={"channel": "mail"})
        stack.worker(concurrency=4,
                     EMAIL_URL=f"smtp://{controller.hostname}:{controller.port}",
                     DELIVERY_BATCH_SIZE="4")
        rows = OutgoingEmail.objects.filter(dedupe_key__startswith="dup")
        wait_until(lambda: rows.filter(status="sent").count() == 30, 60, "all 30 sent")
        assert [len(boxes.to(f"d{n}@example.test")) for n in range(30)] == [1] * 30
    finally:
        controller.stop()
