"""Leave on correspondence clocks (``timing.clock_leave``, ``vacation.leave_for_clock_phase``):
a player's leave stops their own seat's clock, not the others'; it is not charged; the seat's
due time and the match's deadline move in the leave's transaction; the sweeper finds the
match when the last clock really runs out; a phase opening during leave starts that seat's
clock when the player is back; a miss during leave does not count against the record."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from unittest import mock

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from clocks.services import active_hours_set
from durable import outbox
from durable.models import OutboxEvent
from games import services
from games.models import (
    DeadlineMiss,
    LeaveExtension,
    Match,
    ModerationEntry,
    Phase,
    Reliability,
)
from games.services.timing import seat_clocks
from portal.api.services import api_token_create
from tests.games.test_services_clocks import Clock, H, banks, clocked, submit

pytestmark = pytest.mark.django_db

D = 24 * H


@pytest.fixture
def clock(settings):
    settings.SWEEP_OUTAGE_SECONDS = 10**9  # jumping days ahead is not an outage
    clock = Clock(datetime(2026, 1, 15, 12, tzinfo=UTC))
    with mock.patch("django.utils.timezone.now", clock):
        yield clock


def dispatch() -> None:
    """Carry out every promised side effect, as the worker does after the commit."""
    while ids := list(OutboxEvent.objects.filter(done_at__isnull=True).values_list("pk",
                                                                                 flat=True)):
        outbox.outbox_dispatch(ids=ids)


def test_a_seat_on_leave_is_charged_the_leave_less_and_the_other_seat_fully(toy_duel, clock):
    match = clocked(toy_duel)  # 72 h banks, + 24 h, at most 168 h
    opened = clock.now
    clock.advance(2 * H)
    leave = services.leave_take(user=match.alice, days=3)  # until opened + 74 h
    match.refresh_from_db()
    # Alice has used 2 h; her other 70 h run from when she is back.
    assert match.timing["owing"]["1"]["due"] == (opened + 144 * H).isoformat()
    assert match.timing["owing"]["2"]["due"] == (opened + 72 * H).isoformat()  # bob's runs on
    assert match.deadline == opened + 144 * H
    assert Phase.objects.get(match=match, number=1).deadline == match.deadline
    assert Phase.objects.get(match=match, number=1).leave_extended == timedelta(0)
    (ext,) = LeaveExtension.objects.filter(leave=leave)
    assert (ext.match_id, ext.phase_number, ext.added) == (match.pk, 1, 3 * D)
    assert ModerationEntry.objects.get(match=match, kind="leave").summary == (
        f"{match.alice.username} is on leave: their clock stops for 3 days")

    clocks = seat_clocks(match, clock.advance(28 * H))  # opened + 30 h
    assert clocks[1].left == 70 * H and clocks[1].running
    assert clocks[1].on_leave_until == leave.ends_at
    assert clocks[2].left == 42 * H and clocks[2].on_leave_until is None
    submit(match, match.bob, 2, 2)  # bob at 30 h
    clock.advance(50 * H)  # opened + 80 h: alice is back since 6 h
    assert seat_clocks(Match.objects.get(pk=match.pk), clock.now)[1].on_leave_until is None
    submit(match, match.alice, 1, 4)
    assert services.phase_resolve(match_id=match.pk, phase_number=1)
    # Alice: 80 h of wall clock, 72 h of them on leave, charged 8 h; bob charged all 30 h.
    assert banks(match) == {"1": 72 - 8 + 24, "2": 72 - 30 + 24}


def test_the_sweeper_finds_a_clock_stopped_for_leave_when_it_really_runs_out(toy_duel, clock):
    match = clocked(toy_duel)
    opened = clock.now
    submit(match, match.bob, 2, 2)
    clock.advance(2 * H)
    services.leave_take(user=match.alice, days=3)
    clock.advance(141 * H)  # opened + 143 h: without the leave she would have run out at 72 h
    assert services.deadlines_sweep() == 0
    assert services.phase_resolve(match_id=match.pk, phase_number=1) is False
    clock.advance(H)
    with mock.patch("games.services.sweep.transaction.on_commit") as queued:
        assert services.deadlines_sweep() == 1
    assert queued.call_args.args[0].kwargs["pairs"] == [[match.pk, 1]]
    assert clock.now == opened + 144 * H
    assert services.phase_resolve(match_id=match.pk, phase_number=1)
    assert banks(match) == {"1": 24, "2": 72 + 24 - 0}  # alice out of time; bob had 0 h used
    dispatch()
    # She ran out after her leave: the miss counts.
    assert DeadlineMiss.objects.get(match=match, user=match.alice).excused is False


def test_leave_stops_the_clock_only_in_its_active_hours_terms(toy_duel, clock):
    """With active hours the leave excuses only what would have been charged: the clock
    restarts at the next window after the leave."""
    match = clocked(toy_duel, clock_bank_hours=10, clock_increment_hours=0, clock_cap_hours=20)
    # 15 Jan 2026 12:00 UTC; alice active 08:00–18:00 UTC from the next phase on.
    active_hours_set(user=match.alice, start=time(8), end=time(18), time_zone="UTC")
    submit(match, match.alice, 1, 4)
    submit(match, match.bob, 2, 2)
    assert services.phase_resolve(match_id=match.pk, phase_number=1)  # phase 2 at 12:00
    clock.advance(H)  # 13:00, 1 h charged
    services.leave_take(user=match.alice, days=1)  # until 16 Jan 13:00
    match.refresh_from_db()
    # Back at 13:00 on the 16th: 5 h that day (to 18:00) and the last 4 h on the 17th.
    due = match.timing["owing"]["1"]["due"]
    assert due == (clock.now + D + 5 * H + 14 * H + 4 * H).isoformat()


def test_a_phase_opening_during_leave_starts_that_seats_clock_when_the_player_is_back(
        toy_duel, clock, settings):
    match = clocked(toy_duel, options={"target": 9})
    submit(match, match.alice, 1, 4)
    clock.advance(H)
    leave = services.leave_take(user=match.alice, days=2)  # her sheet is in: nothing moves
    assert not LeaveExtension.objects.filter(leave=leave).exists()
    clock.advance(H)
    submit(match, match.bob, 2, 2)
    with CaptureQueriesContext(connection) as captured:
        assert services.phase_resolve(match_id=match.pk, phase_number=1)
    queries = [q["sql"] for q in captured if not q["sql"].startswith(("SAVEPOINT", "RELEASE"))]
    # The budget of a resolution, plus the leave rows, their records and the audit row.
    assert len(queries) <= 13, "\n".join(q[:120] for q in queries)
    match.refresh_from_db()
    back = leave.ends_at
    owing = match.timing["owing"]
    assert owing["1"]["leave"] == [[clock.now.isoformat(), back.isoformat()]]
    assert owing["1"]["due"] == (back + 96 * H).isoformat()  # 72 - 0 + 24, from her return
    assert owing["2"]["due"] == (clock.now + 94 * H).isoformat()  # 72 - 2 + 24, from now
    assert "leave" not in owing["2"]
    assert match.deadline == back + 96 * H
    (ext,) = LeaveExtension.objects.filter(leave=leave)
    assert (ext.phase_number, ext.added) == (2, back - clock.now)
    entry = ModerationEntry.objects.get(match=match, kind="leave", phase_number=2)
    assert f"{match.alice.username}'s clock stopped until" in entry.summary
    assert Phase.objects.get(match=match, number=2).deadline == match.deadline


def test_leave_on_a_clock_is_capped_per_seat_and_phase(toy_duel, clock, settings):
    settings.VACATION_MAX_PHASE_DAYS = 2
    match = clocked(toy_duel)
    opened = clock.now
    leave = services.leave_take(user=match.alice, days=5)
    match.refresh_from_db()
    assert match.timing["owing"]["1"]["leave"] == [[opened.isoformat(),
                                                    (opened + 2 * D).isoformat()]]
    assert match.deadline == opened + 2 * D + 72 * H
    assert LeaveExtension.objects.get(leave=leave).added == 2 * D


def test_leave_does_not_stop_a_clock_where_vacations_are_not_allowed(toy_duel, clock):
    match = clocked(toy_duel, allow_vacations=False)
    opened = clock.now
    leave = services.leave_take(user=match.alice, days=4)
    match.refresh_from_db()
    assert "leave" not in match.timing["owing"]["1"]
    assert match.deadline == opened + 72 * H
    assert not LeaveExtension.objects.filter(leave=leave).exists()
    # Her clock runs out during her leave: she gets her default, but the miss is excused.
    submit(match, match.bob, 2, 2)
    clock.advance(72 * H)
    assert services.phase_resolve(match_id=match.pk, phase_number=1)
    dispatch()
    miss = DeadlineMiss.objects.get(match=match, user=match.alice)
    assert miss.excused and miss.excused_reason.startswith("on leave until")


def test_a_miss_after_a_clock_ran_out_before_the_leave_still_counts(toy_duel, clock):
    """The miss is when the seat's clock ran out, not when the phase resolved."""
    match = clocked(toy_duel, clock_bank_hours=10, clock_increment_hours=0, clock_cap_hours=20)
    submit(match, match.bob, 2, 2)
    clock.advance(11 * H)  # alice ran out at 10 h; the phase has not resolved yet
    leave = services.leave_take(user=match.alice, days=2)
    assert not LeaveExtension.objects.filter(leave=leave).exists()  # too late to stop it
    assert services.phase_resolve(match_id=match.pk, phase_number=1)
    dispatch()
    assert DeadlineMiss.objects.get(match=match, user=match.alice).excused is False


def test_a_fixed_deadline_missed_during_leave_does_not_count(make_user, clock):
    """Where vacations are not allowed the deadline stays, and the player on leave misses it:
    their record does not count the miss (nor after the match is counted)."""
    alice, bob = make_user("alice"), make_user("bob")
    match = services.match_create(
        creator=alice, game="toy-duel", options={"target": 2}, hours_per_phase=24,
        allow_vacations=False,
        seats=[{"kind": "human", "user": alice}, {"kind": "human", "user": bob}])
    services.leave_take(user=bob, days=2)
    submit(match, alice, 1, 4)
    clock.advance(24 * H)
    assert services.phase_resolve(match_id=match.pk, phase_number=1)
    submit(match, alice, 1, 4)
    submit(match, bob, 2, 2)
    assert services.phase_resolve(match_id=match.pk, phase_number=2)
    dispatch()
    match.refresh_from_db()
    assert match.status == "finished"
    miss = DeadlineMiss.objects.get(match=match, user=bob)
    assert miss.excused
    record = Reliability.objects.get(user=bob)
    assert (record.deadlines, record.deadlines_missed, record.misses_excused,
            record.score) == (2, 0, 1, 100)


def test_the_page_the_api_and_the_mail_say_the_clock_is_stopped_for_leave(toy_duel, clock,
                                                                            client):
    from portal.mail.services.notify import phase_email_content

    match = clocked(toy_duel)
    leave = services.leave_take(user=match.alice, days=3)
    match.refresh_from_db()
    until = f"{leave.ends_at:%Y-%m-%d %H:%M}"
    client.force_login(match.bob)
    page = client.get(reverse("games:match", args=[match.pk])).content.decode()
    assert "on leave until" in page and "clock stopped" in page
    client.force_login(match.alice)
    mine = client.get(reverse("games:match", args=[match.pk])).content.decode()
    assert "stopped while you are on leave" in mine
    token = api_token_create(user=match.bob, name="bot").token
    api = Client(HTTP_AUTHORIZATION=f"Bearer {token}").get(f"/api/v1/matches/{match.pk}").json()
    alice = next(seat for seat in api["seats"] if seat["number"] == 1)
    assert alice["clock"]["on_leave_until"].startswith(until.replace(" ", "T"))
    bob = next(seat for seat in api["seats"] if seat["number"] == 2)
    assert bob["clock"]["on_leave_until"] is None
    phase = Phase.objects.get(match=match, number=1)
    seat = match.seats.get(number=1)
    body = phase_email_content(match=match, phase=phase, seat=seat)["body_text"]
    assert "stopped while you are on leave" in body


def test_a_pause_is_not_charged_and_leave_taken_meanwhile_stops_the_clock_on_resuming(
        toy_duel, clock, moderator):
    match = clocked(toy_duel)
    opened = clock.now
    clock.advance(2 * H)
    services.match_pause(match_id=match.pk, by=moderator, reason="dispute")
    clock.advance(100 * H)  # longer than either bank
    leave = services.leave_take(user=match.alice, days=2)  # paused: nothing moves yet
    assert not LeaveExtension.objects.filter(leave=leave).exists()
    clock.advance(H)  # opened + 103 h
    services.match_resume(match_id=match.pk, by=moderator, reason="settled")
    match.refresh_from_db()
    assert match.timing["excused"] == [[(opened + 2 * H).isoformat(), clock.now.isoformat()]]
    # Bob: 2 h used before the pause, 70 h from now. Alice: the same, after her leave.
    assert match.timing["owing"]["2"]["due"] == (clock.now + 70 * H).isoformat()
    assert match.timing["owing"]["1"]["due"] == (leave.ends_at + 70 * H).isoformat()
    assert match.deadline == leave.ends_at + 70 * H
    assert Phase.objects.get(match=match, number=1).deadline == match.deadline
    assert LeaveExtension.objects.get(leave=leave).added == leave.ends_at - clock.now
    assert services.phase_resolve(match_id=match.pk, phase_number=1) is False
    assert seat_clocks(match, clock.now)[2].left == 70 * H


def test_the_profile_and_the_leave_mail_say_the_clock_stopped(toy_duel, clock, client):
    from portal.mail.models import OutgoingEmail
    from portal.mail.services.leave import leave_taken_notify

    match = clocked(toy_duel)
    leave = services.leave_take(user=match.alice, days=2)
    client.force_login(match.alice)
    page = client.get(reverse("accounts_profile")).content.decode()
    assert "phase 1: your clock stopped for 2 days" in page
    assert leave_taken_notify(leave_id=leave.pk) == 1
    body = OutgoingEmail.objects.get(kind="leave").body_text
    assert f"{match}, phase 1: your clock stops for 2 days, now runs out" in body


def test_a_match_created_while_a_player_is_on_leave_starts_their_clock_when_they_are_back(
        make_user, clock):
    alice, bob = make_user("alice"), make_user("bob")
    leave = services.leave_take(user=bob, days=1)
    with CaptureQueriesContext(connection) as captured:
        match = services.match_create(
            creator=alice, game="toy-duel", options={}, hours_per_phase=24,
            clock_bank_hours=72, clock_increment_hours=24, clock_cap_hours=168,
            seats=[{"kind": "human", "user": alice}, {"kind": "human", "user": bob}])
    queries = [q["sql"] for q in captured if not q["sql"].startswith(("SAVEPOINT", "RELEASE"))]
    # The creation budget (9), plus the leave rows, their records and the audit row.
    assert len(queries) <= 12, "\n".join(q[:120] for q in queries)
    assert match.timing["owing"]["1"]["due"] == (clock.now + 72 * H).isoformat()
    assert match.timing["owing"]["2"]["due"] == (leave.ends_at + 72 * H).isoformat()
    assert match.deadline == leave.ends_at + 72 * H
    assert LeaveExtension.objects.get(leave=leave, match=match).added == D
