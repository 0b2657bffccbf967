"""The outbox's catch-up (the relay's, on taking the lead) and sweep (beat's) queue every undone
row nobody holds, a batch at a time, however many there are (both stopped at 2,000 rows)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from durable.models import OutboxEvent
from durable.outbox import dispatch, outbox_catch_up, outbox_sweep

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _only_these_rows():
    """The catch-up and the sweep read the whole outbox: each test starts from an empty one
    (a browser test's live server may have written rows after its database was flushed)."""
    OutboxEvent.objects.all().delete()


def undone(count: int, written_ago: float = 0) -> list[int]:
    created = timezone.now() - timedelta(seconds=written_ago)
    rows = OutboxEvent.objects.bulk_create([
        OutboxEvent(kind="task" if n % 3 == 0 else "signal", name="phase_resolved",
                    payload={"match_id": 0, "phase_number": 0, "finished": False},
                    created_at=created, next_attempt_at=created)
        for n in range(count)], batch_size=1000)
    return [row.pk for row in rows]


def queued(queue, django_capture_on_commit_callbacks) -> list[list[int]]:
    """The id lists of the dispatch tasks ``queue()`` queued."""
    with django_capture_on_commit_callbacks() as callbacks:
        count = queue()
    batches = [c.kwargs["ids"] for c in callbacks
               if getattr(c, "task_name", "") == "durable.tasks.outbox_dispatch"]
    assert count == sum(len(ids) for ids in batches)
    return batches


def test_the_catch_up_queues_every_undone_row_nobody_holds_a_batch_at_a_time(
    settings, django_capture_on_commit_callbacks
):
    settings.OUTBOX_GRACE_SECONDS = 30
    ids = undone(2100)
    now = timezone.now()
    held = ids[5:10]  # claimed by a live dispatcher: not queued again
    OutboxEvent.objects.filter(pk__in=held).update(status="sending", sending_since=now)
    lost = ids[10:12]  # claimed by a dispatcher that died (past its lease): queued
    OutboxEvent.objects.filter(pk__in=lost).update(status="sending",
                                                   sending_since=now - timedelta(minutes=5))
    OutboxEvent.objects.filter(pk__in=ids[12:15]).update(status="sent", done_at=now)
    OutboxEvent.objects.filter(pk__in=ids[15:17]).update(status="failed")  # the admins'

    batches = queued(outbox_catch_up, django_capture_on_commit_callbacks)
    assert sorted(pk for ids_ in batches for pk in ids_) == ids[:5] + ids[10:12] + ids[17:]
    assert max(len(ids_) for ids_ in batches) <= settings.OUTBOX_BATCH_SIZE


def test_the_catch_up_stops_at_the_newest_row_when_it_started(
    settings, monkeypatch, django_capture_on_commit_callbacks
):
    """What is written while it goes is notified to the relay (which listens before it
    starts): not read again, so a busy outbox cannot keep it going."""
    settings.OUTBOX_BATCH_SIZE = 3
    ids = undone(10)
    later: list[int] = []

    def dispatch_while_others_write(pairs):
        later.extend(undone(2))
        return dispatch(pairs)

    monkeypatch.setattr("durable.outbox.dispatch", dispatch_while_others_write)
    batches = queued(outbox_catch_up, django_capture_on_commit_callbacks)
    assert len(later) == 8 and sorted(pk for ids_ in batches for pk in ids_) == ids


def test_the_sweeper_queues_every_row_due_longer_than_the_grace_time(
    settings, django_capture_on_commit_callbacks
):
    settings.OUTBOX_GRACE_SECONDS = 30
    old = undone(2050, written_ago=60)
    undone(3)  # within the grace time: their dispatch may be on its way
    batches = queued(outbox_sweep, django_capture_on_commit_callbacks)
    assert sorted(pk for ids_ in batches for pk in ids_) == old
