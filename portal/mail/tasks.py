"""Celery tasks of the mail app: they take ids, run acks_late, and are no-ops when the work
is done (a sent row, a processed message), so a task delivered twice does nothing twice."""

from __future__ import annotations

from datetime import timedelta

from celery import shared_task
from django.utils import timezone

from portal.mail import services
from portal.mail.models import InboundMessage

TASK_OPTIONS = {"acks_late": True, "reject_on_worker_lost": True, "ignore_result": True}
INBOUND_STUCK = timedelta(minutes=5)


@shared_task(name="portal.mail.tasks.email_send", **TASK_OPTIONS)
def email_send(email_id: int) -> str:
    """Send one outbox row if it is due."""
    return services.email_send(email_id=email_id)


@shared_task(name="portal.mail.tasks.outbox_flush", **TASK_OPTIONS)
def outbox_flush() -> int:
    """Send every due outbox row, in batches over one SMTP connection each."""
    return services.outbox_flush()


@shared_task(name="portal.mail.tasks.outbox_sweep", **TASK_OPTIONS)
def outbox_sweep() -> int:
    """Re-queue stuck outbox rows and inbound messages nobody processed (beat)."""
    count = services.outbox_sweep()
    stale = InboundMessage.objects.filter(
        status=InboundMessage.Status.RECEIVED, received_at__lte=timezone.now() - INBOUND_STUCK
    ).values_list("pk", flat=True)[:100]
    for inbound_id in stale:
        inbound_process.delay(inbound_id=inbound_id)
    return count


@shared_task(name="portal.mail.tasks.inbound_process", **TASK_OPTIONS)
def inbound_process(inbound_id: int) -> str:
    row = services.inbound_process(inbound_id=inbound_id)
    return row.status if row else "missing"


@shared_task(name="portal.mail.tasks.reminders_send", **TASK_OPTIONS)
def reminders_send() -> int:
    return services.reminders_send()


@shared_task(name="portal.mail.tasks.digests_send", **TASK_OPTIONS)
def digests_send() -> int:
    return services.digests_send()
