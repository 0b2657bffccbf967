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
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, ClassVar, Literal, TypeVar

from django.conf import settings
from django.db import transaction
from django.db.models import F, Q, QuerySet
from django.utils import timezone

from games.bulk import one_round_trip, rows_update
from games.services.queue import Enqueue, enqueue_on_commit
from portal.delivery.models import Delivery

logger = logging.getLogger(__name__)
Status = Delivery.Status
DELIVER_TASK = "portal.delivery.tasks.deliver_due"


@dataclass(frozen=True)
class Result:
    """What became of one row's sending. ``retry_after``: the other side asked to wait this
    many seconds (instead of the back-off); ``response_status``: its status code, kept."""

    outcome: Literal["sent", "retry", "gone", "failed"]
    error: str = ""
    retry_after: float | None = None
    response_status: int | None = None


SENT = Result("sent")


class Channel:
    """A way out. Subclasses set ``name`` and ``model`` (a ``Delivery`` table) and implement
    ``send``; the numbers come from the settings ``<NAME>_<KEY>`` if set, else
    ``DELIVERY_<KEY>`` (e.g. MAIL_MAX_ATTEMPTS, else DELIVERY_MAX_ATTEMPTS)."""

    name: ClassVar[str]
    model: ClassVar[type[Delivery]]
    # The model's field after which a row is never sent (push's time to live), if any.
    expires_field: ClassVar[str | None] = None

    def setting(self, key: str) -> Any:
        return getattr(settings, f"{self.name.upper()}_{key}",
                       getattr(settings, f"DELIVERY_{key}"))

    @property
    def batch_size(self) -> int:
        return int(self.setting("BATCH_SIZE"))

    @property
    def max_attempts(self) -> int:
        return int(self.setting("MAX_ATTEMPTS"))

    @property
    def retry_base_seconds(self) -> float:
        return float(self.setting("RETRY_BASE_SECONDS"))

    @property
    def max_backoff_seconds(self) -> float:
        return float(self.setting("MAX_BACKOFF_SECONDS"))

    @property
    def send_ahead(self) -> int:
        return max(1, int(self.setting("SEND_AHEAD")))

    @property
    def gather_seconds(self) -> float:
        return max(0.0, float(self.setting("GATHER_SECONDS")))

    @property
    def lease_seconds(self) -> float:
        return float(self.setting("LEASE_SECONDS"))

    def due(self, queryset: QuerySet) -> QuerySet:
        """The claim's query, with what ``send`` reads (select_related) or more filters."""
        return queryset

    def send(self, rows: list[Any]) -> dict[Any, Result] | Iterator[Any]:
        """Send ``rows`` (claimed, no transaction open): a ``Result`` per row's pk, at once
        (a dict) or as they come (see ``send_batch``). A row left out stays sending until its
        lease runs out (then it is claimed again)."""
        raise NotImplementedError

    def gone(self, rows: list[Any]) -> None:
        """The recipients of ``rows`` are gone for good (deleted, unsubscribed by the other
        side). By default the rows are only marked failed."""

    def backoff_seconds(self, attempts: int) -> float:
        return min(self.retry_base_seconds * 2 ** max(attempts - 1, 0), self.max_backoff_seconds)


CHANNELS: dict[str, Channel] = {}


def register(channel: Channel) -> Channel:
    CHANNELS[channel.name] = channel
    return channel


def channel(name: str) -> Channel:
    try:
        return CHANNELS[name]
    except KeyError:
        raise LookupError(f"no delivery channel {name!r} (known: {sorted(CHANNELS)})") from None


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


def claim(chan: Channel, *, limit: int | None = None, now: datetime | None = None) -> list[Any]:
    """Take up to ``limit`` due rows nobody else holds (due queued/retry rows, rows whose lease
    ran out), expire those whose time ran out, mark the rest sending (attempts + 1) and commit:
    the sending that follows holds no transaction."""
    now = now or timezone.now()
    lease_over = now - timedelta(seconds=chan.lease_seconds)
    model = chan.model
    with transaction.atomic():
        rows = list(chan.due(
            model.objects.select_for_update(skip_locked=True, of=("self",))
            .filter(Q(status__in=[Status.QUEUED, Status.RETRY], next_attempt_at__lte=now)
                    | Q(status=Status.SENDING, sending_since__lte=lease_over))
        ).order_by("next_attempt_at", "pk")[:limit or chan.batch_size])
        if chan.expires_field:
            stale = [row.pk for row in rows if getattr(row, chan.expires_field) <= now]
            _expire(model.objects.filter(pk__in=stale))
            rows = [row for row in rows if getattr(row, chan.expires_field) > now]
        model.objects.filter(pk__in=[row.pk for row in rows]).update(
            status=Status.SENDING, sending_since=now, attempts=F("attempts") + 1)
    for row in rows:
        row.status, row.sending_since, row.attempts = Status.SENDING, now, row.attempts + 1
    return rows


def _expire(rows: QuerySet) -> int:
    return rows.update(status=Status.EXPIRED, next_attempt_at=None,
                       last_error="its time to live ran out before it was sent")


def record(chan: Channel, rows: list[Any], results: dict[Any, Result],
           now: datetime | None = None) -> tuple[dict[str, int], datetime | None]:
    """Write what ``results`` say of the claimed ``rows`` (set on them too) in one round trip:
    one UPDATE per outcome and error (``games.bulk.rows_update``: a statement prepared once
    per session, not a queryset compiled per row), the gone ones handed to the channel. A
    retry after the row's last attempt fails, one past its time to live expires. Returns
    counts by outcome (rows left out of ``results`` are not counted) and when the earliest
    retry is due (None: no retry)."""
    now = now or timezone.now()
    counts = dict.fromkeys(OUTCOMES, 0)
    gone = []
    groups: dict[tuple, list[Any]] = defaultdict(list)  # (status, next at, error, code) -> rows
    for row in rows:
        result = results.get(row.pk)
        if result is None:
            continue
        if result.outcome == "gone":
            row.status, row.next_attempt_at, row.last_error = (
                Status.FAILED, None, "the recipient is gone")
            gone.append(row)
            continue
        status, next_at = _status(chan, row, result, now)
        row.status, row.next_attempt_at = status, next_at
        row.last_error, row.response_status = result.error[:2000], result.response_status
        if status == Status.SENT:
            row.sent_at = now
        groups[(status, next_at, row.last_error, result.response_status)].append(row)
    retry_at = None
    with one_round_trip():
        rows_update(gone, ("status", "next_attempt_at", "last_error"))
        for (status, next_at, error, _), group in groups.items():
            rows_update(group, RECORDED + (("sent_at",) if status == Status.SENT else ()))
            counts[status] += len(group)
            if status == Status.RETRY:
                retry_at = min(retry_at or next_at, next_at)
            if status != Status.SENT:
                logger.info("%s: %s row(s) %s: %s", chan.name, len(group), status, error)
    if gone:
        chan.gone(gone)
        counts["gone"] = len(gone)
    return counts, retry_at


RECORDED = ("status", "next_attempt_at", "last_error", "response_status")
OUTCOMES = ("sent", "retry", "gone", "failed", "expired")


def _status(chan: Channel, row: Any, result: Result, now: datetime) -> tuple[str, Any]:
    """The status (and next attempt) a row takes after ``result``."""
    if result.outcome == "sent":
        return Status.SENT, None
    if result.outcome != "retry" or row.attempts >= chan.max_attempts:
        return Status.FAILED, None
    delay = result.retry_after if result.retry_after is not None else chan.backoff_seconds(
        row.attempts)
    next_at = now + timedelta(seconds=delay)
    if chan.expires_field and next_at >= getattr(row, chan.expires_field):
        return Status.EXPIRED, None
    return Status.RETRY, next_at


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
    rows = claim(chan, limit=limit)
    counts = dict.fromkeys(OUTCOMES, 0)
    if not rows:
        return counts
    by_pk = {row.pk: row for row in rows}
    retries: list[datetime] = []

    def write(results: dict[Any, Result]) -> None:
        done, retry_at = record(chan, [by_pk[pk] for pk in results], results)
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
    """Every channel: expire rows whose time ran out, and queue a flush if rows are due (a lost
    flush, a retry whose delayed flush was lost, a lease that ran out). Returns the due rows by
    channel."""
    now = now or timezone.now()
    due = {}
    for name, chan in CHANNELS.items():
        model = chan.model
        if chan.expires_field:
            _expire(model.objects.filter(status__in=[Status.QUEUED, Status.RETRY],
                                         **{f"{chan.expires_field}__lte": now}))
        lease_over = now - timedelta(seconds=chan.lease_seconds)
        due[name] = model.objects.filter(
            Q(status__in=[Status.QUEUED, Status.RETRY], next_attempt_at__lte=now)
            | Q(status=Status.SENDING, sending_since__lte=lease_over)).count()
        if due[name]:  # (queued at once: the sweep's own writes need no commit to be seen)
            Enqueue(DELIVER_TASK, channel=name)()
    return due


def requeue(name: str, pks: Iterable[Any]) -> int:
    """Send failed rows again, attempts starting over (the admin's action)."""
    count = channel(name).model.objects.filter(pk__in=list(pks), status=Status.FAILED).update(
        status=Status.RETRY, attempts=0, next_attempt_at=timezone.now())
    if count:
        flush_on_commit(name)
    return count


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
