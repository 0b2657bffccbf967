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

import logging
from collections.abc import Callable
from importlib import import_module
from typing import Any

from celery import Task, current_app, shared_task
from celery.utils import uuid
from django.db import transaction

logger = logging.getLogger(__name__)


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


# -- sending a task ---------------------------------------------------------------------------

# Keep a request short when the broker is unreachable: one quick retry, then give up.
PUBLISH_RETRY_POLICY = {"max_retries": 1, "interval_start": 0, "interval_step": 0.2,
                        "interval_max": 0.5}




class Enqueue:
    """A task to send on commit: the one on-commit callback of the project (the lifecycle, the
    delivery pipeline, inbound mail). A class (not a closure) so tests can see what was queued
    and so ``enqueue_on_commit(once=True)`` can tell two equal ones apart. ``queue`` overrides
    the task's route (settings.CELERY_TASK_ROUTES); ``countdown`` delays it (seconds)."""

    def __init__(self, task_name: str, *, queue: str | None = None,
                 countdown: float | None = None, **kwargs: Any) -> None:
        self.task_name = task_name
        self.queue = queue
        self.countdown = countdown or None
        self.kwargs = kwargs

    def __repr__(self) -> str:
        return f"Enqueue({self.task_name!r}, {self.kwargs!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Enqueue) and (
            (self.task_name, self.queue, self.countdown, self.kwargs)
            == (other.task_name, other.queue, other.countdown, other.kwargs))

    __hash__ = None  # type: ignore[assignment]  (mutable kwargs: compared, never hashed)

    def __call__(self) -> bool:
        task = task_named(self.task_name)
        # What the worker's log shows of the arguments: Celery's own (a "safe" repr, walking
        # every value) cost a tenth of each publish; these are ids and numbers.
        shown = repr(self.kwargs)[:1000]
        try:
            if task.app.conf.task_always_eager:  # run inline, as apply_async does ...
                if self.countdown:  # ... but not a task for later: nothing would be due yet
                    return True  # (the sweeper takes its rows once they are)
                task.apply_async(kwargs=self.kwargs, argsrepr="()", kwargsrepr=shown)
            else:
                _publish(task, self.kwargs, self.queue, self.countdown, shown)
        except Exception:  # the broker is down or refused: the sweeper will catch up
            logger.exception("could not queue %s %s; the sweeper will pick it up",
                             self.task_name, self.kwargs)
            return False
        return True


def task_named(name: str) -> Any:
    """The registered task ``name`` (``module.function``), importing its module if no worker
    autodiscovery registered it yet (a web process)."""
    if name not in current_app.tasks:
        import_module(name.rpartition(".")[0])
    return current_app.tasks[name]


def _publish(task: Any, kwargs: dict[str, Any], queue: str | None, countdown: float | None,
             shown: str) -> None:
    """Send ``task(**kwargs)`` as ``apply_async`` sends it, built from the parts of Celery it
    is made of (its router, its task message, its pooled producer, whose publish sends
    Celery's publish signals, declares the queue and retries by ``PUBLISH_RETRY_POLICY``),
    without the rest: the result object and the merging of options no task here sets,
    about a quarter of each publish. ``queue`` overrides the task's route."""
    app = task.app
    route = app.amqp.router.route({"queue": queue} if queue else {}, task.name, (), kwargs,
                                  task)
    parent = app.current_worker_task  # (a task queued by a task: linked to it, as Celery does)
    task_id = uuid()
    message = app.amqp.create_task_message(
        task_id, task.name, (), kwargs, countdown=countdown, argsrepr="()", kwargsrepr=shown,
        ignore_result=task.ignore_result,
        root_id=parent.request.root_id if parent else None,
        parent_id=parent.request.id if parent else None)
    with app.producer_pool.acquire(block=True) as producer:
        app.amqp.send_task_message(producer, task.name, message, retry=True,
                                   retry_policy=PUBLISH_RETRY_POLICY, **route)


def enqueue_on_commit(task_name: str, *, once: bool = False, **options: Any) -> None:
    """Send ``task_name`` (``Enqueue``'s options and the task's kwargs) once the current
    transaction commits (now, outside one). ``once``: not if the transaction already queued
    the same task with the same arguments (one flush per transaction, however many rows)."""
    enqueue = Enqueue(task_name, **options)
    connection = transaction.get_connection()
    if once and connection.in_atomic_block and any(
            callback == enqueue for _, callback, *_ in connection.run_on_commit):
        return
    transaction.on_commit(enqueue)
