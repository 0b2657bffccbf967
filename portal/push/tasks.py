"""Celery tasks of web push (sending is the delivery pipeline's: ``portal.delivery.tasks``)."""

from __future__ import annotations

from durable.worker import task
from portal.push import services


@task("portal.push.tasks.reminders_push")
def reminders_push() -> int:
    """Queue the deadline reminders due now (beat)."""
    return services.reminders_push()
