"""Active hours (writes and reads) and the windows of a match's seats."""

from __future__ import annotations

import zoneinfo
from datetime import datetime, time, timedelta
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import F, QuerySet
from django.utils.translation import gettext as _

from clocks.arithmetic import Window
from clocks.models import MIN_WINDOW_MINUTES, ActiveHours


class HoursError(ValueError):
    """Active hours that cannot be kept, with a sentence saying why."""


def _minutes(start: time, end: time) -> int:
    day = datetime(2000, 1, 1)
    length = datetime.combine(day, end) - datetime.combine(day, start)
    if length <= timedelta(0):
        length += timedelta(days=1)
    return int(length.total_seconds() // 60)


@transaction.atomic
def active_hours_set(*, user: AbstractBaseUser, start: time | None, end: time | None,
                     time_zone: str) -> ActiveHours | None:
    """Set (or, with no start and no end, clear) ``user``'s active hours in ``time_zone``.
    Raises HoursError for half a window, an unknown zone or a window under an hour. New
    hours apply from the next phase that opens (a phase's clocks keep the hours it opened
    with)."""
    if start is None and end is None:
        ActiveHours.objects.filter(user=user).delete()
        return None
    if start is None or end is None:
        raise HoursError(_("Give both the start and the end of your active hours, or neither."))
    try:
        zoneinfo.ZoneInfo(time_zone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        raise HoursError(_("“%(zone)s” is not a known time zone.") % {"zone": time_zone}) from None
    start, end = start.replace(second=0, microsecond=0), end.replace(second=0, microsecond=0)
    if start == end or _minutes(start, end) < MIN_WINDOW_MINUTES:
        raise HoursError(_("Active hours must last at least %(least)s minutes (%(start)s–%(end)s "
                           "is shorter).") % {"least": MIN_WINDOW_MINUTES,
                                              "start": f"{start:%H:%M}", "end": f"{end:%H:%M}"})
    hours, _created = ActiveHours.objects.update_or_create(
        user=user, defaults={"start": start, "end": end, "time_zone": time_zone})
    return hours


def active_hours_of(user: Any) -> ActiveHours | None:
    if user is None or not getattr(user, "pk", None):
        return None
    return ActiveHours.objects.filter(user=user).first()


def with_windows(seats: QuerySet) -> QuerySet:
    """``seats`` (a Seat queryset) with each player's active hours joined in (no extra query):
    read them with ``window_of``."""
    return seats.annotate(hours_start=F("user__active_hours__start"),
                          hours_end=F("user__active_hours__end"),
                          hours_zone=F("user__active_hours__time_zone"))


def window_of(seat: Any) -> Window | None:
    """The active hours of a seat from ``with_windows`` (None: a bot, or always active)."""
    start = getattr(seat, "hours_start", None)
    if start is None or not getattr(seat, "user_id", None):
        return None
    try:
        return Window(start, seat.hours_end, seat.hours_zone)
    except (ValueError, zoneinfo.ZoneInfoNotFoundError):
        return None


def windows_of_users(user_ids: list[int]) -> dict[int, Window]:
    """user id → active hours, for the users that set them (one query)."""
    return {row.user_id: row.window
            for row in ActiveHours.objects.filter(user_id__in=user_ids)}
