"""The lifecycle's side effects, as rows of the outbox (``durable.outbox``).

Orders live in the database; the queue only speeds things up. Every side effect a lifecycle
transaction causes (signals to listeners such as the mail, bot tasks) is promised as an outbox
row written in that transaction (``durable.outbox.outbox_write``: one statement for all of a
phase's effects, built by ``signal_event`` here and ``durable.outbox.task_event``) and carried
out after the commit by a worker. Resolution itself needs no row: the sweeper finds
complete-but-unresolved and overdue phases in the match rows.

``carriers_register`` (from the app's ``ready``) tells the outbox how the two kinds of row are
carried out: a signal of ``games.signals.BY_NAME`` sent to its listeners (a batch of one
signal at once, ``signals.send_many``), on the default Celery queue; a task run by name, on
the lifecycle queue.
"""

from __future__ import annotations

from typing import Any

from django.utils.module_loading import import_string

from durable import outbox

# The queue of the work players wait for (resolutions, ticks, bots' moves): workers take from
# it before the default queue (settings.CELERY_TASK_QUEUES, Redis's "priority" order), so a
# backlog of notifications never holds up the next phase.
LIFECYCLE_QUEUE = "lifecycle"

# Lifecycle tasks that can carry out many rows in one call (``name`` -> "module.function"
# taking the rows' payloads); any other task runs once per row.
MANY_TASKS = {
    "games.tasks.deadline_misses_record": "games.services.reliability.deadline_misses_records",
}


def signal_event(name: str, match: int | None = None, /, **payload: Any) -> tuple:
    """A signal of ``games.signals.BY_NAME`` to send (with ``payload``) about match id
    ``match``, for ``outbox_write``."""
    return ("signal", name, match, payload)


def _tasks_many(name: str, payloads: list[dict]) -> bool:
    if name not in MANY_TASKS:
        return False
    import_string(MANY_TASKS[name])(payloads)
    return True


def carriers_register() -> None:
    """How the outbox carries out the lifecycle's rows (the app's ``ready``)."""
    from games import signals

    outbox.carrier_register("signal", one=signals.send_by_name, many=signals.send_many_by_name)
    outbox.carrier_register("task", one=outbox.run_task, many=_tasks_many,
                            queue=LIFECYCLE_QUEUE)
