"""The gameday schedule: weekly windows in the match's time zone, or every N minutes.

A gameday is identified by a key: the local date ("2026-11-23") for a weekly schedule, the slot
index ("29391", slots counted from the Unix epoch) for an accelerated one.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from engine.base import Text, pgettext
from engine.base import gettext_noop as _
from engine.tank_game.options import WEEKDAYS

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_SEARCH_DAYS = 800  # holidays could in theory block long runs of weekdays


class Gameday:
    __slots__ = ("key", "start", "end")

    def __init__(self, key: str, start: datetime, end: datetime) -> None:
        self.key, self.start, self.end = key, start, end


def _zone(schedule: dict[str, Any]) -> ZoneInfo:
    return ZoneInfo(schedule.get("time_zone", "UTC"))


def _weekly(schedule: dict[str, Any], day: date) -> Gameday | None:
    if (
        WEEKDAYS[day.weekday()] not in schedule["weekdays"]
        or day.isoformat() in schedule["holidays"]
    ):
        return None
    zone = _zone(schedule)
    opening = time.fromisoformat(schedule["open"])
    closing = time.fromisoformat(schedule["close"])
    start = datetime.combine(day, opening, tzinfo=zone).astimezone(UTC)
    end = datetime.combine(day, closing, tzinfo=zone).astimezone(UTC)
    return Gameday(day.isoformat(), start, end)


def _slot(schedule: dict[str, Any], index: int) -> Gameday:
    start = EPOCH + timedelta(minutes=schedule["minutes"] * index)
    return Gameday(str(index), start, start + timedelta(minutes=schedule["open_minutes"]))


def current(schedule: dict[str, Any], now: datetime) -> Gameday | None:
    """The gameday whose window holds ``now``, or None."""
    if schedule["kind"] == "every":
        index = int((now - EPOCH) // timedelta(minutes=schedule["minutes"]))
        slot = _slot(schedule, index)
        return slot if slot.start <= now < slot.end else None
    local = now.astimezone(_zone(schedule)).date()
    day = _weekly(schedule, local)
    return day if day is not None and day.start <= now < day.end else None


def opens_at_start(schedule: dict[str, Any]) -> bool:
    """Does the match's first gameday open when the match starts (not on the schedule)?"""
    return schedule["kind"] == "weekly" and bool(schedule.get("first_gameday_at_start", False))


def first_at_start(schedule: dict[str, Any], start: datetime) -> Gameday:
    """The first gameday of a match started at ``start`` whose schedule opens it then: it
    carries the local date of ``start`` as its key and lasts until that date's closing time,
    or (that date has no gameday or it has closed) until the next gameday opens."""
    local = start.astimezone(_zone(schedule)).date()
    regular = _weekly(schedule, local)
    if regular is not None and start < regular.end:
        end = regular.end
    else:
        end = first_after(schedule, local.isoformat()).start
    return Gameday(local.isoformat(), start, end)


def first_after(schedule: dict[str, Any], key: str) -> Gameday:
    """The gameday after the one named ``key``."""
    if schedule["kind"] == "every":
        return _slot(schedule, int(key) + 1)
    day = date.fromisoformat(key)
    for _day in range(_SEARCH_DAYS):
        day += timedelta(days=1)
        found = _weekly(schedule, day)
        if found is not None:
            return found
    raise ValueError("the schedule has no gameday in the next two years")


def next_opening(schedule: dict[str, Any], now: datetime) -> Gameday:
    """The first gameday starting strictly after ``now``."""
    if schedule["kind"] == "every":
        index = int((now - EPOCH) // timedelta(minutes=schedule["minutes"]))
        return _slot(schedule, index + 1)
    local = now.astimezone(_zone(schedule)).date() - timedelta(days=1)
    for _day in range(_SEARCH_DAYS):
        local += timedelta(days=1)
        found = _weekly(schedule, local)
        if found is not None and found.start > now:
            return found
    raise ValueError("the schedule has no gameday in the next two years")


# Days and months as ``describe`` abbreviates them.
DAY_NAMES = (pgettext("weekday", "Mon"), pgettext("weekday", "Tue"), pgettext("weekday", "Wed"),
             pgettext("weekday", "Thu"), pgettext("weekday", "Fri"), pgettext("weekday", "Sat"),
             pgettext("weekday", "Sun"))
MONTH_NAMES = (pgettext("month", "Jan"), pgettext("month", "Feb"), pgettext("month", "Mar"),
               pgettext("month", "Apr"), pgettext("month", "May"), pgettext("month", "Jun"),
               pgettext("month", "Jul"), pgettext("month", "Aug"), pgettext("month", "Sep"),
               pgettext("month", "Oct"), pgettext("month", "Nov"), pgettext("month", "Dec"))


def describe(schedule: dict[str, Any], moment: datetime) -> Text:
    """``moment`` in the match's time zone, e.g. "Mon 23 Nov 10:00 Europe/Berlin"."""
    zone = schedule.get("time_zone", "UTC")
    local = moment.astimezone(ZoneInfo(zone))
    return Text(_("%(weekday)s %(day)s %(month)s %(time)s %(zone)s"),
                {"weekday": DAY_NAMES[local.weekday()], "day": f"{local:%d}",
                 "month": MONTH_NAMES[local.month - 1], "time": f"{local:%H:%M}", "zone": zone})


def local_stamp(schedule: dict[str, Any], iso: str) -> str:
    """A stored ISO time as "2026-11-23 10:04" in the match's time zone."""
    zone = ZoneInfo(schedule.get("time_zone", "UTC"))
    return f"{datetime.fromisoformat(iso).astimezone(zone):%Y-%m-%d %H:%M}"
