"""The delivery pipeline's tasks: acks_late, and each claims what is due, so a task delivered
twice sends nothing twice."""

from __future__ import annotations

from celery import shared_task

from portal.delivery import pipeline

TASK_OPTIONS = {"acks_late": True, "reject_on_worker_lost": True, "ignore_result": True}


@shared_task(name="portal.delivery.tasks.deliver_due", **TASK_OPTIONS)
def deliver_due(channel: str) -> int:
    """Send every due row of ``channel`` (mail, push, ...), batch after batch."""
    return pipeline.flush(channel)


@shared_task(name="portal.delivery.tasks.sweep_deliveries", **TASK_OPTIONS)
def sweep_deliveries() -> dict[str, int]:
    """Queue a flush of every channel that has due rows; expire the stale ones (beat)."""
    return pipeline.sweep()
