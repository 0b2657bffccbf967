"""How long a phase lasts: a fixed deadline (moved out of the night of a seat that still owes
input, within the match's maximum shift) or correspondence clocks (a bank per seat, charged
only while the seat owes input and is in its active hours, plus an increment per phase, up to a
cap). The arithmetic is ``clocks.arithmetic``; this module keeps a phase's record of it in
``Match.timing`` (JSON, written with the match row, so resolution costs no extra query):

    {"opened": iso, "banks": {"1": seconds, ...},          # banks when the phase opened
     "owing": {"1": {"due": iso, "window": [...], "stopped": iso,   # required seats
                     "leave": [[iso, iso], ...]}},          # this seat's leave in the phase
     "excused": [[iso, iso], ...],                          # outages in this phase
     "moved": {"from": iso, "to": iso, "seat": 2, "window": "...", "capped": false}}

"banks", "owing" and "excused" only for a clock match; "moved" only for a fixed deadline that
was moved. A seat's window is the one it had when the phase opened. An outage is excused for
every seat; a player's leave only for their own seat (the other clocks keep running).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal
from typing import Any

from clocks.arithmetic import (
    Interval,
    Window,
    bank_after,
    charged,
    deadline_shift,
    expiry,
)
from games import dates
from games.models import Match


def _hours(value: Decimal | float | int | None) -> timedelta:
    return timedelta(hours=float(value or 0))


def _at(value: str) -> datetime:
    return datetime.fromisoformat(value)


def uses_clock(match: Match) -> bool:
    return match.clock_bank_hours is not None


def needs_windows(match: Match) -> bool:
    """Whether the players' active hours matter to this match's deadlines."""
    return uses_clock(match) or bool(match.max_shift_hours)


def _excused(timing: dict[str, Any], entry: dict[str, Any] | None = None) -> list[Interval]:
    """The intervals not charged: the phase's outages, and the leave of the seat whose
    ``owing`` entry is ``entry``."""
    spans = list(timing.get("excused", [])) + list((entry or {}).get("leave", []))
    return [(_at(a), _at(b)) for a, b in spans]


def _leave_total(entry: dict[str, Any]) -> timedelta:
    return sum((_at(b) - _at(a) for a, b in entry.get("leave", [])), timedelta(0))


def _bank(match: Match, timing: dict[str, Any] | None, seat: int) -> timedelta:
    banks = (timing or {}).get("banks", {})
    if str(seat) in banks:
        return timedelta(seconds=banks[str(seat)])
    return _hours(match.clock_bank_hours)


def phase_timing(*, match: Match, required: Iterable[int], windows: dict[int, Window | None],
                 now: datetime, leave: dict[int, datetime] | None = None
                 ) -> tuple[datetime, dict[str, Any] | None]:
    """The deadline and timing record of a phase opening at ``now`` whose ``required`` seats
    owe input (``windows``: seat number → active hours). Reads the banks the last phase left
    in ``match.timing``. On clocks, ``leave`` (seat number → until when, the caller's cap
    applied) excuses the leave of players who are away as the phase opens: their seat's clock
    starts when they are back."""
    required = sorted(required)
    if uses_clock(match) and required:
        previous = match.timing
        owing = {}
        banks = {}
        for seat in sorted(set(required) | {int(n) for n in (previous or {}).get("banks", {})}):
            banks[str(seat)] = _bank(match, previous, seat).total_seconds()
        for seat in required:
            window = windows.get(seat)
            entry: dict[str, Any] = {"window": window.as_json() if window else None}
            back = (leave or {}).get(seat)
            if back is not None and back > now:
                entry["leave"] = [[now.isoformat(), back.isoformat()]]
            due = expiry(now, timedelta(seconds=banks[str(seat)]), window, _excused({}, entry))
            owing[str(seat)] = {"due": due.isoformat(), **entry}
        deadline = max(_at(entry["due"]) for entry in owing.values())
        return deadline, {"opened": now.isoformat(), "banks": banks, "owing": owing,
                          "excused": []}
    deadline = now + _hours(match.hours_per_phase)
    banks_left = (match.timing or {}).get("banks") if uses_clock(match) else None
    shift = deadline_shift(deadline, {seat: windows.get(seat) for seat in required},
                           _hours(match.max_shift_hours))
    record: dict[str, Any] = {}
    if banks_left:
        record["banks"] = banks_left
    if shift is not None:
        deadline = shift.deadline
        record["moved"] = {"from": shift.original.isoformat(), "to": shift.deadline.isoformat(),
                           "seat": shift.seat, "seats": list(shift.seats),
                           "window": str(shift.window),
                           "capped": shift.capped}
    return deadline, record or None


def _owing(match: Match) -> dict[str, dict[str, Any]]:
    return (match.timing or {}).get("owing", {}) if uses_clock(match) else {}


def seat_due(match: Match, seat: int) -> datetime | None:
    """When ``seat``'s clock runs out in the open phase (None: it owes nothing, or no clock)."""
    entry = _owing(match).get(str(seat))
    return _at(entry["due"]) if entry else None


def expired_seats(match: Match, now: datetime) -> set[int]:
    """The seats whose clock ran out in the open phase before they submitted."""
    return {int(seat) for seat, entry in _owing(match).items()
            if "stopped" not in entry and _at(entry["due"]) <= now}


def clock_stop(match: Match, seat: int, now: datetime) -> bool:
    """A seat's first sheet of the phase stops its clock: note it and make the match's
    deadline the latest due time of the seats still owing input (the caller saves
    ``timing`` and ``deadline``). False if nothing changed."""
    owing = _owing(match)
    entry = owing.get(str(seat))
    if entry is None or "stopped" in entry:
        return False
    entry["stopped"] = now.isoformat()
    running = [_at(e["due"]) for e in owing.values() if "stopped" not in e]
    if running:
        match.deadline = max(running)
    return True


def clocks_close(match: Match, *, required: Iterable[int], defaulted: Iterable[int],
                 now: datetime) -> None:
    """Charge each seat that owed input in the phase now resolving and give it the increment
    (in ``match.timing["banks"]``, which the next phase opens with). A seat that got its
    default is charged up to its due time (all its bank)."""
    if not uses_clock(match) or not match.timing:
        return
    timing = match.timing
    opened = _at(timing["opened"])
    defaulted = set(defaulted)
    banks = dict(timing.get("banks", {}))
    for seat in required:
        entry = timing["owing"].get(str(seat))
        bank = _bank(match, timing, seat)
        if entry is None:
            continue
        window = Window.from_json(entry.get("window"))
        if seat in defaulted or "stopped" not in entry:
            until = min(now, _at(entry["due"])) if seat in defaulted else now
        else:
            until = _at(entry["stopped"])
        used = charged(opened, until, window, _excused(timing, entry))
        if seat in defaulted:
            used = max(used, bank)
        banks[str(seat)] = bank_after(bank, used, _hours(match.clock_increment_hours),
                                      _hours(match.clock_cap_hours)).total_seconds()
    match.timing = {"banks": banks}


def clocks_excuse(match: Match, since: datetime, until: datetime) -> bool:
    """Excuse [since, until) (an outage) on the open phase's clocks: no seat is charged for it,
    so each running clock's due time and the match's deadline move on. Idempotent."""
    timing = match.timing
    if not uses_clock(match) or not timing or "owing" not in timing:
        return False
    since = max(since, _at(timing["opened"]))
    if until <= since:
        return False
    interval = [since.isoformat(), until.isoformat()]
    if interval in timing["excused"]:
        return False
    timing["excused"].append(interval)
    _dues_recompute(match)
    return True


def clock_leave(match: Match, seat: int, since: datetime, until: datetime, cap: timedelta
                ) -> timedelta:
    """Excuse [since, until) (the player's leave) on ``seat``'s clock in the open phase, no
    more than ``cap`` of leave on this seat in the phase, all leaves together: that seat's due
    time moves on, and the match's deadline with it if it runs out last; the other seats'
    clocks keep running. Only a clock still running (the seat owes input and has no sheet in)
    is stopped. Returns the leave excused (zero: nothing changed; the caller saves ``timing``
    and ``deadline``)."""
    entry = _owing(match).get(str(seat))
    if entry is None or "stopped" in entry or not match.timing or _at(entry["due"]) <= since:
        return timedelta(0)  # no clock of this seat runs (or it already ran out)
    since = max(since, _at(match.timing["opened"]))
    until = min(until, since + max(timedelta(0), cap - _leave_total(entry)))
    if until <= since:
        return timedelta(0)
    entry.setdefault("leave", []).append([since.isoformat(), until.isoformat()])
    _dues_recompute(match)
    return until - since


def _dues_recompute(match: Match) -> None:
    """Each running clock's due time from its bank and what is excused for it; the match's
    deadline is the last of them."""
    timing = match.timing
    opened = _at(timing["opened"])
    running = []
    for seat, entry in timing["owing"].items():
        if "stopped" in entry:
            continue
        due = expiry(opened, _bank(match, timing, int(seat)),
                     Window.from_json(entry.get("window")), _excused(timing, entry))
        entry["due"] = due.isoformat()
        running.append(due)
    if running:
        match.deadline = max(running)


@dataclass(frozen=True)
class SeatClock:
    """A seat's clock as a page or an e-mail shows it."""

    seat: int
    left: timedelta
    running: bool  # the seat owes input and its clock is not stopped
    due: datetime | None
    window: Window | None
    on_leave_until: datetime | None = None  # running, but stopped now for its player's leave

    @property
    def text(self) -> str:
        return dates.duration(max(self.left, timedelta(0)))


def seat_clocks(match: Match, now: datetime, seats: Iterable[int] = ()) -> dict[int, SeatClock]:
    """The clock now of every seat that has played and of ``seats`` (empty for a match
    without clocks)."""
    if not uses_clock(match):
        return {}
    timing = match.timing or {}
    banks = timing.get("banks", {})
    owing = timing.get("owing", {})
    opened = _at(timing["opened"]) if "opened" in timing else None
    clocks = {}
    for seat in sorted({int(n) for n in banks} | {int(n) for n in owing} | set(seats)):
        bank = _bank(match, timing, seat)
        entry = owing.get(str(seat))
        if entry is None or opened is None:
            clocks[seat] = SeatClock(seat, bank, False, None, None)
            continue
        window = Window.from_json(entry.get("window"))
        until = _at(entry["stopped"]) if "stopped" in entry else now
        left = max(timedelta(0), bank - charged(opened, until, window, _excused(timing, entry)))
        away = None if "stopped" in entry else max(
            (_at(b) for a, b in entry.get("leave", []) if _at(a) <= now < _at(b)), default=None)
        clocks[seat] = SeatClock(seat, left, "stopped" not in entry, _at(entry["due"]), window,
                                 away)
    return clocks


def moved_deadline(match: Match) -> dict[str, Any] | None:
    """Why the open phase's deadline is not where the match's hours per phase put it."""
    moved = (match.timing or {}).get("moved")
    if not moved:
        return None
    return {**moved, "from": _at(moved["from"]), "to": _at(moved["to"])}
