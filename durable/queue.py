"""The one durable work queue's rules: how a row of work (``durable.models.Work``) is claimed,
held, retried, given up and swept, the same for every kind of work (the generic jobs of
``durable.jobs``: the lifecycle's side effects, the message notices, received mail; and each
delivery channel: mail, push, webhooks).

A kind is a ``Queue``: its table (a ``Work``), how to wake a worker for its due rows
(``wake``), and its numbers, read from the settings ``<NAME>_<KEY>``, else
``<GROUP>_<KEY>`` (``DELIVERY_MAX_ATTEMPTS`` for every channel), else ``DURABLE_<KEY>``:

- ``BATCH_SIZE``: rows a worker claims at once;
- ``MAX_ATTEMPTS``: attempts before a row fails for good;
- ``RETRY_BASE_SECONDS``, ``MAX_BACKOFF_SECONDS``: the back-off, doubling from the base up
  to the most (or what the other side asked for: ``Result.retry_after``);
- ``LEASE_SECONDS``: how long a claim holds; a row claimed longer ago is due again (its
  worker died);
- ``GRACE_SECONDS``: how long after a row is due the sweeper takes it (the task queued for
  it normally comes within milliseconds);
- ``SWEEP_SECONDS``: how often the sweeper looks for the kind's due rows.

A worker ``claim``s rows (``SKIP LOCKED``: each row to one worker; marked sending, attempts
+ 1, committed before the work), does the work, and ``record``s a ``Result`` per row: sent;
retry (with back-off); gone (the recipient is no more: failed, and the kind's ``gone``
hook); failed. The sweeper (``durable.sweep``, every kind registered by ``register``) wakes a
worker where rows are due: a lost task, a retry's delayed task that never came, a lease that
ran out.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, ClassVar, Literal

from django.conf import settings
from django.db import transaction
from django.db.models import F, Q, QuerySet
from django.utils import timezone

from dbops.bulk import one_round_trip, rows_update
from durable import sweep as sweeper
from durable.models import Work

logger = logging.getLogger(__name__)
Status = Work.Status


@dataclass(frozen=True)
class Result:
    """What became of one row's work. ``retry_after``: the other side asked to wait this many
    seconds (instead of the back-off); ``response_status``: its status code, kept where the
    table has a place for it."""

    outcome: Literal["sent", "retry", "gone", "failed"]
    error: str = ""
    retry_after: float | None = None
    response_status: int | None = None


SENT = Result("sent")
OUTCOMES = ("sent", "retry", "gone", "failed", "expired")


class Queue:
    """A kind of durable work. Subclasses set ``name``, ``model`` (a ``Work`` table) and
    ``group`` (the settings' shared prefix, if any) and implement ``wake``."""

    name: ClassVar[str]
    model: ClassVar[type[Work]]
    group: ClassVar[str] = ""
    # The model's field after which a row is never done (push's time to live), if any.
    expires_field: ClassVar[str | None] = None
    # The fields ``record`` writes (with ``sent_at`` when the model has it).
    recorded: ClassVar[tuple[str, ...]] = ("status", "next_attempt_at", "last_error")

    def setting(self, key: str) -> Any:
        for prefix in (self.name, self.group, "DURABLE"):
            if prefix and hasattr(settings, f"{prefix.upper()}_{key}"):
                return getattr(settings, f"{prefix.upper()}_{key}")
        raise AttributeError(f"no setting {self.name.upper()}_{key} nor DURABLE_{key}")

    @property
    def batch_size(self) -> int:
        return int(self.setting("BATCH_SIZE"))

    @property
    def max_attempts(self) -> int:
        return int(self.setting("MAX_ATTEMPTS"))

    @property
    def lease_seconds(self) -> float:
        return float(self.setting("LEASE_SECONDS"))

    @property
    def grace_seconds(self) -> float:
        return float(self.setting("GRACE_SECONDS"))

    @property
    def sweep_seconds(self) -> float:
        return float(self.setting("SWEEP_SECONDS"))

    def backoff_seconds(self, attempts: int) -> float:
        """The wait before the next attempt after ``attempts`` failed ones: doubling from
        RETRY_BASE_SECONDS, at most MAX_BACKOFF_SECONDS."""
        return min(float(self.setting("RETRY_BASE_SECONDS")) * 2 ** max(attempts - 1, 0),
                   float(self.setting("MAX_BACKOFF_SECONDS")))

    # -- hooks -------------------------------------------------------------------------------

    def due(self, queryset: QuerySet) -> QuerySet:
        """The claim's query, with what the work reads (select_related) or more filters."""
        return queryset

    def gone(self, rows: list[Any]) -> None:
        """The recipients of ``rows`` are gone for good. By default they are only failed."""

    def wake(self) -> None:
        """Queue a worker's task for the due rows (the sweeper's, when it found some)."""
        raise NotImplementedError

    # -- the rules ---------------------------------------------------------------------------

    def held_lost(self, now: datetime) -> Q:
        """Rows claimed by a worker whose lease ran out (it died)."""
        return Q(status=Status.SENDING,
                 sending_since__lte=now - timedelta(seconds=self.lease_seconds))

    def waiting(self, now: datetime | None = None) -> Q:
        """Rows due now that nobody holds: queued or retrying and due, or held past the
        lease."""
        now = now or timezone.now()
        return (Q(status__in=[Status.QUEUED, Status.RETRY], next_attempt_at__lte=now)
                | self.held_lost(now))

    def overdue(self, now: datetime) -> Q:
        """Rows the sweeper takes: due longer ago than the grace, or held past the lease."""
        grace = now - timedelta(seconds=self.grace_seconds)
        return (Q(status__in=[Status.QUEUED, Status.RETRY], next_attempt_at__lte=grace)
                | self.held_lost(now))

    def claim(self, *, limit: int | None = None, ids: Iterable[Any] | None = None,
              now: datetime | None = None) -> list[Any]:
        """Take up to ``limit`` due rows nobody else holds (with ``ids``: of those), expire
        those whose time ran out, mark the rest sending (attempts + 1) and commit: the work
        that follows holds no transaction."""
        now = now or timezone.now()
        model = self.model
        with transaction.atomic():
            rows = (model.objects.select_for_update(skip_locked=True, of=("self",))
                    .filter(self.waiting(now)))
            if ids is None:
                rows = rows.order_by("next_attempt_at", "pk")
            else:
                rows = rows.filter(pk__in=list(ids)).order_by("pk")
            rows = list(self.due(rows)[:limit or self.batch_size])
            if self.expires_field:
                stale = [row.pk for row in rows if getattr(row, self.expires_field) <= now]
                self._expire(model.objects.filter(pk__in=stale))
                rows = [row for row in rows if getattr(row, self.expires_field) > now]
            model.objects.filter(pk__in=[row.pk for row in rows]).update(
                status=Status.SENDING, sending_since=now, attempts=F("attempts") + 1)
        for row in rows:
            row.status, row.sending_since, row.attempts = Status.SENDING, now, row.attempts + 1
        return rows

    def _expire(self, rows: QuerySet) -> int:
        return rows.update(status=Status.EXPIRED, next_attempt_at=None,
                           last_error="its time to live ran out before it was sent")

    def after(self, row: Any, result: Result, now: datetime) -> tuple[str, Any]:
        """The status (and next attempt) a row takes after ``result``."""
        if result.outcome == "sent":
            return Status.SENT, None
        if result.outcome != "retry" or row.attempts >= self.max_attempts:
            return Status.FAILED, None
        delay = (result.retry_after if result.retry_after is not None
                 else self.backoff_seconds(row.attempts))
        next_at = now + timedelta(seconds=delay)
        if self.expires_field and next_at >= getattr(row, self.expires_field):
            return Status.EXPIRED, None
        return Status.RETRY, next_at

    def record(self, rows: list[Any], results: dict[Any, Result],
               now: datetime | None = None) -> tuple[dict[str, int], datetime | None]:
        """Write what ``results`` say of the claimed ``rows`` (set on them too) in one round
        trip: one UPDATE per outcome and error (``dbops.bulk.rows_update``), the gone ones
        handed to ``gone``. A retry after the row's last attempt fails, one past its time to
        live expires. Returns counts by outcome (rows left out of ``results`` are not
        counted) and when the earliest retry is due (None: no retry)."""
        now = now or timezone.now()
        counts = dict.fromkeys(OUTCOMES, 0)
        gone = []
        groups: dict[tuple, list[Any]] = defaultdict(list)  # (status, next at, error, code)
        fields = {field.name for field in self.model._meta.fields}
        recorded = self.recorded + (("response_status",) if "response_status" in fields else ())
        for row in rows:
            result = results.get(row.pk)
            if result is None:
                continue
            if result.outcome == "gone":
                row.status, row.next_attempt_at, row.last_error = (
                    Status.FAILED, None, "the recipient is gone")
                gone.append(row)
                continue
            status, next_at = self.after(row, result, now)
            row.status, row.next_attempt_at = status, next_at
            row.last_error = result.error[:2000]
            if "response_status" in fields:
                row.response_status = result.response_status
            if status == Status.SENT and "sent_at" in fields:
                row.sent_at = now
            groups[(status, next_at, row.last_error, result.response_status)].append(row)
        retry_at = None
        with one_round_trip():
            rows_update(gone, ("status", "next_attempt_at", "last_error"))
            for (status, next_at, error, _), group in groups.items():
                sent_at = ("sent_at",) if status == Status.SENT and "sent_at" in fields else ()
                rows_update(group, recorded + sent_at)
                counts[status] += len(group)
                if status == Status.RETRY:
                    retry_at = min(retry_at or next_at, next_at)
                if status != Status.SENT:
                    logger.info("%s: %s row(s) %s: %s", self.name, len(group), status, error)
        if gone:
            self.gone(gone)
            counts["gone"] = len(gone)
        return counts, retry_at

    def sweep(self, now: datetime | None = None) -> int:
        """Expire rows whose time ran out, and wake a worker if rows are due (a lost task, a
        retry whose delayed task was lost, a lease that ran out). Returns the due rows."""
        now = now or timezone.now()
        if self.expires_field:
            self._expire(self.model.objects.filter(
                status__in=[Status.QUEUED, Status.RETRY],
                **{f"{self.expires_field}__lte": now}))
        due = self.model.objects.filter(self.overdue(now)).count()
        if due:
            self.wake()
        return due

    def requeue(self, pks: Iterable[Any]) -> int:
        """Try failed rows again, attempts starting over (the admin's action); a worker is
        woken on commit."""
        count = self.model.objects.filter(pk__in=list(pks), status=Status.FAILED).update(
            status=Status.RETRY, attempts=0, next_attempt_at=timezone.now())
        if count:
            transaction.on_commit(self.wake)
        return count


QUEUES: dict[str, Queue] = {}


def register(queue: Queue) -> Queue:
    """Make ``queue`` known (``queue_named``) and swept every ``SWEEP_SECONDS``."""
    QUEUES[queue.name] = queue
    sweeper.sweep_register(queue.name, queue.sweep, every=lambda: queue.sweep_seconds)
    return queue


def unregister(name: str) -> None:
    """Forget the queue ``name`` (a test's own)."""
    QUEUES.pop(name, None)
    sweeper.sweep_unregister(name)


def queue_named(name: str) -> Queue:
    try:
        return QUEUES[name]
    except KeyError:
        raise LookupError(f"no durable queue {name!r} (known: {sorted(QUEUES)})") from None
