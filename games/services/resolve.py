"""Resolving phases (exactly once): one at a time, or a sweep's batch together."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from django.db import DatabaseError, InterfaceError, OperationalError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clocks.services import window_of
from dbops.bulk import one_round_trip, rows_insert, rows_update
from durable.outbox import outbox_write, task_event
from engine import Outcome, PhaseKind, rng_for
from engine.ending import by_forfeit, by_nobody
from games.models import Match, Phase, Seat, Submission
from games.prepared import Prepared, run_together
from games.receipts import new_salt, receipt_for
from games.services.common import (
    game_for,
    phase_failure_record,
    phase_open,
    required_seats,
    rules_ending,
)
from games.services.errors import ServiceError
from games.services.match import match_set_status
from games.services.queue import signal_event
from games.services.seeking import VACATED_FIELDS, seat_vacate
from games.services.sweep import claims_release
from games.services.tenures import Ending, tenure_end
from games.services.timing import clocks_close, expired_seats, seat_due, uses_clock
from games.services.vacation import seats_with_hours_and_leave
from games.services.votes import votes_seat_changed

logger = logging.getLogger(__name__)

# A seat's counters every resolution may change (a vacated seat changes ``VACATED_FIELDS`` too).
SEAT_COUNTS = ["missed_in_row", "missed_total", "status"]

# A resolution in a transaction of its own (a worker's, the sweeper's) ends it with its
# writes, in the same round trip (``one_round_trip(commit=True)``), and commits without
# waiting for its WAL to reach the disk (PostgreSQL's asynchronous commit: about a
# millisecond, often more, of each resolution was that wait). The asynchronous commit is
# safe because a resolution can always be done again: it only resolves a phase that is
# complete or overdue, the engine is deterministic (the match's seed), and a phase left open
# by a server crash that lost the commit is found again by the sweeper (complete_at,
# deadline). Nothing about it leaves the system before a later, synchronous commit has made
# it durable: WAL is flushed in order, and the outbox's notifications, the mails, the bots'
# moves and every player's next order are each committed synchronously before anyone is
# told, or acts. The database stays consistent either way. Orders themselves
# (``orders_submit``, and the sequential phases it resolves at once) and moderators' tools
# keep synchronous commits.
LAZY_COMMIT = "SET LOCAL synchronous_commit TO off"


def phase_resolve(*, match_id: Any, phase_number: int) -> bool:
    """Resolve the phase if it is still open and either complete or past its deadline.

    Locks the match row; a duplicate, concurrent or re-run call is a no-op returning False.
    A resolution that raises is recorded (attempts, last_error) in its own transaction and,
    after settings.RESOLVE_MAX_ATTEMPTS, the phase is quarantined for moderators.
    """
    resolved, error = _resolve_guarded(match_id, phase_number, own=_owns_transaction())
    if error is not None:
        phase_failure_record(match_id, int(phase_number), error)
    return resolved


def phases_resolve(pairs: list[tuple[int, int]] | list[list[int]]) -> int:
    """Resolve a sweep's batch of (match id, phase number) together: one transaction and a
    bounded number of queries for the whole batch (each match's lock, phase, seats and sheets
    read at once, its changes written at once), so a sweep costs what the engine costs. A
    match whose resolution raises is left out of the batch's writes and recorded (after the
    batch, in its own transaction) while the others resolve. Should a write of the batch
    fail, the batch is resolved again one match at a time, each in its own savepoint. A match
    locked by someone else is skipped, as in ``phase_resolve``. Returns how many were
    resolved."""
    pairs = [(match_id, int(number)) for match_id, number in pairs]
    started = timezone.now()
    own = _owns_transaction()
    try:
        with transaction.atomic():
            resolved, failures = _resolve_many(pairs, skip_locked=True, own=own)
    except (OperationalError, InterfaceError):
        raise
    except DatabaseError:
        logger.exception("a sweep's batch of %s failed to write: one match at a time",
                         len(pairs))
        resolved, failures = 0, []
        with transaction.atomic():
            for match_id, phase_number in pairs:
                done, error = _resolve_guarded(match_id, phase_number, own=False)
                resolved += done
                if error is not None:
                    failures.append((match_id, phase_number, error))
    for match_id, phase_number, error in failures:
        phase_failure_record(match_id, phase_number, error)
    if resolved + len(failures) < len(pairs):  # (a failed one waits for its claim to go stale)
        failed = {int(match_id) for match_id, _, _ in failures}
        claims_release([match_id for match_id, _ in pairs if int(match_id) not in failed],
                       claimed_before=started)
    return resolved


def _owns_transaction() -> bool:
    """Whether the transaction about to begin is the resolution's own (not a caller's, which
    may hold more than a resolution: that one keeps its synchronous commit)."""
    return not transaction.get_connection().in_atomic_block


def _resolve_guarded(match_id: Any, phase_number: Any, *, own: bool
                     ) -> tuple[bool, BaseException | None]:
    """``phase_resolve_locked`` in its own atomic block (a savepoint inside a batch): whether
    it resolved, and the error to record against the phase (None for "no such match"). A
    failure of the database itself is raised: not the phase's fault; the redelivery or the
    sweeper retries it."""
    try:
        with transaction.atomic():
            return phase_resolve_locked(match_id=match_id, phase_number=int(phase_number),
                                        skip_locked=True, own=own), None
    except ServiceError as error:
        logger.info("phase_resolve(%s, %s): %s", match_id, phase_number, error.message)
        return False, None if error.code == "not_found" else error
    except (OperationalError, InterfaceError):
        raise
    except Exception as error:  # a poison phase, whatever the engine raised
        logger.exception("resolving match %s phase %s failed", match_id, phase_number)
        return False, error


def phase_resolve_locked(*, match_id: Any, phase_number: int, skip_locked: bool = False,
                         own: bool = False) -> bool:
    """The resolution itself, inside the caller's transaction: it takes the match lock (a
    no-op if the caller holds it, as ``orders_submit`` does for a sequential phase, where the
    input is applied at once). With ``skip_locked`` a match locked by someone else is left
    alone (False): a duplicate task must not queue behind the real work. ``own``: the
    caller's atomic block is the outermost and holds nothing but this resolution, which
    commits it asynchronously with its writes (``LAZY_COMMIT``). Raises whatever the engine
    raised; ``phase_resolve`` records that for the sweeper's retries.

    A bounded number of queries whatever the seat count: the open phase with its match
    (locked), the seats, the sheets, one INSERT of missing sheets, one UPDATE of changed
    seats, the phase, the next phase, the match, and one INSERT of every side effect
    promised in the outbox (``_resolve_many``, the sweep's batch path, with one match).
    """
    try:
        match_pk = int(match_id)
    except (ValueError, TypeError):
        raise ServiceError("not_found", _("There is no match %(number)s.")
                           % {"number": match_id}) from None
    resolved, failures = _resolve_many([(match_pk, phase_number)], skip_locked=skip_locked,
                                       must_exist=True, own=own)
    for _match, _phase, error in failures:
        raise error
    return bool(resolved)


def _open_phases(skip_locked: bool) -> Prepared:
    return Prepared(Phase, lambda ids: (
        Phase.objects.select_related("match").defer("state_before")
        .select_for_update(of=("match",), skip_locked=skip_locked, no_key=True)
        .filter(match_id__any_of=ids, status=Phase.Status.OPEN).order_by("match_id")),
        server_side=True, ids="ints")


# The resolution's reads, compiled once per connection (games/prepared.py).
_OPEN_PHASES = _open_phases(skip_locked=False)
_OPEN_PHASES_SKIP_LOCKED = _open_phases(skip_locked=True)
_OPEN_SHEETS = Prepared(Submission, lambda ids: Submission.objects.filter(
    phase__match_id__any_of=ids, phase__status=Phase.Status.OPEN).order_by(),
    server_side=True, ids="ints")


def _resolve_many(pairs: list[tuple[Any, int]], *, skip_locked: bool, must_exist: bool = False,
                  own: bool = False) -> tuple[int, list[tuple[Any, int, BaseException]]]:
    """Resolve the due phases of ``pairs`` (match id, phase number) in the caller's
    transaction: read everything in three queries (the open phases with their matches,
    locked; the seats with their players' active hours and leave; the sheets), settle each
    match in memory (``_settle``), then write every change in one statement per table. A match whose
    settling raised is left out of the writes and returned with its error. ``own``: as in
    ``phase_resolve_locked``."""
    wanted = dict(pairs)
    ids = list(wanted)
    now = timezone.now()
    # One round trip: the open phases with their matches, the matches locked (in id order),
    # then, seeing those locks, the seats (with their players' hours and leave) and sheets.
    locked, seat_rows, sheet_rows = run_together(
        (_OPEN_PHASES_SKIP_LOCKED if skip_locked else _OPEN_PHASES, {"ids": ids}),
        (seats_with_hours_and_leave, {"ids": ids, "now": now}),
        (_OPEN_SHEETS, {"ids": ids}), before=[LAZY_COMMIT] if own else [])
    phases: dict[int, Phase] = {}
    matches: list[Match] = []
    for phase in locked:
        match = phase.match
        # (a match paused by a moderator is queued again when resumed; a continuous phase is
        # applied action by action, its deadline being the gameday tick)
        if (match.status == Match.Status.ACTIVE and match.paused_at is None
                and match.phase_number == wanted[match.pk] == phase.number
                and match.phase_kind != PhaseKind.CONTINUOUS.value):
            phases[match.pk] = phase
            matches.append(match)
    if must_exist and not matches and not Match.objects.filter(pk__in=ids).exists():
        raise ServiceError("not_found", _("There is no match %(number)s.")
                           % {"number": next(iter(wanted))})
    if not matches:
        return 0, []
    # (the rows of matches left out — locked by someone else, or not due — are not used)
    seats: dict[int, dict[int, Seat]] = {match.pk: {} for match in matches}
    by_id: dict[int, Seat] = {}
    for seat in seat_rows:
        if seat.match_id in seats:
            seats[seat.match_id][seat.number] = by_id[seat.pk] = seat
    sheets: dict[int, dict[int, Submission]] = {match.pk: {} for match in matches}
    for sheet in sheet_rows:
        seat = by_id.get(sheet.seat_id)
        if seat is not None and sheet.phase_id == phases[seat.match_id].pk:
            sheets[seat.match_id][seat.number] = sheet

    settled: list[_Settled] = []
    failures: list[tuple[Any, int, BaseException]] = []
    for match in matches:
        try:
            outcome = _settle(match, phases[match.pk], seats[match.pk], sheets[match.pk], now)
        except Exception as error:  # a poison phase, whatever the engine raised
            if must_exist:
                raise
            logger.exception("resolving match %s phase %s failed", match.pk, match.phase_number)
            failures.append((match.pk, match.phase_number, error))
            continue
        if outcome is not None:
            settled.append(outcome)
    if not settled:
        return 0, failures

    # The tenures the missed-deadline policy ended (rare: a query each, before the rest), and
    # the open proposals of a match whose seat changed hands.
    for done in settled:
        for seat_number, ending in done.tenures_ended:
            tenure_end(match_id=done.match.pk, seat_number=seat_number, at=now, ending=ending)
        if done.vacated:
            done.promised += votes_seat_changed(match=done.match, now=now)
    # Sheets entered ahead for the phases now opening are carried out in this transaction,
    # after these writes: before its commit, so before any mail of those phases is made.
    ahead = [done for done in settled if done.sheets_ahead]
    # The writes below: one string of statements, one wait (with the COMMIT, when ``own``
    # and nothing follows them).
    with one_round_trip(commit=own and not ahead):
        rows_insert([sheet for done in settled for sheet in done.missing])
        rows_update([done.phase for done in settled],
                    ["revealed", "events", "resolved_at", "status"])
        rows_update([seat for done in settled for seat in done.changed
                     if seat.number not in done.vacated], SEAT_COUNTS)
        rows_update([seat for done in settled for seat in done.changed
                     if seat.number in done.vacated],
                    sorted({*SEAT_COUNTS, *VACATED_FIELDS}))
        rows_insert([done.next_phase for done in settled if done.next_phase is not None])
        rows_update([done.match for done in settled],
                    sorted({field for done in settled for field in done.fields}))
        outbox_write([event for done in settled for event in done.promised])
    for done in ahead:
        _sheets_ahead_follow(done.match.pk, done.match.phase_number)
    return len(settled), failures


def _sheets_ahead_follow(match_id: int, phase_number: int) -> None:
    """The sheets entered ahead for the phase ``phase_number`` just opened, submitted or
    discarded in the resolution's transaction (``plans.sheets_follow``), so the "your move"
    mail of that phase, made after the commit, says what became of them. Should that fail,
    the phase stays as opened and the task is promised to try again after the commit."""
    from games.services.plans import sheets_follow

    try:
        with transaction.atomic():
            sheets_follow(match_id=match_id, phase_number=phase_number)
    except (OperationalError, InterfaceError):
        raise
    except Exception:
        logger.exception("the sheets entered ahead of match %s phase %s failed",
                         match_id, phase_number)
        outbox_write([task_event("games.tasks.sheets_follow", match_id, match_id=match_id,
                                 phase_number=phase_number)])


@dataclass
class _Settled:
    """What resolving one match changes, for ``_resolve_many`` to write with the others."""

    match: Match
    phase: Phase
    fields: list[str]
    missing: list[Submission] = field(default_factory=list)
    changed: list[Seat] = field(default_factory=list)
    next_phase: Phase | None = None
    promised: list[tuple] = field(default_factory=list)
    vacated: set[int] = field(default_factory=set)  # seats offered to a new commander
    tenures_ended: list[tuple[int, str]] = field(default_factory=list)  # (seat, ending)
    sheets_ahead: bool = False  # sheets entered ahead wait for the phase it opens


def _settle(match: Match, phase: Phase, seats: dict[int, Seat], sheets: dict[int, Submission],
            now: Any) -> _Settled | None:
    """Resolve ``match``'s open ``phase`` in memory if it is due (None if not): every engine
    call comes first, so a failing one leaves nothing written. The only queries are the rare
    ones of a phase opening while a prompted player is on leave, and of a match ending."""
    game = game_for(match.game)
    state = match.state
    prompts = game.prompts(state)
    required = required_seats(prompts)
    if uses_clock(match) and match.timing and "owing" in match.timing:
        # Due when every required seat has a sheet or its clock ran out.
        past_deadline = required - sheets.keys() <= expired_seats(match, now)
    else:
        past_deadline = phase.deadline is not None and phase.deadline <= now
    if not past_deadline and (not sheets or not required <= sheets.keys()):
        return None

    missing = []
    for number in sorted(required - sheets.keys()):
        data = game.default_submission(state, number)
        salt = new_salt()
        missing.append(Submission(
            phase=phase, seat=seats[number], data=data, source=Submission.Source.DEFAULT,
            salt=salt, receipt=receipt_for(salt=salt, data=data), submitted_at=now,
            updated_at=now,
        ))
    sheets = {**sheets, **{sub.seat.number: sub for sub in missing}}
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

    phase_number = phase.number
    rng = rng_for(match.seed, phase_number)
    if phase.kind == PhaseKind.SIMULTANEOUS.value:
        outcome = game.resolve(state, {n: sheet.data for n, sheet in sheets.items()}, rng)
    else:  # sequential: the prompted seat's sheet is applied as it is (its own phase record)
        events: list = []
        for number in sorted(sheets):
            step = game.apply(state, number, sheets[number].data, now, rng)
            state, events = step.state, events + list(step.events)
        outcome = Outcome(state, events)
    # The match's missed-deadline policy decides who is out, the game what that means.
    flagged, forfeits = _miss_policy(match, seats)
    removed: list[int] = []
    if forfeits:
        removal = game.remove_seats(outcome.state, forfeits)
        if removal is not None:  # the game goes on without them
            removed, forfeits = forfeits, []
            outcome = Outcome(removal.state, list(outcome.events) + list(removal.events))
    result = game.result(outcome.state)
    phase.revealed = {
        str(n): {"data": s.data, "source": s.source, "salt": s.salt, "receipt": s.receipt}
        for n, s in sorted(sheets.items())
    }
    for number in removed:  # (a replay removes them again: ``engine.record.phase_replay``)
        phase.revealed[str(number)]["removed"] = True
    phase.events = list(outcome.events)
    phase.resolved_at = now
    phase.status = Phase.Status.RESOLVED

    # When each missed deadline passed (a clock: when it ran out), for the leave check.
    due_at = {seat: min(now, seat_due(match, int(seat)) or phase.deadline or now).isoformat()
              for seat in misses}
    clocks_close(match, required=required,
                 defaulted=[sub.seat.number for sub in missing], now=now)
    promised: list[tuple] = [signal_event("phase_resolved", match.pk, match_id=match.pk,
                                          phase_number=phase_number, finished=False)]
    tenures_ended = []
    for number in [*removed, *forfeits]:
        seats[number].status = Seat.Status.FORFEITED
        changed[number] = seats[number]
        tenures_ended.append((number, Ending.FORFEITED))
    vacated = set()
    if result is None and not forfeits:  # the match goes on: flagged seats seek a commander
        for number in flagged:
            promised += seat_vacate(match=match, seat=seats[number], game=game, now=now,
                                    ending=Ending.MISSED)
            changed[number] = seats[number]
            vacated.add(number)
            tenures_ended.append((number, Ending.MISSED))
    if misses:  # the players' reliability records, written after the commit (no query here)
        promised.append(task_event("games.tasks.deadline_misses_record", match.pk,
                                   match_id=match.pk, phase_number=phase_number,
                                   missed_at=now.isoformat(), users=misses, due_at=due_at))
    match.state = outcome.state
    match.complete_at = None
    match.queued_at = None
    fields = ["state", "complete_at", "result", "phase_number", "phase_kind", "phase_name",
              "deadline", "queued_at", "timing"]
    next_phase = None
    finished_note = None
    sheets_ahead = False
    if result is not None:
        match.result = rules_ending(game, result)
        finished_note = result.reason
    elif forfeits:
        match.result = by_forfeit(seats, forfeits).as_json()
        finished_note = match.result["reason"]
    else:
        next_phase = phase_open(match=match, game=game, state=outcome.state,
                                number=phase_number + 1, now=now, events=promised,
                                bots={n: s.bot for n, s in seats.items() if s.bot},
                                windows={n: window_of(s) for n, s in seats.items()},
                                away={n for n, s in seats.items() if s.on_leave_until},
                                create=False)
        if next_phase is None:
            match.result = by_nobody().as_json()
            finished_note = "no prompts left"
        elif match.sheets_ahead:  # sheets entered ahead: checked once the phase is written
            sheets_ahead = True
        elif missing and game.plans and next_phase.kind == PhaseKind.SEQUENTIAL.value:
            # A turn played by default: the next seat's plan is followed after the commit
            # (a turn sent by a seat is followed at once by ``orders_submit``).
            promised.append(task_event("games.tasks.plans_follow", match.pk, match_id=match.pk,
                                       phase_number=next_phase.number))
    if finished_note is not None:
        match_set_status(match=match, new_status=Match.Status.FINISHED,
                         note=finished_note[:255], events=promised, save=False)
        fields += ["status", "finished_at"]
        promised[0] = signal_event("phase_resolved", match.pk, match_id=match.pk,
                                   phase_number=phase_number, finished=True)
    return _Settled(match=match, phase=phase, fields=fields, missing=missing,
                    changed=list(changed.values()), next_phase=next_phase, promised=promised,
                    vacated=vacated, tenures_ended=tenures_ended,
                    sheets_ahead=sheets_ahead)


def _miss_policy(match: Match, seats: dict[int, Seat]) -> tuple[list[int], list[int]]:
    """The seats whose player has now missed the match's ``miss_limit`` deadlines in a row:
    (flagged for a new commander, forfeited), by the match's policy. Only a player's seat
    counts: a bot, or a seat nobody holds (seeking a commander), is never flagged or
    forfeited. The one counter: the game counts none of its own (it says what a removal
    means: ``Game.remove_seats``)."""
    flagged, forfeits = [], []
    for number, seat in sorted(seats.items()):
        if (seat.bot or seat.user_id is None or seat.missed_in_row < match.miss_limit
                or seat.status not in (Seat.Status.TAKEN, Seat.Status.FLAGGED)):
            continue
        if match.miss_policy == Match.MissPolicy.FORFEIT:
            forfeits.append(number)
        elif seat.status == Seat.Status.TAKEN:
            flagged.append(number)
    return flagged, forfeits
