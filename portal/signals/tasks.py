"""Beat's jobs for the signals: delete traces past their retention; look for signals."""

from __future__ import annotations

from durable.worker import task


@task("portal.signals.tasks.traces_prune")
def traces_prune() -> int:
    from portal.signals.traces import traces_prune as prune

    return prune()


@task("portal.signals.tasks.signals_scan")
def signals_scan() -> int:
    from portal.signals.detect import signals_scan_recent

    return signals_scan_recent()
