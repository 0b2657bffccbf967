"""Celery tasks of the mail app: they take ids, run acks_late, and are no-ops when the work
is done (a processed message), so a task delivered twice does nothing twice. Sending is the
delivery pipeline's (``portal.delivery.tasks``)."""

from __future__ import annotations

from datetime import timedelta

from celery import shared_task
from django.utils import timezone

from games.services.queue import Enqueue
from portal.mail import services
from portal.mail.models import InboundMessage

TASK_OPTIONS = {"acks_late": True, "reject_on_worker_lost": True, "ignore_result": True}
INBOUND_STUCK = timedelta(minutes=5)


@shared_task(name="portal.mail.tasks.inbound_sweep", **TASK_OPTIONS)
def inbound_sweep() -> int:
    """Queue the processing of received mail nobody processed (beat)."""
    stale = InboundMessage.objects.filter(
        status=InboundMessage.Status.RECEIVED, received_at__lte=timezone.now() - INBOUND_STUCK
    ).values_list("pk", flat=True)[:100]
    return sum(Enqueue("portal.mail.tasks.inbound_process", inbound_id=pk)() for pk in stale)


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
