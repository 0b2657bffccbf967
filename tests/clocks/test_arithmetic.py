"""Clock arithmetic (``clocks.arithmetic``), against an independent oracle: walking minute by
minute and reading each minute's wall clock in the player's zone."""

from __future__ import annotations

import zoneinfo
from datetime import UTC, datetime, time, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clocks.arithmetic import (
    Window,
    bank_after,
    charged,
    deadline_shift,
    expiry,
    format_remaining,
    is_active,
    next_window_start,
)

MINUTE = timedelta(minutes=1)
ZONES = ["America/Los_Angeles", "Asia/Tokyo", "Europe/Berlin", "America/New_York", "UTC",
         "Australia/Sydney", "Asia/Kolkata"]


def wall_active(at: datetime, window: Window) -> bool:
    """The oracle: is the wall clock at ``at`` inside the window? (Only exact away from the
    hours clocks jump at, which the strategies below keep the window's edges out of.)"""
    local = at.astimezone(zoneinfo.ZoneInfo(window.zone)).time()
    if window.start < window.end:
        return window.start <= local < window.end
    return local >= window.start or local < window.end


def oracle_charged(since: datetime, until: datetime, window: Window | None,
                   excused: list[tuple[datetime, datetime]]) -> timedelta:
    total = timedelta(0)
    at = since
    while at < until:
        if (window is None or wall_active(at, window)) and not any(
                a <= at < b for a, b in excused):
            total += MINUTE
        at += MINUTE
    return total


# Window edges between 04:00 and 23:45: DST changes happen between 00:00 and 03:00 in these
# zones, so the minute oracle is exact; the DST edge cases have their own tests below.
edges = st.builds(time, st.integers(4, 23), st.sampled_from([0, 15, 30, 45]))
windows = st.tuples(edges, edges, st.sampled_from(ZONES)).filter(
    lambda w: abs((w[0].hour * 60 + w[0].minute) - (w[1].hour * 60 + w[1].minute)) >= 60
).map(lambda w: Window(*w))
maybe_windows = st.one_of(st.none(), windows)
# Instants around both DST changes of 2026 (March and October/November) and in between.
instants = st.builds(
    lambda day, minute: datetime(2026, 3, 1, tzinfo=UTC) + timedelta(days=day, minutes=minute),
    st.sampled_from([0, 6, 7, 27, 28, 100, 236, 244, 245, 250]), st.integers(0, 24 * 60 * 2))
spans = st.integers(0, 3 * 24 * 60).map(lambda m: timedelta(minutes=m))


@st.composite
def excused_intervals(draw, since):
    out = []
    for _ in range(draw(st.integers(0, 3))):
        start = since + timedelta(minutes=draw(st.integers(-600, 4 * 24 * 60)))
        out.append((start, start + timedelta(minutes=draw(st.integers(1, 24 * 60)))))
    return out


@settings(max_examples=60, deadline=None)
@given(data=st.data(), since=instants, span=spans, window=maybe_windows)
def test_a_seat_is_charged_exactly_its_active_unexcused_time(data, since, span, window):
    """Never outside its active hours, never in an excused interval, never more than the
    wall-clock time that passed."""
    until = since + span
    excused = data.draw(excused_intervals(since))
    got = charged(since, until, window, excused)
    assert got == oracle_charged(since, until, window, excused)
    assert timedelta(0) <= got <= until - since


@settings(max_examples=60, deadline=None)
@given(data=st.data(), since=instants, bank_minutes=st.integers(0, 3 * 24 * 60),
       window=maybe_windows)
def test_a_clock_runs_out_exactly_when_its_bank_is_charged(data, since, bank_minutes, window):
    bank = timedelta(minutes=bank_minutes)
    excused = data.draw(excused_intervals(since))
    out = expiry(since, bank, window, excused)
    assert charged(since, out, window, excused) == bank
    assert out - since >= bank  # time passes at least as fast as a clock
    if bank:
        assert charged(since, out - MINUTE, window, excused) < bank
        assert window is None or wall_active(out - MINUTE, window)  # it ran out while running


@given(bank=spans, used=spans, increment=spans, cap=st.integers(1, 30 * 24).map(
    lambda h: timedelta(hours=h)))
def test_banks_never_exceed_the_cap_nor_go_below_zero(bank, used, increment, cap):
    after = bank_after(min(bank, cap), used, increment, cap)
    assert timedelta(0) <= after <= cap
    assert after <= max(timedelta(0), min(bank, cap) - used) + increment


@settings(max_examples=60, deadline=None)
@given(at=instants, window=windows)
def test_the_next_window_starts_at_the_first_active_minute(at, window):
    at = at.replace(second=0)
    start = next_window_start(at, window)
    assert start >= at and is_active(start, window) and wall_active(start, window)
    probe = at
    while probe < start:
        assert not wall_active(probe, window)
        probe += timedelta(minutes=15)


@settings(max_examples=60, deadline=None)
@given(deadline=instants, first=windows, second=windows,
       max_hours=st.integers(0, 48))
def test_a_moved_deadline_never_moves_earlier_nor_past_the_cap(deadline, first, second,
                                                               max_hours):
    cap = timedelta(hours=max_hours)
    shift = deadline_shift(deadline, {1: first, 2: second}, cap)
    if shift is None:
        assert max_hours == 0 or (is_active(deadline, first) and is_active(deadline, second))
        return
    assert deadline < shift.deadline <= deadline + cap
    if not shift.capped:
        assert is_active(shift.deadline, first) and is_active(shift.deadline, second)
    else:
        assert shift.deadline == deadline + cap


LA, TOKYO = "America/Los_Angeles", "Asia/Tokyo"


def at(zone: str, *args: int) -> datetime:
    return datetime(*args, tzinfo=zoneinfo.ZoneInfo(zone)).astimezone(UTC)


def test_a_window_follows_the_wall_clock_across_both_dst_changes():
    window = Window(time(8), time(23), LA)
    # Sunday 8 March 2026 (clocks jump 02:00 → 03:00) and Sunday 1 November (03:00 → 02:00)
    # in Los Angeles: the window is 15 hours of wall clock each day, 08:00 PDT then PST.
    for day in (datetime(2026, 3, 8), datetime(2026, 11, 1)):
        since, until = at(LA, day.year, day.month, day.day), at(LA, day.year, day.month,
                                                               day.day + 1)
        assert charged(since, until, window) == timedelta(hours=15)
    assert next_window_start(at(LA, 2026, 3, 8, 2, 30), window) == at(LA, 2026, 3, 8, 8)
    assert at(LA, 2026, 3, 8, 8).hour == 15 and at(LA, 2026, 11, 1, 8).hour == 16  # UTC


def test_a_night_window_across_a_dst_change_keeps_its_wall_clock_length():
    window = Window(time(22), time(6), LA)  # a night owl
    since, until = at(LA, 2026, 3, 7, 12), at(LA, 2026, 3, 8, 12)
    assert charged(since, until, window) == timedelta(hours=7)  # 22:00–06:00 lost an hour
    since, until = at(LA, 2026, 10, 31, 12), at(LA, 2026, 11, 1, 12)
    assert charged(since, until, window) == timedelta(hours=9)  # and gained one in autumn


def test_a_window_starting_in_the_skipped_hour_opens_at_the_jump():
    window = Window(time(2, 30), time(9), "America/New_York")
    opens = next_window_start(at("America/New_York", 2026, 3, 8, 1), window)
    assert opens == datetime(2026, 3, 8, 7, tzinfo=UTC)  # 03:00 EDT, the moment of the jump
    assert charged(opens - timedelta(hours=1), opens + timedelta(hours=1), window) == \
        timedelta(hours=1)


def test_players_in_utc_minus_8_and_utc_plus_9_meet_in_the_la_afternoon():
    la, tokyo = Window(time(8), time(23), LA), Window(time(8), time(23), TOKYO)
    # 23:30 in Los Angeles (16:30 next day in Tokyo): LA is asleep. LA's morning, 08:00, is
    # 01:00 in Tokyo; Tokyo's morning, 08:00, is 15:00 in LA: both awake, 15.5 h later.
    deadline = at(LA, 2026, 1, 15, 23, 30)
    shift = deadline_shift(deadline, {1: la, 2: tokyo}, timedelta(hours=18))
    assert shift.deadline == at(LA, 2026, 1, 16, 15) == at(TOKYO, 2026, 1, 17, 8)
    assert shift.seats == (1, 2) and shift.seat == 2 and not shift.capped
    capped = deadline_shift(deadline, {1: la, 2: tokyo}, timedelta(hours=12))
    assert capped.deadline == deadline + timedelta(hours=12) and capped.capped
    assert deadline_shift(deadline, {1: la, 2: tokyo}, timedelta(0)) is None  # forbidden
    assert deadline_shift(at(LA, 2026, 1, 15, 20), {1: la, 2: tokyo},
                          timedelta(hours=12)) is None  # 20:00 LA is 13:00 in Tokyo


def test_the_shift_is_capped_by_the_match():
    la = Window(time(8), time(23), LA)
    deadline = at(LA, 2026, 1, 15, 23, 30)
    shift = deadline_shift(deadline, {1: la}, timedelta(hours=3))
    assert shift.deadline == deadline + timedelta(hours=3) and shift.capped


def test_a_window_must_not_be_empty():
    with pytest.raises(ValueError):
        Window(time(8), time(8), LA)


@pytest.mark.parametrize("left,text", [
    (timedelta(days=2, hours=4, minutes=5), "2 d 4 h"), (timedelta(hours=5, minutes=12),
                                                          "5 h 12 min"),
    (timedelta(minutes=40), "40 min"), (timedelta(seconds=-5), "0 min")])
def test_a_clock_reads_in_days_hours_and_minutes(left, text):
    assert format_remaining(left) == text
