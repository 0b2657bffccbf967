"""The delivery pipeline's task: acks_late, and it claims what is due, so a task delivered
twice sends nothing twice (the sweeper, ``durable.sweep``, queues it where rows are due)."""

from __future__ import annotations

from durable.worker import task
from portal.delivery import pipeline


@task("portal.delivery.tasks.deliver_due")
def deliver_due(channel: str) -> int:
    """Send every due row of ``channel`` (mail, push, ...), batch after batch."""
    return pipeline.flush(channel)
