"""A received e-mail is stored with the outbox row that has a worker process it: at once when
nobody else will (the ESP's webhook), later when the receiving process handles it itself (the
MTA pipe), so the two never race, and the worker's run then finds it done."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from durable.models import OutboxEvent
from durable.outbox import outbox_dispatch
from portal.mail.models import InboundMessage
from portal.mail.services import inbound_process, inbound_store

pytestmark = pytest.mark.django_db

RAW = b"From: someone@example.test\r\nSubject: hello\r\nMessage-ID: <%d@example.test>\r\n\r\nhi"


def promise(row: InboundMessage) -> OutboxEvent:
    return OutboxEvent.objects.get(name="portal.mail.tasks.inbound_process",
                                   payload={"inbound_id": row.pk})


def test_a_webhooks_message_is_processed_by_a_worker_at_once(settings):
    row = inbound_store(raw=RAW % 1, source=InboundMessage.Source.WEBHOOK)
    assert promise(row).next_attempt_at <= timezone.now()
    assert outbox_dispatch(ids=[promise(row).pk]) == 1
    row.refresh_from_db()
    assert row.status != InboundMessage.Status.RECEIVED and promise(row).status == "sent"


def test_a_piped_message_is_left_to_its_process_and_a_worker_looks_only_later(settings):
    settings.MAIL_INBOUND_BACKSTOP_SECONDS = 300
    row = inbound_store(raw=RAW % 2, source=InboundMessage.Source.PIPE, processed_here=True)
    due = promise(row).next_attempt_at
    assert timedelta(seconds=299) < due - timezone.now() <= timedelta(seconds=300)
    assert outbox_dispatch(ids=[promise(row).pk]) == 0  # not due: left to the pipe
    assert promise(row).status == "queued"
    processed = inbound_process(inbound_id=row.pk)  # the pipe's own processing
    # five minutes on, the worker's run finds it done: nothing twice
    OutboxEvent.objects.filter(pk=promise(row).pk).update(
        next_attempt_at=timezone.now() - timedelta(seconds=1))
    assert outbox_dispatch(ids=[promise(row).pk]) == 1 and promise(row).status == "sent"
    again = InboundMessage.objects.get(pk=row.pk)
    assert (again.status, again.processed_at) == (processed.status, processed.processed_at)
