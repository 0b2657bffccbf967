"""Resolving phases (exactly once), the deadline sweeper, bots, and moderators' phase tools."""

from __future__ import annotations

import logging
import traceback
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import InterfaceError, OperationalError, transaction
from django.db.models import Q
from django.utils import timezone

from engine import Outcome, PhaseKind, rng_for
from games.models import Match, Phase, Seat, Submission, SweepRun
from games.receipts import new_salt, receipt_for
from games.services.common import (
    game_for,
    match_lock,
    phase_open,
    required_seats,
    result_as_json,
)
from games.services.errors import ServiceError
from games.services.match import match_set_status
from games.services.orders import Receipt, orders_submit
from games.services.queue import enqueue_on_commit, send_signal_on_commit
from games.signals import phase_resolved

logger = logging.getLogger(__name__)

MAX_DEADLINE_EXTENSION = timedelta(days=7)


def phase_resolve(*, match_id: Any, phase_number: int) -> bool:
    """Resolve the phase if it is still open and either complete or past its deadline.

    Locks the match row; a duplicate, concurrent or re-run call is a no-op returning False.
    A resolution that raises is recorded (attempts, last_error) in its own transaction and,
    after settings.RESOLVE_MAX_ATTEMPTS, the phase is quarantined for moderators.
    """
    try:
        with transaction.atomic():
            return _resolve_locked(match_id, int(phase_number))
    except ServiceError as error:
        if error.code != "not_found":
            _resolve_failed(match_id, int(phase_number), error)
        logger.info("phase_resolve(%s, %s): %s", match_id, phase_number, error.message)
        return False
    except (OperationalError, InterfaceError):
        raise  # the database itself failed: not the phase's fault; redelivery/sweeper retry
    except Exception as error:  # a poison phase, whatever the engine raised
        logger.exception("resolving match %s phase %s failed", match_id, phase_number)
        _resolve_failed(match_id, int(phase_number), error)
        return False


def _resolve_locked(match_id: Any, phase_number: int) -> bool:
    """The resolution itself; the caller holds (or here takes) the match lock in a transaction."""
    match = match_lock(match_id)
    if match.status != Match.Status.ACTIVE or match.phase_number != phase_number:
        return False
    phase = Phase.objects.filter(match=match, number=phase_number).first()
    if phase is None or phase.status != Phase.Status.OPEN:
        return False
    if phase.kind == PhaseKind.CONTINUOUS.value:
        return False  # applied action by action; its deadline is the gameday tick
    game = game_for(match.game)
    state = match.state
    prompts = game.prompts(state)
    required = required_seats(prompts)
    sheets = {sub.seat.number: sub for sub in phase.submissions.select_related("seat")}
    now = timezone.now()
    past_deadline = phase.deadline is not None and phase.deadline <= now
    if not past_deadline and (not sheets or not required <= sheets.keys()):
        return False

    seats = {seat.number: seat for seat in match.seats.all()}
    for number in sorted(required - sheets.keys()):
        data = game.default_submission(state, number)
        salt = new_salt()
        sheets[number] = Submission.objects.create(
            phase=phase, seat=seats[number], data=data, source=Submission.Source.DEFAULT,
            salt=salt, receipt=receipt_for(salt=salt, data=data), submitted_at=now,
            updated_at=now,
        )
    for number, sheet in sheets.items():
        seat = seats[number]
        if sheet.source == Submission.Source.DEFAULT:
            seat.missed_in_row += 1
            seat.missed_total += 1
        else:
            seat.missed_in_row = 0
        seat.save(update_fields=["missed_in_row", "missed_total"])

    rng = rng_for(match.seed, phase_number)
    if phase.kind == PhaseKind.SIMULTANEOUS.value:
        outcome = game.resolve(state, {n: sheet.data for n, sheet in sheets.items()}, rng)
    else:  # sequential: the prompted seat's sheet is applied as it is (its own phase record)
        events: list = []
        for number in sorted(sheets):
            step = game.apply(state, number, sheets[number].data, now, rng)
            state, events = step.state, events + list(step.events)
        outcome = Outcome(state, events)
    phase.revealed = {
        str(n): {"data": s.data, "source": s.source, "salt": s.salt, "receipt": s.receipt}
        for n, s in sorted(sheets.items())
    }
    phase.events = list(outcome.events)
    phase.resolved_at = now
    phase.status = Phase.Status.RESOLVED
    phase.save(update_fields=["revealed", "events", "resolved_at", "status"])

    forfeits = _apply_miss_policy(match, seats)
    match.state = outcome.state
    match.complete_at = None
    result = game.result(outcome.state)
    if result is not None:
        match.result = result_as_json(result)
        match.save()
        match_set_status(match=match, new_status=Match.Status.FINISHED, note=result.reason[:255])
    elif forfeits:
        match.result = _forfeit_result(seats, forfeits)
        match.save()
        match_set_status(match=match, new_status=Match.Status.FINISHED,
                         note=match.result["reason"][:255])
    elif phase_open(match=match, game=game, state=outcome.state, number=phase_number + 1,
                    now=now) is None:
        match.result = {"ranking": [], "scores": {}, "reason": "Nobody has anything left to do.",
                        "winners": [], "is_draw": False}
        match.save()
        match_set_status(match=match, new_status=Match.Status.FINISHED, note="no prompts left")
    else:
        match.save()
    send_signal_on_commit(phase_resolved, match_id=match.pk, phase_number=phase_number,
                          finished=match.status == Match.Status.FINISHED)
    return True


def _apply_miss_policy(match: Match, seats: dict[int, Seat]) -> list[int]:
    """Flag or forfeit human seats that missed ``miss_limit`` deadlines in a row."""
    forfeits = []
    for seat in seats.values():
        if seat.bot or seat.missed_in_row < match.miss_limit:
            continue
        if match.miss_policy == Match.MissPolicy.FORFEIT:
            seat.status = Seat.Status.FORFEITED
            forfeits.append(seat.number)
        elif seat.status == Seat.Status.TAKEN:
            seat.status = Seat.Status.FLAGGED
        seat.save(update_fields=["status"])
    return forfeits


def _forfeit_result(seats: dict[int, Seat], forfeits: list[int]) -> dict[str, Any]:
    others = [n for n in sorted(seats) if n not in forfeits]
    names = ", ".join(f"seat {n}" for n in sorted(forfeits))
    ranking = [others, sorted(forfeits)] if others else [sorted(forfeits)]
    return {
        "ranking": ranking,
        "scores": {str(n): (0 if n in forfeits else 1) for n in sorted(seats)},
        "reason": f"{names} forfeited after missing too many deadlines in a row",
        "winners": others,
        "is_draw": not others,
    }


def _resolve_failed(match_id: Any, phase_number: int, error: BaseException) -> None:
    """Count a failed attempt; quarantine the phase after RESOLVE_MAX_ATTEMPTS."""
    text = "".join(traceback.format_exception(error))[-5000:]
    with transaction.atomic():
        match = Match.objects.select_for_update().filter(pk=match_id).first()
        if match is None:
            return
        phase = Phase.objects.filter(match=match, number=phase_number,
                                     status=Phase.Status.OPEN).first()
        if phase is None:
            return
        phase.attempts += 1
        phase.last_error = text
        if phase.attempts >= settings.RESOLVE_MAX_ATTEMPTS:
            phase.status = Phase.Status.QUARANTINED
            # Park the match so the sweeper stops re-queueing it until a moderator retries.
            match.deadline = None
            match.complete_at = None
            match.save(update_fields=["deadline", "complete_at"])
            logger.error("match %s phase %s quarantined after %s attempts", match_id,
                         phase_number, phase.attempts)
        phase.save(update_fields=["attempts", "last_error", "status"])


@transaction.atomic
def phase_retry(*, phase_id: Any, by: AbstractBaseUser | None = None) -> bool:
    """A moderator's retry of a quarantined phase: reopen it and queue its resolution.

    Idempotent: a phase that is not quarantined is left alone (False).
    """
    phase = Phase.objects.filter(pk=phase_id).first()
    if phase is None:
        raise ServiceError("not_found", f"There is no phase {phase_id}.")
    match = match_lock(phase.match_id)
    phase.refresh_from_db()
    if phase.status != Phase.Status.QUARANTINED or match.status != Match.Status.ACTIVE:
        return False
    phase.status = Phase.Status.OPEN
    phase.attempts = 0
    phase.save(update_fields=["status", "attempts"])
    match.deadline = phase.deadline
    match.complete_at = timezone.now()  # the sweeper re-queues it if this queueing is lost
    match.save(update_fields=["deadline", "complete_at"])
    enqueue_on_commit("games.tasks.resolve_phase", match_id=match.pk, phase_number=phase.number)
    logger.info("phase %s of match %s retried by %s", phase.number, match.pk, by)
    return True


@transaction.atomic
def match_deadline_extend(
    *, match_id: Any, hours: float, by: AbstractBaseUser | None = None
) -> bool:
    """Make the open phase's deadline at least ``hours`` from now (never beyond a 7-day cap).

    Idempotent: asking twice gives the same deadline as asking once. False if nothing changed.
    """
    try:
        extension = timedelta(hours=float(hours))
    except (TypeError, ValueError, OverflowError):
        raise ServiceError("invalid", f"{hours!r} is not a number of hours.") from None
    if not timedelta(0) < extension <= MAX_DEADLINE_EXTENSION:
        raise ServiceError("capped", "A deadline can be extended by up to 7 days from now.")
    match = match_lock(match_id)
    if match.status != Match.Status.ACTIVE or match.deadline is None:
        raise ServiceError("not_active", "Only an open phase of a match in play has a deadline.")
    target = timezone.now() + extension
    # A minute of slack so a double-submitted form is a no-op, not a creeping extension.
    if match.deadline >= target - timedelta(minutes=1):
        return False
    match.deadline = target
    match.save(update_fields=["deadline"])
    Phase.objects.filter(match=match, number=match.phase_number).update(deadline=target)
    logger.info("match %s deadline extended to %s by %s", match.pk, target, by)
    return True


def deadlines_sweep(*, now: Any = None) -> int:
    """Queue resolution for every active match past its deadline or complete but unresolved,
    and the gameday tick of every continuous match whose next gameday has begun.

    Returns how many were queued. If the sweeper itself has not run for longer than
    settings.SWEEP_OUTAGE_SECONDS (the system was down), deadlines that passed during that gap
    are first extended by the gap: downtime must not punish players.
    """
    from games.services.continuous import gamedays_due

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


def bot_submit(*, match_id: Any, seat_number: int, phase_number: int) -> Receipt | None:
    """The bot seat's sheet for the phase; None if there is nothing (left) to do."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None or match.status != Match.Status.ACTIVE or match.phase_number != phase_number:
        return None
    seat = Seat.objects.filter(match=match, number=seat_number).first()
    if seat is None or not seat.bot:
        return None
    if Submission.objects.filter(phase__match=match, phase__number=phase_number,
                                 seat=seat).exists():
        return None
    game = game_for(match.game)
    if seat_number not in game.prompts(match.state):
        return None
    rng = rng_for(f"{match.seed}:bot:{seat_number}", phase_number)
    data = game.bot_submission(match.state, seat_number, seat.bot, rng)
    if not data and match.phase_kind == PhaseKind.CONTINUOUS.value:
        return None  # nothing the bot can do in this gameday
    try:
        return orders_submit(match_id=match.pk, seat_number=seat_number, user=None,
                             phase_number=phase_number, data=data, source=Submission.Source.BOT)
    except ServiceError as error:
        if error.code in {"stale_phase", "deadline_passed", "not_active"}:
            return None
        raise
