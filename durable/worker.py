"""The one way this project declares a Celery task (after zulip's ``QueueProcessingWorker``:
what every worker must do is said once, in the base class, not at each task).

Every task here takes ids, is idempotent (its service locks what it works on and returns early
when the work is done) and must not be lost to a crash, so every task is:

- acknowledged late, after it ran: a worker killed in the middle leaves the message
  unacknowledged, and the broker hands it to another worker once its visibility timeout passes;
- rejected (requeued) when its worker process is lost, rather than acknowledged as failed;
- without a stored result: nothing reads one, and results would fill Redis.

    from durable.worker import task

    @task("games.tasks.resolve_phase")
    def resolve_phase(match_id: int, phase_number: int) -> bool: ...

The name is given in full (it is what beat's schedule and the services' ``Enqueue`` send), so
that moving a function never renames its task under messages already queued.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from celery import Task, shared_task


class Worker(Task):
    """The base of every task of the project: acknowledged late, requeued if its worker is
    lost, no result kept."""

    acks_late = True
    reject_on_worker_lost = True
    ignore_result = True


def task(name: str) -> Callable[[Callable[..., Any]], Worker]:
    """Declare ``function`` as the task ``name`` (a ``Worker``)."""

    def declare(function: Callable[..., Any]) -> Worker:
        return shared_task(name=name, base=Worker)(function)

    return declare
