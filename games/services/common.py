"""Helpers shared by the services: finding the game, locking the match, opening phases."""

from __future__ import annotations

import logging
import traceback
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _

import engine
from clocks.arithmetic import Window
from clocks.services import windows_of_users
from dbops.bulk import rows_insert
from durable.outbox import outbox_write, task_event
from engine import Game, PhaseKind, Problem, Prompt
from engine.ending import by_rules
from games.models import DeadlineMove, Match, Phase, Seat
from games.parsing import id_or_none
from games.services.errors import ServiceError
from games.services.queue import signal_event
from games.services.timing import needs_windows, phase_timing, uses_clock

logger = logging.getLogger(__name__)

@dataclass(frozen=True)
class Receipt:
    """What the author gets back for a stored sheet (the salt lets them verify the receipt)."""

    submission_id: int
    receipt: str
    salt: str
    revision: int
    data: dict[str, Any]
    warnings: list[Problem] = field(default_factory=list)
    complete: bool = False  # every required seat is in: resolution is queued


def rules_ending(game: Game, result: Any) -> dict[str, Any]:
    """The stored ending (``Match.result``) of a match the game's rules ended with ``result``
    (an ``engine.Result``): every way a match ends is built in ``engine.ending``."""
    return by_rules(result, game.phrasebook).as_json()


def removed_seats(revealed: dict[str, Any] | None) -> list[int]:
    """The seats the match's missed-deadline policy took out of the game after a phase's
    sheets (``games.services.resolve`` marks their revealed sheet ``"removed": true``), for
    replays (``engine.record.phase_replay``)."""
    return sorted(int(seat) for seat, sheet in (revealed or {}).items()
                  if isinstance(sheet, dict) and sheet.get("removed"))


def game_for(slug: Any) -> Game:
    """The game called ``slug``, or ServiceError ``unknown_game`` naming it (cut to 40
    characters: it may be anything a form or the API sent)."""
    try:
        return engine.get(slug)
    except KeyError:
        raise ServiceError("unknown_game", _("There is no game called “%(game)s”.")
                           % {"game": str(slug)[:40]}) from None


def match_lock(match_id: Any) -> Match:
    """Lock and return the match row. Every path that changes a match's phase or result
    goes through here (inside a transaction) so two writers never race.

    The lock is ``FOR NO KEY UPDATE`` (the match's key never changes): it excludes every other
    match lock but not the key-share lock PostgreSQL takes on the match while another
    transaction inserts a row that refers to it (a mail, a pairing, a rating). With ``FOR
    UPDATE`` such a row would make the resolution's ``SKIP LOCKED`` pass the match by."""
    try:
        return Match.objects.select_for_update(no_key=True).get(pk=id_or_none(match_id))
    except (Match.DoesNotExist, ValueError, TypeError):
        raise ServiceError("not_found", _("There is no match %(number)s.")
                           % {"number": match_id}) from None


def phase_deadline(match: Match, now: Any) -> Any:
    return now + timedelta(hours=float(match.hours_per_phase))


def required_seats(prompts: dict[int, Prompt]) -> set[int]:
    return {seat for seat, prompt in prompts.items() if prompt.required}


def phase_open(*, match: Match, game: Game, state: dict, number: int, now: Any,
               events: list[tuple] | None = None, bots: dict[int, str] | None = None,
               windows: dict[int, Window | None] | None = None,
               away: set[int] | None = None, create: bool = True) -> Phase | None:
    """Open phase ``number`` on ``state`` (caller holds the match lock and saves the match,
    ``timing`` included). With ``create=False`` the phase row is returned unsaved, for the
    caller to insert with others (a sweep's batch).

    Returns None (and opens nothing) when nobody is prompted. The "phase opened" signal and a
    task for each prompted bot seat are promised in the outbox: appended to ``events`` when the
    caller writes its own, else written here. ``bots`` (seat number → bot) and ``windows``
    (seat number → the player's active hours) save a query each when the caller has the seats;
    so does ``away`` (the seats whose player is on leave now, from ``vacation.with_leave``).
    The deadline is the fixed one (moved out of a required seat's night, then by the rest of
    prompted players' leave) or, with clocks, the last moment a required seat's clock runs out
    (``timing.phase_timing``; a seat whose player is on leave starts its clock when they are
    back).
    """
    prompts = game.prompts(state)
    if not prompts:
        return None
    kinds = {prompt.kind for prompt in prompts.values()}
    kind = next(iter(kinds)).value if len(kinds) == 1 else "mixed"
    name = next(iter(prompts.values())).phase
    clock_leave: dict[int, Any] = {}
    clock_leaves: list = []
    if kind == PhaseKind.CONTINUOUS.value:
        # A continuous phase stays open; its "deadline" is the next gameday tick.
        deadline = game.next_tick_at(state, now)
        timing = None
    else:
        required = required_seats(prompts)
        if windows is None:
            windows = _windows(match, required)
        if uses_clock(match):
            from games.services.vacation import leave_for_clock_phase

            # Players on leave: their own seat's clock starts when they are back.
            clock_leave, clock_leaves = leave_for_clock_phase(
                match=match, required=sorted(required), now=now, away=away)
        deadline, timing = phase_timing(match=match, required=required, windows=windows,
                                        now=now, leave=clock_leave)
    leave_added, leaves = timedelta(0), []
    if kind != PhaseKind.CONTINUOUS.value and not uses_clock(match):
        from games.services.vacation import leave_for_new_phase

        # Players on leave: the phase's deadline moves by the rest of their leave (capped).
        # (On clocks each seat has its own bank: leave stops that seat's clock instead.)
        leave_added, leaves = leave_for_new_phase(match=match, prompted=sorted(prompts),
                                                  now=now, away=away)
        deadline += leave_added
    phase = Phase(
        match=match, number=number, kind=kind, name=name, opened_at=now, deadline=deadline,
        state_before=state, leave_extended=leave_added,
    )
    if create:
        rows_insert([phase])
    if leaves:
        from games.services.vacation import leave_record_new_phase

        leave_record_new_phase(match=match, phase=phase, added=leave_added, leaves=leaves,
                               now=now)
    if timing and "moved" in timing:
        _move_record(match, number, timing["moved"], now)
    if clock_leaves:
        from games.services.vacation import leave_record_clock_phase

        leave_record_clock_phase(match=match, phase=phase, leaves=clock_leaves,
                                 until=clock_leave, now=now)
    match.phase_number = number
    match.phase_kind = kind
    match.phase_name = name
    match.deadline = deadline
    match.timing = timing
    match.complete_at = None
    match.state = state
    if bots is None:
        bots = dict(Seat.objects.filter(match=match, number__in=list(prompts)).exclude(bot="")
                    .values_list("number", "bot"))
    promised = [signal_event("phase_opened", match.pk, match_id=match.pk, phase_number=number)]
    promised += [task_event("games.tasks.bot_submit", match.pk, match_id=match.pk,
                            seat_number=seat_number, phase_number=number)
                 for seat_number in sorted(bots) if seat_number in prompts]
    if events is not None:
        events.extend(promised)
    else:
        outbox_write(promised)
    return phase


def _move_record(match: Match, number: int, moved: dict[str, Any], now: Any) -> None:
    """Keep why this phase's deadline left the night of a seat: ``Match.timing`` says it only
    while the phase is open (the processing timeline tells it afterwards)."""
    from datetime import datetime

    DeadlineMove.objects.create(
        match=match, phase_number=number, reason=DeadlineMove.Reason.ACTIVE_HOURS,
        seat_number=moved.get("seat"), moved_from=datetime.fromisoformat(moved["from"]),
        moved_to=datetime.fromisoformat(moved["to"]), capped=bool(moved.get("capped")), at=now)


def _windows(match: Match, seats: set[int]) -> dict[int, Window | None]:
    """The active hours of the players of ``seats`` (two queries; none when they do not
    matter to the match)."""
    if not needs_windows(match):
        return {}
    users = dict(Seat.objects.filter(match=match, number__in=list(seats), user__isnull=False)
                 .values_list("number", "user_id"))
    if not users:
        return {}
    by_user = windows_of_users(list(users.values()))
    return {number: by_user.get(user_id) for number, user_id in users.items()}


def phase_failure_record(match_id: Any, phase_number: int, error: BaseException) -> None:
    """Count a failed resolution (or tick) of a phase in its own transaction; quarantine the
    phase after settings.RESOLVE_MAX_ATTEMPTS and park the match for a moderator."""
    text = "".join(traceback.format_exception(error))[-5000:]
    with transaction.atomic():
        match = Match.objects.select_for_update(no_key=True).filter(pk=match_id).first()
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
