"""Players' vacations: a yearly bank of days (settings.VACATION_DAYS_PER_YEAR); taking leave
moves the deadline of every phase where the player is prompted and has no sheet in yet, in
the matches that allow vacations (``Match.allow_vacations``), by the leave's length; a phase
that opens during a leave gets the rest of it. One phase is never moved by more than
settings.VACATION_MAX_PHASE_DAYS by leave, all leaves together.

On correspondence clocks nothing is moved by a fixed amount: the leave is excused on the
player's own seat's clock (``timing.clock_leave``; at most VACATION_MAX_PHASE_DAYS of it per
seat and phase), so that seat's due time moves on, and the match's deadline with it when that
clock runs out last; the other seats' clocks keep running.

Not moved: gameday (continuous) matches, whose gamedays begin at scheduled times; paused
matches while paused (a leave still running when one resumes is applied then,
``leave_after_pause``). Bots take no leave. A deadline missed on leave anyway (no vacations in
that match, or past the cap) is excused in the reliability record
(``reliability.deadline_misses_record``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import F, OuterRef, QuerySet, Subquery, Sum
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from clocks.services import with_windows
from durable.outbox import outbox_write
from engine import PhaseKind
from games.audit_words import audit_words, english, span
from games.models import Leave, LeaveExtension, Match, ModerationEntry, Phase, Seat, Submission
from games.prepared import Prepared
from games.services.common import game_for, match_lock
from games.services.errors import ServiceError
from games.services.queue import signal_event
from games.services.timing import clock_leave, uses_clock

CONTINUOUS = PhaseKind.CONTINUOUS.value


@dataclass(frozen=True)
class VacationBank:
    year: int
    days_per_year: int
    used: int

    @property
    def left(self) -> int:
        return max(0, self.days_per_year - self.used)


def vacation_bank(*, user: AbstractBaseUser, now: datetime | None = None) -> VacationBank:
    """The player's bank this calendar year (UTC): leave is counted in the year it starts."""
    now = now or timezone.now()
    used = Leave.objects.filter(user=user, starts_at__year=now.year).aggregate(
        days=Sum("days"))["days"] or 0
    return VacationBank(year=now.year, days_per_year=settings.VACATION_DAYS_PER_YEAR, used=used)


def leave_current(*, user: AbstractBaseUser, now: datetime | None = None) -> Leave | None:
    now = now or timezone.now()
    return Leave.objects.filter(user=user, starts_at__lte=now, ends_at__gt=now).first()


def phase_cap() -> timedelta:
    return timedelta(days=settings.VACATION_MAX_PHASE_DAYS)


@transaction.atomic
def leave_take(*, user: AbstractBaseUser, days: Any, now: datetime | None = None) -> Leave:
    """Start a leave of ``days`` whole days now, from the bank, and move the deadlines it
    concerns (each match locked in turn). Refused while another leave runs."""
    if user is None or not user.is_authenticated:
        raise ServiceError("not_allowed", _("Log in to take leave."))
    if isinstance(days, bool):
        days = None
    try:
        days = int(str(days).strip())
    except (TypeError, ValueError):
        raise ServiceError("invalid", _("“%(value)s” is not a whole number of days.")
                           % {"value": days}) from None
    now = now or timezone.now()
    # One leave at a time per player: taken under the player's row lock.
    get_user_model().objects.select_for_update().filter(pk=user.pk).first()
    bank = vacation_bank(user=user, now=now)
    if not 1 <= days <= bank.left:
        raise ServiceError("capped", _("You can take 1 to %(left)s days of leave (your bank: "
                                       "%(per_year)s days a year, %(used)s used).")
                           % {"left": bank.left, "per_year": bank.days_per_year,
                              "used": bank.used})
    running = leave_current(user=user, now=now)
    if running is not None:
        raise ServiceError("invalid", _("You are on leave until %(until)s UTC already.")
                           % {"until": f"{running.ends_at:%Y-%m-%d %H:%M}"})
    leave = Leave.objects.create(user=user, starts_at=now, ends_at=now + timedelta(days=days),
                                 days=days)
    match_ids = list(Seat.objects.filter(
        user=user, status=Seat.Status.TAKEN, match__status=Match.Status.ACTIVE,
        match__allow_vacations=True, match__paused_at__isnull=True,
    ).exclude(match__phase_kind=CONTINUOUS).order_by("match_id")
        .values_list("match_id", flat=True))
    for match_id in match_ids:
        _leave_apply(match=match_lock(match_id), user=user, leave=leave, now=now)
    outbox_write([signal_event("leave_taken", None, leave_id=leave.pk)])
    return leave


def _leave_apply(*, match: Match, user: AbstractBaseUser, leave: Leave, now: datetime
                 ) -> timedelta:
    """``_extend_for`` and its audit row ("alice is on leave: …"); the caller holds the lock."""
    from games.services.moderation import audit_write

    added = _extend_for(match=match, user=user, leave=leave, now=now)
    if added:
        message = (gettext_noop("%(player)s is on leave: their clock stops for %(added)s")
                   if uses_clock(match)
                   else gettext_noop("%(player)s is on leave: the deadline moved by %(added)s"))
        audit_write(match=match, kind=ModerationEntry.Kind.LEAVE, by=user,
                    reason=f"on leave until {leave.ends_at:%Y-%m-%d %H:%M} UTC",
                    summary=audit_words(message, player=user.get_username(), added=span(added)),
                    details={"leave": leave.pk, "added_seconds": added.total_seconds()})
    return added


def leave_after_pause(*, match: Match, paused_at: datetime, now: datetime) -> None:
    """A paused match was not moved for the leaves its players took meanwhile (its deadline
    was stopped anyway): on resuming, those leaves that still run are applied as if taken now
    (the caller holds the lock and has restored the deadline)."""
    leaves = (Leave.objects.filter(starts_at__gte=paused_at, starts_at__lte=now, ends_at__gt=now,
                                   user__seats__match=match,
                                   user__seats__status=Seat.Status.TAKEN)
              .select_related("user").distinct().order_by("pk"))
    for leave in leaves:
        _leave_apply(match=match, user=leave.user, leave=leave, now=now)


def _extend_for(*, match: Match, user: AbstractBaseUser, leave: Leave, now: datetime
                ) -> timedelta:
    """Move the locked ``match``'s open phase by the rest of ``leave`` if ``user`` must act in
    it and has not (on clocks: stop their seat's clock for it); returns what was added (zero
    if nothing)."""
    if (match.status != Match.Status.ACTIVE or match.paused_at is not None
            or match.deadline is None or match.phase_kind == CONTINUOUS
            or not match.allow_vacations):
        return timedelta(0)
    seat = Seat.objects.filter(match=match, user=user).first()
    phase = Phase.objects.filter(match=match, number=match.phase_number,
                                 status=Phase.Status.OPEN).defer("state_before").first()
    if seat is None or phase is None:
        return timedelta(0)
    prompts = game_for(match.game).prompts(match.state)
    if seat.number not in prompts or Submission.objects.filter(phase=phase, seat=seat).exists():
        return timedelta(0)
    if uses_clock(match):
        added = clock_leave(match, seat.number, now, leave.ends_at, phase_cap())
        if added > timedelta(0):
            match.save(update_fields=["timing", "deadline"])
            Phase.objects.filter(pk=phase.pk).update(deadline=match.deadline)
            LeaveExtension.objects.create(leave=leave, match=match, phase_number=phase.number,
                                          added=added, at=now)
        return added
    added = min(leave.ends_at - now, phase_cap() - phase.leave_extended)
    if added <= timedelta(0):
        return timedelta(0)
    match.deadline += added
    match.save(update_fields=["deadline"])
    Phase.objects.filter(pk=phase.pk).update(deadline=match.deadline,
                                             leave_extended=phase.leave_extended + added)
    LeaveExtension.objects.create(leave=leave, match=match, phase_number=phase.number,
                                  added=added, at=now)
    return added


def with_leave(seats: QuerySet, now: datetime) -> QuerySet:
    """``seats`` (a Seat queryset) with ``on_leave_until``: when the player's leave running at
    ``now`` ends (None: not away). Joined into the caller's query (no extra round trip)."""
    running = Leave.objects.filter(user=OuterRef("user"), starts_at__lte=now, ends_at__gt=now)
    return seats.annotate(on_leave_until=Subquery(
        running.order_by("-ends_at").values("ends_at")[:1]))


# The seats of some matches with their players' active hours and running leave, the SQL
# compiled once per connection and planned once per session (games/prepared.py): what a
# resolution and a match's start read.
seats_with_hours_and_leave = Prepared(Seat, lambda ids, now: with_leave(with_windows(
    Seat.objects.filter(match_id__any_of=ids)), now).order_by(), server_side=True,
    ids="ints", now="time")


def leave_for_new_phase(*, match: Match, prompted: list[int], now: datetime,
                        away: set[int] | None = None) -> tuple[timedelta, list[Leave]]:
    """For a sealed or sequential phase opening now: how long the leave of its prompted players
    still runs (the longest, capped), and those leaves. One query, none when the caller knows
    (``away``: the seats whose player is on leave, from ``with_leave``) that no prompted player
    is away."""
    if not match.allow_vacations:
        return timedelta(0), []
    if away is not None and not away & set(prompted):
        return timedelta(0), []
    leaves = list(Leave.objects.filter(
        starts_at__lte=now, ends_at__gt=now, user__seats__match=match,
        user__seats__number__in=prompted, user__seats__status=Seat.Status.TAKEN,
    ).select_related("user"))
    if not leaves:
        return timedelta(0), []
    return min(max(leave.ends_at for leave in leaves) - now, phase_cap()), leaves


def leave_for_clock_phase(*, match: Match, required: list[int], now: datetime,
                          away: set[int] | None = None) -> tuple[dict[int, datetime],
                                                                  list[tuple[int, Leave]]]:
    """For a phase on clocks opening now: until when each required seat's clock is stopped for
    its player's leave (capped), and those (seat number, leave) pairs. One query, none when
    the caller knows (``away``, as for ``leave_for_new_phase``) that nobody required is away."""
    if not match.allow_vacations or (away is not None and not away & set(required)):
        return {}, []
    rows = list(Leave.objects.filter(
        starts_at__lte=now, ends_at__gt=now, user__seats__match=match,
        user__seats__number__in=required, user__seats__status=Seat.Status.TAKEN,
    ).annotate(seat_number=F("user__seats__number")).select_related("user"))
    until = {row.seat_number: min(row.ends_at, now + phase_cap()) for row in rows}
    return until, [(row.seat_number, row) for row in rows]


def leave_record_clock_phase(*, match: Match, phase: Phase, leaves: list[tuple[int, Leave]],
                             until: dict[int, datetime], now: datetime) -> None:
    """The records of a phase on clocks that opened with seats' clocks stopped for leave (see
    ``leave_for_clock_phase``)."""
    LeaveExtension.objects.bulk_create([
        LeaveExtension(leave=leave, match=match, phase_number=phase.number,
                       added=until[seat] - now, at=now) for seat, leave in leaves])
    away = [audit_words(gettext_noop("%(player)s's clock stopped until %(until)s UTC"),
                        player=leave.user.get_username(), until=f"{until[seat]:%Y-%m-%d %H:%M}")
            for seat, leave in sorted(leaves, key=lambda pair: pair[0])]
    words = audit_words(gettext_noop("on leave: %(away)s"), away=away)
    ModerationEntry.objects.create(
        match=match, kind=ModerationEntry.Kind.LEAVE, by=None, at=now,
        phase_number=phase.number, reason="on leave", summary=english(words)[:255],
        details={"leaves": [leave.pk for _, leave in leaves],
                 "added_seconds": (max(until[seat] for seat, _ in leaves) - now)
                 .total_seconds(), "words": words})


def leave_record_new_phase(*, match: Match, phase: Phase, added: timedelta,
                           leaves: list[Leave], now: datetime) -> None:
    """The records of a phase that opened with leave added (see ``leave_for_new_phase``)."""
    LeaveExtension.objects.bulk_create([
        LeaveExtension(leave=leave, match=match, phase_number=phase.number,
                       added=min(added, leave.ends_at - now), at=now) for leave in leaves])
    names = ", ".join(sorted({leave.user.get_username() for leave in leaves}))
    words = audit_words(
        gettext_noop("%(players)s on leave: phase %(phase)s's deadline moved by %(added)s"),
        players=names, phase=phase.number, added=span(added))
    ModerationEntry.objects.create(
        match=match, kind=ModerationEntry.Kind.LEAVE, by=None, at=now,
        phase_number=phase.number, reason=f"{names} on leave", summary=english(words)[:255],
        details={"leaves": [leave.pk for leave in leaves],
                 "added_seconds": added.total_seconds(), "words": words})
