"""Correspondence clocks and active hours in the lifecycle (``games.services.timing``): banks,
increments and caps, who is charged, running out, the sweeper, outages, fixed deadlines moved
out of a seat's night, across DST and across UTC−8 and UTC+9 in one match."""

from __future__ import annotations

import zoneinfo
from datetime import UTC, datetime, time, timedelta
from unittest import mock

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from clocks.services import active_hours_set
from games import services
from games.models import Match, Phase, Seat, Submission, SweepRun
from games.services import ServiceError
from games.services.timing import moved_deadline, seat_clocks
from tests.helpers import submit

pytestmark = pytest.mark.django_db

H = timedelta(hours=1)
LA, TOKYO = "America/Los_Angeles", "Asia/Tokyo"


def local(zone: str, *args: int) -> datetime:
    return datetime(*args, tzinfo=zoneinfo.ZoneInfo(zone)).astimezone(UTC)


class Clock:
    """The time the services read (``timezone.now``): days of play cannot be waited for."""

    def __init__(self, start: datetime) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def advance(self, delta: timedelta) -> datetime:
        self.now += delta
        return self.now


@pytest.fixture
def clock(settings):
    settings.SWEEP_OUTAGE_SECONDS = 10**9  # jumping days ahead is not an outage (but below)
    clock = Clock(datetime(2026, 1, 15, 12, tzinfo=UTC))
    with mock.patch("django.utils.timezone.now", clock):
        yield clock


def banks(match) -> dict[str, float]:
    match.refresh_from_db()
    return {seat: seconds / 3600 for seat, seconds in match.timing["banks"].items()}


def clocked(toy_duel, **kwargs):
    args = {"clock_bank_hours": 72, "clock_increment_hours": 24, "clock_cap_hours": 168}
    args.update(kwargs)
    return toy_duel(**args)


def test_only_seats_that_owe_input_are_charged_then_get_the_increment(toy_duel, clock):
    match = clocked(toy_duel)
    opened = clock.now
    assert match.deadline == opened + 72 * H  # the last clock to run out
    clock.advance(2 * H)
    submit(match, match.alice, 1, 4)  # alice's clock stops at 2 h
    clocks = seat_clocks(Match.objects.get(pk=match.pk), clock.advance(8 * H))
    assert clocks[1].left == 70 * H and not clocks[1].running
    assert clocks[2].left == 62 * H and clocks[2].running and clocks[2].text == "2 days, 14 hours"
    submit(match, match.bob, 2, 2)  # at 10 h: complete
    assert services.phase_resolve(match_id=match.pk, phase_number=1)
    assert banks(match) == {"1": 72 - 2 + 24, "2": 72 - 10 + 24}
    assert match.phase_number == 2
    assert match.deadline == clock.now + 94 * H  # alice's clock now runs out last
    assert match.timing["owing"]["2"]["due"] == (clock.now + 86 * H).isoformat()


def test_a_bank_never_grows_beyond_the_cap(toy_duel, clock):
    match = clocked(toy_duel, clock_cap_hours=80)
    submit(match, match.alice, 1, 4)
    submit(match, match.bob, 2, 2)
    services.phase_resolve(match_id=match.pk, phase_number=1)
    assert banks(match) == {"1": 80, "2": 80}


def test_the_phase_resolves_when_the_last_running_clock_runs_out(toy_duel, clock):
    match = clocked(toy_duel)
    clock.advance(H)
    submit(match, match.alice, 1, 5)
    match.refresh_from_db()
    assert match.deadline == match.started_at + 72 * H  # bob's
    clock.advance(70 * H)
    assert services.deadlines_sweep() == 0  # bob still has an hour
    assert services.phase_resolve(match_id=match.pk, phase_number=1) is False
    clock.advance(H)
    with mock.patch("games.services.sweep.transaction.on_commit") as queued:
        assert services.deadlines_sweep() == 1  # found through the deadline index
    assert queued.call_args.args[0].kwargs["pairs"] == [[match.pk, 1]]
    assert services.phase_resolve(match_id=match.pk, phase_number=1)
    bob = Seat.objects.get(match=match, number=2)
    assert bob.missed_total == 1 and bob.missed_in_row == 1  # counted as a missed deadline
    sheet = Submission.objects.get(phase__match=match, phase__number=1, seat=bob)
    assert sheet.source == Submission.Source.DEFAULT
    assert banks(match) == {"1": 72 - 1 + 24, "2": 24}  # out of time: the increment only


def test_a_seat_out_of_time_is_refused_and_the_others_resolve_without_waiting(toy_duel, clock):
    match = clocked(toy_duel)
    submit(match, match.alice, 1, 4)
    clock.advance(30 * H)
    submit(match, match.bob, 2, 2)
    services.phase_resolve(match_id=match.pk, phase_number=1)
    assert banks(match) == {"1": 96, "2": 66}
    clock.advance(67 * H)  # bob is out of time, alice has 29 h left
    with pytest.raises(ServiceError) as caught:
        submit(match, match.bob, 2, 5)
    assert caught.value.code == "clock_ran_out"
    assert services.phase_resolve(match_id=match.pk, phase_number=2) is False  # alice owes
    receipt = submit(match, match.alice, 1, 3)
    assert receipt.complete  # every seat is in or out of time
    assert services.phase_resolve(match_id=match.pk, phase_number=2)
    assert Seat.objects.get(match=match, number=2).missed_total == 1


def test_a_sheet_may_be_changed_after_the_clock_stopped(toy_duel, clock):
    match = clocked(toy_duel, clock_bank_hours=2, clock_increment_hours=0, clock_cap_hours=2)
    submit(match, match.alice, 1, 4)
    clock.advance(3 * H)  # alice's own bank would be gone, but her clock stopped
    match.refresh_from_db()
    assert match.deadline == match.started_at + 2 * H  # bob's: due
    assert services.phase_resolve(match_id=match.pk, phase_number=1)


def test_a_sequential_phase_charges_only_the_seat_to_move(make_user, clock):
    a, b, c = make_user("ann"), make_user("ben"), make_user("cat")
    match = services.match_create(
        creator=a, game="toy-count", options={"target": 9}, hours_per_phase=12,
        seats=[{"kind": "human", "user": u} for u in (a, b, c)],
        clock_bank_hours=10, clock_increment_hours=1, clock_cap_hours=20)
    assert list(match.timing["owing"]) == ["1"]
    clock.advance(3 * H)
    services.orders_submit(match_id=match.pk, seat_number=1, user=a, phase_number=1,
                           data={"add": 1}, source="web")
    match.refresh_from_db()
    assert match.phase_number == 2 and list(match.timing["owing"]) == ["2"]
    assert {k: v / 3600 for k, v in match.timing["banks"].items()} == {"1": 8, "2": 10}
    assert seat_clocks(match, clock.now, seats=[1, 2, 3])[3].left == 10 * H  # not yet charged
    assert match.deadline == clock.now + 10 * H


def test_a_clock_does_not_run_outside_active_hours(toy_duel, clock):
    match_users = toy_duel()  # just for two accounts
    alice, bob = match_users.alice, match_users.bob
    active_hours_set(user=alice, start=time(8), end=time(23), time_zone=LA)
    active_hours_set(user=bob, start=time(8), end=time(23), time_zone=TOKYO)
    clock.now = local(LA, 2026, 1, 15, 20)  # 13:00 on the 16th in Tokyo
    match = services.match_create(
        creator=alice, game="toy-duel", options={}, hours_per_phase=24,
        seats=[{"kind": "human", "user": alice}, {"kind": "human", "user": bob}],
        clock_bank_hours=12, clock_increment_hours=0, clock_cap_hours=12)
    # Alice (UTC−8): 3 h tonight, then from 08:00: 9 h more, out at 17:00 on the 16th.
    # Bob (UTC+9): 10 h until 23:00 in Tokyo, then 2 h from 08:00: out at 10:00 on the 17th.
    assert match.timing["owing"]["1"]["due"] == local(LA, 2026, 1, 16, 17).isoformat()
    assert match.timing["owing"]["2"]["due"] == local(TOKYO, 2026, 1, 17, 10).isoformat()
    assert match.deadline == local(LA, 2026, 1, 16, 17)
    clock.now = local(LA, 2026, 1, 16, 7, 30)  # alice slept: charged 3 h, not 11.5
    match.refresh_from_db()
    assert seat_clocks(match, clock.now)[1].left == 9 * H
    submit(match, alice, 1, 5)
    clock.now = local(TOKYO, 2026, 1, 17, 9)  # bob: 10 h + 1 h
    submit(match, bob, 2, 1)
    services.phase_resolve(match_id=match.pk, phase_number=1)
    assert banks(match) == {"1": 9, "2": 1}


def test_clocks_follow_the_wall_clock_across_dst(toy_duel, clock):
    """15 h of bank in 08:00–23:00 Los Angeles lasts exactly one day of play on the
    Sundays the clocks change, in spring and in autumn."""
    for day in ((2026, 3, 8), (2026, 11, 1)):
        match = toy_duel()
        active_hours_set(user=match.alice, start=time(8), end=time(23), time_zone=LA)
        clock.now = local(LA, *day)  # midnight
        match = services.match_create(
            creator=match.alice, game="toy-duel", options={}, hours_per_phase=24,
            seats=[{"kind": "human", "user": match.alice}, {"kind": "bot", "bot": "random"}],
            clock_bank_hours=15, clock_increment_hours=0, clock_cap_hours=15)
        assert match.timing["owing"]["1"]["due"] == local(LA, *day, 23).isoformat()


def test_a_fixed_deadline_moves_out_of_the_night_of_a_seat_that_owes_input(toy_duel, clock):
    users = toy_duel()
    active_hours_set(user=users.bob, start=time(8), end=time(23), time_zone=TOKYO)
    clock.now = local(TOKYO, 2026, 1, 15, 3)  # a deadline 24 h later is 03:00 for bob
    seats = [{"kind": "human", "user": users.alice}, {"kind": "human", "user": users.bob}]
    match = services.match_create(creator=users.alice, game="toy-duel", options={},
                                  hours_per_phase=24, seats=seats, max_shift_hours=12)
    assert match.deadline == local(TOKYO, 2026, 1, 16, 8)
    moved = moved_deadline(match)
    assert moved["from"] == local(TOKYO, 2026, 1, 16, 3) and moved["seat"] == 2
    assert not moved["capped"]
    assert Phase.objects.get(match=match, number=1).deadline == match.deadline
    capped = services.match_create(creator=users.alice, game="toy-duel", options={},
                                   hours_per_phase=24, seats=seats, max_shift_hours=2)
    assert capped.deadline == local(TOKYO, 2026, 1, 16, 5) and moved_deadline(capped)["capped"]
    fixed = services.match_create(creator=users.alice, game="toy-duel", options={},
                                  hours_per_phase=24, seats=seats, max_shift_hours=0)
    assert fixed.deadline == local(TOKYO, 2026, 1, 16, 3) and moved_deadline(fixed) is None


def test_a_fixed_deadline_moves_for_a_seat_in_utc_minus_8_and_one_in_utc_plus_9(toy_duel,
                                                                                clock):
    users = toy_duel()
    active_hours_set(user=users.alice, start=time(8), end=time(23), time_zone=LA)
    active_hours_set(user=users.bob, start=time(8), end=time(23), time_zone=TOKYO)
    clock.now = local(LA, 2026, 1, 14, 23, 30)
    match = services.match_create(
        creator=users.alice, game="toy-duel", options={}, hours_per_phase=24,
        seats=[{"kind": "human", "user": users.alice}, {"kind": "human", "user": users.bob}],
        max_shift_hours=18)
    # 23:30 in LA: alice asleep; her 08:00 is 01:00 in Tokyo; bob's 08:00 is 15:00 in LA.
    assert match.deadline == local(LA, 2026, 1, 16, 15) == local(TOKYO, 2026, 1, 17, 8)
    assert moved_deadline(match)["seats"] == [1, 2]


def test_a_fixed_deadline_across_the_spring_dst_change_moves_to_the_morning(toy_duel, clock):
    users = toy_duel()
    active_hours_set(user=users.alice, start=time(8), end=time(23), time_zone=LA)
    clock.now = local(LA, 2026, 3, 7, 7, 30)  # 24 h later the wall clock says 08:30 ...
    match = services.match_create(
        creator=users.alice, game="toy-duel", options={}, hours_per_phase=23,
        seats=[{"kind": "human", "user": users.alice}, {"kind": "bot", "bot": "random"}])
    # ... and 23 h later 07:30 PDT (the night lost an hour): moved to 08:00 PDT.
    assert match.deadline == local(LA, 2026, 3, 8, 8)
    assert moved_deadline(match)["from"] == local(LA, 2026, 3, 8, 7, 30)


def test_an_outage_is_not_charged(toy_duel, clock, settings):
    settings.SWEEP_OUTAGE_SECONDS = 60
    match = clocked(toy_duel)
    services.deadlines_sweep()  # the heartbeat
    started = clock.now
    clock.advance(5 * H)  # nothing ran for 5 hours
    services.deadlines_sweep()
    match.refresh_from_db()
    assert match.timing["excused"] == [[started.isoformat(), clock.now.isoformat()]]
    assert match.deadline == started + 77 * H
    assert seat_clocks(match, clock.now)[1].left == 72 * H
    services.deadlines_sweep()  # nothing twice
    match.refresh_from_db()
    assert len(match.timing["excused"]) == 1 and match.deadline == started + 77 * H
    assert SweepRun.objects.get().extending_since is None
    clock.advance(H)
    submit(match, match.alice, 1, 3)
    submit(match, match.bob, 2, 4)
    services.phase_resolve(match_id=match.pk, phase_number=1)
    assert banks(match) == {"1": 72 - 1 + 24, "2": 72 - 1 + 24}


def test_a_moderator_cannot_extend_a_clock(toy_duel, clock, make_user):
    from django.contrib.auth.models import Group

    moderator = make_user("mod", is_staff=True)
    moderator.groups.add(Group.objects.get(name="Moderator"))
    match = clocked(toy_duel)
    with pytest.raises(ServiceError) as caught:
        services.match_deadline_extend(match_id=match.pk, hours=5, by=moderator,
                                       reason="asked for more time")
    assert caught.value.code == "not_allowed"


@pytest.mark.parametrize("options,message", [
    ({"clock_bank_hours": 0}, "time bank"),
    ({"clock_bank_hours": 100, "clock_cap_hours": 50}, "time bank"),
    ({"clock_bank_hours": 10, "clock_cap_hours": 30 * 24 + 1}, "clock cap"),
    ({"clock_bank_hours": "soon"}, "not a number"),
    ({"clock_bank_hours": 10, "clock_increment_hours": -1}, "increment"),
    ({"max_shift_hours": -1}, "shift"),
    ({"max_shift_hours": 7 * 24 + 1}, "shift"),
])
def test_bad_clock_options_are_refused_with_a_reason(toy_duel, options, message):
    with pytest.raises(ServiceError) as caught:
        toy_duel(**options)
    assert caught.value.code == "invalid_options" and message in caught.value.message
    assert not Match.objects.filter(title="x").exists()


def test_resolving_on_clocks_costs_a_bounded_number_of_queries(toy_duel, clock):
    match = clocked(toy_duel)
    active_hours_set(user=match.alice, start=time(8), end=time(23), time_zone=LA)
    submit(match, match.alice, 1, 4)  # bob runs out: his default sheet is written too
    clock.advance(73 * H)
    with CaptureQueriesContext(connection) as captured:
        assert services.phase_resolve(match_id=match.pk, phase_number=1)
    queries = [q["sql"] for q in captured if not q["sql"].startswith(("SAVEPOINT", "RELEASE"))]
    assert len(queries) <= 10, "\n".join(q[:120] for q in queries)
