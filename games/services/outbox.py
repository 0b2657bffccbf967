"""Carrying out the lifecycle's outbox (``queue.outbox_write``): each promised signal is sent to
its listeners and each promised task run, in the worker, once; the sweeper re-dispatches rows
that stayed undone (a crash between a commit and its queue, a lost broker message)."""

from __future__ import annotations

import logging
import traceback
from datetime import datetime, timedelta
from typing import Any

from celery import current_app
from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from games.models import OutboxEvent
from games.services.queue import enqueue_on_commit
from games.signals import BY_NAME

logger = logging.getLogger(__name__)

# A row that failed this often is left for the admins (its last error is on it).
MAX_ATTEMPTS = 5
DISPATCH_BATCH = 200


def _carry_out(row: OutboxEvent) -> None:
    if row.kind == OutboxEvent.Kind.SIGNAL:
        signal = BY_NAME[row.name]
        for receiver, response in signal.send_robust(sender=None, **row.payload):
            if isinstance(response, Exception):
                raise RuntimeError(f"listener {receiver!r} failed") from response
    else:
        from games import tasks  # noqa: F401  registers the tasks (imported late: a cycle)

        current_app.tasks[row.name].run(**row.payload)


def outbox_dispatch(*, ids: list[Any]) -> int:
    """Carry out the outbox rows ``ids`` that are still to do, each in its own transaction with
    its row locked (a concurrent dispatcher skips it). Returns how many were done."""
    done = 0
    for row_id in ids:
        try:
            with transaction.atomic():
                row = (OutboxEvent.objects.select_for_update(skip_locked=True)
                       .filter(pk=row_id, done_at__isnull=True).first())
                if row is None:
                    continue
                _carry_out(row)
                row.done_at = timezone.now()
                row.save(update_fields=["done_at"])
                done += 1
        except Exception as error:  # a failing listener: counted; the sweeper retries it
            logger.exception("outbox row %s failed", row_id)
            OutboxEvent.objects.filter(pk=row_id).update(
                attempts=F("attempts") + 1,
                last_error="".join(traceback.format_exception(error))[-5000:])
    return done


def outbox_sweep(*, now: datetime | None = None) -> int:
    """Queue dispatch of rows still undone after the grace time (in batches). Returns how many
    rows were queued."""
    now = now or timezone.now()
    grace = timedelta(seconds=settings.OUTBOX_GRACE_SECONDS)
    ids = list(OutboxEvent.objects.filter(done_at__isnull=True, created_at__lte=now - grace,
                                          attempts__lt=MAX_ATTEMPTS)
               .order_by("created_at").values_list("pk", flat=True)[:10 * DISPATCH_BATCH])
    for start in range(0, len(ids), DISPATCH_BATCH):
        enqueue_on_commit("games.tasks.outbox_dispatch", ids=ids[start:start + DISPATCH_BATCH])
    return len(ids)
