"""Side effects of the lifecycle: the transactional outbox, and queueing Celery tasks on commit
without ever failing the caller's request.

Orders live in the database; the queue only speeds things up. Every side effect a lifecycle
transaction causes (signals to listeners such as the mail, bot tasks) is promised as an
``OutboxEvent`` row written in that transaction (``outbox_write``: one statement for all of a
phase's effects) and carried out after the commit by a worker (``outbox_dispatch``); the
sweeper finishes what a crash or a lost broker message left undone. Resolution itself needs no
row: the sweeper finds complete-but-unresolved and overdue phases in the match rows.
"""

from __future__ import annotations

import logging
from importlib import import_module
from typing import Any

from celery import current_app
from celery.utils import uuid
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.bulk import rows_insert
from games.models import OutboxEvent

logger = logging.getLogger(__name__)

# Keep a request short when the broker is unreachable: one quick retry, then give up.
PUBLISH_RETRY_POLICY = {"max_retries": 1, "interval_start": 0, "interval_step": 0.2,
                        "interval_max": 0.5}


# The queue of the work players wait for (resolutions, ticks, bots' moves): workers take from
# it before the default queue (settings.CELERY_TASK_QUEUES, Redis's "priority" order), so a
# backlog of notifications never holds up the next phase.
LIFECYCLE_QUEUE = "lifecycle"


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
        task = _task(self.task_name)
        # What the worker's log shows of the arguments: Celery's own (a "safe" repr, walking
        # every value) cost a tenth of each publish; these are ids and numbers.
        shown = repr(self.kwargs)[:1000]
        try:
            if task.app.conf.task_always_eager:  # run inline, as apply_async does
                task.apply_async(kwargs=self.kwargs, argsrepr="()", kwargsrepr=shown)
            else:
                _publish(task, self.kwargs, self.queue, self.countdown, shown)
        except Exception:  # the broker is down or refused: the sweeper will catch up
            logger.exception("could not queue %s %s; the sweeper will pick it up",
                             self.task_name, self.kwargs)
            return False
        return True


def _task(name: str) -> Any:
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


# -- the transactional outbox ---------------------------------------------------------------------

def signal_event(name: str, match: int | None = None, /, **payload: Any) -> tuple:
    """A signal of ``games.signals.BY_NAME`` to send (with ``payload``) about match id
    ``match``, for ``outbox_write``."""
    return ("signal", name, match, payload)


def task_event(name: str, match: int | None = None, /, **payload: Any) -> tuple:
    """A lifecycle task (``games.tasks``) to run (with ``payload``) about match id ``match``,
    for ``outbox_write``."""
    return ("task", name, match, payload)


def outbox_write(events: list[tuple]) -> None:
    """Promise ``events`` (``signal_event``/``task_event``) in the current transaction: one
    INSERT for all of them, carried out after the commit by a worker (``dispatch``: through
    the relay, or queued on commit where there is none)."""
    if not events:
        return
    now = timezone.now()
    rows = [OutboxEvent(kind=kind, name=name, match_id=match_id, payload=payload, created_at=now)
            for kind, name, match_id, payload in events]
    rows_insert(rows, then=lambda: dispatch_on_commit(rows))


def relayed() -> bool:
    """Whether the outbox relay carries out what this process writes to the outbox: on
    PostgreSQL (whose trigger notifies the relay at each commit, ``games/relay.py``) unless
    settings.OUTBOX_RELAY is off. Then a transaction publishes nothing itself."""
    return settings.OUTBOX_RELAY and transaction.get_connection().vendor == "postgresql"


def dispatch_on_commit(rows: list[OutboxEvent]) -> None:
    """Queue (on commit) the dispatch of outbox ``rows``, unless the relay does."""
    if not relayed():
        for enqueue in _dispatches([(row.pk, row.kind) for row in rows]):
            transaction.on_commit(enqueue)


def dispatch(pairs: list[tuple[int, str]], *, now: bool = False) -> bool:
    """Queue the dispatch of the outbox rows ``pairs`` (id, kind) whatever the relay does (the
    sweeper's and the relay's own): on commit (at once outside a transaction), or ``now``
    without asking the database. A broker that refuses is logged; the sweeper queues the
    rows again. Returns False if it refused what was queued at once."""
    sent = True
    at_once = now or not transaction.get_connection().in_atomic_block
    for enqueue in _dispatches(pairs):
        if at_once:
            sent = enqueue() and sent
        else:
            transaction.on_commit(enqueue)
    return sent


def _dispatches(pairs: list[tuple[int, str]]) -> list[Enqueue]:
    """One task per queue: lifecycle tasks (bots' moves, records) on the lifecycle queue,
    signals (whose listeners write notifications) on the default one."""
    tasks = [pk for pk, kind in pairs if kind == OutboxEvent.Kind.TASK]
    signals = [pk for pk, kind in pairs if kind != OutboxEvent.Kind.TASK]
    return ([Enqueue("games.tasks.outbox_dispatch", ids=tasks, queue=LIFECYCLE_QUEUE)]
            if tasks else []) + ([Enqueue("games.tasks.outbox_dispatch", ids=signals)]
                                 if signals else [])
