"""Resolving phases (exactly once), the deadline sweeper, bots, and moderators' phase tools."""

from __future__ import annotations

import logging
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import InterfaceError, OperationalError, transaction
from django.utils import timezone

from clocks.services import window_of, with_windows
from engine import Outcome, PhaseKind, rng_for
from games.models import Match, Phase, Seat, Submission
from games.receipts import new_salt, receipt_for
from games.services.common import (
    game_for,
    match_lock,
    match_lock_unless_busy,
    phase_failure_record,
    phase_open,
    required_seats,
    result_as_json,
)
from games.services.errors import ServiceError
from games.services.match import match_set_status
from games.services.queue import enqueue_on_commit, outbox_write, signal_event, task_event
from games.services.timing import clocks_close, expired_seats, seat_due, uses_clock
from games.services.vacation import with_leave

logger = logging.getLogger(__name__)

def phase_resolve(*, match_id: Any, phase_number: int) -> bool:
    """Resolve the phase if it is still open and either complete or past its deadline.

    Locks the match row; a duplicate, concurrent or re-run call is a no-op returning False.
    A resolution that raises is recorded (attempts, last_error) in its own transaction and,
    after settings.RESOLVE_MAX_ATTEMPTS, the phase is quarantined for moderators.
    """
    resolved, error = _resolve_guarded(match_id, phase_number)
    if error is not None:
        phase_failure_record(match_id, int(phase_number), error)
    return resolved


def phases_resolve(pairs: list[tuple[int, int]] | list[list[int]]) -> int:
    """Resolve a sweep's batch of (match id, phase number) in one transaction, each match in
    its own savepoint: one commit (one WAL flush) for the batch instead of one per match, and
    a poison phase is rolled back alone and recorded (after the batch, in its own
    transaction) while the others resolve. A match locked by someone else is skipped, as in
    ``phase_resolve``. Returns how many were resolved."""
    resolved = 0
    failures: list[tuple[Any, int, BaseException]] = []
    with transaction.atomic():
        for match_id, phase_number in pairs:
            done, error = _resolve_guarded(match_id, phase_number)
            resolved += done
            if error is not None:
                failures.append((match_id, int(phase_number), error))
    for match_id, phase_number, error in failures:
        phase_failure_record(match_id, phase_number, error)
    return resolved


def _resolve_guarded(match_id: Any, phase_number: Any) -> tuple[bool, BaseException | None]:
    """``phase_resolve_locked`` in its own atomic block (a savepoint inside a batch): whether
    it resolved, and the error to record against the phase (None for "no such match"). A
    failure of the database itself is raised: not the phase's fault; the redelivery or the
    sweeper retries it."""
    try:
        with transaction.atomic():
            return phase_resolve_locked(match_id=match_id, phase_number=int(phase_number),
                                        skip_locked=True), None
    except ServiceError as error:
        logger.info("phase_resolve(%s, %s): %s", match_id, phase_number, error.message)
        return False, None if error.code == "not_found" else error
    except (OperationalError, InterfaceError):
        raise
    except Exception as error:  # a poison phase, whatever the engine raised
        logger.exception("resolving match %s phase %s failed", match_id, phase_number)
        return False, error


def phase_resolve_locked(*, match_id: Any, phase_number: int, skip_locked: bool = False
                         ) -> bool:
    """The resolution itself, inside the caller's transaction: it takes the match lock (a
    no-op if the caller holds it, as ``orders_submit`` does for a sequential phase, where the
    input is applied at once). With ``skip_locked`` a match locked by someone else is left
    alone (False): a duplicate task must not queue behind the real work. Raises whatever the
    engine raised; ``phase_resolve`` records that for the sweeper's retries.

    A bounded number of queries whatever the seat count: the lock, the phase, the seats, the
    sheets, one INSERT of missing sheets, one UPDATE of changed seats, the phase, the prompted
    players' leave (when the match allows vacations), the next phase, the match, and one
    INSERT of every side effect promised in the outbox.
    """
    match = match_lock_unless_busy(match_id) if skip_locked else match_lock(match_id)
    if match is None:
        return False
    if match.status != Match.Status.ACTIVE or match.phase_number != phase_number:
        return False
    if match.paused_at is not None:
        return False  # a moderator paused it: resumed, it is queued again
    phase = (Phase.objects.filter(match=match, number=phase_number).defer("state_before")
             .exclude(status=Phase.Status.VOIDED).order_by().first())
    if phase is None or phase.status != Phase.Status.OPEN:
        return False
    if phase.kind == PhaseKind.CONTINUOUS.value:
        return False  # applied action by action; its deadline is the gameday tick
    game = game_for(match.game)
    state = match.state
    prompts = game.prompts(state)
    required = required_seats(prompts)
    now = timezone.now()
    seats = {seat.number: seat for seat in
             with_leave(with_windows(Seat.objects.filter(match=match)), now).order_by()}
    by_id = {seat.pk: seat for seat in seats.values()}
    sheets = {by_id[sub.seat_id].number: sub
              for sub in Submission.objects.filter(phase=phase).order_by()}
    if uses_clock(match) and match.timing and "owing" in match.timing:
        # Due when every required seat has a sheet or its clock ran out.
        past_deadline = required - sheets.keys() <= expired_seats(match, now)
    else:
        past_deadline = phase.deadline is not None and phase.deadline <= now
    if not past_deadline and (not sheets or not required <= sheets.keys()):
        return False

    missing = []
    for number in sorted(required - sheets.keys()):
        data = game.default_submission(state, number)
        salt = new_salt()
        missing.append(Submission(
            phase=phase, seat=seats[number], data=data, source=Submission.Source.DEFAULT,
            salt=salt, receipt=receipt_for(salt=salt, data=data), submitted_at=now,
            updated_at=now,
        ))
    if missing:
        Submission.objects.bulk_create(missing)
        sheets.update({sub.seat.number: sub for sub in missing})
    changed: dict[int, Seat] = {}
    misses: dict[str, int] = {}  # seat number → the player who missed (for their record)
    for number, sheet in sheets.items():
        seat = seats[number]
        if sheet.source == Submission.Source.DEFAULT:
            seat.missed_in_row += 1
            seat.missed_total += 1
            changed[number] = seat
            if seat.user_id is not None:
                misses[str(number)] = seat.user_id
        elif seat.missed_in_row:
            seat.missed_in_row = 0
            changed[number] = seat

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

    # When each missed deadline passed (a clock: when it ran out), for the leave check.
    due_at = {seat: min(now, seat_due(match, int(seat)) or phase.deadline or now).isoformat()
              for seat in misses}
    clocks_close(match, required=required,
                 defaulted=[sub.seat.number for sub in missing], now=now)
    forfeits = _apply_miss_policy(match, seats, changed)
    if changed:
        Seat.objects.bulk_update(list(changed.values()),
                                 ["missed_in_row", "missed_total", "status"])
    promised: list[tuple] = []
    if misses:  # the players' reliability records, written after the commit (no query here)
        promised.append(task_event("games.tasks.deadline_misses_record", match.pk,
                                   match_id=match.pk, phase_number=phase_number,
                                   missed_at=now.isoformat(), users=misses, due_at=due_at))
    match.state = outcome.state
    match.complete_at = None
    fields = ["state", "complete_at", "result", "phase_number", "phase_kind", "phase_name",
              "deadline", "queued_at", "timing"]
    match.queued_at = None
    result = game.result(outcome.state)
    finished_note = None
    if result is not None:
        match.result = result_as_json(result)
        finished_note = result.reason
    elif forfeits:
        match.result = _forfeit_result(seats, forfeits)
        finished_note = match.result["reason"]
    elif phase_open(match=match, game=game, state=outcome.state, number=phase_number + 1,
                    now=now, events=promised,
                    bots={n: s.bot for n, s in seats.items() if s.bot},
                    windows={n: window_of(s) for n, s in seats.items()},
                    away={n for n, s in seats.items() if s.on_leave_until}) is None:
        match.result = {"ranking": [], "scores": {}, "reason": "Nobody has anything left to do.",
                        "winners": [], "is_draw": False}
        finished_note = "no prompts left"
    if finished_note is not None:
        match_set_status(match=match, new_status=Match.Status.FINISHED,
                         note=finished_note[:255], events=promised, save=False)
        fields += ["status", "finished_at"]
    match.save(update_fields=fields)
    promised.insert(0, signal_event("phase_resolved", match.pk, match_id=match.pk,
                                    phase_number=phase_number,
                                    finished=match.status == Match.Status.FINISHED))
    outbox_write(promised)
    return True


def _apply_miss_policy(match: Match, seats: dict[int, Seat], changed: dict[int, Seat]
                       ) -> list[int]:
    """Flag or forfeit human seats that missed ``miss_limit`` deadlines in a row (adding them
    to ``changed``, which the caller saves)."""
    forfeits = []
    for seat in seats.values():
        if seat.bot or seat.user_id is None or seat.missed_in_row < match.miss_limit:
            continue
        if match.miss_policy == Match.MissPolicy.FORFEIT:
            seat.status = Seat.Status.FORFEITED
            forfeits.append(seat.number)
        elif seat.status == Seat.Status.TAKEN:
            seat.status = Seat.Status.FLAGGED
        changed[seat.number] = seat
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
