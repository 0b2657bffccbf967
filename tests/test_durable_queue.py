"""durable.queue: one claim, lease, back-off and sweep for every kind of durable work (the
outbox's rows and each delivery channel's), the numbers read per kind."""

from __future__ import annotations

import ast
from datetime import timedelta
from pathlib import Path

import pytest
from django.apps import apps
from django.utils import timezone

from durable import outbox, queue
from durable.models import OutboxEvent, Work
from games.signals import leave_taken

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("analysis", "clocks", "competitions", "dbops", "durable", "engine", "games", "portal")


def test_every_table_of_retried_work_is_a_queue_of_durable_work():
    """A table with a due time or a lease is a ``Work`` table, and a registered queue's."""
    queued = {q.model for q in queue.QUEUES.values()}
    for model in apps.get_models():
        names = {field.name for field in model._meta.get_fields()}
        if names & {"next_attempt_at", "sending_since"}:
            assert issubclass(model, Work), model
            assert model in queued, model


def test_no_module_but_the_queue_defines_a_back_off_or_reads_a_kinds_attempts():
    """The back-off and the most attempts are ``durable.queue``'s alone (a kind sets only its
    numbers, in the settings). A phase's quarantine after ``RESOLVE_MAX_ATTEMPTS`` failed
    resolutions is the lifecycle's rule for a poison phase, not work retried."""
    found = []
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if "migrations" in path.parts or path == ROOT / "durable" / "queue.py":
                continue
            for node in ast.walk(ast.parse(path.read_text())):
                name = getattr(node, "name", None) or getattr(node, "attr", None) or getattr(
                    node, "id", None) or ""
                if isinstance(node, ast.Constant) and isinstance(node.value, str):
                    name = node.value
                if not isinstance(name, str):
                    continue
                lowered = name.lower()
                if ("backoff" in lowered or "back_off" in lowered or (
                        name.endswith("MAX_ATTEMPTS") and name != "RESOLVE_MAX_ATTEMPTS")
                        ) and path.name != "settings.py":
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno} {name}")
    assert found == []


def test_a_kind_reads_its_own_numbers_then_its_groups_then_the_defaults(settings):
    class Toy(queue.Queue):
        name = "toy"
        group = "TOYS"
        model = OutboxEvent

    toy = Toy()
    settings.TOY_MAX_ATTEMPTS = 3
    settings.TOYS_RETRY_BASE_SECONDS = 7
    settings.TOYS_MAX_BACKOFF_SECONDS = 50
    settings.DURABLE_LEASE_SECONDS = 123
    assert (toy.max_attempts, toy.lease_seconds) == (3, 123)
    assert [toy.backoff_seconds(n) for n in range(1, 6)] == [7, 14, 28, 50, 50]


@pytest.fixture
def failing_listener():
    def receiver(sender, leave_id, **kwargs):
        raise RuntimeError(f"listener failed for {leave_id}")

    leave_taken.connect(receiver, dispatch_uid="test_durable_queue")
    yield
    leave_taken.disconnect(dispatch_uid="test_durable_queue")


@pytest.mark.django_db
def test_a_failing_outbox_row_backs_off_then_fails_for_the_admins_who_may_queue_it_again(
        settings, failing_listener, django_capture_on_commit_callbacks):
    settings.OUTBOX_MAX_ATTEMPTS = 3
    settings.OUTBOX_RETRY_BASE_SECONDS = 10
    settings.OUTBOX_GRACE_SECONDS = 30
    OutboxEvent.objects.all().delete()
    (row,) = outbox.outbox_write([("signal", "leave_taken", None, {"leave_id": -1})])
    waits = []
    for attempt in (1, 2, 3):
        assert outbox.outbox_dispatch(ids=[row.pk]) == 0
        row.refresh_from_db()
        assert row.attempts == attempt and "listener failed for -1" in row.last_error
        if attempt < 3:
            assert row.status == "retry"
            waits.append(round((row.next_attempt_at - timezone.now()).total_seconds()))
            # not due yet: a dispatch leaves it for its time, the sweeper too
            assert outbox.outbox_dispatch(ids=[row.pk]) == 0
            assert OutboxEvent.objects.get(pk=row.pk).attempts == attempt
            assert outbox.outbox_sweep() == 0
            OutboxEvent.objects.filter(pk=row.pk).update(
                next_attempt_at=timezone.now() - timedelta(seconds=31))
            assert outbox.outbox_sweep() == 1  # overdue: queued again
    assert waits == [10, 20]
    assert row.status == "failed" and row.next_attempt_at is None
    assert outbox.outbox_sweep() == 0  # left for the admins
    assert outbox.OUTBOX.requeue([row.pk]) == 1
    row.refresh_from_db()
    assert (row.status, row.attempts) == ("retry", 0)


@pytest.mark.django_db
def test_a_row_held_past_its_lease_is_claimed_again_and_one_held_within_it_is_not(settings):
    settings.OUTBOX_LEASE_SECONDS = 30
    OutboxEvent.objects.all().delete()
    rows = outbox.outbox_write([("task", "games.tasks.none", None, {}),
                                ("task", "games.tasks.none", None, {})])
    ids = [row.pk for row in rows]
    assert [r.pk for r in outbox.OUTBOX.claim(ids=ids)] == ids
    assert outbox.OUTBOX.claim(ids=ids) == []  # held by the first worker
    later = timezone.now() + timedelta(seconds=31)  # it died: the lease ran out
    again = outbox.OUTBOX.claim(ids=ids, now=later)
    assert [r.pk for r in again] == ids and {r.attempts for r in again} == {2}


@pytest.mark.django_db
def test_the_admins_see_the_outbox_and_try_a_failed_row_again(admin_client):
    OutboxEvent.objects.all().delete()
    (row,) = outbox.outbox_write([("signal", "leave_taken", None, {"leave_id": -1})])
    OutboxEvent.objects.filter(pk=row.pk).update(status="failed", attempts=5,
                                                 last_error="RuntimeError: the listener")
    page = admin_client.get("/admin/durable/outboxevent/?status__exact=failed")
    assert page.status_code == 200 and b"leave_taken" in page.content
    done = admin_client.post("/admin/durable/outboxevent/", {
        "action": "try_again", "_selected_action": [row.pk]}, follow=True)
    assert b"1 failed side effect queued again." in done.content
    row.refresh_from_db()
    assert (row.status, row.attempts) in {("retry", 0), ("sent", 1)}  # (carried out at once)


@pytest.mark.django_db
def test_the_work_left_for_the_old_sweeps_gets_its_outbox_rows_when_migrating(toy_duel):
    """Message notices due and received mail not processed when the outbox took them over
    (their sweeps are gone) are promised by the migrations."""
    from importlib import import_module

    from portal.chat.models import NoticeGathering
    from portal.mail.models import InboundMessage

    match = toy_duel()
    due = timezone.now() + timedelta(seconds=40)
    NoticeGathering.objects.create(match=match, due_at=due)
    NoticeGathering.objects.create(match=toy_duel(), due_at=None)  # nothing to tell
    waiting = InboundMessage.objects.create(source="pipe", raw=b"x", size=1)
    InboundMessage.objects.create(source="pipe", raw=b"y", size=1, status="accepted")
    OutboxEvent.objects.all().delete()
    import_module("portal.chat.migrations.0004_notices_on_the_outbox").notices_promised(
        apps, None)
    import_module("portal.mail.migrations.0012_inbound_on_the_outbox").processing_promised(
        apps, None)
    assert sorted((row.name, row.payload, row.next_attempt_at == due)
                  for row in OutboxEvent.objects.all()) == [
        ("portal.chat.tasks.messages_notify", {"match_id": match.pk}, True),
        ("portal.mail.tasks.inbound_process", {"inbound_id": waiting.pk}, False)]
