"""The outbox: the durable queue's generic jobs (``durable.models.OutboxEvent``), each a signal
to send to its listeners or a task to run, with its payload.

A transaction that causes side effects promises them as rows written in that transaction
(``outbox_write``: one INSERT for all of them), so they exist exactly when the change they
report does; a worker carries them out after the commit (``outbox_dispatch``): told of them
by the relay (``durable/relay.py``, on PostgreSQL), or by a task queued on commit where there
is none, or by the sweeper if neither came (``OutboxQueue.sweep``: a crash between the commit
and the queue, a lost broker message, a worker killed with rows claimed). Rows are claimed,
retried with back-off and given up by ``durable.queue``, as every kind of durable work; a
row may be written due later (``due``: the message notices' gathering), and is carried out
then.

What a kind of row means is its carrier's (``carrier_register``, from an app's ``ready``):
the games register their signals (``kind="signal"``) and the tasks (``kind="task"``), each
with the Celery queue their dispatch goes to and, for a batch of one name, a way to carry
out many payloads at once.
"""

from __future__ import annotations

import logging
import traceback
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import DatabaseError, transaction
from django.db.models import Max, QuerySet
from django.utils import timezone

from dbops.bulk import rows_insert
from durable.models import OutboxEvent
from durable.queue import Queue, Result, Status
from durable.queue import register as queue_register
from durable.worker import Enqueue, task_named

logger = logging.getLogger(__name__)
DISPATCH_TASK = "durable.tasks.outbox_dispatch"


# -- carriers -------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Carrier:
    """How rows of one kind are carried out: ``one(name, payload)``; ``many(name,
    payloads)`` for a batch of one name (None: one at a time); ``queue``: the Celery queue
    their dispatch goes to (None: the default)."""

    one: Callable[[str, dict], None]
    many: Callable[[str, list[dict]], bool] | None = None
    queue: str | None = None


_CARRIERS: dict[str, Carrier] = {}


def carrier_register(kind: str, *, one: Callable[[str, dict], None],
                     many: Callable[[str, list[dict]], bool] | None = None,
                     queue: str | None = None) -> None:
    """Carry out rows of ``kind`` with ``one`` (and ``many``: returns False when it cannot
    take that name's batch, which then goes one row at a time)."""
    _CARRIERS[kind] = Carrier(one, many, queue)


def run_task(name: str, payload: dict) -> None:
    """Run the task ``name`` with ``payload`` here, as its worker would (a task row)."""
    task_named(name).run(**payload)


def _carrier(kind: str) -> Carrier:
    try:
        return _CARRIERS[kind]
    except KeyError:
        raise LookupError(f"no outbox carrier for {kind!r} (known: {sorted(_CARRIERS)})") from None


# -- writing --------------------------------------------------------------------------------------

def task_event(name: str, series: int | None = None, /, *, due: datetime | None = None,
               **payload: Any) -> tuple:
    """The task ``name`` to run with ``payload`` (in the series ``series``: a match's id, or
    None), at once or when ``due``, for ``outbox_write``."""
    return ("task", name, series, payload, due)


def outbox_write(events: list[tuple]) -> list[OutboxEvent]:
    """Promise ``events`` in the current transaction: one INSERT for all of them, carried out
    after the commit by a worker (through the relay, or queued on commit where there is
    none). An event is ``(kind, name, series, payload)``, with a fifth item, the time it is
    due, if it is not due at once; rows of one ``series`` (a match) are carried out in the
    order written."""
    if not events:
        return []
    now = timezone.now()
    rows = [OutboxEvent(kind=kind, name=name, series=series, payload=payload, created_at=now,
                        next_attempt_at=due[0] if due and due[0] is not None else now)
            for kind, name, series, payload, *due in events]
    rows_insert(rows, then=lambda: _dispatch_on_commit(rows))
    return rows


def relayed() -> bool:
    """Whether the relay carries out what this process writes to the outbox: on PostgreSQL
    (whose trigger notifies the relay at each commit) unless settings.OUTBOX_RELAY is off.
    Then a transaction publishes nothing itself."""
    return settings.OUTBOX_RELAY and transaction.get_connection().vendor == "postgresql"


def _dispatch_on_commit(rows: list[OutboxEvent]) -> None:
    """Queue (on commit) the dispatch of outbox ``rows``, unless the relay does."""
    if not relayed():
        for enqueue in _dispatches([(row.pk, row.kind) for row in rows]):
            transaction.on_commit(enqueue)


def dispatch(pairs: list[tuple[int, str]], *, now: bool = False,
             countdown: float | None = None) -> bool:
    """Queue the dispatch of the outbox rows ``pairs`` (id, kind) whatever the relay does (the
    sweeper's and the relay's own): on commit (at once outside a transaction), or ``now``
    without asking the database. A broker that refuses is logged; the sweeper queues the
    rows again. Returns False if it refused what was queued at once."""
    sent = True
    at_once = now or not transaction.get_connection().in_atomic_block
    for enqueue in _dispatches(pairs, countdown):
        if at_once:
            sent = enqueue() and sent
        else:
            transaction.on_commit(enqueue)
    return sent


def _dispatches(pairs: list[tuple[int, str]], countdown: float | None = None) -> list[Enqueue]:
    """One dispatch task per Celery queue the rows' carriers name."""
    by_queue: dict[str | None, list[int]] = {}
    for pk, kind in pairs:
        by_queue.setdefault(_carrier(kind).queue, []).append(pk)
    return [Enqueue(DISPATCH_TASK, ids=ids, queue=queue, countdown=countdown)
            for queue, ids in by_queue.items()]


# -- carrying out ---------------------------------------------------------------------------------

class OutboxQueue(Queue):
    """The outbox rows as a kind of durable work: settings OUTBOX_<KEY>."""

    name = "outbox"
    model = OutboxEvent

    def wake(self) -> None:
        _queue_undone(UNDONE.filter(self.waiting()))

    def sweep(self, now: datetime | None = None) -> int:
        return outbox_sweep(now=now)


OUTBOX = queue_register(OutboxQueue())
# The rows not done (the partial index durable_outbox_undone: the sweeper's and the catch-up's
# reads go through it, however many done rows the table holds).
UNDONE = OutboxEvent.objects.filter(done_at__isnull=True)


def _carry_out(row: OutboxEvent) -> None:
    _carrier(row.kind).one(row.name, row.payload)


def _carry_out_many(rows: list[OutboxEvent]) -> None:
    """Carry out ``rows``, all of one name, at once where their carrier can (the signals'
    listeners that take many payloads read and write for all of them in one go, so a batch
    costs about the queries of one row)."""
    carrier = _carrier(rows[0].kind)
    if len(rows) > 1 and carrier.many is not None and carrier.many(
            rows[0].name, [row.payload for row in rows]):
        return
    for row in rows:
        carrier.one(row.name, row.payload)


def _batches(rows: list[OutboxEvent]) -> list[list[OutboxEvent]]:
    """``rows`` in batches of one kind and name each, in the order to carry them out: a
    series' rows keep their order (its second row in ``rows`` is in a batch after its
    first's), rows of different series go together."""
    seen: Counter[Any] = Counter()
    batches: dict[tuple[int, str, str], list[OutboxEvent]] = {}
    for row in rows:
        series = row.series if row.series is not None else ("row", row.pk)
        layer = seen[series]
        seen[series] += 1
        batches.setdefault((layer, row.kind, row.name), []).append(row)
    return [batch for _key, batch in sorted(batches.items(), key=lambda item: item[0][0])]


def outbox_dispatch(*, ids: list[Any]) -> int:
    """Carry out the outbox rows ``ids`` that are still to do and due. They are claimed
    together (``Queue.claim``: one short transaction); then each one's carrier runs as it
    would right after a commit, settings.OUTBOX_COMMIT_ROWS rows to a transaction: the rows
    of one name as one batch in a savepoint (``_carry_out_together``), the rows marked done
    in the transaction of their work, and what the listeners queue on commit (the mail's
    flush) queued once for them all. A row that fails is rolled back alone and tried again
    in a transaction of its own (a lone row goes there at once; so does every row of a
    group whose commit failed), so it never takes the others' work down; a failure is
    recorded with the queue's back-off. A concurrent dispatcher skips a claimed row; a row
    not due yet is left, its dispatch queued again for when it is. Returns how many were
    done."""
    now = timezone.now()
    rows = OUTBOX.claim(ids=ids, now=now, limit=len(ids) or 1)
    if len(rows) < len(ids):
        _later(set(ids) - {row.pk for row in rows}, now)
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


def _later(ids: set[Any], now: datetime) -> None:
    """Queue again, for when they are due, the dispatch of the rows of ``ids`` not due yet
    (written due later, or waiting for a retry; or due a moment from now by this worker's
    clock)."""
    later = list(OutboxEvent.objects.filter(
        pk__in=ids, status__in=[Status.QUEUED, Status.RETRY], next_attempt_at__gt=now,
    ).values_list("pk", "kind", "next_attempt_at"))
    if later:
        dispatch([(pk, kind) for pk, kind, _ in later], now=True,
                 countdown=(min(due for *_, due in later) - now).total_seconds())


def _done(rows: list[OutboxEvent]) -> None:
    OutboxEvent.objects.filter(pk__in=[row.pk for row in rows]).update(
        status=Status.SENT, done_at=timezone.now(), next_attempt_at=None)


def _carry_out_together(rows: list[OutboxEvent]) -> list[OutboxEvent]:
    """Carry out ``rows`` in one transaction, a batch of one name at a time in a savepoint
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
            _done([row for row in rows if row not in failed])
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
    recorded on the row (``Queue.record``: tried again after the back-off, failed for good
    after the most attempts). Returns 1 if done."""
    try:
        with transaction.atomic():  # the carrier's work and "done" commit together
            _carry_out(row)
            _done([row])
    except Exception as error:  # a failing listener: recorded; tried again after a back-off
        logger.exception("outbox row %s (%s %s) failed", row.pk, row.kind, row.name)
        _counts, retry_at = OUTBOX.record([row], {row.pk: Result(
            "retry", error="".join(traceback.format_exception(error))[-5000:])})
        if retry_at is not None:  # (lost: the sweeper finds it once due)
            dispatch([(row.pk, row.kind)], now=True,
                     countdown=(retry_at - timezone.now()).total_seconds())
        return 0
    return 1


# -- what a crash left undone ---------------------------------------------------------------------

def outbox_sweep(*, now: datetime | None = None) -> int:
    """Queue the dispatch of every row overdue that nobody holds: due longer than the grace
    and still undone (the relay's or the commit's dispatch was lost, a retry's too), or held
    past its lease (its worker died). Returns how many rows were queued."""
    return _queue_undone(UNDONE.filter(OUTBOX.overdue(now or timezone.now())))


def outbox_catch_up() -> int:
    """Queue the dispatch of every undone row nobody holds, however recent (the relay's, on
    taking the lead: rows written while no relay listened). It goes up to the newest row when
    it starts, by id rather than by clock: a row committed before the relay listened has an
    id no higher, and one committed after is notified. Returns how many rows were queued."""
    newest = OutboxEvent.objects.aggregate(newest=Max("pk"))["newest"]
    if newest is None:
        return 0
    return _queue_undone(UNDONE.filter(OUTBOX.waiting(timezone.now()), pk__lte=newest))


def _queue_undone(rows: QuerySet[OutboxEvent]) -> int:
    """Queue the dispatch of ``rows``, a batch (settings.OUTBOX_BATCH_SIZE) at a time in id
    order, each batch read after the last one's highest id, until none is left: one batch in
    memory whatever the backlog. A broker that refuses ends it (the sweeper finds the rest).
    Returns how many rows were queued."""
    size = OUTBOX.batch_size
    queued, after = 0, 0
    while batch := list(rows.filter(pk__gt=after).order_by("pk").values_list("pk", "kind")[:size]):
        if not dispatch(batch):
            break
        queued += len(batch)
        after = batch[-1][0]
    return queued
