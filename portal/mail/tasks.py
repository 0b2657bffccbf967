"""Celery tasks of the mail app: they take ids, run acks_late, and are no-ops when the work
is done (a processed message), so a task delivered twice does nothing twice. Sending is the
delivery pipeline's (``portal.delivery.tasks``)."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from durable.worker import task
from games.services.queue import Enqueue
from portal.mail import services
from portal.mail.models import InboundMessage

INBOUND_STUCK = timedelta(minutes=5)


@task("portal.mail.tasks.inbound_sweep")
def inbound_sweep() -> int:
    """Queue the processing of received mail nobody processed (beat)."""
    stale = InboundMessage.objects.filter(
        status=InboundMessage.Status.RECEIVED, received_at__lte=timezone.now() - INBOUND_STUCK
    ).values_list("pk", flat=True)[:100]
    return sum(Enqueue("portal.mail.tasks.inbound_process", inbound_id=pk)() for pk in stale)


@task("portal.mail.tasks.inbound_process")
def inbound_process(inbound_id: int) -> str:
    row = services.inbound_process(inbound_id=inbound_id)
    return row.status if row else "missing"


@task("portal.mail.tasks.reminders_send")
def reminders_send() -> int:
    return services.reminders_send()


@task("portal.mail.tasks.digests_send")
def digests_send() -> int:
    return services.digests_send()
