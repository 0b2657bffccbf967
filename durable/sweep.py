"""One sweeper for every kind of durable work a crash can leave behind (a task the broker lost,
a worker killed between its claim and its record): the lifecycle's outbox rows, the
deliveries, the messages' notices, the received mail. Each kind registers how to queue again
what it finds undone and how often (``sweep_register``, from its app's ``ready``); one beat
entry runs ``durable.tasks.sweep`` as often as the most frequent kind asks, and each kind runs
when its own interval has passed since its last run by any worker (a key added to the shared
cache for that long: at most once per interval across the workers).

    sweep_register("lifecycle outbox", outbox_sweep,
                   every=lambda: 4 * settings.SWEEP_INTERVAL_SECONDS)
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

from django.core.cache import cache

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Kind:
    """A kind of durable work: ``requeue()`` queues again what a crash left undone and returns
    how many it queued; ``every()`` is the seconds between two of its sweeps (read when the
    sweep runs, so that settings changed by tests or the environment apply)."""

    name: str
    requeue: Callable[[], int | dict]
    every: Callable[[], float]


_KINDS: dict[str, Kind] = {}


def sweep_register(name: str, requeue: Callable[[], int | dict], *,
                   every: Callable[[], float]) -> None:
    """Sweep ``name`` with ``requeue`` every ``every()`` seconds (registered again: replaced)."""
    _KINDS[name] = Kind(name, requeue, every)


def sweep_unregister(name: str) -> None:
    """Sweep ``name`` no more."""
    _KINDS.pop(name, None)


def kinds() -> dict[str, Kind]:
    """The kinds registered, by name."""
    return dict(_KINDS)


def sweep(*, due_only: bool = True) -> dict[str, int | dict]:
    """Run the sweep of each kind whose interval has passed (every kind with ``due_only``
    False). A kind that fails is logged and the others still run. Returns what each kind run
    queued, by name."""
    done: dict[str, int | dict] = {}
    for kind in list(_KINDS.values()):
        mark = "durable:sweep:" + kind.name.replace(" ", "-")
        if due_only and not cache.add(mark, True, timeout=max(1, round(kind.every()))):
            continue
        try:
            done[kind.name] = kind.requeue()
        except Exception:  # one kind's failure must not keep the others' work undone
            logger.exception("the sweep of %s failed", kind.name)
    return done
