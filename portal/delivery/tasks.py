"""The delivery pipeline's tasks: acks_late, and each claims what is due, so a task delivered
twice sends nothing twice."""

from __future__ import annotations

from durable.worker import task
from portal.delivery import pipeline


@task("portal.delivery.tasks.deliver_due")
def deliver_due(channel: str) -> int:
    """Send every due row of ``channel`` (mail, push, ...), batch after batch."""
    return pipeline.flush(channel)


@task("portal.delivery.tasks.sweep_deliveries")
def sweep_deliveries() -> dict[str, int]:
    """Queue a flush of every channel that has due rows; expire the stale ones (beat)."""
    return pipeline.sweep()
