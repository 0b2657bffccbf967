"""Celery tasks of web push: no arguments, acks_late; each claims what is due, so a task
delivered twice sends nothing twice."""

from __future__ import annotations

from celery import shared_task

from portal.push import services

TASK_OPTIONS = {"acks_late": True, "reject_on_worker_lost": True, "ignore_result": True}


@shared_task(name="portal.push.tasks.push_flush", **TASK_OPTIONS)
def push_flush() -> int:
    """Send every due push, batch after batch."""
    return services.push_flush()


@shared_task(name="portal.push.tasks.push_sweep", **TASK_OPTIONS)
def push_sweep() -> int:
    """Expire stale pushes and queue a flush if any are due (beat)."""
    return services.push_sweep()


@shared_task(name="portal.push.tasks.reminders_push", **TASK_OPTIONS)
def reminders_push() -> int:
    """Queue the deadline reminders due now (beat)."""
    return services.reminders_push()
