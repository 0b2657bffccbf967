"""Beat's jobs for the signals: delete traces past their retention; look for signals."""

from __future__ import annotations

from celery import shared_task

TASK_OPTIONS = {"acks_late": True, "reject_on_worker_lost": True, "ignore_result": True}


@shared_task(name="portal.signals.tasks.traces_prune", **TASK_OPTIONS)
def traces_prune() -> int:
    from portal.signals.traces import traces_prune as prune

    return prune()


@shared_task(name="portal.signals.tasks.signals_scan", **TASK_OPTIONS)
def signals_scan() -> int:
    from portal.signals.detect import signals_scan_recent

    return signals_scan_recent()
