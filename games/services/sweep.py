"""The beat sweeper: queue what is due (resolutions past their deadline or complete but
unresolved, gameday ticks), after extending deadlines that passed while the system was down."""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from engine import PhaseKind
from games.models import Match, Phase, SweepRun
from games.services.common import match_lock
from games.services.continuous import gamedays_due
from games.services.queue import enqueue_on_commit

logger = logging.getLogger(__name__)


def deadlines_sweep(*, now: Any = None) -> int:
    """Queue resolution for every active match past its deadline or complete but unresolved,
    and the gameday tick of every continuous match whose next gameday has begun.

    Returns how many were queued. If the sweeper itself has not run for longer than
    settings.SWEEP_OUTAGE_SECONDS (the system was down), deadlines that passed during that gap
    are first extended by the gap: downtime must not punish players.
    """
    now = now or timezone.now()
    _extend_for_outage(now)
    grace = timedelta(seconds=settings.SWEEP_COMPLETE_GRACE_SECONDS)
    ticks = gamedays_due(now=now)
    for match_id in ticks:
        enqueue_on_commit("games.tasks.gameday_tick", match_id=match_id)
    due = list(
        Match.objects.filter(status=Match.Status.ACTIVE)
        .exclude(phase_kind=PhaseKind.CONTINUOUS.value)
        .filter(Q(deadline__lte=now) | Q(complete_at__lte=now - grace))
        .values_list("pk", "phase_number")
    )
    for match_id, phase_number in due:
        # Outside a transaction (the task) this sends at once; a duplicate is a no-op.
        enqueue_on_commit("games.tasks.resolve_phase", match_id=match_id,
                          phase_number=phase_number)
    return len(due) + len(ticks)


def _extend_for_outage(now: Any) -> int:
    with transaction.atomic():
        run, created = SweepRun.objects.select_for_update().get_or_create(
            name="deadlines", defaults={"last_run_at": now}
        )
        if created:
            return 0
        gap = now - run.last_run_at
        extended = 0
        if gap.total_seconds() > settings.SWEEP_OUTAGE_SECONDS:
            # A gameday tick is a scheduled time, not a deadline: it is never moved.
            missed = Match.objects.filter(
                status=Match.Status.ACTIVE, deadline__gt=run.last_run_at, deadline__lte=now
            ).exclude(phase_kind=PhaseKind.CONTINUOUS.value).values_list("pk", flat=True)
            for match_id in list(missed):
                extended += _extend_deadline_by(match_id, gap, since=run.last_run_at, now=now)
            logger.warning("sweeper did not run for %s: extended %s deadlines", gap, extended)
        run.last_run_at = max(now, run.last_run_at)
        run.last_gap_seconds = gap.total_seconds()
        run.extended_total += extended
        run.save()
        return extended


def _extend_deadline_by(match_id: Any, gap: timedelta, *, since: Any, now: Any) -> int:
    match = match_lock(match_id)
    if (match.status != Match.Status.ACTIVE or match.deadline is None
            or not since < match.deadline <= now):
        return 0
    match.deadline = match.deadline + gap
    match.save(update_fields=["deadline"])
    Phase.objects.filter(match=match, number=match.phase_number,
                         status=Phase.Status.OPEN).update(deadline=match.deadline)
    return 1
