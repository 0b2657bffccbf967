"""Clock arithmetic, pure (no Django, no clock of its own: every instant is an argument).

A player's *active hours* are a daily window of wall-clock time in their time zone
(``Window``); outside it their clock does not run. A seat is *charged* for the time between
two instants that falls inside its window and outside every *excused* interval (a detected
outage; vacation later adds its own intervals the same way). Everything here works on
time-zone-aware datetimes; a window follows its zone's wall clock across DST changes.
"""

from __future__ import annotations

import zoneinfo
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta

Interval = tuple[datetime, datetime]

# How far ``expiry`` and ``next_window_start`` look ahead. A bank is capped at 30 days and a
# window lasts at least an hour, so an expiry is at most 720 days away.
HORIZON = timedelta(days=800)
ZERO = timedelta(0)


@dataclass(frozen=True)
class Window:
    """A daily window of wall-clock time in ``zone``, from ``start`` to ``end`` (an ``end``
    at or before ``start`` runs past midnight: 22:00–06:00). On a day the window's start does
    not exist (the clocks jump over it), it opens at the jump; on a day it exists twice (the
    clocks fall back), it opens and closes at the first."""

    start: time
    end: time
    zone: str

    def __post_init__(self) -> None:
        if self.start == self.end:
            raise ValueError("An active-hours window must not start and end at the same time.")
        zoneinfo.ZoneInfo(self.zone)  # raises for an unknown zone

    @property
    def tz(self) -> zoneinfo.ZoneInfo:
        return zoneinfo.ZoneInfo(self.zone)

    def as_json(self) -> list[str]:
        return [self.start.strftime("%H:%M"), self.end.strftime("%H:%M"), self.zone]

    @classmethod
    def from_json(cls, value: Sequence[str] | None) -> Window | None:
        if not value:
            return None
        start, end, zone = value
        return cls(time.fromisoformat(start), time.fromisoformat(end), zone)

    def __str__(self) -> str:
        return f"{self.start:%H:%M}–{self.end:%H:%M} {self.zone.replace('_', ' ')}"

    def on(self, day: date) -> Interval | None:
        """The window that opens on local date ``day``, in UTC (None if it is empty)."""
        opens = _instant(day, self.start, self.tz)
        closes_on = day if self.end > self.start else day + timedelta(days=1)
        closes = _instant(closes_on, self.end, self.tz)
        return (opens, closes) if closes > opens else None

    def intervals(self, since: datetime, until: datetime) -> Iterator[Interval]:
        """The windows overlapping [since, until), in order, clipped to it."""
        day = since.astimezone(self.tz).date() - timedelta(days=1)
        last = until.astimezone(self.tz).date() + timedelta(days=1)
        while day <= last:
            window = self.on(day)
            day += timedelta(days=1)
            if window is None:
                continue
            opens, closes = max(window[0], since), min(window[1], until)
            if opens < closes:
                yield opens, closes


def _instant(day: date, wall: time, tz: zoneinfo.ZoneInfo) -> datetime:
    """The first instant at which the wall clock in ``tz`` shows ``wall`` or later on ``day``:
    the usual conversion, except in a DST gap, where it is the moment of the jump."""
    local = datetime.combine(day, wall, tzinfo=tz)
    instant = local.astimezone(UTC)
    if instant.astimezone(tz).replace(tzinfo=None) == local.replace(tzinfo=None):
        return instant
    # ``wall`` does not exist that day: the jump lies between the two readings of it.
    low = datetime.combine(day, wall, tzinfo=tz).replace(fold=1).astimezone(UTC)
    high = instant
    low, high = min(low, high), max(low, high)
    while high - low > timedelta(seconds=1):
        middle = low + (high - low) / 2
        if middle.astimezone(tz).time() >= wall or middle.astimezone(tz).date() > day:
            high = middle
        else:
            low = middle
    return high.replace(microsecond=0)


def merged(intervals: Iterable[Interval]) -> list[Interval]:
    """``intervals`` sorted, overlapping and touching ones joined, empty ones dropped."""
    result: list[Interval] = []
    for start, end in sorted(i for i in intervals if i[1] > i[0]):
        if result and start <= result[-1][1]:
            result[-1] = (result[-1][0], max(result[-1][1], end))
        else:
            result.append((start, end))
    return result


def _without(piece: Interval, excused: list[Interval]) -> Iterator[Interval]:
    """``piece`` minus the (merged, sorted) ``excused`` intervals."""
    start, end = piece
    for gap_start, gap_end in excused:
        if gap_end <= start:
            continue
        if gap_start >= end:
            break
        if gap_start > start:
            yield start, gap_start
        start = max(start, gap_end)
        if start >= end:
            return
    if start < end:
        yield start, end


def _chargeable(since: datetime, until: datetime, window: Window | None,
                excused: list[Interval]) -> Iterator[Interval]:
    """The pieces of [since, until) a seat is charged for, in order."""
    if until <= since:
        return
    active = [(since, until)] if window is None else window.intervals(since, until)
    for piece in active:
        yield from _without(piece, excused)


def charged(since: datetime, until: datetime, window: Window | None = None,
            excused: Iterable[Interval] = ()) -> timedelta:
    """The clock time a seat is charged for [since, until): inside its active hours (all of it
    without a window), outside every excused interval. Never more than ``until - since``."""
    return sum((end - start for start, end in
                _chargeable(since, until, window, merged(excused))), ZERO)


def expiry(since: datetime, bank: timedelta, window: Window | None = None,
           excused: Iterable[Interval] = ()) -> datetime:
    """The instant a clock started at ``since`` with ``bank`` left runs out (``charged(since,
    expiry) == bank``). Looks ``HORIZON`` ahead at most."""
    if bank <= ZERO:
        return since
    spans = merged(excused)
    left = bank
    step = timedelta(days=7)
    start = since
    while start < since + HORIZON:
        for piece_start, piece_end in _chargeable(start, start + step, window, spans):
            if piece_end - piece_start >= left:
                return piece_start + left
            left -= piece_end - piece_start
        start += step
    return since + HORIZON


def is_active(at: datetime, window: Window | None) -> bool:
    """Whether a seat's clock would run at ``at``."""
    if window is None:
        return True
    return any(True for _ in window.intervals(at, at + timedelta(microseconds=1)))


def next_window_start(at: datetime, window: Window | None) -> datetime:
    """``at`` if it is inside the window, else the start of the next one."""
    if window is None:
        return at
    start = at
    while start < at + HORIZON:
        for opens, _ in window.intervals(start, start + timedelta(days=7)):
            return opens
        start += timedelta(days=7)
    return at


def bank_after(bank: timedelta, used: timedelta, increment: timedelta, cap: timedelta
               ) -> timedelta:
    """A seat's bank after a phase: what was left (never below zero), plus the increment,
    never above the cap."""
    return min(cap, max(ZERO, bank - used) + increment)


@dataclass(frozen=True)
class Shift:
    """A fixed deadline moved out of the night of seats that owe input: from ``original`` to
    ``deadline``, last because of ``seat``'s active hours ``window`` (``seats``: every seat
    it was moved for, in order); ``capped`` if the match's maximum shift stopped it before
    every such seat's window was open."""

    original: datetime
    deadline: datetime
    seat: int
    window: Window
    capped: bool
    seats: tuple[int, ...] = ()


def deadline_shift(deadline: datetime, windows: dict[int, Window | None], max_shift: timedelta
                   ) -> Shift | None:
    """Move ``deadline`` to the start of the next active window of every seat (seat number →
    its window; the seats that still owe input) it falls outside of, no further than
    ``max_shift`` past the original: the first moment after it when every one of them is in
    their active hours, if there is one within the cap. None when it stays where it is."""
    if max_shift <= ZERO:
        return None
    limit = deadline + max_shift
    moved = deadline
    blamed: list[tuple[int, Window]] = []
    # Each step moves to the next opening of a window the deadline is outside of, so no
    # moment when everybody is active is skipped; a later window may fall in another seat's
    # night, hence the loop (bounded: past the cap it stops).
    for _ in range(64):
        outside = [(seat, window) for seat, window in sorted(windows.items())
                   if window is not None and not is_active(moved, window)]
        if not outside:
            break
        blamed.append(outside[0])
        moved = next_window_start(moved, outside[0][1])
        if moved >= limit:
            moved = limit
            break
    if not blamed or moved == deadline:
        return None
    seats = tuple(dict.fromkeys(seat for seat, _ in blamed))
    return Shift(original=deadline, deadline=moved, seat=blamed[-1][0], window=blamed[-1][1],
                 capped=not all(is_active(moved, w) for w in windows.values() if w is not None),
                 seats=seats)


def format_remaining(left: timedelta) -> str:
    """``2 d 4 h``, ``5 h 12 min``, ``40 min``, ``0 min`` — a clock as a player reads it."""
    minutes = max(0, int(left.total_seconds() // 60))
    days, minutes = divmod(minutes, 24 * 60)
    hours, minutes = divmod(minutes, 60)
    if days:
        return f"{days} d {hours} h"
    if hours:
        return f"{hours} h {minutes} min"
    return f"{minutes} min"
