"""The durable queue's own tasks: carrying out outbox rows, and the sweeper (beat runs it:
``sweep-durable-work``; each kind registered with ``durable.sweep`` runs when its interval has
passed)."""

from __future__ import annotations

from durable import outbox
from durable import sweep as sweeper
from durable.worker import task


@task("durable.tasks.outbox_dispatch")
def outbox_dispatch(ids: list[int]) -> int:
    """Carry out promised side effects (signals to listeners, tasks) after their commit."""
    return outbox.outbox_dispatch(ids=ids)


@task("durable.tasks.sweep")
def sweep() -> dict:
    """Queue again the durable work of every kind due for a sweep."""
    return sweeper.sweep()
