"""The sweeper's task: beat runs it (``sweep-durable-work``); each kind registered with
``durable.sweep`` runs when its interval has passed."""

from __future__ import annotations

from durable import sweep as sweeper
from durable.worker import task


@task("durable.tasks.sweep")
def sweep() -> dict:
    """Queue again the durable work of every kind due for a sweep."""
    return sweeper.sweep()
