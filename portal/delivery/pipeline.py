"""The delivery pipeline: the one way anything leaves the site (mail, web push, webhooks).

Every message is a row first (``deliver``: once per dedupe key, in the caller's transaction),
and one flush per transaction and channel is queued on commit. A flush claims a batch of due
rows (``SKIP LOCKED``; marked sending with a lease, attempts + 1, committed before anything is
sent), hands it to its channel (``Channel.send``, no transaction open) and records what each
row's ``Result`` says in a few bulk updates: sent; retry with back-off (or the Retry-After the
other side asked for); gone (the recipient is no more: the channel's ``gone`` decides what that
means); failed (for good, or after too many attempts). A row whose time to live ran out is
expired, never sent. The sweeper (beat) queues a flush where rows are due: a lost task, a retry's
delayed flush that never came, a worker killed mid-batch (its rows' lease runs out).

A channel only says how to send a batch and what each answer means; a row is sent at most once
per claim, and a claim is given up only by a lease that ran out.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any, ClassVar, TypeVar

from django.db import transaction
from django.utils import timezone

from durable.queue import OUTCOMES, QUEUES, Queue, Result
from durable.worker import Enqueue, enqueue_on_commit
from portal.delivery.models import Delivery

logger = logging.getLogger(__name__)
Status = Delivery.Status
DELIVER_TASK = "portal.delivery.tasks.deliver_due"


class Channel(Queue):
    """A way out: a ``durable.queue.Queue`` whose rows are sent. Subclasses set ``name`` and
    ``model`` (a ``Delivery`` table) and implement ``send``; the numbers come from the
    settings ``<NAME>_<KEY>`` if set, else ``DELIVERY_<KEY>`` (e.g. MAIL_MAX_ATTEMPTS, else
    DELIVERY_MAX_ATTEMPTS)."""

    group = "DELIVERY"
    model: ClassVar[type[Delivery]]

    @property
    def send_ahead(self) -> int:
        return max(1, int(self.setting("SEND_AHEAD")))

    @property
    def gather_seconds(self) -> float:
        return max(0.0, float(self.setting("GATHER_SECONDS")))

    def send(self, rows: list[Any]) -> dict[Any, Result] | Iterator[Any]:
        """Send ``rows`` (claimed, no transaction open): a ``Result`` per row's pk, at once
        (a dict) or as they come (see ``send_batch``). A row left out stays sending until its
        lease runs out (then it is claimed again)."""
        raise NotImplementedError

    def wake(self) -> None:
        Enqueue(DELIVER_TASK, channel=self.name)()


def channels() -> dict[str, Channel]:
    """The delivery channels, by name: the durable queues that are channels (each registers
    with ``durable.queue.register``, which has them swept)."""
    return {name: queue for name, queue in QUEUES.items() if isinstance(queue, Channel)}


def channel(name: str) -> Channel:
    found = channels().get(name)
    if found is None:
        raise LookupError(f"no delivery channel {name!r} (known: {sorted(channels())})")
    return found


def flush_on_commit(name: str, countdown: float | None = None) -> None:
    """Queue one flush of channel ``name`` when the transaction commits (one per transaction,
    however many rows it queued)."""
    enqueue_on_commit(DELIVER_TASK, once=True, channel=name, countdown=countdown)


def deliver(channel_name: str, *, dedupe_key: str, **fields: Any) -> Any:
    """Queue the row ``fields`` on channel ``channel_name`` once per ``dedupe_key`` and a flush
    on commit. Returns the new row, or None if the key was queued before."""
    model = channel(channel_name).model
    fields.setdefault("next_attempt_at", timezone.now())
    row, created = model.objects.get_or_create(dedupe_key=dedupe_key[:200], defaults=fields)
    if not created:
        return None
    flush_on_commit(channel_name)
    return row


T = TypeVar("T")


def run_ahead(produce: Callable[[], Iterator[T]], *, name: str, lead: int = 1,
              gather: float = 0) -> Iterator[list[T]]:
    """The items of ``produce()`` (a generator that sends a row per item), made in a thread
    of their own up to ``lead`` items ahead of the caller and handed over in groups: a group
    is what was made since the caller took the last one, gathered for up to ``gather``
    seconds (until ``lead`` items are ready, or the thread is done). While the caller records
    a group, the rows after it are being sent, so sending overlaps recording, and each record
    costs one round trip for several rows. At most ``2 * lead`` rows are sent but not yet
    recorded (a worker killed then sends those again after their lease). Stopping early (the
    caller leaves the loop) lets the thread finish its row and close ``produce``; an exception
    in it reaches the caller after the items made before it. ``produce`` must not use the
    database (Django's connections are per thread: the caller records)."""
    ready: list[T] = []
    state: dict[str, Any] = {"finished": False, "stop": False, "error": None}
    changed = threading.Condition()

    def run() -> None:
        made = produce()
        try:
            while True:
                with changed:
                    while len(ready) >= lead and not state["stop"]:
                        changed.wait()
                    if state["stop"]:
                        return
                try:
                    item = next(made)
                except StopIteration:
                    return
                with changed:
                    ready.append(item)
                    changed.notify_all()
        except BaseException as error:  # handed to the caller, which decides
            state["error"] = error
        finally:
            made.close()
            with changed:
                state["finished"] = True
                changed.notify_all()

    thread = threading.Thread(target=run, name=f"{name}-sender", daemon=True)
    thread.start()
    try:
        while True:
            with changed:
                while not ready and not state["finished"]:
                    changed.wait()
                if gather:  # more rows to the group, while they come quickly
                    until = time.monotonic() + gather
                    while (len(ready) < lead and not state["finished"]
                           and (left := until - time.monotonic()) > 0):
                        changed.wait(left)
                group = ready[:]
                ready.clear()
                changed.notify_all()
            if group:
                yield group
            elif state["error"] is not None:
                raise state["error"]
            else:
                return
    finally:
        with changed:
            state["stop"] = True
            changed.notify_all()
        thread.join()


def send_batch(chan: Channel, *, limit: int | None = None) -> dict[str, int]:
    """Claim one batch, send it, record it; queue a flush for the earliest retry (the sweeper
    catches a lost one). Returns counts by outcome (all zero: none was due).

    ``Channel.send`` returns its results at once, or yields them as rows are done, a
    ``(pk, Result)`` pair or a dict of several (``run_ahead``'s groups): each is recorded as
    it comes, so a worker killed mid-batch leaves only the rows it had not recorded to go
    again when their lease runs out."""
    rows = chan.claim(limit=limit)
    counts = dict.fromkeys(OUTCOMES, 0)
    if not rows:
        return counts
    by_pk = {row.pk: row for row in rows}
    retries: list[datetime] = []

    def write(results: dict[Any, Result]) -> None:
        done, retry_at = chan.record([by_pk[pk] for pk in results], results)
        for outcome, count in done.items():
            counts[outcome] += count
        if retry_at is not None:
            retries.append(retry_at)
        for pk in results:
            by_pk.pop(pk)

    with _commits_without_waiting():
        try:
            results = chan.send(rows)
            if isinstance(results, dict):
                write(results)
            else:
                for done in results:
                    write(done if isinstance(done, dict) else {done[0]: done[1]})
        except Exception as error:  # the rest of the batch: each row tries again (or fails)
            logger.exception("%s: sending a batch of %s failed", chan.name, len(rows))
            failed = Result("retry", error=f"{type(error).__name__}: {error}")
            write({pk: failed for pk in by_pk})
    if retries:
        countdown = (min(retries) - timezone.now()).total_seconds()
        flush_on_commit(chan.name, countdown=max(1.0, countdown))
    return counts


@contextmanager
def _commits_without_waiting() -> Iterator[None]:
    """While a batch is sent, let each record's commit return before its WAL reaches the disk
    (PostgreSQL's asynchronous commit, for this connection, reset afterwards): recording a row
    as it is sent then costs one round trip, not a disk flush. A worker killed afterwards loses
    nothing (the commit is done); a database that crashes within a fraction of a second may
    lose the last records, and those rows go again after their lease, as with no record."""
    connection = transaction.get_connection()
    if connection.vendor != "postgresql":
        yield
        return
    with connection.cursor() as cursor:
        cursor.execute("SET synchronous_commit TO OFF")
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("RESET synchronous_commit")


def flush(name: str, *, limit: int | None = None, max_batches: int = 1000) -> int:
    """Send channel ``name``'s due rows batch after batch until none is left (or
    ``max_batches``). Several workers may flush at once: each claims rows the others do not
    hold. Returns how many were sent."""
    chan = channel(name)
    total = 0
    for _ in range(max_batches):
        counts = send_batch(chan, limit=limit)
        total += counts["sent"]
        if not any(counts.values()):
            break
    return total


def sweep(now: datetime | None = None) -> dict[str, int]:
    """Every channel's sweep (``Queue.sweep``): the due rows by channel."""
    return {name: chan.sweep(now) for name, chan in channels().items()}


def requeue(name: str, pks: Iterable[Any]) -> int:
    """Send failed rows again, attempts starting over (the admin's action)."""
    return channel(name).requeue(pks)


def queued_keys(channel_name: str, keys: Iterable[str]) -> set[str]:
    """Which of the dedupe ``keys`` channel ``channel_name`` has a row for, in one query."""
    keys = {key[:200] for key in keys}
    if not keys:
        return set()
    return set(channel(channel_name).model.objects.filter(dedupe_key__in=keys)
               .values_list("dedupe_key", flat=True))


def deliver_many(channel_name: str, rows: Iterable[dict[str, Any]]) -> list[Any]:
    """``deliver`` for many rows (each a dict of its fields with its ``dedupe_key``) in two
    queries however many: the keys queued before are read at once, the other rows inserted in
    one ``INSERT ... ON CONFLICT (dedupe_key) DO NOTHING`` (a key another transaction queues
    in between is still queued once), and one flush on commit. Returns the rows that were not
    queued before (not read back: their pk is unset). A key queued by another transaction
    between the read and the insert is in both's returns, and in the table once."""
    chan = channel(channel_name)
    now = timezone.now()
    objects: dict[str, Any] = {}
    for fields in rows:
        fields = dict(fields)
        key = fields.pop("dedupe_key")[:200]
        fields.setdefault("next_attempt_at", now)
        objects.setdefault(key, chan.model(dedupe_key=key, **fields))  # the first one, as deliver
    queued = queued_keys(channel_name, objects)
    new = [row for key, row in objects.items() if key not in queued]
    if new:
        chan.model.objects.bulk_create(new, ignore_conflicts=True)
        flush_on_commit(channel_name)
    return new
