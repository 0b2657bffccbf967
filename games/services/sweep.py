"""The beat sweeper: queue what is due (resolutions past their deadline or complete but
unresolved, gameday ticks), after extending deadlines that passed while the system was down.

Due matches are *claimed* (``Match.queued_at``) in batches with ``SKIP LOCKED``, so a backlog
is queued once, not again on every beat tick while it waits in the queue. A claim is void when
its task could not be queued (released at once), when the broker restarted since (Redis keeps
nothing: every claim is released), and when it is older than settings.SWEEP_CLAIM_SECONDS
(taken as lost: queued again). Each batch goes to one task
(``resolve_phases``) that resolves its matches in one transaction, each in its own savepoint.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import OperationalError, transaction
from django.db.models import F, OuterRef, Q, Subquery
from django.utils import timezone

from durable.worker import Enqueue
from engine import PhaseKind
from games.models import DeadlineMove, Match, Phase, SweepRun
from games.services.timing import clocks_excuse

logger = logging.getLogger(__name__)

CONTINUOUS = PhaseKind.CONTINUOUS.value
CLAIM_BATCH = 500  # matches claimed per transaction
TASK_BATCH = 50  # matches resolved per task (the workers share a sweep's batches)


def deadlines_sweep(*, now: Any = None) -> int:
    """Queue resolution for every active match past its deadline or complete but unresolved,
    and the gameday tick of every continuous match whose next gameday has begun.

    Returns how many were queued. If the sweeper itself has not run for longer than
    settings.SWEEP_OUTAGE_SECONDS (the system was down), deadlines that passed during that gap
    are first extended by the gap: downtime must not punish players.
    """
    now = now or timezone.now()
    _extend_for_outage(now)
    _release_claims_if_broker_restarted()
    grace = timedelta(seconds=settings.SWEEP_COMPLETE_GRACE_SECONDS)
    sealed_due = Q(deadline__lte=now) | Q(complete_at__lte=now - grace)
    queued = 0
    for batch in _claimed(Q(deadline__lte=now, phase_kind=CONTINUOUS), now):
        for match_id, _ in batch:
            transaction.on_commit(Claimed("games.tasks.gameday_tick", [match_id],
                                          match_id=match_id))
        queued += len(batch)
    for batch in _claimed(sealed_due & ~Q(phase_kind=CONTINUOUS), now):
        for start in range(0, len(batch), TASK_BATCH):
            pairs = [list(pair) for pair in batch[start:start + TASK_BATCH]]
            transaction.on_commit(Claimed("games.tasks.resolve_phases",
                                          [pk for pk, _ in pairs], pairs=pairs))
        queued += len(batch)
    return queued


class Claimed(Enqueue):
    """A task for claimed matches: if it cannot be queued (the broker is down), the claim is
    released at once, so the next sweep queues them again instead of waiting for the claim to
    go stale."""

    def __init__(self, task_name: str, match_ids: list[int], **kwargs: Any) -> None:
        super().__init__(task_name, **kwargs)
        self.match_ids = match_ids

    def __call__(self) -> bool:
        if super().__call__():
            return True
        claims_release(self.match_ids)
        return False


# How long releasing a claim waits for a match's lock holder (a submission, a resolution:
# transactions of milliseconds) before leaving the claim to go stale.
CLAIM_RELEASE_LOCK_TIMEOUT = "2s"


def claims_release(match_ids: list[Any], *, claimed_before: datetime | None = None) -> int:
    """Release the claims (``queued_at``) of ``match_ids``, so that the next sweep queues
    those still due again instead of after settings.SWEEP_CLAIM_SECONDS: when their task
    could not be queued, and for the matches a sweep's batch passed by (``phases_resolve``:
    someone else held the lock — typically a late submission racing the deadline, which
    resolves nothing when it commits — or the match was not due after all). With
    ``claimed_before``, only claims made before then (a later sweep's are its own). Waits
    briefly for a lock holder; if that takes too long, the claims go stale as before.
    Returns how many were released."""
    claimed = Q() if claimed_before is None else Q(queued_at__lte=claimed_before)
    try:
        with transaction.atomic():
            connection = transaction.get_connection()
            if connection.vendor == "postgresql":
                with connection.cursor() as cursor:
                    cursor.execute(f"SET LOCAL lock_timeout = '{CLAIM_RELEASE_LOCK_TIMEOUT}'")
            return Match.objects.filter(claimed, pk__in=match_ids).update(queued_at=None)
    except OperationalError:
        logger.warning("could not release the claims of %s matches (they go stale after "
                       "SWEEP_CLAIM_SECONDS)", len(match_ids))
        return 0


def _claimed(due: Q, now: datetime):
    """Batches of (match id, phase number) of due active matches, each batch claimed in its
    own short transaction (rows another sweeper is claiming are skipped)."""
    stale = now - timedelta(seconds=settings.SWEEP_CLAIM_SECONDS)
    unclaimed = Q(queued_at__isnull=True) | Q(queued_at__lt=stale)
    while True:
        with transaction.atomic():
            batch = list(
                Match.objects.select_for_update(skip_locked=True, no_key=True)
                .filter(due & unclaimed, status=Match.Status.ACTIVE)
                .order_by("deadline").values_list("pk", "phase_number")[:CLAIM_BATCH]
            )
            if not batch:
                return
            Match.objects.filter(pk__in=[pk for pk, _ in batch]).update(queued_at=now)
        yield batch
        if len(batch) < CLAIM_BATCH:
            return


def broker_epoch() -> str:
    """The broker's identity: Redis's ``run_id``, new at every start of the server (and so
    after a restart that lost every queued message); "" for other brokers or when it cannot
    be read (then claims only go stale)."""
    url = settings.CELERY_BROKER_URL
    if not url.startswith(("redis://", "rediss://")):
        return ""
    import redis

    client = redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)
    try:
        return str(client.info("server").get("run_id", ""))
    except redis.RedisError:
        return ""
    finally:
        client.close()


def _release_claims_if_broker_restarted() -> int:
    """Release every claim if the broker restarted since the last sweep: the tasks those
    claims stand for were lost with it. Returns how many were released."""
    epoch = broker_epoch()
    if not epoch:
        return 0
    with transaction.atomic():
        run = SweepRun.objects.select_for_update().filter(name="deadlines").first()
        if run is None or run.broker_epoch == epoch:
            return 0
        restarted = bool(run.broker_epoch)
        run.broker_epoch = epoch
        run.save(update_fields=["broker_epoch"])
    if not restarted:
        return 0
    released = Match.objects.filter(queued_at__isnull=False).update(queued_at=None)
    logger.warning("the broker restarted: released %s claims (their tasks were lost)", released)
    return released


def _extend_for_outage(now: datetime) -> int:
    """Note the sweeper's heartbeat; after a gap longer than SWEEP_OUTAGE_SECONDS, extend the
    deadlines that passed in it by the gap, in batches (no transaction holds thousands of row
    locks). An extension cut short by a crash is finished by the next sweep."""
    with transaction.atomic():
        run, created = SweepRun.objects.select_for_update().get_or_create(
            name="deadlines", defaults={"last_run_at": now}
        )
        if created:
            return 0
        gap = now - run.last_run_at
        if gap.total_seconds() > settings.SWEEP_OUTAGE_SECONDS and run.extending_since is None:
            run.extending_since, run.extending_until = run.last_run_at, now
            logger.warning("sweeper did not run for %s: extending the deadlines in it", gap)
        run.last_run_at = max(now, run.last_run_at)
        run.last_gap_seconds = gap.total_seconds()
        run.save()
        since, until = run.extending_since, run.extending_until
    if since is None or until is None:
        return 0
    extended = _extend_deadlines(since, until)
    with transaction.atomic():
        SweepRun.objects.filter(pk=run.pk).update(
            extending_since=None, extending_until=None,
            extended_total=F("extended_total") + extended)
    logger.warning("extended %s deadlines by %s", extended, until - since)
    return extended


def _extend_deadlines(since: datetime, until: datetime) -> int:
    """Move every sealed-phase deadline in (since, until] by until - since, a batch per
    transaction. Idempotent: a moved deadline is past ``until`` and is not moved again. A
    gameday tick is a scheduled time, not a deadline: it is never moved."""
    gap = until - since
    extended = _excuse_on_clocks(since, until)
    while True:
        with transaction.atomic():
            due = list(
                Match.objects.select_for_update(no_key=True)
                .filter(status=Match.Status.ACTIVE, deadline__gt=since, deadline__lte=until,
                        clock_bank_hours__isnull=True)
                .exclude(phase_kind=CONTINUOUS)
                .values_list("pk", "phase_number", "deadline")[:CLAIM_BATCH]
            )
            if not due:
                return extended
            ids = [pk for pk, _number, _deadline in due]
            Match.objects.filter(pk__in=ids).update(deadline=F("deadline") + gap)
            _outage_moves_record([(pk, number, deadline, deadline + gap)
                                  for pk, number, deadline in due])
            # The open phase's deadline is the match's (one source of truth: copy it over).
            Phase.objects.filter(match_id__in=ids, status=Phase.Status.OPEN).update(
                deadline=Subquery(Match.objects.filter(pk=OuterRef("match_id"))
                                  .values("deadline")[:1]))
            extended += len(ids)


def _excuse_on_clocks(since: datetime, until: datetime) -> int:
    """Clock matches: the outage is excused on every running clock of a phase open at its
    start (``timing.clocks_excuse``, which moves their due times and the deadline), a batch
    per transaction, in id order. Idempotent: an interval already excused is skipped."""
    excused = 0
    after = 0
    while True:
        with transaction.atomic():
            batch = list(
                Match.objects.select_for_update()
                .filter(status=Match.Status.ACTIVE, deadline__gt=since, pk__gt=after,
                        clock_bank_hours__isnull=False)
                .exclude(phase_kind=CONTINUOUS).order_by("pk")[:CLAIM_BATCH]
            )
            if not batch:
                return excused
            moves = []
            for match in batch:
                before = match.deadline
                if clocks_excuse(match, since, until):
                    match.save(update_fields=["timing", "deadline"])
                    Phase.objects.filter(match=match, status=Phase.Status.OPEN).update(
                        deadline=match.deadline)
                    excused += 1
                    if before is not None and match.deadline != before:
                        moves.append((match.pk, match.phase_number, before, match.deadline))
            _outage_moves_record(moves)
            after = batch[-1].pk


def _outage_moves_record(moves: list[tuple[int, int, datetime, datetime]]) -> None:
    """One row per deadline the outage moved (match, phase, from, to): the bulk update leaves
    no other trace a player's processing timeline could show."""
    now = timezone.now()
    DeadlineMove.objects.bulk_create([
        DeadlineMove(match_id=pk, phase_number=number, reason=DeadlineMove.Reason.OUTAGE,
                     moved_from=before, moved_to=after, at=now)
        for pk, number, before, after in moves])
