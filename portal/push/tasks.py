"""Celery tasks of web push (sending is the delivery pipeline's: ``portal.delivery.tasks``)."""

from __future__ import annotations

from celery import shared_task

from portal.push import services

TASK_OPTIONS = {"acks_late": True, "reject_on_worker_lost": True, "ignore_result": True}


@shared_task(name="portal.push.tasks.reminders_push", **TASK_OPTIONS)
def reminders_push() -> int:
    """Queue the deadline reminders due now (beat)."""
    return services.reminders_push()
