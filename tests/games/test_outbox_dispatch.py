"""Carrying out outbox rows several to a transaction (settings.OUTBOX_COMMIT_ROWS), each in a
savepoint: a failing row takes no other row's work down, a row that fails once is tried
again on its own, and one that fails again is left for the sweeper with its error."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import Group
from django.db import DatabaseError, connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from durable import outbox
from durable.models import OutboxEvent
from durable.outbox import outbox_dispatch
from games.signals import leave_taken

pytestmark = pytest.mark.django_db


@pytest.fixture
def listener():
    """A listener of ``leave_taken`` that writes a row (a Group named after the leave id), then
    fails for the ids in ``failing`` (each as many times as given: -1 for always)."""
    failing: dict[int, int] = {}

    def receiver(sender, leave_id: int, **kwargs) -> None:
        Group.objects.create(name=f"effect-{leave_id}")
        if failing.get(leave_id):
            failing[leave_id] -= 1
            raise RuntimeError(f"listener failed for {leave_id}")

    leave_taken.connect(receiver, dispatch_uid="test_outbox_dispatch")
    yield failing
    leave_taken.disconnect(dispatch_uid="test_outbox_dispatch")


def rows(count: int) -> list[int]:
    made = OutboxEvent.objects.bulk_create([
        OutboxEvent(kind="signal", name="leave_taken", payload={"leave_id": -n},
                    created_at=timezone.now())
        for n in range(1, count + 1)])
    return [row.pk for row in made]


def effects() -> list[str]:
    return sorted(Group.objects.filter(name__startswith="effect-").values_list("name", flat=True))


def test_rows_are_carried_out_several_to_a_transaction(settings, listener):
    settings.OUTBOX_COMMIT_ROWS = 4
    ids = rows(10)
    with CaptureQueriesContext(connection) as captured:
        assert outbox_dispatch(ids=ids) == 10
    done = 'UPDATE "durable_outboxevent" SET "status" = \'sent\', "done_at"'
    marks = [q for q in captured if q["sql"].startswith(done)]
    assert len(marks) == 3  # 4 + 4 + 2 rows
    assert effects() == sorted(f"effect--{n}" for n in range(1, 11))
    assert not OutboxEvent.objects.filter(pk__in=ids, done_at__isnull=True).exists()
    assert outbox_dispatch(ids=ids) == 0  # a duplicate task finds nothing to do


def test_a_failing_row_takes_no_other_rows_work_down(settings, listener):
    settings.OUTBOX_COMMIT_ROWS = 5
    ids = rows(5)
    listener[-3] = -1  # the third row's listener always fails
    assert outbox_dispatch(ids=ids) == 4
    assert effects() == sorted(f"effect--{n}" for n in (1, 2, 4, 5))  # its write rolled back
    failed = OutboxEvent.objects.get(pk=ids[2])
    # tried again after the outbox's back-off (OUTBOX_RETRY_BASE_SECONDS), a worker queued then
    assert failed.done_at is None and failed.status == "retry" and failed.attempts == 1
    assert timedelta(seconds=9) < failed.next_attempt_at - timezone.now() <= timedelta(seconds=10)
    assert "listener failed for -3" in failed.last_error
    assert OutboxEvent.objects.filter(pk__in=ids, done_at__isnull=False).count() == 4


def test_a_row_that_fails_once_in_its_group_is_carried_out_on_its_own(settings, listener):
    settings.OUTBOX_COMMIT_ROWS = 5
    ids = rows(5)
    listener[-2] = 1  # fails the first time only (as a lock timeout would)
    assert outbox_dispatch(ids=ids) == 5
    assert effects() == sorted(f"effect--{n}" for n in range(1, 6))  # each written once
    assert set(OutboxEvent.objects.filter(pk__in=ids).values_list("attempts", "last_error")) == {
        (1, "")}


def test_the_rows_of_a_group_whose_commit_failed_are_carried_out_one_by_one(
    settings, listener, monkeypatch
):
    settings.OUTBOX_COMMIT_ROWS = 5
    ids = rows(5)
    together = outbox._carry_out_together

    def commit_fails(group):  # the group's work is done, then its transaction fails
        with transaction.atomic():
            together(group)
            raise DatabaseError("could not serialize access due to concurrent update")

    monkeypatch.setattr(outbox, "_carry_out_together", commit_fails)
    assert outbox_dispatch(ids=ids) == 5
    assert effects() == sorted(f"effect--{n}" for n in range(1, 6))  # each written once
    assert not OutboxEvent.objects.filter(pk__in=ids, done_at__isnull=True).exists()
