"""Queueing Celery tasks on commit, without ever failing the caller's request.

Orders live in the database; the queue only speeds things up. If the broker is down when a
transaction commits, the error is logged and the deadline sweeper picks the work up later
(it also finds complete-but-unresolved phases).
"""

from __future__ import annotations

import logging
from typing import Any

from celery import current_app
from django.db import transaction

logger = logging.getLogger(__name__)

# Keep a request short when the broker is unreachable: one quick retry, then give up.
PUBLISH_RETRY_POLICY = {"max_retries": 1, "interval_start": 0, "interval_step": 0.2,
                        "interval_max": 0.5}


class Enqueue:
    """A task to send on commit. A class (not a closure) so tests can see what was queued."""

    def __init__(self, task_name: str, **kwargs: Any) -> None:
        self.task_name = task_name
        self.kwargs = kwargs

    def __repr__(self) -> str:
        return f"Enqueue({self.task_name!r}, {self.kwargs!r})"

    def __call__(self) -> bool:
        from games import tasks  # noqa: F401  registers the tasks (imported late: a cycle)

        task = current_app.tasks[self.task_name]
        try:
            # apply_async (not send_task) so CELERY_TASK_ALWAYS_EAGER runs it inline.
            task.apply_async(kwargs=self.kwargs, retry=True, retry_policy=PUBLISH_RETRY_POLICY)
        except Exception:  # the broker is down or refused: the sweeper will catch up
            logger.exception("could not queue %s %s; the sweeper will pick it up",
                             self.task_name, self.kwargs)
            return False
        return True


def enqueue_on_commit(task_name: str, **kwargs: Any) -> None:
    """Send ``task_name(**kwargs)`` once the current transaction commits (now, outside one)."""
    transaction.on_commit(Enqueue(task_name, **kwargs))


class SendSignal:
    """A django signal to send on commit (receivers' errors are logged, never raised)."""

    def __init__(self, signal: Any, **kwargs: Any) -> None:
        self.signal = signal
        self.kwargs = kwargs

    def __call__(self) -> None:
        for receiver, response in self.signal.send_robust(sender=None, **self.kwargs):
            if isinstance(response, Exception):
                logger.error("signal receiver %r failed: %r", receiver, response,
                             exc_info=(type(response), response, response.__traceback__))


def send_signal_on_commit(signal: Any, **kwargs: Any) -> None:
    transaction.on_commit(SendSignal(signal, **kwargs))
