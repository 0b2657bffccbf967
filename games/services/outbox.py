"""Carrying out the lifecycle's outbox (``queue.outbox_write``): each promised signal is sent to
its listeners and each promised task run, in the worker, as they would run right after the
commit (many rows to a transaction, a signal's rows as one batch in a savepoint, with their
"done" marks); the sweeper re-dispatches rows that stayed undone (a crash between a commit and
its queue, a lost broker message, a worker that died with a row claimed)."""

from __future__ import annotations

import logging
import traceback
from collections import Counter
from datetime import datetime, timedelta
from typing import Any

from celery import current_app
from django.conf import settings
from django.db import DatabaseError, transaction
from django.db.models import F, Max, Q, QuerySet
from django.utils import timezone
from django.utils.module_loading import import_string

from games.models import OutboxEvent
from games.services.queue import dispatch
from games.signals import BY_NAME, send_many

logger = logging.getLogger(__name__)

# A row that failed this often is left for the admins (its last error is on it).
MAX_ATTEMPTS = 5


def _carry_out(row: OutboxEvent) -> None:
    if row.kind == OutboxEvent.Kind.SIGNAL:
        signal = BY_NAME[row.name]
        for receiver, response in signal.send_robust(sender=None, **row.payload):
            if isinstance(response, Exception):
                raise RuntimeError(f"listener {receiver!r} failed") from response
    else:
        from games import tasks  # noqa: F401  registers the tasks (imported late: a cycle)

        current_app.tasks[row.name].run(**row.payload)


# Lifecycle tasks that can carry out many rows in one call (``name`` -> "module.function"
# taking the rows' payloads); any other task runs once per row.
MANY_TASKS = {
    "games.tasks.deadline_misses_record": "games.services.reliability.deadline_misses_records",
}


def _carry_out_many(rows: list[OutboxEvent]) -> None:
    """Carry out ``rows``, all of one signal (or task), at once: the listeners that take many
    payloads (``signals.receiver_of_many``) read and write for all of them in one go, so a
    batch costs about the queries of one row."""
    if len(rows) == 1:
        _carry_out(rows[0])
        return
    payloads = [row.payload for row in rows]
    if rows[0].kind == OutboxEvent.Kind.SIGNAL:
        send_many(BY_NAME[rows[0].name], payloads)
    elif rows[0].name in MANY_TASKS:
        import_string(MANY_TASKS[rows[0].name])(payloads)
    else:
        for row in rows:
            _carry_out(row)


def _batches(rows: list[OutboxEvent]) -> list[list[OutboxEvent]]:
    """``rows`` in batches of one signal (or task) each, in the order to carry them out: a
    match's rows keep their order (its second row in ``rows`` is in a batch after its
    first's), rows of different matches go together."""
    seen: Counter[Any] = Counter()
    batches: dict[tuple[int, str, str], list[OutboxEvent]] = {}
    for row in rows:
        match = row.match_id if row.match_id is not None else ("row", row.pk)
        layer = seen[match]
        seen[match] += 1
        batches.setdefault((layer, row.kind, row.name), []).append(row)
    return [batch for _key, batch in sorted(batches.items(), key=lambda item: item[0][0])]


def _claim(row_ids: list[Any], now: datetime) -> list[OutboxEvent]:
    """Take the rows of ``row_ids`` still to do that nobody else holds (a claim older than the
    grace time counts as lost: its worker died), in id order. One short transaction, committed
    at once."""
    stale = now - timedelta(seconds=settings.OUTBOX_GRACE_SECONDS)
    with transaction.atomic():
        rows = list(OutboxEvent.objects.select_for_update(skip_locked=True)
                    .filter(Q(claimed_at__isnull=True) | Q(claimed_at__lt=stale),
                            pk__in=row_ids, done_at__isnull=True).order_by("pk"))
        if rows:
            OutboxEvent.objects.filter(pk__in=[row.pk for row in rows]).update(
                claimed_at=now, attempts=F("attempts") + 1)
    return rows


def outbox_dispatch(*, ids: list[Any]) -> int:
    """Carry out the outbox rows ``ids`` that are still to do. They are claimed together in one
    short transaction; then each one's listeners (or task) run as they would right after a
    commit, settings.OUTBOX_COMMIT_ROWS rows to a transaction: the rows of one signal as one
    batch in a savepoint (``_carry_out_together``), the rows marked done in the transaction of
    their work, and what the listeners queue on commit (the mail's flush) queued once for
    them all. A row that fails is rolled back alone and tried again in a transaction of its
    own (a lone row goes there at once; so
    does every row of a group whose commit failed), so it never takes the others' work
    down; a concurrent dispatcher skips a claimed row. Returns how many were done."""
    rows = _claim(list(ids), timezone.now())
    done = 0
    size = settings.OUTBOX_COMMIT_ROWS
    for start in range(0, len(rows), size):
        group = rows[start:start + size]
        try:
            failed = _carry_out_together(group) if len(group) > 1 else group
        except DatabaseError:  # the group's commit failed: its rows, one by one
            logger.exception("outbox rows %s: the group failed; each on its own",
                             [row.pk for row in group])
            failed = group
        done += len(group) - len(failed) + sum(_carry_out_alone(row) for row in failed)
    return done


def _carry_out_together(rows: list[OutboxEvent]) -> list[OutboxEvent]:
    """Carry out ``rows`` in one transaction, a batch of one signal at a time in a savepoint
    (``_batches``), and mark them done in it. A batch that fails is rolled back and its rows
    tried each in a savepoint of its own; returns the rows that failed there too (their work
    rolled back, nothing recorded)."""
    failed: list[OutboxEvent] = []
    with transaction.atomic():
        for batch in _batches(rows):
            try:
                with transaction.atomic():
                    _carry_out_many(batch)
            except Exception:  # rolled back: each row on its own, only the failing left out
                failed += batch if len(batch) == 1 else _carry_out_each(batch)
        if len(failed) < len(rows):
            OutboxEvent.objects.filter(pk__in=[row.pk for row in rows if row not in failed]
                                       ).update(done_at=timezone.now())
    return failed


def _carry_out_each(rows: list[OutboxEvent]) -> list[OutboxEvent]:
    """Carry out each of ``rows`` in a savepoint of its own; returns those that failed (tried
    again on their own later: a lock timeout may pass)."""
    failed = []
    for row in rows:
        try:
            with transaction.atomic():
                _carry_out(row)
        except Exception:
            failed.append(row)
    return failed


def _carry_out_alone(row: OutboxEvent) -> int:
    """Carry out ``row`` in a transaction of its own with its "done" mark; a failure is
    recorded on the row, which is freed for the sweeper. Returns 1 if done."""
    try:
        with transaction.atomic():  # the listeners' work and "done" commit together
            _carry_out(row)
            OutboxEvent.objects.filter(pk=row.pk).update(done_at=timezone.now())
    except Exception as error:  # a failing listener: recorded; the sweeper retries it
        logger.exception("outbox row %s (%s %s) failed", row.pk, row.kind, row.name)
        OutboxEvent.objects.filter(pk=row.pk).update(
            claimed_at=None, last_error="".join(traceback.format_exception(error))[-5000:])
        return 0
    return 1


def outbox_sweep(*, now: datetime | None = None) -> int:
    """Queue dispatch of every row still undone the grace time after it was written that
    nobody holds (beat's backstop). Returns how many rows were queued."""
    now = now or timezone.now()
    written = now - timedelta(seconds=settings.OUTBOX_GRACE_SECONDS)
    return _queue_undone(_undone(now).filter(created_at__lte=written))


def outbox_catch_up() -> int:
    """Queue dispatch of every undone row nobody holds, however recent (the relay's, on taking
    the lead: rows written while no relay listened). It goes up to the newest row when it
    starts, by id rather than by clock: a row committed before the relay listened has an id
    no higher, and one committed after is notified. Returns how many rows were queued."""
    newest = OutboxEvent.objects.aggregate(newest=Max("pk"))["newest"]
    if newest is None:
        return 0
    return _queue_undone(_undone(timezone.now()).filter(pk__lte=newest))


def _undone(now: datetime) -> QuerySet[OutboxEvent]:
    """Rows still to do that nobody holds (a claim older than the grace time counts as lost),
    short of those left for the admins."""
    stale = now - timedelta(seconds=settings.OUTBOX_GRACE_SECONDS)
    return OutboxEvent.objects.filter(Q(claimed_at__isnull=True) | Q(claimed_at__lt=stale),
                                      done_at__isnull=True, attempts__lt=MAX_ATTEMPTS)


def _queue_undone(rows: QuerySet[OutboxEvent]) -> int:
    """Queue the dispatch of ``rows``, a batch (settings.OUTBOX_DISPATCH_BATCH) at a time in id
    order, each batch read after the last one's highest id, until none is left: one batch in
    memory whatever the backlog. A broker that refuses ends it (the sweeper finds the rest).
    Returns how many rows were queued."""
    size = settings.OUTBOX_DISPATCH_BATCH
    queued, after = 0, 0
    while batch := list(rows.filter(pk__gt=after).order_by("pk").values_list("pk", "kind")[:size]):
        if not dispatch(batch):
            break
        queued += len(batch)
        after = batch[-1][0]
    return queued
