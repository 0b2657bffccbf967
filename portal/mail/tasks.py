"""Celery tasks of the mail app: they take ids, run acks_late, and are no-ops when the work
is done (a processed message), so a task delivered twice does nothing twice. Sending is the
delivery pipeline's (``portal.delivery.tasks``)."""

from __future__ import annotations

from durable.worker import task
from portal.mail import services
from portal.mail.models import InboundMessage


@task("portal.mail.tasks.inbound_process")
def inbound_process(inbound_id: int) -> str:
    """Process a received message (the outbox row its storing wrote). One that another
    process holds (the MTA pipe's own processing) and still reads received is tried again
    later: if that process died, the message is processed then."""
    row = services.inbound_process(inbound_id=inbound_id)
    if row is not None and row.status == InboundMessage.Status.RECEIVED:
        raise RuntimeError(f"inbound message {inbound_id} is being processed elsewhere")
    return row.status if row else "missing"


@task("portal.mail.tasks.reminders_send")
def reminders_send() -> int:
    return services.reminders_send()


@task("portal.mail.tasks.digests_send")
def digests_send() -> int:
    return services.digests_send()
